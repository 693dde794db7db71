/* PGN games with search scores, read for the training formats: the PGNs
 * that an OpenBench datagen run returns (played by fastchess or cutechess,
 * whose move comments start with the mover's score and depth: `{+0.31/12
 * 0.101s, n=5012, sd=15}`, `{-M7/30 ...}`, or OpenBench's compact
 * `{+0.31/12}`). `datagen pgn IN out OUT` (engine/datagen.c) writes them in
 * the game format through the writer of record.h.
 *
 * Each game is given once: its start position (the FEN tag, or the start
 * position; Chess960 when the Variant tag says chess960 or fischerandom, or
 * the FEN needs it) after the leading moves without a score (`{book}`), the
 * result of its termination marker, and per ply the move and the score,
 * turned to White's view (cp: pawns * 100, below VF_MATE_BOUND; mate in n
 * plies: +-(32000 - n)). Moves are SAN (long algebraic and UCI text are
 * accepted too).
 *
 * A bad game is reported as "FILE:LINE: reason" and the next one is read:
 * an illegal, ambiguous or unreadable move, a move without a score after a
 * scored one, a comment that is not a score, a bad FEN or another variant,
 * an unfinished game (`*`), or a game cut off by the next game's tags or the
 * end of the file. */
#ifndef ROKADE_RECORDS_PGN_H
#define ROKADE_RECORDS_PGN_H

#include <stddef.h>
#include <stdio.h>

#include "../position.h"
#include "record.h"

enum { TEXT_VALUE_MAX = 256 };

typedef struct PgnReader PgnReader;

/* Opens a PGN file; NULL with a message in err. */
PgnReader *pgn_open(const char *path, char *err, size_t errlen);
void pgn_close(PgnReader *r);
/* Reads the next game (record.h): RECORD_GAME; RECORD_END at the end of the
 * file; RECORD_BAD_GAME with "FILE:LINE: reason" in err (the game is
 * skipped; the next call goes on with the next game); RECORD_FAILED when
 * the file cannot be read on. */
int pgn_next_game(PgnReader *r, char *err, size_t errlen);
/* The game just read (after RECORD_GAME); its number after RECORD_BAD_GAME
 * too. */
RecordGame pgn_game(const PgnReader *r);
/* The line of the last token read: the result of the game just read. */
int pgn_line(const PgnReader *r);

/* ---- Games as they were played (engine/review.c) ------------------------
 *
 * Any PGN game, scores or not: its tags as written, its start position (FEN
 * and Variant tags as above), its moves with the [%clk] comment after each,
 * and its termination marker (`*` too). Variations, NAGs and other comments
 * are passed over. A move that is written as a move but cannot be played
 * (illegal, or ambiguous) ends the moves read: the game is given up to it,
 * with the move and why. A bad game (a malformed tag, a token that is not a
 * move, a bad FEN, another variant, no result before the next game or the
 * end of the file) is reported as "FILE:LINE: game N: reason" and skipped. */

typedef struct {
    char name[64];
    char value[TEXT_VALUE_MAX];
} PgnTag;

typedef struct {
    move_t move;
    int line;
    int64_t clk_ms; /* the [%clk] after the move; -1 when none */
    char text[24];  /* as written */
} PgnMove;

typedef struct {
    long long number; /* in the file, from 1 */
    int line;         /* where it starts */
    const PgnTag *tags;
    int tag_count;
    const Position *start;
    const PgnMove *moves; /* the moves played from start */
    int move_count;
    char result[8]; /* 1-0, 0-1, 1/2-1/2 or * */
    /* The first move that could not be played, and why; the moves after it
     * are not read. */
    bool stopped;
    int stop_line;
    char stop_text[24];
    char stop_why[200];
} PgnPlayedGame;

typedef struct PgnPlayedReader PgnPlayedReader;

PgnPlayedReader *pgn_played_open(const char *path, char *err, size_t errlen);
/* The same over an open stream, named `name` in messages (left open). */
PgnPlayedReader *pgn_played_open_stream(FILE *f, const char *name, char *err, size_t errlen);
void pgn_played_close(PgnPlayedReader *r);
/* RECORD_GAME, RECORD_END, RECORD_BAD_GAME (err says which and why; the
 * next call reads the next game) or RECORD_FAILED. */
int pgn_played_next(PgnPlayedReader *r, char *err, size_t errlen);
/* The game just read (valid until the next call). */
const PgnPlayedGame *pgn_played_game(const PgnPlayedReader *r);

#endif
