/* Static exchange evaluation. */
#ifndef ROKADE_SEE_H
#define ROKADE_SEE_H

#include "../eval/eval.h"
#include "../movegen/position.h"

/* The exchange (and the move ordering and delta pruning built on it) counts
 * pieces with the evaluation's PieceValue (eval/eval.h); the king's is 0 (it
 * never is captured). */

/* Whether the exchange that move m starts on its target square gains at least
 * `threshold` centipawns for the side to move. */
bool see_ge(const Position *pos, move_t m, int threshold);

#endif
