/* The network's evaluation (NNUE): loading a net (eval/nnue_format.h) and the
 * accumulators, one per ply, updated incrementally and lazily.
 *
 * The search pushes each move before making it (nnue_push, which notes the
 * pieces that move) and pops it after unmaking it; an accumulator is brought
 * up to date only when an evaluation needs it, from the nearest ply below
 * that is up to date. */
#ifndef ROKADE_NNUE_H
#define ROKADE_NNUE_H

#include <stddef.h>

#include "../movegen/position.h"
#include "nnue_format.h"

typedef struct NnueNet NnueNet;

/* A net from the bytes of a file; NULL with a message in err when they are
 * not a valid net (size, header, checksum, weight ranges). */
NnueNet *nnue_net_load(const uint8_t *data, size_t size, char *err, size_t errlen);
/* A net from a file; NULL with a message naming the file when it cannot be
 * read or is not a valid net. */
NnueNet *nnue_net_load_file(const char *path, char *err, size_t errlen);
void nnue_net_free(NnueNet *net);
/* Centipawns per logit unit (the file's scale). */
int nnue_net_scale(const NnueNet *net);

/* The net built into the program (eval/default.nnue); NULL when the build
 * has none. */
const uint8_t *nnue_embedded(size_t *size);

typedef struct {
    _Alignas(64) int16_t v[COLOR_NB][NNUE_HIDDEN];
    bool computed[COLOR_NB];
    /* The move that led here, as pieces taken off and put on squares. */
    uint8_t n_sub, n_add;
    uint8_t sub[2][2], add[2][2]; /* {piece, square} */
} NnueAccumulator;

enum { NNUE_STACK_SIZE = MAX_PLY + 16 };

typedef struct {
    const NnueNet *net;
    int top;
    NnueAccumulator acc[NNUE_STACK_SIZE];
} NnueStack;

/* Starts a stack at pos (both accumulators computed from scratch). */
void nnue_reset(NnueStack *st, const NnueNet *net, const Position *pos);
/* Before pos_make_move(pos, m): notes the pieces m moves. */
void nnue_push(NnueStack *st, const Position *pos, move_t m);
/* Before a null move. */
void nnue_push_null(NnueStack *st);
/* After the unmake of the move (or null move) pushed last. */
static inline void nnue_pop(NnueStack *st) { st->top--; }
/* The net's evaluation of pos (the position the stack has reached),
 * centipawns from the side to move's view. */
int nnue_evaluate(NnueStack *st, const Position *pos);
/* The same, computed from scratch (for `eval` and tests). */
int nnue_evaluate_scratch(const NnueNet *net, const Position *pos);
/* Whether the top accumulators equal ones computed from scratch (tests). */
bool nnue_check(NnueStack *st, const Position *pos);

#endif
