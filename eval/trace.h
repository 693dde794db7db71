/* The evaluation's trace for the tuner: what eval_position computed, as
 * coefficients of the weights in EvalW plus the per-position constants
 * (phase, scale, side to move), so that the evaluation can be rebuilt from any
 * weight table without a Position (eval/README.md). */
#ifndef ROKADE_TRACE_H
#define ROKADE_TRACE_H

#include "weights.h"

typedef struct {
    /* White count minus Black count, per weight. The White-view mg and eg
     * sums are sum_i mg(EvalW[i]) * coef[i] (likewise eg) over all i but
     * W_TEMPO, whose coefficient is +1 (White to move) or -1. */
    int coef[N_WEIGHTS];
    int kd[COLOR_NB][KD_NB]; /* king-danger features of each colour's attack (weights.h) */
    int cx[CX_NB];           /* complexity features (weights.h) */
    int phase;               /* 0 (pawn endings) .. 24 (all pieces) */
    int scale[COLOR_NB]; /* eg scale out of 64 when that colour is the stronger (eg > 0 White) */
    int side;            /* side to move */
    bool dead;           /* a dead position: the evaluation is 0 */
    int fixed;           /* not 0: the evaluation, whatever the weights (a lone
                          * king against mating material, side to move's view) */
} EvalTrace;

/* eval_position, filling *tr. */
int eval_position_traced(const Position *pos, EvalTrace *tr);
/* The evaluation rebuilt from a trace and weights, with eval_position's
 * integer rounding: equal to eval_position when w is EvalW. */
int eval_from_trace(const EvalTrace *tr, const score_t w[N_WEIGHTS]);

#endif
