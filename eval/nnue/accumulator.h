/* The accumulators: one per ply of a line, for both perspectives, brought
 * up to date lazily. Make-move reports the pieces it moved (PieceDelta,
 * movegen/position.h) into the accumulator that nnue_push opens; an
 * accumulator is computed only when an evaluation needs it, from the
 * nearest ply below that is computed, or afresh from the position when a
 * king move between them changed its perspective's features
 * (features.h).
 *
 * Afresh does not mean from nothing: the stack keeps, for each perspective
 * and king index (bucket and mirroring), the last accumulator computed
 * there and the pieces it was computed from, and a refresh adds and takes
 * off only the pieces that differ from those (an accumulator cache, known
 * to engine authors as a "Finny table"). */
#ifndef ROKADE_NNUE_ACCUMULATOR_H
#define ROKADE_NNUE_ACCUMULATOR_H

#include "../../movegen/position.h"
#include "format.h"

typedef struct NnueNet NnueNet;

typedef struct {
    _Alignas(64) int16_t v[COLOR_NB][NNUE_HIDDEN];
    bool computed[COLOR_NB];
    PieceDelta delta; /* the move that led here (none after a null move) */
} NnueAccumulator;

enum { NNUE_STACK_SIZE = MAX_PLY + 16 };

/* The last accumulator of one perspective and king index, and the pieces
 * (bitboards by colour and piece type) it is the sum of. */
typedef struct {
    _Alignas(64) int16_t v[NNUE_HIDDEN];
    bitboard_t pieces[COLOR_NB][PIECE_TYPE_NB];
} NnueCacheEntry;

enum { NNUE_KING_INDICES = 2 * NNUE_KING_BUCKETS }; /* nnue_king_index's range */

typedef struct {
    const NnueNet *net;
    int top;
    NnueAccumulator acc[NNUE_STACK_SIZE];
    NnueCacheEntry cache[COLOR_NB][NNUE_KING_INDICES];
} NnueStack;

/* Starts a stack at pos (the cache emptied, both accumulators computed
 * from scratch). */
void nnue_reset(NnueStack *st, const NnueNet *net, const Position *pos);
/* Opens the accumulator of the next ply; make-move fills the delta it
 * returns (pos_make_move_delta). */
static inline PieceDelta *nnue_push(NnueStack *st)
{
    NnueAccumulator *a = &st->acc[++st->top];
    a->computed[WHITE] = a->computed[BLACK] = false;
    return &a->delta;
}
/* Before a null move. */
static inline void nnue_push_null(NnueStack *st)
{
    PieceDelta *d = nnue_push(st);
    d->n_off = d->n_on = 0;
}
/* After the unmake of the move (or null move) pushed last. */
static inline void nnue_pop(NnueStack *st) { st->top--; }
/* The top accumulators, computed (pos: the position the stack has
 * reached). */
const NnueAccumulator *nnue_accumulate(NnueStack *st, const Position *pos);
/* Perspective persp's accumulator of pos, computed from scratch. */
void nnue_refresh(const NnueNet *net, const Position *pos, int persp, int16_t *acc);
/* Whether the top accumulators equal ones computed from scratch (tests). */
bool nnue_check(NnueStack *st, const Position *pos);

#endif
