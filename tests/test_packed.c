/* Packed training records (movegen/records/packed.h): every position of the perft
 * suites and of random games from them packs and unpacks to the same
 * position, score and result; damaged records are refused with the position
 * left as it was. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/records/packed.h"
#include "../movegen/util.h"

static void setup(void) { movegen_init(); }

TestSuite(packed, .init = setup);

static uint64_t Rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void) { return rng_next(&Rng); }

/* The same position: key (pieces, side, castling, legal e.p.), the rook of
 * every castling right, the counters and the variant. */
static void check_same(const Position *a, const Position *b, const char *fen)
{
    char fb[128];
    pos_get_fen(b, fb, sizeof fb);
    cr_assert_eq(pos_key(a), pos_key(b), "key differs: %s -> %s", fen, fb);
    cr_assert_eq(pos_st(a)->castling, pos_st(b)->castling, "castling differs: %s -> %s", fen, fb);
    for (int i = 0; i < CR_INDEX_NB; i++)
        if (pos_st(a)->castling & (1 << i))
            cr_assert_eq(a->castle_rook[i], b->castle_rook[i], "castling rook differs: %s -> %s",
                         fen, fb);
    cr_assert_eq(pos_rule50(a) > 255 ? 255 : pos_rule50(a), pos_rule50(b), "%s -> %s", fen, fb);
    cr_assert_eq(pos_fullmove(a), pos_fullmove(b), "%s -> %s", fen, fb);
    cr_assert_eq(a->chess960, b->chess960, "%s -> %s", fen, fb);
    cr_assert_eq(pos_st(a)->ep_legal, pos_st(b)->ep_legal, "%s -> %s", fen, fb);
}

static int round_trip(const Position *pos)
{
    char fen[128], err[256] = "";
    pos_get_fen(pos, fen, sizeof fen);
    int score = (int)(rnd() % 64001) - 32000, result = (int)(rnd() % 3);
    PackedPos p;
    cr_assert(packed_from_position(pos, score, result, &p), "could not pack %s", fen);
    Position *back = calloc(1, sizeof *back);
    cr_assert_not_null(back);
    int s2 = 0, r2 = -1;
    cr_assert(packed_to_position(&p, back, &s2, &r2, err, sizeof err), "%s: %s", fen, err);
    check_same(pos, back, fen);
    cr_assert_eq(s2, score, "%s", fen);
    cr_assert_eq(r2, result, "%s", fen);
    free(back);
    return 1;
}

/* Every suite position, then a random game of up to 60 plies from it with
 * every position on the way. */
static int suite(const char *path, bool c960)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char line[512], err[256];
    int n = 0;
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (semi)
            *semi = 0;
        if (line[0] == '#' || line[0] == '\n' || !line[0])
            continue;
        cr_assert(pos_set_fen(pos, line, c960, err, sizeof err), "%s: %s", line, err);
        n += round_trip(pos);
        for (int ply = 0; ply < 60; ply++) {
            MoveList list;
            gen_legal(pos, &list);
            if (!list.count)
                break;
            pos_make_game_move(pos, list.moves[rnd() % (uint64_t)list.count]);
            n += round_trip(pos);
        }
    }
    fclose(f);
    free(pos);
    return n;
}

Test(packed, suites_and_random_games_round_trip)
{
    int n = suite("perft/standard.epd", false) + suite("perft/tricky.epd", false)
            + suite("perft/chess960.epd", true);
    cr_assert_gt(n, 50000, "only %d positions", n);
}

Test(packed, legal_en_passant_and_castling_rooks_survive)
{
    static const char *const Fens[] = {
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 7 40",
    };
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    char err[256];
    for (int i = 0; i < 2; i++) {
        cr_assert(pos_set_fen(pos, Fens[i], false, err, sizeof err), "%s", err);
        round_trip(pos);
    }
    cr_assert(pos_st(pos)->castling == (WHITE_OOO | BLACK_OO));
    free(pos);
}

Test(packed, scores_are_clamped)
{
    Position *pos = calloc(1, sizeof *pos), *back = calloc(1, sizeof *back);
    cr_assert(pos && back);
    pos_set_startpos(pos);
    PackedPos p;
    int s, r;
    char err[256];
    cr_assert(packed_from_position(pos, 100000, RESULT_WHITE_WINS, &p));
    cr_assert(packed_to_position(&p, back, &s, &r, err, sizeof err), "%s", err);
    cr_assert_eq(s, PACKED_SCORE_MAX);
    cr_assert(packed_from_position(pos, -100000, RESULT_BLACK_WINS, &p));
    cr_assert(packed_to_position(&p, back, &s, &r, err, sizeof err), "%s", err);
    cr_assert_eq(s, -PACKED_SCORE_MAX);
    cr_assert_eq(r, RESULT_BLACK_WINS);
    free(pos);
    free(back);
}

/* Damages a packed start position with f and expects a refusal naming `want`
 * with the target position untouched. */
static void refused(void (*f)(PackedPos *), const char *want)
{
    Position *pos = calloc(1, sizeof *pos), *target = calloc(1, sizeof *target);
    Position *copy = calloc(1, sizeof *copy);
    cr_assert(pos && target && copy);
    pos_set_startpos(pos);
    char err[256] = "";
    cr_assert(pos_set_fen(target, "8/8/4k3/8/8/4K3/8/8 w - - 0 1", false, err, sizeof err));
    *copy = *target;
    PackedPos p;
    cr_assert(packed_from_position(pos, 0, RESULT_DRAW, &p));
    f(&p);
    int s = 7, r = 7;
    cr_assert_not(packed_to_position(&p, target, &s, &r, err, sizeof err), "accepted (%s)", want);
    cr_assert(strstr(err, want), "error \"%s\" does not say \"%s\"", err, want);
    char was[128], now[128];
    pos_get_fen(copy, was, sizeof was);
    pos_get_fen(target, now, sizeof now);
    cr_assert(strcmp(was, now) == 0 && pos_key(target) == pos_key(copy),
              "position changed after an error: %s -> %s", was, now);
    cr_assert(s == 7 && r == 7, "outputs written after an error");
    free(pos);
    free(target);
    free(copy);
}

static void bad_code(PackedPos *p) { p->b[8] = (uint8_t)((p->b[8] & 0xf0) | 7); }
static void bad_result(PackedPos *p) { p->b[30] = 3; }
static void bad_flags(PackedPos *p) { p->b[31] = 0x80; }
static void bad_ep(PackedPos *p) { p->b[24] = (uint8_t)((p->b[24] & 0x80) | 100); }
static void useless_ep(PackedPos *p) { p->b[24] = (uint8_t)((p->b[24] & 0x80) | SQ_E3); }
static void too_many(PackedPos *p) { p->b[4] = 0xff; } /* 40 pieces */
/* The white king (fifth piece: a1 b1 c1 d1 e1) becomes a queen. */
static void no_king(PackedPos *p) { p->b[8 + 2] = (uint8_t)((p->b[8 + 2] & 0xf0) | 4); }

Test(packed, damaged_records_are_refused)
{
    refused(bad_code, "piece code");
    refused(bad_result, "result");
    refused(bad_flags, "flags");
    refused(bad_ep, "e.p.");
    refused(useless_ep, "");
    refused(too_many, "pieces");
    refused(no_king, "not a legal position");
}
