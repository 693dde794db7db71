/* `review`: the games of a PGN file checked move by move, by the engine and
 * by the FIDE Laws, and written back as annotated PGN.
 *
 * Every position of a game is searched (the budget per position: nodes,
 * depth or movetime); a move is judged by what it costs the mover in
 * expected score (win + draw / 2, from the WDL model of eval/wdl.h) between
 * the position before it and the position after it:
 *
 *     loss >= 0.10  $6 (?!) inaccuracy
 *     loss >= 0.20  $2 (?)  mistake
 *     loss >= 0.30  $4 (??) blunder
 *
 * (lichess's numbers, 0.1 / 0.2 / 0.3, there in winning chances of -1..1:
 * the model, fitted to engine games with few draws, is about 2.5 times as
 * steep near equality as lichess's curve for human games, so that its 0.05
 * would mark a half-pawn swing in the opening);
 * a forced mate let go, or one walked into, is judged by the printed score
 * that remains: above 9.99 an inaccuracy, above 7.00 a mistake, else a
 * blunder; unmarked when the outcome is not in question (a mate of more
 * than MATE_SEEN moves let go in a position that stays won, a mate walked
 * into at an expected score of 5% or less).
 *
 * Each move gets [%eval] (pawns, White's view, the normalised scale of the
 * UCI output; #N for a mate) and keeps its [%clk]; a judged move gets the
 * engine's better move and line as a variation. A move's accuracy is
 * lichess's 103.1668 * exp(-4.354 * loss) - 3.1669 (loss as above, 0..1;
 * clamped to 0..100), a player's the mean over their moves.
 *
 * The Laws, with their articles, as comments: an illegal move (the game is
 * reviewed up to it, 7.5), the first moment a draw by threefold repetition
 * or by the fifty-move rule could be claimed and by whom (9.2, 9.3), an
 * automatic end that the game played on through or that the result
 * ignores (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2; mate on the last move
 * stands), a flag fall by [%clk] or the Termination tag and whether the
 * opponent could still mate (6.9), in the time-control class of the
 * TimeControl tag (standard, rapid A.1, blitz B.1; Guideline III for sudden
 * death without increment), and a result that contradicts the final
 * position or the Result tag. */
#ifndef ROKADE_REVIEW_H
#define ROKADE_REVIEW_H

#include <stdio.h>

#include "../eval/nnue/nnue.h"
#include "../search/search.h"

enum { REVIEW_DEFAULT_NODES = 400000 };

typedef struct {
    char in[4096];  /* the PGN file */
    char out[4096]; /* the annotated PGN; "" = the caller's stream */
    SearchLimits limits;
} ReviewOptions;

/* Reads "FILE [nodes N | depth N | movetime MS] [out FILE]"; false with a
 * message in err. */
bool review_parse(const char *args, ReviewOptions *opt, char *err, size_t errlen);

/* Reviews every game of opt->in with s (its threads, table and net), writing
 * the annotated PGN to opt->out (replaced as a whole at the end) or to
 * `stream`. progress(ctx, line) gets a line per position and a summary per
 * game; a bad game is named there (with its line) and skipped. Returns the
 * number of games reviewed, or -1 with a message in err when the input or
 * the output cannot be used at all. */
int review_run(Search *s, const ReviewOptions *opt, FILE *stream,
               void (*progress)(void *ctx, const char *line), void *ctx, char *err, size_t errlen);

#endif
