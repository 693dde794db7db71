/* Move-ordering statistics kept per search thread: butterfly history,
 * capture history, continuation history (1 and 2 plies back), counter moves.
 * All updates use gravity, so values stay within +-HISTORY_MAX. */
#ifndef ROKADE_HISTORY_H
#define ROKADE_HISTORY_H

#include "../movegen/position.h"

enum { HISTORY_MAX = 16384 };

typedef int16_t ContHist[PIECE_NB][SQ_NB];

typedef struct {
    int16_t butterfly[COLOR_NB][SQ_NB * SQ_NB];
    int16_t capture[PIECE_NB][SQ_NB][PIECE_TYPE_NB];
    ContHist continuation[PIECE_NB][SQ_NB];
    move_t counter[PIECE_NB][SQ_NB];
} History;

static inline void history_update(int16_t *h, int bonus)
{
    if (bonus > HISTORY_MAX)
        bonus = HISTORY_MAX;
    if (bonus < -HISTORY_MAX)
        bonus = -HISTORY_MAX;
    *h = (int16_t)(*h + bonus - *h * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX);
}

static inline int history_bonus(int depth)
{
    int b = 170 * depth - 120;
    return b > 1800 ? 1800 : b;
}

static inline int butterfly_index(move_t m) { return m & 0xFFF; }

/* The piece type a capture takes (NO_PIECE_TYPE for a quiet promotion): the
 * capture history's third index. */
static inline int capture_victim(const Position *pos, move_t m)
{
    return move_kind(m) == MOVE_EN_PASSANT ? PAWN : piece_type(pos->board[move_to(m)]);
}

#endif
