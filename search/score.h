/* Score constants shared by search, eval and the UCI output. */
#ifndef ROKADE_SCORE_H
#define ROKADE_SCORE_H

#include "../movegen/types.h"

enum {
    SCORE_DRAW = 0,
    SCORE_MATE = 32000,
    SCORE_INFINITE = 32001,
    SCORE_NONE = 32002,
    SCORE_MATE_IN_MAX = SCORE_MATE - MAX_PLY,
    SCORE_MATED_IN_MAX = -SCORE_MATE_IN_MAX,
};

static inline int mate_in(int ply) { return SCORE_MATE - ply; }
static inline int mated_in(int ply) { return -SCORE_MATE + ply; }
static inline bool is_mate_score(int s) { return s >= SCORE_MATE_IN_MAX || s <= SCORE_MATED_IN_MAX; }

#endif
