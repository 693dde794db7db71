/* The network's trainer, its computing part: training positions, the
 * scale's fit, (768 -> H) x 2 -> 1 with SCReLU forward and backward with
 * SIMD kernels, AdamW on several threads, and the quantized file
 * (eval/nnue_format.h). The program around it is eval/train_cli.c;
 * eval/README.md, "The network's trainer", documents both. */
#include "train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../movegen/bitboard.h"
#include "../../movegen/util.h"
#include "../nnue/simd.h"

/* ---- Small helpers ------------------------------------------------------ */

static float sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }

static void *alloc_floats(size_t n)
{
    size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
    void *p = plat_aligned_alloc(64, bytes ? bytes : 64);
    if (p)
        memset(p, 0, bytes);
    return p;
}

/* ---- Kernels over the SIMD layer (eval/nnue/simd.h; n is a multiple of
 * 16, pointers 64-byte aligned) ------------------------------------------ */

/* (cppcheck, not knowing the SIMD layer's lanes, takes them for one.) */
/* cppcheck-suppress moduloofone */
_Static_assert(16 % VF32_LANES == 0, "the kernels step by the lanes within 16 values");

const char *train_simd_name(void) { return SIMD_F32_NAME; }

/* d += s */
static void vec_add(float *restrict d, const float *restrict s, int n)
{
    for (int i = 0; i < n; i += VF32_LANES)
        vf32_store(d + i, vf32_add(vf32_load(d + i), vf32_load(s + i)));
}

/* sum_i screlu(a_i) w_i */
static float dot_screlu(const float *restrict a, const float *restrict w, int n)
{
    const vf32 zero = vf32_zero(), one = vf32_set1(1.0f);
    vf32 sum = zero;
    for (int i = 0; i < n; i += VF32_LANES) {
        vf32 c = vf32_min(vf32_max(vf32_load(a + i), zero), one);
        sum = vf32_mul_add(vf32_mul(c, c), vf32_load(w + i), sum);
    }
    return vf32_sum(sum);
}

/* The backward pass through one perspective's SCReLU and output weights,
 * for the output's gradient g: gw_i += g screlu(a_i); da_i = g w_i 2 a_i
 * where 0 < a_i < 1, else 0; gb_i += da_i. */
static void back_screlu(const float *restrict a, const float *restrict w, float g,
                        float *restrict gw, float *restrict da, float *restrict gb, int n)
{
    const vf32 zero = vf32_zero(), one = vf32_set1(1.0f), vg = vf32_set1(g);
    const vf32 vg2 = vf32_set1(2 * g);
    for (int i = 0; i < n; i += VF32_LANES) {
        vf32 x = vf32_load(a + i);
        vf32 c = vf32_min(vf32_max(x, zero), one);
        vf32_store(gw + i, vf32_mul_add(vg, vf32_mul(c, c), vf32_load(gw + i)));
        vf32 d = vf32_in_open01(x, vf32_mul(vf32_mul(vg2, vf32_load(w + i)), x));
        vf32_store(da + i, d);
        vf32_store(gb + i, vf32_add(vf32_load(gb + i), d));
    }
}

/* ---- Positions ---------------------------------------------------------- */

bool train_pos_make(const Position *pos, int score_stm, int result_stm, TrainPos *out)
{
    memset(out, 0, sizeof *out);
    bitboard_t occ = pos_occupied(pos);
    if (popcount(occ) > 32)
        return false;
    out->occ = occ;
    int k = 0;
    for (bitboard_t b = occ; b; b &= b - 1, k++) {
        int sq = lsb(b);
        out->pieces[k / 2] |= (uint8_t)(pos_piece_on(pos, sq) << (4 * (k & 1)));
    }
    out->score = (int16_t)(score_stm > 32000 ? 32000 : score_stm < -32000 ? -32000 : score_stm);
    out->result = (uint8_t)result_stm;
    out->stm = (uint8_t)pos->side;
    return true;
}

int train_pos_features(const TrainPos *p, uint16_t stm[32], uint16_t nstm[32])
{
    int k = 0, us = p->stm & 1, flip = p->stm & TRAIN_MIRROR ? 7 : 0;
    int piece[32], sq[32], ksq[COLOR_NB] = {0, 0};
    for (uint64_t b = p->occ; b; b &= b - 1, k++) {
        sq[k] = lsb(b) ^ flip;
        piece[k] = (p->pieces[k / 2] >> (4 * (k & 1))) & 15;
        if (piece_type(piece[k]) == KING)
            ksq[piece_color(piece[k])] = sq[k];
    }
    for (int i = 0; i < k; i++) {
        stm[i] = (uint16_t)nnue_feature(us, ksq[us], piece[i], sq[i]);
        nstm[i] = (uint16_t)nnue_feature(!us, ksq[!us], piece[i], sq[i]);
    }
    return k;
}

float train_target(const TrainPos *p, double scale, double wdl)
{
    double s = 1.0 / (1.0 + exp(-p->score / scale));
    return (float)(wdl * p->result / 2.0 + (1 - wdl) * s);
}

static double scale_error(const TrainPos *pos, size_t n, size_t stride, double s)
{
    double sum = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i += stride, k++) {
        double e = 1.0 / (1.0 + exp(-pos[i].score / s)) - pos[i].result / 2.0;
        sum += e * e;
    }
    return k ? sum / (double)k : 0;
}

double train_fit_scale(const TrainPos *pos, size_t n, double *err)
{
    size_t stride = n > 1000000 ? n / 1000000 : 1;
    /* A grid in steps of 5% from 10 to 5000, then golden sections around the
     * best point. */
    double best = 10, best_e = INFINITY;
    for (int k = 0; 10 * pow(1.05, k) <= 5000; k++) {
        double s = 10 * pow(1.05, k), e = scale_error(pos, n, stride, s);
        if (e < best_e)
            best_e = e, best = s;
    }
    double lo = best / 1.05, hi = best * 1.05, g = (sqrt(5.0) - 1) / 2;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double e1 = scale_error(pos, n, stride, x1), e2 = scale_error(pos, n, stride, x2);
    for (int it = 0; it < 40; it++) {
        if (e1 < e2)
            hi = x2, x2 = x1, e2 = e1, x1 = hi - g * (hi - lo),
            e1 = scale_error(pos, n, stride, x1);
        else
            lo = x1, x1 = x2, e1 = e2, x2 = lo + g * (hi - lo),
            e2 = scale_error(pos, n, stride, x2);
    }
    double s = (lo + hi) / 2;
    if (err)
        *err = scale_error(pos, n, stride, s);
    return s;
}

/* ---- The network -------------------------------------------------------- */

/* Where the output weights start; the biases follow the last bucket's. */
static size_t out_offset(size_t h) { return (size_t)(TRAIN_ROWS + 1) * h; }
static size_t out_bias_offset(const TrainNet *net)
{
    return out_offset((size_t)net->hidden) + 2 * (size_t)net->hidden * (size_t)net->buckets;
}

bool train_net_init(TrainNet *net, int hidden, int buckets, uint64_t seed)
{
    net->hidden = hidden;
    net->buckets = buckets;
    size_t n = out_bias_offset(net) + (size_t)buckets;
    net->n = (n + 15) / 16 * 16;
    net->w = alloc_floats(net->n);
    if (!net->w)
        return false;
    /* Feature weights uniform in +-1/sqrt(32) (about 30 active features: an
     * accumulator starts with a spread near 0.6, half of it in SCReLU's
     * slope), the factor rows 0; output weights in +-1/sqrt(2H); biases 0. */
    uint64_t s = seed ^ 0x6A09E667F3BCC909ull;
    float a = 1.0f / sqrtf(32.0f), b = 1.0f / sqrtf(2.0f * (float)hidden);
    size_t nft = (size_t)NNUE_INPUTS * (size_t)hidden;
    for (size_t i = 0; i < nft; i++)
        net->w[i] = (float)((2 * rng_unit(rng_next(&s)) - 1) * a);
    float *ow = net->w + out_offset((size_t)hidden);
    for (int i = 0; i < 2 * hidden * buckets; i++)
        ow[i] = (float)((2 * rng_unit(rng_next(&s)) - 1) * b);
    return true;
}

void train_net_free(TrainNet *net)
{
    plat_aligned_free(net->w);
    net->w = NULL;
}

typedef struct {
    _Alignas(64) float acc[2][TRAIN_MAX_HIDDEN];
    _Alignas(64) float da[2][TRAIN_MAX_HIDDEN];
    uint16_t feat[2][32];
    int nfeat;
    int bucket;
} Scratch;

/* The accumulators of both perspectives (side to move first), the bucket
 * and y. */
static float forward(const TrainNet *net, const TrainPos *p, Scratch *s)
{
    const size_t h = (size_t)net->hidden;
    const float *ftw = net->w, *ftb = train_ft_bias(net);
    s->nfeat = train_pos_features(p, s->feat[0], s->feat[1]);
    s->bucket = nnue_bucket(s->nfeat, net->buckets);
    const float *ow = net->w + out_offset(h) + 2 * h * (size_t)s->bucket;
    for (int k = 0; k < 2; k++) {
        memcpy(s->acc[k], ftb, h * sizeof(float));
        for (int i = 0; i < s->nfeat; i++) {
            vec_add(s->acc[k], ftw + s->feat[k][i] * h, (int)h);
            if (TRAIN_FACTOR_ROWS)
                vec_add(s->acc[k], ftw + train_factor_row(s->feat[k][i]) * h, (int)h);
        }
    }
    return net->w[out_bias_offset(net) + (size_t)s->bucket] + dot_screlu(s->acc[0], ow, (int)h)
           + dot_screlu(s->acc[1], ow + h, (int)h);
}

float train_net_eval(const TrainNet *net, const TrainPos *p)
{
    static _Thread_local Scratch s;
    return forward(net, p, &s);
}

double train_net_grad(const TrainNet *net, const TrainPos *const *pos, size_t n, float *grad)
{
    static _Thread_local Scratch s;
    const size_t h = (size_t)net->hidden;
    float *gftb = grad + TRAIN_ROWS * h;
    double loss = 0;
    for (size_t j = 0; j < n; j++) {
        if (j + 1 < n)
            __builtin_prefetch(pos[j + 1]);
        float y = forward(net, pos[j], &s);
        float p = sigmoidf(y), e = p - pos[j]->target;
        loss += (double)(e * e);
        float g = 2 * e * p * (1 - p);
        const size_t bucket_at = out_offset(h) + 2 * h * (size_t)s.bucket;
        const float *ow = net->w + bucket_at;
        float *gow = grad + bucket_at;
        grad[out_bias_offset(net) + (size_t)s.bucket] += g;
        for (size_t k = 0; k < 2; k++) {
            back_screlu(s.acc[k], ow + k * h, g, gow + k * h, s.da[k], gftb, (int)h);
            for (int i = 0; i < s.nfeat; i++) {
                vec_add(grad + s.feat[k][i] * h, s.da[k], (int)h);
                if (TRAIN_FACTOR_ROWS)
                    vec_add(grad + train_factor_row(s.feat[k][i]) * h, s.da[k], (int)h);
            }
        }
    }
    return loss;
}

void train_net_clip(TrainNet *net)
{
    size_t n = out_bias_offset(net);
    for (size_t i = 0; i < n; i++)
        net->w[i] = fminf(fmaxf(net->w[i], -TRAIN_CLIP), TRAIN_CLIP);
}

/* ---- Threads: jobs for run_parallel (movegen/util.h) -------------------- */

typedef struct {
    const TrainNet *net;
    const TrainPos *pos;         /* loss jobs */
    const TrainPos *const *ptrs; /* gradient jobs */
    size_t n;
    float *grad;
    double loss;
} LossJob;

static void *loss_job(void *arg)
{
    LossJob *j = arg;
    double sum = 0;
    for (size_t i = 0; i < j->n; i++) {
        float e = sigmoidf(train_net_eval(j->net, &j->pos[i])) - j->pos[i].target;
        sum += (double)(e * e);
    }
    j->loss = sum;
    return NULL;
}

double train_net_loss(const TrainNet *net, const TrainPos *pos, size_t n, int threads)
{
    if (!n)
        return 0;
    LossJob jobs[TRAIN_MAX_THREADS] = {0};
    threads = threads < 1 ? 1 : threads > TRAIN_MAX_THREADS ? TRAIN_MAX_THREADS : threads;
    for (int t = 0; t < threads; t++) {
        size_t lo = n * (size_t)t / (size_t)threads, hi = n * (size_t)(t + 1) / (size_t)threads;
        jobs[t] = (LossJob){.net = net, .pos = pos + lo, .n = hi - lo};
    }
    run_parallel(loss_job, jobs, sizeof *jobs, threads);
    double sum = 0;
    for (int t = 0; t < threads; t++)
        sum += jobs[t].loss;
    return sum / (double)n;
}

/* ---- The optimizer ------------------------------------------------------ */

bool train_opt_init(TrainOpt *o, int hidden, int buckets, int threads, uint64_t seed)
{
    memset(o, 0, sizeof *o);
    o->threads = threads < 1 ? 1 : threads > TRAIN_MAX_THREADS ? TRAIN_MAX_THREADS : threads;
    if (!train_net_init(&o->net, hidden, buckets, seed))
        return false;
    o->m = alloc_floats(o->net.n);
    o->v = alloc_floats(o->net.n);
    bool ok = o->m && o->v;
    for (int t = 0; t < o->threads; t++)
        ok = ok && (o->grad[t] = alloc_floats(o->net.n)) != NULL;
    if (!ok)
        train_opt_free(o);
    return ok;
}

void train_opt_free(TrainOpt *o)
{
    train_net_free(&o->net);
    plat_aligned_free(o->m);
    plat_aligned_free(o->v);
    for (int t = 0; t < TRAIN_MAX_THREADS; t++)
        plat_aligned_free(o->grad[t]);
    memset(o, 0, sizeof *o);
}

typedef struct {
    TrainOpt *o;
    size_t lo, hi; /* parameters */
    float inv_n;
    double lr, wd;
} AdamJob;

enum { CHUNK = 16 };

static void *adam_job(void *arg)
{
    const AdamJob *j = arg;
    TrainOpt *o = j->o;
    const float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
    const double t = (double)o->step;
    const float c1 = (float)(1 / (1 - pow(b1, t))), c2 = (float)(1 / (1 - pow(b2, t)));
    const size_t h = (size_t)o->net.hidden;
    /* Weight decay on the feature weights and the output weights only. */
    const size_t ft_end = TRAIN_ROWS * h, ow_lo = out_offset(h), ow_hi = out_bias_offset(&o->net);
    float *w = o->net.w, *m = o->m, *v = o->v;
    const float lr = (float)j->lr, lrwd = (float)(j->lr * j->wd);
    for (size_t i = j->lo; i < j->hi; i++) {
        float g = 0;
        for (int k = 0; k < o->threads; k++)
            g += o->grad[k][i], o->grad[k][i] = 0;
        g *= j->inv_n;
        m[i] = b1 * m[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        float x = w[i];
        if (i < ft_end || (i >= ow_lo && i < ow_hi))
            x -= lrwd * x;
        x -= lr * (m[i] * c1) / (sqrtf(v[i] * c2) + eps);
        if (i < ow_hi)
            x = fminf(fmaxf(x, -TRAIN_CLIP), TRAIN_CLIP);
        w[i] = x;
    }
    return NULL;
}

static void *grad_job(void *arg)
{
    LossJob *j = arg;
    j->loss = train_net_grad(j->net, j->ptrs, j->n, j->grad);
    return NULL;
}

double train_opt_step(TrainOpt *o, const TrainPos *const *batch, size_t n, double lr, double wd)
{
    const int nt = o->threads < 1 ? 1 : o->threads;
    LossJob jobs[TRAIN_MAX_THREADS] = {0};
    for (int t = 0; t < nt; t++) {
        size_t lo = n * (size_t)t / (size_t)nt, hi = n * (size_t)(t + 1) / (size_t)nt;
        jobs[t] = (LossJob){.net = &o->net, .ptrs = batch + lo, .n = hi - lo, .grad = o->grad[t]};
    }
    run_parallel(grad_job, jobs, sizeof *jobs, nt);
    double loss = 0;
    for (int t = 0; t < nt; t++)
        loss += jobs[t].loss;

    o->step++;
    AdamJob aj[TRAIN_MAX_THREADS] = {0};
    size_t chunks = o->net.n / CHUNK;
    for (int t = 0; t < nt; t++)
        aj[t] = (AdamJob){.o = o,
                          .lo = chunks * (size_t)t / (size_t)nt * CHUNK,
                          .hi = chunks * (size_t)(t + 1) / (size_t)nt * CHUNK,
                          .inv_n = n ? 1.0f / (float)n : 0,
                          .lr = lr,
                          .wd = wd};
    run_parallel(adam_job, aj, sizeof *aj, nt);
    return loss;
}

/* ---- The quantized file ------------------------------------------------- */

/* round(x), saturated to int16. */
static int16_t quantize(float x)
{
    long v = lrintf(x);
    return (int16_t)(v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : v);
}

void train_net_quantize(const TrainNet *net, int scale, uint8_t *buf)
{
    const size_t h = (size_t)net->hidden;
    const NnueHeader header = {.inputs = NNUE_INPUTS,
                               .hidden = (uint32_t)h,
                               .qa = NNUE_QA,
                               .qb = NNUE_QB,
                               .scale = scale,
                               .buckets = (uint32_t)net->buckets};
    nnue_header_write(buf, &header);
    uint8_t *p = buf + NNUE_HEADER_SIZE;
    /* Each feature's row, with its factor row added (and the sum kept in
     * the clip), then the biases. */
    for (size_t f = 0; f < NNUE_INPUTS; f++)
        for (size_t i = 0; i < h; i++, p += 2) {
            float x = net->w[f * h + i];
            if (TRAIN_FACTOR_ROWS)
                x = fminf(fmaxf(x + net->w[train_factor_row(f) * h + i], -TRAIN_CLIP), TRAIN_CLIP);
            nnue_put_i16(p, quantize(x * NNUE_QA));
        }
    for (size_t i = 0; i < h; i++, p += 2)
        nnue_put_i16(p, quantize(train_ft_bias(net)[i] * NNUE_QA));
    const float *ow = net->w + out_offset(h);
    for (size_t i = 0; i < 2 * h * (size_t)net->buckets; i++, p += 2)
        nnue_put_i16(p, quantize(ow[i] * NNUE_QB));
    for (int k = 0; k < net->buckets; k++, p += 4) {
        double b = (double)net->w[out_bias_offset(net) + (size_t)k] * NNUE_QA * NNUE_QB;
        b = b > INT32_MAX ? INT32_MAX : b < INT32_MIN ? INT32_MIN : b;
        nnue_put_u32(p, (uint32_t)(int32_t)lrint(b));
    }
    nnue_put_u32(p, nnue_checksum(buf, (size_t)(p - buf)));
}

bool train_net_write(const TrainNet *net, int scale, const char *path, char *err, size_t errlen)
{
    size_t n = nnue_file_size(NNUE_INPUTS, (size_t)net->hidden, (size_t)net->buckets);
    uint8_t *buf = malloc(n);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    train_net_quantize(net, scale, buf);
    bool ok = write_file_atomic(path, buf, n, err, errlen);
    free(buf);
    return ok;
}

bool train_net_read(TrainNet *net, const uint8_t *data, size_t size, int hidden, int buckets,
                    uint64_t seed, NnueHeader *file, char *err, size_t errlen)
{
    NnueHeader h;
    if (!nnue_header_read(data, size, &h, err, errlen))
        return false;
    /* A net of one king bucket (768 inputs) can start every king bucket of
     * a trainer built with more (make NNUE_KING_LAYOUT=4 or 5). */
    const bool one_king_bucket = h.inputs == NNUE_FEATURES;
    if ((!one_king_bucket && h.inputs != NNUE_INPUTS) || h.qa != NNUE_QA || h.qb != NNUE_QB) {
        snprintf(err, errlen, "inputs %u, QA %u, QB %u: this trainer has %d, %d, %d", h.inputs,
                 h.qa, h.qb, NNUE_INPUTS, NNUE_QA, NNUE_QB);
        return false;
    }
    if (h.hidden < TRAIN_HIDDEN_STEP || h.hidden > TRAIN_MAX_HIDDEN
        || h.hidden % TRAIN_HIDDEN_STEP) {
        snprintf(err, errlen, "hidden size %u, not a multiple of %d up to %d", h.hidden,
                 TRAIN_HIDDEN_STEP, TRAIN_MAX_HIDDEN);
        return false;
    }
    size_t want = nnue_file_size(h.inputs, h.hidden, h.buckets);
    if (size != want) {
        snprintf(err, errlen, "%zu bytes where its header says %zu", size, want);
        return false;
    }
    if (nnue_checksum(data, size - 4) != nnue_get_u32(data + size - 4)) {
        snprintf(err, errlen, "checksum mismatch (damaged file)");
        return false;
    }
    if ((int)h.buckets != buckets && h.buckets != 1) {
        snprintf(err, errlen,
                 "%u output buckets, not %d (a net of one bucket can start any number)", h.buckets,
                 buckets);
        return false;
    }
    hidden = hidden ? hidden : (int)h.hidden;
    if (hidden < (int)h.hidden) {
        snprintf(err, errlen, "hidden size %u, more than --hidden %d (a net can only be widened)",
                 h.hidden, hidden);
        return false;
    }
    /* The new accumulator values, if any, start as train_net_init makes
     * them, with output weights of zero: the wider net computes what the
     * file's does. The rows of a file of one king bucket become the factor
     * rows, each king bucket's own rows starting at 0: every perspective's
     * accumulator is then the file's, of the board that perspective reads
     * (mirrored in layout 4 when its king is on files e-h), so in a layout
     * without mirroring the net computes what the file's does. A file of
     * this trainer's king buckets gives their rows, the factor rows 0. */
    if (!train_net_init(net, hidden, buckets, seed))
        return snprintf(err, errlen, "out of memory"), false;
    const size_t old = h.hidden, hid = (size_t)hidden;
    const bool to_factor = h.inputs != NNUE_INPUTS;
    const uint8_t *p = data + NNUE_HEADER_SIZE;
    for (size_t f = 0; f < h.inputs; f++) /* the feature weights' rows */
        for (size_t i = 0; i < old; i++, p += 2)
            net->w[(to_factor ? NNUE_INPUTS + f : f) * hid + i] = (float)nnue_get_i16(p) / NNUE_QA;
    if (to_factor) /* the king buckets' own rows: 0 where the file has values */
        for (size_t k = 0; k < NNUE_INPUTS; k++)
            memset(net->w + k * hid, 0, old * sizeof *net->w);
    for (size_t i = 0; i < old; i++, p += 2) /* then the biases */
        train_ft_bias(net)[i] = (float)nnue_get_i16(p) / NNUE_QA;
    /* Every bucket of the new net from the file's bucket of the same index,
     * or from its only one. */
    const uint8_t *ow = p, *ob = p + 4 * old * h.buckets;
    for (int k = 0; k < buckets; k++) {
        size_t from = h.buckets == 1 ? 0 : (size_t)k;
        float *w = net->w + out_offset(hid) + 2 * hid * (size_t)k;
        for (size_t half = 0; half < 2; half++)
            for (size_t i = 0; i < hid; i++)
                w[half * hid + i] =
                    i < old
                        ? (float)nnue_get_i16(ow + 2 * (2 * old * from + half * old + i)) / NNUE_QB
                        : 0.0f;
        net->w[out_bias_offset(net) + (size_t)k] =
            (float)((double)(int32_t)nnue_get_u32(ob + 4 * from) / (NNUE_QA * NNUE_QB));
    }
    *file = h;
    return true;
}
