/* The network's file format, shared by the engine (eval/nnue/loader.c) and
 * the trainer (eval/train/): what one writes the other reads. The input
 * features and the output buckets are in eval/nnue/features.h.
 *
 * Architecture: (768 x K -> H) x 2 perspectives -> B output buckets.
 *   input    one feature per (king bucket of the perspective, side relative
 *            to the perspective, piece type, square seen from the
 *            perspective): nnue_feature(); K = NNUE_KING_BUCKETS
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
 * File (little-endian), NNUE_HEADER_SIZE bytes of header (NnueHeader), then
 * the tables:
 *   u8  magic[4]   "RKNN"
 *   u32 version    NNUE_VERSION (version 1 files, whose buckets field is 0
 *                  and means one bucket, are read too)
 *   u32 inputs     768 x K (the engine accepts its own NNUE_INPUTS only)
 *   u32 hidden     H (the engine accepts its own NNUE_HIDDEN only)
 *   u32 qa, qb     NNUE_QA, NNUE_QB
 *   i32 scale      centipawns per logit unit (1..10000)
 *   u32 buckets    B, 1..NNUE_MAX_BUCKETS
 *   i16 ft_weight[inputs][H]   feature-major
 *   i16 ft_bias[H]
 *   i16 out_weight[B][2 * H]   per bucket, side to move's half first
 *   i32 out_bias[B]
 *   u32 checksum   FNV-1a (nnue_checksum) of every byte before it */
#ifndef ROKADE_NNUE_FORMAT_H
#define ROKADE_NNUE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "features.h"

#ifndef NNUE_HIDDEN
#define NNUE_HIDDEN 256
#endif

enum {
    NNUE_QA = 255,
    NNUE_QB = 64,
    NNUE_VERSION = 2,
    NNUE_HEADER_SIZE = 32,
    NNUE_WEIGHT_LIMIT = 127, /* |quantized output weight| <= this (and trainer's clip * QB) */
    NNUE_MAX_BUCKETS = 8,
    NNUE_SCALE_MAX = 10000,
};

/* What the header says. */
typedef struct {
    uint32_t version, inputs, hidden, qa, qb;
    int32_t scale;
    uint32_t buckets; /* 1..NNUE_MAX_BUCKETS (a version 1 file's 0 read as 1) */
} NnueHeader;

/* The header of the first `size` bytes of a file: false with a message in
 * err when they do not start with a header this code reads (magic,
 * version, bucket count, scale range). The shape (inputs, hidden, QA, QB)
 * is the reader's to check. */
bool nnue_header_read(const uint8_t *data, size_t size, NnueHeader *h, char *err, size_t errlen);
/* Writes the NNUE_HEADER_SIZE bytes of h (as NNUE_VERSION) at out. */
void nnue_header_write(uint8_t *out, const NnueHeader *h);

/* Bytes of a file with `inputs` features, `hidden` accumulator values per
 * perspective and `buckets` outputs. */
static inline size_t nnue_file_size(size_t inputs, size_t hidden, size_t buckets)
{
    return NNUE_HEADER_SIZE + 2 * (inputs * hidden + hidden) + buckets * (4 * hidden + 4) + 4;
}

/* Little-endian fields. */
static inline uint32_t nnue_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline int16_t nnue_get_i16(const uint8_t *p)
{
    return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}
static inline void nnue_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void nnue_put_i16(uint8_t *p, int16_t v)
{
    p[0] = (uint8_t)(uint16_t)v;
    p[1] = (uint8_t)((uint16_t)v >> 8);
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
