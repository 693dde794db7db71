/* The win-draw-loss model: what a score means as a chance to win, fitted to
 * Rokade's own games (eval/wdl/fit.py, the constants in eval/wdl/params.h).
 *
 * For a position with `material` (pawn 1, knight and bishop 3, rook 5, queen
 * 9, both sides) and a search score s from the side to move's view,
 *
 *     P(win)  = 1 / (1 + exp((a(m) - s) / b(m)))
 *     P(loss) = 1 / (1 + exp((a(m) + s) / b(m)))
 *
 * with a and b cubic polynomials in m = clamp(material, WDL_MIN, WDL_MAX) /
 * 58. a(m) is the score at which the side to move wins half its games with
 * that much material on the board, so the printed score, 100 * s / a(m),
 * reads the same in the opening and in the endgame: +1.00 is a 50% chance to
 * win. Only what is printed is normalised; the search and the evaluation keep
 * their own units. */
#ifndef ROKADE_WDL_H
#define ROKADE_WDL_H

#include "../movegen/position.h"

/* The material count of the model (0 ... 78 without promotions). */
int wdl_material(const Position *pos);
/* The model's a(m) and b(m) in the search's centipawns. */
void wdl_params(int material, double *a, double *b);
/* Win and loss chances in per mille for a non-decisive score. */
void wdl_of_score(int score, int material, int *win, int *loss);
/* The printed centipawns of a non-decisive score: 100 = a 50% chance to
 * win. Mate and tablebase scores are not for this function. */
int wdl_normalize(int score, int material);

#endif
