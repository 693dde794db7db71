/* Bitboard helpers: masks, bit tricks, shifts, and the between/line tables
 * (filled by attacks_init). */
#ifndef ROKADE_BITBOARD_H
#define ROKADE_BITBOARD_H

#include "types.h"

#define FILE_A_BB 0x0101010101010101ULL
#define FILE_H_BB (FILE_A_BB << 7)
#define RANK_1_BB 0xFFULL
#define RANK_2_BB (RANK_1_BB << 8)
#define RANK_3_BB (RANK_1_BB << 16)
#define RANK_4_BB (RANK_1_BB << 24)
#define RANK_5_BB (RANK_1_BB << 32)
#define RANK_6_BB (RANK_1_BB << 40)
#define RANK_7_BB (RANK_1_BB << 48)
#define RANK_8_BB (RANK_1_BB << 56)
#define DARK_SQUARES_BB 0xAA55AA55AA55AA55ULL

static inline bitboard_t sq_bb(int sq) { return 1ULL << sq; }
static inline bitboard_t file_bb(int f) { return FILE_A_BB << f; }
static inline bitboard_t rank_bb(int r) { return RANK_1_BB << (8 * r); }
static inline int popcount(bitboard_t b) { return __builtin_popcountll(b); }
static inline int lsb(bitboard_t b) { return __builtin_ctzll(b); }
static inline int msb(bitboard_t b) { return 63 - __builtin_clzll(b); }
static inline int pop_lsb(bitboard_t *b)
{
    int sq = lsb(*b);
    *b &= *b - 1;
    return sq;
}
static inline bool more_than_one(bitboard_t b) { return (b & (b - 1)) != 0; }

static inline bitboard_t shift_east(bitboard_t b) { return (b & ~FILE_H_BB) << 1; }
static inline bitboard_t shift_west(bitboard_t b) { return (b & ~FILE_A_BB) >> 1; }
/* Pawn pushes and captures from colour c's point of view. */
static inline bitboard_t pawn_forward(int c, bitboard_t b) { return c == WHITE ? b << 8 : b >> 8; }
static inline bitboard_t pawn_east_captures(int c, bitboard_t b)
{
    return c == WHITE ? (b & ~FILE_H_BB) << 9 : (b & ~FILE_H_BB) >> 7;
}
static inline bitboard_t pawn_west_captures(int c, bitboard_t b)
{
    return c == WHITE ? (b & ~FILE_A_BB) << 7 : (b & ~FILE_A_BB) >> 9;
}
static inline bitboard_t pawn_attacks_bb(int c, bitboard_t b)
{
    return pawn_east_captures(c, b) | pawn_west_captures(c, b);
}

/* Squares strictly between a and b on a line (0 if not aligned), and the full
 * line through both (0 if not aligned). */
extern bitboard_t BetweenBB[SQ_NB][SQ_NB];
extern bitboard_t LineBB[SQ_NB][SQ_NB];

static inline bitboard_t between_bb(int a, int b) { return BetweenBB[a][b]; }
static inline bitboard_t line_bb(int a, int b) { return LineBB[a][b]; }
static inline bool aligned(int a, int b, int c) { return (LineBB[a][b] & sq_bb(c)) != 0; }

#endif
