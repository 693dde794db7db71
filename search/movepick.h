/* The staged move picker: TT move, good captures (MVV-LVA plus capture
 * history, split by SEE), killers and counter-move, quiets by history, bad
 * captures. In quiescence only captures and queen promotions (or, in check,
 * every evasion). Every move it returns is legal. */
#ifndef ROKADE_MOVEPICK_H
#define ROKADE_MOVEPICK_H

#include "history.h"

typedef struct {
    const Position *pos;
    const History *hist;
    ContHist *cont[2];  /* 1 and 2 plies back (may be NULL) */
    bitboard_t threats; /* the squares the opponent attacks (hist_threats) ... */
    bool threats_known; /* ... once asked for (mp_threats) */
    move_t tt_move, killers[2], counter;
    int stage;
    bool qsearch;
    bool skip_quiets; /* mp_skip_quiets before the quiet stages */
    int cur, end, bad_end;
    move_t moves[MAX_MOVES];
    int scores[MAX_MOVES];
    move_t bad[MAX_MOVES];
} MovePicker;

/* cont: the continuation histories of the moves 1 and 2 plies back (NULL:
 * none); killers may be NULL. The picker only reads the histories. */
void mp_init(MovePicker *mp, const Position *pos, const History *hist, ContHist *const cont[2],
             move_t tt_move, const move_t killers[2], move_t counter, bool qsearch);
/* The next move, or MOVE_NONE when done. After mp_skip_quiets no quiet
 * move comes any more (the captures and promotions still do). */
move_t mp_next(MovePicker *mp);
void mp_skip_quiets(MovePicker *mp);

/* The position's hist_threats, which order its quiet moves: made when
 * first asked for (by the quiet stage or the search's first quiet move),
 * since most nodes end before either. */
static inline bitboard_t mp_threats(MovePicker *mp)
{
    if (!THREAT_HIST)
        return 0;
    if (!mp->threats_known) {
        mp->threats = hist_threats(mp->pos);
        mp->threats_known = true;
    }
    return mp->threats;
}

#endif
