/* Attack tables: magic/PEXT slider lookups against the ray-walking reference,
 * leaper tables against an independent computation, between/line tables. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "../movegen/position.h"
#include "../movegen/util.h"

static void setup(void) { movegen_init(); }

TestSuite(attacks, .init = setup);

static bitboard_t sq_of(const char *s) { return sq_bb(make_square(s[0] - 'a', s[1] - '1')); }

/* Bitboard from a space-separated square list ("a1 b2 c3"). */
static bitboard_t squares(const char *list)
{
    bitboard_t b = 0;
    for (const char *p = list; *p; p++)
        if (*p >= 'a' && *p <= 'h' && p[1] >= '1' && p[1] <= '8') {
            b |= sq_of(p);
            p++;
        }
    return b;
}

static int idx(const char *s) { return make_square(s[0] - 'a', s[1] - '1'); }

/* Leaper attacks by offsets, written independently of attacks.c. */
static bitboard_t leaper(int sq, const int (*d)[2], int n)
{
    bitboard_t b = 0;
    for (int i = 0; i < n; i++) {
        int f = file_of(sq) + d[i][0], r = rank_of(sq) + d[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8)
            b |= sq_bb(make_square(f, r));
    }
    return b;
}

static void check_slider(int pt, int sq, bitboard_t occ)
{
    bitboard_t want = attacks_slider_slow(pt, sq, occ);
    bitboard_t got = pt == ROOK ? rook_attacks(sq, occ) : bishop_attacks(sq, occ);
    cr_assert_eq(got, want,
                 "%s attacks from square %d, occupancy %016llx: got %016llx want %016llx",
                 pt == ROOK ? "rook" : "bishop", sq, (unsigned long long)occ,
                 (unsigned long long)got, (unsigned long long)want);
}

Test(attacks, reference_and_empty_full_board)
{
    /* The reference itself, on hand-made cases, so the comparisons below mean something. */
    cr_assert_eq(attacks_slider_slow(ROOK, idx("a1"), 0), (FILE_A_BB | RANK_1_BB) & ~sq_of("a1"));
    cr_assert_eq(attacks_slider_slow(ROOK, idx("d4"), squares("d6 b4 d2 g4")),
                 squares("d5 d6 c4 b4 d3 d2 e4 f4 g4"));
    cr_assert_eq(attacks_slider_slow(BISHOP, idx("c1"), squares("e3 b2")), squares("b2 d2 e3"));
    cr_assert_eq(attacks_slider_slow(BISHOP, idx("h8"), 0), squares("g7 f6 e5 d4 c3 b2 a1"));

    for (int sq = 0; sq < SQ_NB; sq++) {
        check_slider(ROOK, sq, 0);
        check_slider(BISHOP, sq, 0);
        check_slider(ROOK, sq, ~0ULL);
        check_slider(BISHOP, sq, ~0ULL);
        /* On an empty board a rook sees 14 squares from anywhere. */
        cr_assert_eq(popcount(rook_attacks(sq, 0)), 14, "square %d", sq);
        /* On a full board only the neighbours. */
        cr_assert_eq(rook_attacks(sq, ~0ULL) | bishop_attacks(sq, ~0ULL), king_attacks(sq),
                     "square %d", sq);
    }
}

Test(attacks, sliders_match_reference_random_occupancy)
{
    uint64_t seed = 0x5EED0001ULL;
    for (int sq = 0; sq < SQ_NB; sq++)
        for (int i = 0; i < 3000; i++) {
            uint64_t a = rng_next(&seed), b = rng_next(&seed), c = rng_next(&seed);
            bitboard_t occ;
            switch (i % 4) {
            case 0: occ = a & b & c; break; /* sparse */
            case 1: occ = a & b; break;
            case 2: occ = a; break;
            default: occ = a | b; break; /* dense */
            }
            check_slider(ROOK, sq, occ);
            check_slider(BISHOP, sq, occ);
            cr_assert_eq(queen_attacks(sq, occ),
                         attacks_slider_slow(ROOK, sq, occ) | attacks_slider_slow(BISHOP, sq, occ));
        }
}

Test(attacks, sliders_match_reference_every_relevant_subset)
{
    /* Every subset of each square's relevant ray squares, plus noise on the
     * board edges and on the square itself (which must not matter). */
    uint64_t seed = 0x5EED0002ULL;
    for (int pt = BISHOP; pt <= ROOK; pt++)
        for (int sq = 0; sq < SQ_NB; sq++) {
            bitboard_t rays = attacks_slider_slow(pt, sq, 0);
            bitboard_t edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(sq)))
                               | ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(sq)));
            bitboard_t mask = rays & ~edges;
            bitboard_t sub = 0;
            int n = 0;
            do {
                bitboard_t noise = rng_next(&seed) & ~mask;
                check_slider(pt, sq, sub);
                check_slider(pt, sq, sub | noise);
                check_slider(pt, sq, sub | sq_bb(sq));
                n++;
                sub = (sub - mask) & mask;
            } while (sub);
            cr_assert_eq(n, 1 << popcount(mask));
        }
}

Test(attacks, leaper_tables)
{
    cr_assert_eq(knight_attacks(idx("a1")), squares("b3 c2"));
    cr_assert_eq(knight_attacks(idx("h8")), squares("g6 f7"));
    cr_assert_eq(knight_attacks(idx("e4")), squares("d6 f6 c5 g5 c3 g3 d2 f2"));
    cr_assert_eq(knight_attacks(idx("b7")), squares("d8 d6 c5 a5"));
    cr_assert_eq(knight_attacks(idx("g2")), squares("e1 e3 f4 h4"));

    cr_assert_eq(king_attacks(idx("a1")), squares("a2 b1 b2"));
    cr_assert_eq(king_attacks(idx("h8")), squares("g8 g7 h7"));
    cr_assert_eq(king_attacks(idx("e4")), squares("d3 e3 f3 d4 f4 d5 e5 f5"));
    cr_assert_eq(king_attacks(idx("a5")), squares("a4 b4 b5 a6 b6"));

    cr_assert_eq(pawn_attacks(WHITE, idx("e4")), squares("d5 f5"));
    cr_assert_eq(pawn_attacks(WHITE, idx("a2")), squares("b3"));
    cr_assert_eq(pawn_attacks(WHITE, idx("h2")), squares("g3"));
    cr_assert_eq(pawn_attacks(WHITE, idx("c8")), 0);
    cr_assert_eq(pawn_attacks(BLACK, idx("e5")), squares("d4 f4"));
    cr_assert_eq(pawn_attacks(BLACK, idx("a7")), squares("b6"));
    cr_assert_eq(pawn_attacks(BLACK, idx("h7")), squares("g6"));
    cr_assert_eq(pawn_attacks(BLACK, idx("d1")), 0);

    static const int kn[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int kg[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                 {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int wp[2][2] = {{-1, 1}, {1, 1}};
    static const int bp[2][2] = {{-1, -1}, {1, -1}};
    for (int sq = 0; sq < SQ_NB; sq++) {
        cr_assert_eq(knight_attacks(sq), leaper(sq, kn, 8), "knight on %d", sq);
        cr_assert_eq(king_attacks(sq), leaper(sq, kg, 8), "king on %d", sq);
        cr_assert_eq(pawn_attacks(WHITE, sq), leaper(sq, wp, 2), "white pawn on %d", sq);
        cr_assert_eq(pawn_attacks(BLACK, sq), leaper(sq, bp, 2), "black pawn on %d", sq);
        /* The bulk shifts agree with the table. */
        cr_assert_eq(pawn_attacks_bb(WHITE, sq_bb(sq)), pawn_attacks(WHITE, sq));
        cr_assert_eq(pawn_attacks_bb(BLACK, sq_bb(sq)), pawn_attacks(BLACK, sq));
    }
}

Test(attacks, between_and_line_spot_checks)
{
    cr_assert_eq(between_bb(idx("a1"), idx("h8")), squares("b2 c3 d4 e5 f6 g7"));
    cr_assert_eq(between_bb(idx("h8"), idx("a1")), squares("b2 c3 d4 e5 f6 g7"));
    cr_assert_eq(between_bb(idx("a1"), idx("a8")), squares("a2 a3 a4 a5 a6 a7"));
    cr_assert_eq(between_bb(idx("e1"), idx("h4")), squares("f2 g3"));
    cr_assert_eq(between_bb(idx("b7"), idx("g7")), squares("c7 d7 e7 f7"));
    cr_assert_eq(between_bb(idx("h1"), idx("a8")), squares("g2 f3 e4 d5 c6 b7"));
    cr_assert_eq(between_bb(idx("e4"), idx("e5")), 0); /* adjacent */
    cr_assert_eq(between_bb(idx("a1"), idx("b3")), 0); /* not aligned */
    cr_assert_eq(between_bb(idx("h1"), idx("a2")), 0); /* would wrap around */
    cr_assert_eq(between_bb(idx("d4"), idx("d4")), 0);

    bitboard_t diag = squares("a1 b2 c3 d4 e5 f6 g7 h8");
    cr_assert_eq(line_bb(idx("a1"), idx("c3")), diag);
    cr_assert_eq(line_bb(idx("g7"), idx("d4")), diag);
    cr_assert_eq(line_bb(idx("b1"), idx("b8")), file_bb(1));
    cr_assert_eq(line_bb(idx("c5"), idx("f5")), rank_bb(4));
    cr_assert_eq(line_bb(idx("e4"), idx("f3")), squares("a8 b7 c6 d5 e4 f3 g2 h1"));
    cr_assert_eq(line_bb(idx("a1"), idx("b3")), 0);
    cr_assert_eq(line_bb(idx("h1"), idx("a2")), 0);
    cr_assert(aligned(idx("a1"), idx("c3"), idx("h8")));
    cr_assert(aligned(idx("c3"), idx("h8"), idx("a1")));
    cr_assert(!aligned(idx("a1"), idx("c3"), idx("c4")));
}

/* Independent between/line: walk step by step. */
static void ref_between_line(int a, int b, bitboard_t *between, bitboard_t *line)
{
    *between = *line = 0;
    int df = file_of(b) - file_of(a), dr = rank_of(b) - rank_of(a);
    if (a == b || !(df == 0 || dr == 0 || df == dr || df == -dr))
        return;
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    for (int f = file_of(a) + sf, r = rank_of(a) + sr; make_square(f, r) != b; f += sf, r += sr)
        *between |= sq_bb(make_square(f, r));
    for (int dir = -1; dir <= 1; dir += 2)
        for (int f = file_of(a), r = rank_of(a); f >= 0 && f < 8 && r >= 0 && r < 8;
             f += dir * sf, r += dir * sr)
            *line |= sq_bb(make_square(f, r));
}

Test(attacks, between_and_line_every_pair)
{
    for (int a = 0; a < SQ_NB; a++)
        for (int b = 0; b < SQ_NB; b++) {
            bitboard_t bt, ln;
            ref_between_line(a, b, &bt, &ln);
            cr_assert_eq(between_bb(a, b), bt, "between %d %d", a, b);
            cr_assert_eq(line_bb(a, b), ln, "line %d %d", a, b);
        }
}
