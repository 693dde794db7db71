/* Score constants shared by eval, search and the UCI output: the mate range,
 * the tablebase range just below it, and the known win. They sit at the
 * bottom of the tree so that the evaluation can use them without knowing the
 * search. */
#ifndef ROKADE_SCORE_H
#define ROKADE_SCORE_H

#include "types.h"

enum {
    SCORE_DRAW = 0,
    SCORE_KNOWN_WIN = 10000,
    SCORE_MATE = 32000,
    SCORE_INFINITE = 32001,
    SCORE_NONE = 32002,
    SCORE_MATE_IN_MAX = SCORE_MATE - MAX_PLY,
    SCORE_MATED_IN_MAX = -SCORE_MATE_IN_MAX,
    /* A tablebase win found `ply` plies from the root scores SCORE_TB_WIN -
     * ply: below every mate, above every evaluation. Like mates, these
     * scores are kept relative to the node in the TT. */
    SCORE_TB_WIN = SCORE_MATE_IN_MAX - 1,
    SCORE_TB_WIN_IN_MAX = SCORE_TB_WIN - MAX_PLY,
    SCORE_TB_LOSS_IN_MAX = -SCORE_TB_WIN_IN_MAX,
};

/* The evaluation scores a won ending against a lone king as a known win plus
 * the strong side's material (at most 10850: 9 queens, 2 rooks, 2 bishops, 2
 * knights) and a mating-pattern bonus (at most 480): under 12000 above
 * SCORE_KNOWN_WIN. Such a score must never read as a mate. */
_Static_assert(SCORE_KNOWN_WIN + 12000 < SCORE_TB_WIN_IN_MAX,
               "a known win must stay below tablebase wins and mates");

static inline int mate_in(int ply) { return SCORE_MATE - ply; }
static inline int mated_in(int ply) { return -SCORE_MATE + ply; }
static inline bool is_mate_score(int s)
{
    return s >= SCORE_MATE_IN_MAX || s <= SCORE_MATED_IN_MAX;
}
static inline int tb_win_in(int ply) { return SCORE_TB_WIN - ply; }
static inline int tb_loss_in(int ply) { return -SCORE_TB_WIN + ply; }
/* A mate or a tablebase win or loss: a result, not an estimate. */
static inline bool is_decisive_score(int s)
{
    return s >= SCORE_TB_WIN_IN_MAX || s <= SCORE_TB_LOSS_IN_MAX;
}

#endif
