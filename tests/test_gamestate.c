/* The FIDE game state: mate, stalemate, dead positions, repetitions (with the
 * Art. 9.2.2 e.p. and castling details), the 50- and 75-move rules, and long
 * games that exercise the history compaction. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/notation.h"

static void setup(void) { movegen_init(); }

TestSuite(gamestate, .init = setup);

static Position *pos_from(const char *fen)
{
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    char err[256] = "";
    cr_assert(pos_set_fen(pos, fen, false, err, sizeof err), "bad test FEN \"%s\": %s", fen, err);
    return pos;
}

static uint64_t key_of(const char *fen)
{
    Position *pos = pos_from(fen);
    uint64_t k = pos_key(pos);
    free(pos);
    return k;
}

static void play(Position *pos, const char *uci)
{
    move_t m = move_from_uci(pos, uci);
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    cr_assert_neq(m, MOVE_NONE, "move %s not legal in %s", uci, fen);
    pos_make_game_move(pos, m);
}

/* Plays a space-separated list of UCI moves. */
static void play_all(Position *pos, const char *moves)
{
    char buf[16];
    const char *p = moves;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = 0;
        while (p[n] && p[n] != ' ')
            n++;
        if (!n)
            break;
        cr_assert(n < sizeof buf);
        memcpy(buf, p, n);
        buf[n] = '\0';
        play(pos, buf);
        p += n;
    }
}

static void expect_state(const Position *pos, GameState want)
{
    GameState got = pos_game_state(pos);
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    cr_assert_eq(got, want, "%s: state \"%s\", want \"%s\"", fen, game_state_text(got),
                 game_state_text(want));
}

static void expect_fen_state(const char *fen, GameState want)
{
    Position *pos = pos_from(fen);
    expect_state(pos, want);
    free(pos);
}

/* ------------------------------------------------------------------------ */

Test(gamestate, ongoing_checkmate_stalemate)
{
    { /* start is ongoing */
        Position *pos = pos_from(START_FEN);
        expect_state(pos, GAME_ONGOING);
        cr_assert_eq(pos_repetitions(pos), 0);
        cr_assert(!pos_is_dead(pos));
        free(pos);
    }

    { /* fools mate */
        Position *pos = pos_from(START_FEN);
        play_all(pos, "f2f3 e7e5 g2g4");
        expect_state(pos, GAME_ONGOING);
        play(pos, "d8h4");
        expect_state(pos, GAME_CHECKMATE);
        cr_assert(pos_in_check(pos));
        cr_assert_eq(gen_count_legal(pos), 0);
        free(pos);
        expect_fen_state("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
                         GAME_CHECKMATE);
        expect_fen_state("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", GAME_CHECKMATE);
    }

    { /* stalemate */
        expect_fen_state("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", GAME_STALEMATE);
        expect_fen_state("k7/8/1Q6/8/8/8/8/7K b - - 0 1", GAME_STALEMATE);
        expect_fen_state("k1N5/1r1N4/2Q5/8/8/8/8/7K b - - 0 1", GAME_STALEMATE);
        expect_fen_state("8/8/8/8/8/5k2/5p2/5K2 w - - 0 1", GAME_STALEMATE);
        /* Stalemate outranks a draw claim and a dead position. */
        expect_fen_state("7k/5Q2/6K1/8/8/8/8/8 b - - 120 80", GAME_STALEMATE);
        expect_fen_state("k7/2K5/1B6/8/8/8/8/8 b - - 0 1", GAME_STALEMATE);
    }
}

Test(gamestate, dead_positions)
{
    { /* dead positions */
        struct {
            const char *fen;
            bool dead;
        } cases[] = {
            {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},      /* K v K */
            {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},     /* KN v K */
            {"4k3/8/8/8/8/8/8/1n2K3 b - - 0 1", true},    /* K v KN */
            {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},     /* KB v K */
            {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},   /* KB v KB, both on dark squares */
            {"4k3/3b4/8/8/8/8/8/4KB2 w - - 0 1", true},   /* KB v KB, both on light squares */
            {"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, /* opposite colours */
            {"4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false},   /* KNN v K: mate exists */
            {"4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1", false},  /* KBN v K */
            {"4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1", false},  /* KB v KN */
            {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},   /* KP v K */
            {"4k3/8/8/8/8/8/8/4K2R w - - 0 1", false},    /* KR v K */
            {"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false},    /* KQ v K */
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            Position *pos = pos_from(cases[i].fen);
            cr_expect_eq(pos_is_dead(pos), cases[i].dead, "%s: pos_is_dead %d", cases[i].fen,
                         !cases[i].dead);
            cr_expect_eq(pos_game_state(pos), cases[i].dead ? GAME_DEAD_POSITION : GAME_ONGOING,
                         "%s", cases[i].fen);
            free(pos);
        }
    }

    { /* dead position reached by capture */
        Position *pos = pos_from("4k3/8/8/8/8/8/4r3/4KN2 w - - 0 1");
        expect_state(pos, GAME_ONGOING);
        play(pos, "e1e2");
        expect_state(pos, GAME_DEAD_POSITION);
        free(pos);
    }
}

Test(gamestate, repetitions)
{
    { /* threefold and fivefold */
        Position *pos = pos_from(START_FEN);
        const char *cycle = "g1f3 g8f6 f3g1 f6g8";
        play_all(pos, cycle);
        cr_assert_eq(pos_repetitions(pos), 1);
        expect_state(pos, GAME_ONGOING); /* second occurrence */
        play_all(pos, "g1f3 g8f6 f3g1");
        expect_state(pos, GAME_ONGOING);
        play(pos, "f6g8");
        cr_assert_eq(pos_repetitions(pos), 2);
        expect_state(pos, GAME_CLAIM_THREEFOLD); /* third occurrence */
        play(pos, "g1f3");
        cr_assert_eq(pos_repetitions(pos), 2, "the position after Nf3 occurred three times too");
        expect_state(pos, GAME_CLAIM_THREEFOLD);
        play(pos, "b8c6");
        expect_state(pos, GAME_ONGOING);
        play_all(pos, "f3g1 c6b8");
        cr_assert_eq(pos_repetitions(pos), 3);
        expect_state(pos, GAME_CLAIM_THREEFOLD); /* fourth */
        play_all(pos, cycle);
        cr_assert_eq(pos_repetitions(pos), 4);
        expect_state(pos, GAME_FIVEFOLD); /* fifth */
        free(pos);
    }

    { /* repetition needs same side to move */
        /* The rook loses a tempo (a1-a3-a2-a1), so the placement comes back with
         * the other side to move: not a repetition. */
        Position *pos = pos_from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        uint64_t k0 = pos_key(pos);
        play_all(pos, "a1a2 e8d8 a2a1 d8e8"); /* back, white to move */
        cr_assert_eq(pos_key(pos), k0);
        cr_assert_eq(pos_repetitions(pos), 1);
        play_all(pos, "a1a3 e8d8 a3a2 d8e8 a2a1"); /* same placement, black to move */
        cr_assert_neq(pos_key(pos), k0);
        cr_assert_eq(pos_repetitions(pos), 0);
        free(pos);
    }

    { /* irreversible move resets repetitions */
        Position *pos = pos_from(START_FEN);
        play_all(pos, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        expect_state(pos, GAME_CLAIM_THREEFOLD);
        play_all(pos, "e2e4 g8f6 g1f3 f6g8 f3g1");
        cr_assert_eq(pos_repetitions(pos), 1);
        expect_state(pos, GAME_ONGOING);
        free(pos);
    }
}

Test(gamestate, fifty_and_seventy_five_move_rules)
{
    { /* fifty and seventy five move rules */
        const char *base = "4k3/8/8/8/8/8/8/R3K3 w - - %d 80";
        char fen[128];
        int clocks[] = {0, 99, 100, 149, 150, 151, 400};
        GameState want[] = {GAME_ONGOING,  GAME_ONGOING,  GAME_CLAIM_50_MOVES, GAME_CLAIM_50_MOVES,
                            GAME_75_MOVES, GAME_75_MOVES, GAME_75_MOVES};
        for (int i = 0; i < 7; i++) {
            snprintf(fen, sizeof fen, base, clocks[i]);
            expect_fen_state(fen, want[i]);
        }
        /* Reached by moves. */
        Position *pos = pos_from("4k3/8/8/8/8/8/8/R3K3 w - - 98 80");
        play(pos, "a1a2");
        expect_state(pos, GAME_ONGOING);
        play(pos, "e8d8");
        cr_assert_eq(pos_rule50(pos), 100);
        expect_state(pos, GAME_CLAIM_50_MOVES);
        free(pos);

        pos = pos_from("4k3/8/8/8/8/8/p7/R3K3 w - - 148 80");
        play(pos, "a1b1");
        expect_state(pos, GAME_CLAIM_50_MOVES);
        play(pos, "e8d8");
        expect_state(pos, GAME_75_MOVES);
        free(pos);

        /* A pawn move or capture resets the clock. */
        pos = pos_from("4k3/8/8/8/8/8/p7/R3K3 w - - 148 80");
        play(pos, "a1a2");
        cr_assert_eq(pos_rule50(pos), 0);
        expect_state(pos, GAME_ONGOING);
        free(pos);
    }

    { /* mate on the 150th ply stands */
        /* Art. 9.6.2: the 75-move rule applies unless the last move checkmated. */
        Position *pos = pos_from("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100");
        expect_state(pos, GAME_CLAIM_50_MOVES);
        play(pos, "a1a8");
        cr_assert_eq(pos_rule50(pos), 150);
        expect_state(pos, GAME_CHECKMATE);
        free(pos);
        /* A non-mating move at the same moment ends the game by the rule. */
        pos = pos_from("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100");
        play(pos, "a1a7");
        expect_state(pos, GAME_75_MOVES);
        free(pos);
        /* The same from a FEN. */
        expect_fen_state("R5k1/5ppp/8/8/8/8/8/6K1 b - - 150 100", GAME_CHECKMATE);
    }
}

/* ------------------------------------------------------------------------ */
/* Keys: Art. 9.2.2                                                         */

Test(gamestate, en_passant_in_key_art_9_2_2)
{
    { /* ep square in key only when capture legal */
        /* No pawn can capture at all (after 1.e4). */
        cr_assert_eq(key_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
                     key_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
        /* The capturer is pinned (on the rank, together with the pushed pawn). */
        cr_assert_eq(key_of("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"),
                     key_of("8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1"));
        /* The capturer is pinned on a diagonal. */
        cr_assert_eq(key_of("4k3/6b1/8/3pP3/3K4/8/8/8 w - d6 0 1"),
                     key_of("4k3/6b1/8/3pP3/3K4/8/8/8 w - - 0 1"));
        /* A legal capture: the keys differ. */
        cr_assert_neq(key_of("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"),
                      key_of("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"));
        cr_assert_neq(key_of("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"),
                      key_of("8/8/8/2k5/3Pp3/8/8/4K3 b - - 0 1"));
    }

    { /* ep key after double push move */
        /* Pinned capturer: the pushed position equals the one without e.p. */
        Position *pos = pos_from("4k3/3p2b1/8/4P3/3K4/8/8/8 b - - 0 1");
        play(pos, "d7d5");
        cr_assert_eq(pos_st(pos)->ep, SQ_D6);
        cr_assert(!pos_st(pos)->ep_legal);
        cr_assert_eq(pos_key(pos), key_of("4k3/6b1/8/3pP3/3K4/8/8/8 w - - 0 2"));
        cr_assert_eq(pos_key(pos), pos_compute_key(pos));
        free(pos);

        pos = pos_from("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1");
        play(pos, "d2d4");
        cr_assert_eq(pos_key(pos), key_of("8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1"));
        free(pos);

        /* Legal capture: the keys differ. */
        pos = pos_from("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
        play(pos, "d7d5");
        cr_assert(pos_st(pos)->ep_legal);
        cr_assert_neq(pos_key(pos),
                      key_of("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"));
        cr_assert_eq(pos_key(pos),
                     key_of("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"));
        free(pos);
    }

    { /* repetition through an unusable ep square */
        /* 1.e4 (e.p. square e3, no capture possible) ... then the same position
         * arises twice more by knight moves: three occurrences (Art. 9.2.2). */
        Position *pos = pos_from(START_FEN);
        play(pos, "e2e4");
        play_all(pos, "b8c6 g1f3 c6b8 f3g1");
        cr_assert_eq(pos_repetitions(pos), 1);
        play_all(pos, "b8c6 g1f3 c6b8 f3g1");
        cr_assert_eq(pos_repetitions(pos), 2);
        expect_state(pos, GAME_CLAIM_THREEFOLD);
        free(pos);

        /* With a legal e.p. capture the first position differs from the later ones. */
        pos = pos_from("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        play(pos, "e2e4");
        cr_assert(pos_st(pos)->ep_legal);
        play_all(pos, "b8c6 g1f3 c6b8 f3g1");
        cr_assert_eq(pos_repetitions(pos), 0);
        play_all(pos, "b8c6 g1f3 c6b8 f3g1");
        cr_assert_eq(pos_repetitions(pos), 1);
        expect_state(pos, GAME_ONGOING);
        free(pos);
    }
}

Test(gamestate, castling_rights_and_side_in_key)
{
    { /* castling rights change the key */
        static const char *const rights[16] = {"-", "K",  "Q",  "KQ",  "k",  "Kk",  "Qk",  "KQk",
                                               "q", "Kq", "Qq", "KQq", "kq", "Kkq", "Qkq", "KQkq"};
        uint64_t keys[16];
        for (int i = 0; i < 16; i++) {
            char fen[128];
            snprintf(fen, sizeof fen, "r3k2r/8/8/8/8/8/8/R3K2R w %s - 0 1", rights[i]);
            Position *pos = pos_from(fen);
            cr_assert_eq(pos_st(pos)->castling, i, "%s", fen);
            keys[i] = pos_key(pos);
            free(pos);
            for (int j = 0; j < i; j++)
                cr_assert_neq(keys[i], keys[j], "rights %s and %s share a key", rights[i],
                              rights[j]);
        }
        /* Rook out and back: same placement, rights lost, not a repetition. */
        Position *pos = pos_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        uint64_t k0 = pos_key(pos);
        play_all(pos, "h1g1 h8g8 g1h1 g8h8");
        cr_assert_neq(pos_key(pos), k0);
        cr_assert_eq(pos_key(pos), key_of("r3k2r/8/8/8/8/8/8/R3K2R w Qq - 4 3"));
        cr_assert_eq(pos_repetitions(pos), 0);
        play_all(pos, "h1g1 h8g8 g1h1 g8h8");
        cr_assert_eq(pos_repetitions(pos), 1);
        free(pos);
    }

    { /* side to move changes the key */
        cr_assert_neq(key_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
                      key_of("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"));
        /* Clocks are not part of the key. */
        cr_assert_eq(key_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
                     key_of("4k3/8/8/8/8/8/8/R3K3 w - - 37 90"));
    }
}

/* ------------------------------------------------------------------------ */
/* Long games                                                               */

static const char *const Shuffle[4] = {"g1f3", "g8f6", "f3g1", "f6g8"};

Test(gamestate, long_game_knight_shuffle, .timeout = 60)
{
    Position *pos = pos_from(START_FEN);
    uint64_t k0 = pos_key(pos);
    int plies = 2400;
    for (int i = 0; i < plies; i++) {
        play(pos, Shuffle[i % 4]);
        cr_assert(pos->hply >= 0 && pos->hply + MAX_PLY < MAX_HISTORY, "hply %d at ply %d",
                  pos->hply, i + 1);
        cr_assert_eq(pos->game_ply, i + 1);
        cr_assert_eq(pos_rule50(pos), i + 1);
        cr_assert_eq(pos_key(pos), pos_compute_key(pos), "ply %d", i + 1);
        int cycles = (i + 1) / 4;
        if ((i + 1) % 4 == 0) {
            cr_assert_eq(pos_key(pos), k0);
            int reps = pos_repetitions(pos);
            cr_assert(reps == cycles || (reps >= 4 && cycles >= 4), "ply %d: %d repetitions", i + 1,
                      reps);
            expect_state(pos, cycles == 1  ? GAME_ONGOING
                              : cycles < 4 ? GAME_CLAIM_THREEFOLD
                                           : GAME_FIVEFOLD);
        }
    }
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    cr_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2400 1201");

    /* After an irreversible move, counting starts again and still works. */
    play(pos, "e2e4");
    expect_state(pos, GAME_ONGOING);
    cr_assert_eq(pos_repetitions(pos), 0);
    static const char *const Shuffle2[4] = {"g8f6", "g1f3", "f6g8", "f3g1"};
    GameState want[5] = {GAME_ONGOING, GAME_ONGOING, GAME_CLAIM_THREEFOLD, GAME_CLAIM_THREEFOLD,
                         GAME_FIVEFOLD};
    for (int c = 1; c <= 4; c++) {
        for (int j = 0; j < 4; j++)
            play(pos, Shuffle2[j]);
        cr_assert_eq(pos_repetitions(pos), c);
        expect_state(pos, want[c]);
    }
    free(pos);
}

static GameState expected_state(int reps, int clock)
{
    if (reps >= 4)
        return GAME_FIVEFOLD;
    if (clock >= 150)
        return GAME_75_MOVES;
    if (reps >= 2)
        return GAME_CLAIM_THREEFOLD;
    if (clock >= 100)
        return GAME_CLAIM_50_MOVES;
    return GAME_ONGOING;
}

Test(gamestate, repetition_across_history_compaction, .timeout = 60)
{
    /* The history is compacted once it grows long (about 770 plies). Start an
     * irreversible move and four repetition cycles at every offset around that
     * point, so the compaction falls before, inside and after the sequence. */
    for (int offset = 0; offset < 24; offset++) {
        Position *pos = pos_from(START_FEN);
        int pre = 752 + offset;
        for (int i = 0; i < pre; i++)
            play(pos, Shuffle[i % 4]);
        play(pos, pos->side == WHITE ? "a2a3" : "a7a6");
        uint64_t k = pos_key(pos);
        bool white = pos->side == WHITE;
        const char *cycle = white ? "b1c3 b8c6 c3b1 c6b8" : "b8c6 b1c3 c6b8 c3b1";
        for (int c = 1; c <= 4; c++) {
            play_all(pos, cycle);
            cr_assert(pos->hply + MAX_PLY < MAX_HISTORY, "offset %d: hply %d", offset, pos->hply);
            cr_assert_eq(pos_key(pos), k, "offset %d cycle %d: not back", offset, c);
            cr_assert_eq(pos_repetitions(pos), c, "offset %d cycle %d: %d repetitions", offset, c,
                         pos_repetitions(pos));
            expect_state(pos, expected_state(c, 4 * c));
        }
        cr_assert_eq(pos->game_ply, pre + 17);
        free(pos);
    }
}

Test(gamestate, very_long_game_with_progress, .timeout = 60)
{
    /* Over 3000 plies: kings shuffle for 124 plies, then a pawn moves, again
     * and again. The history must stay bounded, and the repetition count and
     * game state must be exact at every ply. */
    Position *pos = pos_from("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    static const char *const WalkW[4] = {"e1d1", "e8d8", "d1e1", "d8e8"};
    static const char *const WalkB[4] = {"e8d8", "e1d1", "d8e8", "d1e1"};
    static const char *const PawnMoves[] = {"a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6",
                                            "d2d3", "d7d6", "e2e3", "e7e6", "f2f3", "f7f6",
                                            "g2g3", "g7g6", "h2h3", "h7h6", "a3a4", "a6a5",
                                            "b3b4", "b6b5", "c3c4", "c6c5", "d3d4", "d6d5"};
    int np = (int)(sizeof PawnMoves / sizeof PawnMoves[0]);
    int plies = 0, max_hply = 0;
    for (int p = 0; p <= np; p++) {
        const char *const *walk = pos->side == WHITE ? WalkW : WalkB;
        for (int i = 0; i < 124; i++) {
            play(pos, walk[i % 4]);
            plies++;
            if (pos->hply > max_hply)
                max_hply = pos->hply;
            cr_assert(pos->hply + MAX_PLY < MAX_HISTORY, "ply %d: hply %d", plies, pos->hply);
            cr_assert_eq(pos_key(pos), pos_compute_key(pos), "ply %d", plies);
            cr_assert_eq(pos_rule50(pos), i + 1);
            int reps = (i + 1) / 4;
            cr_assert_eq(pos_repetitions(pos), reps,
                         "ply %d (segment %d, %d): %d repetitions, want %d", plies, p, i,
                         pos_repetitions(pos), reps);
            GameState gs = pos_game_state(pos), want = expected_state(reps, i + 1);
            cr_assert_eq(gs, want, "ply %d: %s, want %s", plies, game_state_text(gs),
                         game_state_text(want));
        }
        if (p < np) {
            play(pos, PawnMoves[p]);
            plies++;
            cr_assert_eq(pos_rule50(pos), 0);
            cr_assert_eq(pos_repetitions(pos), 0);
            expect_state(pos, GAME_ONGOING);
        }
    }
    cr_assert(plies > 3000, "only %d plies", plies);
    cr_assert(max_hply > 500, "the history never grew (max hply %d)", max_hply);
    cr_assert_eq(pos->game_ply, plies);
    cr_assert_eq(pos_fullmove(pos), 1 + plies / 2);
    free(pos);
}
