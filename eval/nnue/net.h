/* The loaded network as the engine keeps it: the tables of the file
 * (format.h) in memory, aligned for the SIMD layer. Private to eval/nnue/. */
#ifndef ROKADE_NNUE_NET_H
#define ROKADE_NNUE_NET_H

#include "format.h"

enum { H = NNUE_HIDDEN };

/* |feature weight| and |bias| a net may hold: the trainer's clip, 127/64,
 * times QA. With at most 32 pieces an accumulator stays under 33 * 506. */
enum { NNUE_FT_LIMIT = NNUE_WEIGHT_LIMIT * NNUE_QA / NNUE_QB };
_Static_assert(33 * NNUE_FT_LIMIT < 32767, "an accumulator must fit in int16");
_Static_assert(H % 32 == 0, "the SIMD kernels take up to 32 values at a time");

struct NnueNet {
    _Alignas(64) int16_t ft_weight[NNUE_INPUTS][H];
    _Alignas(64) int16_t ft_bias[H];
    _Alignas(64) int16_t out_weight[NNUE_MAX_BUCKETS][2 * H];
    int32_t out_bias[NNUE_MAX_BUCKETS];
    int buckets;
    int scale;
};

#endif
