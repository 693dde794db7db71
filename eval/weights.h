/* Evaluation weights: one indexed table, EvalW, defined in eval/weights.c
 * (which rokade-tune rewrites). The enum names the index ranges; eval.c reads
 * every weight through it, and the trace (eval.h) records one coefficient per
 * index, so that the linear part of the evaluation is
 * sum_i EvalW[i] * coefficient[i] (eval/README.md). */
#ifndef ROKADE_WEIGHTS_H
#define ROKADE_WEIGHTS_H

#include "eval.h"

/* The king danger (W_KING_DANGER): its number of features, the cap on the
 * danger and the divisor of its square. */
enum { KD_NB = 14, KD_CAP = 1000, KD_DIV = 512 };
/* The king danger's features, in the order of its weights: + 0..3 for the
 * attackers and the safe checks by piece type (knight to queen). */
enum {
    KD_BIAS,
    KD_ATTACKERS,
    KD_ZONE = KD_ATTACKERS + 4,
    KD_CHECKS,
    KD_WEAK = KD_CHECKS + 4,
    KD_NO_QUEEN,
    KD_OPEN_FILES,
    KD_FLANK
};
/* The complexity (W_COMPLEXITY): its features, in the order of its
 * weights, and their number. */
enum { CX_BIAS, CX_PAWNS, CX_PASSED, CX_BOTH_WINGS, CX_PAWNS_ONLY, CX_OUTFLANKING, CX_NB };

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
    /* King danger, per side against the enemy king, non-linear: the mg halves
     * times the features sum to a danger D, which scores
     * min(D, KD_CAP)^2 / KD_DIV in the middlegame when D > 0; the eg halves
     * times the features are a linear endgame term. Features: + 0 a bias (1);
     * + 1..4 our knights, bishops, rooks, queens attacking the zone; + 5 zone
     * squares attacked, summed over those pieces; + 6..9 safe checks by
     * knight, bishop, rook, queen; + 10 weak zone squares (as
     * W_KING_ZONE_WEAK); + 11 we have no queen (1); + 12 files at the king
     * (its own and the neighbours) with no pawn of the king's side; + 13 the
     * flank attacks (as W_FLANK_ATTACK). */
    /* Bishops: own pawns on squares of the bishop's colour. */
    W_BISHOP_PAWNS = W_CANDIDATE + 5,
    /* Knights and bishops with a pawn (either side's) right in front of them. */
    W_MINOR_BEHIND_PAWN,
    /* Knights (+ 0), bishops (+ 1): their distance to the own king. */
    W_KING_PROTECTOR,
    /* Enemy pieces (not pawns) that an own pawn would attack after a safe
     * push (one or two squares, to a square not attacked by enemy pawns and
     * not attacked by the enemy or defended by us). */
    W_THREAT_PUSH = W_KING_PROTECTOR + 2,
    /* Weak enemy pawns, knights, bishops (+ 0, 1, 2) attacked by our minors;
     * by our rooks; weak enemy pieces or pawns attacked by our king. Weak:
     * attacked by us, not defended by an enemy pawn, and not defended twice
     * unless we attack it twice. */
    W_THREAT_MINOR_WEAK,
    W_THREAT_ROOK_WEAK = W_THREAT_MINOR_WEAK + 3,
    W_THREAT_BY_KING = W_THREAT_ROOK_WEAK + 3,
    /* Squares the enemy attacks and we attack too, unless the enemy holds
     * them strongly (a pawn, or more attackers than ours): their pieces' play
     * is restricted there. */
    W_RESTRICTED,
    /* With one enemy queen: safe squares from which a knight of ours could
     * attack it next move; safe squares, attacked twice by us, from which a
     * bishop or rook of ours could (safe: not holding our pawns or king and
     * not held strongly by the enemy). */
    W_KNIGHT_ON_QUEEN,
    W_SLIDER_ON_QUEEN,
    /* Weak enemies (as W_THREAT_MINOR_WEAK) that their queen defends: a
     * defender tied to them. */
    W_WEAK_QUEEN_PROT,
    /* Rooks on a file with a queen (either side's). */
    W_ROOK_QUEEN_FILE,
    /* Bishops that see two of the four centre squares through the pawns. */
    W_LONG_DIAGONAL,
    /* Rooks with at most 3 safe squares, on the king's side of the board
     * away from the centre (shut in by their own king): 1, or 2 when the
     * side can no longer castle. */
    W_TRAPPED_ROOK,
    /* Queens on the enemy half on a square no enemy pawn can ever attack. */
    W_QUEEN_INFILTRATION,
    /* The own king on a flank (its file's three or four files) with no pawns. */
    W_PAWNLESS_FLANK,
    /* Squares of the enemy king's flank on its side of the board (its ranks
     * 1..5) that we attack, plus those we attack twice (also a king-danger
     * feature). */
    W_FLANK_ATTACK,
    W_KING_DANGER,
    /* Complexity, of the whole position, non-linear: the eg halves
     * times the features sum to C, and the endgame half of the evaluation
     * moves by C away from 0 (C > 0) or toward it, never past it:
     * eg += sign(eg) * max(C, -|eg|), before the scale. Features: + 0 a bias
     * (1); + 1 pawns on the board; + 2 passed pawns; + 3 pawns on both wings
     * (1); + 4 no pieces but kings and pawns (1); + 5 the kings'
     * outflanking: file distance minus rank distance. The mg halves times
     * the features sum to M, which when negative moves the middlegame half
     * toward 0, never past it: mg += sign(mg) * clamp(M, -|mg|, 0). */
    W_COMPLEXITY = W_KING_DANGER + KD_NB,
    /* For the side to move, added after the taper; only the mg half is used. */
    W_TEMPO = W_COMPLEXITY + CX_NB,
    N_WEIGHTS
};

extern const score_t EvalW[N_WEIGHTS];

/* The king danger's score for the attacker, S(mg, eg), from its features
 * f[KD_NB] and the weights w[W_KING_DANGER ..]: shared by the evaluation and
 * its rebuilding from a trace, so the two round alike. */
static inline score_t king_danger(const int *f, const score_t *w)
{
    int d = 0, e = 0;
    for (int k = 0; k < KD_NB; k++) {
        d += mg_value(w[W_KING_DANGER + k]) * f[k];
        e += eg_value(w[W_KING_DANGER + k]) * f[k];
    }
    d = d < 0 ? 0 : d > KD_CAP ? KD_CAP : d;
    return S(d * d / KD_DIV, e);
}

/* The halves *mg, *eg moved by the complexity of features f[CX_NB] under
 * the weights w: shared by the evaluation and its rebuilding from a trace.
 * The eg halves of w sum to C: eg moves by C away from 0 (C > 0) or toward
 * it, never past it. The mg halves sum to M: when M < 0, mg moves by -M
 * toward 0, never past it; a positive M does nothing. */
static inline void complexity(int *mg, int *eg, const int *f, const score_t *w)
{
    int m = 0, c = 0;
    for (int k = 0; k < CX_NB; k++) {
        m += mg_value(w[W_COMPLEXITY + k]) * f[k];
        c += eg_value(w[W_COMPLEXITY + k]) * f[k];
    }
    const int a = *eg < 0 ? -*eg : *eg;
    if (c < -a)
        c = -a;
    *eg = *eg > 0 ? *eg + c : *eg < 0 ? *eg - c : 0;
    const int b = *mg < 0 ? -*mg : *mg;
    m = m > 0 ? 0 : m < -b ? -b : m;
    *mg = *mg > 0 ? *mg + m : *mg - m;
}

#endif
