/* Perft against the EPD suites in perft/, plus perft_divide and perft_suite.
 * Depths are chosen so the whole file also runs quickly in a sanitizer build. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../perft/perft.h"

static void setup(void) { movegen_init(); }

TestSuite(perft, .init = setup);

enum { MAX_DEPTHS = 16 };

typedef struct {
    int line;
    char fen[256];
    int ndepths;
    int depth[MAX_DEPTHS];
    unsigned long long count[MAX_DEPTHS];
} EpdEntry;

/* Reads "FEN ;D1 n ;D2 n ..." lines; '#' lines and blank lines are skipped. */
static EpdEntry *read_epd(const char *name, int *n_out)
{
    char path[512];
    FILE *f = NULL;
    static const char *const Dirs[] = {"perft/", "../perft/", "../../perft/", "../../../perft/"};
    for (size_t i = 0; i < sizeof Dirs / sizeof Dirs[0] && !f; i++) {
        snprintf(path, sizeof path, "%s%s", Dirs[i], name);
        f = fopen(path, "r");
    }
    cr_assert_not_null(f, "cannot open perft/%s (run from the source tree)", name);
    int cap = 64, n = 0, lineno = 0;
    EpdEntry *e = malloc((size_t)cap * sizeof *e);
    cr_assert_not_null(e);
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\0' || *p == '\n' || *p == '\r')
            continue;
        if (n == cap) {
            cap *= 2;
            e = realloc(e, (size_t)cap * sizeof *e);
            cr_assert_not_null(e);
        }
        EpdEntry *x = &e[n];
        memset(x, 0, sizeof *x);
        x->line = lineno;
        char *semi = strchr(p, ';');
        cr_assert_not_null(semi, "%s:%d: no ';D1 n' fields", name, lineno);
        size_t len = (size_t)(semi - p);
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        cr_assert(len > 0 && len < sizeof x->fen, "%s:%d: bad FEN length", name, lineno);
        memcpy(x->fen, p, len);
        x->fen[len] = '\0';
        for (char *q = semi; q; q = strchr(q + 1, ';')) {
            int d;
            unsigned long long c;
            int got = sscanf(q + 1, " D%d %llu", &d, &c);
            cr_assert_eq(got, 2, "%s:%d: unreadable field '%.20s'", name, lineno, q + 1);
            cr_assert(x->ndepths < MAX_DEPTHS);
            x->depth[x->ndepths] = d;
            x->count[x->ndepths] = c;
            x->ndepths++;
        }
        n++;
    }
    fclose(f);
    *n_out = n;
    return e;
}

/* Checks the entries [first, last) up to max_depth; returns how many counts were compared. */
static int run_entries(const char *name, const EpdEntry *e, int first, int last, int max_depth,
                       bool chess960)
{
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    int checked = 0, failed = 0;
    for (int i = first; i < last; i++) {
        char err[256] = "", before[128], after[128];
        cr_assert(pos_set_fen(pos, e[i].fen, chess960, err, sizeof err), "%s:%d: %s", name,
                  e[i].line, err);
        pos_get_fen(pos, before, sizeof before);
        uint64_t key = pos_key(pos);
        for (int k = 0; k < e[i].ndepths; k++) {
            if (e[i].depth[k] > max_depth)
                continue;
            uint64_t got = perft(pos, e[i].depth[k]);
            checked++;
            if (got != e[i].count[k]) {
                failed++;
                cr_expect_eq(got, e[i].count[k], "%s:%d D%d: got %llu, want %llu  (%s)", name,
                             e[i].line, e[i].depth[k], (unsigned long long)got, e[i].count[k],
                             e[i].fen);
            }
        }
        pos_get_fen(pos, after, sizeof after);
        cr_assert_str_eq(after, before, "%s:%d: perft changed the position", name, e[i].line);
        cr_assert_eq(pos_key(pos), key);
        cr_assert_eq(pos->hply, 0);
    }
    free(pos);
    cr_assert_eq(failed, 0, "%s: %d of %d counts wrong", name, failed, checked);
    return checked;
}

static void run_suite_part(const char *name, int expect_entries, int part, int parts, int max_depth,
                           bool chess960, int min_checked)
{
    int n;
    EpdEntry *e = read_epd(name, &n);
    if (expect_entries)
        cr_assert_eq(n, expect_entries, "%s: %d positions read, want %d", name, n, expect_entries);
    int first = n * part / parts, last = n * (part + 1) / parts;
    int checked = run_entries(name, e, first, last, max_depth, chess960);
    cr_assert(checked >= min_checked, "%s: only %d counts compared", name, checked);
    free(e);
}

/* ------------------------------------------------------------------------ */

Test(perft, epd_parser_and_startpos)
{
    { /* epd parser */
        int n;
        EpdEntry *e = read_epd("standard.epd", &n);
        cr_assert_eq(n, 132);
        cr_assert_str_eq(e[0].fen, START_FEN);
        cr_assert_eq(e[0].ndepths, 8);
        cr_assert_eq(e[0].depth[3], 4);
        cr_assert_eq(e[0].count[3], 197281ULL);
        cr_assert_eq(e[0].count[7], 84998978956ULL);
        free(e);
        e = read_epd("tricky.epd", &n);
        cr_assert(n >= 60, "tricky.epd: %d positions", n);
        for (int i = 0; i < n; i++) {
            cr_assert(e[i].fen[0] != '#');
            cr_assert(e[i].ndepths >= 1);
            cr_assert_eq(e[i].depth[0], 1);
        }
        free(e);
    }

    { /* startpos basics */
        Position *pos = calloc(1, sizeof *pos);
        cr_assert_not_null(pos);
        pos_set_startpos(pos);
        static const uint64_t want[] = {1, 20, 400, 8902, 197281};
        for (int d = 0; d <= 4; d++)
            cr_assert_eq(perft(pos, d), want[d], "startpos D%d", d);
        free(pos);
    }
}

Test(perft, standard_depth4, .timeout = 300)
{
    { /* standard depth4 part1 */
        run_suite_part("standard.epd", 132, 0, 2, 4, false, 66 * 4);
    }

    { /* standard depth4 part2 */
        run_suite_part("standard.epd", 132, 1, 2, 4, false, 66 * 4);
    }
}

Test(perft, standard_depth5_first10, .timeout = 300)
{
    int n;
    EpdEntry *e = read_epd("standard.epd", &n);
    Position *pos = calloc(1, sizeof *pos);
    cr_assert_not_null(pos);
    int checked = 0;
    for (int i = 0; i < 10 && i < n; i++) {
        char err[256];
        cr_assert(pos_set_fen(pos, e[i].fen, false, err, sizeof err), "%s", err);
        for (int k = 0; k < e[i].ndepths; k++)
            if (e[i].depth[k] == 5) {
                uint64_t got = perft(pos, 5);
                cr_expect_eq(got, e[i].count[k], "standard.epd:%d D5: got %llu, want %llu (%s)",
                             e[i].line, (unsigned long long)got, e[i].count[k], e[i].fen);
                checked++;
            }
    }
    cr_assert_eq(checked, 10);
    free(pos);
    free(e);
}

Test(perft, tricky_depth5, .timeout = 300)
{
    { /* tricky depth5 part1 */
        run_suite_part("tricky.epd", 0, 0, 2, 5, false, 60);
    }

    { /* tricky depth5 part2 */
        run_suite_part("tricky.epd", 0, 1, 2, 5, false, 60);
    }
}

Test(perft, chess960_depth3, .timeout = 300)
{
    { /* chess960 depth3 part1 */
        run_suite_part("chess960.epd", 960, 0, 2, 3, true, 480 * 3);
    }

    { /* chess960 depth3 part2 */
        run_suite_part("chess960.epd", 960, 1, 2, 3, true, 480 * 3);
    }
}

/* ------------------------------------------------------------------------ */
/* perft_divide and perft_suite                                             */

typedef struct {
    char lines[300][64];
    int count;
} DivideLines;

static void collect_line(void *ctx, const char *line)
{
    DivideLines *d = ctx;
    if (d->count < 300)
        snprintf(d->lines[d->count], sizeof d->lines[0], "%s", line);
    d->count++;
}

static int run_suite_text(const char *text, int depth, bool c960)
{
    char path[] = "/tmp/rokade_perft_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    FILE *out = fopen("/dev/null", "w");
    cr_assert_not_null(out);
    int r = perft_suite(path, depth, c960, 1, out);
    fclose(out);
    remove(path);
    return r;
}

Test(perft, divide_and_suite_runner)
{
    { /* divide matches perft */
        Position *pos = calloc(1, sizeof *pos);
        cr_assert_not_null(pos);
        char err[256];
        cr_assert(
            pos_set_fen(pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                        false, err, sizeof err));
        DivideLines out;
        for (int threads = 1; threads <= 3; threads++) {
            out.count = 0;
            uint64_t total = perft_divide(pos, 3, threads, collect_line, &out);
            cr_assert_eq(total, 97862ULL);
            cr_assert_eq(out.count, 48 + 2, "48 moves, a blank line and the total");
            cr_assert_str_eq(out.lines[48], "");
            cr_assert_str_eq(out.lines[49], "Nodes searched: 97862");
            /* Each line is "move: count" and the counts add up. */
            uint64_t sum = 0;
            bool saw_castle = false;
            for (int i = 0; i < 48; i++) {
                char mv[16];
                unsigned long long c;
                cr_assert_eq(sscanf(out.lines[i], "%15[a-h1-8nbrq]: %llu", mv, &c), 2, "line '%s'",
                             out.lines[i]);
                move_t m = move_from_uci(pos, mv);
                cr_assert_neq(m, MOVE_NONE, "%s", mv);
                pos_make_move(pos, m);
                cr_assert_eq(perft(pos, 2), c, "%s", mv);
                pos_unmake_move(pos, m);
                sum += c;
                saw_castle |= !strcmp(mv, "e1g1");
            }
            cr_assert_eq(sum, 97862ULL);
            cr_assert(saw_castle);
        }
        /* Chess960 notation in divide output. */
        pos->chess960 = true;
        out.count = 0;
        perft_divide(pos, 1, 1, collect_line, &out);
        bool king_takes_rook = false;
        for (int i = 0; i < out.count && i < 300; i++)
            king_takes_rook |= !strncmp(out.lines[i], "e1h1:", 5);
        cr_assert(king_takes_rook);
        free(pos);
    }

    { /* suite runner */
        const char *good =
            "# comment\n\n"
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n"
            "  # indented comment\n"
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n";
        cr_assert_eq(run_suite_text(good, 3, false), 0);
        const char *bad =
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401 ;D3 8903\n";
        cr_assert_eq(run_suite_text(bad, 3, false), 2);
        cr_assert_eq(run_suite_text(bad, 1, false), 0, "depths above the maximum are skipped");
        const char *c960 =
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528\n";
        cr_assert_eq(run_suite_text(c960, 2, true), 0);
        const char *badfen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1 ;D1 20\n";
        cr_assert(run_suite_text(badfen, 1, false) > 0, "an unreadable FEN counts as a failure");
        FILE *out = fopen("/dev/null", "w");
        cr_assert_eq(perft_suite("/nonexistent/rokade.epd", 3, false, 1, out), -1);
        fclose(out);
    }
}
