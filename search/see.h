/* Static exchange evaluation. */
#ifndef ROKADE_SEE_H
#define ROKADE_SEE_H

#include "../movegen/position.h"

/* Whether the exchange that move m starts on its target square gains at least
 * `threshold` centipawns for the side to move. */
bool see_ge(const Position *pos, move_t m, int threshold);

#endif
