/* The network's trainer (eval/train/, rokade-train): the gradient against
 * central differences on a tiny net, the float forward pass against a plain
 * double-precision one written here, a few hundred steps on
 * tests/data/train_sample.vf (the first 297 games of gen1) lowering the
 * loss, the written file read back by a loader written here from
 * eval/nnue_format.h alone (size, header, checksum, bounds) and its integer
 * output against the float one, resume after a cut-off run giving the same
 * bytes as an uninterrupted one, a checkpoint of other settings refused, and
 * bad options exiting 2 (in process, and through ROKADE_TRAIN, default
 * ./rokade-train). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../eval/nnue/format.h"
#include "../eval/train/train.h"
#include "../movegen/platform/platform.h"
#include "../movegen/records/viriformat.h"
#include "harness.h"

static const char *const Sample = "tests/data/train_sample.vf";

static char Dir[] = "/tmp/rokade-train-test-XXXXXX";

static void setup(void)
{
    harness_make_dir(Dir);
    movegen_init();
}

static void teardown(void) { harness_remove_dir(Dir); }

TestSuite(train, .init = setup, .fini = teardown, .timeout = 60);

/* Up to max positions of the sample (default filter), targets for scale
 * 100 and wdl 0.3. */
static TrainPos *load_sample(size_t max, size_t *n)
{
    char err[256];
    VfReader *r = vf_open(Sample, err, sizeof err);
    cr_assert(r, "%s", err);
    TrainPos *pos = malloc(max * sizeof *pos);
    cr_assert(pos);
    VfFilter f = vf_filter_default();
    *n = 0;
    int st;
    while (*n < max && (st = vf_next_game(r, err, sizeof err)) != RECORD_END) {
        cr_assert(st == RECORD_GAME, "%s", err);
        VfPosition p;
        while (*n < max && vf_next_position(r, &f, &p))
            if (train_pos_make(p.pos, p.score, p.result, &pos[*n])) {
                pos[*n].target = train_target(&pos[*n], 100, 0.3);
                (*n)++;
            }
    }
    vf_close(r);
    return pos;
}

/* The network's output in double precision, straight from the definition in
 * eval/nnue_format.h, with the features from the position's pieces. */
static double reference_eval(const TrainNet *net, const TrainPos *p)
{
    const size_t h = (size_t)net->hidden, nb = (size_t)net->buckets;
    /* The bucket: pieces 2..32 in `buckets` equal ranges. */
    const size_t b = (size_t)(__builtin_popcountll(p->occ) - 2) * nb / 31;
    const float *ftw = net->w, *ftb = train_ft_bias(net), *ow = ftb + h + b * 2 * h;
    double y = ftb[h + nb * 2 * h + b];
    int us = p->stm;
    for (int k = 0; k < 2; k++) {
        int persp = k == 0 ? us : !us, feat[32], nf = 0, ksq = 0;
        for (int sq = 0, i = 0; sq < 64; sq++)
            if (p->occ >> sq & 1) {
                int piece = p->pieces[i / 2] >> (4 * (i & 1)) & 15;
                ksq = piece == make_piece(persp, KING) ? sq : ksq;
                i++;
            }
        for (int sq = 0; sq < 64; sq++)
            if (p->occ >> sq & 1) {
                int piece = p->pieces[nf / 2] >> (4 * (nf & 1)) & 15;
                feat[nf++] = nnue_feature(persp, ksq, piece, sq);
            }
        for (size_t i = 0; i < h; i++) {
            double a = ftb[i];
            for (int j = 0; j < nf; j++) {
                a += ftw[(size_t)feat[j] * h + i];
                if (TRAIN_FACTOR_ROWS) /* the factor row of the same piece and square */
                    a += ftw[(size_t)(NNUE_INPUTS + feat[j] % NNUE_FEATURES) * h + i];
            }
            double c = a < 0 ? 0 : a > 1 ? 1 : a;
            y += c * c * ow[k * h + i];
        }
    }
    return y;
}

Test(train, features_and_target)
{
    Position pos;
    char err[128];
    cr_assert(pos_set_fen(&pos, "4k3/8/8/8/8/8/3P4/4K3 b - - 0 1", false, err, sizeof err));
    TrainPos p;
    cr_assert(train_pos_make(&pos, 50, 0, &p));
    uint16_t stm[32], nstm[32];
    cr_assert_eq(train_pos_features(&p, stm, nstm), 3);
    /* In square order e1, d2, e8; Black to move, so the side to move's
     * perspective sees Black's pieces as its own and the board mirrored.
     * Kings on e1 and e8 (and on d1 and d8 below) are in king bucket 1 of
     * layout 5, the only bucket of layout 1 (test-nnue-layout runs this
     * test in those two; the mirrored layout 4 has its own in test_nnue). */
    const int kb = NNUE_KING_LAYOUT == 5 ? NNUE_FEATURES : 0;
    cr_assert_eq(stm[0], kb + 384 + 5 * 64 + (SQ_E1 ^ 56));
    cr_assert_eq(stm[1], kb + 384 + 0 * 64 + (SQ_D2 ^ 56));
    cr_assert_eq(stm[2], kb + 5 * 64 + (SQ_E8 ^ 56));
    cr_assert_eq(nstm[0], kb + 5 * 64 + SQ_E1);
    cr_assert_eq(nstm[1], kb + 0 * 64 + SQ_D2);
    cr_assert_eq(nstm[2], kb + 384 + 5 * 64 + SQ_E8);
    cr_assert_float_eq(train_target(&p, 100, 0.25), 0.75 / (1 + exp(-0.5)), 1e-6);

    /* Mirrored (TRAIN_MIRROR), the features are those of the board with
     * files a and h swapped: here 3k4/8/8/8/8/8/4P3/3K4 b, whose squares in
     * order are d1, e2, d8. */
    TrainPos m = p;
    m.stm |= TRAIN_MIRROR;
    uint16_t mstm[32], mnstm[32];
    cr_assert_eq(train_pos_features(&m, mstm, mnstm), 3);
    Position mpos;
    cr_assert(pos_set_fen(&mpos, "3k4/8/8/8/8/8/4P3/3K4 b - - 0 1", false, err, sizeof err));
    TrainPos q;
    cr_assert(train_pos_make(&mpos, 50, 0, &q));
    cr_assert_eq(train_pos_features(&q, stm, nstm), 3);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(mstm[i], stm[i], "feature %d of the side to move", i);
        cr_assert_eq(mnstm[i], nstm[i], "feature %d of the other side", i);
    }
    cr_assert_eq(mstm[2], kb + 5 * 64 + (SQ_D8 ^ 56));
}

Test(train, forward_matches_reference)
{
    size_t n;
    TrainPos *pos = load_sample(500, &n);
    for (int buckets = 1; buckets <= NNUE_MAX_BUCKETS; buckets += NNUE_MAX_BUCKETS - 1) {
        TrainNet net;
        cr_assert(train_net_init(&net, 48, buckets, 7));
        for (size_t i = 0; i < n; i++) {
            double y = train_net_eval(&net, &pos[i]), r = reference_eval(&net, &pos[i]);
            cr_assert(fabs(y - r) < 1e-4, "%d buckets, position %zu: %f (%s) against %f", buckets,
                      i, y, train_simd_name(), r);
        }
        train_net_free(&net);
    }
    free(pos);
}

static double loss_sum(const TrainNet *net, const TrainPos *pos, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double e = 1 / (1 + exp(-reference_eval(net, &pos[i]))) - pos[i].target;
        s += e * e;
    }
    return s;
}

/* Every parameter of a 16-wide net of 3 output buckets that the positions
 * use (and the first rows they do not use), against central differences of
 * the double-precision loss; a parameter whose one-sided differences
 * disagree sits on a kink of SCReLU and is skipped. The six positions come
 * two from each bucket that the sample has (at least two buckets). */
Test(train, gradient_check)
{
    size_t total;
    TrainPos *all = load_sample(30000, &total);
    TrainPos pos[6];
    size_t n = 0;
    int per_bucket[3] = {0}, buckets_used = 0;
    for (size_t i = 0; i < total && n < 6; i++) {
        int k = nnue_bucket(__builtin_popcountll(all[i].occ), 3);
        if (per_bucket[k] < 2) {
            buckets_used += per_bucket[k] == 0;
            per_bucket[k]++;
            pos[n++] = all[i];
        }
    }
    free(all);
    cr_assert_eq(n, 6);
    cr_assert_geq(buckets_used, 2);
    TrainNet net;
    cr_assert(train_net_init(&net, 16, 3, 3));
    const TrainPos *ptrs[6];
    for (size_t i = 0; i < n; i++)
        ptrs[i] = &pos[i];
    float *grad = plat_aligned_alloc(64, net.n * sizeof *grad); /* the SIMD code's alignment */
    cr_assert(grad);
    memset(grad, 0, net.n * sizeof *grad);
    train_net_grad(&net, ptrs, n, grad);

    const float eps = 1e-3f;
    int checked = 0, kinks = 0;
    double l0 = loss_sum(&net, pos, n);
    bool used[TRAIN_ROWS] = {false};
    for (size_t k = 0; k < n; k++) {
        uint16_t f[2][32];
        int nf = train_pos_features(&pos[k], f[0], f[1]);
        for (int j = 0; j < nf; j++)
            for (int c = 0; c < 2; c++) {
                used[f[c][j]] = true;
                if (TRAIN_FACTOR_ROWS)
                    used[train_factor_row(f[c][j])] = true;
            }
    }
    for (size_t i = 0; i < net.n; i++) {
        size_t row = i / 16;
        if (row < TRAIN_ROWS && !used[row] && row > 2)
            continue;
        float w = net.w[i];
        net.w[i] = w + eps;
        double lp = loss_sum(&net, pos, n);
        net.w[i] = w - eps;
        double lm = loss_sum(&net, pos, n);
        net.w[i] = w;
        double num = (lp - lm) / (2.0 * (double)eps);
        if (lp == l0 && lm == l0) {
            cr_assert_eq(grad[i], 0, "parameter %zu: gradient %g, not used", i, grad[i]);
            continue;
        }
        double fwd = (lp - l0) / eps, back = (l0 - lm) / eps;
        if (fabs(fwd - back) > 1e-3 + 0.1 * fabs(num)) {
            kinks++;
            continue;
        }
        checked++;
        cr_assert(fabs(grad[i] - num) <= 1e-5 + 1e-2 * fabs(num),
                  "parameter %zu: gradient %.8f, central difference %.8f", i, grad[i], num);
    }
    cr_assert(checked > 500 && kinks < checked / 20, "checked %d, kinks %d", checked, kinks);
    plat_aligned_free(grad);
    train_net_free(&net);
}

static double mean_loss(const TrainNet *net, const TrainPos *pos, size_t n)
{
    return train_net_loss(net, pos, n, 2);
}

/* 300 steps of 512 on the sample: the loss goes down by a quarter, two
 * threads give what one gives, and the clip holds. */
Test(train, steps_lower_the_loss)
{
    size_t n;
    TrainPos *pos = load_sample(30000, &n);
    cr_assert(n > 20000);
    TrainOpt o1, o2;
    cr_assert(train_opt_init(&o1, 32, 4, 1, 5));
    cr_assert(train_opt_init(&o2, 32, 4, 2, 5));
    double before = mean_loss(&o1.net, pos, n);
    const TrainPos *batch[512];
    uint64_t s = 1;
    for (int step = 0; step < 300; step++) {
        for (int i = 0; i < 512; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            batch[i] = &pos[(s >> 33) % n];
        }
        train_opt_step(&o1, batch, 512, 0.003, 0.01);
        train_opt_step(&o2, batch, 512, 0.003, 0.01);
    }
    double after = mean_loss(&o1.net, pos, n), after2 = mean_loss(&o2.net, pos, n);
    cr_assert(after < 0.75 * before, "loss %.6f -> %.6f", before, after);
    cr_assert(fabs(after - after2) < 1e-4, "one thread %.6f, two %.6f", after, after2);
    size_t clipped = (size_t)(TRAIN_ROWS + 1 + 2 * 4) * 32; /* all but the output biases */
    for (size_t i = 0; i < clipped; i++)
        cr_assert(fabsf(o1.net.w[i]) <= TRAIN_CLIP, "parameter %zu: %f", i, o1.net.w[i]);
    train_opt_free(&o1);
    train_opt_free(&o2);
    free(pos);
}

/* ---- A loader written from eval/nnue_format.h ---------------------------- */

typedef struct {
    int hidden, scale, buckets;
    int16_t *ftw, *ftb, *ow; /* ow: [buckets][2 * hidden] */
    int32_t ob[NNUE_MAX_BUCKETS];
} QNet;

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int16_t get_i16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }

/* Reads a net file; NULL with the reason in why. */
static const char *qnet_load(const char *path, QNet *q)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return "cannot open";
    static uint8_t buf[4 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (n < NNUE_HEADER_SIZE || memcmp(buf, "RKNN", 4) != 0)
        return "no magic";
    if (get_u32(buf + 4) != 2 || get_u32(buf + 8) != NNUE_INPUTS)
        return "version or inputs";
    q->hidden = (int)get_u32(buf + 12);
    if (get_u32(buf + 16) != NNUE_QA || get_u32(buf + 20) != NNUE_QB)
        return "qa or qb";
    q->scale = (int32_t)get_u32(buf + 24);
    q->buckets = (int)get_u32(buf + 28);
    if (q->scale < 1 || q->scale > 10000 || q->buckets < 1 || q->buckets > NNUE_MAX_BUCKETS)
        return "scale or buckets";
    if (n
        != (size_t)NNUE_HEADER_SIZE + 2 * ((size_t)NNUE_INPUTS + 1) * (size_t)q->hidden
               + (size_t)q->buckets * (4 * (size_t)q->hidden + 4) + 4)
        return "size";
    if (get_u32(buf + n - 4) != nnue_checksum(buf, n - 4))
        return "checksum";
    size_t h = (size_t)q->hidden;
    q->ftw = malloc(NNUE_INPUTS * h * 2);
    q->ftb = malloc(h * 2);
    q->ow = malloc(4 * h * (size_t)q->buckets);
    const uint8_t *p = buf + NNUE_HEADER_SIZE;
    for (size_t i = 0; i < NNUE_INPUTS * h; i++, p += 2)
        q->ftw[i] = get_i16(p);
    for (size_t i = 0; i < h; i++, p += 2)
        q->ftb[i] = get_i16(p);
    for (size_t i = 0; i < 2 * h * (size_t)q->buckets; i++, p += 2)
        q->ow[i] = get_i16(p);
    for (int k = 0; k < q->buckets; k++, p += 4)
        q->ob[k] = (int32_t)get_u32(p);
    return NULL;
}

static void qnet_free(QNet *q)
{
    free(q->ftw);
    free(q->ftb);
    free(q->ow);
}

/* The integer output (y * QA * QB) as the format defines it, checking the
 * bounds it promises: accumulators and c * w within int16. */
static long long qnet_output(const QNet *q, const TrainPos *p)
{
    uint16_t f[2][32];
    int nf = train_pos_features(p, f[0], f[1]);
    const int b = (nf - 2) * q->buckets / 31;
    const int16_t *ow = q->ow + (size_t)b * 2 * (size_t)q->hidden;
    long long sum = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < q->hidden; i++) {
            int a = q->ftb[i];
            for (int j = 0; j < nf; j++)
                a += q->ftw[f[k][j] * q->hidden + i];
            cr_assert(a >= INT16_MIN && a <= INT16_MAX);
            int c = a < 0 ? 0 : a > NNUE_QA ? NNUE_QA : a, w = ow[k * q->hidden + i];
            cr_assert(c * w >= INT16_MIN && c * w <= INT16_MAX);
            sum += (long long)(c * w) * c;
        }
    return sum / NNUE_QA + q->ob[b];
}

/* A trained net with 8 output buckets (some weights pushed to the clip too)
 * written, read back and evaluated in integers: within 25 cp of the float
 * net on every position and 4 cp on average at scale 150, i.e. 0.17 and
 * 0.03 logits (the rounding of the output weights to 1/64 dominates;
 * measured 16.1 and 2.8, every bucket alike: 1.4-4.1 on average; one
 * bucket gives 10.6 and 2.2). */
Test(train, quantized_file_agrees)
{
    size_t n;
    TrainPos *pos = load_sample(30000, &n);
    cr_assert(n > 20000);
    TrainOpt o;
    cr_assert(train_opt_init(&o, 64, 8, 2, 9));
    const TrainPos *batch[1024];
    for (int step = 0; step < 60; step++) {
        for (int i = 0; i < 1024; i++)
            batch[i] = &pos[((size_t)step * 1024 + (size_t)i) * 7919 % n];
        train_opt_step(&o, batch, 1024, 0.003, 0.01);
    }
    /* Some weights at the clip, as long training leaves them. */
    for (size_t i = 0; i < o.net.n; i += 97)
        o.net.w[i] *= 40;
    train_net_clip(&o.net);

    char path[256], err[256];
    snprintf(path, sizeof path, "%s/q.nnue", Dir);
    cr_assert(train_net_write(&o.net, 150, path, err, sizeof err), "%s", err);
    QNet q;
    const char *why = qnet_load(path, &q);
    cr_assert(!why, "%s: %s", path, why);
    cr_assert_eq(q.hidden, 64);
    cr_assert_eq(q.scale, 150);
    cr_assert_eq(q.buckets, 8);
    for (int i = 0; i < 2 * q.hidden * q.buckets; i++)
        cr_assert(abs(q.ow[i]) <= NNUE_WEIGHT_LIMIT);
    double sum = 0, worst = 0, count = 0;
    for (size_t i = 0; i < n; i += 7, count++) {
        double fl = train_net_eval(&o.net, &pos[i]) * 150.0;
        double in = (double)qnet_output(&q, &pos[i]) * 150.0 / (NNUE_QA * NNUE_QB);
        double d = fabs(fl - in);
        sum += d, worst = d > worst ? d : worst;
    }
    double mean = sum / count;
    cr_assert(worst < 25 && mean < 4, "float against integer: mean %.3f cp, worst %.3f cp", mean,
              worst);
    cr_log_info("float against integer: mean %.3f cp, worst %.3f cp", mean, worst);
    qnet_free(&q);

    /* One byte changed: the checksum no longer matches. */
    FILE *f = fopen(path, "r+b");
    cr_assert(f);
    fseek(f, 1000, SEEK_SET);
    fputc(0x55, f);
    fclose(f);
    why = qnet_load(path, &q);
    cr_assert(why && !strcmp(why, "checksum"), "a damaged file read as %s", why ? why : "good");
    train_opt_free(&o);
    free(pos);
}

/* ---- The program ---------------------------------------------------------- */

/* Runs train_main with the words of args (stdout and stderr to files in
 * Dir); returns its exit status. */
static int run(const char *args)
{
    char buf[1024], *argv[64], *save = NULL;
    snprintf(buf, sizeof buf, "%s", args);
    int argc = 0;
    argv[argc++] = (char *)"rokade-train";
    for (char *w = strtok_r(buf, " ", &save); w && argc < 63; w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    argv[argc] = NULL;
    char out[256], errp[256];
    snprintf(out, sizeof out, "%s/stdout", Dir);
    snprintf(errp, sizeof errp, "%s/stderr", Dir);
    fflush(stdout);
    fflush(stderr);
    cr_assert(freopen(out, "w", stdout) && freopen(errp, "w", stderr));
    int st = train_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    return st;
}

static void read_file(const char *name, char *buf, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", Dir, name);
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    size_t len = fread(buf, 1, n - 1, f);
    buf[len] = '\0';
    fclose(f);
}

static bool same_file(const char *a, const char *b)
{
    static char x[1 << 22], y[1 << 22];
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    cr_assert(f && g, "cannot open %s or %s", a, b);
    size_t n = fread(x, 1, sizeof x, f), m = fread(y, 1, sizeof y, g);
    fclose(f);
    fclose(g);
    return n == m && n > 0 && !memcmp(x, y, n);
}

#define COMMON                                                                                     \
    "--data tests/data/train_sample.vf --hidden 32 --buckets 4 --epochs 3 --batch 2048 --seed 4"

Test(train, resume_gives_the_same_net)
{
    char args[512], a[256], b[256], text[8192];
    snprintf(args, sizeof args, COMMON " --out %s/a", Dir);
    cr_assert_eq(run(args), 0);
    snprintf(args, sizeof args, COMMON " --out %s/b --stop-after 1", Dir);
    cr_assert_eq(run(args), 0);
    snprintf(a, sizeof a, "%s/b/final.nnue", Dir);
    cr_assert(access(a, F_OK) != 0, "a stopped run wrote final.nnue");
    snprintf(args, sizeof args, COMMON " --out %s/b", Dir);
    cr_assert_eq(run(args), 0);
    read_file("stdout", text, sizeof text);
    cr_assert(strstr(text, "resuming from") && strstr(text, "after epoch 1 of 3"), "%s", text);
    cr_assert(!strstr(text, "epoch 1/3"), "an epoch was repeated:\n%s", text);
    const char *files[] = {"final.nnue", "checkpoint.bin", "net-epoch1.nnue", "net-epoch3.nnue"};
    for (int i = 0; i < 4; i++) {
        snprintf(a, sizeof a, "%s/a/%s", Dir, files[i]);
        snprintf(b, sizeof b, "%s/b/%s", Dir, files[i]);
        cr_assert(same_file(a, b), "%s and %s differ", a, b);
    }
    /* The first run once more: nothing left to do but the final net. */
    snprintf(args, sizeof args, COMMON " --out %s/a", Dir);
    cr_assert_eq(run(args), 0);
    read_file("stdout", text, sizeof text);
    cr_assert(strstr(text, "after epoch 3 of 3") && !strstr(text, "epoch 3/3"), "%s", text);
    /* Other settings are refused, naming the first difference. */
    const char *refused[][2] = {
        {COMMON " --out %s/a --wdl 0.5", "other settings (--wdl 0.3, now 0.5)"},
        {"--data tests/data/train_sample.vf --hidden 48 --buckets 4 --epochs 3 --batch 2048 "
         "--seed 4 --out %s/a",
         "--hidden 32, now 48"},
        {"--data tests/data/train_sample.vf --hidden 32 --epochs 3 --batch 2048 --seed 4 "
         "--out %s/a",
         "--buckets 4, now 1"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        snprintf(args, sizeof args, refused[i][0], Dir);
        cr_assert_eq(run(args), 2);
        read_file("stderr", text, sizeof text);
        cr_assert(strstr(text, refused[i][1]), "%s", text);
    }
}

/* The validation loss the program printed before its first epoch. */
static double epoch0_loss(void)
{
    static char text[16384];
    read_file("stdout", text, sizeof text);
    const char *e = strstr(text, "epoch 0  validation ");
    cr_assert(e, "no epoch 0 line:\n%s", text);
    return atof(e + strlen("epoch 0  validation "));
}

/* --init: a net read back and written again without an epoch is the same
 * file; a one-bucket net starts every bucket of a bucketed one; a wider net
 * starts with the same output; training from it starts at its loss, below a
 * random net's; its scale is taken; a narrower net, other buckets, bad files
 * and a checkpoint of a run without it are refused. */
Test(train, init_from_a_net)
{
    char args[512], a[256], b[256], text[8192];
#define SMALL "--data tests/data/train_sample.vf --hidden 32 --batch 2048 --seed 4 --scale 111"
    snprintf(args, sizeof args, SMALL " --epochs 5 --lr 0.005 --out %s/a", Dir);
    cr_assert_eq(run(args), 0);
    double random_loss = epoch0_loss();
    read_file("stdout", text, sizeof text);
    const char *e = strstr(text, "epoch 1/5  train ");
    cr_assert(e, "%s", text);
    double random_first = atof(e + strlen("epoch 1/5  train "));

    snprintf(args, sizeof args,
             "--data tests/data/train_sample.vf --init %s/a/final.nnue --epochs 0 --out %s/b", Dir,
             Dir);
    cr_assert_eq(run(args), 0);
    read_file("stdout", text, sizeof text);
    cr_assert(strstr(text, "hidden 32") && strstr(text, "scale 111 (the --init net's)"), "%s",
              text);
    double init_loss = epoch0_loss();
    cr_assert(init_loss < random_loss - 0.005, "from the net %.6f, from random weights %.6f",
              init_loss, random_loss);
    snprintf(a, sizeof a, "%s/a/final.nnue", Dir);
    snprintf(b, sizeof b, "%s/b/final.nnue", Dir);
    cr_assert(same_file(a, b), "the net read and written again differs from %s", a);

    /* One bucket into four: every bucket a copy, the same outputs. */
    snprintf(args, sizeof args, SMALL " --init %s --buckets 4 --epochs 0 --out %s/c", a, Dir);
    cr_assert_eq(run(args), 0);
    cr_assert_float_eq(epoch0_loss(), init_loss, 1e-9);
    QNet q;
    snprintf(b, sizeof b, "%s/c/final.nnue", Dir);
    const char *why = qnet_load(b, &q);
    cr_assert(!why, "%s: %s", b, why);
    cr_assert_eq(q.buckets, 4);
    for (int k = 1; k < 4; k++) {
        cr_assert_eq(q.ob[k], q.ob[0]);
        cr_assert(!memcmp(q.ow + (size_t)k * 2 * q.hidden, q.ow,
                          2 * (size_t)q.hidden * sizeof *q.ow));
    }
    qnet_free(&q);

    /* 32 values widened to 64: the new ones have output weights 0, so the
     * output (and the loss) is the same; the old ones are where they were. */
    snprintf(args, sizeof args, SMALL " --init %s --hidden 64 --epochs 0 --out %s/w", a, Dir);
    cr_assert_eq(run(args), 0);
    cr_assert_float_eq(epoch0_loss(), init_loss, 1e-9);
    QNet narrow, wide;
    snprintf(b, sizeof b, "%s/w/final.nnue", Dir);
    cr_assert(!(why = qnet_load(a, &narrow)), "%s: %s", a, why);
    cr_assert(!(why = qnet_load(b, &wide)), "%s: %s", b, why);
    cr_assert_eq(wide.hidden, 64);
    for (int f = 0; f < NNUE_INPUTS; f++)
        cr_assert(!memcmp(wide.ftw + (size_t)f * 64, narrow.ftw + (size_t)f * 32,
                          32 * sizeof *wide.ftw),
                  "feature %d", f);
    for (int i = 0; i < 64; i++) {
        cr_assert_eq(wide.ow[i], i < 32 ? narrow.ow[i] : 0);
        cr_assert_eq(wide.ow[64 + i], i < 32 ? narrow.ow[32 + i] : 0);
    }
    qnet_free(&narrow);
    qnet_free(&wide);

    /* Training from it goes on from there: its first epoch's training loss
     * is far below that of the first epoch from random weights. */
    snprintf(args, sizeof args, SMALL " --init %s --epochs 1 --lr 0.0003 --out %s/d", a, Dir);
    cr_assert_eq(run(args), 0);
    read_file("stdout", text, sizeof text);
    e = strstr(text, "epoch 1/1  train ");
    cr_assert(e, "%s", text);
    double init_first = atof(e + strlen("epoch 1/1  train "));
    cr_assert(init_first < random_first - 0.01, "first epoch from the net %.6f, from random %.6f",
              init_first, random_first);
    cr_log_info("first epoch's training loss from the net %.6f, from random weights %.6f",
                init_first, random_first);

    const char *refused[][2] = {
        /* The run in a/ had no --init: its checkpoint is not this run's. */
        {SMALL " --epochs 5 --lr 0.005 --init %s/a/final.nnue --out %s/a", "no --init, now one"},
        {SMALL " --hidden 16 --init %s/a/final.nnue --out %s/e",
         "hidden size 32, more than --hidden 16"},
        {SMALL " --buckets 2 --init %s/c/final.nnue --out %s/e", "4 output buckets, not 2"},
        {SMALL " --init %s/missing.nnue --out %s/e", "missing.nnue: No such file"},
        {SMALL " --init %s/a/checkpoint.bin --out %s/e", "not a Rokade network"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        snprintf(args, sizeof args, refused[i][0], Dir, Dir);
        cr_assert_eq(run(args), 2, "%s", args);
        read_file("stderr", text, sizeof text);
        cr_assert(strstr(text, refused[i][1]), "`%s`: %s", args, text);
    }
    /* A damaged net: the checksum no longer matches. */
    FILE *f = fopen(a, "r+b");
    cr_assert(f);
    fseek(f, 500, SEEK_SET);
    fputc(fgetc(f) ^ 0x10, f);
    fclose(f);
    snprintf(args, sizeof args, SMALL " --init %s --out %s/e", a, Dir);
    cr_assert_eq(run(args), 2);
    read_file("stderr", text, sizeof text);
    cr_assert(strstr(text, "checksum mismatch"), "%s", text);
#undef SMALL
}

/* A net file written here byte by byte: `inputs` feature rows of `hidden`
 * values, one bucket; weight i of row f is (f * 7 + i * 3) % 61 - 30. */
static uint8_t *small_net(uint32_t inputs, uint32_t hidden, size_t *size)
{
    *size = nnue_file_size(inputs, hidden, 1);
    uint8_t *buf = calloc(1, *size);
    cr_assert(buf);
    nnue_header_write(buf, &(NnueHeader){.inputs = inputs,
                                         .hidden = hidden,
                                         .qa = NNUE_QA,
                                         .qb = NNUE_QB,
                                         .scale = 150,
                                         .buckets = 1});
    uint8_t *p = buf + NNUE_HEADER_SIZE;
    for (uint32_t f = 0; f <= inputs; f++) /* the rows, then the biases as row `inputs` */
        for (uint32_t i = 0; i < hidden; i++, p += 2)
            nnue_put_i16(p, (int16_t)((f * 7 + i * 3) % 61 - 30));
    for (uint32_t i = 0; i < 2 * hidden; i++, p += 2)
        nnue_put_i16(p, (int16_t)(i % 21 - 10));
    nnue_put_u32(p, (uint32_t)-1234), p += 4;
    nnue_put_u32(p, nnue_checksum(buf, (size_t)(p - buf)));
    return buf;
}

/* A net of 768 inputs starts a trainer built with king buckets (make
 * NNUE_KING_LAYOUT=4 or 5): its rows become the factor rows that every king
 * bucket shares, the buckets' own rows start at 0, and the written file has
 * the file's rows in every bucket; the biases and output layer are the
 * file's; a net of other inputs is refused. In a build of one king bucket
 * (layout 1) a net of four is refused. */
Test(train, king_buckets_from_one)
{
    char err[256];
    NnueHeader h;
    TrainNet net = {0};
    size_t size;
    uint8_t *buf = small_net(NNUE_FEATURES, 32, &size);
    if (NNUE_KING_BUCKETS == 1) {
        uint8_t *four = small_net(4 * NNUE_FEATURES, 32, &size);
        cr_assert_not(train_net_read(&net, four, size, 0, 1, 1, &h, err, sizeof err));
        cr_assert(strstr(err, "inputs 3072"), "%s", err);
        free(four);
    } else {
        cr_assert(train_net_read(&net, buf, size, 0, 2, 1, &h, err, sizeof err), "%s", err);
        cr_assert_eq(h.inputs, NNUE_FEATURES);
        cr_assert_eq(net.hidden, 32);
        /* The file's rows are the factor rows; the king buckets' own rows 0. */
        const uint8_t *rows = buf + NNUE_HEADER_SIZE;
        for (int f = 0; f < NNUE_FEATURES; f++)
            for (int i = 0; i < 32; i++) {
                cr_assert_float_eq(net.w[((size_t)NNUE_INPUTS + f) * 32 + i],
                                   (float)nnue_get_i16(rows + 2 * ((size_t)f * 32 + i)) / NNUE_QA,
                                   1e-7, "factor row %d, value %d", f, i);
                for (int k = 0; k < NNUE_KING_BUCKETS; k++)
                    cr_assert_eq(net.w[((size_t)k * NNUE_FEATURES + f) * 32 + i], 0);
            }
        const float *bias = train_ft_bias(&net);
        for (int i = 0; i < 32; i++)
            cr_assert_float_eq(bias[i],
                               (float)nnue_get_i16(rows + 2 * ((size_t)NNUE_FEATURES * 32 + i))
                                   / NNUE_QA,
                               1e-7);
        const float *ow = bias + 32;
        for (int b = 0; b < 2; b++) /* the one output bucket copied to both */
            for (int i = 0; i < 64; i++)
                cr_assert_float_eq(ow[b * 64 + i], (float)(i % 21 - 10) / NNUE_QB, 1e-7);
        cr_assert_float_eq(ow[128], -1234.0f / (NNUE_QA * NNUE_QB), 1e-7);

        /* Written, every king bucket has the file's rows (the factor
         * added); read back, the rows are the buckets' own and the factor
         * rows 0, and written again the file is the same. */
        const size_t n4 = nnue_file_size(NNUE_INPUTS, 32, 2);
        uint8_t *once = malloc(n4), *twice = malloc(n4);
        cr_assert(once && twice);
        train_net_quantize(&net, 150, once);
        for (int k = 0; k < NNUE_KING_BUCKETS; k++)
            cr_assert(!memcmp(once + NNUE_HEADER_SIZE + 2 * (size_t)k * NNUE_FEATURES * 32, rows,
                              2 * (size_t)NNUE_FEATURES * 32),
                      "king bucket %d", k);
        TrainNet back = {0};
        cr_assert(train_net_read(&back, once, n4, 0, 2, 1, &h, err, sizeof err), "%s", err);
        cr_assert_eq(h.inputs, NNUE_INPUTS);
        for (size_t i = (size_t)NNUE_INPUTS * 32; i < (size_t)TRAIN_ROWS * 32; i++)
            cr_assert_eq(back.w[i], 0);
        train_net_quantize(&back, 150, twice);
        cr_assert(!memcmp(once, twice, n4));
        train_net_free(&back);
        train_net_free(&net);
        free(once);
        free(twice);

        uint8_t *other = small_net(2 * NNUE_FEATURES, 32, &size);
        cr_assert_not(train_net_read(&net, other, size, 0, 1, 1, &h, err, sizeof err));
        cr_assert(strstr(err, "inputs 1536"), "%s", err);
        free(other);
    }
    free(buf);
}

Test(train, bad_arguments)
{
    char args[512], text[4096];
    const char *bad[] = {
        "--data tests/data/train_sample.vf",
        "--out /tmp/x",
        "--data tests/data/train_sample.vf --out %s/o --hidden 100",
        "--data tests/data/train_sample.vf --out %s/o --hidden 0",
        "--data tests/data/train_sample.vf --out %s/o --buckets 0",
        "--data tests/data/train_sample.vf --out %s/o --buckets 9",
        "--data tests/data/train_sample.vf --out %s/o --lr abc",
        "--data tests/data/train_sample.vf --out %s/o --wdl 1.5",
        "--data tests/data/train_sample.vf --out %s/o --batch",
        "--data tests/data/train_sample.vf --out %s/o --frobnicate 1",
        "--data tests/data/train_sample.vf --out %s/o extra",
        "--data tests/data/train_sample.vf --out %s/o --lr-step 2 --lr-end 0.0001",
        "--data tests/data/train_sample.vf --out %s/o --lr 0.001 --lr-end 0.01",
        "--data tests/data/train_sample.vf --out %s/o --scale 0",
        "--data %s/missing.vf --out %s/o",
        "--data tests/data/tune_sample.bin --out %s/o",
        "--data tests/data/train_sample.vf --out %s/o --dedup 2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(args, sizeof args, bad[i], Dir, Dir);
        cr_assert_eq(run(args), 2, "exit status for `%s`", args);
        read_file("stderr", text, sizeof text);
        cr_assert(!strncmp(text, "rokade-train: ", 14) && strlen(text) > 24,
                  "no message for `%s`: %s", args, text);
    }
    cr_assert_eq(run("--help"), 0);
    read_file("stdout", text, sizeof text);
    cr_assert(strstr(text, "usage: rokade-train"));
}

/* The loss by the number of pieces (the line "epoch 0  validation by
 * pieces: lo-hi loss (count) ..."): eight ranges from 2 to 32 pieces, each
 * next to the one before, whose losses weighted by their counts average to
 * the whole validation loss, and whose counts add up to the validation
 * positions. */
Test(train, validation_loss_by_pieces)
{
    char args[512], text[16384];
    snprintf(args, sizeof args,
             "--data tests/data/train_sample.vf --hidden 32 --epochs 1 --batch 2048 --scale 111 "
             "--val 0.2 --out %s/ph",
             Dir);
    cr_assert_eq(run(args), 0);
    double whole = epoch0_loss();
    read_file("stdout", text, sizeof text);
    const char *v = strstr(text, "validation: ");
    cr_assert(v);
    size_t nval = strtoull(v + strlen("validation: "), NULL, 10);
    const char *line = strstr(text, "epoch 0  validation by pieces:");
    cr_assert(line, "%s", text);
    cr_assert(strstr(text, "final    validation by pieces:"), "%s", text);
    const char *p = line + strlen("epoch 0  validation by pieces:");
    double sum = 0;
    size_t total = 0;
    int expect_lo = 2, hi = 0;
    for (int k = 0; k < 8; k++) {
        int lo, used = 0;
        double loss;
        size_t count;
        cr_assert_eq(sscanf(p, " %d-%d %lf (%zu)%n", &lo, &hi, &loss, &count, &used), 4,
                     "range %d of: %s", k, line);
        cr_assert_eq(lo, expect_lo, "range %d starts at %d, not %d", k, lo, expect_lo);
        cr_assert(hi >= lo && loss >= 0 && loss < 1);
        expect_lo = hi + 1;
        sum += loss * (double)count, total += count;
        p += used;
    }
    cr_assert_eq(hi, 32);
    cr_assert_eq(total, nval, "%zu positions in the ranges, %zu held out", total, nval);
    cr_assert(nval > 1000);
    cr_assert_float_eq(sum / (double)total, whole, 2e-6, "ranges %.7f, whole %.7f",
                       sum / (double)total, whole);
}

/* The training and validation counts the program printed. */
static void set_counts(size_t *train, size_t *val)
{
    static char text[16384];
    read_file("stdout", text, sizeof text);
    const char *t = strstr(text, "training: ");
    cr_assert(t, "no counts:\n%s", text);
    const char *v = strstr(t, "validation: ");
    cr_assert(v, "no validation count:\n%s", text);
    *train = strtoull(t + strlen("training: "), NULL, 10);
    *val = strtoull(v + strlen("validation: "), NULL, 10);
}

/* --dedup: the same file read twice adds nothing; without it, twice the
 * positions, each game's copies on the same side; the positions left out are counted; a checkpoint
 * of a run without it is not resumed with it. */
Test(train, dedup_keeps_the_first_of_each_position)
{
    char args[768], text[8192];
    const char *twice = "tests/data/train_sample.vf,tests/data/train_sample.vf";
    size_t t1, v1, t2, v2, td1, vd1, td2, vd2;
#define DD "--hidden 16 --epochs 0 --batch 2048 --scale 111"
    snprintf(args, sizeof args, DD " --data tests/data/train_sample.vf --out %s/d1", Dir);
    cr_assert_eq(run(args), 0);
    set_counts(&t1, &v1);
    snprintf(args, sizeof args, DD " --data %s --out %s/d2", twice, Dir);
    cr_assert_eq(run(args), 0);
    set_counts(&t2, &v2);
    cr_assert_eq(t2 + v2, 2 * (t1 + v1), "%zu + %zu read twice: %zu + %zu", t1, v1, t2, v2);
    /* A game is held out by what it is, not where: both copies of each game
     * fall on the same side. */
    cr_assert_eq(v2, 2 * v1, "validation %zu once, %zu twice", v1, v2);
    cr_assert(v1 > 0 && t1 > 0);

    snprintf(args, sizeof args, DD " --data tests/data/train_sample.vf --dedup 1 --out %s/d3", Dir);
    cr_assert_eq(run(args), 0);
    set_counts(&td1, &vd1);
    read_file("stdout", text, sizeof text);
    size_t kept = 0, out = 0;
    const char *d = strstr(text, "dedup: ");
    cr_assert(d && sscanf(d, "dedup: %zu positions kept, %zu left out", &kept, &out) == 2, "%s",
              text);
    cr_assert_eq(kept, td1 + vd1);
    cr_assert_eq(kept + out, t1 + v1, "kept %zu and left out %zu of %zu", kept, out, t1 + v1);
    cr_assert(kept > 1000 && td1 <= t1 && vd1 <= v1);

    snprintf(args, sizeof args, DD " --data %s --dedup 1 --out %s/d4", twice, Dir);
    cr_assert_eq(run(args), 0);
    set_counts(&td2, &vd2);
    cr_assert_eq(td2 + vd2, td1 + vd1, "the second copy added %zu positions",
                 td2 + vd2 - (td1 + vd1));
    read_file("stdout", text, sizeof text);
    d = strstr(text, "dedup: ");
    cr_assert(d && sscanf(d, "dedup: %zu positions kept, %zu left out", &kept, &out) == 2, "%s",
              text);
    cr_assert_eq(out, t2 + v2 - kept);
    cr_log_info("dedup: %zu of %zu positions of the sample are repeats", t1 + v1 - td1 - vd1,
                t1 + v1);

    /* A run without --dedup, stopped, is not resumed with it. */
    snprintf(args, sizeof args,
             "--data %s --hidden 16 --epochs 2 --batch 2048 --scale 111 --stop-after 1 --out %s/d5",
             twice, Dir);
    cr_assert_eq(run(args), 0);
    snprintf(args, sizeof args,
             "--data %s --hidden 16 --epochs 2 --batch 2048 --scale 111 --dedup 1 --out %s/d5",
             twice, Dir);
    cr_assert_eq(run(args), 2);
    read_file("stderr", text, sizeof text);
    cr_assert(strstr(text, "other settings (--dedup 0, now 1)"), "%s", text);
#undef DD
}

/* The program itself: --help exits 0, a bad option 2. */
Test(train, program_exit_status)
{
    const char *t = getenv("ROKADE_TRAIN");
    t = t && *t ? t : "./rokade-train";
    cr_assert(access(t, X_OK) == 0, "%s is missing: build it with `make train`", t);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --help >/dev/null", t);
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "%s --data x --out %s/o --epochs -1 2>/dev/null", t, Dir);
    st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s", cmd);
}
