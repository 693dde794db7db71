/* rokade-tune: fits the evaluation weights (EvalW) to packed training records
 * by gradient descent (Adam) on the logistic "Texel" loss, and writes them as
 * eval/weights.c. Each record is unpacked once; its evaluation trace (the
 * weights' coefficients, phase, scale factors, side to move) is kept in a
 * sparse form, so an epoch costs one pass over the coefficients, on as many
 * threads as asked. The method and the options are in eval/README.md. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../movegen/records/packed.h"
#include "../../movegen/util.h"
#include "../trace.h"

enum { EXIT_BAD = 2, MAX_THREADS = 256 };

/* ---- weight names ---- */

static const char *const PieceNames[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
static const char *const RankNames[] = {"rank2", "rank3", "rank4", "rank5", "rank6", "rank7"};
static const char *const StormNames[] = {"1", "2", "3", "4"};
static const char *const ShelterNames[] = {"side.1", "side.2",    "side.3", "side.4",   "side.5",
                                           "side.6", "side.none", "king.1", "king.2",   "king.3",
                                           "king.4", "king.5",    "king.6", "king.none"};

static const char *const KdNames[] = {
    "bias",         "knights",    "bishops",     "rooks", "queens",   "zone_att",   "check.knight",
    "check.bishop", "check.rook", "check.queen", "weak",  "no_queen", "open_files", "flank"};

static const char *const CxNames[] = {"bias",       "pawns",      "passed",
                                      "both_wings", "pawns_only", "outflanking"};

/* How the entries of a group are named: by sub[k], by a piece type and a
 * square (the piece-square tables: "psqt.knight.e4", [W_PSQT + 64 * 1 + SQ_E4]),
 * or by their number k ("mob.knight.3"). */
enum { SUB_NONE, SUB_NAMES, SUB_PSQT, SUB_COUNT };

/* The index ranges of weights.h: the name used by --freeze and in weights.c,
 * the enum member that names the range in weights.c, its size. */
static const struct {
    const char *name, *enum_name;
    int base, count;
    int kind;
    const char *const *sub;
} Groups[] = {
    {"material", "W_MATERIAL", W_MATERIAL, 6, SUB_NAMES, PieceNames},
    {"psqt", "W_PSQT", W_PSQT, 6 * 64, SUB_PSQT, PieceNames},
    {"passed", "W_PASSED", W_PASSED, 6, SUB_NAMES, RankNames},
    {"mob.knight", "W_MOB_KNIGHT", W_MOB_KNIGHT, 9, SUB_COUNT, NULL},
    {"mob.bishop", "W_MOB_BISHOP", W_MOB_BISHOP, 14, SUB_COUNT, NULL},
    {"mob.rook", "W_MOB_ROOK", W_MOB_ROOK, 15, SUB_COUNT, NULL},
    {"mob.queen", "W_MOB_QUEEN", W_MOB_QUEEN, 28, SUB_COUNT, NULL},
    {"doubled", "W_DOUBLED", W_DOUBLED, 1, SUB_NONE, NULL},
    {"isolated", "W_ISOLATED", W_ISOLATED, 1, SUB_NONE, NULL},
    {"bishop_pair", "W_BISHOP_PAIR", W_BISHOP_PAIR, 1, SUB_NONE, NULL},
    {"rook_open", "W_ROOK_OPEN", W_ROOK_OPEN, 1, SUB_NONE, NULL},
    {"rook_half_open", "W_ROOK_HALF_OPEN", W_ROOK_HALF_OPEN, 1, SUB_NONE, NULL},
    {"shelter", "W_SHELTER", W_SHELTER, 1, SUB_NONE, NULL},
    {"king_attack", "W_KING_ATTACK", W_KING_ATTACK, 1, SUB_NONE, NULL},
    {"passed_king_dist", "W_PASSED_KING_DIST", W_PASSED_KING_DIST, 1, SUB_NONE, NULL},
    {"backward", "W_BACKWARD", W_BACKWARD, 1, SUB_NONE, NULL},
    {"supported", "W_SUPPORTED", W_SUPPORTED, 6, SUB_NAMES, RankNames},
    {"phalanx", "W_PHALANX", W_PHALANX, 6, SUB_NAMES, RankNames},
    {"passed_blocked", "W_PASSED_BLOCKED", W_PASSED_BLOCKED, 6, SUB_NAMES, RankNames},
    {"passed_free", "W_PASSED_FREE", W_PASSED_FREE, 6, SUB_NAMES, RankNames},
    {"threat_by_pawn", "W_THREAT_BY_PAWN", W_THREAT_BY_PAWN, 4, SUB_NAMES, PieceNames + 1},
    {"threat_by_minor", "W_THREAT_BY_MINOR", W_THREAT_BY_MINOR, 2, SUB_NAMES, PieceNames + 3},
    {"threat_by_rook", "W_THREAT_BY_ROOK", W_THREAT_BY_ROOK, 1, SUB_NONE, NULL},
    {"hanging", "W_HANGING", W_HANGING, 1, SUB_NONE, NULL},
    {"outpost_knight", "W_OUTPOST_KNIGHT", W_OUTPOST_KNIGHT, 1, SUB_NONE, NULL},
    {"outpost_bishop", "W_OUTPOST_BISHOP", W_OUTPOST_BISHOP, 1, SUB_NONE, NULL},
    {"rook_seventh", "W_ROOK_SEVENTH", W_ROOK_SEVENTH, 1, SUB_NONE, NULL},
    {"king_zone_att", "W_KING_ZONE_ATT", W_KING_ZONE_ATT, 4, SUB_NAMES, PieceNames + 1},
    {"safe_check", "W_SAFE_CHECK", W_SAFE_CHECK, 4, SUB_NAMES, PieceNames + 1},
    {"king_zone_weak", "W_KING_ZONE_WEAK", W_KING_ZONE_WEAK, 1, SUB_NONE, NULL},
    {"storm", "W_STORM", W_STORM, 4, SUB_NAMES, StormNames},
    {"shelter_file", "W_SHELTER_FILE", W_SHELTER_FILE, 14, SUB_NAMES, ShelterNames},
    {"space", "W_SPACE", W_SPACE, 1, SUB_NONE, NULL},
    {"candidate", "W_CANDIDATE", W_CANDIDATE, 5, SUB_NAMES, RankNames},
    {"bishop_pawns", "W_BISHOP_PAWNS", W_BISHOP_PAWNS, 1, SUB_NONE, NULL},
    {"minor_behind_pawn", "W_MINOR_BEHIND_PAWN", W_MINOR_BEHIND_PAWN, 1, SUB_NONE, NULL},
    {"king_protector", "W_KING_PROTECTOR", W_KING_PROTECTOR, 2, SUB_NAMES, PieceNames + 1},
    {"threat_push", "W_THREAT_PUSH", W_THREAT_PUSH, 1, SUB_NONE, NULL},
    {"threat_minor_weak", "W_THREAT_MINOR_WEAK", W_THREAT_MINOR_WEAK, 3, SUB_NAMES, PieceNames},
    {"threat_rook_weak", "W_THREAT_ROOK_WEAK", W_THREAT_ROOK_WEAK, 3, SUB_NAMES, PieceNames},
    {"threat_by_king", "W_THREAT_BY_KING", W_THREAT_BY_KING, 1, SUB_NONE, NULL},
    {"restricted", "W_RESTRICTED", W_RESTRICTED, 1, SUB_NONE, NULL},
    {"knight_on_queen", "W_KNIGHT_ON_QUEEN", W_KNIGHT_ON_QUEEN, 1, SUB_NONE, NULL},
    {"slider_on_queen", "W_SLIDER_ON_QUEEN", W_SLIDER_ON_QUEEN, 1, SUB_NONE, NULL},
    {"weak_queen_prot", "W_WEAK_QUEEN_PROT", W_WEAK_QUEEN_PROT, 1, SUB_NONE, NULL},
    {"rook_queen_file", "W_ROOK_QUEEN_FILE", W_ROOK_QUEEN_FILE, 1, SUB_NONE, NULL},
    {"long_diagonal", "W_LONG_DIAGONAL", W_LONG_DIAGONAL, 1, SUB_NONE, NULL},
    {"trapped_rook", "W_TRAPPED_ROOK", W_TRAPPED_ROOK, 1, SUB_NONE, NULL},
    {"queen_infiltration", "W_QUEEN_INFILTRATION", W_QUEEN_INFILTRATION, 1, SUB_NONE, NULL},
    {"pawnless_flank", "W_PAWNLESS_FLANK", W_PAWNLESS_FLANK, 1, SUB_NONE, NULL},
    {"flank_attack", "W_FLANK_ATTACK", W_FLANK_ATTACK, 1, SUB_NONE, NULL},
    {"king_danger", "W_KING_DANGER", W_KING_DANGER, KD_NB, SUB_NAMES, KdNames},
    {"complexity", "W_COMPLEXITY", W_COMPLEXITY, CX_NB, SUB_NAMES, CxNames},
    {"tempo", "W_TEMPO", W_TEMPO, 1, SUB_NONE, NULL},
};

static char Name[N_WEIGHTS][40];  /* "material.pawn" */
static char Index[N_WEIGHTS][40]; /* "W_MATERIAL + 0" */

static _Noreturn void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("rokade-tune: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(EXIT_BAD);
}

static void init_names(void)
{
    int seen[N_WEIGHTS] = {0};
    for (size_t g = 0; g < sizeof Groups / sizeof *Groups; g++)
        for (int k = 0; k < Groups[g].count; k++) {
            int i = Groups[g].base + k;
            if (i >= N_WEIGHTS || seen[i]++)
                fail("internal: weight group %s does not match weights.h", Groups[g].name);
            if (Groups[g].kind == SUB_NAMES) {
                snprintf(Name[i], sizeof Name[i], "%s.%s", Groups[g].name, Groups[g].sub[k]);
                snprintf(Index[i], sizeof Index[i], "%s + %d", Groups[g].enum_name, k);
            } else if (Groups[g].kind == SUB_PSQT) {
                char sq[3] = {(char)('a' + k % 8), (char)('1' + k / 8 % 8), '\0'};
                snprintf(Name[i], sizeof Name[i], "%s.%s.%s", Groups[g].name, Groups[g].sub[k / 64],
                         sq);
                snprintf(Index[i], sizeof Index[i], "%s + 64 * %d + SQ_%c%c", Groups[g].enum_name,
                         k / 64, sq[0] - 'a' + 'A', sq[1]);
            } else if (Groups[g].kind == SUB_COUNT) {
                snprintf(Name[i], sizeof Name[i], "%s.%d", Groups[g].name, k);
                snprintf(Index[i], sizeof Index[i], "%s + %d", Groups[g].enum_name, k);
            } else {
                snprintf(Name[i], sizeof Name[i], "%s", Groups[g].name);
                snprintf(Index[i], sizeof Index[i], "%s", Groups[g].enum_name);
            }
        }
    for (int i = 0; i < N_WEIGHTS; i++)
        if (!seen[i])
            fail("internal: weight %d has no name (update Groups in eval/tune/tune.c)", i);
}

/* ---- options ---- */

typedef struct {
    int epochs, threads;
    long batch;           /* 0: the whole data set */
    double lr, lambda, k; /* k <= 0: fit it */
    const char *out;
    const char *freeze;
    bool list;
    bool check_gradient;
} Options;

static Options Opt = {
    .epochs = 200,
    .threads = 0,
    .batch = 0,
    .lr = 1.0,
    .lambda = 0.5,
    .k = 0,
    .out = "eval/weights.c",
    .freeze = "tempo,material.king,material.pawn.mg",
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rokade-tune [options] FILE...\n"
            "Fits the evaluation weights to packed training records (32 bytes each,\n"
            "eval/README.md) and writes them as a C source file.\n"
            "  --epochs N      passes over the data (default 200; 0 writes the start weights)\n"
            "  --lr X          Adam step size in centipawns (default 1.0)\n"
            "  --lambda X      target = X * result + (1 - X) * sigmoid(score) (default 0.5)\n"
            "  --k X           the sigmoid's scale; default: fitted to the results\n"
            "  --threads N     worker threads (default: the number of CPUs)\n"
            "  --batch N       positions per Adam step (default 0: all of them)\n"
            "  --out PATH      output file (default eval/weights.c)\n"
            "  --freeze LIST   weights kept as they are, comma-separated: a name, a group\n"
            "                  (\"passed\"), or a name with .mg or .eg for one half;\n"
            "                  \"none\" for none (default tempo,material.king,material.pawn.mg)\n"
            "  --list          print the weights' names and values and exit\n"
            "  --check-gradient  compare the gradient with central differences of the\n"
            "                  loss for every weight that is not frozen, then exit\n"
            "                  (1 if they disagree); writes nothing\n"
            "  --help          this text\n"
            "Exit status: 0 done, 1 gradient check failed, 2 bad options or input.\n");
}

static double parse_num(const char *opt, const char *s, double lo, double hi, bool integer)
{
    double v;
    if (!parse_real(s, lo, hi, integer, &v))
        fail("%s: '%s' is not %s from %g to %g", opt, s, integer ? "an integer" : "a number", lo,
             hi);
    return v;
}

/* Returns the index of the first file argument. */
static int parse_options(int argc, char **argv)
{
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        char *arg = argv[i], *val = strchr(arg, '=');
        if (val)
            *val++ = '\0';
        if (!strcmp(arg, "--")) {
            i++;
            break;
        }
        if (!strcmp(arg, "--help")) {
            usage(stdout);
            exit(0);
        }
        if (!strcmp(arg, "--list")) {
            Opt.list = true;
            continue;
        }
        if (!strcmp(arg, "--check-gradient")) {
            Opt.check_gradient = true;
            continue;
        }
        if (!val) {
            if (i + 1 >= argc)
                fail("%s needs a value (--help lists the options)", arg);
            val = argv[++i];
        }
        if (!strcmp(arg, "--epochs"))
            Opt.epochs = (int)parse_num(arg, val, 0, 1e7, true);
        else if (!strcmp(arg, "--lr"))
            Opt.lr = parse_num(arg, val, 1e-9, 1e6, false);
        else if (!strcmp(arg, "--lambda"))
            Opt.lambda = parse_num(arg, val, 0, 1, false);
        else if (!strcmp(arg, "--k"))
            Opt.k = parse_num(arg, val, 1e-6, 1e3, false);
        else if (!strcmp(arg, "--threads"))
            Opt.threads = (int)parse_num(arg, val, 1, MAX_THREADS, true);
        else if (!strcmp(arg, "--batch"))
            Opt.batch = (long)parse_num(arg, val, 0, 1e12, true);
        else if (!strcmp(arg, "--out"))
            Opt.out = val;
        else if (!strcmp(arg, "--freeze"))
            Opt.freeze = val;
        else
            fail("unknown option %s (--help lists the options)", arg);
    }
    if (Opt.threads == 0)
        Opt.threads = cpu_count() < MAX_THREADS ? cpu_count() : MAX_THREADS;
    return i;
}

/* Frozen[i][0] (mg) and [1] (eg) from the --freeze list. */
static bool Frozen[N_WEIGHTS][2];

static void parse_freeze(const char *list)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    if (!strcmp(buf, "none") || !buf[0])
        return;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t len = strlen(tok);
        int half = -1; /* both */
        if (len > 3 && !strcmp(tok + len - 3, ".mg"))
            half = 0, tok[len - 3] = '\0';
        else if (len > 3 && !strcmp(tok + len - 3, ".eg"))
            half = 1, tok[len - 3] = '\0';
        bool found = false;
        for (int i = 0; i < N_WEIGHTS; i++) {
            size_t n = strlen(tok);
            if (strcmp(Name[i], tok) != 0 && !(strncmp(Name[i], tok, n) == 0 && Name[i][n] == '.'))
                continue;
            found = true;
            for (int h = 0; h < 2; h++)
                if (half < 0 || half == h)
                    Frozen[i][h] = true;
        }
        if (!found)
            fail("--freeze: no weight is named '%s' (--list shows the names)", tok);
    }
}

/* Entries no position can use stay as they are whatever --freeze says: pawns
 * on the first and last ranks, a supported pawn on the 2nd rank. */
static void freeze_impossible(void)
{
    for (int sq = 0; sq < 64; sq++)
        if (sq < 8 || sq >= 56)
            Frozen[W_PSQT + sq][0] = Frozen[W_PSQT + sq][1] = true;
    Frozen[W_SUPPORTED][0] = Frozen[W_SUPPORTED][1] = true;
}

/* ---- the data ---- */

typedef struct {
    uint16_t idx;
    int16_t coef;
} Coef;

/* One position: coefficients coefs[first .. first + count). */
typedef struct {
    uint64_t first;
    uint16_t count;
    uint8_t phase, scale[COLOR_NB];
    int8_t stm;     /* tempo coefficient: +1 White to move, -1 Black */
    uint8_t result; /* 0 Black won, 1 draw, 2 White won */
    int16_t score;  /* centipawns, White's view */
    float target;
    uint8_t kd[COLOR_NB][KD_NB]; /* king-danger features of each colour's attack */
    int8_t cx[CX_NB];            /* complexity features */
} TunePos;

typedef struct {
    TunePos *pos;
    size_t npos, cap;
    Coef *coef;
    uint64_t ncoef, coef_cap;
} DataSet;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        fail("out of memory (%zu bytes)", n);
    return q;
}

static void data_reserve(DataSet *d, size_t npos, uint64_t ncoef)
{
    if (d->npos + npos > d->cap) {
        d->cap = (d->npos + npos) * 3 / 2 + 1024;
        d->pos = xrealloc(d->pos, d->cap * sizeof *d->pos);
    }
    if (d->ncoef + ncoef > d->coef_cap) {
        d->coef_cap = (d->ncoef + ncoef) * 3 / 2 + 65536;
        d->coef = xrealloc(d->coef, d->coef_cap * sizeof *d->coef);
    }
}

typedef struct {
    const PackedPos *rec;
    size_t begin, end;
    DataSet out;
    size_t dead;
    size_t bad; /* first bad record, or SIZE_MAX */
    char err[200];
} LoadJob;

static void *load_worker(void *arg)
{
    LoadJob *job = arg;
    Position *pos = calloc(1, sizeof *pos);
    if (!pos)
        fail("out of memory");
    job->bad = SIZE_MAX;
    for (size_t r = job->begin; r < job->end; r++) {
        int score, result;
        EvalTrace tr;
        if (!packed_to_position(&job->rec[r], pos, &score, &result, job->err, sizeof job->err)) {
            job->bad = r;
            break;
        }
        int v = eval_position_traced(pos, &tr);
        if (eval_from_trace(&tr, EvalW) != v) {
            snprintf(job->err, sizeof job->err, "internal: the trace gives %d, the eval %d",
                     eval_from_trace(&tr, EvalW), v);
            job->bad = r;
            break;
        }
        if (tr.dead || tr.fixed) { /* scored without the weights: nothing to learn */
            job->dead++;
            continue;
        }
        DataSet *d = &job->out;
        data_reserve(d, 1, N_WEIGHTS);
        TunePos *p = &d->pos[d->npos++];
        p->first = d->ncoef;
        p->count = 0;
        for (int i = 0; i < N_WEIGHTS; i++)
            if (i != W_TEMPO && tr.coef[i]) {
                if (tr.coef[i] > INT16_MAX || tr.coef[i] < INT16_MIN) {
                    snprintf(job->err, sizeof job->err, "internal: coefficient %d of %s",
                             tr.coef[i], Name[i]);
                    job->bad = r;
                    break;
                }
                d->coef[d->ncoef++] = (Coef){(uint16_t)i, (int16_t)tr.coef[i]};
                p->count++;
            }
        if (job->bad != SIZE_MAX)
            break;
        for (int c = WHITE; c <= BLACK && job->bad == SIZE_MAX; c++)
            for (int k = 0; k < KD_NB; k++) {
                if (tr.kd[c][k] < 0 || tr.kd[c][k] > UINT8_MAX) {
                    snprintf(job->err, sizeof job->err, "internal: king-danger feature %d is %d", k,
                             tr.kd[c][k]);
                    job->bad = r;
                    break;
                }
                p->kd[c][k] = (uint8_t)tr.kd[c][k];
            }
        for (int k = 0; k < CX_NB && job->bad == SIZE_MAX; k++) {
            if (tr.cx[k] < INT8_MIN || tr.cx[k] > INT8_MAX) {
                snprintf(job->err, sizeof job->err, "internal: complexity feature %d is %d", k,
                         tr.cx[k]);
                job->bad = r;
            }
            p->cx[k] = (int8_t)tr.cx[k];
        }
        if (job->bad != SIZE_MAX)
            break;
        p->phase = (uint8_t)tr.phase;
        p->scale[WHITE] = (uint8_t)tr.scale[WHITE];
        p->scale[BLACK] = (uint8_t)tr.scale[BLACK];
        p->stm = (int8_t)tr.coef[W_TEMPO];
        p->result = (uint8_t)result;
        p->score = (int16_t)score;
    }
    free(pos);
    return NULL;
}

static void load_file(const char *path, DataSet *d, size_t *dead)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("cannot open %s: %s", path, strerror(errno));
    long long size = (long long)plat_file_size(path);
    if (size < 0)
        fail("cannot read %s: not a regular file", path);
    if (size == 0 || size % PACKED_SIZE)
        fail("%s: size %lld bytes is not a positive multiple of %d (one packed record)", path, size,
             PACKED_SIZE);
    size_t n = (size_t)size / PACKED_SIZE;
    PackedPos *rec = malloc(n * sizeof *rec);
    if (!rec)
        fail("out of memory reading %s", path);
    if (fread(rec, sizeof *rec, n, f) != n)
        fail("cannot read %s: %s", path, ferror(f) ? strerror(errno) : "short read");
    fclose(f);

    int nt = Opt.threads;
    LoadJob *jobs = calloc((size_t)nt, sizeof *jobs);
    if (!jobs)
        fail("out of memory");
    for (int t = 0; t < nt; t++) {
        jobs[t].rec = rec;
        jobs[t].begin = n * (size_t)t / (size_t)nt;
        jobs[t].end = n * (size_t)(t + 1) / (size_t)nt;
    }
    run_parallel(load_worker, jobs, sizeof *jobs, nt);
    for (int t = 0; t < nt; t++)
        if (jobs[t].bad != SIZE_MAX)
            fail("%s: record %zu (byte offset %zu): %s", path, jobs[t].bad,
                 jobs[t].bad * PACKED_SIZE, jobs[t].err);
    for (int t = 0; t < nt; t++) {
        DataSet *o = &jobs[t].out;
        data_reserve(d, o->npos, o->ncoef);
        for (size_t i = 0; i < o->npos; i++) {
            d->pos[d->npos] = o->pos[i];
            d->pos[d->npos++].first += d->ncoef;
        }
        memcpy(d->coef + d->ncoef, o->coef, o->ncoef * sizeof *o->coef);
        d->ncoef += o->ncoef;
        *dead += jobs[t].dead;
        free(o->pos);
        free(o->coef);
    }
    free(jobs);
    free(rec);
}

/* ---- the model ---- */

static double W[N_WEIGHTS][2]; /* the weights being fitted: [mg, eg] */
static double K;

static double sigmoid(double cp) { return 1.0 / (1.0 + pow(10.0, -K * cp / 400.0)); }

/* What the gradient needs of one evaluation besides its value. */
typedef struct {
    double eg_scale;    /* the eg factor used */
    double kd_slope[2]; /* d (colour c's king-danger mg score) / d (its danger); 0 when clamped */
    double eg_pass;     /* d (eg after the complexity) / d (eg before it): 1, or 0 when clamped */
    double cx_sign;     /* d (eg after the complexity) / d C: sign(eg), or 0 when clamped */
    double mg_pass;     /* d (mg after the complexity) / d (mg before it): 1, or 0 when clamped */
    double cm_sign;     /* d (mg after the complexity) / d M: sign(mg) when -|mg| < M < 0, else 0 */
    double kink;        /* how far (cp) the model is from a kink or a jump */
} ModelInfo;

/* White-view evaluation of p under W, and *mi. */
static double model_eval(const TunePos *p, const Coef *c, ModelInfo *mi)
{
    /* The address of *mi's array, not a read of it (cppcheck takes it for one). */
    /* cppcheck-suppress ctuuninitvar */
    double *kd_slope = mi->kd_slope;
    mi->kink = INFINITY;
    double mg = 0, eg = 0;
    for (int k = 0; k < p->count; k++) {
        mg += W[c[k].idx][0] * c[k].coef;
        eg += W[c[k].idx][1] * c[k].coef;
    }
    for (int side = WHITE; side <= BLACK; side++) {
        double d = 0, e = 0;
        for (int k = 0; k < KD_NB; k++) {
            d += W[W_KING_DANGER + k][0] * p->kd[side][k];
            e += W[W_KING_DANGER + k][1] * p->kd[side][k];
        }
        double q = 0;
        kd_slope[side] = 0;
        if (fabs(d - KD_CAP) < mi->kink)
            mi->kink = fabs(d - KD_CAP);
        if (d >= KD_CAP)
            q = (double)KD_CAP * KD_CAP / KD_DIV;
        else if (d > 0)
            q = d * d / KD_DIV, kd_slope[side] = 2 * d / KD_DIV;
        mg += side == WHITE ? q : -q;
        eg += side == WHITE ? e : -e;
    }
    double cx = 0, cm = 0;
    for (int k = 0; k < CX_NB; k++) {
        cx += W[W_COMPLEXITY + k][1] * p->cx[k];
        cm += W[W_COMPLEXITY + k][0] * p->cx[k];
    }
    /* The middlegame complexity: kinks where M crosses 0 and where it
     * starts to clamp; continuous as mg crosses 0. */
    const double msign = mg > 0 ? 1 : mg < 0 ? -1 : 0;
    if (fabs(cm) < mi->kink)
        mi->kink = fabs(cm);
    if (cm < 0 && fabs(cm + fabs(mg)) < mi->kink)
        mi->kink = fabs(cm + fabs(mg));
    if (cm >= 0)
        mi->mg_pass = 1, mi->cm_sign = 0;
    else if (cm > -fabs(mg))
        mg += msign * cm, mi->mg_pass = 1, mi->cm_sign = msign;
    else
        mg = 0, mi->mg_pass = 0, mi->cm_sign = 0;
    const double sign = eg > 0 ? 1 : eg < 0 ? -1 : 0;
    /* The complexity jumps from -C to C as eg crosses 0 and has a kink
     * where it starts to clamp. */
    if (fabs(eg) < mi->kink)
        mi->kink = fabs(eg);
    if (fabs(cx + fabs(eg)) < mi->kink)
        mi->kink = fabs(cx + fabs(eg));
    if (cx > -fabs(eg))
        eg += sign * cx, mi->eg_pass = 1, mi->cx_sign = sign;
    else
        eg = 0, mi->eg_pass = 0, mi->cx_sign = 0;
    double s = p->scale[eg > 0 ? WHITE : BLACK] / 64.0;
    mi->eg_scale = s;
    return (mg * p->phase + eg * s * (24 - p->phase)) / 24.0 + p->stm * W[W_TEMPO][0];
}

typedef struct {
    const DataSet *d;
    size_t begin, end;
    bool grad, results_only;
    double loss;
    double g[N_WEIGHTS][2];
} GradJob;

static void *grad_worker(void *arg)
{
    GradJob *job = arg;
    const double dsig = K * log(10.0) / 400.0;
    job->loss = 0;
    memset(job->g, 0, sizeof job->g);
    for (size_t i = job->begin; i < job->end; i++) {
        const TunePos *p = &job->d->pos[i];
        const Coef *c = job->d->coef + p->first;
        ModelInfo mi;
        double e = model_eval(p, c, &mi);
        const double s = mi.eg_scale, *slope = mi.kd_slope;
        double sg = sigmoid(e);
        double t = job->results_only ? p->result / 2.0 : p->target;
        job->loss += (sg - t) * (sg - t);
        if (!job->grad)
            continue;
        /* d loss / d eval, then the eval's derivative by each weight. */
        double de = 2.0 * (sg - t) * sg * (1.0 - sg) * dsig;
        double dmg_cx = de * p->phase / 24.0, deg_cx = de * s * (24 - p->phase) / 24.0;
        double dmg = dmg_cx * mi.mg_pass, deg = deg_cx * mi.eg_pass; /* through the complexity */
        for (int k = 0; k < CX_NB; k++) {
            job->g[W_COMPLEXITY + k][0] += dmg_cx * mi.cm_sign * p->cx[k];
            job->g[W_COMPLEXITY + k][1] += deg_cx * mi.cx_sign * p->cx[k];
        }
        for (int k = 0; k < p->count; k++) {
            job->g[c[k].idx][0] += dmg * c[k].coef;
            job->g[c[k].idx][1] += deg * c[k].coef;
        }
        job->g[W_TEMPO][0] += de * p->stm;
        for (int k = 0; k < KD_NB; k++) {
            const int fw = p->kd[WHITE][k], fb = p->kd[BLACK][k];
            job->g[W_KING_DANGER + k][0] += dmg * (slope[WHITE] * fw - slope[BLACK] * fb);
            job->g[W_KING_DANGER + k][1] += deg * (fw - fb);
        }
    }
    return NULL;
}

static GradJob *Jobs;

/* Mean loss over positions [begin, end), and its gradient into g if asked. */
static double loss_and_grad(const DataSet *d, size_t begin, size_t end, bool results_only,
                            double g[N_WEIGHTS][2])
{
    size_t n = end - begin;
    int nt = Opt.threads;
    if ((size_t)nt > n / 256 + 1)
        nt = (int)(n / 256 + 1);
    for (int t = 0; t < nt; t++) {
        Jobs[t].d = d;
        Jobs[t].begin = begin + n * (size_t)t / (size_t)nt;
        Jobs[t].end = begin + n * (size_t)(t + 1) / (size_t)nt;
        Jobs[t].grad = g != NULL;
        Jobs[t].results_only = results_only;
    }
    run_parallel(grad_worker, Jobs, sizeof *Jobs, nt);
    double loss = 0;
    if (g)
        memset(g, 0, sizeof(double) * N_WEIGHTS * 2);
    for (int t = 0; t < nt; t++) {
        loss += Jobs[t].loss;
        if (g)
            for (int i = 0; i < N_WEIGHTS; i++)
                g[i][0] += Jobs[t].g[i][0] / (double)n, g[i][1] += Jobs[t].g[i][1] / (double)n;
    }
    return loss / (double)n;
}

/* K that best maps the starting evaluation to the game results: a scan,
 * then a golden-section search around the best point. */
static double fit_k(const DataSet *d)
{
    double best_k = 1, best = 1e300;
    for (int i = 1; i <= 100; i++) {
        K = 0.05 * i;
        double l = loss_and_grad(d, 0, d->npos, true, NULL);
        if (l < best)
            best = l, best_k = K;
    }
    double a = best_k > 0.05 ? best_k - 0.05 : 0.001, b = best_k + 0.05;
    const double phi = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40; it++) {
        double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
        K = x1;
        double l1 = loss_and_grad(d, 0, d->npos, true, NULL);
        K = x2;
        double l2 = loss_and_grad(d, 0, d->npos, true, NULL);
        if (l1 < l2)
            b = x2;
        else
            a = x1;
    }
    return (a + b) / 2;
}

static void shuffle(DataSet *d, uint64_t *rng)
{
    for (size_t i = d->npos; i > 1; i--) {
        size_t j = (size_t)(rng_next(rng) % i);
        TunePos tmp = d->pos[i - 1];
        d->pos[i - 1] = d->pos[j];
        d->pos[j] = tmp;
    }
}

/* ---- the gradient check ---- */

/* The gradient of the loss against central differences, for every half of
 * every weight that is not frozen: it checks the hand-written derivatives,
 * the non-linear terms' above all. The model has kinks and jumps (the king
 * danger's cap, the complexity's clamp and its jump at eg = 0, the scale's
 * switch there), so the check uses the positions at least 1 cp from all of
 * them, where a step of 0.001 cannot cross one. Returns the number of
 * disagreeing weights. */
static int check_gradient(const DataSet *all)
{
    /* The positions at least a centipawn from any kink or jump. */
    DataSet sub = *all, *d = &sub;
    sub.pos = malloc(all->npos * sizeof *sub.pos);
    if (!sub.pos)
        fail("out of memory");
    sub.npos = 0;
    for (size_t i = 0; i < all->npos; i++) {
        ModelInfo mi;
        model_eval(&all->pos[i], all->coef + all->pos[i].first, &mi);
        if (mi.kink >= 1.0)
            sub.pos[sub.npos++] = all->pos[i];
    }
    printf("gradient check: %zu of %zu positions at least 1 cp from a kink\n", sub.npos, all->npos);
    if (!sub.npos)
        fail("gradient check: no position to check on");
    static double g[N_WEIGHTS][2];
    loss_and_grad(d, 0, d->npos, false, g);
    double gmax = 0;
    for (int i = 0; i < N_WEIGHTS; i++)
        for (int h = 0; h < 2; h++)
            if (!Frozen[i][h] && fabs(g[i][h]) > gmax)
                gmax = fabs(g[i][h]);
    const double step = 1e-3;
    int checked = 0, bad = 0;
    double worst = 0;
    for (int i = 0; i < N_WEIGHTS; i++)
        for (int h = 0; h < 2; h++) {
            if (Frozen[i][h])
                continue;
            const double w0 = W[i][h];
            W[i][h] = w0 + step;
            double up = loss_and_grad(d, 0, d->npos, false, NULL);
            W[i][h] = w0 - step;
            double down = loss_and_grad(d, 0, d->npos, false, NULL);
            W[i][h] = w0;
            double num = (up - down) / (2 * step), err = fabs(num - g[i][h]);
            double tol = 1e-5 * gmax + 1e-3 * fabs(g[i][h]) + 1e-12;
            checked++;
            if (err / tol > worst)
                worst = err / tol;
            if (err > tol) {
                bad++;
                printf("gradient check: %s.%s: analytic %.6g, central difference %.6g\n", Name[i],
                       h ? "eg" : "mg", g[i][h], num);
            }
        }
    printf("gradient check: %d weight halves, %d disagree (worst error %.3g of its tolerance)\n",
           checked, bad, worst);
    free(sub.pos);
    return bad;
}

/* ---- output ---- */

static int rounded(double v)
{
    double r = floor(v + 0.5);
    return r > 32000 ? 32000 : r < -32000 ? -32000 : (int)r;
}

/* A growing text in memory (the weights file before it is written). */
typedef struct {
    char *p;
    size_t len, cap;
} Text;

static int text_printf(Text *t, const char *fmt, ...) PLAT_PRINTF(2, 3);

/* Appends like printf and returns the characters added. */
static int text_printf(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        fail("cannot format the weights");
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (!p)
            fail("out of memory");
        t->p = p;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
    return n;
}

/* Text safe inside a C comment. */
static void put_comment_text(Text *f, const char *s)
{
    for (char prev = 0; *s; prev = *s++)
        text_printf(f, "%c", *s == '/' && prev == '*' ? '_' : (unsigned char)*s < ' ' ? '?' : *s);
}

static void write_weights(const char *path, char **files, int nfiles, size_t npos,
                          const char *k_how, double loss0, double loss1, double loss_rounded)
{
    Text text = {NULL, 0, 0}, *f = &text;
    text_printf(f,
                "/* Evaluation weights, S(middlegame, endgame), indexed as in eval/weights.h.\n");
    text_printf(f, " * Generated by rokade-tune from %zu positions of:\n", npos);
    for (int i = 0; i < nfiles; i++) {
        text_printf(f, " *   ");
        put_comment_text(f, files[i]);
        text_printf(f, "\n");
    }
    text_printf(f, " * Options: --epochs %d --lr %g --lambda %g --batch %ld --threads %d\n",
                Opt.epochs, Opt.lr, Opt.lambda, Opt.batch, Opt.threads);
    text_printf(f, " *   --freeze ");
    put_comment_text(f, Opt.freeze);
    text_printf(f, "\n * K = %.6f (%s). Loss %.7f at the start, %.7f after %d epochs\n", K, k_how,
                loss0, loss1, Opt.epochs);
    text_printf(f, " * (%.7f with the weights rounded). Redo: eval/README.md. */\n", loss_rounded);
    text_printf(f, "#include \"weights.h\"\n\nconst score_t EvalW[N_WEIGHTS] = {\n");
    for (int i = 0; i < N_WEIGHTS; i++) {
        int n = text_printf(f, "    [%s] = S(%d, %d),", Index[i], rounded(W[i][0]),
                            rounded(W[i][1]));
        text_printf(f, "%*s/* %s */\n", n < 40 ? 40 - n : 1, "", Name[i]);
    }
    text_printf(f, "};\n");
    char err[4200];
    if (!write_file_atomic(path, text.p, text.len, err, sizeof err))
        fail("%s", err);
    free(text.p);
}

int main(int argc, char **argv)
{
    init_names();
    int first = parse_options(argc, argv);
    parse_freeze(Opt.freeze);
    freeze_impossible();
    for (int i = 0; i < N_WEIGHTS; i++)
        W[i][0] = mg_value(EvalW[i]), W[i][1] = eg_value(EvalW[i]);
    if (Opt.list) {
        for (int i = 0; i < N_WEIGHTS; i++)
            printf("%-3d %-24s S(%d, %d)%s%s\n", i, Name[i], mg_value(EvalW[i]), eg_value(EvalW[i]),
                   Frozen[i][0] ? " frozen-mg" : "", Frozen[i][1] ? " frozen-eg" : "");
        return 0;
    }
    if (first >= argc)
        fail("no data file given (usage: rokade-tune [options] FILE...; --help for more)");
    movegen_init();
    Jobs = calloc((size_t)Opt.threads, sizeof *Jobs);
    if (!Jobs)
        fail("out of memory");

    /* 1. Load: every record unpacked and traced once. */
    DataSet d = {0};
    size_t dead = 0;
    for (int i = first; i < argc; i++)
        load_file(argv[i], &d, &dead);
    printf("positions %zu (%zu dead or won-ending positions skipped), %.1f coefficients each, "
           "threads %d\n",
           d.npos, dead, d.npos ? (double)d.ncoef / (double)d.npos : 0.0, Opt.threads);
    if (!d.npos)
        fail("no position to tune on");

    /* 2. K, then the targets. */
    const char *k_how = "given";
    if (Opt.k > 0)
        K = Opt.k;
    else
        K = fit_k(&d), k_how = "fitted";
    for (size_t i = 0; i < d.npos; i++) {
        TunePos *p = &d.pos[i];
        p->target = (float)(Opt.lambda * p->result / 2.0 + (1 - Opt.lambda) * sigmoid(p->score));
    }
    double loss0 = loss_and_grad(&d, 0, d.npos, false, NULL);
    printf("K %.6f (%s), loss %.7f\n", K, k_how, loss0);
    fflush(stdout);
    if (Opt.check_gradient) {
        int bad = check_gradient(&d);
        free(d.pos);
        free(d.coef);
        free(Jobs);
        return bad ? 1 : 0;
    }

    /* 3. Adam. */
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    static double m[N_WEIGHTS][2], v[N_WEIGHTS][2], g[N_WEIGHTS][2];
    size_t batch = Opt.batch > 0 && (size_t)Opt.batch < d.npos ? (size_t)Opt.batch : d.npos;
    long step = 0;
    uint64_t rng = 0x2545F4914F6CDD1Dull; /* fixed: a run can be repeated */
    for (int epoch = 1; epoch <= Opt.epochs; epoch++) {
        if (batch < d.npos)
            shuffle(&d, &rng);
        double sum = 0;
        size_t nb = 0;
        for (size_t b = 0; b < d.npos; b += batch, nb++) {
            size_t e = b + batch < d.npos ? b + batch : d.npos;
            sum += loss_and_grad(&d, b, e, false, g);
            step++;
            double c1 = 1 - pow(b1, (double)step), c2 = 1 - pow(b2, (double)step);
            for (int i = 0; i < N_WEIGHTS; i++)
                for (int h = 0; h < 2; h++) {
                    if (Frozen[i][h])
                        continue;
                    m[i][h] = b1 * m[i][h] + (1 - b1) * g[i][h];
                    v[i][h] = b2 * v[i][h] + (1 - b2) * g[i][h] * g[i][h];
                    W[i][h] -= Opt.lr * (m[i][h] / c1) / (sqrt(v[i][h] / c2) + eps);
                }
        }
        printf("epoch %d loss %.7f\n", epoch, sum / (double)nb);
        fflush(stdout);
    }
    double loss1 = loss_and_grad(&d, 0, d.npos, false, NULL);
    for (int i = 0; i < N_WEIGHTS; i++)
        for (int h = 0; h < 2; h++)
            W[i][h] = rounded(W[i][h]);
    double loss_r = loss_and_grad(&d, 0, d.npos, false, NULL);
    printf("final loss %.7f (rounded weights %.7f)\n", loss1, loss_r);

    /* 4. The weights, as a source file. */
    write_weights(Opt.out, argv + first, argc - first, d.npos, k_how, loss0, loss1, loss_r);
    printf("wrote %s\n", Opt.out);
    free(d.pos);
    free(d.coef);
    free(Jobs);
    return 0;
}
