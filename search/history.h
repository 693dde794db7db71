/* Move-ordering statistics kept per search thread: butterfly history (by
 * side, from and to), capture history (by piece, target and victim),
 * continuation history (by the piece and target of the move 1 and 2 plies
 * back, then of this move) and counter moves. The search updates them at
 * cutoffs; the search and the move picker read them through the score
 * functions here. All updates use gravity, so values stay within
 * +-HISTORY_MAX. Model: Ethereal's history.c. */
#ifndef ROKADE_HISTORY_H
#define ROKADE_HISTORY_H

#include "../movegen/position.h"
#include "tunables.h"

enum { HISTORY_MAX = 16384 };

typedef int16_t ContHist[PIECE_NB][SQ_NB];

typedef struct {
    int16_t butterfly[COLOR_NB][SQ_NB * SQ_NB];
    int16_t capture[PIECE_NB][SQ_NB][PIECE_TYPE_NB];
    ContHist continuation[PIECE_NB][SQ_NB];
    move_t counter[PIECE_NB][SQ_NB];
} History;

/* ---- Scores --------------------------------------------------------------- */

static inline int butterfly_index(move_t m) { return m & 0xFFF; }

/* The piece type a capture takes (NO_PIECE_TYPE for a quiet promotion): the
 * capture history's third index. */
static inline int capture_victim(const Position *pos, move_t m)
{
    return move_kind(m) == MOVE_EN_PASSANT ? PAWN : piece_type(pos->board[move_to(m)]);
}

/* A quiet move's score: its butterfly history plus its continuation
 * histories after the moves 1 and 2 plies back (cont[k] NULL: none). */
static inline int hist_quiet(const History *h, ContHist *const cont[2], const Position *pos,
                             move_t m)
{
    int pc = pos->board[move_from(m)], to = move_to(m);
    int s = h->butterfly[pos->side][butterfly_index(m)];
    if (cont[0])
        s += (*cont[0])[pc][to];
    if (cont[1])
        s += (*cont[1])[pc][to];
    return s;
}

/* The capture-history entry of a capture or promotion. */
static inline int16_t *hist_capture_entry(History *h, const Position *pos, move_t m)
{
    return &h->capture[pos->board[move_from(m)]][move_to(m)][capture_victim(pos, m)];
}

static inline int hist_capture(const History *h, const Position *pos, move_t m)
{
    return h->capture[pos->board[move_from(m)]][move_to(m)][capture_victim(pos, m)];
}

/* The counter move to the previous move `prev` (MOVE_NONE when none). */
static inline move_t hist_counter(const History *h, const Position *pos, move_t prev)
{
    if (!prev || prev == MOVE_NULL)
        return MOVE_NONE;
    int pto = move_to(prev);
    return h->counter[pos->board[pto]][pto];
}

/* ---- Updates ------------------------------------------------------------ */

/* Moves *h toward +-HISTORY_MAX by bonus, less the further it already is. */
static inline void history_update(int16_t *h, int bonus)
{
    if (bonus > HISTORY_MAX)
        bonus = HISTORY_MAX;
    if (bonus < -HISTORY_MAX)
        bonus = -HISTORY_MAX;
    *h = (int16_t)(*h + bonus - *h * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX);
}

/* The reward of a cutoff at `depth`. */
static inline int history_bonus(int depth)
{
    int b = HIST_BONUS_MUL * depth - HIST_BONUS_SUB;
    return b > HIST_BONUS_MAX ? HIST_BONUS_MAX : b;
}

/* A quiet move's butterfly and continuation histories (cont as in hist_quiet). */
static inline void hist_update_quiet(History *h, ContHist *const cont[2], const Position *pos,
                                     move_t m, int bonus)
{
    int pc = pos->board[move_from(m)], to = move_to(m);
    history_update(&h->butterfly[pos->side][butterfly_index(m)], bonus);
    for (int k = 0; k < 2; k++)
        if (cont[k])
            history_update(&(*cont[k])[pc][to], bonus);
}

static inline void hist_update_capture(History *h, const Position *pos, move_t m, int bonus)
{
    history_update(hist_capture_entry(h, pos, m), bonus);
}

/* A quiet move `best` cut off at `depth` after the previous move `prev`:
 * it becomes the counter move (when counters is set) and gains history; the
 * other quiets tried before it (quiets[0..n), which holds best too) lose. */
void hist_update_quiets(History *h, ContHist *const cont[2], const Position *pos, move_t prev,
                        bool counters, move_t best, const move_t *quiets, int n, int depth);
/* A capture or promotion `best` (MOVE_NONE: a quiet one) cut off at `depth`:
 * it gains capture history and the captures tried before it lose. */
void hist_update_captures(History *h, const Position *pos, move_t best, const move_t *captures,
                          int n, int depth);

void hist_clear(History *h);

#endif
