/* Fills the Zobrist tables from a fixed-seed generator (splitmix64). */
#include "zobrist.h"

#include "util.h"

uint64_t ZobPiece[PIECE_NB][SQ_NB];
uint64_t ZobCastling[CASTLING_NB];
uint64_t ZobEp[8];
uint64_t ZobSide;

void zobrist_init(void)
{
    uint64_t s = 0x526F6B6164650001ULL; /* "Rokade" */
    for (int p = 0; p < PIECE_NB; p++)
        for (int sq = 0; sq < SQ_NB; sq++)
            ZobPiece[p][sq] = (p == NO_PIECE) ? 0 : rng_next(&s);
    /* Castling keys are the XOR of one key per right, so a set of rights maps
     * to one key and losing a right is a single XOR of two set keys. */
    uint64_t right[4];
    for (int i = 0; i < 4; i++)
        right[i] = rng_next(&s);
    for (int cr = 0; cr < CASTLING_NB; cr++) {
        ZobCastling[cr] = 0;
        for (int i = 0; i < 4; i++)
            if (cr & (1 << i))
                ZobCastling[cr] ^= right[i];
    }
    for (int f = 0; f < 8; f++)
        ZobEp[f] = rng_next(&s);
    ZobSide = rng_next(&s);
}
