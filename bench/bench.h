/* The bench: a fixed search over the bench positions, for a node-count
 * signature and a quick speed figure. */
#ifndef ROKADE_BENCH_H
#define ROKADE_BENCH_H

#include <stdint.h>

#include "../eval/nnue/nnue.h"

enum { BENCH_DEPTH = 12 };

/* Runs the bench at `depth` (0 = BENCH_DEPTH) with the evaluation `net`
 * (NULL: the hand-crafted one), printing per-position lines and the totals
 * through print; returns the node count. */
uint64_t bench_run(int depth, const NnueNet *net, void (*print)(const char *line));

#endif
