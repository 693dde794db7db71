/* Move text: UCI long algebraic (castling as e1g1, or king-takes-rook in
 * Chess960 mode) and standard algebraic notation (FIDE Appendix C). */
#ifndef ROKADE_NOTATION_H
#define ROKADE_NOTATION_H

#include "position.h"

/* UCI long algebraic move text (buf >= 6 bytes); castling as e1g1, or as
 * king-takes-rook when pos->chess960. */
void move_to_uci(const Position *pos, move_t m, char *buf);
/* Finds the legal move written `str`; MOVE_NONE if there is none. Both castling
 * notations are accepted when unambiguous. */
move_t move_from_uci(const Position *pos, const char *str);
/* Standard algebraic notation (FIDE Appendix C) with + / #; buf >= 12 bytes.
 * Makes and unmakes m on pos to see whether it checks or mates. */
void move_to_san(Position *pos, move_t m, char *buf);

#endif
