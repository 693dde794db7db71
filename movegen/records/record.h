/* What the training-data formats share: a game as the readers give it, and
 * the one way to write any format. A writer takes a game as it is played or
 * read: start at its start position, push every move played with its search
 * score, finish with the result; it then holds the game in its format, ready
 * for one write (datagen appends each game with one write(2), so a run that
 * is stopped leaves whole games). Each format supplies its side of the three
 * steps as a RecordFormat (viriformat.h, packed.h); datagen and the PGN
 * converter only name the format, never look inside it. */
#ifndef ROKADE_RECORDS_RECORD_H
#define ROKADE_RECORDS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../position.h"

/* A game's result from White's view, as every format stores it. */
enum { RESULT_BLACK_WINS, RESULT_DRAW, RESULT_WHITE_WINS };

/* ---- Reading ----------------------------------------------------------- */

/* A game as a reader gives it (viriformat.h, pgn.h); the pointers stay
 * valid until the reader's next game. */
typedef struct {
    const Position *start;
    int result_white; /* RESULT_* */
    int plies;
    const move_t *moves;   /* every one legal */
    const int16_t *scores; /* the search score before each move, White's view */
    long long number;      /* 1 for the first game of the file */
} RecordGame;

/* What a reader's next-game call returns: a game; the end of the file; a
 * game that was read but is not valid (it is skipped, and the next call goes
 * on with the next game); a file that cannot be read on. */
enum { RECORD_GAME = 1, RECORD_END = 0, RECORD_BAD_GAME = -1, RECORD_FAILED = -2 };

/* ---- Writing ----------------------------------------------------------- */

typedef struct RecordWriter RecordWriter;

/* A format's side of the writer. In each step w->pos is the position the
 * step is about (the start position, the position before the move, the last
 * position); a step appends its bytes with record_append, and returns false
 * with the reason in w->error when the format cannot hold the game. */
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

/* The fields are the writer's; callers read bytes, size, positions and
 * error after record_finish. */
struct RecordWriter {
    const RecordFormat *format;
    Position *pos;
    uint8_t *bytes; /* the game in the format */
    size_t size, cap;
    int plies;         /* moves pushed */
    int positions;     /* positions the bytes hold */
    bool ok;           /* every step so far succeeded */
    const char *error; /* why not */
};

/* False when out of memory. */
bool record_writer_init(RecordWriter *w, const RecordFormat *format);
void record_writer_free(RecordWriter *w);

void record_start(RecordWriter *w, const Position *start);
/* The move played in the current position (legal there) and the search
 * score of that position, centipawns from White's view. */
void record_push(RecordWriter *w, move_t move, int score_white);
/* Ends the game with its result (RESULT_*, White's view). True when
 * w->bytes holds it: w->size bytes, w->positions positions. False, with the
 * reason in w->error, when it cannot be written: a start position of more
 * than 32 pieces (the game format), more plies than a format takes, or out
 * of memory. */
bool record_finish(RecordWriter *w, int result_white);
/* A whole game read from a file: start, push every ply, finish. */
bool record_write_game(RecordWriter *w, const RecordGame *g);

/* For the formats' steps: n more bytes at the end of the game (zeroed);
 * NULL when out of memory (w->error says so). */
uint8_t *record_append(RecordWriter *w, size_t n);

#endif
