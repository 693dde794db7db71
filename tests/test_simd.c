/* The SIMD layer (eval/nnue/simd.h) and the network's kernels over it,
 * against plain scalar code written here, in whichever version the build
 * compiled (the log names it; make ARCH=x86-64, x86-64-v2, x86-64-v3 and
 * native give SSE2, SSE4.1, AVX2 and AVX-512 builds):
 *   - every int16 operation lane by lane on edge values (-32768, 32767,
 *     wrapping sums and products, madd of -32768 * -32768 pairs), loads and
 *     stores at any alignment, and every float operation on ordinary
 *     values (min and max also on signed zeros and NaN);
 *   - the engine's accumulators, both perspectives, incremental
 *     (nnue_accumulate) and from scratch (nnue_refresh), and its output
 *     integer, against the format's arithmetic (int16 wrapping sums of the
 *     feature rows onto the bias; SCReLU with (c * w) as int16 times c
 *     summed in 32 bits; output.c's formula), for every bench position and
 *     along games from them (captures, castling, promotions, e.p., king
 *     moves that change the bucket), with the built-in net and with a net
 *     whose weights are at the format's limits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/positions.h"
#include "../eval/nnue/nnue.h"
#include "../eval/nnue/simd.h"
#include "../movegen/bitboard.h"
#include "../movegen/movegen.h"
#include "../movegen/score.h"
#include "../movegen/util.h"

/* Under qemu-user and Wine (make test-cross) the program is built with
 * -DTEST_STANDALONE: tests/standalone.h stands in for Criterion. */
#ifdef TEST_STANDALONE
#include "standalone.h"
static void setup(void) { movegen_init(); }
TestSuite(simd, .init = setup);
#else
#include <criterion/criterion.h>

#include "harness.h"
static void setup(void) { harness_setup(); }
TestSuite(simd, .init = setup, .fini = harness_teardown);
#endif

enum { H = NNUE_HIDDEN };

/* ---- The operations ------------------------------------------------------ */

enum { N = 128 }; /* values per test array: whole vectors of every version */
enum { VI32_LANES = VI16_LANES == 1 ? 1 : VI16_LANES / 2 };

static int16_t wrap16(int64_t x) { return (int16_t)(uint16_t)(uint64_t)x; }
static int32_t wrap32(int64_t x) { return (int32_t)(uint32_t)(uint64_t)x; }

/* The lanes of a vi32 (the version's own layout: lane i of vi16_madd is
 * the pair 2i, 2i + 1). */
static void vi32_lanes(vi32 v, int32_t *out) { memcpy(out, &v, sizeof v); }

/* What lane i of vi16_madd(a, b) is, a and b pointing at a vector's values. */
static int32_t madd_lane(const int16_t *a, const int16_t *b, int i)
{
    if (VI16_LANES == 1)
        return (int32_t)a[0] * b[0];
    const int p = 2 * i;
    return wrap32((int64_t)a[p] * b[p] + (int64_t)a[p + 1] * b[p + 1]);
}

/* Edge values first, then pseudo-random ones over the whole range. */
static void fill_edges(int16_t *a, int16_t *b)
{
    static const int16_t Edges[] = {-32768, -32768, -32767, 32767, 32767, -1,   0, 1,
                                    -256,   255,    256,    -255,  127,   -127, 2, -2};
    enum { E = sizeof Edges / sizeof *Edges };
    uint64_t rng = 0x5EED;
    for (int i = 0; i < N; i++) {
        a[i] = i < E ? Edges[i] : (int16_t)(uint16_t)rng_next(&rng);
        b[i] = i < E ? Edges[(i * 7 + 3) % E] : (int16_t)(uint16_t)rng_next(&rng);
    }
    /* Every pairing of the extremes, and -32768 * -32768 pairs (the one
     * madd whose pair sum, 2^31, wraps). */
    for (int i = 0; i < 16; i++) {
        a[E + i] = i & 1 ? 32767 : -32768;
        b[E + i] = i & 2 ? 32767 : -32768;
    }
    for (int i = 0; i < 8; i++)
        a[E + 16 + i] = b[E + 16 + i] = -32768;
}

Test(simd, int16_ops_are_the_scalar_ones)
{
    /* On stderr, so that the run's log names the version without --verbose. */
    fprintf(stderr, "test_simd: int16 %s (%d lanes), float %s (%d lanes)\n", SIMD_I16_NAME,
            (int)VI16_LANES, SIMD_F32_NAME, (int)VF32_LANES);
    int16_t a[N], b[N];
    fill_edges(a, b);
    int16_t out[N + 1];
    for (int v = 0; v < N; v += VI16_LANES) {
        const vi16 x = vi16_load(a + v), y = vi16_load(b + v);
        struct {
            const char *name;
            vi16 got;
        } Ops[] = {
            {"add", vi16_add(x, y)}, {"sub", vi16_sub(x, y)},     {"min", vi16_min(x, y)},
            {"max", vi16_max(x, y)}, {"mullo", vi16_mullo(x, y)}, {"set1", vi16_set1(a[v])},
            {"zero", vi16_zero()},
        };
        for (size_t op = 0; op < sizeof Ops / sizeof *Ops; op++) {
            vi16_store(out, Ops[op].got);
            for (int i = 0; i < VI16_LANES; i++) {
                const int16_t p = a[v + i], q = b[v + i];
                const int16_t want[] = {
                    wrap16((int64_t)p + q),
                    wrap16((int64_t)p - q),
                    p < q ? p : q,
                    p > q ? p : q,
                    wrap16((int64_t)p * q),
                    a[v],
                    0,
                };
                cr_assert_eq(out[i], want[op], "%s(%d, %d), lane %d: %d, not %d", Ops[op].name, p,
                             q, i, out[i], want[op]);
            }
        }
        int32_t lanes[VI32_LANES];
        vi32_lanes(vi16_madd(x, y), lanes);
        for (int i = 0; i < VI32_LANES; i++)
            cr_assert_eq(lanes[i], madd_lane(a + v, b + v, i), "madd at %d, lane %d: %d, not %d", v,
                         i, lanes[i], madd_lane(a + v, b + v, i));
        vi32_lanes(vi32_zero(), lanes);
        for (int i = 0; i < VI32_LANES; i++)
            cr_assert_eq(lanes[i], 0);
        /* The fused op on every edge pair, onto a sum that keeps the total
         * within int32 in the portable one-lane version too. */
        const vi32 acc = vi16_madd(vi16_set1(-3), vi16_set1(1000));
        int32_t acc_lanes[VI32_LANES], fused[VI32_LANES];
        vi32_lanes(acc, acc_lanes);
        vi32_lanes(vi32_add_madd(acc, x, y), fused);
        for (int i = 0; i < VI32_LANES; i++) {
            const int32_t want = wrap32((int64_t)acc_lanes[i] + madd_lane(a + v, b + v, i));
            cr_assert_eq(fused[i], want, "add_madd at %d, lane %d: %d, not %d", v, i, fused[i],
                         want);
        }
    }

    /* Loads and stores at an odd address (any alignment). */
    int16_t buf[N + 1];
    for (int v = 0; v + VI16_LANES <= N; v += VI16_LANES) {
        vi16_store(buf + 1, vi16_load(a + v));
        cr_assert_eq(memcmp(buf + 1, a + v, sizeof(int16_t) * VI16_LANES), 0);
        vi16_store(out, vi16_load(buf + 1));
        cr_assert_eq(memcmp(out, a + v, sizeof(int16_t) * VI16_LANES), 0);
    }

    /* Sums of 32-bit lanes: vi32_add lane by lane and vi32_sum over a
     * vector, on products of values up to 4096 (no int32 overflow in any
     * version, the portable one's plain int included). */
    int16_t c[N], d[N];
    uint64_t rng = 77;
    for (int i = 0; i < N; i++) {
        c[i] = (int16_t)((int)(rng_next(&rng) % 8193) - 4096);
        d[i] = (int16_t)((int)(rng_next(&rng) % 8193) - 4096);
    }
    c[0] = d[0] = -4096;
    for (int v = 0; v < N; v += VI16_LANES) {
        const vi32 m1 = vi16_madd(vi16_load(c + v), vi16_load(d + v));
        const vi32 m2 = vi16_madd(vi16_load(d + v), vi16_load(d + v));
        int32_t l1[VI32_LANES], l2[VI32_LANES], s[VI32_LANES];
        vi32_lanes(m1, l1);
        vi32_lanes(m2, l2);
        vi32_lanes(vi32_add(m1, m2), s);
        int64_t total = 0;
        for (int i = 0; i < VI32_LANES; i++) {
            cr_assert_eq(s[i], l1[i] + l2[i], "vi32_add at %d, lane %d", v, i);
            total += l1[i];
        }
        cr_assert_eq(vi32_sum(m1), total, "vi32_sum at %d: %d, not %lld", v, vi32_sum(m1),
                     (long long)total);
    }
}

/* The float ops, each against its scalar definition: bit for bit, on values
 * whose sums and products are exact or rounded once. */
static uint32_t bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* c + a * b with two roundings, or one where the version fuses it. */
static float mul_add_ref(float a, float b, float c)
{
    if (VF32_FUSED_MUL_ADD)
        return fmaf(a, b, c);
    const volatile float p = a * b; /* rounded: no contraction into an fma */
    return c + p;
}

Test(simd, float_ops_are_the_scalar_ones)
{
    _Alignas(64) float a[N], b[N], c[N], out[N];
    uint64_t rng = 1234;
    static const float Special[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e-30f, -3.25f, 1e30f};
    enum { S = sizeof Special / sizeof *Special };
    for (int i = 0; i < N; i++) {
        a[i] = (float)((int)(rng_next(&rng) % 2001) - 1000) / 256.0f;
        b[i] = (float)((int)(rng_next(&rng) % 2001) - 1000) / 256.0f;
        c[i] = (float)((int)(rng_next(&rng) % 2001) - 1000) / 7.0f;
    }
    /* Equal values, signed zeros, NaN: min and max as the portable ones. */
    _Static_assert(S * S <= N - 3, "the special pairs come before the NaNs");
    for (int i = 0; i < S * S; i++) {
        a[i] = Special[i % S];
        b[i] = Special[i / S];
    }
    a[N - 1] = NAN;
    b[N - 2] = NAN;
    a[N - 3] = b[N - 3] = NAN;
    for (int v = 0; v < N; v += VF32_LANES) {
        const vf32 x = vf32_load(a + v), y = vf32_load(b + v), z = vf32_load(c + v);
        struct {
            const char *name;
            vf32 got;
        } Ops[] = {
            {"add", vf32_add(x, y)},
            {"mul", vf32_mul(x, y)},
            {"min", vf32_min(x, y)},
            {"max", vf32_max(x, y)},
            {"mul_add", vf32_mul_add(x, y, z)},
            {"set1", vf32_set1(c[v])},
            {"zero", vf32_zero()},
            {"in_open01", vf32_in_open01(x, z)},
        };
        for (size_t op = 0; op < sizeof Ops / sizeof *Ops; op++) {
            vf32_store(out, Ops[op].got);
            for (int i = 0; i < VF32_LANES; i++) {
                const float p = a[v + i], q = b[v + i], r = c[v + i];
                const float want[] = {
                    p + q,
                    p * q,
                    q < p ? q : p,
                    q > p ? q : p,
                    mul_add_ref(p, q, r),
                    c[v],
                    0.0f,
                    p > 0.0f && p < 1.0f ? r : 0.0f,
                };
                /* NaN results: any NaN (their payloads may differ). */
                const bool same = isnan(want[op]) ? isnan(out[i]) : bits(out[i]) == bits(want[op]);
                cr_assert(same, "%s(%g, %g, %g), lane %d: %g, not %g", Ops[op].name, p, q, r, i,
                          out[i], want[op]);
            }
        }
    }
    /* Sums of values whose every partial sum is exact (the multiples of
     * 1/256 after the special values and before the NaNs): any order gives
     * the same float. */
    for (int v = 64; v + VF32_LANES <= N - 3; v += VF32_LANES) {
        float want = 0.0f;
        for (int i = 0; i < VF32_LANES; i++)
            want += a[v + i];
        const float got = vf32_sum(vf32_load(a + v));
        cr_assert(bits(got) == bits(want), "sum at %d: %g, not %g", v, got, want);
    }
    /* in_open01 at its edges. */
    static const float T[] = {0.0f, -0.0f, 1.0f, 0.99999994f, 1e-38f, -1e-38f, 1.0000001f, 0.5f,
                              NAN,  -1.0f, 2.0f, 0.25f,       0.75f,  1e-45f,  -0.5f,      0.0f};
    _Alignas(64) float t[16], x[16];
    for (int i = 0; i < 16; i++) {
        t[i] = T[i];
        x[i] = (float)(i + 1);
    }
    for (int v = 0; v < 16; v += VF32_LANES) {
        vf32_store(out, vf32_in_open01(vf32_load(t + v), vf32_load(x + v)));
        for (int i = 0; i < VF32_LANES; i++) {
            const float want = t[v + i] > 0.0f && t[v + i] < 1.0f ? x[v + i] : 0.0f;
            cr_assert(bits(out[i]) == bits(want), "in_open01(%g), lane %d: %g, not %g", t[v + i], i,
                      out[i], want);
        }
    }
}

/* ---- The kernels on a net -------------------------------------------------- */

/* A net's tables, read from its file by the format's description. */
typedef struct {
    int16_t (*ft)[H]; /* NNUE_INPUTS rows */
    int16_t bias[H];
    int16_t out[NNUE_MAX_BUCKETS][2 * H];
    int32_t out_bias[NNUE_MAX_BUCKETS];
    int buckets, scale;
} RefNet;

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static int16_t get_i16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }

static void ref_net_read(RefNet *r, const uint8_t *data, size_t size)
{
    cr_assert_geq(size, (size_t)NNUE_HEADER_SIZE);
    cr_assert_eq(get_u32(data + 8), (uint32_t)NNUE_INPUTS);
    cr_assert_eq(get_u32(data + 12), (uint32_t)H);
    r->scale = (int32_t)get_u32(data + 24);
    r->buckets = get_u32(data + 4) == 1 ? 1 : (int)get_u32(data + 28);
    cr_assert_eq(size, nnue_file_size(NNUE_INPUTS, H, (size_t)r->buckets));
    r->ft = malloc(sizeof *r->ft * NNUE_INPUTS);
    cr_assert_not_null(r->ft);
    const uint8_t *p = data + NNUE_HEADER_SIZE;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < H; i++, p += 2)
            r->ft[f][i] = get_i16(p);
    for (int i = 0; i < H; i++, p += 2)
        r->bias[i] = get_i16(p);
    for (int k = 0; k < r->buckets; k++)
        for (int i = 0; i < 2 * H; i++, p += 2)
            r->out[k][i] = get_i16(p);
    for (int k = 0; k < r->buckets; k++, p += 4)
        r->out_bias[k] = (int32_t)get_u32(p);
}

/* Perspective c's accumulator: the bias plus every piece's row, int16
 * sums that wrap. */
static void ref_accumulate(const RefNet *r, const Position *pos, int c, int16_t *acc)
{
    memcpy(acc, r->bias, sizeof r->bias);
    for (int sq = 0; sq < SQ_NB; sq++)
        if (pos->board[sq] != NO_PIECE) {
            const int16_t *w = r->ft[nnue_feature(c, pos_king_sq(pos, c), pos->board[sq], sq)];
            for (int i = 0; i < H; i++)
                acc[i] = wrap16((int64_t)acc[i] + w[i]);
        }
}

/* sum_i c_i ((c_i w_i) as int16), c_i = clamp(a_i, 0, QA), in 32 bits. */
static int32_t ref_screlu_dot(const int16_t *a, const int16_t *w)
{
    uint32_t sum = 0;
    for (int i = 0; i < H; i++) {
        const int32_t c = a[i] < 0 ? 0 : a[i] > NNUE_QA ? NNUE_QA : a[i];
        sum += (uint32_t)(c * wrap16((int64_t)c * w[i]));
    }
    return (int32_t)sum;
}

/* output.c's formula on the two accumulators. */
static int ref_output(const RefNet *r, const Position *pos, const int16_t *us, const int16_t *them)
{
    int k = (popcount(pos_occupied(pos)) - 2) * r->buckets / 31;
    k = k < 0 ? 0 : k >= r->buckets ? r->buckets - 1 : k;
    const int64_t sum = (int64_t)ref_screlu_dot(us, r->out[k])
                        + ref_screlu_dot(them, r->out[k] + H);
    const int64_t y = sum / NNUE_QA + r->out_bias[k];
    const int64_t v = y * r->scale / ((int64_t)NNUE_QA * NNUE_QB);
    const int limit = SCORE_KNOWN_WIN - 1;
    return v > limit ? limit : v < -limit ? -limit : (int)v;
}

/* What the checks saw: accumulator values beyond the clamp on each side,
 * and the kinds of moves played. */
typedef struct {
    long below, inside, above;
    int captures, castlings, promotions, eps, bucket_changes, positions;
} Seen;

/* The engine's accumulators (the stack's, incremental, and nnue_refresh's)
 * and output against the reference at pos. */
static void check_position(const RefNet *r, const NnueNet *net, NnueStack *st, const Position *pos,
                           const char *what, Seen *seen)
{
    _Alignas(64) int16_t want[COLOR_NB][H], scratch[H];
    const NnueAccumulator *a = nnue_accumulate(st, pos);
    for (int c = WHITE; c <= BLACK; c++) {
        ref_accumulate(r, pos, c, want[c]);
        nnue_refresh(net, pos, c, scratch);
        for (int i = 0; i < H; i++) {
            cr_assert_eq(a->v[c][i], want[c][i],
                         "%s: incremental, perspective %d, value %d: %d, not %d", what, c, i,
                         a->v[c][i], want[c][i]);
            cr_assert_eq(scratch[i], want[c][i],
                         "%s: nnue_refresh, perspective %d, value %d: %d, not %d", what, c, i,
                         scratch[i], want[c][i]);
            seen->below += want[c][i] < 0;
            seen->above += want[c][i] > NNUE_QA;
            seen->inside += want[c][i] >= 0 && want[c][i] <= NNUE_QA;
        }
    }
    const int out = ref_output(r, pos, want[pos->side], want[!pos->side]);
    cr_assert_eq(nnue_evaluate(st, pos), out, "%s: nnue_evaluate %d, not %d", what,
                 nnue_evaluate(st, pos), out);
    cr_assert_eq(nnue_evaluate_scratch(net, pos), out, "%s: nnue_evaluate_scratch %d, not %d", what,
                 nnue_evaluate_scratch(net, pos), out);
    seen->positions++;
}

static bool is_capture(const Position *pos, move_t m)
{
    return move_kind(m) == MOVE_EN_PASSANT
           || (move_kind(m) != MOVE_CASTLING && pos->board[move_to(m)] != NO_PIECE);
}

/* A move of the game: castling, promotions and e.p. whenever there are
 * some (half the time), captures often, king moves and double pawn pushes
 * (which give e.p.) now and then, else any. */
static move_t pick(const Position *pos, const MoveList *list, uint64_t *rng)
{
    move_t special[MAX_MOVES], captures[MAX_MOVES], kings[MAX_MOVES];
    int ns = 0, nc = 0, nk = 0;
    for (int i = 0; i < list->count; i++) {
        const move_t m = list->moves[i];
        if (move_kind(m) == MOVE_CASTLING || move_kind(m) == MOVE_PROMOTION
            || move_kind(m) == MOVE_EN_PASSANT)
            special[ns++] = m;
        else if (is_capture(pos, m))
            captures[nc++] = m;
        else if (piece_type(pos->board[move_from(m)]) == KING
                 || (piece_type(pos->board[move_from(m)]) == PAWN
                     && abs(move_to(m) - move_from(m)) == 16))
            kings[nk++] = m;
    }
    const uint64_t r = rng_next(rng) % 8;
    if (ns && r < 4)
        return special[rng_next(rng) % (uint64_t)ns];
    if (nc && r < 6)
        return captures[rng_next(rng) % (uint64_t)nc];
    if (nk && r < 7)
        return kings[rng_next(rng) % (uint64_t)nk];
    return list->moves[rng_next(rng) % (uint64_t)list->count];
}

static Position *bench_position(int fi)
{
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    const int n = (int)(sizeof BenchFens / sizeof *BenchFens);
    char err[256];
    cr_assert(pos_set_fen(pos, BenchFens[fi], fi >= n - 4, err, sizeof err), "%s: %s",
              BenchFens[fi], err);
    return pos;
}

/* Every bench position, then a game from each: each ply checked (in every
 * other game only every third ply, so that the stack catches up over
 * several plies). */
static void check_net(const uint8_t *data, size_t size, Seen *seen)
{
    char err[256] = "";
    NnueNet *net = nnue_net_load(data, size, err, sizeof err);
    cr_assert_not_null(net, "the net is refused: %s", err);
    RefNet *r = malloc(sizeof *r);
    cr_assert_not_null(r);
    ref_net_read(r, data, size);
    NnueStack *st = plat_aligned_alloc(64, sizeof *st); /* its members are 64-byte aligned */
    cr_assert_not_null(st);
    memset(seen, 0, sizeof *seen);
    uint64_t rng = 0x51D;
    const int n = (int)(sizeof BenchFens / sizeof *BenchFens);
    for (int fi = 0; fi < n; fi++) {
        Position *pos = bench_position(fi);
        nnue_reset(st, net, pos);
        check_position(r, net, st, pos, BenchFens[fi], seen);
        free(pos);
    }
    for (int fi = 0; fi < n; fi++) {
        Position *pos = bench_position(fi);
        nnue_reset(st, net, pos);
        const bool every_ply = fi % 2 == 0;
        for (int ply = 0; ply < 160; ply++) {
            MoveList list;
            gen_legal(pos, &list);
            if (!list.count)
                break;
            const move_t m = pick(pos, &list, &rng);
            seen->captures += is_capture(pos, m);
            seen->castlings += move_kind(m) == MOVE_CASTLING;
            seen->promotions += move_kind(m) == MOVE_PROMOTION;
            seen->eps += move_kind(m) == MOVE_EN_PASSANT;
            const int mover = pos->side;
            const int ksq = pos_king_sq(pos, mover);
            pos_make_move_delta(pos, m, nnue_push(st));
            seen->bucket_changes += nnue_king_changes(mover, ksq, pos_king_sq(pos, mover));
            if (every_ply || ply % 3 == 2) {
                char what[160];
                snprintf(what, sizeof what, "%s, ply %d", BenchFens[fi], ply + 1);
                check_position(r, net, st, pos, what, seen);
            }
        }
        free(pos);
    }
    /* (A layout of one king bucket has no bucket changes.) */
    cr_assert(seen->captures && seen->castlings && seen->promotions && seen->eps
                  && (seen->bucket_changes || NNUE_KING_BUCKETS == 1),
              "moves seen: %d captures, %d castlings, %d promotions, %d e.p., %d bucket changes",
              seen->captures, seen->castlings, seen->promotions, seen->eps, seen->bucket_changes);
    plat_aligned_free(st);
    free(r->ft);
    free(r);
    nnue_net_free(net);
}

Test(simd, kernels_on_the_built_in_net, .timeout = 120)
{
    size_t size;
    const uint8_t *data = nnue_embedded(&size);
    if (!data)
        cr_skip_test("this build has no built-in net");
    /* (make test-nnue-layout's builds of another shape embed the default net.) */
    if (size < NNUE_HEADER_SIZE || get_u32(data + 8) != NNUE_INPUTS || get_u32(data + 12) != H)
        cr_skip_test("the built-in net is not of this build's shape");
    Seen seen;
    check_net(data, size, &seen);
    cr_log_info("%s: %d positions, %d captures, %d castlings, %d promotions, %d e.p., %d king "
                "bucket changes",
                SIMD_I16_NAME, seen.positions, seen.captures, seen.castlings, seen.promotions,
                seen.eps, seen.bucket_changes);
    cr_assert(seen.below > 0 && seen.inside > 0 && seen.above > 0,
              "accumulator values below 0: %ld, in [0, QA]: %ld, above QA: %ld", seen.below,
              seen.inside, seen.above);
}

/* A net at the format's limits: feature weights and biases of +-506
 * (127/64 * QA), output weights of +-127, so that accumulators reach
 * thousands, the clamp takes most of them and the products c * w reach
 * 255 * 127 (the most that int16 holds of them). */
static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put_i16(uint8_t *p, int v)
{
    p[0] = (uint8_t)((unsigned)v & 0xff);
    p[1] = (uint8_t)(((unsigned)v >> 8) & 0xff);
}

Test(simd, kernels_on_a_net_at_the_limits, .timeout = 120)
{
    enum { FT_LIMIT = NNUE_WEIGHT_LIMIT * NNUE_QA / NNUE_QB, BUCKETS = 8 };
    const size_t size = nnue_file_size(NNUE_INPUTS, H, BUCKETS);
    uint8_t *data = calloc(1, size);
    cr_assert_not_null(data);
    memcpy(data, "RKNN", 4); /* NOLINT(bugprone-not-null-terminated-result): 4 bytes */
    put_u32(data + 4, NNUE_VERSION);
    put_u32(data + 8, NNUE_INPUTS);
    put_u32(data + 12, H);
    put_u32(data + 16, NNUE_QA);
    put_u32(data + 20, NNUE_QB);
    put_u32(data + 24, 3);
    put_u32(data + 28, BUCKETS);
    uint64_t rng = 0xED6E;
    uint8_t *p = data + NNUE_HEADER_SIZE;
    /* Mostly the extremes, some values between. */
    for (size_t i = 0; i < (size_t)NNUE_INPUTS * H + H; i++, p += 2) {
        const uint64_t x = rng_next(&rng);
        put_i16(p, x % 4 == 0   ? (int)(x >> 8) % (FT_LIMIT + 1)
                   : x % 4 == 1 ? -(int)((x >> 8) % (FT_LIMIT + 1))
                   : x % 4 == 2 ? FT_LIMIT
                                : -FT_LIMIT);
    }
    for (int i = 0; i < BUCKETS * 2 * H; i++, p += 2)
        put_i16(p, rng_next(&rng) % 2 ? NNUE_WEIGHT_LIMIT : -NNUE_WEIGHT_LIMIT);
    for (int k = 0; k < BUCKETS; k++, p += 4)
        put_u32(p, (uint32_t)(int32_t)((int)(rng_next(&rng) % 2000001) - 1000000));
    put_u32(p, nnue_checksum(data, size - 4));
    Seen seen;
    check_net(data, size, &seen);
    cr_assert(seen.below > 0 && seen.inside > 0 && seen.above > 0,
              "accumulator values below 0: %ld, in [0, QA]: %ld, above QA: %ld", seen.below,
              seen.inside, seen.above);
    free(data);
}
