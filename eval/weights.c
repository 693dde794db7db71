/* Evaluation weights, S(middlegame, endgame), indexed as in eval/weights.h.
 * Hand-set values; `rokade-tune` rewrites this file (eval/README.md). */
#include "weights.h"

const score_t EvalW[N_WEIGHTS] = {
    [W_MATERIAL + 0] = S(90, 120),      /* material.pawn */
    [W_MATERIAL + 1] = S(330, 310),     /* material.knight */
    [W_MATERIAL + 2] = S(345, 330),     /* material.bishop */
    [W_MATERIAL + 3] = S(470, 540),     /* material.rook */
    [W_MATERIAL + 4] = S(980, 990),     /* material.queen */
    [W_MATERIAL + 5] = S(0, 0),         /* material.king */
    [W_CENTER + 0] = S(3, 0),           /* center.pawn */
    [W_CENTER + 1] = S(9, 6),           /* center.knight */
    [W_CENTER + 2] = S(5, 4),           /* center.bishop */
    [W_CENTER + 3] = S(2, 2),           /* center.rook */
    [W_CENTER + 4] = S(2, 6),           /* center.queen */
    [W_CENTER + 5] = S(-12, 14),        /* center.king */
    [W_PAWN_ADVANCE + 0] = S(0, 0),     /* pawn_advance.rank2 */
    [W_PAWN_ADVANCE + 1] = S(2, 4),     /* pawn_advance.rank3 */
    [W_PAWN_ADVANCE + 2] = S(6, 10),    /* pawn_advance.rank4 */
    [W_PAWN_ADVANCE + 3] = S(12, 22),   /* pawn_advance.rank5 */
    [W_PAWN_ADVANCE + 4] = S(24, 45),   /* pawn_advance.rank6 */
    [W_PAWN_ADVANCE + 5] = S(40, 80),   /* pawn_advance.rank7 */
    [W_PASSED + 0] = S(2, 10),          /* passed.rank2 */
    [W_PASSED + 1] = S(4, 14),          /* passed.rank3 */
    [W_PASSED + 2] = S(10, 24),         /* passed.rank4 */
    [W_PASSED + 3] = S(24, 50),         /* passed.rank5 */
    [W_PASSED + 4] = S(45, 90),         /* passed.rank6 */
    [W_PASSED + 5] = S(70, 140),        /* passed.rank7 */
    [W_KNIGHT_MOB] = S(4, 4),           /* knight_mob */
    [W_BISHOP_MOB] = S(5, 5),           /* bishop_mob */
    [W_ROOK_MOB] = S(2, 4),             /* rook_mob */
    [W_QUEEN_MOB] = S(1, 3),            /* queen_mob */
    [W_DOUBLED] = S(-10, -22),          /* doubled */
    [W_ISOLATED] = S(-10, -12),         /* isolated */
    [W_BISHOP_PAIR] = S(28, 50),        /* bishop_pair */
    [W_ROOK_OPEN] = S(30, 10),          /* rook_open */
    [W_ROOK_HALF_OPEN] = S(14, 6),      /* rook_half_open */
    [W_SHELTER] = S(12, -2),            /* shelter */
    [W_KING_ATTACK] = S(8, 0),          /* king_attack */
    [W_PASSED_KING_DIST] = S(0, 5),     /* passed_king_dist */
    [W_TEMPO] = S(12, 0),               /* tempo */
};
