/* The static evaluation, centipawns from the side to move's view: the
 * network's (eval_nnue: eval/nnue/, the default) or the hand-crafted one
 * (eval_position: eval.c), and what the rules and known endings decide for
 * both (eval_known: known.c). */
#ifndef ROKADE_EVAL_H
#define ROKADE_EVAL_H

#include "../movegen/position.h"
#include "nnue/nnue.h"

/* Packed middlegame/endgame score: mg in the low half, eg in the high half. */
typedef int32_t score_t;
#define S(mg, eg) ((score_t)((uint32_t)(eg) << 16) + (mg))
static inline int mg_value(score_t s) { return (int16_t)(uint16_t)(uint32_t)s; }
static inline int eg_value(score_t s) { return (int16_t)(uint16_t)((uint32_t)(s + 0x8000) >> 16); }

/* The pawn structure's score and passed pawns by pawn key: each search
 * thread has one (a zeroed table is empty and valid). */
typedef struct {
    uint64_t key;
    bitboard_t passed;
    score_t score;
} PawnEntry;

enum { PAWN_HASH_SIZE = 1 << 13 };

typedef struct {
    PawnEntry entries[PAWN_HASH_SIZE];
} PawnTable;

/* The evaluation; pawns caches the pawn structure (NULL: computed afresh). */
int eval_position(const Position *pos, PawnTable *pawns);
/* What the rules or known endings decide, in place of a net's evaluation:
 * a dead position is 0 and a won ending against a lone king gets the
 * hand-crafted known-win score, which leads to the mate (self-play shows a
 * net too few such endings to find it). False when neither applies. */
bool eval_known(const Position *pos, int *v);
/* The known-win score of a won ending against a lone king, White's view; 0
 * when there is none on the board (known.c). */
int eval_lone_king(const Position *pos);
/* The mop-up bonus of a pawnless ending a rook's worth or more ahead, White's
 * view; 0 in any other position (known.c). */
int eval_mop_up(const Position *pos);
/* The game phase: a knight or bishop 1, a rook 2, a queen 4, at most 24
 * (the middlegame); 0 is a bare ending. */
static inline int eval_phase(const Position *pos)
{
    const int ph = popcount(pos->by_type[KNIGHT] | pos->by_type[BISHOP])
                   + 2 * popcount(pos->by_type[ROOK]) + 4 * popcount(pos->by_type[QUEEN]);
    return ph > 24 ? 24 : ph;
}
/* The scale out of 64 of material that cannot win for the side `strong`:
 * pawnless endings without a rook's edge, two knights, a bishop of the wrong
 * colour for its rook pawns (known.c); 64 in any other position. */
int eval_material_scale(const Position *pos, int strong);
/* That scale tapered by the game phase, for the net's whole score: in full
 * in a bare ending, less as pieces come back (known.c). */
int eval_net_scale(const Position *pos, int strong);
/* The evaluation with a net: eval_known, else the net's output for the
 * position the stack has reached, scaled where the material cannot win,
 * with the mop-up bonus. */
static inline int eval_nnue(const Position *pos, NnueStack *st)
{
    int v;
    if (eval_known(pos, &v))
        return v;
    int net = nnue_evaluate(st, pos);
    /* Only positions where the side ahead has no knight, rook or queen
     * beside its pawns can scale: the common case is decided here. */
    const int strong = net > 0 ? pos->side : !pos->side;
    if (!pos_pieces(pos, strong, PAWN)
        || !(pos->by_color[strong]
             & (pos->by_type[KNIGHT] | pos->by_type[ROOK] | pos->by_type[QUEEN])))
        net = net * eval_net_scale(pos, strong) / 64;
    if (pos->by_type[PAWN]) /* the common case, decided here without a call */
        return net;
    const int mop = eval_mop_up(pos);
    return net + (pos->side == WHITE ? mop : -mop);
}
/* Material values (middlegame) by piece type: the one piece-value table,
 * also the static exchange's and the move ordering's (search/see.h). */
extern const int PieceValue[PIECE_TYPE_NB];
/* Prints the terms of the evaluation, one line per call of `print`. */
void eval_trace(const Position *pos, void (*print)(const char *line));

#endif
