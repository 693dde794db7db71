/* Zobrist keys: one per (piece, square), castling-rights set, e.p. file and
 * side to move. Seeded, so keys are the same on every run. */
#ifndef ROKADE_ZOBRIST_H
#define ROKADE_ZOBRIST_H

#include "types.h"

extern uint64_t ZobPiece[PIECE_NB][SQ_NB];
extern uint64_t ZobCastling[CASTLING_NB];
extern uint64_t ZobEp[8];
extern uint64_t ZobSide;

void zobrist_init(void);

#endif
