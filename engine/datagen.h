/* Self-play training data: worker threads, each with its own search instance,
 * play whole games at a fixed node count per move from varied openings and
 * append them to a file.
 *
 * Formats (`format`), written through the one writer of
 * movegen/records/record.h (start, push each move and score, finish):
 *   game    (default) the game format of movegen/records/viriformat.h, the
 *           public viriformat of Viridithas and bullet: each game once as
 *           its start position and result, then per ply the move played and
 *           the search score (White's view), about 4 bytes a position. Every
 *           searched position is stored; filters apply when the file is
 *           read (VfFilter: first plies, in check, capture or promotion
 *           played, mate scores).
 *   packed  the 32-byte records of movegen/records/packed.h (marlinformat)
 *           that the HCE tuner reads (eval/tune/): only quiet positions (not
 *           in check, no capture or promotion played, |score| <
 *           PACKED_QUIET_SCORE), each with its score and the game result.
 *
 * Openings: the start position plus 8 or 9 random legal plies (`random N`:
 * exactly N), or for `frc` percent of the games (default 10) a random
 * Chess960 start position plus the same plies; with a `book` a book line
 * (taken in turn from a seeded offset) plus `random` plies (default 0). An
 * opening is kept when a search of OPENING_VERIFY_NODES nodes scores it
 * within +-OPENING_MAX_SCORE cp, and drawn again otherwise (OPENING_TRIES
 * tries; engine/openings.h).
 * The openings depend only on the seed, the game's number, the book and the
 * opening options, never on the threads or nodes.
 *
 * Game end: the FIDE endings movegen knows (mate, stalemate, dead position,
 * threefold repetition, 50 moves), or adjudication: a win when one side's
 * score (a mate score too) stays at or beyond +-DATAGEN_WIN_SCORE for
 * DATAGEN_WIN_PLIES plies in a row, a draw from game ply DATAGEN_DRAW_PLY on
 * when the score stays within +-DATAGEN_DRAW_SCORE for DATAGEN_DRAW_PLIES
 * plies, and a draw after DATAGEN_MAX_PLIES searched plies. With Syzygy
 * tables (SyzygyPath), a game that reaches them (a capture or pawn move into
 * a position they hold) ends at once with their result, a cursed win or
 * blessed loss as a draw.
 *
 * Resuming: output is appended, one whole game per write, so a run that is
 * cut off loses only the games still being played; a run without `seed`
 * takes a new random seed and prints it (with threads 1 and a seed the file
 * is a function of the options). An output file that does not end with a
 * whole game (format game) or record (format packed) is refused.
 *
 * `datagen pgn IN out OUT` converts instead the games of a PGN with scores,
 * such as an OpenBench datagen run returns, to the game format
 * (movegen/records/pgn.h); a bad game is reported with its line and skipped.
 *
 * genfens (for OpenBench's workers, which run `./rokade "genfens N seed S
 * book <FILE|None> [extra]" quit` and keep the `info string genfens <FEN>`
 * lines): N openings by the rules above, each a six-field FEN (X-FEN
 * castling for Chess960) that depends only on the seed, its number, the book
 * and the extra options `frc P` (default 0: OpenBench plays a workload as
 * standard chess unless its book's name says FRC or 960, and a standard game
 * cannot start from a Chess960 position) and `random N` (default 8 or 9; 0
 * with a book). An opening still out of bounds after every try is given as
 * the closest one found, so exactly N lines are printed. */
#ifndef ROKADE_DATAGEN_H
#define ROKADE_DATAGEN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../eval/nnue/nnue.h"
#include "../movegen/platform/platform.h"
#include "../movegen/records/record.h"

enum {
    DATAGEN_GAMES = 1000,     /* default number of games */
    DATAGEN_NODES = 5000,     /* default nodes per move */
    DATAGEN_FRC_PERCENT = 10, /* default share of Chess960 starts */
    DATAGEN_TT_MB = 1,        /* table of each worker: 5000-node searches fill a few thousand
                               * entries, and 1 MB stays in the cache (+12% positions/s over
                               * 16 MB) */
    DATAGEN_WIN_SCORE = 1500,
    DATAGEN_WIN_PLIES = 5,
    DATAGEN_DRAW_PLY = 80,
    DATAGEN_DRAW_SCORE = 10,
    DATAGEN_DRAW_PLIES = 10,
    DATAGEN_MAX_PLIES = 400,
};

typedef struct {
    char out[1024];     /* required */
    char book[1024];    /* "" = start position */
    char pgn[1024];     /* "": play games; else convert this PGN file (movegen/records/pgn.h) */
    char relabel[1024]; /* "": play games; else search this game-format file's games again */
    long long games;
    int threads; /* 0 = every CPU */
    uint64_t nodes;
    int random;                 /* -1 = default (8 or 9; 0 with a book) */
    int frc;                    /* percent of Chess960 starts; -1 = default (10; 0 with a book) */
    const RecordFormat *format; /* RecordViriformat ("game") or RecordPacked */
    uint64_t seed;
    bool seed_given; /* false: a new random seed */
    /* The evaluation of the searches (NULL: the hand-crafted one): not an
     * option of the command but the engine's EvalFile, set by the caller
     * after datagen_parse, so that a net generates the next generation. */
    const NnueNet *net;
} DatagenOptions;

typedef struct {
    long long games, skipped, positions;
    long long white_wins, draws, black_wins;
    double seconds;
} DatagenStats;

/* Parses `name value` pairs (out, games, threads, nodes, random, frc, book,
 * format, seed; or pgn and out; or relabel, out, nodes and threads) into opt, starting from the
 * defaults. False with a message in err. */
bool datagen_parse(const char *args, DatagenOptions *opt, char *err, size_t errlen);

/* Plays the games (or converts opt->pgn), printing a start line, a progress
 * line every few seconds and a final line through print (may be NULL).
 * False with a message in err when the book or the output file cannot be
 * used, or writing fails. */
bool datagen_run(const DatagenOptions *opt, void (*print)(const char *line), DatagenStats *stats,
                 char *err, size_t errlen);

/* `datagen relabel IN out OUT [nodes N] [threads N]` (engine/relabel.c):
 * the games of the game-format file IN written to OUT with the score of
 * every position the trainer's filter keeps (vf_filter_default) from a new
 * search of `nodes` (default 5000), the other scores, the moves and the
 * results as they were: the same positions with deeper (or shallower)
 * labels. The threads take the games in turn and write them in IN's order,
 * so an OUT that holds k games already is the relabelling of IN's first k
 * valid games, and the run goes on after them (a run cut off resumes
 * without loss). Bad games of IN are skipped and counted; only the games IN
 * holds when the run starts are read (a truncated IN, still being written,
 * up to its last whole game), so an OUT that is IN by another name gets
 * nothing. False with a
 * message when IN cannot be opened, OUT is IN or does not hold whole games,
 * or writing fails. Called by datagen_run when opt->relabel is set. */
bool datagen_relabel(const DatagenOptions *opt, void (*print)(const char *line),
                     DatagenStats *stats, char *err, size_t errlen);

/* The workers of a run (datagen_run's and datagen_relabel's): starts
 * `threads` threads of worker(arg), each counted in *running (a worker
 * takes one off under `lock` and signals `cond` as it ends), calls
 * report(ctx, seconds since the start) every few seconds (PROGRESS_MS;
 * with the lock held: it may let go of it while it prints), and returns
 * once all have ended and been joined: how many started, -1 when out of
 * memory. */
int datagen_workers(int threads, void *(*worker)(void *), void *arg, pthread_mutex_t *lock,
                    pthread_cond_t *cond, int *running, void (*report)(void *ctx, double seconds),
                    void *ctx);

/* The end of such a run: false with the message in err when no worker
 * started (`started` as datagen_workers returned it), a worker failed (its
 * message `why`), or closing the output file `out` (at `path`) failed, which
 * is always tried. */
bool datagen_end_run(int started, bool failed, const char *why, PlatAppendFile *out,
                     const char *path, char *err, size_t errlen);

/* genfens: `N seed S book <FILE|None> [frc P] [random N]`, the openings
 * verified with the evaluation `net` (NULL: hand-crafted); prints each
 * opening as "info string genfens <FEN>" through print. False with a
 * message in err (and nothing printed) on bad arguments or an unusable
 * book. */
bool datagen_genfens(const char *args, const NnueNet *net, void (*print)(const char *line),
                     char *err, size_t errlen);

/* The usage text, one line per entry, NULL-terminated. */
extern const char *const DatagenUsage[];

#endif
