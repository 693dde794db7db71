/* The network's evaluation: see nnue.h and, for the net itself, nnue_format.h.
 * The hot loops have AVX-512 and AVX2 versions chosen by the compiler's
 * target macros and a portable one; all three give the same integers. */
#include "nnue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/bitboard.h"
#include "../movegen/score.h"

#if defined(__AVX512BW__) || defined(__AVX2__)
#include <immintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

enum { H = NNUE_HIDDEN };

/* |feature weight| and |bias| a net may hold: the trainer's clip, 127/64,
 * times QA. With at most 32 pieces an accumulator stays under 33 * 506. */
enum { FT_LIMIT = NNUE_WEIGHT_LIMIT * NNUE_QA / NNUE_QB };
_Static_assert(33 * FT_LIMIT < 32767, "an accumulator must fit in int16");
_Static_assert(H % 32 == 0, "the SIMD loops take 32 values at a time");

struct NnueNet {
    _Alignas(64) int16_t ft_weight[NNUE_INPUTS][H];
    _Alignas(64) int16_t ft_bias[H];
    _Alignas(64) int16_t out_weight[NNUE_MAX_BUCKETS][2 * H];
    int32_t out_bias[NNUE_MAX_BUCKETS];
    int buckets;
    int scale;
};

/* ---- Loading -------------------------------------------------------------- */

static uint32_t read_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int16_t read_i16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }

/* Reads n int16 values into out; false when one is beyond +-limit. */
static bool read_table(const uint8_t **p, int16_t *out, size_t n, int limit)
{
    bool ok = true;
    for (size_t i = 0; i < n; i++, *p += 2) {
        out[i] = read_i16(*p);
        if (out[i] > limit || out[i] < -limit)
            ok = false;
    }
    return ok;
}

NnueNet *nnue_net_load(const uint8_t *data, size_t size, char *err, size_t errlen)
{
    if (size < NNUE_HEADER_SIZE || memcmp(data, "RKNN", 4) != 0) {
        snprintf(err, errlen, "not a Rokade network (no RKNN header)");
        return NULL;
    }
    uint32_t version = read_u32(data + 4), inputs = read_u32(data + 8),
             hidden = read_u32(data + 12), qa = read_u32(data + 16), qb = read_u32(data + 20);
    int32_t scale = (int32_t)read_u32(data + 24);
    uint32_t buckets = read_u32(data + 28);
    if (version != 1 && version != NNUE_VERSION) {
        snprintf(err, errlen, "format version %u, this build reads versions 1 and %d", version,
                 NNUE_VERSION);
        return NULL;
    }
    if (version == 1 && buckets != 0) {
        snprintf(err, errlen, "a version 1 net with %u in the header's reserved field (must be 0)",
                 buckets);
        return NULL;
    }
    if (version == 1)
        buckets = 1;
    if (buckets < 1 || buckets > NNUE_MAX_BUCKETS) {
        snprintf(err, errlen, "%u output buckets, this build reads 1 to %d", buckets,
                 NNUE_MAX_BUCKETS);
        return NULL;
    }
    if (inputs != NNUE_INPUTS || hidden != H || qa != NNUE_QA || qb != NNUE_QB) {
        snprintf(err, errlen,
                 "a %u -> %u net with QA %u, QB %u; this build needs %d -> %d, QA %d, QB %d",
                 inputs, hidden, qa, qb, NNUE_INPUTS, H, NNUE_QA, NNUE_QB);
        return NULL;
    }
    if (scale < 1 || scale > 10000) {
        snprintf(err, errlen, "scale %d out of range (1..10000)", (int)scale);
        return NULL;
    }
    if (size != nnue_file_size(H, buckets)) {
        snprintf(err, errlen, "%zu bytes, a %d -> %d net with %u output buckets has %zu", size,
                 NNUE_INPUTS, H, buckets, nnue_file_size(H, buckets));
        return NULL;
    }
    if (nnue_checksum(data, size - 4) != read_u32(data + size - 4)) {
        snprintf(err, errlen, "checksum mismatch (damaged file)");
        return NULL;
    }
    NnueNet *net = aligned_alloc(64, sizeof(NnueNet));
    if (!net) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const uint8_t *p = data + NNUE_HEADER_SIZE;
    bool ok = read_table(&p, &net->ft_weight[0][0], (size_t)NNUE_INPUTS * H, FT_LIMIT)
              && read_table(&p, net->ft_bias, H, FT_LIMIT)
              && read_table(&p, &net->out_weight[0][0], (size_t)buckets * 2 * H, NNUE_WEIGHT_LIMIT);
    if (!ok) {
        snprintf(err, errlen, "a weight beyond the format's range (feature %d, output %d)",
                 FT_LIMIT, NNUE_WEIGHT_LIMIT);
        free(net);
        return NULL;
    }
    for (uint32_t k = 0; k < buckets; k++, p += 4)
        net->out_bias[k] = (int32_t)read_u32(p);
    net->buckets = (int)buckets;
    net->scale = scale;
    return net;
}

NnueNet *nnue_net_load_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    /* A valid file has at most this size: read one byte more to tell. */
    size_t want = nnue_file_size(H, NNUE_MAX_BUCKETS);
    uint8_t *buf = malloc(want + 1);
    if (!buf) {
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    size_t got = fread(buf, 1, want + 1, f);
    bool read_error = ferror(f);
    fclose(f);
    NnueNet *net = NULL;
    if (read_error) {
        snprintf(err, errlen, "%s: read error", path);
    } else {
        char why[200];
        net = nnue_net_load(buf, got, why, sizeof why);
        if (!net)
            snprintf(err, errlen, "%s: %s", path, why);
    }
    free(buf);
    return net;
}

void nnue_net_free(NnueNet *net) { free(net); }

int nnue_net_scale(const NnueNet *net) { return net->scale; }

/* ---- Accumulators --------------------------------------------------------- */

static void refresh(const NnueNet *net, const Position *pos, int persp, int16_t *acc)
{
    memcpy(acc, net->ft_bias, sizeof net->ft_bias);
    for (bitboard_t b = pos_occupied(pos); b; b &= b - 1) {
        int sq = lsb(b);
        const int16_t *w = net->ft_weight[nnue_feature(persp, pos->board[sq], sq)];
        for (int i = 0; i < H; i++)
            acc[i] = (int16_t)(acc[i] + w[i]);
    }
}

/* The row of feature weights of a noted {piece, square} for perspective c. */
static inline const int16_t *row(const NnueNet *net, int c, const uint8_t ps[2])
{
    return net->ft_weight[nnue_feature(c, ps[0], ps[1])];
}

/* dst = src + the rows put on - the rows taken off (the usual cases in one
 * pass each, written for the compiler's vectorizer). */
static void update(const NnueNet *net, const NnueAccumulator *a, int c, const int16_t *restrict src,
                   int16_t *restrict dst)
{
    if (a->n_add == 1 && a->n_sub == 1) {
        const int16_t *add = row(net, c, a->add[0]), *sub = row(net, c, a->sub[0]);
        for (int i = 0; i < H; i++)
            dst[i] = (int16_t)(src[i] + add[i] - sub[i]);
    } else if (a->n_add == 1 && a->n_sub == 2) {
        const int16_t *add = row(net, c, a->add[0]), *sub0 = row(net, c, a->sub[0]),
                      *sub1 = row(net, c, a->sub[1]);
        for (int i = 0; i < H; i++)
            dst[i] = (int16_t)(src[i] + add[i] - sub0[i] - sub1[i]);
    } else {
        memcpy(dst, src, sizeof(int16_t) * H);
        for (int k = 0; k < a->n_add; k++) {
            const int16_t *add = row(net, c, a->add[k]);
            for (int i = 0; i < H; i++)
                dst[i] = (int16_t)(dst[i] + add[i]);
        }
        for (int k = 0; k < a->n_sub; k++) {
            const int16_t *sub = row(net, c, a->sub[k]);
            for (int i = 0; i < H; i++)
                dst[i] = (int16_t)(dst[i] - sub[i]);
        }
    }
}

void nnue_reset(NnueStack *st, const NnueNet *net, const Position *pos)
{
    st->net = net;
    st->top = 0;
    NnueAccumulator *a = &st->acc[0];
    for (int c = WHITE; c <= BLACK; c++) {
        refresh(net, pos, c, a->v[c]);
        a->computed[c] = true;
    }
    a->n_add = a->n_sub = 0;
}

void nnue_push(NnueStack *st, const Position *pos, move_t m)
{
    NnueAccumulator *a = &st->acc[++st->top];
    a->computed[WHITE] = a->computed[BLACK] = false;
    const int from = move_from(m), to = move_to(m), us = pos->side;
    const int piece = pos->board[from];
    a->n_add = a->n_sub = 0;
#define SUB(p, s) (a->sub[a->n_sub][0] = (uint8_t)(p), a->sub[a->n_sub++][1] = (uint8_t)(s))
#define ADD(p, s) (a->add[a->n_add][0] = (uint8_t)(p), a->add[a->n_add++][1] = (uint8_t)(s))
    switch (move_kind(m)) {
    case MOVE_CASTLING: {
        const bool kingside = to > from;
        SUB(piece, from);
        SUB(pos->board[to], to);
        ADD(piece, castle_king_to(us, kingside));
        ADD(make_piece(us, ROOK), castle_rook_to(us, kingside));
        break;
    }
    case MOVE_EN_PASSANT:
        SUB(piece, from);
        SUB(make_piece(!us, PAWN), to - pawn_push(us));
        ADD(piece, to);
        break;
    default:
        SUB(piece, from);
        if (pos->board[to] != NO_PIECE)
            SUB(pos->board[to], to);
        ADD(move_kind(m) == MOVE_PROMOTION ? make_piece(us, move_promo(m)) : piece, to);
        break;
    }
#undef SUB
#undef ADD
}

void nnue_push_null(NnueStack *st)
{
    NnueAccumulator *a = &st->acc[++st->top];
    a->computed[WHITE] = a->computed[BLACK] = false;
    a->n_add = a->n_sub = 0;
}

/* Brings the top accumulator of perspective c up to date (nothing to do when
 * it is). */
static void bring_up_to_date(NnueStack *st, int c)
{
    int i = st->top;
    while (!st->acc[i].computed[c])
        i--;
    for (i++; i <= st->top; i++) {
        update(st->net, &st->acc[i], c, st->acc[i - 1].v[c], st->acc[i].v[c]);
        st->acc[i].computed[c] = true;
    }
}

/* ---- Output --------------------------------------------------------------- */

/* sum_i clamp(a_i, 0, QA)^2 * w_i: (c * w) fits int16 since |w| <= 127, and
 * multiplying it by c again with pairwise 32-bit sums gives exact integers. */
static int32_t screlu_dot(const int16_t *a, const int16_t *w)
{
#if defined(__AVX512BW__)
    const __m512i zero = _mm512_setzero_si512(), qa = _mm512_set1_epi16(NNUE_QA);
    __m512i sum = _mm512_setzero_si512();
    for (int i = 0; i < H; i += 32) {
        __m512i c = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(a + i), zero), qa);
        __m512i cw = _mm512_mullo_epi16(c, _mm512_loadu_si512(w + i));
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(cw, c));
    }
    return _mm512_reduce_add_epi32(sum);
#elif defined(__AVX2__)
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = _mm256_setzero_si256();
    for (int i = 0; i < H; i += 16) {
        __m256i c = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(a + i)),
                                                      zero),
                                     qa);
        __m256i cw = _mm256_mullo_epi16(c, _mm256_loadu_si256((const __m256i *)(w + i)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
#elif defined(__wasm_simd128__)
    /* The browser build (emcc -msimd128): 8 lanes, the same arithmetic. */
    const v128_t zero = wasm_i16x8_splat(0), qa = wasm_i16x8_splat(NNUE_QA);
    v128_t sum = wasm_i32x4_splat(0);
    for (int i = 0; i < H; i += 8) {
        v128_t c = wasm_i16x8_min(wasm_i16x8_max(wasm_v128_load(a + i), zero), qa);
        v128_t cw = wasm_i16x8_mul(c, wasm_v128_load(w + i));
        sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(cw, c));
    }
    return wasm_i32x4_extract_lane(sum, 0) + wasm_i32x4_extract_lane(sum, 1)
           + wasm_i32x4_extract_lane(sum, 2) + wasm_i32x4_extract_lane(sum, 3);
#else
    int32_t sum = 0;
    for (int i = 0; i < H; i++) {
        int c = a[i] < 0 ? 0 : a[i] > NNUE_QA ? NNUE_QA : a[i];
        sum += (int16_t)(c * w[i]) * c;
    }
    return sum;
#endif
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
    bring_up_to_date(st, WHITE);
    bring_up_to_date(st, BLACK);
    const NnueAccumulator *a = &st->acc[st->top];
    return output(st->net, pos, a->v[pos->side], a->v[!pos->side]);
}

int nnue_evaluate_scratch(const NnueNet *net, const Position *pos)
{
    _Alignas(64) int16_t acc[COLOR_NB][H];
    refresh(net, pos, WHITE, acc[WHITE]);
    refresh(net, pos, BLACK, acc[BLACK]);
    return output(net, pos, acc[pos->side], acc[!pos->side]);
}

bool nnue_check(NnueStack *st, const Position *pos)
{
    _Alignas(64) int16_t acc[H];
    for (int c = WHITE; c <= BLACK; c++) {
        bring_up_to_date(st, c);
        refresh(st->net, pos, c, acc);
        if (memcmp(acc, st->acc[st->top].v[c], sizeof acc) != 0)
            return false;
    }
    return true;
}
