/* The one way to write training data, whatever the format: start a game at
 * its start position, push every move played with its search score, finish
 * with the result; the writer then holds the game in its format, ready for
 * one write (datagen appends each game with one write(2), so a run that is
 * stopped leaves whole games). Each format supplies its side of the three
 * steps as a RecordFormat (viriformat.h, packed.h); datagen and the PGN
 * converter only name the format, never look inside it. */
#ifndef ROKADE_RECORDS_WRITER_H
#define ROKADE_RECORDS_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../position.h"

/* A game's result from White's view, as every format stores it. */
enum { RESULT_BLACK_WINS, RESULT_DRAW, RESULT_WHITE_WINS };

typedef struct RecordWriter RecordWriter;

/* A format's side of the writer. In each step w->pos is the position the
 * step is about (the start position, the position before the move, the last
 * position); a step appends its bytes with record_append, and returns false
 * when the format cannot hold the game. */
typedef struct {
    const char *name; /* as `datagen format` names it */
    const char *unit; /* a file of the format is a sequence of these (for messages) */
    bool (*start)(RecordWriter *w);
    bool (*push)(RecordWriter *w, move_t move, int score_white);
    bool (*finish)(RecordWriter *w, int result_white);
    /* Whether a file of `size` (> 0) bytes whose last bytes are `tail` (4 of
     * them, fewer when the file is shorter) ends with a whole unit, so that
     * games can be appended to it. */
    bool (*ends_whole)(long long size, const uint8_t *tail);
} RecordFormat;

extern const RecordFormat RecordViriformat; /* "game" (viriformat.h) */
extern const RecordFormat RecordPacked;     /* "packed" (packed.h) */

/* The format called `name` ("game" or "packed"); NULL when there is none. */
const RecordFormat *record_format(const char *name);

/* The fields are the writer's; callers read bytes, size and positions after
 * record_finish. */
struct RecordWriter {
    const RecordFormat *format;
    Position *pos;
    uint8_t *bytes; /* the game in the format */
    size_t size, cap;
    int plies;     /* moves pushed */
    int positions; /* positions the bytes hold */
    bool ok;       /* every step so far succeeded */
};

/* False when out of memory. */
bool record_writer_init(RecordWriter *w, const RecordFormat *format);
void record_writer_free(RecordWriter *w);

void record_start(RecordWriter *w, const Position *start);
/* The move played in the current position (legal there) and the search
 * score of that position, centipawns from White's view. */
void record_push(RecordWriter *w, move_t move, int score_white);
/* Ends the game with its result (RESULT_*, White's view). True when
 * w->bytes holds it: w->size bytes, w->positions positions. False when it
 * cannot be written: a start position of more than 32 pieces (the game
 * format), more plies than a format takes, or out of memory. */
bool record_finish(RecordWriter *w, int result_white);

/* For the formats' steps: n more bytes at the end of the game (zeroed);
 * NULL when out of memory. */
uint8_t *record_append(RecordWriter *w, size_t n);

#endif
