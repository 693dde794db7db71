/* Syzygy table index and decompression (tbformat.h): from a position to
 * the index of its value in a table, and from an index to the value.
 *
 * A position is encoded as in the generator (syzygy1/tb): the pieces are
 * taken in the table's order and fall into groups (the leading group: the
 * first pawns, or the first two or three pieces; then runs of like pieces).
 * Without pawns the board is mirrored so that the first piece stands in the
 * a1-d1-d4 triangle, and below the diagonal the first piece off it; the
 * leading group gets a dense index (462 king pairs, or 31332 placements of
 * three unlike pieces), each other group the rank of its squares among the
 * combinations of the squares left. With pawns, the leading pawn (nearest
 * the edge, then the lowest) chooses one of four files a..d, each its own
 * table. The index is the sum of each group's rank times the product of the
 * sizes of the groups encoded after it, in the table's group order.
 *
 * The values are stored as canonical Huffman codes of "recursive pairing"
 * symbols in blocks; a sparse index gives the block and offset of every
 * span-th value. */
#include "tbformat.h"

/* ---- index tables ---- */

static uint64_t Binom[TB_PIECES_MAX + 1][64]; /* Binom[k][n] = n choose k */
static int8_t TriMap[SQ_NB];   /* a1-d1-d4 triangle: b1..d3 below the diagonal 0..5, a1..d4 6..9 */
static int8_t LowerMap[SQ_NB]; /* squares below the a1-h8 diagonal: 0..27 */
static int16_t KingMap[10][SQ_NB]; /* two kings, the first in the triangle: 0..461 */
static int8_t PawnMap[SQ_NB];      /* a2..h7: the leading pawn has the highest */
static uint32_t LeadIdx[6][SQ_NB]; /* first index of a leading pawn on sq, by pawn count */
static uint32_t LeadSize[6][4];    /* indices of n leading pawns on a file */

static inline int diag_offset(int sq) { return rank_of(sq) - file_of(sq); }
static inline int transpose(int sq) { return ((sq >> 3) | (sq << 3)) & 63; }
static inline bool kings_touch(int a, int b)
{
    int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
    return df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
}

void tbindex_init(void)
{
    for (int n = 0; n < 64; n++) {
        Binom[0][n] = 1;
        for (int k = 1; k <= TB_PIECES_MAX; k++)
            Binom[k][n] = n == 0 ? 0 : Binom[k - 1][n - 1] + Binom[k][n - 1];
    }
    int code = 0;
    for (int sq = 0; sq < SQ_NB; sq++) {
        TriMap[sq] = -1;
        LowerMap[sq] = diag_offset(sq) < 0 ? (int8_t)code++ : -1;
    }
    code = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int sq = SQ_A1; sq <= SQ_D4; sq++)
            if (file_of(sq) <= 3 && (pass == 0 ? diag_offset(sq) < 0 : diag_offset(sq) == 0))
                TriMap[sq] = (int8_t)code++;
    /* The second king of a first on the diagonal never stands above it; the
     * pairs with both on the diagonal come last. */
    code = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int t = 0; t < 10; t++)
            for (int k1 = 0; k1 < SQ_NB; k1++) {
                if (TriMap[k1] != t)
                    continue;
                for (int k2 = 0; k2 < SQ_NB; k2++) {
                    if (pass == 0)
                        KingMap[t][k2] = -1;
                    if (k1 == k2 || kings_touch(k1, k2))
                        continue;
                    bool on1 = diag_offset(k1) == 0, on2 = diag_offset(k2) == 0;
                    if (on1 && diag_offset(k2) > 0)
                        continue;
                    if ((on1 && on2) == (pass == 1))
                        KingMap[t][k2] = (int16_t)code++;
                }
            }
    /* Pawn squares by distance from the edge: a2 47, h2 46, a3 45, ... */
    int avail = 47;
    for (int f = 0; f < 4; f++)
        for (int r = 1; r <= 6; r++) {
            PawnMap[make_square(f, r)] = (int8_t)avail--;
            PawnMap[make_square(7 - f, r)] = (int8_t)avail--;
        }
    for (int n = 1; n <= 5; n++)
        for (int f = 0; f < 4; f++) {
            uint32_t idx = 0;
            for (int r = 1; r <= 6; r++) {
                int sq = make_square(f, r);
                LeadIdx[n][sq] = idx;
                idx += (uint32_t)Binom[n - 1][PawnMap[sq]];
            }
            LeadSize[n][f] = idx;
        }
}

const char *tbindex_set_groups(const TbEntry *e, TbPairs *d, int order0, int order1, int file)
{
    int first = e->has_pawns ? 0 : e->unique ? 3 : 2;
    int n = 0;
    d->group_len[0] = 1;
    for (int i = 1; i < e->pieces; i++) {
        if (--first > 0 || d->pieces[i] == d->pieces[i - 1])
            d->group_len[n]++;
        else
            d->group_len[++n] = 1;
    }
    d->groups = ++n;
    if (e->has_pawns && (piece_type(d->pieces[0]) != PAWN || d->group_len[0] > 5))
        return "bad piece order";
    if (e->both_pawns && (n < 2 || piece_type(d->pieces[d->group_len[0]]) != PAWN))
        return "bad piece order";
    int next = e->both_pawns ? 2 : 1;
    int free_sq = 64 - d->group_len[0] - (e->both_pawns ? d->group_len[1] : 0);
    bool lead_done = false, pawns_done = !e->both_pawns;
    uint64_t size = 1;
    for (int k = 0; k < 16 && (next < n || !lead_done || !pawns_done); k++) {
        if (k == order0) {
            d->factor[0] = size;
            size *= e->has_pawns ? LeadSize[d->group_len[0]][file] : e->unique ? 31332 : 462;
            lead_done = true;
        } else if (e->both_pawns && k == order1) {
            d->factor[1] = size;
            size *= Binom[d->group_len[1]][48 - d->group_len[0]];
            pawns_done = true;
        } else if (next < n) {
            d->factor[next] = size;
            size *= Binom[d->group_len[next]][free_sq];
            free_sq -= d->group_len[next++];
        }
    }
    if (!lead_done || !pawns_done || next != n)
        return "bad group order";
    d->factor[n] = size;
    return NULL;
}

/* ---- decompression ---- */

static inline uint32_t load_be32(const TbFile *f, size_t at, size_t end)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | (at + (size_t)i < end ? f->base[at + (size_t)i] : 0);
    return v;
}

int tbindex_value(const TbFile *f, const TbPairs *d, uint64_t idx)
{
    if (d->flags & PF_SINGLE)
        return d->single;
    if (idx >= d->factor[d->groups])
        return -2;
    /* Sparse entry k gives the block and offset of index k * span + span / 2. */
    uint64_t k = idx / d->span;
    const uint8_t *se = f->base + d->sparse + 6 * k;
    uint32_t block = se[0] | (uint32_t)se[1] << 8 | (uint32_t)se[2] << 16 | (uint32_t)se[3] << 24;
    int64_t offset = (int64_t)u16_at(se + 4) + (int64_t)(idx % d->span) - (int64_t)(d->span / 2);
    const uint8_t *lens = f->base + d->block_len;
    while (offset < 0) {
        if (block == 0)
            return -1;
        offset += (int64_t)u16_at(lens + 2 * (size_t)--block) + 1;
    }
    for (;;) {
        if (block >= d->blocks)
            return -1;
        int64_t len = u16_at(lens + 2 * (size_t)block);
        if (offset <= len)
            break;
        offset -= len + 1;
        block++;
    }
    size_t at = d->data + (size_t)block * d->block_bytes, end = at + d->block_bytes;
    uint64_t buf = (uint64_t)load_be32(f, at, end) << 32 | load_be32(f, at + 4, end);
    at += 8;
    int bits = 64;
    const uint8_t *low = f->base + d->lowest_sym;
    const int lengths = d->max_len - d->min_len + 1;
    int sym;
    for (;;) {
        int len = 0;
        while (buf < d->base[len])
            if (++len >= lengths)
                return -1;
        sym = (int)((buf - d->base[len]) >> (64 - len - d->min_len))
              + (int)u16_at(low + 2 * (size_t)len);
        if (sym >= d->sym_count)
            return -1;
        if (offset < d->sym_values[sym])
            break;
        offset -= d->sym_values[sym];
        len += d->min_len;
        buf <<= len;
        bits -= len;
        if (bits <= 32) {
            bits += 32;
            buf |= (uint64_t)load_be32(f, at, end) << (64 - bits);
            at += 4;
            if (at > end + 8)
                return -1;
        }
    }
    /* Down the pair tree to the value at offset. */
    const uint8_t *tree = f->base + d->tree;
    for (;;) {
        const uint8_t *t = tree + 3 * (size_t)sym;
        int left = t[0] | (t[1] & 15) << 8;
        if (d->sym_values[sym] == 1)
            return left;
        if (offset < d->sym_values[left])
            sym = left;
        else {
            offset -= d->sym_values[left];
            sym = t[1] >> 4 | t[2] << 4;
        }
    }
}

/* ---- from a position to an index ---- */

static inline void sort_squares(int *sq, int n, bool by_pawn_map)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int a = by_pawn_map ? PawnMap[sq[j - 1]] : sq[j - 1];
            int b = by_pawn_map ? PawnMap[sq[j]] : sq[j];
            if (a <= b)
                break;
            int t = sq[j];
            sq[j] = sq[j - 1];
            sq[j - 1] = t;
        }
}

/* Index of the first three pieces (all different) of a table without pawns,
 * the first in the a1-d1-d4 triangle, the first off the diagonal below it. */
static uint64_t three_pieces_index(const int *sq)
{
    /* Where the index ranges of the four cases start: the first piece off
     * the diagonal (6 squares, then 63 and 62), the first on it and the
     * second off (4, 28, 62), the first two on it (4, 7, 28), all three. */
    const uint64_t on1 = 6ULL * 63 * 62, on2 = on1 + 4ULL * 28 * 62, on3 = on2 + 4ULL * 7 * 28;
    const uint64_t r0 = (uint64_t)rank_of(sq[0]);
    const uint64_t adj1 = sq[1] > sq[0], adj2 = (uint64_t)(sq[2] > sq[0]) + (sq[2] > sq[1]);
    const uint64_t s1 = (uint64_t)sq[1] - adj1, s2 = (uint64_t)sq[2] - adj2;
    if (diag_offset(sq[0]))
        return ((uint64_t)TriMap[sq[0]] * 63 + s1) * 62 + s2;
    if (diag_offset(sq[1]))
        return on1 + (r0 * 28 + (uint64_t)LowerMap[sq[1]]) * 62 + s2;
    const uint64_t r1 = (uint64_t)rank_of(sq[1]) - adj1;
    if (diag_offset(sq[2]))
        return on2 + (r0 * 7 + r1) * 28 + (uint64_t)LowerMap[sq[2]];
    return on3 + (r0 * 7 + r1) * 6 + (uint64_t)rank_of(sq[2]) - adj2;
}

TbFileStatus tbindex_locate(const Position *pos, const TbEntry *e, const TbFile *f, TbKind kind,
                            bool flip, const TbPairs **part, uint64_t *index)
{
    int stm = flip ^ pos->side, sq_flip = flip ? 56 : 0, pc_flip = flip ? 8 : 0;
    int sq[TB_PIECES_MAX] = {0}, pc[TB_PIECES_MAX] = {0}, n = 0, file = 0;
    bitboard_t rest = pos_occupied(pos);
    if (e->has_pawns) {
        int lead = f->pairs[0][0].pieces[0] ^ pc_flip;
        bitboard_t b = pos_pieces(pos, piece_color(lead), PAWN);
        rest ^= b;
        while (b)
            sq[n++] = pop_lsb(&b) ^ sq_flip;
        for (int i = 1; i < n; i++)
            if (PawnMap[sq[i]] > PawnMap[sq[0]]) {
                int t = sq[0];
                sq[0] = sq[i];
                sq[i] = t;
            }
        file = file_of(sq[0]) > 3 ? 7 - file_of(sq[0]) : file_of(sq[0]);
    }
    const int lead_count = n;
    if (kind == TB_WDL && stm >= f->sides)
        return TBF_MISSING;
    const TbPairs *d = &f->pairs[kind == TB_WDL ? stm : 0][file];
    *part = d;
    if (kind == TB_DTZ && (d->flags & PF_STM) != stm && (e->key != e->key2 || e->has_pawns))
        return TBF_OTHER_SIDE;
    while (rest) {
        int s = pop_lsb(&rest);
        sq[n] = s ^ sq_flip;
        pc[n++] = pos->board[s] ^ pc_flip;
    }
    /* The pieces in the table's order. */
    for (int i = lead_count; i < n; i++) {
        if (pc[i] == d->pieces[i])
            continue;
        for (int j = i + 1; j < n; j++)
            if (pc[j] == d->pieces[i]) {
                int t = pc[i];
                pc[i] = pc[j];
                pc[j] = t;
                t = sq[i];
                sq[i] = sq[j];
                sq[j] = t;
                break;
            }
    }
    if (file_of(sq[0]) > 3)
        for (int i = 0; i < n; i++)
            sq[i] ^= 7;
    uint64_t idx;
    if (e->has_pawns) {
        idx = LeadIdx[lead_count][sq[0]];
        sort_squares(sq + 1, lead_count - 1, true);
        for (int i = 1; i < lead_count; i++)
            idx += Binom[i][PawnMap[sq[i]]];
    } else {
        if (rank_of(sq[0]) > 3)
            for (int i = 0; i < n; i++)
                sq[i] ^= 56;
        for (int i = 0; i < d->group_len[0]; i++) {
            if (!diag_offset(sq[i]))
                continue;
            if (diag_offset(sq[i]) > 0)
                for (int j = i; j < n; j++)
                    sq[j] = transpose(sq[j]);
            break;
        }
        if (!e->unique && KingMap[TriMap[sq[0]]][sq[1]] < 0)
            return TBF_MISSING; /* kings side by side: not a position */
        idx = e->unique ? three_pieces_index(sq) : (uint64_t)KingMap[TriMap[sq[0]]][sq[1]];
    }
    idx *= d->factor[0];
    /* The other groups: each a combination of the squares left free. */
    int start = d->group_len[0];
    bool pawn_group = e->both_pawns;
    for (int g = 1; g < d->groups; g++) {
        int len = d->group_len[g];
        sort_squares(sq + start, len, false);
        uint64_t comb = 0;
        for (int i = 0; i < len; i++) {
            int s = sq[start + i], below = 0;
            for (int j = 0; j < start; j++)
                below += sq[j] < s;
            comb += Binom[i + 1][s - below - (pawn_group ? 8 : 0)];
        }
        pawn_group = false;
        idx += comb * d->factor[g];
        start += len;
    }
    *index = idx;
    return TBF_OK;
}
