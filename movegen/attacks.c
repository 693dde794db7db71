/* Builds the leaper tables, the between/line tables and the slider tables.
 * Magic numbers are found at start-up by a seeded search, so they are the same
 * on every run and nothing has to be kept in sync with a table of constants. */
#include "attacks.h"

#include "util.h"

Magic RookMagics[SQ_NB];
Magic BishopMagics[SQ_NB];
bitboard_t PawnAttacks[COLOR_NB][SQ_NB];
bitboard_t KnightAttacks[SQ_NB];
bitboard_t KingAttacks[SQ_NB];
bitboard_t BetweenBB[SQ_NB][SQ_NB];
bitboard_t LineBB[SQ_NB][SQ_NB];

static bitboard_t RookTable[0x19000];
static bitboard_t BishopTable[0x1480];

static const int RookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int BishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static bitboard_t step_bb(int sq, int df, int dr)
{
    int f = file_of(sq) + df, r = rank_of(sq) + dr;
    return (f >= 0 && f < 8 && r >= 0 && r < 8) ? sq_bb(make_square(f, r)) : 0;
}

bitboard_t attacks_slider_slow(int pt, int sq, bitboard_t occ)
{
    const int(*dirs)[2] = pt == ROOK ? RookDirs : BishopDirs;
    bitboard_t att = 0;
    for (int d = 0; d < 4; d++) {
        int f = file_of(sq), r = rank_of(sq);
        for (;;) {
            f += dirs[d][0];
            r += dirs[d][1];
            if (f < 0 || f > 7 || r < 0 || r > 7)
                break;
            bitboard_t b = sq_bb(make_square(f, r));
            att |= b;
            if (occ & b)
                break;
        }
    }
    return att;
}

static void init_slider(int pt, Magic *magics, bitboard_t *table)
{
    static bitboard_t occs[4096], refs[4096];
#ifndef USE_PEXT
    static int epoch[4096];
    int cur_epoch = 0;
    uint64_t seed = pt == ROOK ? 0x9E3779B97F4A7C15ULL : 0xD1B54A32D192ED03ULL;
#endif
    bitboard_t *next = table;

    for (int sq = 0; sq < SQ_NB; sq++) {
        Magic *m = &magics[sq];
        bitboard_t edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(sq)))
                           | ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(sq)));
        m->mask = attacks_slider_slow(pt, sq, 0) & ~edges;
        int bits = popcount(m->mask);
        m->shift = (unsigned)(64 - bits);
        m->table = next;
        int size = 0;
        bitboard_t b = 0;
        /* Carry-rippler: enumerate every subset of the mask. */
        do {
            occs[size] = b;
            refs[size] = attacks_slider_slow(pt, sq, b);
            size++;
            b = (b - m->mask) & m->mask;
        } while (b);
        next += size;

#ifdef USE_PEXT
        m->magic = 0;
        for (int i = 0; i < size; i++)
            m->table[magic_index(m, occs[i])] = refs[i];
#else
        for (;;) {
            do {
                /* A sparse candidate: the AND of three random numbers. */
                uint64_t r1 = rng_next(&seed), r2 = rng_next(&seed), r3 = rng_next(&seed);
                m->magic = r1 & r2 & r3;
            } while (popcount((m->mask * m->magic) >> 56) < 6);
            cur_epoch++;
            int i;
            for (i = 0; i < size; i++) {
                unsigned idx = magic_index(m, occs[i]);
                if (epoch[idx] < cur_epoch) {
                    epoch[idx] = cur_epoch;
                    m->table[idx] = refs[i];
                } else if (m->table[idx] != refs[i])
                    break;
            }
            if (i == size)
                break;
        }
#endif
    }
}

void attacks_init(void)
{
    static bool done = false;
    if (done)
        return;
    for (int sq = 0; sq < SQ_NB; sq++) {
        static const int kn[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        KnightAttacks[sq] = KingAttacks[sq] = 0;
        for (int i = 0; i < 8; i++)
            KnightAttacks[sq] |= step_bb(sq, kn[i][0], kn[i][1]);
        for (int df = -1; df <= 1; df++)
            for (int dr = -1; dr <= 1; dr++)
                if (df || dr)
                    KingAttacks[sq] |= step_bb(sq, df, dr);
        PawnAttacks[WHITE][sq] = step_bb(sq, -1, 1) | step_bb(sq, 1, 1);
        PawnAttacks[BLACK][sq] = step_bb(sq, -1, -1) | step_bb(sq, 1, -1);
    }
    init_slider(ROOK, RookMagics, RookTable);
    init_slider(BISHOP, BishopMagics, BishopTable);

    for (int a = 0; a < SQ_NB; a++)
        for (int b = 0; b < SQ_NB; b++) {
            BetweenBB[a][b] = LineBB[a][b] = 0;
            if (a == b)
                continue;
            for (int pt = BISHOP; pt <= ROOK; pt++) {
                if (attacks_slider_slow(pt, a, 0) & sq_bb(b)) {
                    LineBB[a][b] = (attacks_slider_slow(pt, a, 0) & attacks_slider_slow(pt, b, 0))
                                   | sq_bb(a) | sq_bb(b);
                    BetweenBB[a][b] = attacks_slider_slow(pt, a, sq_bb(b))
                                      & attacks_slider_slow(pt, b, sq_bb(a));
                }
            }
        }
    done = true;
}
