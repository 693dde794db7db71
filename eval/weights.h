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
    /* Pawns that no own pawn can support whose stop square an enemy pawn
     * attacks (isolated pawns excluded). */
    W_BACKWARD,
    /* Pawns defended by an own pawn; pawns with an own pawn beside them; by
     * relative rank - 1 (ranks 2..7). */
    W_SUPPORTED,
    W_PHALANX = W_SUPPORTED + 6,
    /* Passed pawns whose stop square is occupied; passed pawns whose path to
     * promotion is empty and not attacked; by relative rank - 1. */
    W_PASSED_BLOCKED = W_PHALANX + 6,
    W_PASSED_FREE = W_PASSED_BLOCKED + 6,
    /* Threats, per attacked enemy piece: by pawns + (victim - KNIGHT)
     * (N B R Q); by minors + 0 (rook), + 1 (queen); by rooks on queens;
     * hanging: pieces (not pawns or king) attacked and not defended. */
    W_THREAT_BY_PAWN = W_PASSED_FREE + 6,
    W_THREAT_BY_MINOR = W_THREAT_BY_PAWN + 4,
    W_THREAT_BY_ROOK = W_THREAT_BY_MINOR + 2,
    W_HANGING,
    /* Knights, bishops on a square of ranks 5..7 no enemy pawn can attack
     * and an own pawn defends. */
    W_OUTPOST_KNIGHT,
    W_OUTPOST_BISHOP,
    /* Rooks on the 7th rank with the enemy king on the 8th or enemy pawns on the 7th. */
    W_ROOK_SEVENTH,
    /* King safety, all per side against the enemy king: squares of its zone
     * attacked, summed over the pieces, + (type - KNIGHT); safe checking
     * squares (not attacked by the enemy) + (type - KNIGHT); zone squares
     * we attack that are undefended or defended only once, by king or queen. */
    W_KING_ZONE_ATT,
    W_SAFE_CHECK = W_KING_ZONE_ATT + 4,
    W_KING_ZONE_WEAK = W_SAFE_CHECK + 4,
    /* Own pawns on the enemy king's file and its neighbours, d = 1..4 ranks in
     * front of it: + d - 1. */
    W_STORM,
    /* Per file of the own king and its neighbours: the nearest own pawn in
     * front of the king d = 1..6 ranks ahead (+ d - 1) or none (+ 6), + 7 on
     * the king's own file. */
    W_SHELTER_FILE = W_STORM + 4,
    /* Safe central squares (files c-f, relative ranks 2-4; those behind own
     * pawns count twice) times own pieces (not pawns or king) / 4. */
    W_SPACE = W_SHELTER_FILE + 14,
    /* Candidate passers: pawns on a file with no pawn in front of them, not
     * passed, with at least as many own pawns beside or behind them on the
     * neighbour files as enemy pawns in front on those files; by relative
     * rank - 1 (ranks 2..6). */
    W_CANDIDATE,
    /* For the side to move, added after the taper; only the mg half is used. */
    W_TEMPO = W_CANDIDATE + 5,
    N_WEIGHTS
};

extern const score_t EvalW[N_WEIGHTS];

#endif
