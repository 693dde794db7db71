/* Legal move generation by stage (captures and promotions, quiet moves,
 * evasions), a counting generator for perft, and validation of a move taken
 * from a table (pseudo-legal + legal). Every generated move is legal. */
#ifndef ROKADE_MOVEGEN_H
#define ROKADE_MOVEGEN_H

#include "position.h"

typedef enum {
    GEN_NOISY, /* captures (e.p. too) and all promotions */
    GEN_QUIET, /* everything else, castling included */
    GEN_ALL,   /* every legal move; in check these are the evasions */
} GenType;

/* Appends the legal moves of the stage to list (list->count is not reset). */
void gen_moves(const Position *pos, MoveList *list, GenType type);
/* All legal moves (resets list). */
void gen_legal(const Position *pos, MoveList *list);
/* Number of legal moves, without generating them. */
int gen_count_legal(const Position *pos);
/* The pos_ legality queries below stay here rather than in position.c: they
 * decide a move by the generator's own rules (pins, check evasions, castling
 * paths), and pos_has_legal_move is the counting generator. */

/* Whether m could be played here ignoring only pins and checks; castling is
 * checked completely. Safe for any 16-bit value. */
bool pos_is_pseudo_legal(const Position *pos, move_t m);
/* Whether a pseudo-legal move leaves the own king safe. */
bool pos_is_legal(const Position *pos, move_t m);
/* Whether the legal move m gives check. */
bool pos_gives_check(const Position *pos, move_t m);
/* Whether the position has a legal move at all (faster than generating). */
bool pos_has_legal_move(const Position *pos);

#endif
