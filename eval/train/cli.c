/* The network's trainer, the program (rokade-train; its main is
 * eval/train_main.c): the command line, the data read into memory with the
 * validation games held out, the checkpoint, and the epochs. The computing
 * part is eval/train.c; eval/README.md, "The network's trainer", documents
 * the command. */
#include "train.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../movegen/records/viriformat.h"
#include "../../movegen/util.h"
#include "../eval.h"
#include "../wdl.h"

static double now_seconds(void) { return plat_seconds(); }

/* ---- The program: options ----------------------------------------------- */

typedef struct {
    const char *data, *out, *init, *wdl_table;
    int hidden, buckets, epochs, threads, lr_step, stop_after, scale, dedup;
    long long batch, epoch_size, max_positions;
    double lr, lr_end, lr_gamma, wd, wdl, val, mirror;
    uint64_t seed;
    bool lr_end_set, lr_gamma_set, hidden_set;
} Options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rokade-train --data FILE[,FILE...] --out DIR [options]\n"
            "Trains the network (%d -> H) x 2 -> B output buckets, SCReLU, on viriformat\n"
            "games and writes DIR/net-epochN.nnue every epoch, DIR/final.nnue at the end and\n"
            "DIR/checkpoint.bin; the same command again resumes from the checkpoint\n"
            "(eval/README.md).\n"
            "  --data FILES        viriformat files, comma-separated\n"
            "  --out DIR           output directory (made if missing)\n"
            "  --init NET          start from the weights of this net file instead of random\n"
            "                      ones: its hidden size, or a larger --hidden (the new\n"
            "                      values start with output weights 0); its buckets, or its\n"
            "                      one copied to every bucket; its king buckets, or, for\n"
            "                      a trainer built with king buckets (make\n"
            "                      NNUE_KING_LAYOUT=4 or 5), its 768 inputs as the rows\n"
            "                      every king bucket shares; its scale unless --scale\n"
            "                      is given\n"
            "  --hidden H          accumulator size, a multiple of %d (default %d)\n"
            "  --buckets B         output buckets by the number of pieces, 1 to %d (default 1)\n"
            "  --epochs N          epochs (default 10)\n"
            "  --epoch-size N      positions per epoch (default: the training set)\n"
            "  --batch N           positions per step (default 16384)\n"
            "  --lr X              AdamW learning rate at the start (default 0.001)\n"
            "  --lr-end X          cosine schedule down to X at the end (default lr / 100)\n"
            "  --lr-step N         step schedule instead: lr times --lr-gamma every N epochs\n"
            "  --lr-gamma X        the step schedule's factor (default 0.1)\n"
            "  --wd X              AdamW weight decay (default 0.01)\n"
            "  --wdl X             target = X * result + (1 - X) * sigmoid(score / scale)\n"
            "                      (default 0.3)\n"
            "  --scale S           centipawns per logit unit (default: fitted on the data)\n"
            "  --val X             share of the games held out for validation (default 0.02)\n"
            "  --mirror X          share of the positions drawn that are mirrored left to\n"
            "                      right (default 0.5)\n"
            "  --threads N         threads (default 2)\n"
            "  --seed N            random seed (default 1)\n"
            "  --max-positions N   read at most N positions (default: all)\n"
            "  --dedup 0|1         1: keep only the first of the positions the net sees alike\n"
            "                      (the same pieces on the same squares, the same side to\n"
            "                      move), across every file (default 0: all)\n"
            "  --stop-after N      stop after epoch N (as a cut-off session would)\n"
            "  --wdl-table FILE    train nothing: count the results of the data's games\n"
            "                      by material and search score, for the WDL model's\n"
            "                      fit (eval/wdl/fit.py); with --data, --max-positions\n"
            "  --help              this text\n"
            "Exit status: 0 done, 1 a write or memory error, 2 bad options, data or checkpoint.\n",
            NNUE_INPUTS, TRAIN_HIDDEN_STEP, NNUE_HIDDEN, NNUE_MAX_BUCKETS);
}

static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("rokade-train: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

static bool parse_num(const char *opt, const char *s, double lo, double hi, bool integer,
                      double *out)
{
    if (!parse_real(s, lo, hi, integer, out)) {
        bad("%s: '%s' is not %s from %g to %g", opt, s, integer ? "an integer" : "a number", lo,
            hi);
        return false;
    }
    return true;
}

static int parse_options(int argc, char **argv, Options *o)
{
    *o = (Options){.hidden = NNUE_HIDDEN,
                   .buckets = 1,
                   .epochs = 10,
                   .threads = 2,
                   .batch = 16384,
                   .lr = 0.001,
                   .lr_gamma = 0.1,
                   .wd = 0.01,
                   .wdl = 0.3,
                   .val = 0.02,
                   .mirror = 0.5,
                   .seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help")) {
            usage(stdout);
            return -1;
        }
        if (strncmp(arg, "--", 2) != 0)
            return bad("unexpected argument '%s' (--help lists the options)", arg);
        if (i + 1 >= argc)
            return bad("%s needs a value (--help lists the options)", arg);
        const char *val = argv[++i];
        double v = 0;
        bool ok = true;
        if (!strcmp(arg, "--data"))
            o->data = val;
        else if (!strcmp(arg, "--out"))
            o->out = val;
        else if (!strcmp(arg, "--wdl-table"))
            o->wdl_table = val;
        else if (!strcmp(arg, "--init"))
            o->init = val;
        else if (!strcmp(arg, "--hidden")) {
            ok = parse_num(arg, val, TRAIN_HIDDEN_STEP, TRAIN_MAX_HIDDEN, true, &v);
            o->hidden = (int)v, o->hidden_set = true;
            if (ok && o->hidden % TRAIN_HIDDEN_STEP)
                return bad("--hidden: %d is not a multiple of %d", o->hidden, TRAIN_HIDDEN_STEP);
        } else if (!strcmp(arg, "--buckets"))
            ok = parse_num(arg, val, 1, NNUE_MAX_BUCKETS, true, &v), o->buckets = (int)v;
        else if (!strcmp(arg, "--epochs"))
            ok = parse_num(arg, val, 0, 1e6, true, &v), o->epochs = (int)v;
        else if (!strcmp(arg, "--epoch-size"))
            ok = parse_num(arg, val, 1, 1e12, true, &v), o->epoch_size = (long long)v;
        else if (!strcmp(arg, "--batch"))
            ok = parse_num(arg, val, 1, 1 << 24, true, &v), o->batch = (long long)v;
        else if (!strcmp(arg, "--lr"))
            ok = parse_num(arg, val, 1e-9, 10, false, &v), o->lr = v;
        else if (!strcmp(arg, "--lr-end"))
            ok = parse_num(arg, val, 0, 10, false, &v), o->lr_end = v, o->lr_end_set = true;
        else if (!strcmp(arg, "--lr-step"))
            ok = parse_num(arg, val, 1, 1e6, true, &v), o->lr_step = (int)v;
        else if (!strcmp(arg, "--lr-gamma"))
            ok = parse_num(arg, val, 1e-6, 1, false, &v), o->lr_gamma = v, o->lr_gamma_set = true;
        else if (!strcmp(arg, "--wd"))
            ok = parse_num(arg, val, 0, 1, false, &v), o->wd = v;
        else if (!strcmp(arg, "--wdl"))
            ok = parse_num(arg, val, 0, 1, false, &v), o->wdl = v;
        else if (!strcmp(arg, "--scale"))
            ok = parse_num(arg, val, 1, 10000, true, &v), o->scale = (int)v;
        else if (!strcmp(arg, "--val"))
            ok = parse_num(arg, val, 0, 0.5, false, &v), o->val = v;
        else if (!strcmp(arg, "--mirror"))
            ok = parse_num(arg, val, 0, 1, false, &v), o->mirror = v;
        else if (!strcmp(arg, "--threads"))
            ok = parse_num(arg, val, 1, TRAIN_MAX_THREADS, true, &v), o->threads = (int)v;
        else if (!strcmp(arg, "--seed"))
            ok = parse_num(arg, val, 0, 9007199254740992.0, true, &v), o->seed = (uint64_t)v;
        else if (!strcmp(arg, "--max-positions"))
            ok = parse_num(arg, val, 1, 4e9, true, &v), o->max_positions = (long long)v;
        else if (!strcmp(arg, "--dedup"))
            ok = parse_num(arg, val, 0, 1, true, &v), o->dedup = (int)v;
        else if (!strcmp(arg, "--stop-after"))
            ok = parse_num(arg, val, 1, 1e6, true, &v), o->stop_after = (int)v;
        else
            return bad("unknown option %s (--help lists the options)", arg);
        if (!ok)
            return 2;
    }
    if (!o->data || !*o->data)
        return bad("no --data given (--help lists the options)");
    if (o->wdl_table)
        return *o->wdl_table ? 0 : bad("--wdl-table needs a file name");
    if (!o->out || !*o->out)
        return bad("no --out directory given (--help lists the options)");
    if (o->lr_step && o->lr_end_set)
        return bad("--lr-end (cosine) and --lr-step (step schedule) exclude each other");
    if (o->lr_gamma_set && !o->lr_step)
        return bad("--lr-gamma needs --lr-step");
    if (!o->lr_end_set)
        o->lr_end = o->lr / 100;
    if (o->lr_end > o->lr)
        return bad("--lr-end %g is above --lr %g", o->lr_end, o->lr);
    return 0;
}

/* ---- The program: data -------------------------------------------------- */

typedef struct {
    TrainPos *pos;
    int16_t *hce; /* validation only: the hand-crafted evaluation of each position */
    size_t n, cap, games;
    bool keep_hce;
} PosSet;

static bool posset_push(PosSet *s, const TrainPos *p, const Position *pos)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1 << 16;
        TrainPos *q = realloc(s->pos, cap * sizeof *q);
        if (!q)
            return false;
        s->pos = q;
        if (s->keep_hce) {
            int16_t *h = realloc(s->hce, cap * sizeof *h);
            if (!h)
                return false;
            s->hce = h;
        }
        s->cap = cap;
    }
    if (s->keep_hce) {
        int v = eval_position(pos, NULL);
        s->hce[s->n] = (int16_t)(v > INT16_MAX ? INT16_MAX : v < -INT16_MAX ? -INT16_MAX : v);
    }
    s->pos[s->n++] = *p;
    return true;
}

/* The loss of the hand-crafted evaluation on the validation positions (its
 * static evaluation in place of the net's output): the bar a net must pass
 * to predict the searches' scores and the results better than it. */
static double hce_loss(const PosSet *val, double scale)
{
    double sum = 0;
    for (size_t i = 0; i < val->n; i++) {
        double d = 1 / (1 + exp(-val->hce[i] / scale)) - val->pos[i].target;
        sum += d * d;
    }
    return val->n ? sum / (double)val->n : 0;
}

/* The validation loss by the number of pieces on the board, in the eight
 * ranges of nnue_bucket (whatever buckets the net has), one line: where a
 * net's error lies (openings, middlegames, endings) and where training
 * moved it. The ranges' losses, weighted by their counts, average to the
 * whole loss. */
enum { PHASES = 8 };

static void phase_losses(const TrainNet *net, const PosSet *val, double loss[PHASES],
                         size_t count[PHASES])
{
    for (int k = 0; k < PHASES; k++)
        loss[k] = 0, count[k] = 0;
    for (size_t i = 0; i < val->n; i++) {
        const TrainPos *p = &val->pos[i];
        int k = nnue_bucket(popcount(p->occ), PHASES);
        double e = 1 / (1 + exp(-(double)train_net_eval(net, p))) - p->target;
        loss[k] += e * e, count[k]++;
    }
    for (int k = 0; k < PHASES; k++)
        loss[k] = count[k] ? loss[k] / (double)count[k] : 0;
}

static void print_phase_losses(const char *what, const TrainNet *net, const PosSet *val)
{
    double loss[PHASES];
    size_t count[PHASES];
    phase_losses(net, val, loss, count);
    printf("%s validation by pieces:", what);
    for (int k = 0, lo = 2; k < PHASES; k++) {
        int hi = lo;
        while (hi < 32 && nnue_bucket(hi + 1, PHASES) == k)
            hi++;
        printf(" %d-%d %.6f (%zu)", lo, hi, loss[k], count[k]);
        lo = hi + 1;
    }
    printf("\n");
}

/* Whether a game is held out: a hash of what it is (its start position's
 * key and its moves), so a game's positions all fall on one side, the same
 * for every seed, and the same game in another file (`datagen relabel`'s
 * copy with other scores, a file read twice) falls on the same side too. */
static bool held_out(const RecordGame *g, double val)
{
    uint64_t s = mix64(pos_key(g->start) ^ (uint64_t)g->plies);
    for (int i = 0; i < g->plies; i++)
        s = mix64(s ^ (uint64_t)g->moves[i]);
    return rng_unit(rng_next(&s)) < val;
}

/* Every valid game of every file of the comma-separated list `data`, given
 * to `game` (its reader positioned at the game's first position, `file` the
 * file's index in the list): it returns 0 to go on, GAMES_STOP to stop
 * reading (a limit reached) or an exit status. A file being written ends in
 * a partial game: read up to there. Prints a line per file with the games,
 * the positions that `positions` counts and the bad games skipped. 0 or an
 * exit status. */
enum { GAMES_STOP = -1 };

static int each_game(const char *data, int (*game)(void *ctx, VfReader *r, int file, RecordGame g),
                     size_t (*positions)(const void *ctx), void *ctx)
{
    char *list = data ? strdup(data) : NULL, *save = NULL, err[512];
    if (!list)
        return bad("out of memory");
    int file = 0, status = 0;
    for (char *path = strtok_r(list, ",", &save); path && !status;
         path = strtok_r(NULL, ",", &save), file++) {
        VfReader *r = vf_open(path, err, sizeof err);
        if (!r) {
            status = bad("%s", err);
            break;
        }
        size_t games = 0, bad_games = 0, n0 = positions(ctx);
        int st;
        while ((st = vf_next_game(r, err, sizeof err)) != RECORD_END) {
            if (st == RECORD_FAILED) {
                printf("%s: %s; read up to there\n", path, err);
                break;
            }
            if (st == RECORD_BAD_GAME) {
                if (bad_games++ < 5)
                    printf("%s: skipped: %s\n", path, err);
                continue;
            }
            games++;
            if ((status = game(ctx, r, file, vf_game(r))) != 0)
                break;
        }
        vf_close(r);
        printf("%s: %zu games, %zu positions, %zu bad games skipped\n", path, games,
               positions(ctx) - n0, bad_games);
        if (status == GAMES_STOP) {
            status = 0;
            break;
        }
    }
    free(list);
    return status;
}

/* --dedup: the set of the boards read so far, as 64-bit hashes of what the
 * net sees (the occupancy, the pieces, the side to move) in an open-addressed
 * table kept at most half full; 0 marks an empty slot. Two different boards
 * share a hash with a chance of about n^2 / 2^65 (under 1e-4 at 100M). */
typedef struct {
    uint64_t *slot;
    size_t cap, n; /* cap a power of two */
} Seen;

static uint64_t board_hash(const TrainPos *p)
{
    uint64_t a, b;
    memcpy(&a, p->pieces, 8);
    memcpy(&b, p->pieces + 8, 8);
    uint64_t h = mix64(p->occ ^ (uint64_t)(p->stm & 1));
    h = mix64(h ^ a);
    h = mix64(h ^ b);
    return h ? h : 1;
}

static bool seen_grow(Seen *s)
{
    size_t cap = s->cap ? s->cap * 2 : (size_t)1 << 20;
    uint64_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return false;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i]) {
            size_t j = (size_t)s->slot[i] & (cap - 1);
            while (slot[j])
                j = (j + 1) & (cap - 1);
            slot[j] = s->slot[i];
        }
    free(s->slot);
    s->slot = slot, s->cap = cap;
    return true;
}

/* Adds h; 1 when it is new, 0 when it was there, -1 when out of memory. */
static int seen_add(Seen *s, uint64_t h)
{
    if (2 * (s->n + 1) > s->cap && !seen_grow(s))
        return -1;
    size_t j = (size_t)h & (s->cap - 1);
    for (; s->slot[j]; j = (j + 1) & (s->cap - 1))
        if (s->slot[j] == h)
            return 0;
    s->slot[j] = h, s->n++;
    return 1;
}

typedef struct {
    const Options *o;
    PosSet *train, *val;
    size_t limit;
    Seen seen;         /* with --dedup */
    size_t duplicates; /* positions left out as repeats */
} LoadCtx;

static size_t load_positions(const void *ctx)
{
    const LoadCtx *c = ctx;
    return c->train->n + c->val->n;
}

static int load_game(void *ctx, VfReader *r, int file, RecordGame g)
{
    LoadCtx *c = ctx;
    const VfFilter filter = vf_filter_default();
    (void)file;
    PosSet *set = held_out(&g, c->o->val) ? c->val : c->train;
    set->games++;
    VfPosition p;
    while (load_positions(c) < c->limit && vf_next_position(r, &filter, &p)) {
        TrainPos tp;
        if (!train_pos_make(p.pos, p.score, p.result, &tp))
            continue;
        int fresh = c->o->dedup ? seen_add(&c->seen, board_hash(&tp)) : 1;
        if (fresh == 0) {
            c->duplicates++;
            continue;
        }
        if (fresh < 0 || !posset_push(set, &tp, p.pos))
            return bad("out of memory after %zu positions", load_positions(c));
    }
    return load_positions(c) < c->limit ? 0 : GAMES_STOP;
}

/* Reads every file of the comma-separated list (with --dedup, only the first
 * of the positions alike, whichever set its game is in, so that no position
 * is both trained on and held out); 0, or an exit status. */
static int load_data(const Options *o, PosSet *train, PosSet *val)
{
    LoadCtx c = {.o = o,
                 .train = train,
                 .val = val,
                 .limit = o->max_positions ? (size_t)o->max_positions : (size_t)UINT32_MAX};
    int status = each_game(o->data, load_game, load_positions, &c);
    if (!status && o->dedup)
        printf("dedup: %zu positions kept, %zu left out as repeats of earlier ones\n",
               load_positions(&c), c.duplicates);
    free(c.seen.slot);
    return status;
}

static uint64_t data_hash(const PosSet *s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < s->n; i++) {
        uint64_t w[4];
        memcpy(w, &s->pos[i], sizeof w);
        for (int k = 0; k < 4; k++)
            h = (h ^ w[k]) * 0x100000001B3ull;
    }
    return h;
}

/* The order of pass `pass` over the n training positions. */
static void make_perm(uint32_t *perm, size_t n, uint64_t seed, uint64_t pass)
{
    uint64_t s = seed * 0xD1B54A32D192ED03ull ^ (pass + 1) * 0x8CB92BA72F3D8DD7ull;
    for (size_t i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(rng_next(&s) % i);
        uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j], perm[j] = t;
    }
}

/* Whether the position drawn at `stream` is mirrored: a hash of the seed and
 * the stream's index, so a resumed run draws the same. */
static bool mirrored(uint64_t seed, uint64_t stream, double share)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ull ^ stream;
    return share > 0 && rng_unit(rng_next(&s)) < share;
}

/* ---- The program: checkpoint -------------------------------------------- */

/* What a run depends on: a checkpoint resumes only a run with the same. */
typedef struct {
    char magic[8];
    int32_t inputs, hidden, buckets, epochs, lr_step, scale, dedup, reserved;
    uint32_t init_sum; /* the --init file's checksum, 0 without one */
    int64_t batch, epoch_size, max_positions, train_n, val_n;
    uint64_t seed, data_hash;
    double lr, lr_end, lr_gamma, wd, wdl, val, mirror;
} Settings;

typedef struct {
    uint32_t epoch; /* epochs done */
    uint32_t reserved;
    uint64_t step;   /* AdamW steps taken */
    uint64_t stream; /* positions of the shuffled stream consumed (pass = stream / n); each
                      * pass's order comes from (seed, pass), so nothing else is kept */
} State;

static const char CkptMagic[8] = "RKTRCK5";

static void settings_make(Settings *s, const Options *o, int scale, uint32_t init_sum,
                          const PosSet *train, const PosSet *val)
{
    memset(s, 0, sizeof *s);
    memcpy(s->magic, CkptMagic, sizeof s->magic);
    s->inputs = NNUE_INPUTS, s->hidden = o->hidden, s->buckets = o->buckets, s->epochs = o->epochs,
    s->lr_step = o->lr_step, s->scale = scale, s->dedup = o->dedup, s->init_sum = init_sum;
    s->batch = o->batch, s->epoch_size = o->epoch_size, s->max_positions = o->max_positions;
    s->train_n = (int64_t)train->n, s->val_n = (int64_t)val->n;
    s->seed = o->seed, s->data_hash = data_hash(train) ^ (data_hash(val) * 31);
    s->lr = o->lr, s->lr_end = o->lr_end, s->lr_gamma = o->lr_gamma, s->wd = o->wd;
    s->wdl = o->wdl, s->val = o->val, s->mirror = o->mirror;
}

/* The first setting that differs, written to buf; false when none does. */
static bool settings_differ(const Settings *a, const Settings *b, char *buf, size_t n)
{
#define CMP_I(f, name)                                                                             \
    if (a->f != b->f) {                                                                            \
        snprintf(buf, n, "%s %lld, now %lld", name, (long long)a->f, (long long)b->f);             \
        return true;                                                                               \
    }
#define CMP_D(f, name)                                                                             \
    if (a->f != b->f) {                                                                            \
        snprintf(buf, n, "%s %g, now %g", name, a->f, b->f);                                       \
        return true;                                                                               \
    }
    CMP_I(inputs, "inputs (the trainer's NNUE_KING_LAYOUT)")
    CMP_I(hidden, "--hidden")
    CMP_I(buckets, "--buckets")
    CMP_I(epochs, "--epochs")
    CMP_I(batch, "--batch")
    CMP_I(epoch_size, "--epoch-size")
    CMP_D(lr, "--lr")
    CMP_D(lr_end, "--lr-end")
    CMP_I(lr_step, "--lr-step")
    CMP_D(lr_gamma, "--lr-gamma")
    CMP_D(wd, "--wd")
    CMP_D(wdl, "--wdl")
    CMP_I(scale, "scale")
    CMP_D(val, "--val")
    CMP_D(mirror, "--mirror")
    CMP_I(seed, "--seed")
    if (a->init_sum != b->init_sum) {
        snprintf(buf, n, "%s",
                 !a->init_sum   ? "no --init, now one"
                 : !b->init_sum ? "an --init net, now none"
                                : "another --init net");
        return true;
    }
    CMP_I(max_positions, "--max-positions")
    CMP_I(dedup, "--dedup")
    CMP_I(train_n, "training positions")
    CMP_I(val_n, "validation positions")
    if (a->data_hash != b->data_hash) {
        snprintf(buf, n, "the same number of positions, but other data");
        return true;
    }
    return false;
#undef CMP_I
#undef CMP_D
}

static size_t ckpt_size(size_t nparams)
{
    return sizeof(Settings) + sizeof(State) + 3 * nparams * sizeof(float) + 4;
}

static bool ckpt_write(const char *path, const Settings *s, const State *st, const TrainOpt *o,
                       char *err, size_t errlen)
{
    size_t n = o->net.n, size = ckpt_size(n);
    uint8_t *buf = malloc(size), *p = buf;
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    memcpy(p, s, sizeof *s), p += sizeof *s;
    memcpy(p, st, sizeof *st), p += sizeof *st;
    memcpy(p, o->net.w, n * sizeof(float)), p += n * sizeof(float);
    memcpy(p, o->m, n * sizeof(float)), p += n * sizeof(float);
    memcpy(p, o->v, n * sizeof(float)), p += n * sizeof(float);
    uint32_t sum = nnue_checksum(buf, (size_t)(p - buf));
    memcpy(p, &sum, 4);
    bool ok = write_file_atomic(path, buf, size, err, errlen);
    free(buf);
    return ok;
}

/* Reads a checkpoint into s, st and o (whose net has the size the current
 * settings give); 0, or an exit status after a message. */
static int ckpt_read(const char *path, const Settings *now, State *st, TrainOpt *o)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return bad("cannot read %s: %s", path, strerror(errno));
    size_t n = o->net.n, size = ckpt_size(n);
    uint8_t *buf = malloc(size + 1);
    size_t got = buf ? fread(buf, 1, size + 1, f) : 0;
    fclose(f);
    if (!buf)
        return bad("out of memory");
    Settings s;
    char why[256];
    int status = 0;
    if (got >= sizeof s)
        memcpy(&s, buf, sizeof s);
    if (got < sizeof s || memcmp(s.magic, CkptMagic, sizeof s.magic) != 0)
        status = bad("%s is not a rokade-train checkpoint", path);
    else if (settings_differ(&s, now, why, sizeof why))
        status = bad("%s comes from a run with other settings (%s): use the same command, "
                     "or another --out directory",
                     path, why);
    else if (got != size)
        status = bad("%s has %zu bytes, not %zu: damaged", path, got, size);
    else {
        uint32_t sum;
        memcpy(&sum, buf + size - 4, 4);
        if (sum != nnue_checksum(buf, size - 4))
            status = bad("%s: the checksum does not match: damaged", path);
    }
    if (!status) {
        const uint8_t *p = buf + sizeof s;
        memcpy(st, p, sizeof *st), p += sizeof *st;
        memcpy(o->net.w, p, n * sizeof(float)), p += n * sizeof(float);
        memcpy(o->m, p, n * sizeof(float)), p += n * sizeof(float);
        memcpy(o->v, p, n * sizeof(float));
        o->step = st->step;
    }
    free(buf);
    return status;
}

/* ---- The program: the starting net ------------------------------------ */

/* Reads the --init net into net (o->hidden and its scale in *scale taken
 * from it where the options leave them open) and its checksum into *sum;
 * 0, or an exit status after a message. */
static int load_init(Options *o, TrainNet *net, int *scale, uint32_t *sum)
{
    FILE *f = fopen(o->init, "rb");
    if (!f)
        return bad("--init %s: %s", o->init, strerror(errno));
    /* No net the trainer reads is larger: read one byte more to tell. */
    size_t cap = nnue_file_size(NNUE_INPUTS, TRAIN_MAX_HIDDEN, NNUE_MAX_BUCKETS) + 1;
    uint8_t *buf = malloc(cap);
    size_t got = buf ? fread(buf, 1, cap, f) : 0;
    bool read_error = ferror(f);
    fclose(f);
    if (!buf)
        return bad("out of memory");
    char err[256];
    int status = 0;
    NnueHeader h;
    if (read_error)
        status = bad("--init %s: read error", o->init);
    else if (!train_net_read(net, buf, got, o->hidden_set ? o->hidden : 0, o->buckets, o->seed, &h,
                             err, sizeof err))
        status = bad("--init %s: %s", o->init, err);
    else {
        o->hidden = net->hidden;
        *sum = nnue_get_u32(buf + got - 4);
        *sum = *sum ? *sum : 1;
        if (!*scale)
            *scale = h.scale;
        printf("starting from %s (inputs %u, hidden %u, buckets %u, scale %d; here inputs %d, "
               "hidden %d, buckets %d)\n",
               o->init, h.inputs, h.hidden, h.buckets, (int)h.scale, NNUE_INPUTS, net->hidden,
               net->buckets);
    }
    free(buf);
    return status;
}

/* ---- The program: training ---------------------------------------------- */

static double learning_rate(const Options *o, int epoch, uint64_t step, uint64_t total)
{
    if (o->lr_step) {
        int drops = (epoch - 1) / o->lr_step;
        return o->lr * pow(o->lr_gamma, drops);
    }
    if (total <= 1)
        return o->lr;
    double t = (double)step / (double)(total - 1);
    return o->lr_end + 0.5 * (o->lr - o->lr_end) * (1 + cos(3.14159265358979323846 * t));
}

typedef struct {
    Options opt;
    PosSet train, val;
    TrainOpt net;
    TrainNet init; /* the --init net, if any */
    uint32_t *perm;
    const TrainPos **batch;
    TrainPos *copy; /* the batch's positions, some with TRAIN_MIRROR */
} Run;

static void run_free(Run *r)
{
    free(r->train.pos);
    free(r->val.pos);
    free(r->val.hce);
    train_opt_free(&r->net);
    train_net_free(&r->init);
    free(r->perm);
    free(r->batch);
    free(r->copy);
}

static int train_run(Run *r, double t_start)
{
    Options *o = &r->opt;
    char path[4096], err[4400];
    if (!o->out || !plat_make_dir(o->out))
        return bad("cannot make the directory %s: %s", o->out, strerror(errno));

    /* 1. The starting net (before the data, whose reading takes long), then
     * the data: training and validation positions, by game. */
    int scale = o->scale, status = 0;
    uint32_t init_sum = 0;
    if (o->init && (status = load_init(o, &r->init, &scale, &init_sum)) != 0)
        return status;
    r->val.keep_hce = true;
    status = load_data(o, &r->train, &r->val);
    if (status)
        return status;
    if (!r->train.n)
        return bad("no training position in %s", o->data);
    printf("training: %zu positions of %zu games; validation: %zu positions of %zu games "
           "(%.0f MB)\n",
           r->train.n, r->train.games, r->val.n, r->val.games,
           (double)(r->train.n + r->val.n) * sizeof(TrainPos) / 1e6);

    /* 2. The scale, then the targets. */
    if (!scale) {
        double e, s = train_fit_scale(r->train.pos, r->train.n, &e);
        scale = (int)lround(s);
        scale = scale < 1 ? 1 : scale > 10000 ? 10000 : scale;
        printf("scale %d (fitted: %.2f, mean squared error of sigmoid(score / S) against the "
               "result %.6f)\n",
               scale, s, e);
    } else
        printf("scale %d (%s)\n", scale, o->scale ? "given" : "the --init net's");
    for (size_t i = 0; i < r->train.n; i++)
        r->train.pos[i].target = train_target(&r->train.pos[i], scale, o->wdl);
    for (size_t i = 0; i < r->val.n; i++)
        r->val.pos[i].target = train_target(&r->val.pos[i], scale, o->wdl);

    /* 3. The network, from the checkpoint if there is one. */
    Settings settings;
    settings_make(&settings, o, scale, init_sum, &r->train, &r->val);
    if (!train_opt_init(&r->net, o->hidden, o->buckets, o->threads, o->seed))
        return bad("out of memory");
    if (o->init)
        memcpy(r->net.net.w, r->init.w, r->net.net.n * sizeof(float));
    State st = {0};
    snprintf(path, sizeof path, "%s/checkpoint.bin", o->out);
    if (plat_file_exists(path)) {
        if ((status = ckpt_read(path, &settings, &st, &r->net)) != 0)
            return status;
        printf("resuming from %s after epoch %u of %d\n", path, st.epoch, o->epochs);
    }

    size_t n = r->train.n;
    if (n == 0)
        return 2;
    uint64_t esize = o->epoch_size ? (uint64_t)o->epoch_size : n;
    uint64_t batch = (uint64_t)o->batch < esize ? (uint64_t)o->batch : esize;
    uint64_t steps = (esize + batch - 1) / batch, total = steps * (uint64_t)o->epochs;
    r->perm = malloc(n * sizeof *r->perm);
    r->batch = calloc(batch, sizeof(const TrainPos *));
    r->copy = calloc(batch, sizeof(TrainPos));
    if (!r->perm || !r->batch || !r->copy)
        return bad("out of memory");
    printf("inputs %d, hidden %d, buckets %d, epochs %d of %llu positions, batch %llu (%llu steps "
           "each), lr "
           "%g -> %g "
           "(%s), wd %g, wdl %g, mirror %g, threads %d, seed %llu, simd %s\n",
           NNUE_INPUTS, o->hidden, o->buckets, o->epochs, (unsigned long long)esize,
           (unsigned long long)batch, (unsigned long long)steps, o->lr,
           learning_rate(o, o->epochs, total ? total - 1 : 0, total),
           o->lr_step ? "step" : "cosine", o->wd, o->wdl, o->mirror, o->threads,
           (unsigned long long)o->seed, train_simd_name());
    printf("the hand-crafted evaluation's loss on the validation positions: %.6f\n",
           hce_loss(&r->val, scale));
    if (st.epoch == 0) {
        printf("epoch 0  validation %.6f\n",
               train_net_loss(&r->net.net, r->val.pos, r->val.n, o->threads));
        print_phase_losses("epoch 0 ", &r->net.net, &r->val);
    }
    fflush(stdout);

    /* 4. The epochs: each a slice of the endless shuffled stream of passes
     * over the training set. */
    uint64_t pass = UINT64_MAX;
    for (int epoch = (int)st.epoch + 1; epoch <= o->epochs; epoch++) {
        double t0 = now_seconds(), c0 = (double)cpu_ms() / 1000.0, loss = 0, lr = 0;
        for (uint64_t k = 0, left = esize; k < steps; k++) {
            size_t nb = (size_t)(left < batch ? left : batch);
            for (size_t i = 0; i < nb; i++, st.stream++) {
                if (st.stream / n != pass)
                    pass = st.stream / n, make_perm(r->perm, n, o->seed, pass);
                r->copy[i] = r->train.pos[r->perm[st.stream % n]];
                if (mirrored(o->seed, st.stream, o->mirror))
                    r->copy[i].stm |= TRAIN_MIRROR;
                r->batch[i] = &r->copy[i];
            }
            lr = learning_rate(o, epoch, st.step, total);
            loss += train_opt_step(&r->net, r->batch, nb, lr, o->wd);
            st.step = r->net.step;
            left -= nb;
        }
        double dt = now_seconds() - t0, dc = (double)cpu_ms() / 1000.0 - c0;
        double vloss = train_net_loss(&r->net.net, r->val.pos, r->val.n, o->threads);
        st.epoch = (uint32_t)epoch;
        /* Positions per second of wall time and per second of CPU time (one
         * core's share, whatever else the machine runs). */
        printf("epoch %d/%d  train %.6f  validation %.6f  lr %.3g  pos/s %.0f (per cpu-second "
               "%.0f)  elapsed %.1f s\n",
               epoch, o->epochs, loss / (double)esize, vloss, lr, (double)esize / dt,
               (double)esize / dc, now_seconds() - t_start);
        snprintf(path, sizeof path, "%s/net-epoch%d.nnue", o->out, epoch);
        if (!train_net_write(&r->net.net, scale, path, err, sizeof err))
            return fprintf(stderr, "rokade-train: %s\n", err), 1;
        snprintf(path, sizeof path, "%s/checkpoint.bin", o->out);
        if (!ckpt_write(path, &settings, &st, &r->net, err, sizeof err))
            return fprintf(stderr, "rokade-train: %s\n", err), 1;
        fflush(stdout);
        if (epoch == o->stop_after && epoch < o->epochs) {
            printf("stopped after epoch %d (--stop-after); the same command goes on\n", epoch);
            return 0;
        }
    }

    /* 5. The final net. */
    if (o->epochs > 0)
        print_phase_losses("final   ", &r->net.net, &r->val);
    snprintf(path, sizeof path, "%s/final.nnue", o->out);
    if (!train_net_write(&r->net.net, scale, path, err, sizeof err))
        return fprintf(stderr, "rokade-train: %s\n", err), 1;
    printf("wrote %s (hidden %d, buckets %d, scale %d), %.1f s\n", path, o->hidden, o->buckets,
           scale, now_seconds() - t_start);
    return 0;
}

/* ---- The WDL model's data ---------------------------------------------- */

/* --wdl-table: for every position of the games (after the opening's first 16
 * plies, without mate and tablebase scores or scores past WDL_TABLE_SCORE),
 * the game's result from the side to move's view, counted by the material
 * on the board (eval/wdl.h) and the search score. Written as lines
 * "material score wins draws losses" with a '#' header, for
 * eval/wdl/fit.py. */
enum { WDL_TABLE_SCORE = 3000, WDL_TABLE_MATERIAL = 104 };

typedef struct {
    uint32_t (*count)[2 * WDL_TABLE_SCORE + 1][3];
    VfFilter filter;
    long long positions, games, limit;
} WdlCtx;

static size_t wdl_positions(const void *ctx) { return (size_t)((const WdlCtx *)ctx)->positions; }

static int wdl_game(void *ctx, VfReader *r, int file, RecordGame g)
{
    (void)file, (void)g;
    WdlCtx *c = ctx;
    c->games++;
    VfPosition p;
    while (c->positions < c->limit && vf_next_position(r, &c->filter, &p)) {
        int m = wdl_material(p.pos);
        if (m > WDL_TABLE_MATERIAL)
            continue;
        c->count[m][p.score + WDL_TABLE_SCORE][p.result]++;
        c->positions++;
    }
    return c->positions < c->limit ? 0 : GAMES_STOP;
}

/* Appends printf text to the growing buffer *buf (*n bytes used of *cap);
 * false when out of memory. */
static bool appendf(char **buf, size_t *cap, size_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0 || !arrays_reserve(cap, *n + (size_t)len + 1, &(GrowArray){buf, 1}, 1))
        return false;
    va_start(ap, fmt);
    vsnprintf(*buf + *n, *cap - *n, fmt, ap);
    va_end(ap);
    *n += (size_t)len;
    return true;
}

static int wdl_table(const Options *o)
{
    enum { SCORES = 2 * WDL_TABLE_SCORE + 1 };
    WdlCtx c = {.count = calloc(WDL_TABLE_MATERIAL + 1, sizeof *c.count),
                .filter = vf_filter_default(),
                .limit = o->max_positions ? o->max_positions : LLONG_MAX};
    if (!c.count)
        return bad("out of memory");
    /* The training filter's opening cut, but every kind of position: the
     * printed scores are of all of them. */
    c.filter.skip_in_check = c.filter.skip_noisy = false;
    c.filter.max_score = WDL_TABLE_SCORE + 1;
    int status = each_game(o->data, wdl_game, wdl_positions, &c);
    uint32_t(*count)[SCORES][3] = c.count;
    const long long positions = c.positions, games = c.games;
    if (!status && positions == 0)
        status = bad("no position in %s", o->data);
    if (!status) {
        /* Written whole, then put in place: never half a table. */
        char *buf = NULL, err[512];
        size_t cap = 0, n = 0;
        bool ok = appendf(&buf, &cap, &n,
                          "# rokade-train --wdl-table: %s; %lld games, %lld positions\n"
                          "# material score wins draws losses (side to move's view)\n",
                          o->data, games, positions);
        for (int m = 0; ok && m <= WDL_TABLE_MATERIAL; m++)
            for (int s = 0; ok && s < SCORES; s++) {
                const uint32_t *k = count[m][s];
                if (k[0] | k[1] | k[2])
                    ok = appendf(&buf, &cap, &n, "%d %d %u %u %u\n", m, s - WDL_TABLE_SCORE, k[2],
                                 k[1], k[0]);
            }
        if (!ok)
            status = bad("out of memory");
        else if (!write_file_atomic(o->wdl_table, buf, n, err, sizeof err))
            fprintf(stderr, "rokade-train: %s\n", err), status = 1;
        else
            printf("wrote %s: %lld positions of %lld games\n", o->wdl_table, positions, games);
        free(buf);
    }
    free(count);
    return status;
}

int train_main(int argc, char **argv)
{
    double t_start = now_seconds();
    Run r;
    memset(&r, 0, sizeof r);
    int status = parse_options(argc, argv, &r.opt);
    if (status)
        return status < 0 ? 0 : status;
    movegen_init();
    if (r.opt.wdl_table) {
        status = wdl_table(&r.opt);
        fflush(stdout);
        return status;
    }
    status = train_run(&r, t_start);
    run_free(&r);
    fflush(stdout);
    return status;
}
