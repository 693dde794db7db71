/* The openings of datagen and genfens (rules in datagen.h): a book of FENs,
 * the start position or a random Chess960 one, then random legal plies,
 * kept when a short search scores them within +-OPENING_MAX_SCORE. An
 * opening depends only on the seed, its number, the book and the rules. */
#ifndef ROKADE_OPENINGS_H
#define ROKADE_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../movegen/position.h"
#include "../search/search.h"

enum {
    OPENING_VERIFY_NODES = 5000, /* the search that checks an opening */
    OPENING_MAX_SCORE = 400,     /* |score| beyond which an opening is drawn again */
    OPENING_TRIES = 64,
};

typedef struct {
    char **fens;
    int count;
} Book;

/* Reads a book: one FEN or EPD per line (hmvc and fmvn give the counters;
 * # starts a comment line). False with a message naming the line. */
bool book_load(const char *path, Book *b, char *err, size_t errlen);
void book_free(Book *b);

typedef struct {
    const Book *book; /* NULL: the start position, or a Chess960 one */
    int random;       /* plies; -1: 8 or 9 */
    int frc;          /* percent of Chess960 starts (without a book) */
} OpeningRules;

/* Opening `index` of the seed into pos (spare is scratch space): the base
 * position (book line `index` from a seeded offset, or a Chess960 start for
 * o->frc percent of the indices, or the start position), the random plies,
 * and a search of OPENING_VERIFY_NODES nodes that must score it within
 * +-OPENING_MAX_SCORE, drawn again up to OPENING_TRIES times. True when
 * one was found; otherwise pos holds the playable try of the smallest
 * |score| (or the base position when none was playable). */
bool opening_make(const OpeningRules *o, uint64_t seed, long long index, Search *s, Position *pos,
                  Position *spare);

#endif
