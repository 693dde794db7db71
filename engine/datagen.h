/* Self-play data generation for tuning the evaluation: worker threads, each
 * with its own search instance, play whole games at a fixed node count per
 * move from varied openings and append the quiet positions they meet, with
 * the search score and the game result, as packed 32-byte records
 * (movegen/packed.h) to a file. */
#ifndef ROKADE_DATAGEN_H
#define ROKADE_DATAGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    DATAGEN_GAMES = 1000,       /* default number of games */
    DATAGEN_NODES = 5000,       /* default nodes per move */
    DATAGEN_RANDOM = 8,         /* default random plies without a book */
    DATAGEN_TT_MB = 16,         /* table of each worker */
    DATAGEN_SCORE_BOUND = 3000, /* positions with |score| at or above are not written */
};

typedef struct {
    char out[1024];   /* required */
    char book[1024];  /* "" = start position */
    long long games;
    int threads;      /* 0 = every CPU */
    uint64_t nodes;
    int random;       /* -1 = default (DATAGEN_RANDOM, 0 with a book) */
    uint64_t seed;
    bool seed_given;  /* false: a seed from the clock */
} DatagenOptions;

typedef struct {
    long long games, skipped, positions;
    long long white_wins, draws, black_wins;
    double seconds;
} DatagenStats;

/* Parses `name value` pairs (out, games, threads, nodes, random, book, seed)
 * into opt, starting from the defaults. False with a message in err. */
bool datagen_parse(const char *args, DatagenOptions *opt, char *err, size_t errlen);

/* Plays the games, printing a start line, a progress line every few seconds
 * and a final line through print (may be NULL). False with a message in err
 * when the book or the output file cannot be used, or writing fails. */
bool datagen_run(const DatagenOptions *opt, void (*print)(const char *line), DatagenStats *stats,
                 char *err, size_t errlen);

/* The usage text, one line per entry, NULL-terminated. */
extern const char *const DatagenUsage[];

#endif
