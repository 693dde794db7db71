/* Perft: leaf counts of the legal move tree, divide output, and the EPD suite
 * runner ("FEN ;D1 n ;D2 n ..."). */
#ifndef ROKADE_PERFT_H
#define ROKADE_PERFT_H

#include <stdio.h>

#include "../movegen/position.h"

uint64_t perft(Position *pos, int depth);
/* Prints "move: count" per root move, a blank line and "Nodes searched: N"
 * through the print callback (one call per line, without newline; ctx is
 * passed through; print may be NULL). Uses `threads` threads for the root
 * moves. Returns the total. */
uint64_t perft_divide(const Position *pos, int depth, int threads,
                      void (*print)(void *ctx, const char *line), void *ctx);
/* Runs an EPD perft suite; returns the number of failed counts, or -1 when the
 * file cannot be read. Progress goes to `out`. */
int perft_suite(const char *path, int max_depth, bool chess960, int threads, FILE *out);

#endif
