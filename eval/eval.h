/* Static evaluation: one entry point, centipawns from the side to move's view. */
#ifndef ROKADE_EVAL_H
#define ROKADE_EVAL_H

#include "../movegen/position.h"

/* Packed middlegame/endgame score: mg in the low half, eg in the high half. */
typedef int32_t score_t;
#define S(mg, eg) ((score_t)((uint32_t)(eg) << 16) + (mg))
static inline int mg_value(score_t s) { return (int16_t)(uint16_t)(uint32_t)s; }
static inline int eg_value(score_t s) { return (int16_t)(uint16_t)((uint32_t)(s + 0x8000) >> 16); }

int eval_position(const Position *pos);
/* Material values (middlegame) by piece type, for SEE and move ordering. */
extern const int PieceValue[PIECE_TYPE_NB];
/* Prints the terms of the evaluation, one line per call of `print`. */
void eval_trace(const Position *pos, void (*print)(const char *line));

#endif
