/* Evaluation: colour symmetry on every position of the perft suites and of
 * random games from them, dead positions scored 0, an eval that stays
 * inside the score range, and the tuner's trace: the evaluation rebuilt from
 * the trace's coefficients and the weight table equals eval_position, and
 * eval_position with the pawn hash equals it without. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/positions.h"
#include "../eval/eval.h"
#include "../eval/trace.h"
#include "../movegen/movegen.h"
#include "../movegen/score.h"

static void setup(void) { movegen_init(); }

TestSuite(eval, .init = setup);

/* The colour-flipped mirror of a FEN: ranks reversed, colours swapped, the
 * other side to move, castling letters and the e.p. rank mirrored. */
static void mirror_fen(const char *fen, char *out, size_t n)
{
    char board[128], side[8], castle[16], ep[8], rest[64] = "";
    cr_assert(sscanf(fen, "%127s %7s %15s %7s %63[^\n]", board, side, castle, ep, rest) >= 4,
              "bad FEN %s", fen);
    char ranks[8][16];
    int r = 0;
    for (char *tok = strtok(board, "/"); tok && r < 8; tok = strtok(NULL, "/"))
        snprintf(ranks[r++], sizeof ranks[0], "%s", tok);
    cr_assert_eq(r, 8);
    char flipped[128] = "";
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = isupper((unsigned char)*c) ? (char)tolower((unsigned char)*c)
                                            : (char)toupper((unsigned char)*c);
        strcat(flipped, ranks[i]);
        if (i)
            strcat(flipped, "/");
    }
    for (char *c = castle; *c; c++)
        if (*c != '-')
            *c = isupper((unsigned char)*c) ? (char)tolower((unsigned char)*c)
                                            : (char)toupper((unsigned char)*c);
    if (ep[0] != '-')
        ep[1] = (char)('1' + '8' - ep[1]);
    snprintf(out, n, "%s %s %s %s %s", flipped, side[0] == 'w' ? "b" : "w", castle, ep, rest);
}

/* A new position set from a FEN (the test fails on a bad one); free it. */
static Position *fen_position(const char *fen, bool c960)
{
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    char err[200];
    cr_assert(pos_set_fen(pos, fen, c960, err, sizeof err), "%s: %s", fen, err);
    return pos;
}

static int eval_fen(const char *fen, bool c960)
{
    Position *pos = fen_position(fen, c960);
    int v = eval_position(pos, NULL);
    free(pos);
    return v;
}

/* The mop-up bonus of a FEN (White's view). */
static int eval_mop_up_fen(const char *fen)
{
    Position *pos = fen_position(fen, false);
    int v = eval_mop_up(pos);
    free(pos);
    return v;
}

static int check_suite(const char *path, bool c960, int walk_plies)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot open %s", path);
    char line[512];
    int checked = 0;
    unsigned seed = 12345;
    Position *pos = calloc(1, sizeof *pos);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, ";\r\n")] = '\0';
        char err[200], fen[128], mir[160];
        if (!pos_set_fen(pos, line, c960, err, sizeof err))
            continue;
        /* The position itself and a short random walk from it. */
        for (int ply = 0; ply <= walk_plies; ply++) {
            pos_get_fen(pos, fen, sizeof fen);
            mirror_fen(fen, mir, sizeof mir);
            int a = eval_fen(fen, c960), b = eval_fen(mir, c960);
            cr_assert_eq(a, b, "eval %d for %s but %d for its mirror %s", a, fen, b, mir);
            cr_assert(a > SCORE_MATED_IN_MAX && a < SCORE_MATE_IN_MAX, "eval %d out of range", a);
            checked++;
            MoveList list;
            gen_legal(pos, &list);
            if (!list.count)
                break;
            seed = seed * 1103515245u + 12345u;
            pos_make_game_move(pos, list.moves[(seed >> 16) % (unsigned)list.count]);
        }
    }
    fclose(f);
    free(pos);
    return checked;
}

Test(eval, colour_symmetry)
{
    int n = check_suite("perft/standard.epd", false, 8);
    n += check_suite("perft/tricky.epd", false, 8);
    n += check_suite("perft/chess960.epd", true, 2);
    cr_assert(n > 3000, "only %d positions checked", n);
}

Test(eval, dead_positions_score_zero)
{
    static const char *const Dead[] = {
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1", "8/8/4k3/8/8/3KB3/8/8 b - - 0 1",
        "8/8/4k3/8/3n4/3K4/8/8 w - - 0 1",
        "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1", /* both bishops on dark squares */
    };
    for (size_t i = 0; i < sizeof Dead / sizeof *Dead; i++)
        cr_assert_eq(eval_fen(Dead[i], false), 0, "%s is dead but scores %d", Dead[i],
                     eval_fen(Dead[i], false));
}

Test(eval, lone_king_endings_lead_to_the_mate)
{
    /* K+B+N v K with a dark-squared bishop (c1): the mate is in a1 or h8. The
     * lone king in the right corner scores more than in the wrong one or in
     * the centre, and every position scores as its colour-flipped mirror. */
    const char *right = "8/8/8/8/8/4K3/8/k1B1N3 w - - 0 1";
    const char *wrong = "k7/8/8/8/8/4K3/8/2B1N3 w - - 0 1";
    const char *centre = "8/8/8/3k4/8/4K3/8/2B1N3 w - - 0 1";
    int r = eval_fen(right, false), w = eval_fen(wrong, false), c = eval_fen(centre, false);
    cr_expect(r > w && r > c && w > 5000 && c > 5000, "KBNK: right corner %d, wrong %d, centre %d",
              r, w, c);
    /* A lone king on the edge scores more for the side with the rook, and near
     * the attacking king more than far from it. */
    int edge = eval_fen("4k3/8/4K3/8/8/8/8/R7 w - - 0 1", false);
    int mid = eval_fen("8/8/8/4k3/8/4K3/8/R7 w - - 0 1", false);
    int far = eval_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false);
    cr_expect(edge > mid && edge > far, "KRK: edge %d, centre %d, kings apart %d", edge, mid, far);
    const char *const Fens[] = {right,
                                wrong,
                                centre,
                                "4k3/8/4K3/8/8/8/8/R7 b - - 0 1",
                                "8/8/2k5/8/8/8/8/2BBK3 w - - 0 1",
                                "8/3k4/8/8/8/8/3QP3/4K3 b - - 0 1"};
    for (size_t i = 0; i < sizeof Fens / sizeof *Fens; i++) {
        char mir[128];
        mirror_fen(Fens[i], mir, sizeof mir);
        cr_expect_eq(eval_fen(Fens[i], false), eval_fen(mir, false), "%s and %s", Fens[i], mir);
    }
    /* The side to move's view: Black to move against the rook scores negative. */
    cr_expect(eval_fen("4k3/8/4K3/8/8/8/8/R7 b - - 0 1", false) < -5000);
    /* Two knights cannot force mate: nearly a draw, not a known win. */
    int nn = eval_fen("8/8/3k4/8/8/8/8/1NN1K3 w - - 0 1", false);
    cr_expect(nn >= 0 && nn < 200, "KNNK scores %d", nn);
}

Test(eval, mop_up_drives_the_weaker_king_to_the_edge)
{
    /* K+Q v K+R, White stronger: more when the black king is on the edge
     * than in the centre, and more with the kings near. */
    int edge = eval_mop_up_fen("3rk3/8/4K3/8/8/8/8/Q7 w - - 0 1");
    int centre = eval_mop_up_fen("8/8/4K3/4r3/3k4/8/8/7Q w - - 0 1");
    int apart = eval_mop_up_fen("3rk3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    cr_expect(edge > centre && centre > 0, "KQKR: edge %d, centre %d", edge, centre);
    cr_expect(edge > apart && apart > 0, "KQKR: kings near %d, apart %d", edge, apart);
    /* Black stronger: the same bonus, negative (White's view); the side to
     * move does not change it. */
    cr_expect_eq(eval_mop_up_fen("q7/8/8/8/8/4k3/8/3RK3 w - - 0 1"),
                 -eval_mop_up_fen("3rk3/8/4K3/8/8/8/8/Q7 b - - 0 1"), "mirror");
    /* None: with a pawn, a lone king (eval_lone_king's), an edge below a
     * rook (K+R v K+B), more than six pieces. */
    static const char *const None[] = {
        "3rk3/8/4K3/8/8/8/P7/Q7 w - - 0 1", "4k3/8/4K3/8/8/8/8/Q7 w - - 0 1",
        "3bk3/8/4K3/8/8/8/8/R7 w - - 0 1", "2nrk3/8/4K3/8/8/8/8/QRB5 w - - 0 1"};
    for (size_t i = 0; i < sizeof None / sizeof *None; i++)
        cr_expect_eq(eval_mop_up_fen(None[i]), 0, "%s", None[i]);
}

/* The scale of material that cannot win, for the side the score favours. */
static int material_scale_fen(const char *fen, int strong)
{
    Position *pos = fen_position(fen, false);
    int v = eval_material_scale(pos, strong);
    free(pos);
    return v;
}

Test(eval, material_that_cannot_win_is_scaled)
{
    static const struct {
        const char *fen;
        int strong, scale;
    } Cases[] = {
        /* Without pawns: two knights, an edge below a rook, a lone minor. */
        {"8/8/3k4/8/8/8/8/1NN1K3 w - - 0 1", WHITE, 8},
        {"1nn1k3/8/8/8/8/3K4/8/8 b - - 0 1", BLACK, 8},
        {"4k3/8/8/8/8/8/2b5/R3K3 w - - 0 1", WHITE, 16},   /* KRvKB */
        {"4k3/8/8/8/8/8/3r4/R3K3 w - - 0 1", WHITE, 16},   /* KRvKR */
        {"4k3/8/8/8/8/8/3n4/1N1BK3 w - - 0 1", WHITE, 16}, /* KBNvKN */
        {"8/8/8/4k3/8/8/p7/1N2K3 w - - 0 1", WHITE, 0},    /* KNvKP */
        {"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", WHITE, 0},
        /* Winning material stays whole. */
        {"4k3/8/8/8/8/8/3r4/Q3K3 w - - 0 1", WHITE, 64}, /* KQvKR */
        {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", WHITE, 64},
        {"4k3/8/8/8/8/8/8/1B1BK3 w - - 0 1", WHITE, 64},
        {"4k3/8/8/8/8/8/8/1N1BK3 w - - 0 1", WHITE, 64},
        {"4k3/8/8/8/8/8/P7/1N2K3 w - - 0 1", WHITE, 64}, /* a pawn can promote */
        /* A bishop of the wrong colour for its rook pawns, the lone king
         * on or next to the corner: a draw, either side, either corner. */
        {"k7/8/P7/8/1K6/8/8/6B1 w - - 0 1", WHITE, 0}, /* dark bishop, a8 light */
        {"8/1k6/P7/P7/1K6/8/8/6B1 b - - 0 1", WHITE, 0},
        {"7k/8/7P/8/6K1/8/8/5B2 w - - 0 1", WHITE, 0}, /* light bishop, h8 dark */
        {"8/8/8/8/8/7p/1k6/4b2K b - - 0 1", BLACK, 0}, /* dark bishop, h1 light */
        /* Rook pawns alone against the cornered king: a draw too. */
        {"k7/8/P7/8/2K5/8/8/8 w - - 0 1", WHITE, 0},
        {"1k6/8/P7/P7/2K5/8/8/8 w - - 0 1", WHITE, 0},
        {"8/8/8/8/8/2k4p/8/7K b - - 0 1", BLACK, 0},
        {"8/8/1k6/8/P7/8/8/2K5 w - - 0 1", WHITE, 64}, /* the king two squares away */
        /* The same, but not a draw: the king away, the right bishop, a pawn
         * off the rook file, another piece, or the defender's own pawn. */
        {"8/8/P7/8/1K6/8/3k4/6B1 w - - 0 1", WHITE, 64},
        {"k7/8/P7/8/1K6/8/8/5B2 w - - 0 1", WHITE, 64},
        {"k7/8/PP6/8/1K6/8/8/6B1 w - - 0 1", WHITE, 64},
        {"k7/8/P7/8/1K6/8/8/4N1B1 w - - 0 1", WHITE, 64},
        {"k7/8/P7/8/1K6/7p/8/6B1 w - - 0 1", WHITE, 64},
    };
    for (size_t i = 0; i < sizeof Cases / sizeof *Cases; i++)
        cr_expect_eq(material_scale_fen(Cases[i].fen, Cases[i].strong), Cases[i].scale, "%s",
                     Cases[i].fen);
}

/* The net's evaluation (the built-in net) takes the scale whole, and its
 * sign only from the net: KNNvK is near a draw whatever the net says. */
Test(eval, the_nets_evaluation_is_scaled)
{
    size_t size;
    const uint8_t *data = nnue_embedded(&size);
    if (!data)
        cr_skip_test("no built-in net");
    char err[200];
    NnueNet *net = nnue_net_load(data, size, err, sizeof err);
    cr_assert_not_null(net, "%s", err);
    NnueStack *st = aligned_alloc(64, sizeof *st); /* its members are 64-byte aligned */
    Position *pos = calloc(1, sizeof *pos);
    cr_assert(st && pos);
    static const char *const Fens[] = {
        "8/8/3k4/8/8/8/8/1NN1K3 w - - 0 1",
        "8/8/3k4/8/8/8/8/1NN1K3 b - - 0 1",
        "k7/8/P7/8/1K6/8/8/6B1 w - - 0 1",
        "4k3/8/8/8/8/8/2b5/R3K3 b - - 0 1",
        "4k3/8/8/8/8/8/3r4/Q3K3 w - - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    };
    for (size_t i = 0; i < sizeof Fens / sizeof *Fens; i++) {
        cr_assert(pos_set_fen(pos, Fens[i], false, err, sizeof err), "%s", err);
        nnue_reset(st, net, pos);
        const int raw = nnue_evaluate_scratch(net, pos);
        const int strong = raw > 0 ? pos->side : !pos->side;
        int expect = raw * eval_net_scale(pos, strong) / 64;
        if (!pos->by_type[PAWN])
            expect += pos->side == WHITE ? eval_mop_up(pos) : -eval_mop_up(pos);
        cr_expect_eq(eval_nnue(pos, st), expect, "%s: net %d", Fens[i], raw);
        if (i < 2)
            cr_expect(abs(eval_nnue(pos, st)) <= abs(raw) / 4, "%s: KNNvK %d", Fens[i],
                      eval_nnue(pos, st));
    }
    free(pos);
    free(st);
    nnue_net_free(net);
}

Test(eval, material_points_the_right_way)
{
    /* A queen up is clearly better for the side that has it, from both sides. */
    int w = eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false);
    int b = eval_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", false);
    cr_assert(w > 500 && b < -500, "queen up: %d (white to move), %d (black to move)", w, b);
}

/* The evaluation rebuilt from a trace as eval/README.md specifies it,
 * written out here independently of eval_from_trace. */
static int rebuild(const EvalTrace *tr)
{
    if (tr->dead)
        return 0;
    if (tr->fixed)
        return tr->fixed;
    long mg = 0, eg = 0;
    for (int i = 0; i < N_WEIGHTS; i++) {
        if (i == W_TEMPO)
            continue;
        mg += (long)mg_value(EvalW[i]) * tr->coef[i];
        eg += (long)eg_value(EvalW[i]) * tr->coef[i];
    }
    /* The king danger: a capped square of the mg sum, the eg sum as it is. */
    for (int c = WHITE; c <= BLACK; c++) {
        long d = 0, e = 0;
        for (int k = 0; k < KD_NB; k++) {
            d += (long)mg_value(EvalW[W_KING_DANGER + k]) * tr->kd[c][k];
            e += (long)eg_value(EvalW[W_KING_DANGER + k]) * tr->kd[c][k];
        }
        if (d < 0)
            d = 0;
        if (d > 1000)
            d = 1000;
        mg += (c == WHITE ? 1 : -1) * (d * d / 512);
        eg += c == WHITE ? e : -e;
    }
    /* The complexity: eg moves by C away from 0, or toward it but not past;
     * mg moves toward 0 by -M when M < 0, not past it. */
    long cx = 0, cm = 0;
    for (int k = 0; k < CX_NB; k++) {
        cx += (long)eg_value(EvalW[W_COMPLEXITY + k]) * tr->cx[k];
        cm += (long)mg_value(EvalW[W_COMPLEXITY + k]) * tr->cx[k];
    }
    if (eg > 0)
        eg = cx < -eg ? 0 : eg + cx;
    else if (eg < 0)
        eg = cx < eg ? 0 : eg - cx;
    if (cm < 0 && mg > 0)
        mg = mg + cm < 0 ? 0 : mg + cm;
    else if (cm < 0 && mg < 0)
        mg = mg - cm > 0 ? 0 : mg - cm;
    int scale = tr->scale[eg > 0 ? WHITE : BLACK];
    long egs = eg * scale / 64;
    long white = (mg * tr->phase + egs * (24 - tr->phase)) / 24;
    return (int)(tr->side == WHITE ? white : -white) + mg_value(EvalW[W_TEMPO]);
}

/* Piece-square entries of pawns on the first and last ranks, and a pawn on
 * the 2nd rank defended by a pawn. */
static bool impossible_weight(int i)
{
    return (i >= W_PSQT && i < W_PSQT + 64 && ((i - W_PSQT) < 8 || (i - W_PSQT) >= 56))
           || i == W_SUPPORTED;
}

typedef struct {
    int positions, dead, scaled, endgame;
    int nonzero[N_WEIGHTS]; /* positions where the weight's coefficient is not 0 */
    int kd_nonzero[KD_NB];  /* positions where a king-danger feature is not 0 */
    int kd_active;          /* positions where a side's king danger scores */
    int cx_nonzero[CX_NB];  /* positions where a complexity feature is not 0 */
} TraceStats;

/* The pawn table of the trace checks (a search thread has one). */
static PawnTable Pawns;

static void check_trace(Position *pos, TraceStats *st)
{
    EvalTrace tr, mtr;
    char fen[128], mir[160], err[200];
    int v = eval_position(pos, &Pawns);
    pos_get_fen(pos, fen, sizeof fen);
    /* The pawn hash changes nothing, whether the entry was just written or
     * found (the second call always finds it). */
    cr_assert_eq(eval_position(pos, NULL), v, "%s: %d without the pawn hash, %d with it", fen,
                 eval_position(pos, NULL), v);
    cr_assert_eq(eval_position(pos, &Pawns), v, "%s: %d then %d", fen, v,
                 eval_position(pos, &Pawns));
    memset(&tr, 0x5a, sizeof tr); /* every field must be written */
    int vt = eval_position_traced(pos, &tr);
    cr_assert_eq(vt, v, "%s: traced eval %d, eval %d", fen, vt, v);
    cr_assert_eq(eval_from_trace(&tr, EvalW), v, "%s: eval_from_trace %d, eval %d", fen,
                 eval_from_trace(&tr, EvalW), v);
    cr_assert_eq(rebuild(&tr), v, "%s: rebuilt %d, eval %d", fen, rebuild(&tr), v);
    cr_assert_eq(tr.coef[W_TEMPO], pos->side == WHITE ? 1 : -1);
    cr_assert(tr.phase >= 0 && tr.phase <= 24);
    cr_assert_eq(tr.coef[W_MATERIAL + KING - PAWN], 0);

    /* The mirrored position has the negated coefficients and swapped scales. */
    mirror_fen(fen, mir, sizeof mir);
    Position *m = calloc(1, sizeof *m);
    cr_assert(pos_set_fen(m, mir, pos->chess960, err, sizeof err), "%s: %s", mir, err);
    cr_assert_eq(eval_position_traced(m, &mtr), v);
    for (int i = 0; i < N_WEIGHTS; i++)
        cr_assert_eq(mtr.coef[i], -tr.coef[i], "%s: weight %d: %d, mirror %d", fen, i, tr.coef[i],
                     mtr.coef[i]);
    cr_assert_eq(mtr.scale[WHITE], tr.scale[BLACK]);
    cr_assert_eq(mtr.scale[BLACK], tr.scale[WHITE]);
    cr_assert_eq(mtr.phase, tr.phase);
    for (int c = WHITE; c <= BLACK; c++)
        for (int k = 0; k < KD_NB; k++)
            cr_assert_eq(mtr.kd[!c][k], tr.kd[c][k], "%s: king-danger feature %d", fen, k);
    for (int k = 0; k < CX_NB; k++)
        cr_assert_eq(mtr.cx[k], tr.cx[k], "%s: complexity feature %d", fen, k);
    free(m);

    st->positions++;
    st->dead += tr.dead;
    st->scaled += tr.scale[WHITE] != 64 || tr.scale[BLACK] != 64;
    st->endgame += tr.phase < 8;
    for (int i = 0; i < N_WEIGHTS; i++)
        st->nonzero[i] += tr.coef[i] != 0;
    for (int c = WHITE; c <= BLACK; c++) {
        for (int k = 0; k < KD_NB; k++)
            st->kd_nonzero[k] += tr.kd[c][k] != 0;
        st->kd_active += mg_value(king_danger(tr.kd[c], EvalW)) > 0;
    }
    for (int k = 0; k < CX_NB; k++)
        st->cx_nonzero[k] += tr.cx[k] != 0;
}

/* The position, then a random game from it of up to `plies` plies. */
static void trace_walk(Position *pos, int plies, unsigned *seed, TraceStats *st)
{
    for (int ply = 0; ply <= plies; ply++) {
        check_trace(pos, st);
        MoveList list;
        gen_legal(pos, &list);
        if (!list.count)
            return;
        *seed = *seed * 1103515245u + 12345u;
        pos_make_game_move(pos, list.moves[(*seed >> 16) % (unsigned)list.count]);
    }
}

static void trace_suite(const char *path, bool c960, int every, int plies, unsigned *seed,
                        TraceStats *st)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot open %s", path);
    char line[512], err[200];
    Position *pos = calloc(1, sizeof *pos);
    for (int n = 0; fgets(line, sizeof line, f);) {
        line[strcspn(line, ";\r\n")] = '\0';
        if (pos_set_fen(pos, line, c960, err, sizeof err) && n++ % every == 0)
            trace_walk(pos, plies, seed, st);
    }
    fclose(f);
    free(pos);
}

Test(eval, trace_rebuilds_the_eval_exactly)
{
    TraceStats st = {0};
    unsigned seed = 2024;
    char err[200];
    Position *pos = calloc(1, sizeof *pos);
    int nb = (int)(sizeof BenchFens / sizeof BenchFens[0]);
    for (int i = 0; i < nb; i++) {
        cr_assert(pos_set_fen(pos, BenchFens[i], i >= nb - 4, err, sizeof err), "%s", err);
        trace_walk(pos, 30, &seed, &st);
    }
    trace_suite("perft/standard.epd", false, 1, 20, &seed, &st);
    trace_suite("perft/tricky.epd", false, 1, 20, &seed, &st);
    trace_suite("perft/chess960.epd", true, 8, 10, &seed, &st);
    /* Long random games reach the endings: scale factors and dead positions. */
    for (int g = 0; g < 60; g++) {
        pos_set_startpos(pos);
        trace_walk(pos, 400, &seed, &st);
    }
    free(pos);
    cr_log_info("trace: %d positions, %d dead, %d scaled, %d with phase < 8", st.positions, st.dead,
                st.scaled, st.endgame);
    cr_assert(st.positions > 5000, "only %d positions", st.positions);
    cr_assert(st.dead > 0 && st.scaled > 0 && st.endgame > 100,
              "dead %d, scaled %d, endgame %d positions", st.dead, st.scaled, st.endgame);
    /* Every weight but the king's material and the impossible ones was exercised. */
    for (int i = 0; i < N_WEIGHTS; i++)
        if (i != W_MATERIAL + KING - PAWN && !impossible_weight(i)
            && (i < W_KING_DANGER || i >= W_COMPLEXITY + CX_NB))
            cr_assert(st.nonzero[i] > 0, "weight %d never had a coefficient", i);
    /* The king danger's weights have no linear coefficient; their features
     * all occur, and the danger scores in some positions. */
    for (int i = W_KING_DANGER; i < W_KING_DANGER + KD_NB; i++)
        cr_assert_eq(st.nonzero[i], 0, "king-danger weight %d has a linear coefficient", i);
    for (int k = 0; k < KD_NB; k++)
        cr_assert(st.kd_nonzero[k] > 0, "king-danger feature %d never occurred", k);
    cr_assert(st.kd_active > 0, "the king danger never scored");
    for (int i = W_COMPLEXITY; i < W_COMPLEXITY + CX_NB; i++)
        cr_assert_eq(st.nonzero[i], 0, "complexity weight %d has a linear coefficient", i);
    for (int k = 0; k < CX_NB; k++)
        cr_assert(st.cx_nonzero[k] > 0, "complexity feature %d never occurred", k);
    for (int i = 0; i < N_WEIGHTS; i++)
        if (impossible_weight(i))
            cr_assert_eq(st.nonzero[i], 0, "weight %d cannot occur", i);
}
