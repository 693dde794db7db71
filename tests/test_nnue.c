/* The network's evaluation (eval/nnue.[ch]) on random nets written here by
 * the format's description (eval/nnue_format.h):
 *   - the loader takes a valid file and refuses every kind of bad one;
 *   - the engine's integer output equals a plain reference computation
 *     written from the format text (so the AVX-512, AVX2 and portable
 *     builds all compute the format, not just agree with themselves);
 *   - the incremental, lazy accumulators equal ones computed from scratch
 *     after every move, unmake and null move of long random games,
 *     standard and Chess960, with castling onto the rook's square, e.p. and
 *     promotions;
 *   - a refresh from the accumulator cache (a king back in a bucket it
 *     left, other pieces changed meanwhile) equals one from scratch;
 *   - through UCI: EvalFile loads a net, refuses a bad one and keeps the
 *     evaluation it had, and the engine searches with the net. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../eval/nnue/nnue.h"
#include "../movegen/bitboard.h"
#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../movegen/score.h"
#include "../movegen/util.h"
#include "harness.h"

enum { H = NNUE_HIDDEN };

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_i16(uint8_t *p, int v)
{
    p[0] = (uint8_t)(v & 0xff);
    p[1] = (uint8_t)((v >> 8) & 0xff);
}

static int16_t get_i16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }

static int32_t get_i32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16
                     | (uint32_t)p[3] << 24);
}

/* The output buckets of a file: its header's field, or one in version 1. */
static int buckets_of(const uint8_t *net) { return get_i32(net + 4) == 1 ? 1 : get_i32(net + 28); }

static int rand_in(uint64_t *rng, int lo, int hi)
{
    return lo + (int)(rng_next(rng) % (uint64_t)(hi - lo + 1));
}

/* Offsets of the tables in a file. */
static size_t ft_weight_at(int feature, int i)
{
    return NNUE_HEADER_SIZE + 2 * ((size_t)feature * H + (size_t)i);
}
static size_t ft_bias_at(int i) { return NNUE_HEADER_SIZE + 2 * ((size_t)NNUE_INPUTS * H + i); }
/* Output weight i of bucket k, and bucket k's bias in a file of `buckets`. */
static size_t out_weight_at(int k, int i)
{
    return NNUE_HEADER_SIZE + 2 * ((size_t)NNUE_INPUTS * H + H + (size_t)k * 2 * H + (size_t)i);
}
static size_t out_bias_at(int k, int buckets) { return out_weight_at(buckets, 0) + 4 * (size_t)k; }

static void seal(uint8_t *net, size_t size)
{
    put_u32(net + size - 4, nnue_checksum(net, size - 4));
}

/* A random net of `buckets` outputs within the format's ranges;
 * accumulators of real positions land on both sides of the clipped range
 * [0, QA]. */
static uint8_t *random_net(uint64_t seed, int scale, int buckets, size_t *size)
{
    uint64_t rng = seed;
    *size = nnue_file_size(NNUE_INPUTS, H, (size_t)buckets);
    uint8_t *net = calloc(1, *size);
    cr_assert_not_null(net);
    memcpy(net, "RKNN", 4); /* NOLINT(bugprone-not-null-terminated-result): 4 bytes */
    put_u32(net + 4, NNUE_VERSION);
    put_u32(net + 8, NNUE_INPUTS);
    put_u32(net + 12, H);
    put_u32(net + 16, NNUE_QA);
    put_u32(net + 20, NNUE_QB);
    put_u32(net + 24, (uint32_t)scale);
    put_u32(net + 28, (uint32_t)buckets);
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < H; i++)
            put_i16(net + ft_weight_at(f, i), rand_in(&rng, -60, 60));
    for (int i = 0; i < H; i++)
        put_i16(net + ft_bias_at(i), rand_in(&rng, -100, 250));
    for (int k = 0; k < buckets; k++) {
        for (int i = 0; i < 2 * H; i++)
            put_i16(net + out_weight_at(k, i),
                    rand_in(&rng, -NNUE_WEIGHT_LIMIT, NNUE_WEIGHT_LIMIT));
        put_u32(net + out_bias_at(k, buckets), (uint32_t)rand_in(&rng, -400000, 400000));
    }
    seal(net, *size);
    return net;
}

/* The same net as a version 1 file (one bucket, the field reserved as 0). */
static uint8_t *random_net_v1(uint64_t seed, int scale, size_t *size)
{
    uint8_t *net = random_net(seed, scale, 1, size);
    put_u32(net + 4, 1);
    put_u32(net + 28, 0);
    seal(net, *size);
    return net;
}

/* The format's output, computed the plain way from the file's bytes. */
static int reference_eval(const uint8_t *net, const Position *pos)
{
    long long acc[COLOR_NB][H];
    for (int c = WHITE; c <= BLACK; c++) {
        for (int i = 0; i < H; i++)
            acc[c][i] = get_i16(net + ft_bias_at(i));
        for (int sq = 0; sq < 64; sq++)
            if (pos->board[sq] != NO_PIECE) {
                int f = nnue_feature(c, pos_king_sq(pos, c), pos->board[sq], sq);
                for (int i = 0; i < H; i++)
                    acc[c][i] += get_i16(net + ft_weight_at(f, i));
            }
    }
    /* The bucket: pieces 2..32 in `buckets` equal ranges, as the format says. */
    int pieces = 0;
    for (int sq = 0; sq < 64; sq++)
        pieces += pos->board[sq] != NO_PIECE;
    const int buckets = buckets_of(net), k = (pieces - 2) * buckets / 31;
    long long sum = 0;
    for (int half = 0; half < 2; half++) {
        const long long *a = acc[half == 0 ? pos->side : !pos->side];
        for (int i = 0; i < H; i++) {
            long long c = a[i] < 0 ? 0 : a[i] > NNUE_QA ? NNUE_QA : a[i];
            sum += c * c * get_i16(net + out_weight_at(k, half * H + i));
        }
    }
    long long y = sum / NNUE_QA + get_i32(net + out_bias_at(k, buckets));
    long long v = y * get_i32(net + 24) / ((long long)NNUE_QA * NNUE_QB);
    long long lim = SCORE_KNOWN_WIN - 1;
    return (int)(v > lim ? lim : v < -lim ? -lim : v);
}

static NnueNet *load(const uint8_t *data, size_t size)
{
    char err[256] = "";
    NnueNet *net = nnue_net_load(data, size, err, sizeof err);
    cr_assert_not_null(net, "a valid net refused: %s", err);
    return net;
}

static void setup(void) { harness_setup(); }

TestSuite(nnue, .init = setup, .fini = harness_teardown);

Test(nnue, loader_refuses_bad_files)
{
    size_t size;
    uint8_t *good = random_net(1, 150, 8, &size);
    NnueNet *net = load(good, size);
    cr_assert_eq(nnue_net_scale(net), 150);
    nnue_net_free(net);

    uint8_t *bad = malloc(size + 1);
    cr_assert_not_null(bad);
    struct {
        const char *what, *expect;
        size_t size;
        size_t at;   /* byte changed (SIZE_MAX: none) */
        int value;   /* its new value, or an i16 when wide */
        bool wide;   /* the value is an int16 at `at` */
        bool resign; /* recompute the checksum after the change */
    } Cases[] = {
        {"empty", "RKNN", 0, SIZE_MAX, 0, false, false},
        {"magic", "RKNN", size, 0, 'X', false, true},
        {"version", "version", size, 4, 7, false, true},
        {"hidden", "->", size, 12, 64, false, true},
        {"qa", "QA", size, 16, 200, false, true},
        {"scale", "scale", size, 24, 0, false, true},
        {"short", "bytes", size - 1, SIZE_MAX, 0, false, false},
        {"long", "bytes", size + 1, SIZE_MAX, 0, false, false},
        {"checksum", "checksum", size, ft_weight_at(100, 3), 5, true, false},
        {"feature weight", "range", size, ft_weight_at(5, 7), 30000, true, true},
        {"output weight", "range", size, out_weight_at(0, 3), 128, true, true},
        {"negative output weight", "range", size, out_weight_at(7, 2 * H - 1), -128, true, true},
        {"no buckets", "buckets", size, 28, 0, false, true},
        {"too many buckets", "buckets", size, 28, NNUE_MAX_BUCKETS + 1, false, true},
        {"fewer buckets than the tables", "bytes", size, 28, 7, false, true},
        {"version 1 with buckets", "reserved", size, 4, 1, false, true},
        {"feature bias", "range", size, ft_bias_at(0), -507, true, true},
    };
    for (size_t k = 0; k < sizeof Cases / sizeof Cases[0]; k++) {
        memcpy(bad, good, size);
        bad[size] = 0;
        if (Cases[k].at != SIZE_MAX) {
            if (Cases[k].wide)
                put_i16(bad + Cases[k].at, Cases[k].value);
            else
                bad[Cases[k].at] = (uint8_t)Cases[k].value;
        }
        if (Cases[k].resign)
            seal(bad, size);
        char err[256] = "";
        NnueNet *n = nnue_net_load(bad, Cases[k].size, err, sizeof err);
        cr_expect_null(n, "%s: a bad net was accepted", Cases[k].what);
        nnue_net_free(n);
        cr_expect(strstr(err, Cases[k].expect) != NULL, "%s: message '%s' lacks '%s'",
                  Cases[k].what, err, Cases[k].expect);
    }
    free(bad);
    free(good);
}

static const struct {
    const char *fen;
    bool c960;
} Fens[] = {
    {START_FEN, false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
    {"r3k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    /* Castling onto the rook's square, kingside and queenside. */
    {"5kr1/8/8/8/8/8/8/5KR1 w Gg - 0 1", true},
    {"2rk4/8/8/8/8/8/8/2RK4 w Cc - 0 1", true},
    {"1k6/8/8/8/8/8/8/RK6 w Aa - 0 1", true},
};

static Position *new_position(int fi)
{
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    char err[256];
    cr_assert(pos_set_fen(pos, Fens[fi].fen, Fens[fi].c960, err, sizeof err), "%s: %s",
              Fens[fi].fen, err);
    return pos;
}

/* The engine's output on positions along random games from every start
 * equals the reference; *buckets_seen: how many buckets those positions used. */
static void check_output(const uint8_t *data, size_t size, int *buckets_seen)
{
    NnueNet *net = load(data, size);
    int clamped = 0, seen = 0;
    bool bucket_seen[NNUE_MAX_BUCKETS] = {false};
    uint64_t rng = 99;
    for (int fi = 0; fi < (int)(sizeof Fens / sizeof Fens[0]); fi++) {
        Position *pos = new_position(fi);
        for (int ply = 0; ply < 60; ply++) {
            int want = reference_eval(data, pos);
            cr_assert_eq(nnue_evaluate_scratch(net, pos), want, "%s ply %d", Fens[fi].fen, ply);
            clamped += abs(want) == SCORE_KNOWN_WIN - 1;
            seen++;
            bucket_seen[nnue_bucket(popcount(pos_occupied(pos)), buckets_of(data))] = true;
            MoveList list;
            gen_legal(pos, &list);
            if (!list.count)
                break;
            pos_make_move(pos, list.moves[rng_next(&rng) % (uint64_t)list.count]);
        }
        free(pos);
    }
    /* The random net must test the arithmetic, not only the clamp. */
    cr_assert_lt(clamped, seen / 4, "%d of %d outputs clamped", clamped, seen);
    *buckets_seen = 0;
    for (int k = 0; k < NNUE_MAX_BUCKETS; k++)
        *buckets_seen += bucket_seen[k];
    nnue_net_free(net);
}

Test(nnue, output_is_the_formats)
{
    size_t size;
    int seen;
    uint8_t *data = random_net(2, 90, 8, &size);
    check_output(data, size, &seen);
    cr_assert_geq(seen, 3, "the positions fell in %d of the 8 buckets", seen);
    free(data);
    data = random_net(6, 90, 3, &size);
    check_output(data, size, &seen);
    cr_assert_geq(seen, 2, "the positions fell in %d of the 3 buckets", seen);
    free(data);
    data = random_net_v1(7, 90, &size);
    check_output(data, size, &seen);
    free(data);
}

/* Pieces 2..32 fill the buckets in order, each bucket a range of at least
 * one piece count, the fewest pieces in bucket 0 and 32 in the last. */
Test(nnue, buckets_split_the_piece_counts)
{
    for (int b = 1; b <= NNUE_MAX_BUCKETS; b++) {
        int used[NNUE_MAX_BUCKETS] = {0};
        for (int pieces = 2; pieces <= 32; pieces++) {
            int k = nnue_bucket(pieces, b);
            cr_assert(k >= 0 && k < b, "%d pieces, %d buckets: bucket %d", pieces, b, k);
            if (pieces > 2)
                cr_assert(k == nnue_bucket(pieces - 1, b) || k == nnue_bucket(pieces - 1, b) + 1,
                          "%d buckets: %d pieces in %d after %d", b, pieces, k,
                          nnue_bucket(pieces - 1, b));
            used[k]++;
        }
        cr_assert_eq(nnue_bucket(2, b), 0);
        cr_assert_eq(nnue_bucket(32, b), b - 1);
        for (int k = 0; k < b; k++)
            cr_assert_gt(used[k], 0, "%d buckets: bucket %d unused", b, k);
    }
}

/* Every legal move from pos once: the incremental evaluation equals the
 * reference, and the stack is back where it was after the unmake. */
static void check_every_move(NnueStack *st, const uint8_t *data, Position *pos, const char *fen)
{
    MoveList list;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        char uci[8];
        move_to_uci(pos, list.moves[i], uci);
        pos_make_move_delta(pos, list.moves[i], nnue_push(st));
        cr_assert_eq(nnue_evaluate(st, pos), reference_eval(data, pos), "%s after %s", fen, uci);
        cr_assert(nnue_check(st, pos), "%s after %s", fen, uci);
        pos_unmake_move(pos, list.moves[i]);
        nnue_pop(st);
    }
    cr_assert(nnue_check(st, pos), "%s after every move and its unmake", fen);
}

Test(nnue, incremental_equals_scratch_along_random_games, .timeout = 120)
{
    size_t size;
    uint8_t *data = random_net(3, 100, 8, &size);
    NnueNet *net = load(data, size);
    NnueStack *st = aligned_alloc(64, sizeof *st); /* its members are 64-byte aligned */
    cr_assert_not_null(st);
    uint64_t rng = 0xACC;
    int castlings = 0, eps = 0, promotions = 0;
    for (int fi = 0; fi < (int)(sizeof Fens / sizeof Fens[0]); fi++)
        for (int game = 0; game < 6; game++) {
            Position *pos = new_position(fi);
            nnue_reset(st, net, pos);
            check_every_move(st, data, pos, Fens[fi].fen);
            move_t line[NNUE_STACK_SIZE];
            int depth = 0;
            for (int step = 0; step < 400; step++) {
                const uint64_t r = rng_next(&rng) % 100;
                MoveList list;
                gen_legal(pos, &list);
                if (depth > 0 && (r < 30 || !list.count || depth >= MAX_PLY)) {
                    /* Take back a move: the stack must be as it was. */
                    depth--;
                    if (line[depth] == MOVE_NULL)
                        pos_unmake_null(pos);
                    else
                        pos_unmake_move(pos, line[depth]);
                    nnue_pop(st);
                } else if (!list.count) {
                    break;
                } else if (r < 35 && !pos_in_check(pos)) {
                    nnue_push_null(st);
                    pos_make_null(pos);
                    line[depth++] = MOVE_NULL;
                } else {
                    move_t m = list.moves[rng_next(&rng) % (uint64_t)list.count];
                    castlings += move_kind(m) == MOVE_CASTLING;
                    eps += move_kind(m) == MOVE_EN_PASSANT;
                    promotions += move_kind(m) == MOVE_PROMOTION;
                    pos_make_move_delta(pos, m, nnue_push(st));
                    line[depth++] = m;
                }
                /* Evaluated now and then, so that catching up over several
                 * plies is tested too. */
                if (r % 3 == 0)
                    cr_assert_eq(nnue_evaluate(st, pos), reference_eval(data, pos),
                                 "%s game %d step %d", Fens[fi].fen, game, step);
            }
            cr_assert(nnue_check(st, pos), "%s game %d at the end", Fens[fi].fen, game);
            free(pos);
        }
    cr_assert(castlings > 0 && eps > 0 && promotions > 0, "castling %d, e.p. %d, promotions %d",
              castlings, eps, promotions);
    free(st);
    nnue_net_free(net);
    free(data);
}

/* Kings that leave a bucket and come back after other pieces changed: the
 * refresh starts from the cache entry the king's bucket kept (the pieces
 * of an earlier position there), so it must add and take off just the
 * difference, promotions and captures included. Every ply is evaluated,
 * so that each refresh is checked against the reference. */
Test(nnue, refresh_from_the_cache_equals_scratch)
{
    size_t size;
    uint8_t *data = random_net(11, 100, 8, &size);
    NnueNet *net = load(data, size);
    NnueStack *st = aligned_alloc(64, sizeof *st); /* its members are 64-byte aligned */
    cr_assert_not_null(st);
    static const char *const fen = "4k2r/1P3ppp/8/3q4/8/8/5PPP/R3K2R w KQk - 0 1";
    /* White's king: e1 -> f1 -> e1 -> e2 -> e1 -> f1 -> g1 -> f1 -> e1,
     * Black's: e8 -> d8 -> e7 -> d8 -> e8 -> f8, with a rook, a queen
     * (just made) and a pawn taken on the way. */
    static const char *const line[] = {
        "e1f1", "d5a2", "f1e1", "a2a1", "e1e2", "a1b2", "e2e1", "e8d8", "b7b8q", "d8e7",
        "e1f1", "b2b8", "f1g1", "e7d8", "g1f1", "d8e8", "g2g4", "b8h2", "f1e1",  "e8f8",
    };
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    char err[256];
    cr_assert(pos_set_fen(pos, fen, false, err, sizeof err), "%s", err);
    nnue_reset(st, net, pos);
    enum { N = sizeof line / sizeof *line };
    move_t played[N];
    /* Twice: the second time the entries hold positions from later in the
     * line, so that the differences run the other way. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < N; i++) {
            played[i] = move_from_uci(pos, line[i]);
            cr_assert(played[i] != MOVE_NONE, "%s is not legal at ply %d", line[i], i);
            pos_make_move_delta(pos, played[i], nnue_push(st));
            cr_assert_eq(nnue_evaluate(st, pos), reference_eval(data, pos), "pass %d after %s",
                         pass, line[i]);
            cr_assert(nnue_check(st, pos), "pass %d after %s", pass, line[i]);
        }
        for (int i = N - 1; i >= 0; i--) {
            pos_unmake_move(pos, played[i]);
            nnue_pop(st);
            cr_assert(nnue_check(st, pos), "pass %d after taking back %s", pass, line[i]);
        }
    }
    free(pos);
    free(st);
    nnue_net_free(net);
    free(data);
}

/* ---- Through UCI ---------------------------------------------------------- */

static void write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    cr_assert_eq(fclose(f), 0);
}

Test(nnue, evalfile_option)
{
    char good[64], bad[64];
    snprintf(good, sizeof good, "/tmp/rokade-test-%d.nnue", (int)getpid());
    snprintf(bad, sizeof bad, "/tmp/rokade-test-%d-bad.nnue", (int)getpid());
    size_t size;
    uint8_t *data = random_net(4, 120, 8, &size);
    write_file(good, data, size);
    write_file(bad, data, size - 10);

    Engine *e = eng_start();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "setoption name EvalFile value %s", good);
    expect_no_error(e, cmd);
    eng_send(e,
             "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    eng_send(e, "eval");
    const char *l = wait_for(e, "Network evaluation:", 5000);
    CHECK(e, l, "eval does not print the net's output");
    Position *pos = lib_pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            NULL, false);
    char want[64];
    snprintf(want, sizeof want, "Network evaluation: %d cp", reference_eval(data, pos));
    free(pos);
    CHECK(e, starts(l, want), "'%s' is not '%s ...'", l, want);

    snprintf(cmd, sizeof cmd, "setoption name EvalFile value %s", bad);
    l = expect_error(e, cmd, "bytes", "unchanged");
    CHECK(e, strstr(l, good), "the message does not name the net kept: '%s'", l);
    eng_send(e, "eval");
    l = wait_for(e, "Network evaluation:", 5000);
    CHECK(e, l && starts(l, want), "the net changed after a bad EvalFile: '%s'", l ? l : "");

    int mark;
    l = search(e, "go depth 8", 20000, &mark);
    CHECK(e, l, "no bestmove with the net");
    check_bestmove(e, l, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                   "");

    expect_no_error(e, "setoption name EvalFile value <hand-crafted>");
    eng_send(e, "eval");
    CHECK(e, wait_for(e, "Evaluation:", 5000), "no hand-crafted evaluation after <hand-crafted>");
    eng_quit(e);
    unlink(good);
    unlink(bad);
    free(data);
}

/* The games of `datagen` (one thread, a fixed seed) with the evaluation in
 * force: `net` NULL for the hand-crafted one. Returns the file's bytes. */
static uint8_t *datagen_with(const char *net, size_t *size)
{
    char out[64], cmd[160];
    snprintf(out, sizeof out, "/tmp/rokade-test-%d-%s.vf", (int)getpid(), net ? "net" : "hce");
    unlink(out);
    Engine *e = eng_start();
    if (net) {
        snprintf(cmd, sizeof cmd, "setoption name EvalFile value %s", net);
        expect_no_error(e, cmd);
    }
    eng_send(e, "datagen out %s games 4 threads 1 nodes 400 seed 5", out);
    CHECK(e, wait_for(e, "results ", 60000), "datagen did not finish");
    eng_quit(e);
    FILE *f = fopen(out, "rb");
    cr_assert_not_null(f, "no datagen output %s", out);
    uint8_t *buf = malloc(1 << 20);
    cr_assert_not_null(buf);
    *size = fread(buf, 1, 1 << 20, f);
    fclose(f);
    unlink(out);
    return buf;
}

Test(nnue, datagen_plays_with_the_net, .timeout = 120)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/rokade-test-%d-dg.nnue", (int)getpid());
    size_t size;
    uint8_t *data = random_net(5, 120, 1, &size);
    write_file(path, data, size);
    size_t n1, n2, n0;
    uint8_t *a = datagen_with(path, &n1), *b = datagen_with(path, &n2),
            *h = datagen_with(NULL, &n0);
    cr_assert(n1 > 0 && n0 > 0);
    cr_assert(n1 == n2 && !memcmp(a, b, n1), "two runs with the net and one seed differ");
    cr_assert(n1 != n0 || memcmp(a, h, n1) != 0, "the net's games equal the hand-crafted ones");
    free(a);
    free(b);
    free(h);
    unlink(path);
    free(data);
}
