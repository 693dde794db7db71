/* The network's trainer (rokade-train, eval/train.c; eval/README.md, "The
 * network's trainer"): training positions in memory, the float network of
 * eval/nnue_format.h with its forward and backward pass, AdamW on several
 * threads, the quantized file, and the program's command line. The engine
 * does not link this; the tests use the functions below. */
#ifndef ROKADE_TRAIN_H
#define ROKADE_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../movegen/position.h"
#include "../nnue/format.h"

enum {
    TRAIN_MAX_HIDDEN = 2048, /* --hidden: a multiple of TRAIN_HIDDEN_STEP up to this */
    TRAIN_HIDDEN_STEP = 16,
    TRAIN_MAX_THREADS = 64,
};

/* One training position, 32 bytes: the board as in a packed record (the
 * occupancy, then a 4-bit piece code (colour << 3 | type) per occupied square
 * in ascending order, low nibble first), the search score and the result
 * from the side to move's view, and the target (set once the scale is
 * known). */
typedef struct {
    uint64_t occ;
    uint8_t pieces[16];
    int16_t score;  /* centipawns, side to move's view */
    uint8_t result; /* side to move's view: 0 lost, 1 draw, 2 won */
    uint8_t stm;    /* the side to move, plus TRAIN_MIRROR in the trainer's batches */
    float target;   /* train_target() */
} TrainPos;

/* In TrainPos.stm: the position is read mirrored left to right (file a <->
 * file h), a training-time augmentation. The net sees no castling rights,
 * and without them chess is the same game mirrored, so a mirrored position
 * keeps its score and result: a second position for the price of one. */
enum { TRAIN_MIRROR = 2 };

_Static_assert(sizeof(TrainPos) == 32, "TrainPos is 32 bytes");

/* With king buckets (make NNUE_KING_LAYOUT=4 or 5) the trainer learns each
 * feature's weights factored: a row of the feature's own king bucket plus a
 * factor row of the same piece and square that every king bucket shares
 * (row NNUE_INPUTS + feature % NNUE_FEATURES), so that what holds for all
 * king squares is learned from every position. The file gets their sums. */
enum {
    TRAIN_FACTOR_ROWS = NNUE_KING_BUCKETS > 1 ? NNUE_FEATURES : 0,
    TRAIN_ROWS = NNUE_INPUTS + TRAIN_FACTOR_ROWS,
};

/* The float network: every parameter in one array, in the order
 * ft_weight[TRAIN_ROWS][H] (the king buckets' rows, then the factor rows),
 * ft_bias[H], out_weight[B][2H], out_bias[B], padded with zeros to a
 * multiple of 16 floats. */
typedef struct {
    int hidden;
    int buckets; /* output buckets, 1..NNUE_MAX_BUCKETS (nnue_bucket) */
    size_t n;    /* floats in w, padding included */
    float *w;    /* 64-byte aligned */
} TrainNet;

/* The factor row of feature f (used only when TRAIN_FACTOR_ROWS). */
static inline size_t train_factor_row(size_t f) { return NNUE_INPUTS + f % NNUE_FEATURES; }

static inline float *train_ft_bias(const TrainNet *net)
{
    return net->w + (size_t)TRAIN_ROWS * (size_t)net->hidden;
}

/* The trainer's clip of every feature weight and bias and every output
 * weight: +-127/64, so that the quantized file keeps the format's bounds. */
#define TRAIN_CLIP (127.0f / 64.0f)

/* ---- Positions ---------------------------------------------------------- */

/* Packs a position, its score and result (side to move's view); false with
 * more than 32 pieces. The target is set to 0. */
bool train_pos_make(const Position *pos, int score_stm, int result_stm, TrainPos *out);
/* The active features (eval/nnue_format.h, nnue_feature) of the side to move
 * (stm) and of the other side (nstm), of the mirrored board with
 * TRAIN_MIRROR; returns how many each has. */
int train_pos_features(const TrainPos *p, uint16_t stm[32], uint16_t nstm[32]);
/* wdl * result + (1 - wdl) * sigmoid(score / scale), result as 0, 0.5, 1. */
float train_target(const TrainPos *p, double scale, double wdl);
/* The S minimising the mean of (sigmoid(score / S) - result)^2 over up to a
 * million positions taken evenly from pos[0..n-1]; its error in *err. */
double train_fit_scale(const TrainPos *pos, size_t n, double *err);

/* ---- The network -------------------------------------------------------- */

/* Allocates a network of `hidden` (a multiple of TRAIN_HIDDEN_STEP) and
 * `buckets` outputs with random weights from seed; false when out of memory. */
bool train_net_init(TrainNet *net, int hidden, int buckets, uint64_t seed);
void train_net_free(TrainNet *net);
/* The network's output y (logits; eval = y * scale centipawns). */
float train_net_eval(const TrainNet *net, const TrainPos *p);
/* Adds the gradient of the sum of the positions' losses (sigmoid(y) -
 * target)^2 to grad (net->n floats, 64-byte aligned) and returns that sum.
 * One thread. */
double train_net_grad(const TrainNet *net, const TrainPos *const *pos, size_t n, float *grad);
/* The mean loss over pos[0..n-1] on `threads` threads. */
double train_net_loss(const TrainNet *net, const TrainPos *pos, size_t n, int threads);
/* Clips the weights to +-TRAIN_CLIP (the output bias is not clipped). */
void train_net_clip(TrainNet *net);
/* The network as the file format says (nnue_file_size(hidden, buckets)
 * bytes into buf), with `scale` centipawns per logit. */
void train_net_quantize(const TrainNet *net, int scale, uint8_t *buf);
/* Writes that file (through a temporary file and a rename); false with a
 * message in err. */
bool train_net_write(const TrainNet *net, int scale, const char *path, char *err, size_t errlen);

/* The network of a file of the format (its `size` bytes at data), its
 * weights as the file has them divided by the quantization's factors, with
 * `hidden` accumulator values (0: the file's; more widens the net, the new
 * values' feature weights random from seed as train_net_init makes them and
 * their output weights 0, so the output is the file's) and `buckets`
 * outputs (the file's own count, or any when the file has one: each bucket
 * starts as a copy of it). Allocates net (free it with train_net_free) and
 * sets *file to the file's header; false with a message in err when the
 * file is not one the trainer could have written (header, shape, size,
 * checksum), has other buckets or more hidden values. */
bool train_net_read(TrainNet *net, const uint8_t *data, size_t size, int hidden, int buckets,
                    uint64_t seed, NnueHeader *file, char *err, size_t errlen);

/* ---- The optimizer ------------------------------------------------------ */

/* AdamW with per-thread gradient buffers. */
typedef struct {
    TrainNet net;
    float *m, *v;                   /* first and second moments */
    float *grad[TRAIN_MAX_THREADS]; /* one gradient buffer per thread */
    int threads;
    uint64_t step; /* steps taken */
} TrainOpt;

bool train_opt_init(TrainOpt *o, int hidden, int buckets, int threads, uint64_t seed);
void train_opt_free(TrainOpt *o);
/* One step on a batch: the gradient split over the threads, then the
 * reduction and the AdamW update (weight decay wd on the weights, not the
 * biases) split over the parameters, then the clip. Returns the batch's
 * summed loss. */
double train_opt_step(TrainOpt *o, const TrainPos *const *batch, size_t n, double lr, double wd);

/* The SIMD code compiled in (eval/nnue/simd.h): "avx512", "avx2", "sse3",
 * "sse2", "neon", "wasm-simd128" or "portable". */
const char *train_simd_name(void);

/* ---- The program -------------------------------------------------------- */

/* rokade-train's command line (eval/train_cli.c; --help); returns the exit status: 0 done,
 * 1 a file or memory error, 2 bad options, data or checkpoint. */
int train_main(int argc, char **argv);

#endif
