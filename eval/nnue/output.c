/* The network's output layer: SCReLU of both accumulators against the
 * output bucket's weights (format.h gives the integer arithmetic). */
#include "../../movegen/bitboard.h"
#include "../../movegen/score.h"
#include "net.h"
#include "nnue.h"
#include "simd.h"

/* sum_i clamp(a_i, 0, QA)^2 * w_i: (c * w) fits int16 since |w| <= 127, and
 * multiplying it by c again with pairwise 32-bit sums gives exact integers
 * (one fused instruction with VNNI; one sum is as fast as several, the
 * fused instruction's latency notwithstanding). */
static int32_t screlu_dot(const int16_t *a, const int16_t *w)
{
    const vi16 zero = vi16_zero(), qa = vi16_set1(NNUE_QA);
    vi32 sum = vi32_zero();
    for (int i = 0; i < H; i += VI16_LANES) {
        vi16 c = vi16_min(vi16_max(vi16_load(a + i), zero), qa);
        sum = vi32_add_madd(sum, vi16_mullo(c, vi16_load(w + i)), c);
    }
    return vi32_sum(sum);
}

static int output(const NnueNet *net, const Position *pos, const int16_t *us, const int16_t *them)
{
    const int k = nnue_bucket(popcount(pos_occupied(pos)), net->buckets);
    const int16_t *w = net->out_weight[k];
    int64_t sum = (int64_t)screlu_dot(us, w) + screlu_dot(them, w + H);
    int64_t y = sum / NNUE_QA + net->out_bias[k]; /* y * QA * QB */
    int64_t v = y * net->scale / ((int64_t)NNUE_QA * NNUE_QB);
    const int limit = SCORE_KNOWN_WIN - 1;
    return v > limit ? limit : v < -limit ? -limit : (int)v;
}

int nnue_evaluate(NnueStack *st, const Position *pos)
{
    const NnueAccumulator *a = nnue_accumulate(st, pos);
    return output(st->net, pos, a->v[pos->side], a->v[!pos->side]);
}

int nnue_evaluate_scratch(const NnueNet *net, const Position *pos)
{
    _Alignas(64) int16_t acc[COLOR_NB][H];
    nnue_refresh(net, pos, WHITE, acc[WHITE]);
    nnue_refresh(net, pos, BLACK, acc[BLACK]);
    return output(net, pos, acc[pos->side], acc[!pos->side]);
}
