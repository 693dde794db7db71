/* Evaluation weights (hand-set; a tuner rewrites this file). */
#ifndef ROKADE_WEIGHTS_H
#define ROKADE_WEIGHTS_H

#include "eval.h"

static const score_t MaterialW[PIECE_TYPE_NB] = {
    0, S(90, 120), S(330, 310), S(345, 330), S(470, 540), S(980, 990), 0,
};
/* Piece-square shapes: centralisation and advancement, scaled per piece. */
static const score_t CenterW[PIECE_TYPE_NB] = {
    0, S(3, 0), S(9, 6), S(5, 4), S(2, 2), S(2, 6), S(-12, 14),
};
static const score_t PawnAdvanceW[8] = {
    0, S(0, 0), S(2, 4), S(6, 10), S(12, 22), S(24, 45), S(40, 80), 0,
};
static const score_t PassedW[8] = {
    0, S(2, 10), S(4, 14), S(10, 24), S(24, 50), S(45, 90), S(70, 140), 0,
};
static const score_t KnightMobW = S(4, 4);
static const score_t BishopMobW = S(5, 5);
static const score_t RookMobW = S(2, 4);
static const score_t QueenMobW = S(1, 3);
static const score_t DoubledW = S(-10, -22);
static const score_t IsolatedW = S(-10, -12);
static const score_t BishopPairW = S(28, 50);
static const score_t RookOpenW = S(30, 10);
static const score_t RookHalfOpenW = S(14, 6);
static const score_t ShelterW = S(12, -2);
static const score_t KingAttackW = S(8, 0);
static const score_t PassedKingDistW = S(0, 5);
static const int TempoW = 12;

#endif
