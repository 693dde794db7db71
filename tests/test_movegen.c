/* Move generation: special moves (castling, e.p., promotions), make/unmake
 * exactness and incremental keys over random walks, stage split, validation of
 * arbitrary 16-bit moves, UCI and SAN move text. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../movegen/util.h"

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

static void setup(void) { movegen_init(); }

TestSuite(movegen, .init = setup);

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static Position *pos_from(const char *fen, bool c960)
{
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    char err[256] = "";
    cr_assert(pos_set_fen(pos, fen, c960, err, sizeof err), "bad test FEN \"%s\": %s", fen, err);
    return pos;
}

static int sq(const char *s) { return make_square(s[0] - 'a', s[1] - '1'); }

static move_t must_move(const Position *pos, const char *uci)
{
    move_t m = move_from_uci(pos, uci);
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    cr_assert_neq(m, MOVE_NONE, "move %s not found in %s", uci, fen);
    return m;
}

static void play(Position *pos, const char *uci) { pos_make_move(pos, must_move(pos, uci)); }

static void fen_of(const Position *pos, char *buf) { pos_get_fen(pos, buf, 128); }

static int count_kind(const Position *pos, int kind)
{
    MoveList l;
    gen_legal(pos, &l);
    int n = 0;
    for (int i = 0; i < l.count; i++)
        n += move_kind(l.moves[i]) == kind;
    return n;
}

static bool list_has(const MoveList *l, move_t m)
{
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m)
            return true;
    return false;
}

/* Castling moves of the side to move, as UCI text joined by spaces, sorted by
 * generation order (at most two). */
static void castling_text(const Position *pos, char *out)
{
    MoveList l;
    gen_legal(pos, &l);
    out[0] = '\0';
    for (int i = 0; i < l.count; i++)
        if (move_kind(l.moves[i]) == MOVE_CASTLING) {
            char b[8];
            move_to_uci(pos, l.moves[i], b);
            if (out[0])
                strcat(out, " ");
            strcat(out, b);
        }
}

/* ------------------------------------------------------------------------ */
/* Castling                                                                 */

Test(movegen, castling_moves_and_lost_rights)
{
    { /* castling both sides */
        Position *pos = pos_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false);
        cr_assert_eq(count_kind(pos, MOVE_CASTLING), 2);
        move_t oo = must_move(pos, "e1g1"), ooo = must_move(pos, "e1c1");
        cr_assert_eq(move_kind(oo), MOVE_CASTLING);
        cr_assert_eq(move_kind(ooo), MOVE_CASTLING);
        cr_assert_eq(move_to(oo), SQ_H1, "castling is stored as king takes rook");
        cr_assert_eq(move_to(ooo), SQ_A1);
        cr_assert_eq(gen_count_legal(pos), 26);

        pos_make_move(pos, oo);
        cr_assert_eq(pos_piece_on(pos, SQ_G1), W_KING);
        cr_assert_eq(pos_piece_on(pos, SQ_F1), W_ROOK);
        cr_assert_eq(pos_piece_on(pos, SQ_E1), NO_PIECE);
        cr_assert_eq(pos_piece_on(pos, SQ_H1), NO_PIECE);
        cr_assert_eq(pos_st(pos)->castling, BLACK_OO | BLACK_OOO);
        char c[32];
        castling_text(pos, c);
        cr_assert_str_eq(c, "e8c8", "f8 is attacked by the f1 rook now");

        move_t booo = must_move(pos, "e8c8");
        cr_assert_eq(move_to(booo), SQ_A8);
        pos_make_move(pos, booo);
        cr_assert_eq(pos_piece_on(pos, SQ_C8), B_KING);
        cr_assert_eq(pos_piece_on(pos, SQ_D8), B_ROOK);
        cr_assert_eq(pos_piece_on(pos, SQ_A8), NO_PIECE);
        cr_assert_eq(pos_piece_on(pos, SQ_E8), NO_PIECE);
        char fen[128];
        fen_of(pos, fen);
        cr_assert_str_eq(fen, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
        pos_unmake_move(pos, booo);
        pos_unmake_move(pos, oo);
        fen_of(pos, fen);
        cr_assert_str_eq(fen, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        free(pos);
    }

    { /* castling rights lost after king move */
        Position *pos = pos_from("r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1", false);
        play(pos, "e1d1");
        play(pos, "a7a6");
        play(pos, "d1e1");
        play(pos, "a6a5");
        cr_assert_eq(count_kind(pos, MOVE_CASTLING), 0);
        cr_assert_eq(pos_st(pos)->castling, BLACK_OO | BLACK_OOO);
        char fen[128];
        fen_of(pos, fen);
        cr_assert_str_eq(fen, "r3k2r/7p/8/p7/8/8/P6P/R3K2R w kq - 0 3");
        play(pos, "a2a3");
        cr_assert_eq(count_kind(pos, MOVE_CASTLING), 2, "black keeps both");
        free(pos);
    }

    { /* castling rights lost after rook move */
        Position *pos = pos_from("r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1", false);
        play(pos, "h1g1");
        play(pos, "a8b8");
        play(pos, "g1h1");
        play(pos, "b8a8");
        char c[32];
        castling_text(pos, c);
        cr_assert_str_eq(c, "e1c1");
        play(pos, "a2a3");
        castling_text(pos, c);
        cr_assert_str_eq(c, "e8g8");
        cr_assert_eq(pos_st(pos)->castling, WHITE_OOO | BLACK_OO);
        free(pos);
    }

    { /* castling rights lost when rook captured */
        char fen[128], c[32];
        /* Bishop takes the h1 rook. */
        Position *pos = pos_from("r3k2r/1b6/8/8/8/8/8/R3K2R b KQkq - 0 1", false);
        play(pos, "b7h1");
        castling_text(pos, c);
        cr_assert_str_eq(c, "e1c1");
        fen_of(pos, fen);
        cr_assert_str_eq(fen, "r3k2r/8/8/8/8/8/8/R3K2b w Qkq - 0 2");
        free(pos);

        /* Rook takes rook: both sides lose the a-file right. */
        pos = pos_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false);
        play(pos, "a1a8");
        cr_assert_eq(pos_st(pos)->castling, WHITE_OO | BLACK_OO);
        free(pos);

        /* Capture-promotion on a1. */
        pos = pos_from("r3k2r/8/8/8/8/8/1p6/R3K2R b KQkq - 0 1", false);
        play(pos, "b2a1q");
        fen_of(pos, fen);
        cr_assert_str_eq(fen, "r3k2r/8/8/8/8/8/8/q3K2R w Kkq - 0 2");
        castling_text(pos, c);
        cr_assert_str_eq(c, "", "white is in check by the new queen");
        free(pos);

        /* Chess960: the right belongs to the rook's square. */
        pos = pos_from("1r4kr/1b6/8/8/8/8/8/1R4KR b HBhb - 0 1", true);
        play(pos, "b7h1");
        cr_assert_eq(pos_st(pos)->castling, WHITE_OOO | BLACK_OO | BLACK_OOO);
        free(pos);
    }
}

Test(movegen, castling_not_out_of_through_or_into_check)
{
    { /* castling not out of through or into check */
        struct {
            const char *fen, *want;
        } cases[] = {
            {"4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", ""},          /* out of check */
            {"5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1"},       /* through f1 */
            {"3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"},       /* through d1 */
            {"2k3r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1"},      /* into g1 */
            {"2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"},      /* into c1 */
            {"1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1 e1c1"}, /* b1 attacked: fine */
            {"4k2r/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1 e1c1"},  /* rook attacked: fine */
            {"r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "e1g1"},   /* b1 occupied */
            {"r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1", "e1c1"},   /* f1 occupied */
            {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8 e8c8"},
            {"r3k2r/8/8/8/1B6/8/8/R3K2R b KQkq - 0 1", "e8c8"}, /* b4 bishop hits f8 */
            {"r3k2r/8/8/8/6B1/B7/8/4K3 b kq - 0 1", ""},        /* c8 and f8 attacked */
            {"r3k2r/8/8/8/8/8/8/4K2N b kq - 0 1", "e8g8 e8c8"}, /* knight far away */
            {"r3k2r/8/8/8/8/6n1/8/R3K2R w KQkq - 0 1", "e1c1"}, /* g3 knight hits f1 */
            {"r3k2r/8/8/8/8/8/5p2/R3K2R w KQkq - 0 1", ""},     /* pawn f2 checks e1 */
            {"r3k2r/8/8/8/8/8/4p3/R3K2R w KQkq - 0 1", ""},     /* pawn e2 hits d1 and f1 */
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            Position *pos = pos_from(cases[i].fen, false);
            char c[32];
            castling_text(pos, c);
            cr_expect_str_eq(c, cases[i].want, "%s: castling \"%s\", want \"%s\"", cases[i].fen, c,
                             cases[i].want);
            free(pos);
        }
    }

    { /* castling chess960 shielding rook */
        /* King f1, castling rook g1, black rook h1 behind it: after castling the
         * king stands on g1 in the h1 rook's line, so castling is illegal. */
        Position *pos = pos_from("4k3/8/8/8/8/8/8/5KRr w K - 0 1", true);
        cr_assert_eq(count_kind(pos, MOVE_CASTLING), 0);
        cr_assert(!pos_is_pseudo_legal(pos, move_make_kind(SQ_F1, SQ_G1, MOVE_CASTLING)));
        free(pos);
        /* Queenside: king e1, castling rook b1, black rook a1 behind it: the king
         * would stand on c1 in the a1 rook's line. */
        pos = pos_from("4k3/8/8/8/8/8/8/rR2K3 w Q - 0 1", true);
        cr_assert(!pos_in_check(pos));
        cr_assert_eq(count_kind(pos, MOVE_CASTLING), 0);
        free(pos);
        /* Control: the same without the shielded attacker. */
        pos = pos_from("r3k3/8/8/8/8/8/8/1R2K3 w Q - 0 1", true);
        cr_assert_eq(count_kind(pos, MOVE_CASTLING), 1);
        free(pos);
    }
}

/* ------------------------------------------------------------------------ */
/* En passant                                                               */

Test(movegen, en_passant)
{
    { /* en passant horizontal pin */
        Position *pos = pos_from("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", false);
        cr_assert_eq(count_kind(pos, MOVE_EN_PASSANT), 0);
        cr_assert_eq(gen_count_legal(pos), 6);
        cr_assert(!pos_st(pos)->ep_legal);
        move_t ep = move_make_kind(SQ_E4, SQ_D3, MOVE_EN_PASSANT);
        cr_assert(pos_is_pseudo_legal(pos, ep));
        cr_assert(!pos_is_legal(pos, ep));
        cr_assert_eq(move_from_uci(pos, "e4d3"), MOVE_NONE);
        free(pos);

        /* White, the classic one. */
        pos = pos_from("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", false);
        cr_assert_eq(count_kind(pos, MOVE_EN_PASSANT), 0);
        cr_assert_eq(gen_count_legal(pos), 4);
        free(pos);
        /* A knight in between: legal again. */
        pos = pos_from("8/8/8/KPpN3r/8/8/8/4k3 w - c6 0 1", false);
        cr_assert_eq(count_kind(pos, MOVE_EN_PASSANT), 1);
        free(pos);
    }

    { /* en passant as check evasion */
        Position *pos = pos_from("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", false);
        cr_assert(pos_in_check(pos));
        cr_assert_eq(pos_checkers(pos), sq_bb(SQ_D4));
        move_t m = must_move(pos, "e4d3");
        cr_assert_eq(move_kind(m), MOVE_EN_PASSANT);
        cr_assert_eq(gen_count_legal(pos), 9);
        pos_make_move(pos, m);
        cr_assert_eq(pos_piece_on(pos, SQ_D4), NO_PIECE);
        cr_assert_eq(pos_piece_on(pos, SQ_D3), B_PAWN);
        cr_assert_eq(pos_piece_on(pos, SQ_E4), NO_PIECE);
        cr_assert_eq(pos_st(pos)->captured, W_PAWN);
        pos_unmake_move(pos, m);
        char fen[128];
        fen_of(pos, fen);
        cr_assert_str_eq(fen, "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
        free(pos);

        /* e.p. does not help against a discovered bishop check. */
        pos = pos_from("2b4k/8/8/3pP3/6K1/8/8/8 w - d6 0 1", false);
        cr_assert(pos_in_check(pos));
        cr_assert_eq(count_kind(pos, MOVE_EN_PASSANT), 0);
        free(pos);
    }

    { /* en passant generated after double push */
        Position *pos = pos_from("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                                 false);
        play(pos, "f7f5");
        cr_assert_eq(pos_st(pos)->ep, SQ_F6);
        cr_assert(pos_st(pos)->ep_legal);
        move_t m = must_move(pos, "e5f6");
        cr_assert_eq(move_kind(m), MOVE_EN_PASSANT);
        MoveList noisy = {.count = 0};
        gen_moves(pos, &noisy, GEN_NOISY);
        cr_assert(list_has(&noisy, m), "e.p. belongs to the noisy stage");
        /* Only right after the double push. */
        play(pos, "b1c3");
        play(pos, "b8c6");
        cr_assert_eq(count_kind(pos, MOVE_EN_PASSANT), 0);
        free(pos);
    }
}

/* ------------------------------------------------------------------------ */
/* Promotions                                                               */

static void check_promotions(const char *fen, const char *const *targets, int ntargets)
{
    Position *pos = pos_from(fen, false);
    MoveList l, noisy = {.count = 0}, quiet = {.count = 0};
    gen_legal(pos, &l);
    gen_moves(pos, &noisy, GEN_NOISY);
    gen_moves(pos, &quiet, GEN_QUIET);
    cr_assert_eq(count_kind(pos, MOVE_PROMOTION), 4 * ntargets, "%s", fen);
    char before[128], after[128];
    fen_of(pos, before);
    for (int t = 0; t < ntargets; t++) {
        static const char Letters[] = "nbrq";
        for (int k = 0; k < 4; k++) {
            char uci[8];
            snprintf(uci, sizeof uci, "%s%c", targets[t], Letters[k]);
            move_t m = must_move(pos, uci);
            cr_assert_eq(move_kind(m), MOVE_PROMOTION, "%s", uci);
            cr_assert_eq(move_promo(m), KNIGHT + k, "%s", uci);
            cr_assert(list_has(&noisy, m), "%s must be noisy", uci);
            cr_assert(!list_has(&quiet, m), "%s must not be quiet", uci);
            int to = sq(targets[t] + 2), from = sq(targets[t]);
            int captured = pos_piece_on(pos, to);
            cr_assert_eq(pos_is_capture(pos, m), captured != NO_PIECE);
            pos_make_move(pos, m);
            cr_assert_eq(pos_piece_on(pos, to), make_piece(!pos->side, KNIGHT + k), "%s", uci);
            cr_assert_eq(pos_piece_on(pos, from), NO_PIECE);
            cr_assert_eq(pos_st(pos)->captured, captured);
            cr_assert_eq(pos_st(pos)->rule50, 0);
            cr_assert_eq(pos_key(pos), pos_compute_key(pos), "%s", uci);
            cr_assert_eq(pos_st(pos)->pawn_key, pos_compute_pawn_key(pos), "%s", uci);
            for (int c = WHITE; c <= BLACK; c++)
                cr_assert_eq(pos_st(pos)->non_pawn_key[c], pos_compute_non_pawn_key(pos, c), "%s",
                             uci);
            pos_unmake_move(pos, m);
            fen_of(pos, after);
            cr_assert_str_eq(after, before, "%s", uci);
        }
        /* Without a promotion letter it is not a move. */
        cr_assert_eq(move_from_uci(pos, targets[t]), MOVE_NONE);
    }
    free(pos);
}

Test(movegen, promotions)
{
    { /* promotions white push and capture */
        static const char *const t[] = {"a7a8", "a7b8"};
        check_promotions("1r2k3/P7/8/8/8/8/8/4K3 w - - 3 1", t, 2);
    }

    { /* promotions black push and two captures */
        static const char *const t[] = {"b2b1", "b2a1", "b2c1"};
        check_promotions("4k3/8/8/8/8/8/1p6/R1N1K3 b Q - 0 1", t, 3);
    }

    { /* promotion blocked and pinned */
        /* Push blocked, no capture: no promotion. */
        Position *pos = pos_from("n3k3/P7/8/8/8/8/8/4K3 w - - 0 1", false);
        cr_assert_eq(count_kind(pos, MOVE_PROMOTION), 0);
        free(pos);
        /* Pinned on the diagonal: only the capture of the pinner. */
        pos = pos_from("2b1k3/1P6/K7/8/8/8/8/8 w - - 0 1", false);
        char fen[128];
        fen_of(pos, fen);
        cr_assert_eq(count_kind(pos, MOVE_PROMOTION), 4, "%s", fen);
        cr_assert_neq(move_from_uci(pos, "b7c8q"), MOVE_NONE);
        cr_assert_eq(move_from_uci(pos, "b7b8q"), MOVE_NONE);
        free(pos);
    }
}

/* ------------------------------------------------------------------------ */
/* Consistency checks used by the random walks                              */

static bitboard_t ref_checkers(const Position *pos)
{
    int us = pos->side, them = !us, ksq = pos_king_sq(pos, us);
    bitboard_t occ = pos_occupied(pos), t = pos->by_color[them];
    return (attacks_slider_slow(ROOK, ksq, occ) & t & (pos->by_type[ROOK] | pos->by_type[QUEEN]))
           | (attacks_slider_slow(BISHOP, ksq, occ) & t
              & (pos->by_type[BISHOP] | pos->by_type[QUEEN]))
           | (knight_attacks(ksq) & t & pos->by_type[KNIGHT])
           | (pawn_attacks(us, ksq) & t & pos->by_type[PAWN]);
}

/* A piece is pinned when taking it off the board lets a new enemy slider see the king. */
static bitboard_t ref_pinned(const Position *pos)
{
    int us = pos->side, them = !us, ksq = pos_king_sq(pos, us);
    bitboard_t occ = pos_occupied(pos), t = pos->by_color[them];
    bitboard_t rq = t & (pos->by_type[ROOK] | pos->by_type[QUEEN]);
    bitboard_t bq = t & (pos->by_type[BISHOP] | pos->by_type[QUEEN]);
    bitboard_t seen = (attacks_slider_slow(ROOK, ksq, occ) & rq)
                      | (attacks_slider_slow(BISHOP, ksq, occ) & bq);
    bitboard_t own = pos->by_color[us] & ~sq_bb(ksq), res = 0;
    while (own) {
        int s = pop_lsb(&own);
        bitboard_t o2 = occ ^ sq_bb(s);
        bitboard_t now = (attacks_slider_slow(ROOK, ksq, o2) & rq)
                         | (attacks_slider_slow(BISHOP, ksq, o2) & bq);
        if (now & ~seen)
            res |= sq_bb(s);
    }
    return res;
}

static void check_consistency(const Position *pos, const char *where)
{
    bitboard_t all = 0;
    for (int s = 0; s < SQ_NB; s++) {
        int pc = pos->board[s];
        if (pc == NO_PIECE) {
            cr_assert(!(pos_occupied(pos) & sq_bb(s)), "%s: empty square %d marked occupied", where,
                      s);
            continue;
        }
        all |= sq_bb(s);
        cr_assert(pos->by_type[piece_type(pc)] & sq_bb(s), "%s: type board misses %d", where, s);
        cr_assert(pos->by_color[piece_color(pc)] & sq_bb(s), "%s: colour board misses %d", where,
                  s);
    }
    cr_assert_eq(all, pos_occupied(pos), "%s", where);
    cr_assert_eq(pos->by_color[WHITE] | pos->by_color[BLACK], all, "%s", where);
    cr_assert_eq(pos->by_color[WHITE] & pos->by_color[BLACK], 0, "%s", where);
    bitboard_t types = 0;
    for (int pt = PAWN; pt <= KING; pt++) {
        cr_assert_eq(types & pos->by_type[pt], 0, "%s: type boards overlap", where);
        types |= pos->by_type[pt];
    }
    cr_assert_eq(types, all, "%s", where);
    cr_assert_eq(popcount(pos_pieces(pos, WHITE, KING)), 1, "%s", where);
    cr_assert_eq(popcount(pos_pieces(pos, BLACK, KING)), 1, "%s", where);

    const StateInfo *st = pos_st(pos);
    cr_assert_eq(st->key, pos_compute_key(pos), "%s: incremental key differs", where);
    cr_assert_eq(st->pawn_key, pos_compute_pawn_key(pos), "%s: incremental pawn key differs",
                 where);
    for (int c = WHITE; c <= BLACK; c++)
        cr_assert_eq(st->non_pawn_key[c], pos_compute_non_pawn_key(pos, c),
                     "%s: incremental non-pawn key of %s differs", where,
                     c == WHITE ? "White" : "Black");
    cr_assert_eq(st->checkers, ref_checkers(pos), "%s: checkers", where);
    cr_assert_eq(st->pinned, ref_pinned(pos), "%s: pinned", where);
    /* The side that just moved is not in check. */
    cr_assert(!pos_square_attacked(pos, pos_king_sq(pos, !pos->side), pos->side, pos_occupied(pos)),
              "%s: side not to move in check", where);
    /* The e.p. square is in the key exactly when an e.p. capture is legal. */
    int ep_moves = 0;
    MoveList l;
    gen_legal(pos, &l);
    for (int i = 0; i < l.count; i++)
        ep_moves += move_kind(l.moves[i]) == MOVE_EN_PASSANT;
    cr_assert_eq(st->ep_legal, ep_moves > 0, "%s: ep_legal", where);
    if (st->ep == SQ_NONE)
        cr_assert(!st->ep_legal, "%s", where);
}

static int cmp_move(const void *a, const void *b)
{
    return (int)*(const move_t *)a - (int)*(const move_t *)b;
}

/* Stage split, duplicates, counts, and that every move keeps the king safe. */
static void check_generation(Position *pos, const char *where)
{
    MoveList all, noisy = {.count = 0}, quiet = {.count = 0}, genall = {.count = 0};
    gen_legal(pos, &all);
    gen_moves(pos, &noisy, GEN_NOISY);
    gen_moves(pos, &quiet, GEN_QUIET);
    gen_moves(pos, &genall, GEN_ALL);
    cr_assert_eq(gen_count_legal(pos), all.count, "%s", where);
    cr_assert_eq(pos_has_legal_move(pos), all.count > 0, "%s", where);
    cr_assert_eq(genall.count, all.count, "%s", where);
    cr_assert_eq(noisy.count + quiet.count, all.count, "%s: noisy %d + quiet %d != %d", where,
                 noisy.count, quiet.count, all.count);

    move_t a[MAX_MOVES], b[MAX_MOVES], c[MAX_MOVES];
    memcpy(a, all.moves, sizeof(move_t) * (size_t)all.count);
    memcpy(b, noisy.moves, sizeof(move_t) * (size_t)noisy.count);
    memcpy(b + noisy.count, quiet.moves, sizeof(move_t) * (size_t)quiet.count);
    memcpy(c, genall.moves, sizeof(move_t) * (size_t)genall.count);
    qsort(a, (size_t)all.count, sizeof(move_t), cmp_move);
    qsort(b, (size_t)all.count, sizeof(move_t), cmp_move);
    qsort(c, (size_t)all.count, sizeof(move_t), cmp_move);
    for (int i = 0; i < all.count; i++) {
        cr_assert_eq(a[i], b[i], "%s: noisy+quiet differs from legal", where);
        cr_assert_eq(a[i], c[i], "%s: GEN_ALL differs from legal", where);
        if (i)
            cr_assert_neq(a[i], a[i - 1], "%s: duplicate move %04x", where, a[i]);
    }
    for (int i = 0; i < noisy.count; i++) {
        move_t m = noisy.moves[i];
        cr_assert(pos_is_capture(pos, m) || move_kind(m) == MOVE_PROMOTION,
                  "%s: noisy move %04x is neither capture nor promotion", where, m);
    }
    for (int i = 0; i < quiet.count; i++) {
        move_t m = quiet.moves[i];
        cr_assert(!pos_is_capture(pos, m) && move_kind(m) != MOVE_PROMOTION,
                  "%s: quiet move %04x is a capture or promotion", where, m);
    }
    for (int i = 0; i < all.count; i++) {
        move_t m = all.moves[i];
        int us = pos->side;
        cr_assert(move_is_ok(m), "%s", where);
        cr_assert_eq(piece_color(pos_piece_on(pos, move_from(m))), us, "%s", where);
        cr_assert(pos_piece_on(pos, move_from(m)) != NO_PIECE, "%s", where);
        pos_make_move(pos, m);
        bool safe = !pos_square_attacked(pos, pos_king_sq(pos, us), !us, pos_occupied(pos));
        pos_unmake_move(pos, m);
        cr_assert(safe, "%s: move %04x leaves the king in check", where, m);
    }
}

/* UCI text round trip for every legal move (and SAN leaves the position alone). */
static void check_text(Position *pos, const char *where, bool both_notations)
{
    MoveList l;
    gen_legal(pos, &l);
    char buf[16], san[16];
    for (int i = 0; i < l.count; i++) {
        move_t m = l.moves[i];
        move_to_uci(pos, m, buf);
        cr_assert_eq(move_from_uci(pos, buf), m, "%s: UCI '%s' does not read back", where, buf);
        if (both_notations) {
            pos->chess960 = !pos->chess960;
            move_to_uci(pos, m, buf);
            cr_assert_eq(move_from_uci(pos, buf), m, "%s: UCI '%s' (other notation)", where, buf);
            pos->chess960 = !pos->chess960;
        }
        move_to_san(pos, m, san);
        cr_assert(strlen(san) >= 2, "%s", where);
    }
}

static void check_key_consistency_snapshot(Position *pos, Position *snap, const char *where)
{
    size_t head = offsetof(Position, hist);
    size_t hist = (size_t)(pos->hply + 1) * sizeof(StateInfo);
    cr_assert_eq(pos->hply, snap->hply, "%s", where);
    cr_assert(memcmp(pos, snap, head) == 0, "%s: position head differs after unmake", where);
    cr_assert(memcmp(pos->hist, snap->hist, hist) == 0, "%s: history differs after unmake", where);
}

static void take_snapshot(const Position *pos, Position *snap)
{
    memcpy(snap, pos, offsetof(Position, hist) + (size_t)(pos->hply + 1) * sizeof(StateInfo));
}

static const struct {
    const char *fen;
    bool c960;
} WalkFens[] = {
    {START_FEN, false},
    {KIWIPETE, false},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false},
    {"8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", false},
    {"r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1", false},
    {"4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    {"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", true},
    {"1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1", true},
    {"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1", true},
    {"2r1kr2/pppppppp/8/8/8/8/PPPPPPPP/2R1KR2 w KQkq - 0 1", true},
    {"r6r/1k6/8/8/8/8/6K1/R6R w - - 0 1", false},
};

static void random_walk(int fi, int games, int plies, uint64_t seed)
{
    Position *pos = calloc(1, sizeof *pos), *snap = calloc(1, sizeof *snap);
    cr_assert(pos && snap);
    char where[200];
    for (int g = 0; g < games; g++) {
        char err[256];
        cr_assert(pos_set_fen(pos, WalkFens[fi].fen, WalkFens[fi].c960, err, sizeof err), "%s",
                  err);
        for (int ply = 0; ply < plies; ply++) {
            char fen[128];
            fen_of(pos, fen);
            snprintf(where, sizeof where, "[%s] game %d ply %d: %s", WalkFens[fi].fen, g, ply, fen);
            check_consistency(pos, where);
            check_generation(pos, where);
            if (ply % 4 == 0)
                check_text(pos, where, !WalkFens[fi].c960);

            MoveList l;
            gen_legal(pos, &l);
            if (l.count == 0)
                break;
            take_snapshot(pos, snap);
            for (int i = 0; i < l.count; i++) {
                pos_make_move(pos, l.moves[i]);
                snprintf(where, sizeof where, "[%s] game %d ply %d: %s after move %04x",
                         WalkFens[fi].fen, g, ply, fen, l.moves[i]);
                cr_assert_eq(pos->hply, snap->hply + 1);
                cr_assert_eq(pos_st(pos)->move, l.moves[i]);
                check_consistency(pos, where);
                pos_unmake_move(pos, l.moves[i]);
                check_key_consistency_snapshot(pos, snap, where);
            }
            if (!pos_in_check(pos) && rng_next(&seed) % 8 == 0) {
                pos_make_null(pos);
                snprintf(where, sizeof where, "[%s] null move at %s", WalkFens[fi].fen, fen);
                check_consistency(pos, where);
                pos_unmake_null(pos);
                check_key_consistency_snapshot(pos, snap, where);
            }
            pos_make_move(pos, l.moves[rng_next(&seed) % (uint64_t)l.count]);
        }
    }
    free(pos);
    free(snap);
}

Test(movegen, random_walk_standard, .timeout = 120)
{
    for (int fi = 0; fi < 9; fi++)
        random_walk(fi, 6, 120, 0xC0FFEE00ULL + (uint64_t)fi);
}

Test(movegen, random_walk_chess960_and_sparse, .timeout = 120)
{
    int n = (int)(sizeof WalkFens / sizeof WalkFens[0]);
    for (int fi = 9; fi < n; fi++)
        random_walk(fi, 6, 120, 0xBEEF0000ULL + (uint64_t)fi);
}

/* ------------------------------------------------------------------------ */
/* Validation of all 65536 move values                                      */

static int check_all_move_values(const Position *pos, const char *fen)
{
    MoveList l;
    gen_legal(pos, &l);
    int bad = 0;
    for (uint32_t v = 0; v < 65536; v++) {
        move_t m = (move_t)v;
        bool accepted = pos_is_pseudo_legal(pos, m) && pos_is_legal(pos, m);
        bool legal = list_has(&l, m);
        if (accepted != legal) {
            if (bad < 6)
                cr_log_error("%s: move %04x (from %d to %d kind %d promo bits %d) %s", fen, v,
                             move_from(m), move_to(m), move_kind(m), (v >> 12) & 3,
                             accepted ? "accepted but not legal" : "legal but rejected");
            bad++;
        }
    }
    return bad;
}

static const struct {
    const char *fen;
    bool c960;
} ValidationFens[] = {
    {START_FEN, false},
    {KIWIPETE, false},
    {"rnbqkbnr/ppppp1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false}, /* e.p. legal */
    {"8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", false},                            /* e.p. pinned */
    {"8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", false},                            /* e.p. evasion */
    {"4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1", false},                           /* two e.p. */
    {"5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1", false},                            /* through check */
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false},
    {"r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", false}, /* blocked */
    {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false},      /* promotions */
    {"4k3/8/8/8/8/8/1p6/R1N1K3 b Q - 0 1", false},
    {"k3r3/8/8/8/1b6/8/8/1R2K3 w - - 0 1", false},            /* double check */
    {"4k3/8/8/8/8/3n4/8/4K3 w - - 0 1", false},               /* knight check */
    {"k3r3/7b/4R1B1/8/r1N1K3/3P1Q2/8/1b5q w - - 0 1", false}, /* five pins */
    {"2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", false},             /* promote out of check */
    {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false},                /* stalemate */
    {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", false}, /* mate */
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    {"1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true}, /* king stays */
    {"4k3/8/8/8/8/8/8/3RK3 w Q - 0 1", true},       /* rook stays */
    {"4k3/8/8/8/8/8/8/RK6 w Q - 0 1", true},
    {"4k3/8/8/8/8/8/8/5KRr w K - 0 1", true},                        /* shielded */
    {"R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", false}, /* 218 moves */
};

Test(movegen, validation_all_16bit_values, .timeout = 120)
{
    int n = (int)(sizeof ValidationFens / sizeof ValidationFens[0]);
    int total_bad = 0;
    for (int i = 0; i < n; i++) {
        Position *pos = pos_from(ValidationFens[i].fen, ValidationFens[i].c960);
        int bad = check_all_move_values(pos, ValidationFens[i].fen);
        cr_expect_eq(bad, 0,
                     "%s: %d of 65536 move values misjudged by pos_is_pseudo_legal && pos_is_legal",
                     ValidationFens[i].fen, bad);
        total_bad += bad;
        free(pos);
    }
    cr_assert_eq(total_bad, 0);
}

Test(movegen, validation_along_random_games, .timeout = 120)
{
    uint64_t seed = 0xFACADE01ULL;
    int total_bad = 0;
    for (int fi = 0; fi < (int)(sizeof WalkFens / sizeof WalkFens[0]); fi++) {
        Position *pos = pos_from(WalkFens[fi].fen, WalkFens[fi].c960);
        for (int ply = 0; ply < 60; ply++) {
            MoveList l;
            gen_legal(pos, &l);
            if (l.count == 0)
                break;
            if (ply % 12 == 5) {
                char fen[128];
                fen_of(pos, fen);
                int bad = check_all_move_values(pos, fen);
                cr_expect_eq(bad, 0, "%s: %d move values misjudged", fen, bad);
                total_bad += bad;
            }
            pos_make_move(pos, l.moves[rng_next(&seed) % (uint64_t)l.count]);
        }
        free(pos);
    }
    cr_assert_eq(total_bad, 0);
}

Test(movegen, validation_rejects_special_garbage)
{
    Position *pos = pos_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false);
    cr_assert(!pos_is_pseudo_legal(pos, MOVE_NONE));
    cr_assert(!pos_is_pseudo_legal(pos, MOVE_NULL));
    /* Castling written with the king's target square is not the stored form. */
    cr_assert(!pos_is_pseudo_legal(pos, move_make_kind(SQ_E1, SQ_G1, MOVE_CASTLING)));
    cr_assert(pos_is_pseudo_legal(pos, move_make_kind(SQ_E1, SQ_H1, MOVE_CASTLING)));
    /* A normal king move onto its own rook. */
    cr_assert(!pos_is_pseudo_legal(pos, move_make(SQ_E1, SQ_H1)));
    /* Not the side to move. */
    cr_assert(!pos_is_pseudo_legal(pos, move_make_kind(SQ_E8, SQ_H8, MOVE_CASTLING)));
    /* e.p. without an e.p. square. */
    cr_assert(!pos_is_pseudo_legal(pos, move_make_kind(SQ_A1, SQ_B2, MOVE_EN_PASSANT)));
    free(pos);
}

/* ------------------------------------------------------------------------ */
/* UCI move text                                                            */

static void check_960_castle(const char *fen, const char *uci960, const char *uci_std,
                             const char *after_fen)
{
    Position *pos = pos_from(fen, true);
    char buf[8], out[128], before[128];
    fen_of(pos, before);
    move_t m = must_move(pos, uci960);
    cr_assert_eq(move_kind(m), MOVE_CASTLING, "%s in %s", uci960, fen);
    move_to_uci(pos, m, buf);
    cr_assert_str_eq(buf, uci960);
    pos->chess960 = false;
    move_to_uci(pos, m, buf);
    cr_assert_str_eq(buf, uci_std);
    pos->chess960 = true;
    pos_make_move(pos, m);
    fen_of(pos, out);
    cr_assert_str_eq(out, after_fen);
    cr_assert_eq(pos_key(pos), pos_compute_key(pos));
    pos_unmake_move(pos, m);
    fen_of(pos, out);
    cr_assert_str_eq(out, before);
    free(pos);
}

Test(movegen, uci_text)
{
    { /* uci castling notations */
        Position *pos = pos_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false);
        char buf[8], c[32];
        castling_text(pos, c);
        cr_assert_str_eq(c, "e1g1 e1c1");
        move_t oo = must_move(pos, "e1g1");
        cr_assert_eq(move_from_uci(pos, "e1h1"), oo, "king-takes-rook accepted too");
        cr_assert_eq(move_from_uci(pos, "e1a1"), must_move(pos, "e1c1"));

        pos->chess960 = true;
        castling_text(pos, c);
        cr_assert_str_eq(c, "e1h1 e1a1");
        move_to_uci(pos, oo, buf);
        cr_assert_str_eq(buf, "e1h1");
        cr_assert_eq(move_from_uci(pos, "e1h1"), oo);
        cr_assert_eq(move_from_uci(pos, "e1g1"), oo, "standard notation accepted when unambiguous");
        free(pos);
    }

    { /* uci chess960 castling king or rook stays */
        /* King g1 stays, rook h1 goes to f1. */
        check_960_castle("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", "g1h1", "g1g1",
                         "1r4kr/8/8/8/8/8/8/1R3RK1 b hb - 1 1");
        /* Long castling from g1: king to c1, rook b1 to d1. */
        check_960_castle("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", "g1b1", "g1c1",
                         "1r4kr/8/8/8/8/8/8/2KR3R b hb - 1 1");
        /* Rook d1 stays, king e1 goes to c1. */
        check_960_castle("4k3/8/8/8/8/8/8/3RK3 w Q - 0 1", "e1d1", "e1c1",
                         "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
        /* King b1 goes right to c1 on the long side, rook a1 to d1. */
        check_960_castle("4k3/8/8/8/8/8/8/RK6 w Q - 0 1", "b1a1", "b1c1",
                         "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
        /* King and rook swap squares. */
        check_960_castle("4k3/8/8/8/8/8/8/5KR1 w K - 0 1", "f1g1", "f1g1",
                         "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
        /* Black. */
        check_960_castle("1rk4r/8/8/8/8/8/8/4K3 b kq - 0 1", "c8b8", "c8c8",
                         "2kr3r/8/8/8/8/8/8/4K3 w - - 1 2");
    }

    { /* uci misc */
        Position *pos = pos_from(START_FEN, false);
        const char *bad[] = {"",     "e2",   "e2e5",  "e2e4q", "e2e4qq", "e7e5",
                             "a1a1", "z9z9", "e2e4 ", "0000",  "E2E4",   "g1e2"};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
            cr_assert_eq(move_from_uci(pos, bad[i]), MOVE_NONE, "'%s' accepted", bad[i]);
        char buf[8];
        move_t m = must_move(pos, "g1f3");
        cr_assert_eq(move_from(m), SQ_G1);
        cr_assert_eq(move_to(m), SQ_F3);
        move_to_uci(pos, m, buf);
        cr_assert_str_eq(buf, "g1f3");
        move_to_uci(pos, MOVE_NULL, buf);
        cr_assert_str_eq(buf, "0000");
        free(pos);

        pos = pos_from("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false);
        m = must_move(pos, "a7b8n");
        cr_assert_eq(move_promo(m), KNIGHT);
        move_to_uci(pos, m, buf);
        cr_assert_str_eq(buf, "a7b8n");
        cr_assert_eq(move_from_uci(pos, "a7b8Q"), MOVE_NONE);
        cr_assert_eq(move_from_uci(pos, "a7b8k"), MOVE_NONE);
        cr_assert_eq(move_from_uci(pos, "a7b8p"), MOVE_NONE);
        free(pos);
    }
}

/* ------------------------------------------------------------------------ */
/* SAN                                                                      */

static void expect_san(const char *fen, bool c960, const char *uci, const char *want)
{
    Position *pos = pos_from(fen, c960), *copy = calloc(1, sizeof *copy);
    cr_assert_not_null(copy);
    memcpy(copy, pos, sizeof *pos);
    move_t m = must_move(pos, uci);
    char san[16];
    move_to_san(pos, m, san);
    cr_assert_str_eq(san, want, "%s in %s: SAN \"%s\", want \"%s\"", uci, fen, san, want);
    cr_assert(memcmp(pos, copy, offsetof(Position, hist) + sizeof(StateInfo)) == 0,
              "move_to_san changed the position");
    free(pos);
    free(copy);
}

Test(movegen, san_text)
{
    { /* san disambiguation */
        const char *kn = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        expect_san(kn, false, "b1d2", "Nbd2");
        expect_san(kn, false, "f3d2", "Nfd2");
        expect_san(kn, false, "f3e5", "Ne5");
        expect_san(kn, false, "b1c3", "Nc3");
        const char *rk = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
        expect_san(rk, false, "a1a3", "R1a3");
        expect_san(rk, false, "a5a3", "R5a3");
        expect_san(rk, false, "a1d1", "Rd1");
        const char *qs = "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1";
        expect_san(qs, false, "h4e1", "Qh4e1");
        expect_san(qs, false, "e4e1", "Qee1");
        expect_san(qs, false, "h1e1", "Q1e1");
        /* A pinned knight does not count. */
        expect_san("4k3/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1", false, "b1c3", "Nc3");
    }

    { /* san pawns and promotions */
        expect_san("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false, "e4d5", "exd5");
        expect_san("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false, "e4e5", "e5");
        expect_san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false, "e5d6", "exd6");
        expect_san("8/2k5/8/3pP3/8/8/8/4K3 w - d6 0 1", false, "e5d6", "exd6+");
        const char *pr = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1";
        expect_san(pr, false, "e7e8q", "e8=Q+");
        expect_san(pr, false, "e7e8r", "e8=R+");
        expect_san(pr, false, "e7e8b", "e8=B");
        expect_san(pr, false, "e7e8n", "e8=N");
        const char *cp = "k2r4/4P3/8/8/8/8/8/4K3 w - - 0 1";
        expect_san(cp, false, "e7d8q", "exd8=Q+");
        expect_san(cp, false, "e7d8n", "exd8=N");
        expect_san(cp, false, "e7e8q", "e8=Q");
        expect_san("4k3/8/8/8/8/8/1p6/R1N1K3 b Q - 0 1", false, "b2c1q", "bxc1=Q+");
    }

    { /* san castling and mates */
        const char *c = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        expect_san(c, false, "e1g1", "O-O");
        expect_san(c, false, "e1c1", "O-O-O");
        expect_san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "e8c8", "O-O-O");
        expect_san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", false, "e1g1", "O-O+");
        expect_san("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", false, "e1c1", "O-O-O+");
        expect_san("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true, "g1h1", "O-O");
        expect_san("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true, "g1b1", "O-O-O");
        expect_san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", false, "d8h4",
                   "Qh4#");
        expect_san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false, "a1a8", "Ra8#");
        expect_san("r3k3/8/8/8/8/8/8/R3K3 w Q - 0 1", false, "a1a8", "Rxa8+");
        expect_san("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, "e1d2", "Kd2");
    }
}
