/* The Position's self-check (pos_is_consistent): it holds after every make,
 * unmake and null move along random games, and it fails on copies corrupted
 * one field at a time (a mailbox square without its bitboard, a stray
 * bitboard bit, a key, the checkers, the side to move, a castling right). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../movegen/util.h"

static void setup(void) { movegen_init(); }

TestSuite(position, .init = setup, .timeout = 120);

static const struct {
    const char *fen;
    bool c960;
} Fens[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
};

static Position *position_from(const char *fen, bool c960)
{
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    char err[256];
    cr_assert(pos_set_fen(pos, fen, c960, err, sizeof err), "%s", err);
    return pos;
}

static Position *new_position(int fi) { return position_from(Fens[fi].fen, Fens[fi].c960); }

/* Called with every position of the walk below and its legal moves; the
 * position must be left as it was given. */
typedef void (*Visit)(Position *pos, const MoveList *legal, void *ctx);

/* Four random games of at most 160 plies from fen (the moves drawn from
 * *rng), visiting every position before its move is played. */
static void walk_random_games(const char *fen, bool c960, uint64_t *rng, Visit visit, void *ctx)
{
    for (int game = 0; game < 4; game++) {
        Position *pos = position_from(fen, c960);
        for (int ply = 0; ply < 160; ply++) {
            MoveList list;
            gen_legal(pos, &list);
            if (!list.count)
                break;
            visit(pos, &list, ctx);
            pos_make_game_move(pos, list.moves[rng_next(rng) % (uint64_t)list.count]);
        }
        free(pos);
    }
}

/* The same from each of Fens. */
static void walk_from_every_start(uint64_t *rng, Visit visit, void *ctx)
{
    for (size_t fi = 0; fi < sizeof Fens / sizeof Fens[0]; fi++)
        walk_random_games(Fens[fi].fen, Fens[fi].c960, rng, visit, ctx);
}

static void visit_consistent(Position *pos, const MoveList *legal, void *ctx)
{
    (void)ctx;
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    cr_assert(pos_is_consistent(pos), "%s", fen);
    for (int i = 0; i < legal->count; i++) {
        pos_make_move(pos, legal->moves[i]);
        cr_assert(pos_is_consistent(pos), "%s after move %04x", fen, legal->moves[i]);
        pos_unmake_move(pos, legal->moves[i]);
        cr_assert(pos_is_consistent(pos), "%s after unmaking %04x", fen, legal->moves[i]);
    }
    if (!pos_in_check(pos)) {
        pos_make_null(pos);
        cr_assert(pos_is_consistent(pos), "%s after a null move", fen);
        pos_unmake_null(pos);
        cr_assert(pos_is_consistent(pos), "%s after unmaking a null move", fen);
    }
}

Test(position, consistent_along_random_games)
{
    uint64_t rng = 0x5E1FC4EC;
    walk_from_every_start(&rng, visit_consistent, NULL);
}

/* pos_key_after (the search's prefetch) gives the key the move makes
 * whenever it is meant to: a normal move or capture that changes no castling
 * right and leaves no e.p. capture; on random games from every start. */
static void visit_key_after(Position *pos, const MoveList *legal, void *ctx)
{
    int *exact = ctx;
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    for (int i = 0; i < legal->count; i++) {
        const move_t m = legal->moves[i];
        const uint64_t predicted = pos_key_after(pos, m);
        const uint8_t rights = pos_st(pos)->castling;
        char uci[8];
        move_to_uci(pos, m, uci);
        pos_make_move(pos, m);
        if (move_kind(m) == MOVE_NORMAL && pos_st(pos)->castling == rights
            && !pos_st(pos)->ep_legal) {
            cr_assert_eq(predicted, pos_key(pos), "%s: %s", fen, uci);
            (*exact)++;
        }
        pos_unmake_move(pos, m);
    }
}

Test(position, key_after_is_the_key_made)
{
    int exact = 0;
    uint64_t rng = 0xAF7E2;
    walk_from_every_start(&rng, visit_key_after, &exact);
    cr_assert_gt(exact, 10000, "only %d moves checked", exact);
}

/* pos_gives_check (the search's pruning asks it of quiet moves) says what
 * making the move does, for every legal move along random games: direct and
 * discovered checks, castling (the rook's check, Chess960 too), e.p. (a
 * discovered check through the captured pawn's square) and promotions. */
typedef struct {
    int checks, moves;
} CheckCount;

static void visit_gives_check(Position *pos, const MoveList *legal, void *ctx)
{
    CheckCount *count = ctx;
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    for (int i = 0; i < legal->count; i++) {
        const move_t m = legal->moves[i];
        char uci[8];
        move_to_uci(pos, m, uci);
        const bool said = pos_gives_check(pos, m);
        pos_make_move(pos, m);
        const bool check = pos_in_check(pos);
        pos_unmake_move(pos, m);
        cr_assert_eq(said, check, "%s: %s gives check: said %d", fen, uci, said);
        count->checks += check;
        count->moves++;
    }
}

Test(position, gives_check_is_what_the_move_does)
{
    static const struct {
        const char *fen;
        bool c960;
    } Extra[] = {
        /* exd6 e.p. opens the bishop's diagonal a2-g8 through d5. */
        {"6k1/8/8/3pP3/8/8/B7/4K3 w - d6 0 1", false},
        /* Promotions with check along the back rank, O-O-O with the rook's check. */
        {"3k4/1P4P1/8/8/8/8/8/R3K2R w KQ - 0 1", false},
        /* Castling onto the rook's square with check (Chess960). */
        {"5k2/8/8/8/8/8/8/4K1R1 w G - 0 1", true},
    };
    CheckCount count = {0, 0};
    uint64_t rng = 0xC4EC; /* one stream through Fens and then Extra */
    walk_from_every_start(&rng, visit_gives_check, &count);
    for (size_t i = 0; i < sizeof Extra / sizeof Extra[0]; i++)
        walk_random_games(Extra[i].fen, Extra[i].c960, &rng, visit_gives_check, &count);
    cr_assert_gt(count.checks, 500, "only %d checking moves of %d", count.checks, count.moves);
}

/* pos_attacked_by (the search's threats) holds exactly the squares that
 * pos_square_attacked says a side attacks, for both sides, on random games
 * from every start. */
static void visit_attacked_by(Position *pos, const MoveList *legal, void *ctx)
{
    (void)legal;
    int *squares = ctx;
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    for (int by = WHITE; by <= BLACK; by++) {
        const bitboard_t att = pos_attacked_by(pos, by);
        for (int sq = 0; sq < SQ_NB; sq++) {
            const bool said = (att >> sq) & 1;
            cr_assert_eq(said, pos_square_attacked(pos, sq, by, pos_occupied(pos)),
                         "%s: square %d attacked by side %d: said %d", fen, sq, by, said);
            *squares += said;
        }
    }
}

Test(position, attacked_by_is_every_attacked_square)
{
    int squares = 0;
    uint64_t rng = 0x7A2E47;
    walk_from_every_start(&rng, visit_attacked_by, &squares);
    cr_assert_gt(squares, 100000, "only %d attacked squares seen", squares);
}

/* A fresh middlegame position (kiwipete: castling rights, pawns, every
 * piece type) for each corruption. */
static Position *corruptible(void)
{
    Position *pos = new_position(1);
    cr_assert(pos_is_consistent(pos));
    return pos;
}

Test(position, inconsistent_copies_are_caught)
{
    Position *pos;
    StateInfo *st;

    /* A piece in the mailbox without its bitboards. */
    pos = corruptible();
    cr_assert_eq(pos->board[SQ_D4], NO_PIECE);
    pos->board[SQ_D4] = W_KNIGHT;
    cr_assert_not(pos_is_consistent(pos), "mailbox piece without bitboards");
    free(pos);

    /* A mailbox square emptied while its bitboards still hold the piece. */
    pos = corruptible();
    pos->board[SQ_A2] = NO_PIECE;
    cr_assert_not(pos_is_consistent(pos), "bitboards without mailbox piece");
    free(pos);

    /* A mailbox piece of the wrong type. */
    pos = corruptible();
    pos->board[SQ_A2] = W_BISHOP;
    cr_assert_not(pos_is_consistent(pos), "mailbox type differs from the bitboards");
    free(pos);

    /* A piece in a type bitboard only. */
    pos = corruptible();
    pos->by_type[ROOK] |= sq_bb(SQ_D4);
    cr_assert_not(pos_is_consistent(pos), "stray type bit");
    free(pos);

    /* Colour bitboards that disagree with the occupancy. */
    pos = corruptible();
    pos->by_color[BLACK] |= sq_bb(SQ_A2);
    cr_assert_not(pos_is_consistent(pos), "a square of both colours");
    free(pos);

    /* The incrementally kept keys. */
    pos = corruptible();
    st = &pos->hist[pos->hply];
    st->key ^= 1;
    cr_assert_not(pos_is_consistent(pos), "key");
    free(pos);

    pos = corruptible();
    st = &pos->hist[pos->hply];
    st->pawn_key ^= 1;
    cr_assert_not(pos_is_consistent(pos), "pawn key");
    free(pos);

    /* Checkers and pins. */
    pos = corruptible();
    st = &pos->hist[pos->hply];
    st->checkers |= sq_bb(SQ_E7);
    cr_assert_not(pos_is_consistent(pos), "checkers");
    free(pos);

    pos = corruptible();
    st = &pos->hist[pos->hply];
    st->pinned ^= sq_bb(SQ_D2);
    cr_assert_not(pos_is_consistent(pos), "pinned");
    free(pos);

    /* The side to move flipped (the other king is then capturable too, and
     * the key and the ply count disagree). */
    pos = corruptible();
    pos->side = BLACK;
    cr_assert_not(pos_is_consistent(pos), "side to move");
    free(pos);

    /* A castling right whose rook is gone (key kept in step, so only the
     * rook check can see it). */
    pos = new_position(2);
    st = &pos->hist[pos->hply];
    cr_assert_eq(st->castling, 0);
    pos->castle_rook[CR_WK] = SQ_H1;
    st->castling = WHITE_OO;
    st->key = pos_compute_key(pos);
    cr_assert_not(pos_is_consistent(pos), "castling right without a rook");
    free(pos);

    /* An e.p. square no double push can have made (key kept in step). */
    pos = new_position(0);
    st = &pos->hist[pos->hply];
    st->ep = SQ_E6;
    cr_assert_not(pos_is_consistent(pos), "e.p. square");
    free(pos);
}
