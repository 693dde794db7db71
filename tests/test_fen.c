/* FEN parsing and printing: exact round trips, defaults, validation errors
 * (which must leave the position untouched) and dropped castling / e.p. data. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/notation.h"
#include "../movegen/position.h"

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

static void setup(void) { movegen_init(); }

TestSuite(fen, .init = setup);

static Position *new_pos(void)
{
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    return pos;
}

static void set_ok(Position *pos, const char *fen, bool c960)
{
    char err[256] = "";
    bool ok = pos_set_fen(pos, fen, c960, err, sizeof err);
    cr_assert(ok, "pos_set_fen rejected \"%s\": %s", fen, err);
}

/* Parses fen and returns what pos_get_fen prints for it. */
static void fen_out(const char *fen, bool c960, char *out, size_t len)
{
    Position *pos = new_pos();
    set_ok(pos, fen, c960);
    pos_get_fen(pos, out, len);
    free(pos);
}

static void round_trip(const char *fen, bool c960)
{
    char out[128];
    fen_out(fen, c960, out, sizeof out);
    cr_assert_str_eq(out, fen, "round trip (chess960=%d):\n  in:  %s\n  out: %s", c960, fen, out);
}

static void expect_out(const char *fen, bool c960, const char *want)
{
    char out[128];
    fen_out(fen, c960, out, sizeof out);
    cr_assert_str_eq(out, want, "FEN \"%s\" printed as \"%s\", want \"%s\"", fen, out, want);
}

/* ------------------------------------------------------------------------ */

Test(fen, round_trip_standard_and_en_passant)
{
    round_trip(START_FEN, false);
    round_trip(KIWIPETE, false);
    round_trip("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false);
    round_trip("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false);
    round_trip("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false);
    round_trip("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false);
    round_trip("4k3/8/8/8/8/8/8/4K3 b - - 99 123", false);
    round_trip("4k3/8/8/8/8/8/8/4K3 w - - 100000 100000", false);
    round_trip("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 7 40", false);
    round_trip("r3k2r/8/8/8/8/8/8/R3K2R b Qk - 0 1", false);

    /* e.p. square kept even when no capture is possible (after 1.e4). */
    round_trip("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false);
    /* ... and when one is (after 1.e4 ... 2.e5 f5). */
    round_trip("rnbqkbnr/ppppp1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false);
    round_trip("rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 3", false);
    round_trip("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", false);
    round_trip("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", false);
    round_trip("4k3/8/8/p7/8/8/8/4K3 w - a6 0 1", false);
    round_trip("4k3/8/8/8/7P/8/8/4K3 b - h3 0 1", false);
}

Test(fen, round_trip_chess960_shredder_and_xfen)
{
    /* Shredder-FEN stays Shredder-FEN. */
    round_trip("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true);
    round_trip("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", true);
    round_trip("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", true);
    round_trip("qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", true);
    round_trip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", true);
    /* Without the chess960 flag Shredder letters still parse (king on e1). */
    round_trip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", false);

    /* X-FEN: KQkq name the outermost rook, in a Chess960 set-up. */
    round_trip("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1", true);
    round_trip("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1", true);
    round_trip("1rk4r/8/8/8/8/8/8/1RK4R w Kk - 3 17", true);
}

Test(fen, round_trip_xfen_inner_rook)
{
    /* X-FEN names an inner rook by its file and the outermost one by K/Q:
     * white king b1, rooks a1 (queenside, outermost), e1 and g1; the right is
     * with the e1 rook, so X-FEN writes "EQ" (Shredder-FEN would write "EA"). */
    round_trip("1k6/8/8/8/8/8/8/RK2R1R1 w EQ - 0 1", true);
}

Test(fen, parsing_details_and_default_counters)
{
    /* HAha on the standard start position is the same position as KQkq. */
    Position *a = new_pos(), *b = new_pos();
    set_ok(a, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", false);
    set_ok(b, START_FEN, false);
    cr_assert_eq(pos_key(a), pos_key(b));
    cr_assert_eq(pos_st(a)->castling, pos_st(b)->castling);
    cr_assert_eq(pos_st(a)->castling, WHITE_OO | WHITE_OOO | BLACK_OO | BLACK_OOO);
    cr_assert_eq(a->castle_rook[CR_WK], SQ_H1);
    cr_assert_eq(a->castle_rook[CR_WQ], SQ_A1);
    cr_assert_eq(a->castle_rook[CR_BK], SQ_H8);
    cr_assert_eq(a->castle_rook[CR_BQ], SQ_A8);
    free(a);
    free(b);

    expect_out("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", false, START_FEN);
    expect_out("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5", false,
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5 1");
    expect_out("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3", false,
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    /* Trailing blanks are not an extra field. */
    expect_out("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1  ", false, START_FEN);
    /* The move number defaults on the black side too. */
    Position *pos = new_pos();
    set_ok(pos, "4k3/8/8/8/8/8/8/4K3 b - -", false);
    cr_assert_eq(pos_fullmove(pos), 1);
    cr_assert_eq(pos_rule50(pos), 0);

    set_ok(pos, "4k3/8/8/8/8/8/8/4K3 b - - 37 112", false);
    cr_assert_eq(pos_rule50(pos), 37);
    cr_assert_eq(pos_fullmove(pos), 112);
    cr_assert_eq(pos->side, BLACK);
    cr_assert_eq(pos->hply, 0);

    set_ok(pos, KIWIPETE, false);
    cr_assert_eq(pos_piece_on(pos, SQ_A1), W_ROOK);
    cr_assert_eq(pos_piece_on(pos, SQ_E1), W_KING);
    cr_assert_eq(pos_piece_on(pos, SQ_E8), B_KING);
    cr_assert_eq(pos_piece_on(pos, SQ_E7), B_QUEEN);
    cr_assert_eq(pos_piece_on(pos, SQ_F3), W_QUEEN);
    cr_assert_eq(pos_piece_on(pos, SQ_H3), B_PAWN);
    cr_assert_eq(pos_piece_on(pos, SQ_E5), W_KNIGHT);
    cr_assert_eq(pos_piece_on(pos, SQ_A6), B_BISHOP);
    cr_assert_eq(pos_piece_on(pos, SQ_D4), NO_PIECE);
    cr_assert_eq(popcount(pos_occupied(pos)), 32);
    cr_assert_eq(popcount(pos->by_color[WHITE]), 16);
    cr_assert_eq(popcount(pos_pieces(pos, BLACK, PAWN)), 8);
    cr_assert_eq(pos_key(pos), pos_compute_key(pos));
    cr_assert_eq(pos_st(pos)->pawn_key, pos_compute_pawn_key(pos));
    cr_assert_neq(pos_st(pos)->non_pawn_key[WHITE], pos_st(pos)->non_pawn_key[BLACK]);
    cr_assert_eq(pos_st(pos)->non_pawn_key[WHITE], pos_compute_non_pawn_key(pos, WHITE));
    free(pos);
}

/* ------------------------------------------------------------------------ */
/* Rejections                                                               */

/* Non-fatal, so that one case does not hide the others in the same test. */
static void expect_reject(const char *fen)
{
    Position *pos = new_pos(), *copy = new_pos();
    set_ok(pos, KIWIPETE, false);
    pos_make_move(pos, move_from_uci(pos, "e2a6")); /* some history too */
    memcpy(copy, pos, sizeof *pos);
    char before[128], after[128], err[256] = "";
    pos_get_fen(pos, before, sizeof before);
    uint64_t key = pos_key(pos);

    for (int c960 = 0; c960 <= 1; c960++) {
        err[0] = '\0';
        bool ok = pos_set_fen(pos, fen, c960, err, sizeof err);
        cr_expect(!ok, "accepted bad FEN \"%s\" (chess960=%d)", fen, c960);
        if (ok)
            break;
        cr_expect(strlen(err) > 0, "no error message for \"%s\"", fen);
        pos_get_fen(pos, after, sizeof after);
        cr_expect_str_eq(after, before, "FEN changed by rejected \"%s\"", fen);
        cr_expect_eq(pos_key(pos), key, "key changed by rejected \"%s\"", fen);
        /* Byte-for-byte on purpose: the copy was made with memcpy. */
        /* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison) */
        cr_expect(memcmp(pos, copy, sizeof *pos) == 0, "position bytes changed by rejected \"%s\"",
                  fen);
    }
    free(pos);
    free(copy);
}

Test(fen, reject_bad_piece_placement)
{
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNx w KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/4*3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/0008/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");

    expect_reject("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1");
    expect_reject("4k3 w - - 0 1");

    expect_reject("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"); /* 9 pieces */
    expect_reject("rnbqkbnr/pppppppp/72/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"); /* 7 + 2 */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1"); /* last rank */
    expect_reject("rnbqkbnr/pppppppp/8/8/44p/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect_reject("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"); /* 7 */
    expect_reject("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"); /* last rank */
    expect_reject("rnbqkbnr/pppppppp/8//8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"); /* empty rank */

    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"); /* no white king */
    expect_reject("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"); /* no black king */
    expect_reject("rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"); /* two black kings */
    expect_reject("4k3/8/8/8/8/8/8/3KK3 w - - 0 1");                         /* two white kings */
    expect_reject("8/8/8/8/8/8/8/8 w - - 0 1");

    expect_reject("4k3/8/8/8/8/8/8/P3K3 w - - 0 1");
    expect_reject("p3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    expect_reject("P3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    expect_reject("4k3/8/8/8/8/8/8/4K2p b - - 0 1");
}

Test(fen, reject_bad_fields)
{
    expect_reject("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"); /* black king attacked, white to move */
    expect_reject("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1"); /* white king attacked by a pawn */
    expect_reject("4k3/8/8/8/8/8/8/r3K3 b - - 0 1");
    expect_reject("4k3/8/3N4/8/8/8/8/4K3 w - - 0 1");
    /* The side to move may of course be in check. */
    Position *pos = new_pos();
    set_ok(pos, "4k3/4R3/8/8/8/8/8/4K3 b - - 0 1", false);
    cr_assert(pos_in_check(pos));
    free(pos);

    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");

    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KZ - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K-q - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk1 - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQ - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w I - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -- - 0 1");

    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQqq - 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HH - 0 1");
    /* The same right by two names (H is the K rook here). */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KH - 0 1");

    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq zz 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e33 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq E3 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq 3e 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq i3 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e0 0 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -- 0 1");

    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1x 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +3 1");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999");

    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0");
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4");

    expect_reject("");
    expect_reject("   ");
    expect_reject("\t");
}

Test(fen, reject_duplicate_castling_letter_of_dropped_right)
{
    /* A repeated letter is a syntax error even when the right itself would be
     * dropped (no rook on h1 / no king on the back rank). */
    expect_reject("4k3/8/8/8/8/8/8/4K3 w KK - 0 1");
    expect_reject("8/8/8/8/8/3k4/8/3K4 w qq - 0 1");
}

Test(fen, small_buffers)
{
    Position *pos = new_pos();
    set_ok(pos, START_FEN, false);
    char err[8];
    memset(err, 'x', sizeof err);
    cr_assert(!pos_set_fen(pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", false,
                           err, sizeof err));
    cr_assert(memchr(err, '\0', sizeof err) != NULL, "error text not terminated");
    cr_assert(strlen(err) > 0);

    set_ok(pos, KIWIPETE, false);
    char buf[16];
    memset(buf, 'x', sizeof buf);
    pos_get_fen(pos, buf, 10);
    cr_assert_eq(strlen(buf), 9);
    cr_assert(strncmp(buf, KIWIPETE, 9) == 0);
    cr_assert_eq(buf[10], 'x', "wrote past the given length");
    free(pos);
}

/* ------------------------------------------------------------------------ */
/* Dropped data                                                             */

Test(fen, impossible_castling_and_en_passant_dropped)
{
    expect_out("r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", false, "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    /* White king off its first rank. */
    expect_out("r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1", false, "r3k2r/8/8/8/8/8/4K3/R6R w kq - 0 1");
    /* No rooks at all. */
    expect_out("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", false, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    /* Rooks of the wrong colour. */
    expect_out("4k3/8/8/8/8/8/8/rN2K1Nr w KQkq - 0 1", false, "4k3/8/8/8/8/8/8/rN2K1Nr w - - 0 1");
    /* Shredder letter naming an empty file. */
    expect_out("4k3/8/8/8/8/8/8/R3K2R w HAC - 0 1", true, "4k3/8/8/8/8/8/8/R3K2R w HA - 0 1");

    /* And the dropped rights are really gone: no castling move. */
    Position *pos = new_pos();
    set_ok(pos, "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", false);
    cr_assert_eq(pos_st(pos)->castling, WHITE_OO | BLACK_OOO);
    free(pos);

    /* Wrong rank for the side to move. */
    expect_out("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", false,
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    expect_out("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", false,
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    expect_out("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 1", false,
               "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    /* No pawn in front of the square. */
    expect_out("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", false,
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    /* A pawn of the wrong colour in front of it. */
    expect_out("rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", false,
               "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    /* The square itself, or the one the pawn came from, occupied. */
    expect_out("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", false,
               "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq - 0 1");
    expect_out("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1", false,
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq - 0 1");

    /* A dropped square is not in the key either. */
    Position *a = new_pos(), *b = new_pos();
    set_ok(a, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", false);
    set_ok(b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", false);
    cr_assert_eq(pos_st(a)->ep, SQ_NONE);
    cr_assert_eq(pos_key(a), pos_key(b));
    free(a);
    free(b);
}

Test(fen, castling_king_off_e_file_needs_chess960)
{
    /* Found by the FEN fuzzer: in standard notation the king's castling step
     * f1-g1 is also a plain king move, so such rights need Chess960 mode. */
    static const char *const Fens[] = {
        "qb1nrkbr/1pppp1p1/1n3p2/p1B4p/8/3P1P1P/PPP1P1P1/QBNNRK1R w HEhe - 0 9",
        "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/R5KR w K - 0 1",
    };
    for (size_t i = 0; i < sizeof Fens / sizeof *Fens; i++) {
        Position *pos = new_pos();
        set_ok(pos, START_FEN, false);
        char before[128], after[128], err[256] = "";
        pos_get_fen(pos, before, sizeof before);
        cr_assert(!pos_set_fen(pos, Fens[i], false, err, sizeof err), "accepted: %s", Fens[i]);
        cr_assert(strstr(err, "UCI_Chess960"), "error text: %s", err);
        pos_get_fen(pos, after, sizeof after);
        cr_assert_str_eq(before, after);
        set_ok(pos, Fens[i], true);
        free(pos);
    }
    /* Without castling rights the position is fine in standard mode. */
    Position *pos = new_pos();
    set_ok(pos, "rk5r/8/8/8/8/8/8/RK5R w - - 0 1", false);
    free(pos);
}
