/* The WDL model (eval/wdl.h) and what is printed with it (engine/report.h):
 * the fitted constants give a 50% win at a printed +1.00 for every material
 * count, chances that rise with the score and mirror between the sides;
 * mates, tablebase results and dead positions keep their own forms; the
 * trainer's --wdl-table (through ROKADE_TRAIN, default ./rokade-train)
 * counts exactly the positions that the game format's reader gives on
 * tests/data/train_sample.vf; and eval/wdl/fit.py finds the constants of a
 * table made from a known model. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/report.h"
#include "../eval/wdl.h"
#include "../movegen/records/viriformat.h"
#include "../movegen/score.h"
#include "harness.h"

static char Dir[] = "/tmp/rokade-wdl-test-XXXXXX";

static void setup(void)
{
    harness_make_dir(Dir);
    movegen_init();
}

static void teardown(void) { harness_remove_dir(Dir); }

TestSuite(wdl, .init = setup, .fini = teardown, .timeout = 120);

static void set_fen(Position *pos, const char *fen)
{
    char err[128];
    cr_assert(pos_set_fen(pos, fen, false, err, sizeof err), "%s: %s", fen, err);
}

Test(wdl, material)
{
    static Position pos;
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    cr_assert_eq(wdl_material(&pos), 78);
    set_fen(&pos, "8/8/8/4k3/8/8/3QK3/8 w - - 0 1");
    cr_assert_eq(wdl_material(&pos), 9);
    set_fen(&pos, "8/5p2/8/4k3/8/2N5/3RK3/8 b - - 0 1");
    cr_assert_eq(wdl_material(&pos), 9);
}

Test(wdl, the_fitted_model)
{
    for (int m = 0; m <= 104; m++) {
        double a, b;
        wdl_params(m, &a, &b);
        cr_assert(a > 20 && a < 1000 && b > 10 && b < 1000, "material %d: a %g b %g", m, a, b);
        /* +1.00 printed is the score a: an even chance to win. */
        int s = (int)lround(a), w, l;
        cr_assert(abs(wdl_normalize(s, m) - 100) <= 1, "material %d", m);
        wdl_of_score(s, m, &w, &l);
        cr_assert(abs(w - 500) <= 5, "material %d: %d per mille won at a", m, w);
        int pw = -1, pl = 1001;
        for (int sc = -3000; sc <= 3000; sc += 25) {
            wdl_of_score(sc, m, &w, &l);
            int w2, l2;
            wdl_of_score(-sc, m, &w2, &l2);
            cr_assert(w == l2 && l == w2, "material %d score %d: not mirrored", m, sc);
            cr_assert(w >= pw && l <= pl && w + l <= 1000, "material %d score %d", m, sc);
            cr_assert_eq(wdl_normalize(-sc, m), -wdl_normalize(sc, m));
            pw = w, pl = l;
        }
        wdl_of_score(0, m, &w, &l);
        cr_assert(w == l && w < 500, "material %d: %d %d at 0", m, w, l);
    }
    /* Clamped outside the fitted range. */
    double a0, b0, a1, b1;
    wdl_params(0, &a0, &b0);
    wdl_params(5, &a1, &b1);
    cr_assert(a0 == a1 && b0 == b1);
}

Test(wdl, the_printed_score)
{
    static Position pos;
    char buf[64];
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    report_score(0, &pos, buf, sizeof buf);
    cr_assert_str_eq(buf, "cp 0");
    double a, b;
    wdl_params(78, &a, &b);
    report_score((int)lround(a), &pos, buf, sizeof buf);
    cr_assert(!strcmp(buf, "cp 100") || !strcmp(buf, "cp 99") || !strcmp(buf, "cp 101"), "%s", buf);
    report_score(mate_in(5), &pos, buf, sizeof buf);
    cr_assert_str_eq(buf, "mate 3");
    report_score(mated_in(4), &pos, buf, sizeof buf);
    cr_assert_str_eq(buf, "mate -2");
    report_wdl(mate_in(5), &pos, buf, sizeof buf);
    cr_assert_str_eq(buf, " wdl 1000 0 0");
    /* A tablebase win keeps its form, and is a sure win. */
    set_fen(&pos, "8/8/8/4k3/8/8/3QK3/8 w - - 0 1");
    report_score(tb_win_in(3), &pos, buf, sizeof buf);
    snprintf(buf + 32, 32, "cp %d", tb_win_in(3));
    cr_assert_str_eq(buf, buf + 32);
    report_wdl(tb_loss_in(3), &pos, buf, sizeof buf);
    cr_assert_str_eq(buf, " wdl 0 0 1000");
    /* The same raw score reads smaller with less material (wins need more). */
    static Position end;
    set_fen(&end, "8/5p2/8/4k3/8/2N5/3RK3/8 w - - 0 1");
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    int open_cp, end_cp;
    report_score(200, &pos, buf, sizeof buf);
    cr_assert_eq(sscanf(buf, "cp %d", &open_cp), 1);
    report_score(200, &end, buf, sizeof buf);
    cr_assert_eq(sscanf(buf, "cp %d", &end_cp), 1);
    cr_assert(end_cp < open_cp, "endgame %d, opening %d", end_cp, open_cp);
    /* A dead position is a draw, whatever the score. */
    set_fen(&pos, "8/8/8/4k3/8/8/3NK3/8 w - - 0 1");
    report_wdl(150, &pos, buf, sizeof buf);
    cr_assert_str_eq(buf, " wdl 0 1000 0");
}

static const char *train_exe(void)
{
    const char *t = getenv("ROKADE_TRAIN");
    return t && *t ? t : "./rokade-train";
}

Test(wdl, the_table_counts_every_position)
{
    char cmd[512], table[256];
    snprintf(table, sizeof table, "%s/table.txt", Dir);
    snprintf(cmd, sizeof cmd, "%s --data tests/data/train_sample.vf --wdl-table %s >/dev/null",
             train_exe(), table);
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", cmd);

    /* The same count, by material, score and result, through the reader. */
    static long long want[105][3], got[105][3];
    char err[256];
    VfReader *r = vf_open("tests/data/train_sample.vf", err, sizeof err);
    cr_assert(r, "%s", err);
    VfFilter f = vf_filter_none();
    f.min_ply = 16;
    f.max_score = 3001;
    long long total = 0;
    while (vf_next_game(r, err, sizeof err) == RECORD_GAME) {
        VfPosition p;
        while (vf_next_position(r, &f, &p)) {
            int m = wdl_material(p.pos);
            if (m <= 104)
                want[m][p.result]++, total++;
        }
    }
    vf_close(r);
    cr_assert(total > 10000, "only %lld positions", total);

    FILE *in = fopen(table, "r");
    cr_assert(in, "%s was not written", table);
    char line[256];
    long long rows = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#')
            continue;
        int m, s;
        long long w, d, l;
        cr_assert_eq(sscanf(line, "%d %d %lld %lld %lld", &m, &s, &w, &d, &l), 5, "%s", line);
        cr_assert(m >= 0 && m <= 104 && s >= -3000 && s <= 3000 && w + d + l > 0, "%s", line);
        got[m][2] += w, got[m][1] += d, got[m][0] += l;
        rows++;
    }
    fclose(in);
    cr_assert(rows > 100);
    for (int m = 0; m <= 104; m++)
        for (int k = 0; k < 3; k++)
            cr_assert_eq(got[m][k], want[m][k], "material %d result %d", m, k);

    /* No data: exit 2, and no table written. */
    snprintf(cmd, sizeof cmd, "%s --data %s/none.vf --wdl-table %s/t2 2>/dev/null", train_exe(),
             Dir, Dir);
    st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s", cmd);
    snprintf(table, sizeof table, "%s/t2", Dir);
    cr_assert(access(table, F_OK) != 0);
}

static double cubic(const double c[4], double x)
{
    return ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
}

Test(wdl, the_fit_finds_a_known_model)
{
    /* A table whose counts are those a known model expects, 400 positions a
     * score cell: the fit must give that model back. */
    const double A[4] = {-60, 200, -250, 200}, B[4] = {-10, 20, 30, 45};
    char table[256], params[256], cmd[1024];
    snprintf(table, sizeof table, "%s/known.txt", Dir);
    snprintf(params, sizeof params, "%s/params.h", Dir);
    FILE *out = fopen(table, "w");
    cr_assert(out);
    fprintf(out, "# a table made by tests/test_wdl.c\n");
    for (int m = 10; m <= 78; m++) {
        double a = cubic(A, m / 58.0), b = cubic(B, m / 58.0);
        for (int s = -800; s <= 800; s += 5) {
            double pw = 1 / (1 + exp((a - s) / b)), pl = 1 / (1 + exp((a + s) / b));
            fprintf(out, "%d %d %ld %ld %ld\n", m, s, lround(400 * pw), lround(400 * (1 - pw - pl)),
                    lround(400 * pl));
        }
    }
    fclose(out);
    snprintf(cmd, sizeof cmd, "python3 eval/wdl/fit.py %s --params %s >/dev/null", table, params);
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", cmd);
    FILE *in = fopen(params, "r");
    cr_assert(in);
    char line[512];
    double fa[4] = {0}, fb[4] = {0};
    int found = 0;
    while (fgets(line, sizeof line, in)) {
        found += sscanf(line, "static const double WdlA[4] = {%lf, %lf, %lf, %lf};", &fa[0], &fa[1],
                        &fa[2], &fa[3])
                 == 4;
        found += sscanf(line, "static const double WdlB[4] = {%lf, %lf, %lf, %lf};", &fb[0], &fb[1],
                        &fb[2], &fb[3])
                 == 4;
    }
    fclose(in);
    cr_assert_eq(found, 2, "no constants in %s", params);
    for (int m = 10; m <= 78; m++) {
        double x = m / 58.0;
        cr_assert(fabs(cubic(fa, x) - cubic(A, x)) < 1.5, "a(%d): %g, want %g", m, cubic(fa, x),
                  cubic(A, x));
        cr_assert(fabs(cubic(fb, x) - cubic(B, x)) < 1.5, "b(%d): %g, want %g", m, cubic(fb, x),
                  cubic(B, x));
    }
}
