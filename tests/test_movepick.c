/* The staged move picker (search/movepick.c). In the main search's mode every
 * legal move comes exactly once, whatever is given as TT move, killers and
 * counter-move (legal moves, illegal or garbage ones, captures, duplicates,
 * none), and the stages come in order: the TT move, the good captures, killer
 * 1, killer 2, the counter-move, the quiet moves by history, the bad
 * captures. The test recomputes the picker's scores from the history tables
 * it filled, so a change of the ordering fails it. In quiescence the picker
 * yields captures and queen promotions, or every evasion when in check. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/eval.h"
#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../search/movepick.h"
#include "../search/see.h"

static void setup(void) { movegen_init(); }

TestSuite(movepick, .init = setup);

/* Captures of every kind, promotions (quiet, capturing, under-), e.p.,
 * castling (also through an attacked square), pins, checks; positions in
 * check (single, double, by a pawn that e.p. removes); Chess960. */
static const struct {
    const char *fen;
    bool c960;
} Positions[] = {
    {START_FEN, false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1", false},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
    {"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", false},
    {"r1n1k2r/1P4P1/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1", false},
    {"rnbqkbnr/pp1ppppp/8/8/2pPP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 3", false},
    {"r2q1rk1/ppp2ppp/2n1bn2/2bpp3/3PP3/2NB1N2/PPP1QPPP/R1B2RK1 w - - 0 8", false},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"8/8/8/KPp4r/8/8/8/7k w - c6 0 2", false},
    {"8/8/8/2k5/3Pp3/8/5N2/4K2R b K d3 0 1", false},
    {"4r1k1/8/8/8/1b6/8/8/R3K2R w KQ - 0 1", false},
    {"4k3/8/2p5/3p1n2/4P3/8/8/3QK2R w K - 0 1", false},
    {"nrk1b1rq/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/NRK3RQ w GBgb - 0 1", true},
    {"bnqnrbkr/1pp2pp1/p7/3pP2p/4P1P1/8/PPPP3P/BNQNRBKR w HEhe d6 0 9", true},
};
enum { POSITION_COUNT = sizeof Positions / sizeof Positions[0] };

/* The position of the hand-made ordering tests: a good capture of a knight,
 * a good pawn trade, a losing queen capture, quiet moves of four pieces and
 * castling. */
static const char *const HandMade = "4k3/8/2p5/3p1n2/4P3/8/8/3QK2R w K - 0 1";

static Position *new_pos(const char *fen, bool c960)
{
    Position *p = calloc(1, sizeof *p);
    cr_assert_not_null(p);
    char err[200];
    cr_assert(pos_set_fen(p, fen, c960, err, sizeof err), "%s: %s", fen, err);
    return p;
}

static move_t mv(const Position *p, const char *uci)
{
    move_t m = move_from_uci(p, uci);
    cr_assert_neq(m, MOVE_NONE, "%s is not legal here", uci);
    return m;
}

/* The UCI text of a legal move, or the hexadecimal value of any other. */
static const char *name(const Position *p, move_t m, char *buf)
{
    MoveList l;
    gen_legal(p, &l);
    for (int i = 0; i < l.count; i++)
        if (l.moves[i] == m) {
            move_to_uci(p, m, buf);
            return buf;
        }
    snprintf(buf, 8, "#%04x", m);
    return buf;
}

/* splitmix64 with a fixed seed, independent of the engine's generator. */
static uint64_t rnd_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int rnd_int(uint64_t *s, int n) { return (int)(rnd_next(s) % (uint64_t)n); }

/* ------------------------------------------------------------------------ */
/* The tables the picker reads and its scores, recomputed                   */

typedef struct {
    History *hist;
    ContHist *cont[2]; /* 1 and 2 plies back; either may be NULL */
} Tables;

/* Two gravity updates from zero, as the search makes them. */
static int16_t random_entry(uint64_t *s, int range)
{
    int16_t h = 0;
    history_update(&h, rnd_int(s, 2 * range + 1) - range);
    history_update(&h, rnd_int(s, 2 * range + 1) - range);
    return h;
}

/* Histories filled from `seed` (0: all zero); cont_mask says which of the
 * two continuation slots the picker gets (bit 0: one ply back). */
static Tables make_tables(uint64_t seed, int cont_mask)
{
    Tables t;
    t.hist = calloc(1, sizeof *t.hist);
    cr_assert_not_null(t.hist);
    ContHist *c1 = &t.hist->continuation[W_KNIGHT][SQ_F3];
    ContHist *c2 = &t.hist->continuation[B_PAWN][SQ_D5];
    if (seed) {
        uint64_t s = seed;
        for (int c = 0; c < COLOR_NB; c++)
            for (int slot = 0; slot < THREAT_SLOTS; slot++)
                for (int i = 0; i < SQ_NB * SQ_NB; i++)
                    t.hist->butterfly[c][slot][i] = random_entry(&s, 6000);
        for (int pc = 0; pc < PIECE_NB; pc++)
            for (int sq = 0; sq < SQ_NB; sq++)
                for (int v = 0; v < PIECE_TYPE_NB; v++)
                    t.hist->capture[pc][sq][v] = random_entry(&s, HISTORY_MAX);
        for (int pc = 0; pc < PIECE_NB; pc++)
            for (int sq = 0; sq < SQ_NB; sq++) {
                (*c1)[pc][sq] = random_entry(&s, 3000);
                (*c2)[pc][sq] = random_entry(&s, 3000);
            }
    }
    t.cont[0] = cont_mask & 1 ? c1 : NULL;
    t.cont[1] = cont_mask & 2 ? c2 : NULL;
    return t;
}

/* The picker's score of a quiet move: butterfly history (the table of
 * whether the from and the to square are attacked by the side not to move,
 * 2 x from + to, when THREAT_HIST is on) plus the continuation histories of
 * 1 and 2 plies back. The one place to change when the history API moves. */
static int quiet_score(const Position *pos, const Tables *t, move_t m)
{
    const int pc = pos->board[move_from(m)], to = move_to(m);
    const bitboard_t threats = THREAT_HIST ? pos_attacked_by(pos, !pos->side) : 0;
    const int slot = 2 * (int)((threats >> move_from(m)) & 1) + (int)((threats >> to) & 1);
    int s = t->hist->butterfly[pos->side][slot][butterfly_index(m)];
    for (int i = 0; i < 2; i++)
        if (t->cont[i])
            s += (*t->cont[i])[pc][to];
    return s;
}

/* The picker's score of a capture or promotion: 16 x the victim's value, a
 * queen promotion's bonus or an under-promotion's malus, a sixteenth of the
 * capture history. */
static int noisy_score(const Position *pos, const Tables *t, move_t m)
{
    const int victim = capture_victim(pos, m);
    int s = 16 * PieceValue[victim];
    if (move_kind(m) == MOVE_PROMOTION)
        s += move_promo(m) == QUEEN ? 16 * 900 : -30000;
    return s + t->hist->capture[pos->board[move_from(m)]][move_to(m)][victim] / 16;
}

/* Good: SEE at least minus a 64th of the score, the picker's threshold. */
static bool good_noisy(const Position *pos, const Tables *t, move_t m)
{
    return see_ge(pos, m, -noisy_score(pos, t, m) / 64);
}

static bool is_noisy(const Position *pos, move_t m)
{
    return pos_is_capture(pos, m) || move_kind(m) == MOVE_PROMOTION;
}

static bool in_list(const MoveList *l, move_t m)
{
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m)
            return true;
    return false;
}

/* ------------------------------------------------------------------------ */
/* Running the picker and checking what it returns                          */

typedef struct {
    const Position *pos;
    Tables t;
    move_t tt, killers[2], counter;
    bool no_killers; /* pass NULL for the killers, as quiescence does */
} Input;

/* Runs the picker to its end; the moves in order, their number returned. */
static int pick_all(const Input *in, bool qsearch, move_t *out)
{
    MovePicker mp;
    ContHist *cont[2] = {in->t.cont[0], in->t.cont[1]};
    mp_init(&mp, in->pos, in->t.hist, cont, in->tt, in->no_killers ? NULL : in->killers,
            in->counter, qsearch);
    int n = 0;
    move_t m;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        cr_assert_lt(n, MAX_MOVES, "the picker does not end");
        out[n++] = m;
    }
    cr_assert_eq(mp_next(&mp), MOVE_NONE, "the picker goes on after its end");
    cr_assert_eq(mp_next(&mp), MOVE_NONE, "the picker goes on after its end");
    return n;
}

static void describe(const Input *in, char *buf, size_t len)
{
    char fen[128], a[8], b[8], c[8], d[8];
    pos_get_fen(in->pos, fen, sizeof fen);
    snprintf(buf, len, "%s, tt %s, killers %s %s, counter %s, cont %d%d", fen,
             name(in->pos, in->tt, a), in->no_killers ? "NULL" : name(in->pos, in->killers[0], b),
             in->no_killers ? "NULL" : name(in->pos, in->killers[1], c),
             name(in->pos, in->counter, d), in->t.cont[0] != NULL, in->t.cont[1] != NULL);
}

/* got[0..n) holds each move of want exactly once and nothing else. */
static void check_exactly(const Input *in, const MoveList *want, const move_t *got, int n,
                          const char *what)
{
    static bool seen[1 << 16];
    char ctx[400], a[8];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < n; i++) {
        if (!in_list(want, got[i]) || seen[got[i]]) {
            describe(in, ctx, sizeof ctx);
            cr_assert_fail("%s: move %d, %s, is %s (%s)", what, i, name(in->pos, got[i], a),
                           seen[got[i]] ? "returned twice" : "not expected", ctx);
        }
        seen[got[i]] = true;
    }
    for (int i = 0; i < want->count; i++)
        if (!seen[want->moves[i]]) {
            describe(in, ctx, sizeof ctx);
            cr_assert_fail("%s: %s is missing (%s)", what, name(in->pos, want->moves[i], a), ctx);
        }
}

enum { C_TT, C_GOOD, C_KILLER1, C_KILLER2, C_COUNTER, C_QUIET, C_BAD };
static const char *const ClassName[] = {
    "TT move", "good capture", "killer 1", "killer 2", "counter-move", "quiet move", "bad capture",
};

/* The stage that must return the legal move m in the main search. A killer
 * or counter-move has its own stage when it is a legal quiet move other than
 * the TT move and the moves of the stages before. */
static int main_class(const Input *in, const MoveList *legal, move_t m)
{
    const Position *pos = in->pos;
    if (m == in->tt && in_list(legal, in->tt))
        return C_TT;
    if (is_noisy(pos, m))
        return good_noisy(pos, &in->t, m) ? C_GOOD : C_BAD;
    if (!in->no_killers && m == in->killers[0])
        return C_KILLER1;
    if (!in->no_killers && m == in->killers[1])
        return C_KILLER2;
    if (m == in->counter)
        return C_COUNTER;
    return C_QUIET;
}

/* The key a stage orders its moves by (non-increasing), if it has one. */
static bool order_key(const Input *in, int cls, move_t m, int *key)
{
    if (cls == C_GOOD || cls == C_BAD)
        *key = noisy_score(in->pos, &in->t, m);
    else if (cls == C_QUIET)
        *key = quiet_score(in->pos, &in->t, m);
    else
        return false;
    return true;
}

/* Checks a sequence against per-move stages (non-decreasing) and the order
 * within each stage. */
static void check_stages(const Input *in, const move_t *got, const int *cls, int n,
                         const char *const *class_name, const char *what)
{
    char ctx[400], a[8], b[8];
    for (int i = 1; i < n; i++) {
        if (cls[i] < cls[i - 1]) {
            describe(in, ctx, sizeof ctx);
            cr_assert_fail("%s: %s (%s) after %s (%s) (%s)", what, name(in->pos, got[i], a),
                           class_name[cls[i]], name(in->pos, got[i - 1], b), class_name[cls[i - 1]],
                           ctx);
        }
        int k0, k1;
        if (cls[i] == cls[i - 1] && order_key(in, cls[i], got[i - 1], &k0)
            && order_key(in, cls[i], got[i], &k1) && k1 > k0) {
            describe(in, ctx, sizeof ctx);
            cr_assert_fail("%s: %s %s (score %d) after %s (score %d) (%s)", what,
                           class_name[cls[i]], name(in->pos, got[i], a), k1,
                           name(in->pos, got[i - 1], b), k0, ctx);
        }
    }
}

/* How often each stage returned a move in check_main (to see that the
 * random cases reach every stage). */
static int StageCount[C_BAD + 1];

/* The main search's mode: every legal move once; with `order`, the stages. */
static void check_main(const Input *in, bool order)
{
    MoveList legal;
    gen_legal(in->pos, &legal);
    move_t got[MAX_MOVES];
    int n = pick_all(in, false, got);
    check_exactly(in, &legal, got, n, "main search");
    if (!order)
        return;
    int cls[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        cls[i] = main_class(in, &legal, got[i]);
        StageCount[cls[i]]++;
    }
    check_stages(in, got, cls, n, ClassName, "main search");
}

/* Quiescence: not in check, the captures and queen promotions (and a noisy
 * TT move, even an under-promotion); in check, every evasion. The TT move
 * first, then noisy moves by score (no SEE split), then quiet evasions by
 * history. */
static void check_qsearch(const Input *in)
{
    const Position *pos = in->pos;
    const bool check = pos_in_check(pos);
    MoveList legal, want;
    gen_legal(pos, &legal);
    want.count = 0;
    const bool tt_ok = in_list(&legal, in->tt) && (check || is_noisy(pos, in->tt));
    for (int i = 0; i < legal.count; i++) {
        move_t m = legal.moves[i];
        bool under = move_kind(m) == MOVE_PROMOTION && move_promo(m) != QUEEN;
        if (check || (is_noisy(pos, m) && (!under || (tt_ok && m == in->tt))))
            want.moves[want.count++] = m;
    }
    move_t got[MAX_MOVES];
    int n = pick_all(in, true, got);
    check_exactly(in, &want, got, n, check ? "quiescence in check" : "quiescence");
    static const char *const QName[] = {"TT move",   "capture or promotion", "", "", "",
                                        "quiet move"};
    int cls[MAX_MOVES];
    for (int i = 0; i < n; i++)
        cls[i] = tt_ok && got[i] == in->tt ? C_TT : is_noisy(pos, got[i]) ? C_GOOD : C_QUIET;
    check_stages(in, got, cls, n, QName, check ? "quiescence in check" : "quiescence");
}

/* ------------------------------------------------------------------------ */
/* Random TT moves, killers and counter-moves                               */

/* Moves to hand the picker besides the legal ones: pseudo-legal moves that
 * leave the king in check, legal moves with the wrong flags, moves of the
 * other side or from empty squares, the null move, random values. */
static int garbage_pool(const Position *pos, uint64_t *s, move_t *pool)
{
    MoveList legal;
    gen_legal(pos, &legal);
    int n = 0, illegal = 0;
    for (int v = 1; v < 1 << 16 && illegal < 40; v++)
        if (pos_is_pseudo_legal(pos, (move_t)v) && !pos_is_legal(pos, (move_t)v)) {
            pool[n++] = (move_t)v;
            illegal++;
        }
    for (int i = 0; i < legal.count && i < 30; i++) {
        pool[n++] = legal.moves[i] ^ (move_t)(1 << 14);
        pool[n++] = legal.moves[i] ^ (move_t)(3 << 14);
        pool[n++] = legal.moves[i] | 0x3000;
    }
    pool[n++] = MOVE_NULL;
    pool[n++] = 0xFFFF;
    pool[n++] = move_make(SQ_E4, SQ_E4);
    for (int i = 0; i < 20; i++)
        pool[n++] = (move_t)rnd_next(s);
    /* Only what is not legal (a mutation may be another legal move). */
    int k = 0;
    for (int i = 0; i < n; i++)
        if (pool[i] != MOVE_NONE && !in_list(&legal, pool[i]))
            pool[k++] = pool[i];
    return k;
}

/* A TT move, killer or counter-move: none, a legal quiet or noisy move,
 * garbage, or the same as one chosen before (chosen[0..nc)). */
static move_t random_special(uint64_t *s, const Position *pos, const MoveList *legal,
                             const move_t *pool, int npool, const move_t *chosen, int nc)
{
    for (;;) {
        switch (rnd_int(s, 6)) {
        case 0: return MOVE_NONE;
        case 1:
        case 2: {
            move_t m = legal->moves[rnd_int(s, legal->count)];
            if (!is_noisy(pos, m))
                return m;
            break;
        }
        case 3: {
            move_t m = legal->moves[rnd_int(s, legal->count)];
            if (is_noisy(pos, m))
                return m;
            break;
        }
        case 4: return pool[rnd_int(s, npool)];
        default:
            if (nc)
                return chosen[rnd_int(s, nc)];
            break;
        }
    }
}

/* Runs `check` on every position with random histories and random TT
 * moves, killers and counter-moves, trials times per position. */
static void random_inputs(int trials, void (*check)(const Input *in, bool arg), bool arg)
{
    Tables tables[4];
    for (int i = 0; i < 4; i++)
        tables[i] = make_tables((uint64_t)i * 0x51ED27, 3);
    uint64_t s = 0xC0FFEE;
    int illegal_seen = 0;
    for (int pi = 0; pi < POSITION_COUNT; pi++) {
        Position *pos = new_pos(Positions[pi].fen, Positions[pi].c960);
        MoveList legal;
        gen_legal(pos, &legal);
        cr_assert_gt(legal.count, 0);
        move_t pool[256];
        int npool = garbage_pool(pos, &s, pool);
        for (int i = 0; i < npool; i++)
            illegal_seen += pos_is_pseudo_legal(pos, pool[i]);
        for (int trial = 0; trial < trials; trial++) {
            Input in = {.pos = pos, .t = tables[trial % 4]};
            const int mask = (trial / 4) % 4;
            in.t.cont[0] = mask & 1 ? in.t.cont[0] : NULL;
            in.t.cont[1] = mask & 2 ? in.t.cont[1] : NULL;
            move_t chosen[4];
            for (int k = 0; k < 4; k++)
                chosen[k] = random_special(&s, pos, &legal, pool, npool, chosen, k);
            in.tt = chosen[0];
            in.killers[0] = chosen[1];
            in.killers[1] = chosen[2];
            in.counter = chosen[3];
            in.no_killers = trial % 7 == 6;
            check(&in, arg);
        }
        free(pos);
    }
    cr_assert_gt(illegal_seen, 20, "too few pseudo-legal but illegal moves were tried");
    for (int i = 0; i < 4; i++)
        free(tables[i].hist);
}

/* Quiescence as the search calls it: no killers, no counter-move (see
 * quiescence_in_check_keeps_killers_and_counter for why). */
static void check_qsearch_arg(const Input *in, bool unused)
{
    (void)unused;
    Input q = *in;
    q.no_killers = true;
    q.counter = MOVE_NONE;
    check_qsearch(&q);
    /* Out of check they play no part anyway. */
    if (!pos_in_check(in->pos))
        check_qsearch(in);
}

/* mp_skip_quiets after the first k moves, for every k: the moves after it
 * are those the picker would have returned after them, without the quiet
 * ones (captures and promotions in the same order). */
static void check_skip(const Input *in, bool unused)
{
    (void)unused;
    move_t full[MAX_MOVES];
    const int n = pick_all(in, false, full);
    char ctx[400], a[8], b[8];
    for (int k = 0; k <= n; k++) {
        MovePicker mp;
        ContHist *cont[2] = {in->t.cont[0], in->t.cont[1]};
        mp_init(&mp, in->pos, in->t.hist, cont, in->tt, in->no_killers ? NULL : in->killers,
                in->counter, false);
        for (int i = 0; i < k; i++)
            cr_assert_eq(mp_next(&mp), full[i]);
        mp_skip_quiets(&mp);
        int j = k;
        move_t m;
        while ((m = mp_next(&mp)) != MOVE_NONE) {
            while (j < n && !is_noisy(in->pos, full[j]))
                j++;
            if (j == n || m != full[j]) {
                describe(in, ctx, sizeof ctx);
                cr_assert_fail("skip after %d moves: %s where %s was due (%s)", k,
                               name(in->pos, m, a), j == n ? "none" : name(in->pos, full[j], b),
                               ctx);
            }
            j++;
        }
        while (j < n && !is_noisy(in->pos, full[j]))
            j++;
        if (j < n) {
            describe(in, ctx, sizeof ctx);
            cr_assert_fail("skip after %d moves: %s is missing (%s)", k, name(in->pos, full[j], a),
                           ctx);
        }
        cr_assert_eq(mp_next(&mp), MOVE_NONE);
    }
}

Test(movepick, every_legal_move_exactly_once) { random_inputs(400, check_main, false); }

Test(movepick, skip_quiets_leaves_the_captures_in_order) { random_inputs(40, check_skip, false); }

Test(movepick, stages_in_order)
{
    random_inputs(400, check_main, true);
    for (int c = C_TT; c <= C_BAD; c++)
        cr_expect_gt(StageCount[c], 1000, "%s: %d moves", ClassName[c], StageCount[c]);
}

Test(movepick, quiescence_yields_captures_queen_promotions_or_evasions)
{
    random_inputs(150, check_qsearch_arg, false);
}

/* ------------------------------------------------------------------------ */
/* Hand-made cases                                                          */

Test(movepick, hand_made_order)
{
    Position *p = new_pos(HandMade, false);
    Input in = {.pos = p, .t = make_tables(0, 3)};
    History *h = in.t.hist;
    ContHist *c1 = &h->continuation[W_KNIGHT][SQ_F3], *c2 = &h->continuation[B_PAWN][SQ_D5];
    /* Quiet scores: Rh5 500 + 500 (both continuation histories), Qg4 900,
     * Kf2 600 - 100 + 300, castling 700; Qa1 -50, Qa4 -2000, the rest 0. */
    (*c1)[W_ROOK][SQ_H5] = 500;
    (*c2)[W_ROOK][SQ_H5] = 500;
    h->butterfly[WHITE][0][butterfly_index(mv(p, "d1g4"))] = 900;
    h->butterfly[WHITE][0][butterfly_index(mv(p, "e1f2"))] = 600;
    (*c1)[W_KING][SQ_F2] = -100;
    (*c2)[W_KING][SQ_F2] = 300;
    h->butterfly[WHITE][0][butterfly_index(mv(p, "e1g1"))] = 700;
    (*c1)[W_QUEEN][SQ_A1] = -50;
    h->butterfly[WHITE][0][butterfly_index(mv(p, "d1a4"))] = -2000;
    /* Qxd5 scores above exd5 but loses the queen: a bad capture. */
    h->capture[W_QUEEN][SQ_D5][PAWN] = 16000;
    in.tt = mv(p, "e1e2");
    in.killers[0] = mv(p, "h1h7");
    in.killers[1] = mv(p, "d1d3");
    in.counter = mv(p, "d1c2");

    static const char *const First[] = {"e1e2", "e4f5", "e4d5", "h1h7", "d1d3",
                                        "d1c2", "h1h5", "d1g4", "e1f2", "e1g1"};
    static const char *const Last[] = {"d1a1", "d1a4", "d1d5"};
    enum { NF = sizeof First / sizeof First[0], NL = sizeof Last / sizeof Last[0] };
    move_t got[MAX_MOVES];
    const int n = pick_all(&in, false, got);
    cr_assert_eq(n, 31);
    char a[8];
    for (int i = 0; i < NF; i++)
        cr_expect_eq(got[i], mv(p, First[i]), "move %d: %s, expected %s", i, name(p, got[i], a),
                     First[i]);
    for (int i = 0; i < NL; i++)
        cr_expect_eq(got[n - NL + i], mv(p, Last[i]), "move %d: %s, expected %s", n - NL + i,
                     name(p, got[n - NL + i], a), Last[i]);
    /* Between them the 18 quiet moves of score 0, in any order. */
    for (int i = NF; i < n - NL; i++)
        cr_expect(!is_noisy(p, got[i]) && quiet_score(p, &in.t, got[i]) == 0,
                  "move %d: %s, expected a quiet move of score 0", i, name(p, got[i], a));
    check_main(&in, true);
    free(in.t.hist);
    free(p);
}

/* Where m is in got[0..n), or -1. */
static int index_of(const move_t *got, int n, move_t m)
{
    for (int i = 0; i < n; i++)
        if (got[i] == m)
            return i;
    return -1;
}

/* The threats choose the butterfly table: a quiet move whose from or to
 * square the opponent attacks is scored by another table than one that
 * neither attacks (2 x from + to: 0 none, 1 the target, 2 the origin, 3
 * both). Here the knight on f5 attacks d4 and the pawn on d5 attacks e4. */
Test(movepick, threats_choose_the_butterfly_table)
{
    Position *p = new_pos(HandMade, false);
    Input in = {.pos = p, .t = make_tables(0, 0)};
    History *h = in.t.hist;
    const move_t qd4 = mv(p, "d1d4"), e5 = mv(p, "e4e5"), qg4 = mv(p, "d1g4");
    cr_assert_eq(pos_attacked_by(p, BLACK) & (sq_bb(SQ_D4) | sq_bb(SQ_E4) | sq_bb(SQ_E5)),
                 sq_bb(SQ_D4) | sq_bb(SQ_E4));
    h->butterfly[WHITE][0][butterfly_index(qd4)] = 900;
    h->butterfly[WHITE][0][butterfly_index(e5)] = 100;
    h->butterfly[WHITE][0][butterfly_index(qg4)] = 300;
    if (THREAT_SLOTS > 1) { /* slots 1, 2 and 3 (a build with only one has none) */
        *hist_butterfly(h, WHITE, sq_bb(SQ_D4), qd4) = -900;
        *hist_butterfly(h, WHITE, sq_bb(SQ_E4), e5) = 500;
        *hist_butterfly(h, WHITE, sq_bb(SQ_D1) | sq_bb(SQ_G4), qg4) = 5000;
    }
    move_t got[MAX_MOVES];
    const int n = pick_all(&in, false, got);
    if (THREAT_HIST) {
        cr_assert_lt(index_of(got, n, e5), index_of(got, n, qg4), "e5 (500) before Qg4 (300)");
        for (int i = index_of(got, n, qd4) + 1; i < n; i++)
            cr_assert(is_noisy(p, got[i]), "Qd4 (-900) is the last quiet move");
    } else
        cr_assert_lt(index_of(got, n, qd4), index_of(got, n, qg4), "Qd4 (900) first");
    MovePicker mp;
    mp_init(&mp, p, h, in.t.cont, MOVE_NONE, NULL, MOVE_NONE, false);
    cr_assert_eq(mp_threats(&mp), THREAT_HIST ? pos_attacked_by(p, BLACK) : 0);
    check_main(&in, true);
    free(in.t.hist);
    free(p);
}

Test(movepick, killers_and_counter_edge_cases)
{
    Position *p = new_pos(HandMade, false);
    const move_t rh7 = mv(p, "h1h7"), qd3 = mv(p, "d1d3"), qc2 = mv(p, "d1c2");
    const move_t exf5 = mv(p, "e4f5"), ke2 = mv(p, "e1e2"), castle = mv(p, "e1g1");
    const move_t blocked = move_make(SQ_D1, SQ_D6), theirs = move_make(SQ_F5, SQ_D4);
    const move_t bad_castle = move_make_kind(SQ_E1, SQ_A1, MOVE_CASTLING);
    const move_t flagged = (move_t)(rh7 | 0x3000);
    static const struct {
        const char *what;
        int tt, k1, k2, counter;      /* indices into Moves */
        int slot_k1, slot_k2, slot_c; /* which move each special stage returns (-1: none) */
    } Cases[] = {
        {"all distinct", 4, 0, 1, 2, 0, 1, 2},
        {"capture as killer 1", -1, 3, 1, 2, -1, 1, 2},
        {"capture as killer 2 and counter", -1, 0, 3, 3, 0, -1, -1},
        {"killer 1 = killer 2", -1, 0, 0, 2, 0, -1, 2},
        {"counter = killer 1", -1, 0, 1, 0, 0, 1, -1},
        {"counter = killer 2", -1, 0, 1, 1, 0, 1, -1},
        {"TT move = killer 1", 0, 0, 1, 2, -1, 1, 2},
        {"TT move = counter", 2, 0, 1, 2, 0, 1, -1},
        {"TT move = killers = counter", 0, 0, 0, 0, -1, -1, -1},
        {"blocked killer 1", -1, 6, 1, 2, -1, 1, 2},
        {"other side's move as killer 2", -1, 0, 7, 2, 0, -1, 2},
        {"castling to no rook as counter", -1, 0, 1, 8, 0, 1, -1},
        {"promotion bits on a quiet killer", -1, 9, 0, 2, -1, 0, 2},
        {"castling as killer 1", -1, 5, 0, 4, 5, 0, 4},
        {"null moves and none", 10, 10, 11, 12, -1, -1, -1},
        {"garbage TT move, killers none", 11, 12, 12, 1, -1, -1, 1},
    };
    const move_t Moves[] = {rh7,    qd3,        qc2,     exf5,      ke2,    castle,   blocked,
                            theirs, bad_castle, flagged, MOVE_NULL, 0xFFFF, MOVE_NONE};
    const move_t none = MOVE_NONE;
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        Input in = {.pos = p, .t = make_tables(0, 0)};
        in.tt = Cases[i].tt < 0 ? none : Moves[Cases[i].tt];
        in.killers[0] = Moves[Cases[i].k1];
        in.killers[1] = Moves[Cases[i].k2];
        in.counter = Moves[Cases[i].counter];
        check_main(&in, true);

        move_t got[MAX_MOVES];
        const int n = pick_all(&in, false, got);
        MoveList legal;
        gen_legal(p, &legal);
        /* The TT move first when legal; then the two good captures. */
        const int start = (in.tt && in_list(&legal, in.tt)) ? 1 : 0;
        cr_expect_eq(start == 1, got[0] == in.tt, "%s: TT move", Cases[i].what);
        int next = start + 2;
        const int slots[3] = {Cases[i].slot_k1, Cases[i].slot_k2, Cases[i].slot_c};
        char a[8], b[8];
        for (int k = 0; k < 3; k++) {
            if (slots[k] < 0)
                continue;
            cr_expect_eq(got[next], Moves[slots[k]], "%s: special stage %d returns %s, not %s",
                         Cases[i].what, k, name(p, got[next], a), name(p, Moves[slots[k]], b));
            next++;
        }
        /* What follows is a quiet move of no special stage (or a bad capture). */
        cr_expect(next >= n || is_noisy(p, got[next])
                      || (got[next] != in.killers[0] && got[next] != in.killers[1]
                          && got[next] != in.counter && got[next] != in.tt),
                  "%s: %s after the special stages", Cases[i].what, name(p, got[next], a));
        cr_expect_eq(index_of(got, n, exf5), start, "%s: exf5 is not the first good capture",
                     Cases[i].what);
        free(in.t.hist);
    }
    free(p);
}

Test(movepick, see_threshold_hand_made)
{
    /* Bxd5 loses 10 (knight for bishop), Rxb5 170 (bishop for rook): the
     * threshold, a 64th of the score, is -80 and -82 with no capture
     * history, and -64 and -98 at its extremes. */
    Position *p = new_pos("4k3/8/2p1p3/1b1n4/8/8/B7/1R2K3 w - - 0 1", false);
    const move_t bxn = mv(p, "a2d5"), rxb = mv(p, "b1b5");
    for (int extreme = 0; extreme < 2; extreme++) {
        Input in = {.pos = p, .t = make_tables(0, 3)};
        if (extreme) {
            in.t.hist->capture[W_BISHOP][SQ_D5][KNIGHT] = -HISTORY_MAX;
            in.t.hist->capture[W_ROOK][SQ_B5][BISHOP] = HISTORY_MAX;
        }
        move_t got[MAX_MOVES];
        const int n = pick_all(&in, false, got);
        cr_expect_eq(got[0], bxn, "Bxd5 is not the first move (extreme %d)", extreme);
        cr_expect_eq(got[n - 1], rxb, "Rxb5 is not the last move (extreme %d)", extreme);
        check_main(&in, true);
        free(in.t.hist);
    }
    free(p);
}

Test(movepick, chess960_castling_as_tt_move_and_killers)
{
    Position *p = new_pos("nrk1b1rq/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/NRK3RQ w GBgb - 0 1", true);
    /* King-takes-rook: c1g1 castles with the g-rook, c1b1 with the b-rook
     * (the king stays on c1). */
    const move_t oo = mv(p, "c1g1"), ooo = mv(p, "c1b1");
    cr_assert_eq(move_kind(oo), MOVE_CASTLING);
    cr_assert_eq(move_kind(ooo), MOVE_CASTLING);
    const move_t wrong = move_make_kind(SQ_C1, SQ_H1, MOVE_CASTLING);
    Input in = {.pos = p, .t = make_tables(7, 3)};
    in.killers[0] = oo;
    in.killers[1] = wrong;
    in.counter = ooo;
    move_t got[MAX_MOVES];
    int n = pick_all(&in, false, got);
    /* dxe5 is the only capture (a good one), then the castlings. */
    cr_expect_eq(got[0], mv(p, "d4e5"));
    cr_expect_eq(got[1], oo);
    cr_expect_eq(got[2], ooo);
    cr_expect_eq(index_of(got, n, wrong), -1);
    check_main(&in, true);

    in.tt = ooo;
    n = pick_all(&in, false, got);
    cr_expect_eq(got[0], ooo);
    cr_expect_eq(got[1], mv(p, "d4e5"));
    cr_expect_eq(got[2], oo);
    cr_expect_eq(index_of(got + 1, n - 1, ooo), -1, "the TT move came twice");
    check_main(&in, true);
    free(in.t.hist);
    free(p);
}

Test(movepick, quiescence_hand_made)
{
    /* Quiet, capturing and under-promotions, an e.p. capture. */
    Position *p = new_pos("r1n1k2r/1P4P1/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1", false);
    Input in = {.pos = p, .t = make_tables(3, 3), .no_killers = true};
    static const char *const Want[] = {"b7a8q", "b7c8q", "b7b8q", "g7h8q",
                                       "g7g8q", "e5d6",  "a1a8",  "h1h8"};
    MoveList want;
    want.count = 0;
    for (size_t i = 0; i < sizeof Want / sizeof Want[0]; i++)
        want.moves[want.count++] = mv(p, Want[i]);
    move_t got[MAX_MOVES];
    int n = pick_all(&in, true, got);
    check_exactly(&in, &want, got, n, "quiescence");
    check_qsearch(&in);

    /* A quiet TT move is dropped; an under-promotion as TT move comes first;
     * killers and counter-move play no part. */
    in.tt = mv(p, "a1a7");
    in.no_killers = false;
    in.killers[0] = mv(p, "h1h7");
    in.killers[1] = mv(p, "e1d2");
    in.counter = mv(p, "e5e6");
    n = pick_all(&in, true, got);
    check_exactly(&in, &want, got, n, "quiescence, quiet TT move");
    in.tt = mv(p, "b7a8n");
    n = pick_all(&in, true, got);
    cr_expect_eq(n, 9);
    cr_expect_eq(got[0], in.tt);
    check_qsearch(&in);

    /* In check (from the rook on e8 and the bishop on b4): only king moves. */
    Position *q = new_pos("4r1k1/8/8/8/1b6/8/8/R3K2R w KQ - 0 1", false);
    Input inq = {.pos = q, .t = make_tables(5, 1), .no_killers = true};
    n = pick_all(&inq, true, got);
    cr_expect_eq(n, 3);
    check_qsearch(&inq);
    /* A quiet evasion as TT move comes first. */
    inq.tt = mv(q, "e1f2");
    n = pick_all(&inq, true, got);
    cr_expect_eq(n, 3);
    cr_expect_eq(got[0], inq.tt);
    check_qsearch(&inq);

    /* In check from a pawn that e.p. takes. */
    Position *r = new_pos("8/8/8/2k5/3Pp3/8/5N2/4K2R b K d3 0 1", false);
    Input inr = {.pos = r, .t = make_tables(0, 0), .no_killers = true};
    n = pick_all(&inr, true, got);
    cr_expect_eq(n, 9);
    /* The e.p. capture scores 16 x a pawn, Kxd4 too: both before the quiet moves. */
    cr_expect(is_noisy(r, got[0]) && is_noisy(r, got[1]));
    cr_expect_neq(index_of(got, 2, mv(r, "e4d3")), -1);
    check_qsearch(&inr);
    free(in.t.hist);
    free(inq.t.hist);
    free(inr.t.hist);
    free(p);
    free(q);
    free(r);
}

/* In quiescence in check, killers and a counter-move given to the picker
 * must not keep those quiet evasions out: quiescence has no stage for them,
 * so they come with the other quiets. */
Test(movepick, quiescence_in_check_keeps_killers_and_counter)
{
    Position *p = new_pos("4r1k1/8/8/8/1b6/8/8/R3K2R w KQ - 0 1", false);
    Input in = {.pos = p, .t = make_tables(0, 0)};
    in.killers[0] = mv(p, "e1f2");
    in.killers[1] = mv(p, "e1d1");
    in.counter = mv(p, "e1f1");
    check_qsearch(&in);
    free(in.t.hist);
    free(p);
}
