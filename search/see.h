/* Static exchange evaluation. */
#ifndef ROKADE_SEE_H
#define ROKADE_SEE_H

#include "../movegen/position.h"

/* Piece values of the exchange (and of the move ordering and delta pruning
 * built on it), by piece type; the king's is 0 (it never is captured). */
extern const int SeeValue[PIECE_TYPE_NB];

/* Whether the exchange that move m starts on its target square gains at least
 * `threshold` centipawns for the side to move. */
bool see_ge(const Position *pos, move_t m, int threshold);

#endif
