/* The network's evaluation (NNUE), the module's one public header:
 *   format.h       the file format and its header reader/writer (also the
 *                  trainer's)
 *   features.h     input features (king square and bucket layout) and
 *                  output buckets (also the trainer's)
 *   simd.h         the SIMD layer (also the trainer's)
 *   loader.c       a file into a NnueNet (net.h, private)
 *   accumulator.c  the accumulators, one per ply, incremental and lazy
 *   output.c       the output layer and the evaluation
 * The search opens an accumulator with nnue_push before each move and lets
 * make-move fill in what moved (pos_make_move_delta), pops it after the
 * unmake, and asks nnue_evaluate for the position it has reached. */
#ifndef ROKADE_NNUE_H
#define ROKADE_NNUE_H

#include <stddef.h>

#include "../../movegen/position.h"
#include "accumulator.h"
#include "format.h"

/* A net from the bytes of a file; NULL with a message in err when they are
 * not a valid net (size, header, checksum, weight ranges). */
NnueNet *nnue_net_load(const uint8_t *data, size_t size, char *err, size_t errlen);
/* A net from a file; NULL with a message naming the file when it cannot be
 * read or is not a valid net. */
NnueNet *nnue_net_load_file(const char *path, char *err, size_t errlen);
void nnue_net_free(NnueNet *net);
/* Centipawns per logit unit (the file's scale). */
int nnue_net_scale(const NnueNet *net);
/* The SIMD layer's version in this build ("avx2", "neon", "portable", ...). */
const char *nnue_simd_name(void);

/* The net built into the program (eval/default.nnue, eval/embed.sh); NULL
 * when the build has none. */
const uint8_t *nnue_embedded(size_t *size);

/* The net's evaluation of pos (the position the stack has reached),
 * centipawns from the side to move's view. */
int nnue_evaluate(NnueStack *st, const Position *pos);
/* The same, computed from scratch (for `eval` and tests). */
int nnue_evaluate_scratch(const NnueNet *net, const Position *pos);

#endif
