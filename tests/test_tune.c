/* The tuner (rokade-tune, eval/tune/tune.c; ROKADE_TUNE names the binary, default
 * ./rokade-tune): a few epochs on tests/data/tune_sample.bin lower the loss and
 * write a weight file that compiles, has every weight once and keeps the
 * frozen ones; no epochs writes the weights unchanged; the gradient agrees
 * with central differences (--check-gradient); --list names every weight
 * and --freeze takes groups; bad input exits 2. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../eval/weights.h"
#include "harness.h"

static const char *const Sample = "tests/data/tune_sample.bin";

static char Dir[] = "/tmp/rokade-tune-test-XXXXXX";

static void setup(void) { harness_make_dir(Dir); }

static void teardown(void) { harness_remove_dir(Dir); }

TestSuite(tune, .init = setup, .fini = teardown, .timeout = 120);

static const char *tuner(void)
{
    const char *t = getenv("ROKADE_TUNE");
    t = t && *t ? t : "./rokade-tune";
    cr_assert(access(t, X_OK) == 0, "%s is missing: build it with `make tune`", t);
    return t;
}

/* Runs the tuner with args (stderr to DIR/stderr); returns its exit status
 * and its standard output in out. */
static int run_tuner(const char *args, char *out, size_t n)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s 2>'%s/stderr'", tuner(), args, Dir);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run %s", cmd);
    size_t len = fread(out, 1, n - 1, p);
    out[len] = '\0';
    int st = pclose(p);
    cr_assert(WIFEXITED(st), "%s did not exit normally", cmd);
    return WEXITSTATUS(st);
}

static void read_stderr(char *buf, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/stderr", Dir);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    size_t len = fread(buf, 1, n - 1, f);
    buf[len] = '\0';
    fclose(f);
}

typedef struct {
    char index[N_WEIGHTS][64];
    int mg[N_WEIGHTS], eg[N_WEIGHTS];
    int count;
} WeightFile;

/* The `[INDEX] = S(mg, eg),` lines of a weights.c. */
static void parse_weights(const char *path, WeightFile *w)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot open %s", path);
    char line[256], index[64];
    int mg, eg;
    w->count = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, " [%63[^]]] = S(%d, %d),", index, &mg, &eg) == 3) {
            cr_assert(w->count < N_WEIGHTS, "%s has more than %d weights", path, N_WEIGHTS);
            for (int i = 0; i < w->count; i++)
                cr_assert(strcmp(w->index[i], index), "%s: [%s] twice", path, index);
            snprintf(w->index[w->count], sizeof w->index[0], "%s", index);
            w->mg[w->count] = mg, w->eg[w->count] = eg;
            w->count++;
        }
    fclose(f);
}

static int find(const WeightFile *w, const char *index)
{
    for (int i = 0; i < w->count; i++)
        if (!strcmp(w->index[i], index))
            return i;
    cr_assert_fail("no weight [%s]", index);
    return -1;
}

/* Losses printed as "epoch N loss X"; returns how many. */
static int epoch_losses(const char *out, double *loss, int max)
{
    int n = 0;
    for (const char *s = out; (s = strstr(s, "epoch ")) && n < max; s++) {
        int e;
        double l;
        if (sscanf(s, "epoch %d loss %lf", &e, &l) == 2) {
            cr_assert_eq(e, n + 1, "epoch %d after epoch %d", e, n);
            loss[n++] = l;
        }
    }
    return n;
}

Test(tune, a_few_epochs_lower_the_loss_and_write_a_valid_file)
{
    static char out[1 << 16];
    char args[512], path[128];
    snprintf(path, sizeof path, "%s/weights.c", Dir);
    snprintf(args, sizeof args, "--epochs 8 --threads 2 --out '%s' %s", path, Sample);
    cr_assert_eq(run_tuner(args, out, sizeof out), 0, "tuner failed:\n%s", out);
    cr_assert(strstr(out, "K ") && strstr(out, "(fitted)"), "no fitted K in:\n%s", out);
    double loss[16];
    int n = epoch_losses(out, loss, 16);
    cr_assert_eq(n, 8, "%d epoch lines in:\n%s", n, out);
    for (int i = 1; i < n; i++)
        cr_assert_lt(loss[i], loss[i - 1], "loss went up at epoch %d:\n%s", i + 1, out);
    double final;
    const char *fl = strstr(out, "final loss ");
    cr_assert(fl && sscanf(fl, "final loss %lf", &final) == 1, "no final loss in:\n%s", out);
    cr_assert_lt(final, loss[0]);

    /* Every weight once; the default frozen ones unchanged; the rest moved. */
    WeightFile w, orig;
    parse_weights(path, &w);
    parse_weights("eval/weights.c", &orig);
    cr_assert_eq(w.count, N_WEIGHTS);
    cr_assert_eq(orig.count, N_WEIGHTS);
    int pawn = find(&w, "W_MATERIAL + 0"), king = find(&w, "W_MATERIAL + 5");
    int tempo = find(&w, "W_TEMPO");
    cr_assert_eq(w.mg[pawn], orig.mg[find(&orig, "W_MATERIAL + 0")]);
    cr_assert_eq(w.mg[king], 0);
    cr_assert_eq(w.eg[king], 0);
    cr_assert_eq(w.mg[tempo], orig.mg[find(&orig, "W_TEMPO")]);
    int moved = 0;
    for (int i = 0; i < w.count; i++) {
        int j = find(&orig, w.index[i]);
        moved += w.mg[i] != orig.mg[j] || w.eg[i] != orig.eg[j];
    }
    cr_assert_gt(moved, N_WEIGHTS / 2, "only %d weights changed", moved);

    /* It compiles in place of eval/weights.c. */
    char cmd[512];
    const char *cc = getenv("CC");
    snprintf(cmd, sizeof cmd,
             "%s -std=c11 -Wall -Wextra -Werror -Wmissing-prototypes -I eval -c -o '%s/w.o' '%s'",
             cc && *cc ? cc : "cc", Dir, path);
    cr_assert_eq(system(cmd), 0, "the tuner's output does not compile: %s", cmd);
}

Test(tune, no_epochs_write_the_weights_unchanged)
{
    static char out[1 << 16];
    char args[512], path[128];
    snprintf(path, sizeof path, "%s/same.c", Dir);
    snprintf(args, sizeof args, "--epochs 0 --threads 1 --k 1.0 --out '%s' %s", path, Sample);
    cr_assert_eq(run_tuner(args, out, sizeof out), 0, "tuner failed:\n%s", out);
    cr_assert(strstr(out, "(given)"), "K not taken from --k:\n%s", out);
    WeightFile w, orig;
    parse_weights(path, &w);
    parse_weights("eval/weights.c", &orig);
    cr_assert_eq(w.count, N_WEIGHTS);
    for (int i = 0; i < w.count; i++) {
        int j = find(&orig, w.index[i]);
        cr_assert(w.mg[i] == orig.mg[j] && w.eg[i] == orig.eg[j], "[%s] S(%d, %d), was S(%d, %d)",
                  w.index[i], w.mg[i], w.eg[i], orig.mg[j], orig.eg[j]);
    }
}

/* The hand-written gradient (the king danger's square and cap, the
 * complexity's clamp included) against central differences of the loss, for
 * every weight the tuner moves, with all freezes lifted but the impossible
 * entries. */
Test(tune, the_gradient_matches_central_differences)
{
    static char out[1 << 18];
    char args[512];
    snprintf(args, sizeof args, "--check-gradient --freeze none --threads 2 %s", Sample);
    int st = run_tuner(args, out, sizeof out);
    cr_assert_eq(st, 0, "gradient check failed (exit %d):\n%s", st, out);
    const char *sum = strstr(out, "weight halves, 0 disagree");
    cr_assert(sum, "no gradient-check summary:\n%s", out);
    int halves = 0;
    const char *p = strstr(out, "gradient check: ");
    for (; p; p = strstr(p + 1, "gradient check: "))
        if (sscanf(p, "gradient check: %d weight halves", &halves) == 1)
            break;
    /* Every half of every weight but the impossible ones: more than 1000. */
    cr_assert_gt(halves, 1000, "only %d weight halves checked", halves);
}

Test(tune, one_or_two_threads_give_the_same_fit)
{
    static char out1[1 << 16], out2[1 << 16];
    char args[512];
    double l1[8], l2[8];
    snprintf(args, sizeof args, "--epochs 3 --threads 1 --out '%s/t1.c' %s", Dir, Sample);
    cr_assert_eq(run_tuner(args, out1, sizeof out1), 0);
    snprintf(args, sizeof args, "--epochs 3 --threads 2 --out '%s/t2.c' %s", Dir, Sample);
    cr_assert_eq(run_tuner(args, out2, sizeof out2), 0);
    cr_assert_eq(epoch_losses(out1, l1, 8), 3);
    cr_assert_eq(epoch_losses(out2, l2, 8), 3);
    for (int i = 0; i < 3; i++)
        cr_assert(l1[i] - l2[i] < 1e-6 && l2[i] - l1[i] < 1e-6, "epoch %d: %.7f vs %.7f", i + 1,
                  l1[i], l2[i]);
}

/* A bad input: exit status 2, a message naming the problem, no output file. */
static void expect_tune_error(const char *file_args, const char *message)
{
    static char out[1 << 12];
    char args[512], err[8192], path[128];
    snprintf(path, sizeof path, "%s/never.c", Dir);
    snprintf(args, sizeof args, "--epochs 1 --out '%s' %s", path, file_args);
    cr_assert_eq(run_tuner(args, out, sizeof out), 2, "%s: not exit status 2", file_args);
    read_stderr(err, sizeof err);
    cr_assert(strstr(err, message), "%s: expected '%s' in: %s", file_args, message, err);
    cr_assert(access(path, F_OK) != 0, "%s: an output file was written", file_args);
}

static void write_file(const char *name, const void *data, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", Dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    cr_assert_eq(fwrite(data, 1, n, f), n);
    fclose(f);
}

Test(tune, bad_input_exits_with_status_2)
{
    unsigned char rec[96];
    FILE *f = fopen(Sample, "rb");
    cr_assert(f);
    cr_assert_eq(fread(rec, 1, sizeof rec, f), sizeof rec);
    fclose(f);
    write_file("short.bin", rec, 40);
    memset(rec + 64, 0xff, 32); /* 64 pieces in the third record */
    write_file("bad.bin", rec, 96);
    memcpy(rec + 64, rec, 32);
    rec[64 + 8] = 0x77; /* a piece code 7 */
    write_file("badcode.bin", rec, 96);

    char a[256], b[256], c[256], d[256];
    snprintf(a, sizeof a, "%s/missing.bin", Dir);
    expect_tune_error(a, "cannot open");
    snprintf(b, sizeof b, "%s '%s/short.bin'", Sample, Dir);
    expect_tune_error(b, "not a positive multiple of 32");
    snprintf(c, sizeof c, "'%s/bad.bin'", Dir);
    expect_tune_error(c, "record 2 ");
    snprintf(d, sizeof d, "'%s/badcode.bin'", Dir);
    expect_tune_error(d, "record 2 ");
    expect_tune_error("", "no data file");
    expect_tune_error("--freeze nosuchweight x", "nosuchweight");
    expect_tune_error("--lambda 1.5 x", "--lambda");
}

/* --list names every weight once, the new groups included, and marks the
 * entries no position uses as frozen; --freeze takes group names. */
Test(tune, list_names_every_weight_and_groups_freeze)
{
    static char out[1 << 17];
    cr_assert_eq(run_tuner("--list", out, sizeof out), 0);
    int lines = 0;
    for (const char *s = out; (s = strchr(s, '\n')); s++)
        lines++;
    cr_assert_eq(lines, N_WEIGHTS, "%d lines from --list", lines);
    static const char *const Names[] = {" psqt.knight.e4 ",
                                        " psqt.king.h8 ",
                                        " mob.knight.8 ",
                                        " mob.queen.27 ",
                                        " backward ",
                                        " supported.rank7 ",
                                        " phalanx.rank2 ",
                                        " passed_blocked.rank7 ",
                                        " passed_free.rank7 ",
                                        " threat_by_pawn.queen ",
                                        " threat_by_minor.rook ",
                                        " threat_by_rook ",
                                        " hanging ",
                                        " outpost_knight ",
                                        " outpost_bishop ",
                                        " rook_seventh ",
                                        " king_zone_att.queen ",
                                        " safe_check.knight ",
                                        " king_zone_weak ",
                                        " storm.4 ",
                                        " space ",
                                        " tempo "};
    for (size_t i = 0; i < sizeof Names / sizeof *Names; i++)
        cr_assert(strstr(out, Names[i]), "no '%s' in --list", Names[i]);
    static const char *const Fixed[] = {"psqt.pawn.a1 ", "psqt.pawn.h8 ", "supported.rank2 ",
                                        "psqt.pawn.a2 ", "supported.rank3 "};
    for (size_t i = 0; i < sizeof Fixed / sizeof *Fixed; i++) {
        char line[128];
        const char *s = strstr(out, Fixed[i]);
        cr_assert(s, "no '%s' in --list", Fixed[i]);
        snprintf(line, sizeof line, "%.*s", (int)strcspn(s, "\n"), s);
        bool frozen = strstr(line, "frozen-mg frozen-eg") != NULL;
        cr_assert_eq(frozen, i < 3, "%s", line);
    }

    /* Frozen groups stay as they were; the other weights move. */
    char args[512], path[128];
    snprintf(path, sizeof path, "%s/groups.c", Dir);
    snprintf(args, sizeof args, "--epochs 4 --threads 1 --freeze psqt,mob.rook --out '%s' %s", path,
             Sample);
    cr_assert_eq(run_tuner(args, out, sizeof out), 0, "tuner failed:\n%s", out);
    WeightFile w, orig;
    parse_weights(path, &w);
    parse_weights("eval/weights.c", &orig);
    cr_assert_eq(w.count, N_WEIGHTS);
    int moved = 0;
    for (int i = 0; i < w.count; i++) {
        int j = find(&orig, w.index[i]);
        bool same = w.mg[i] == orig.mg[j] && w.eg[i] == orig.eg[j];
        if (!strncmp(w.index[i], "W_PSQT ", 7) || !strncmp(w.index[i], "W_MOB_ROOK ", 11))
            cr_assert(same, "[%s] moved while frozen", w.index[i]);
        else
            moved += !same;
    }
    cr_assert_gt(moved, 40, "only %d weights moved", moved);
}
