/* Evaluation weights: one indexed table, EvalW, defined in eval/weights.c
 * (which rokade-tune rewrites). The enum names the index ranges; eval.c reads
 * every weight through it, and the trace (eval.h) records one coefficient per
 * index, so that the linear part of the evaluation is
 * sum_i EvalW[i] * coefficient[i] (eval/README.md). */
#ifndef ROKADE_WEIGHTS_H
#define ROKADE_WEIGHTS_H

#include "eval.h"

enum {
    /* Piece values, indexed by piece type - PAWN: P N B R Q K. */
    W_MATERIAL = 0,
    /* Piece-square tables: W_PSQT + 64 * (type - PAWN) + square, from White's
     * side (Black's pieces by relative_square). Pawns on ranks 1 and 8 never
     * occur: those entries stay 0 and the tuner keeps them. */
    W_PSQT = W_MATERIAL + 6,
    /* Passed pawns by relative rank - 1 (ranks 2..7). */
    W_PASSED = W_PSQT + 6 * 64,
    /* Mobility by the number of safe attacked squares: + 0..8 (knight),
     * 0..13 (bishop), 0..14 (rook), 0..27 (queen). */
    W_MOB_KNIGHT = W_PASSED + 6,
    W_MOB_BISHOP = W_MOB_KNIGHT + 9,
    W_MOB_ROOK = W_MOB_BISHOP + 14,
    W_MOB_QUEEN = W_MOB_ROOK + 15,
    W_DOUBLED = W_MOB_QUEEN + 28,
    W_ISOLATED,
    W_BISHOP_PAIR,
    W_ROOK_OPEN,
    W_ROOK_HALF_OPEN,
    /* Own pawns on the two ranks in front of the king and its neighbours. */
    W_SHELTER,
    /* Times attackers^2 / 4 (attackers: 2 per minor, 3 per rook, 4 per queen). */
    W_KING_ATTACK,
    /* Times rank * (their king's - our king's distance to the stop square) / 2. */
    W_PASSED_KING_DIST,
    /* For the side to move, added after the taper; only the mg half is used. */
    W_TEMPO,
    N_WEIGHTS
};

extern const score_t EvalW[N_WEIGHTS];

#endif
