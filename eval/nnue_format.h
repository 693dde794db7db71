/* The network's file format and its input features, shared by the engine
 * (eval/nnue.c) and the trainer (eval/train.c): what one writes the other
 * reads.
 *
 * Architecture: (768 -> H) x 2 perspectives -> B output buckets.
 *   input    one feature per (side relative to the perspective, piece type,
 *            square seen from the perspective): nnue_feature()
 *   hidden   one accumulator of H values per perspective, the sum of the
 *            feature weights of every piece plus the bias
 *   bucket   k = nnue_bucket(pieces on the board, B): each bucket has its own
 *            output weights and bias (B = 1: one output for every position)
 *   output   y = sum_i screlu(a_stm[i]) w_k[i] + sum_i screlu(a_other[i]) w_k[H+i] + b_k
 *            screlu(x) = clamp(x, 0, 1)^2
 *   eval     y * scale centipawns (side to move's view); in training
 *            sigmoid(y) predicts the expected score, so `scale` is the
 *            centipawn value of one logit unit, fitted on the data.
 *
 * Quantization: feature weights and biases are stored as round(w * QA),
 * output weights as round(w * QB), the output bias as round(b * QA * QB).
 * The trainer clips every weight to +-127/64 (about +-1.98): then an
 * accumulator (at most 32 pieces and the bias) stays within int16, and
 * clamp(a, 0, QA) * w_out fits in int16, so SIMD code can multiply that
 * product by clamp(a, 0, QA) again with 16-bit inputs and 32-bit sums.
 * The integer output is
 *   (sum_i c_i^2 w_i over both perspectives) / QA + b      (c = clamp(a, 0, QA))
 * which is y * QA * QB; the eval is that times scale / (QA * QB).
 *
 * File (little-endian), NNUE_HEADER_SIZE bytes of header, then the tables:
 *   u8  magic[4]   "RKNN"
 *   u32 version    NNUE_VERSION (version 1 files, whose buckets field is 0
 *                  and means one bucket, are read too)
 *   u32 inputs     NNUE_INPUTS
 *   u32 hidden     H (the engine accepts NNUE_HIDDEN only)
 *   u32 qa, qb     NNUE_QA, NNUE_QB
 *   i32 scale      centipawns per logit unit (1..10000)
 *   u32 buckets    B, 1..NNUE_MAX_BUCKETS
 *   i16 ft_weight[NNUE_INPUTS][H]   feature-major
 *   i16 ft_bias[H]
 *   i16 out_weight[B][2 * H]        per bucket, side to move's half first
 *   i32 out_bias[B]
 *   u32 checksum   FNV-1a (nnue_checksum) of every byte before it */
#ifndef ROKADE_NNUE_FORMAT_H
#define ROKADE_NNUE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "../movegen/types.h"

#ifndef NNUE_HIDDEN
#define NNUE_HIDDEN 128
#endif

enum {
    NNUE_INPUTS = 768,
    NNUE_QA = 255,
    NNUE_QB = 64,
    NNUE_VERSION = 2,
    NNUE_HEADER_SIZE = 32,
    NNUE_WEIGHT_LIMIT = 127, /* |quantized output weight| <= this (and trainer's clip * QB) */
    NNUE_MAX_BUCKETS = 8,
};

/* Bytes of a file with `hidden` accumulator values per perspective and
 * `buckets` outputs. */
static inline size_t nnue_file_size(size_t hidden, size_t buckets)
{
    return NNUE_HEADER_SIZE + 2 * (NNUE_INPUTS * hidden + hidden) + buckets * (2 * 2 * hidden + 4)
           + 4;
}

/* The output bucket of a position with `pieces` pieces (kings included,
 * 2..32) among `buckets`: equal ranges of the piece count, the fewest
 * pieces in bucket 0. */
static inline int nnue_bucket(int pieces, int buckets)
{
    int k = (pieces - 2) * buckets / 31;
    return k < 0 ? 0 : k >= buckets ? buckets - 1 : k;
}

/* The input feature of `piece` on `sq` for perspective `persp` (a colour):
 * the perspective's own pieces first, squares mirrored top to bottom for
 * Black, so both perspectives see the board from their own side. */
static inline int nnue_feature(int persp, int piece, int sq)
{
    int side = piece_color(piece) != persp;
    int rel = persp == WHITE ? sq : sq ^ 56;
    return side * 384 + (piece_type(piece) - PAWN) * 64 + rel;
}

/* FNV-1a (32 bits) of n bytes. */
static inline uint32_t nnue_checksum(const uint8_t *data, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

#endif
