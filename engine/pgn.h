/* PGN games with search scores to the game format (movegen/records/viriformat.h):
 * the converter for the PGNs that an OpenBench datagen run returns (played
 * by fastchess or cutechess, whose move comments start with the mover's
 * score and depth: `{+0.31/12 0.101s, n=5012, sd=15}`, `{-M7/30 ...}`, or
 * OpenBench's compact `{+0.31/12}`).
 *
 * Each game is written once: its start position (the FEN tag, or the start
 * position; Chess960 when the Variant tag says chess960 or fischerandom, or
 * the FEN needs it) after the leading moves without a score (`{book}`), the
 * result of its termination marker, and per ply the move and the score,
 * turned to White's view (cp: pawns * 100; mate in n plies: +-(32000 - n)).
 * Moves are SAN (long algebraic and UCI text are accepted too).
 *
 * A bad game is reported as "FILE:LINE: game N: reason; skipped" and the
 * next one is read: an illegal, ambiguous or unreadable move, a move without
 * a score after a scored one, a comment that is not a score, a bad FEN or
 * another variant, an unfinished game (`*`), or a game cut off by the next
 * game's tags or the end of the file. */
#ifndef ROKADE_PGN_H
#define ROKADE_PGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    long long games, skipped, positions;
    long long white_wins, draws, black_wins;
} PgnStats;

/* Receives each game's bytes in the game format; false stops the
 * conversion (a write error). */
typedef bool (*PgnEmitFn)(void *ctx, const uint8_t *bytes, size_t size);

/* Converts every game of the PGN file. Bad games go to print (may be NULL).
 * False with a message in err when the file cannot be read or emit fails. */
bool pgn_convert(const char *path, PgnEmitFn emit, void *ctx, void (*print)(const char *line),
                 PgnStats *stats, char *err, size_t errlen);

#endif
