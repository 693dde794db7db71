/* Syzygy prober tests: WDL and DTZ of every position of the reference file
 * (../shared/data/syzygy/reference.epd, values from an independent prober),
 * and the prober's behaviour with broken and missing tables and with several
 * threads probing at once. The tables are read from ../shared/data/syzygy
 * (ROKADE_SYZYGY overrides it); the tests skip, saying so, where absent. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/datagen.h"
#include "../eval/syzygy/tbprobe.h"
#include "../movegen/movegen.h"
#include "../movegen/score.h"
#include "../movegen/util.h"
#include "../search/search.h"
#include "harness.h"
#include "tb_reference.h"

static const char *tb_dir(void) { return tb_ref_dir(); }

static TbRefLine *Ref;
static int RefCount;

/* Reads reference.epd once; false when it is absent. */
static bool ref_load(void)
{
    if (!RefCount) {
        free(Ref);
        RefCount = tb_ref_load(tb_dir(), &Ref);
    }
    return RefCount > 0;
}

static void setup(void)
{
    harness_setup(); /* the UCI test's engine; movegen_init */
    if (!ref_load())
        cr_skip_test("no Syzygy test tables at %s (set ROKADE_SYZYGY)", tb_dir());
    cr_assert_gt(tb_init(tb_dir()), 0, "no tables found at %s", tb_dir());
}

static void teardown(void)
{
    tb_free();
    harness_teardown();
}

TestSuite(syzygy, .init = setup, .fini = teardown, .timeout = 300);

Test(syzygy, finds_tables)
{
    cr_expect_geq(tb_wdl_count(), 41);
    cr_expect_geq(tb_dtz_count(), 41);
    cr_expect_eq(tb_max_pieces(), 5);
}

Test(syzygy, wdl_of_every_reference_position)
{
    int agree = 0;
    for (int i = 0; i < RefCount; i++) {
        Position pos;
        char err[128];
        cr_assert(pos_set_fen(&pos, Ref[i].fen, false, err, sizeof err), "%s: %s", Ref[i].fen, err);
        int wdl = 99;
        bool ok = tb_probe_wdl(&pos, &wdl);
        cr_expect(ok, "no WDL for %s", Ref[i].fen);
        cr_expect_eq(wdl, Ref[i].wdl, "WDL of %s (%s): %d, reference %d", Ref[i].fen, Ref[i].table,
                     wdl, Ref[i].wdl);
        agree += ok && wdl == Ref[i].wdl;
    }
    cr_log_info("WDL: %d of %d reference positions agree", agree, RefCount);
    cr_assert_eq(agree, RefCount);
}

Test(syzygy, dtz_of_every_reference_position)
{
    int agree = 0;
    for (int i = 0; i < RefCount; i++) {
        Position pos;
        char err[128];
        cr_assert(pos_set_fen(&pos, Ref[i].fen, false, err, sizeof err));
        int dtz = 9999;
        bool ok = tb_probe_dtz(&pos, &dtz);
        cr_expect(ok, "no DTZ for %s", Ref[i].fen);
        cr_expect_eq(dtz, Ref[i].dtz, "DTZ of %s (%s): %d, reference %d", Ref[i].fen, Ref[i].table,
                     dtz, Ref[i].dtz);
        agree += ok && dtz == Ref[i].dtz;
    }
    cr_log_info("DTZ: %d of %d reference positions agree", agree, RefCount);
    cr_assert_eq(agree, RefCount);
}

/* ---- consistency with the children, on random positions ---- */

/* A random legal position of table `name` (e.g. KRPvKR, first side white),
 * some of them with the first pieces on the long diagonal (the rare cases of
 * the index); false when none was found in a few tries. */
static bool random_position(const char *name, uint64_t *rng, Position *pos)
{
    static const char Letters[] = "KQRBNP";
    for (int attempt = 0; attempt < 100; attempt++) {
        char board[64];
        memset(board, 0, sizeof board);
        int side = 0, placed = 0;
        bool ok = true;
        for (const char *c = name; *c && ok; c++) {
            if (*c == 'v') {
                side = 1;
                continue;
            }
            char piece = side ? (char)(*c - 'A' + 'a') : *c;
            bool diagonal = rng_next(rng) % 3 == 0 && placed < 3;
            int sq = 0;
            for (int t = 0; t < 200; t++) {
                sq = diagonal ? (int)(rng_next(rng) % 8) * 9 : (int)(rng_next(rng) % 64);
                if (!board[sq] && !(*c == 'P' && (sq < 8 || sq >= 56)))
                    break;
            }
            ok = !board[sq] && strchr(Letters, *c) && !(*c == 'P' && (sq < 8 || sq >= 56));
            board[sq] = piece;
            placed++;
        }
        if (!ok)
            continue;
        char fen[100];
        int n = 0;
        for (int r = 7; r >= 0; r--) {
            int empty = 0;
            for (int f = 0; f < 8; f++) {
                char p = board[r * 8 + f];
                if (!p) {
                    empty++;
                    continue;
                }
                if (empty)
                    fen[n++] = (char)('0' + empty);
                empty = 0;
                fen[n++] = p;
            }
            if (empty)
                fen[n++] = (char)('0' + empty);
            if (r)
                fen[n++] = '/';
        }
        snprintf(fen + n, sizeof fen - (size_t)n, " %c - - 0 1", rng_next(rng) & 1 ? 'b' : 'w');
        char err[128];
        if (pos_set_fen(pos, fen, false, err, sizeof err))
            return true;
    }
    return false;
}

/* Checks a position's WDL and DTZ against those of its children: a win has
 * a move to a lost position, a loss (or a draw) no move to anything better,
 * and the DTZ is the best child's plus one, to within the tables' rounding
 * of one ply. Returns false (with a message) at the first disagreement. */
static bool consistent(Position *pos, char *why, size_t len)
{
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    int wdl, dtz;
    if (!tb_probe_wdl(pos, &wdl) || !tb_probe_dtz(pos, &dtz)) {
        snprintf(why, len, "%s: no probe", fen);
        return false;
    }
    MoveList list;
    gen_legal(pos, &list);
    if (list.count == 0) {
        int want = pos_in_check(pos) ? TB_LOSS : TB_DRAW;
        snprintf(why, len, "%s: no moves, WDL %d DTZ %d", fen, wdl, dtz);
        return wdl == want && dtz == (want ? -1 : 0);
    }
    int best = -3, best_zeroing = -3, win_d = 1000, loss_d = 0;
    for (int i = 0; i < list.count; i++) {
        const move_t m = list.moves[i];
        const bool zeroing = pos_is_capture(pos, m) || piece_type(pos->board[move_from(m)]) == PAWN;
        pos_make_move(pos, m);
        int cw, cd;
        bool ok = tb_probe_wdl(pos, &cw) && tb_probe_dtz(pos, &cd);
        bool mates = pos_in_check(pos) && !pos_has_legal_move(pos);
        pos_unmake_move(pos, m);
        if (!ok) {
            snprintf(why, len, "%s: no probe after a move", fen);
            return false;
        }
        best = -cw > best ? -cw : best;
        if (zeroing)
            best_zeroing = -cw > best_zeroing ? -cw : best_zeroing;
        if (-cw == TB_WIN) {
            int d = zeroing || mates ? 1 : -cd + 1;
            win_d = d < win_d ? d : win_d;
        }
        if (-cw == TB_LOSS) {
            int d = zeroing ? 1 : cd + 1;
            loss_d = d > loss_d ? d : loss_d;
        }
    }
    snprintf(why, len, "%s: WDL %d DTZ %d, best child %d (zeroing %d), DTZ by the children %d/%d",
             fen, wdl, dtz, best, best_zeroing, win_d, -loss_d);
    switch (wdl) {
    case TB_WIN: return best == TB_WIN && win_d <= dtz + 1 && win_d >= dtz - 1;
    case TB_CURSED_WIN: return best >= TB_CURSED_WIN && best_zeroing < TB_WIN;
    case TB_DRAW: return best == TB_DRAW;
    case TB_BLESSED_LOSS: return best <= TB_BLESSED_LOSS && best_zeroing < TB_DRAW;
    default: return best == TB_LOSS && -loss_d <= dtz + 1 && -loss_d >= dtz - 1;
    }
}

/* 150 random positions of every table of the reference file (a third with
 * pieces on the long diagonal), each consistent with its children. */
Test(syzygy, random_positions_agree_with_their_children)
{
    uint64_t rng = 20261125;
    int checked = 0, bad = 0;
    char last[16] = "";
    for (int i = 0; i < RefCount; i++) {
        if (!strcmp(Ref[i].table, last))
            continue;
        snprintf(last, sizeof last, "%s", Ref[i].table);
        for (int k = 0; k < 150; k++) {
            Position pos;
            if (!random_position(Ref[i].table, &rng, &pos))
                continue;
            char why[400];
            if (!consistent(&pos, why, sizeof why) && bad++ < 10)
                cr_log_error("%s (%s)", why, Ref[i].table);
            checked++;
        }
    }
    cr_log_info("%d random positions checked against their children, %d disagree", checked, bad);
    cr_expect_gt(checked, 5000);
    cr_expect_eq(bad, 0);
}

/* Plays a won position out by the tables alone: the winner takes a move
 * of least DTZ (a capture or pawn move that keeps the win, or a mate, counts
 * as 1), the loser one of most; the win must hold, each winning move must
 * bring the next zeroing move nearer (to within the tables' rounding), and
 * it must end in mate before the fifty-move rule. Returns the plies. */
static int play_out_by_dtz(const char *fen)
{
    Position *pos = malloc(sizeof *pos);
    char err[128];
    cr_assert(pos_set_fen(pos, fen, false, err, sizeof err));
    const int winner = pos->side;
    int plies = 0;
    for (;; plies++) {
        MoveList list;
        gen_legal(pos, &list);
        if (list.count == 0)
            break;
        int dtz;
        cr_assert(tb_probe_dtz(pos, &dtz), "%s: no DTZ after %d plies", fen, plies);
        const bool winning = pos->side == winner;
        cr_assert(winning ? dtz > 0 && dtz < 100 : dtz < 0 && dtz > -100,
                  "%s: DTZ %d after %d plies", fen, dtz, plies);
        cr_assert_lt(pos_rule50(pos) + (winning ? dtz : -dtz), 101 + !winning,
                     "%s: the fifty-move rule comes first (DTZ %d, counter %d)", fen, dtz,
                     pos_rule50(pos));
        move_t best = MOVE_NONE;
        int best_d = 0;
        for (int i = 0; i < list.count; i++) {
            const move_t m = list.moves[i];
            const bool zeroing = pos_is_capture(pos, m)
                                 || piece_type(pos->board[move_from(m)]) == PAWN;
            Position *after = malloc(sizeof *after);
            memcpy(after, pos, sizeof *after);
            pos_make_move(after, m);
            int d, wdl;
            cr_assert(tb_probe_wdl(after, &wdl) && tb_probe_dtz(after, &d));
            const bool mates = pos_in_check(after) && !pos_has_legal_move(after);
            free(after);
            if (winning) {
                if (wdl != TB_LOSS)
                    continue;
                d = zeroing || mates ? 1 : -d + 1; /* plies to the zeroing move or mate */
                if (!best || d < best_d)
                    best = m, best_d = d;
            } else if (!best || d > best_d)
                best = m, best_d = d;
        }
        cr_assert_neq(best, MOVE_NONE, "%s: no move keeps the win", fen);
        if (winning) {
            char now[128];
            pos_get_fen(pos, now, sizeof now);
            /* A table that counts in moves rounds: one ply either way. */
            cr_assert_leq(best_d, dtz + 1,
                          "%s: at %s the best move's DTZ %d is beyond the position's %d", fen, now,
                          best_d, dtz);
        }
        pos_make_game_move(pos, best);
        cr_assert_lt(plies, 1000);
    }
    cr_expect(pos_in_check(pos) && pos->side != winner, "%s: ended without a mate", fen);
    free(pos);
    return plies;
}

/* Every won (not cursed) reference position, played out by the tables. */
Test(syzygy, won_positions_played_out_by_the_tables)
{
    int played = 0;
    for (int i = 0; i < RefCount; i++)
        if (Ref[i].wdl == TB_WIN) {
            play_out_by_dtz(Ref[i].fen);
            played++;
        }
    cr_log_info("%d won positions played out by the tables", played);
    cr_expect_gt(played, 300);
}

/* ---- broken and missing tables ---- */

static int Reports;
static char LastReport[640];

static void count_report(const char *line)
{
    __atomic_add_fetch(&Reports, 1, __ATOMIC_SEQ_CST);
    snprintf(LastReport, sizeof LastReport, "%s", line);
}

/* Copies the first `keep` bytes of table `name` (all of it for keep < 0) from
 * the test tables to dir, then overwrites `n` bytes at `at` with `fill`. */
static void copy_table(const char *dir, const char *name, long keep, long at, int n, int fill)
{
    char src[512], dst[512];
    snprintf(src, sizeof src, "%s/%s", tb_dir(), name);
    snprintf(dst, sizeof dst, "%s/%s", dir, name);
    FILE *in = fopen(src, "rb");
    cr_assert_not_null(in, "cannot read %s", src);
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    rewind(in);
    unsigned char *buf = malloc((size_t)size);
    cr_assert_eq(fread(buf, 1, (size_t)size, in), (size_t)size);
    fclose(in);
    if (keep < 0 || keep > size)
        keep = size;
    for (int i = 0; i < n && at + i < keep; i++)
        buf[at + i] = (unsigned char)fill;
    FILE *out = fopen(dst, "wb");
    cr_assert_not_null(out);
    cr_assert_eq(fwrite(buf, 1, (size_t)keep, out), (size_t)keep);
    fclose(out);
    free(buf);
}

static long file_size(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    return size;
}

static bool probe_fen(const char *fen, int *wdl, int *dtz)
{
    Position pos;
    char err[128];
    cr_assert(pos_set_fen(&pos, fen, false, err, sizeof err), "%s: %s", fen, err);
    bool ok = tb_probe_wdl(&pos, wdl);
    if (dtz)
        ok = tb_probe_dtz(&pos, dtz) && ok;
    return ok;
}

static void remove_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* A directory list with directories that do not exist, one with a few good
 * tables, and truncated, empty and corrupt ones: the good ones answer, the
 * others fail their probes, each reported once, and nothing crashes. */
Test(syzygy, broken_and_missing_tables)
{
    char dir[] = "/tmp/rokade-tb-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    copy_table(dir, "KRvK.rtbw", -1, 0, 0, 0);
    copy_table(dir, "KRvK.rtbz", -1, 0, 0, 0);
    long qsize = file_size(tb_dir(), "KQvK.rtbw");
    copy_table(dir, "KQvK.rtbw", qsize / 2, 0, 0, 0); /* truncated */
    copy_table(dir, "KBBvK.rtbw", 3, 0, 0, 0);        /* only part of the magic */
    copy_table(dir, "KNNvK.rtbw", -1, 0, 4, 0);       /* magic gone */
    copy_table(dir, "KBNvK.rtbw", -1, 5, 4, 0xFF);    /* piece codes wrong */
    copy_table(dir, "KRvKN.rtbw", -1, 9, 24, 0xFF);   /* compression header wrong */
    copy_table(dir, "KPvK.rtbw", -1, 0, 0, 0);
    copy_table(dir, "KPvK.rtbz", file_size(tb_dir(), "KPvK.rtbz") - 200, 0, 0, 0);
    char path[256];
    snprintf(path, sizeof path, "/nonexistent/a:%s::/nonexistent/b", dir);
    Reports = 0;
    tb_set_report(count_report);
    cr_assert_eq(tb_init(path), 7);
    cr_expect_eq(tb_max_pieces(), 4);

    int wdl = 9, dtz = 999;
    /* Good tables. */
    cr_expect(probe_fen("8/8/8/2k5/8/8/8/R3K3 w - - 0 1", &wdl, &dtz));
    cr_expect_eq(wdl, 2);
    cr_expect_gt(dtz, 0);
    cr_expect(probe_fen("8/8/8/2k5/8/8/4P3/4K3 b - - 0 1", &wdl, NULL));
    cr_expect_eq(Reports, 0, "%s", LastReport);
    /* Truncated, empty, corrupt: no answer, one report each. */
    const char *const broken[] = {
        "8/8/8/2k5/8/8/8/Q3K3 w - - 0 1",   "8/8/8/2k5/8/8/8/BB2K3 w - - 0 1",
        "8/8/8/2k5/8/8/8/NN2K3 w - - 0 1",  "8/8/8/2k5/8/8/8/BN2K3 w - - 0 1",
        "8/8/8/2k1n3/8/8/8/R3K3 w - - 0 1",
    };
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof broken / sizeof *broken; i++)
            cr_expect_not(probe_fen(broken[i], &wdl, NULL), "%s answered", broken[i]);
    cr_expect_eq(Reports, 5, "%d reports, the last: %s", Reports, LastReport);
    cr_expect(strstr(LastReport, "info string error: ") == LastReport, "%s", LastReport);
    /* A truncated DTZ file: WDL still answers, DTZ does not. */
    Position pos;
    char err[128];
    cr_assert(pos_set_fen(&pos, "8/8/8/2k5/8/8/4P3/4K3 w - - 0 1", false, err, sizeof err));
    cr_expect(tb_probe_wdl(&pos, &wdl));
    cr_expect_not(tb_probe_dtz(&pos, &dtz));
    cr_expect_eq(Reports, 6, "%s", LastReport);
    /* Tables not in the path: no answer, no report; a capture into a
     * missing table makes the probe fail too. */
    cr_expect_not(probe_fen("8/8/8/2k5/8/8/8/R2NK3 w - - 0 1", &wdl, NULL));
    cr_expect_not(probe_fen("8/8/8/2k5/8/8/8/r3K2R w - - 0 1", &wdl, NULL));
    cr_expect_eq(Reports, 6, "%s", LastReport);
    /* A position with more pieces than any table, or castling rights. */
    cr_expect_not(probe_fen("8/8/8/2k5/8/8/8/RR1NK3 w - - 0 1", &wdl, NULL));
    cr_expect_not(probe_fen("8/8/8/2k5/8/8/8/R3K3 w Q - 0 1", &wdl, NULL));
    tb_set_report(NULL);
    remove_dir(dir);
}

/* Corrupt compressed data must never crash the prober: every byte of the
 * data of a table in turn set to garbage, probes of all its positions. */
Test(syzygy, corrupt_data_never_crashes)
{
    char dir[] = "/tmp/rokade-tb-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    tb_set_report(count_report);
    long size = file_size(tb_dir(), "KRvKN.rtbw");
    for (long at = 4; at < size; at += size / 61 + 1) {
        copy_table(dir, "KRvKN.rtbw", -1, at, 16, (int)(at * 37 & 0xFF));
        copy_table(dir, "KRvK.rtbw", -1, 0, 0, 0);
        copy_table(dir, "KNvK.rtbw", -1, 0, 0, 0);
        tb_init(dir);
        for (int i = 0; i < RefCount; i++) {
            if (strcmp(Ref[i].table, "KRvKN") != 0)
                continue;
            Position pos;
            char err[128];
            cr_assert(pos_set_fen(&pos, Ref[i].fen, false, err, sizeof err));
            int wdl;
            if (tb_probe_wdl(&pos, &wdl))
                cr_assert(wdl >= -2 && wdl <= 2);
        }
    }
    tb_set_report(NULL);
    remove_dir(dir);
}

/* ---- several threads at once ---- */

enum { PROBE_THREADS = 4 };

/* Threads probing every reference position at once, each from another place
 * in the list, on freshly found (not yet mapped) tables. */
Test(syzygy, probes_from_several_threads)
{
    cr_assert_gt(tb_init(tb_dir()), 0);
    pthread_t th[PROBE_THREADS];
    TbRefJob jobs[PROBE_THREADS];
    for (int i = 0; i < PROBE_THREADS; i++) {
        jobs[i] = (TbRefJob){.lines = Ref, .count = RefCount, .start = i, .wrong = 0};
        cr_assert_eq(pthread_create(&th[i], NULL, tb_ref_probe_all, &jobs[i]), 0);
    }
    for (int i = 0; i < PROBE_THREADS; i++) {
        pthread_join(th[i], NULL);
        cr_expect_eq(jobs[i].wrong, 0, "thread %d: %ld wrong probes", i, jobs[i].wrong);
    }
}

/* ---- in the search ---- */

typedef struct {
    SearchLine last;
    move_t best;
} Seen;

static void seen_line(void *ctx, const Position *root, const SearchLine *line)
{
    (void)root;
    if (line->multipv == 1)
        ((Seen *)ctx)->last = *line;
}

static void seen_best(void *ctx, const Position *root, move_t best, move_t ponder)
{
    (void)root;
    (void)ponder;
    ((Seen *)ctx)->best = best;
}

/* Searches fen to depth with the options given; returns what was reported. */
static Seen search_fen(const char *fen, int depth, int probe_limit)
{
    Seen seen;
    memset(&seen, 0, sizeof seen);
    SearchReporter rep = {.ctx = &seen, .line = seen_line, .bestmove = seen_best};
    Search *s = search_create(16, &rep);
    cr_assert_not_null(s);
    search_options(s)->tb_probe_limit = probe_limit;
    Position pos;
    char err[128];
    cr_assert(pos_set_fen(&pos, fen, false, err, sizeof err), "%s: %s", fen, err);
    SearchLimits lim;
    search_limits_none(&lim);
    lim.depth = depth;
    search_start(s, &pos, &lim);
    search_wait(s);
    search_destroy(s);
    return seen;
}

/* KRR v KN (no table) wins by taking the knight into KRR v K (a table): the
 * search finds it through its probes, scores it as a tablebase win (below
 * mates) and counts the hits; without tables or with SyzygyProbeLimit 0 it
 * does not. */
Test(syzygy, search_scores_tablebase_wins)
{
    const char *fen = "8/8/8/2k5/8/2n5/8/R3K2R w - - 0 1";
    Seen with = search_fen(fen, 12, 7);
    cr_expect_gt(with.last.tbhits, 0);
    cr_expect(with.last.score >= SCORE_TB_WIN_IN_MAX && !is_mate_score(with.last.score), "score %d",
              with.last.score);
    Seen limited = search_fen(fen, 12, 0);
    cr_expect_eq(limited.last.tbhits, 0);
    cr_expect_lt(limited.last.score, SCORE_TB_WIN_IN_MAX);
    tb_init(NULL);
    Seen without = search_fen(fen, 12, 7);
    cr_expect_eq(without.last.tbhits, 0);
    cr_expect_lt(without.last.score, SCORE_TB_WIN_IN_MAX);
}

/* ---- at the root ---- */

static Seen Played;

/* The move a search of s to `depth` plays in pos (among `only` when n > 0). */
static move_t engine_move(Search *s, const Position *pos, int depth, const move_t *only, int n)
{
    SearchLimits lim;
    search_limits_none(&lim);
    lim.depth = depth;
    for (int i = 0; i < n; i++)
        lim.searchmoves[i] = only[i];
    lim.searchmoves_count = n;
    memset(&Played, 0, sizeof Played);
    search_start(s, pos, &lim);
    search_wait(s);
    return Played.best;
}

static Search *play_search(void)
{
    SearchReporter rep = {.ctx = &Played, .line = seen_line, .bestmove = seen_best};
    Search *s = search_create(16, &rep);
    cr_assert_not_null(s);
    return s;
}

/* Plays fen out, the engine on both sides at a low depth: the side to move,
 * which the tables say wins, must mate before the fifty-move rule could
 * be claimed, never letting the win go; returns the plies played. */
static int play_out_win(Search *s, const char *fen, int depth)
{
    Position *pos = malloc(sizeof *pos);
    char err[128];
    cr_assert(pos_set_fen(pos, fen, false, err, sizeof err), "%s: %s", fen, err);
    const int winner = pos->side;
    int plies = 0;
    for (;;) {
        int wdl;
        cr_assert(tb_probe_wdl(pos, &wdl), "%s: left the tables", fen);
        cr_assert_eq(wdl * (pos->side == winner ? 1 : -1), TB_WIN,
                     "%s: the win was let go after %d plies (WDL %d)", fen, plies, wdl);
        cr_assert_lt(pos_rule50(pos), 100, "%s: fifty moves without progress after %d plies", fen,
                     plies);
        move_t m = engine_move(s, pos, depth, NULL, 0);
        if (m == MOVE_NONE)
            break;
        pos_make_game_move(pos, m);
        plies++;
        cr_assert_lt(plies, 600, "%s: no mate in 600 plies", fen);
    }
    cr_expect(pos_in_check(pos) && pos->side != winner, "%s: ended without a mate", fen);
    free(pos);
    return plies;
}

/* The longest win of a few tables in the reference file, played out. */
Test(syzygy, won_positions_are_won_within_the_fifty_move_rule)
{
    static const char *const Tables[] = {"KBNvK",  "KRPvKR", "KQvKR", "KRBvKR",
                                         "KBBvKN", "KPvKP",  "KRvKB", "KQvKQ"};
    Search *s = play_search();
    for (size_t k = 0; k < sizeof Tables / sizeof *Tables; k++) {
        int longest = -1;
        for (int i = 0; i < RefCount; i++)
            if (!strcmp(Ref[i].table, Tables[k]) && Ref[i].wdl == TB_WIN
                && (longest < 0 || Ref[i].dtz > Ref[longest].dtz))
                longest = i;
        if (longest < 0)
            continue;
        search_new_game(s);
        int plies = play_out_win(s, Ref[longest].fen, 5);
        cr_log_info("%s (DTZ %d): mate in %d plies", Ref[longest].fen, Ref[longest].dtz, plies);
        /* Again with the halfmove clock as high as still lets the win
         * through: the engine has to make progress at once. */
        char fen[160];
        snprintf(fen, sizeof fen, "%s", Ref[longest].fen);
        char *clock = strstr(fen, " 0 1");
        cr_assert_not_null(clock);
        snprintf(clock, sizeof fen - (size_t)(clock - fen), " %d 1", 98 - Ref[longest].dtz);
        search_new_game(s);
        plies = play_out_win(s, fen, 5);
        cr_log_info("%s: mate in %d plies", fen, plies);
    }
    search_destroy(s);
}

/* The root keeps only the moves that keep the best result, but go
 * searchmoves still decides what may be played. */
Test(syzygy, root_ranking_keeps_the_result_and_searchmoves)
{
    Search *s = play_search();
    Position pos;
    char err[128];
    /* K+R v K: every move but Rxa1-like blunders wins; the rook can be
     * given away by Ra4, which searchmoves may still demand. */
    cr_assert(pos_set_fen(&pos, "8/8/8/2k5/8/8/8/R3K3 w - - 0 1", false, err, sizeof err));
    move_t m = engine_move(s, &pos, 6, NULL, 0);
    cr_assert_neq(m, MOVE_NONE);
    Position after = pos;
    pos_make_move(&after, m);
    int wdl;
    cr_assert(tb_probe_wdl(&after, &wdl));
    cr_expect_eq(wdl, TB_LOSS, "the move played lets the win go");
    cr_expect_geq(Played.last.score, SCORE_TB_WIN_IN_MAX, "score %d", Played.last.score);
    const move_t blunder = move_make(SQ_A1, SQ_A5); /* the king takes it */
    m = engine_move(s, &pos, 6, &blunder, 1);
    cr_expect_eq(m, blunder);
    /* Drawn positions of the reference file where some move loses: the
     * move played keeps the draw. */
    int tested = 0;
    for (int i = 0; i < RefCount && tested < 12; i++) {
        if (Ref[i].wdl != TB_DRAW)
            continue;
        cr_assert(pos_set_fen(&pos, Ref[i].fen, false, err, sizeof err));
        MoveList list;
        gen_legal(&pos, &list);
        bool can_lose = false;
        for (int k = 0; k < list.count && !can_lose; k++) {
            after = pos;
            pos_make_move(&after, list.moves[k]);
            can_lose = tb_probe_wdl(&after, &wdl) && wdl > TB_DRAW;
        }
        if (!can_lose)
            continue;
        m = engine_move(s, &pos, 6, NULL, 0);
        after = pos;
        pos_make_move(&after, m);
        cr_assert(tb_probe_wdl(&after, &wdl));
        cr_expect_eq(wdl, TB_DRAW, "%s: the draw was let go", Ref[i].fen);
        tested++;
    }
    cr_expect_eq(tested, 12);
    search_destroy(s);
}

/* ---- datagen ---- */

/* A game of datagen that reaches the tables ends at once with their result:
 * openings already in them (drawn, as the openings are verified level) give
 * games of no searched position; without tables the games are played. */
Test(syzygy, datagen_adjudicates_by_the_tables)
{
    char book[] = "/tmp/rokade-tb-book-XXXXXX", out[] = "/tmp/rokade-tb-out-XXXXXX";
    int fd = mkstemp(book);
    cr_assert(fd >= 0);
    close(fd);
    fd = mkstemp(out);
    cr_assert(fd >= 0);
    close(fd);
    unlink(out);
    FILE *f = fopen(book, "w");
    cr_assert_not_null(f);
    fputs("8/8/8/2k5/8/8/r7/4K2R w - - 0 1\n8/8/4k3/8/8/8/1r3P2/4K2R w - - 0 1\n", f);
    fclose(f);
    char args[300], err[1400];
    snprintf(args, sizeof args, "out %s book %s games 4 threads 1 nodes 600 seed 1", out, book);
    DatagenOptions opt;
    DatagenStats st;
    cr_assert(datagen_parse(args, &opt, err, sizeof err), "%s", err);
    cr_assert(datagen_run(&opt, NULL, &st, err, sizeof err), "%s", err);
    cr_expect_eq(st.games, 4);
    cr_expect_eq(st.draws, 4);
    cr_expect_eq(st.positions, 0);
    unlink(out);
    tb_init(NULL);
    cr_assert(datagen_run(&opt, NULL, &st, err, sizeof err), "%s", err);
    cr_expect_eq(st.games, 4);
    cr_expect_gt(st.positions, 0);
    unlink(out);
    unlink(book);
}

/* ---- through UCI (the engine binary, tests/harness.h) ---- */

/* SyzygyPath says what it found (or that it found nothing); d shows WDL and
 * DTZ; every info line has tbhits, counting in an ending that trades into
 * the tables; without a path no Tablebase line and no hits. */
Test(syzygy, uci_options_d_and_tbhits)
{
    Engine *e = eng_start();
    eng_send(e, "setoption name SyzygyPath value /nonexistent-rokade-tb");
    CHECK(e, wait_for(e, "info string error: SyzygyPath: no Syzygy tables", 5000),
          "no error for a path without tables");
    eng_send(e, "setoption name SyzygyPath value /nonexistent-rokade-tb:%s", tb_dir());
    const char *l = wait_for(e, "info string Syzygy tables found:", 5000);
    CHECK(e, l && strstr(l, "41 WDL, 41 DTZ, up to 5 pieces"), "tables found: %s", l ? l : "-");
    eng_send(e, "position fen 8/8/8/2k5/8/8/4P3/4K3 w - - 0 1");
    eng_send(e, "d");
    l = wait_for(e, "Tablebase:", 5000);
    CHECK(e, l && !strcmp(l, "Tablebase: WDL 2 (win), DTZ 13"), "d: %s", l ? l : "-");
    eng_send(e, "position fen 8/8/8/2k5/8/2n5/8/R3K2R w - - 0 1");
    int mark;
    search(e, "go depth 10", 20000, &mark);
    long long hits = -1;
    for (int i = mark; i < e->next; i++)
        if (is_pv_info(e->lines[i])) {
            CHECK(e, strstr(e->lines[i], " tbhits "), "no tbhits: %s", e->lines[i]);
            hits = field_num(e->lines[i], "tbhits", -1);
        }
    CHECK(e, hits > 0, "tbhits %lld", hits);
    eng_send(e, "setoption name SyzygyPath value <empty>");
    search(e, "go depth 8", 20000, &mark);
    for (int i = mark; i < e->next; i++)
        if (is_pv_info(e->lines[i]))
            CHECK(e, field_num(e->lines[i], "tbhits", -1) == 0, "hits without tables: %s",
                  e->lines[i]);
    eng_send(e, "position fen 8/8/8/2k5/8/8/4P3/4K3 w - - 0 1");
    eng_send(e, "d");
    eng_send(e, "isready");
    while ((l = next_line(e, now_ms() + 5000)) && strcmp(l, "readyok") != 0)
        CHECK(e, !starts(l, "Tablebase:"), "d without tables: %s", l);
    CHECK(e, l, "no readyok");
    eng_quit(e);
}
