/* Attack tables: leaper attacks (pawn, knight, king) and slider attacks by
 * magic bitboards, or by PEXT on BMI2 builds (USE_PEXT). Call attacks_init()
 * once before anything else. */
#ifndef ROKADE_ATTACKS_H
#define ROKADE_ATTACKS_H

#include "bitboard.h"

/* PEXT when the compiler targets BMI2, but not for Zen 1 and Zen 2
 * (-march=znver1/znver2, which -march=native gives on those CPUs): they run
 * PEXT in microcode, slower than magics. -DNO_PEXT forces magics. */
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__) && !defined(NO_PEXT)
#define USE_PEXT 1
#include <immintrin.h>
#endif

typedef struct {
    bitboard_t mask;
    bitboard_t magic;
    bitboard_t *table;
    unsigned shift;
} Magic;

extern Magic RookMagics[SQ_NB];
extern Magic BishopMagics[SQ_NB];
extern bitboard_t PawnAttacks[COLOR_NB][SQ_NB];
extern bitboard_t KnightAttacks[SQ_NB];
extern bitboard_t KingAttacks[SQ_NB];

void attacks_init(void);

static inline unsigned magic_index(const Magic *m, bitboard_t occ)
{
#ifdef USE_PEXT
    return (unsigned)_pext_u64(occ, m->mask);
#else
    return (unsigned)(((occ & m->mask) * m->magic) >> m->shift);
#endif
}

static inline bitboard_t bishop_attacks(int sq, bitboard_t occ)
{
    const Magic *m = &BishopMagics[sq];
    return m->table[magic_index(m, occ)];
}
static inline bitboard_t rook_attacks(int sq, bitboard_t occ)
{
    const Magic *m = &RookMagics[sq];
    return m->table[magic_index(m, occ)];
}
static inline bitboard_t queen_attacks(int sq, bitboard_t occ)
{
    return bishop_attacks(sq, occ) | rook_attacks(sq, occ);
}
static inline bitboard_t pawn_attacks(int c, int sq) { return PawnAttacks[c][sq]; }
static inline bitboard_t knight_attacks(int sq) { return KnightAttacks[sq]; }
static inline bitboard_t king_attacks(int sq) { return KingAttacks[sq]; }

/* Attacks of a non-pawn piece type from sq with the given occupancy. */
static inline bitboard_t piece_attacks(int pt, int sq, bitboard_t occ)
{
    switch (pt) {
    case KNIGHT: return knight_attacks(sq);
    case BISHOP: return bishop_attacks(sq, occ);
    case ROOK: return rook_attacks(sq, occ);
    case QUEEN: return queen_attacks(sq, occ);
    case KING: return king_attacks(sq);
    default: return 0;
    }
}

/* Slow ray-walking reference, used to build the tables and by the tests. */
bitboard_t attacks_slider_slow(int pt, int sq, bitboard_t occ);

#endif
