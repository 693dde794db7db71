/* Fills the Zobrist tables from a fixed-seed generator (splitmix64). */
#include "zobrist.h"

uint64_t ZobPiece[PIECE_NB][SQ_NB];
uint64_t ZobCastling[CASTLING_NB];
uint64_t ZobEp[8];
uint64_t ZobSide;

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void zobrist_init(void)
{
    uint64_t s = 0x526F6B6164650001ULL; /* "Rokade" */
    for (int p = 0; p < PIECE_NB; p++)
        for (int sq = 0; sq < SQ_NB; sq++)
            ZobPiece[p][sq] = (p == NO_PIECE) ? 0 : splitmix64(&s);
    /* Castling keys are the XOR of one key per right, so a set of rights maps
     * to one key and losing a right is a single XOR of two set keys. */
    uint64_t right[4];
    for (int i = 0; i < 4; i++)
        right[i] = splitmix64(&s);
    for (int cr = 0; cr < CASTLING_NB; cr++) {
        ZobCastling[cr] = 0;
        for (int i = 0; i < 4; i++)
            if (cr & (1 << i))
                ZobCastling[cr] ^= right[i];
    }
    for (int f = 0; f < 8; f++)
        ZobEp[f] = splitmix64(&s);
    ZobSide = splitmix64(&s);
}
