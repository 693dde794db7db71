/* The accumulators: see accumulator.h. */
#include "accumulator.h"

#include <string.h>

#include "../../movegen/bitboard.h"
#include "net.h"
#include "simd.h"

/* The kernels, over the SIMD layer's int16 operations (simd.h). The sums
 * wrap in int16, so the order of the rows does not change the result: it
 * is exact whenever the final accumulator fits, which net.h ensures. An
 * accumulator is taken a tile at a time, TILE_VECS vectors kept in
 * registers across every row that is added to it or taken off. */
enum {
    ACC_VECS = H / VI16_LANES,
    TILE_VECS = ACC_VECS <= VI16_REGS             ? ACC_VECS
                : ACC_VECS % VI16_REGS == 0       ? VI16_REGS
                : ACC_VECS % (VI16_REGS / 2) == 0 ? VI16_REGS / 2
                : ACC_VECS % (VI16_REGS / 4) == 0 ? VI16_REGS / 4
                                                  : 1,
    TILE = TILE_VECS * VI16_LANES,
};
/* (cppcheck, not knowing the SIMD layer's lanes, takes them for one.) */
/* cppcheck-suppress moduloofone */
_Static_assert(H % VI16_LANES == 0 && H % TILE == 0, "an accumulator is whole tiles");

/* The weight rows of perspective c whose king stands on ksq. */
static inline const int16_t *row(const NnueNet *net, int c, int ksq, PieceSq ps)
{
    return net->ft_weight[nnue_feature(c, ksq, ps.piece, ps.sq)];
}

/* dst = src + the n_on rows of on - the n_off rows of off, and the same
 * into dst2 unless it is NULL; dst may be src (each tile is read whole
 * before it is written). The refreshes' kernel, and update()'s for the
 * rare deltas. */
static inline void add_rows(int16_t *dst, int16_t *restrict dst2, const int16_t *src,
                            const int16_t *const *on, int n_on, const int16_t *const *off,
                            int n_off)
{
    for (int t = 0; t < H; t += TILE) {
        vi16 r[TILE_VECS];
        for (int j = 0; j < TILE_VECS; j++)
            r[j] = vi16_load(src + (t + j * VI16_LANES));
        for (int k = 0; k < n_on; k++)
            for (int j = 0; j < TILE_VECS; j++)
                r[j] = vi16_add(r[j], vi16_load(on[k] + (t + j * VI16_LANES)));
        for (int k = 0; k < n_off; k++)
            for (int j = 0; j < TILE_VECS; j++)
                r[j] = vi16_sub(r[j], vi16_load(off[k] + (t + j * VI16_LANES)));
        for (int j = 0; j < TILE_VECS; j++)
            vi16_store(dst + (t + j * VI16_LANES), r[j]);
        if (dst2)
            for (int j = 0; j < TILE_VECS; j++)
                vi16_store(dst2 + (t + j * VI16_LANES), r[j]);
    }
}

void nnue_refresh(const NnueNet *net, const Position *pos, int persp, int16_t *acc)
{
    const int ksq = pos_king_sq(pos, persp);
    const int16_t *rows[SQ_NB]; /* a FEN may hold more than 32 pieces */
    int n = 0;
    for (bitboard_t b = pos_occupied(pos); b; b &= b - 1) {
        const int sq = lsb(b);
        rows[n++] = net->ft_weight[nnue_feature(persp, ksq, pos->board[sq], sq)];
    }
    add_rows(acc, NULL, net->ft_bias, rows, n, NULL, 0);
}

/* dst = src + the rows put on - the rows taken off: a move and a capture
 * (the usual cases) in one pass each, the others (castling, a null move)
 * through add_rows. */
static void update(const NnueNet *net, const PieceDelta *d, int c, int ksq,
                   const int16_t *restrict src, int16_t *restrict dst)
{
    if (d->n_on == 1 && d->n_off == 1) {
        const int16_t *on = row(net, c, ksq, d->on[0]), *off = row(net, c, ksq, d->off[0]);
        for (int i = 0; i < H; i += VI16_LANES)
            vi16_store(dst + i, vi16_sub(vi16_add(vi16_load(src + i), vi16_load(on + i)),
                                         vi16_load(off + i)));
    } else if (d->n_on == 1 && d->n_off == 2) {
        const int16_t *on = row(net, c, ksq, d->on[0]), *off0 = row(net, c, ksq, d->off[0]),
                      *off1 = row(net, c, ksq, d->off[1]);
        for (int i = 0; i < H; i += VI16_LANES) {
            const vi16 v = vi16_add(vi16_load(src + i), vi16_load(on + i));
            vi16_store(dst + i, vi16_sub(vi16_sub(v, vi16_load(off0 + i)), vi16_load(off1 + i)));
        }
    } else {
        const int16_t *on[2], *off[2];
        for (int k = 0; k < d->n_on; k++)
            on[k] = row(net, c, ksq, d->on[k]);
        for (int k = 0; k < d->n_off; k++)
            off[k] = row(net, c, ksq, d->off[k]);
        add_rows(dst, NULL, src, on, d->n_on, off, d->n_off);
    }
}

/* Perspective c's accumulator of pos into dst, by way of the cache entry of
 * its king's index: the rows of the pieces that differ from the entry's are
 * added and taken off there, and the entry is then pos's. */
static void refresh_cached(NnueStack *st, const Position *pos, int c, int16_t *restrict dst)
{
    const NnueNet *net = st->net;
    const int ksq = pos_king_sq(pos, c);
    NnueCacheEntry *e = &st->cache[c][nnue_king_index(c, ksq)];
    const int16_t *on[SQ_NB], *off[SQ_NB];
    int n_on = 0, n_off = 0;
    for (int pc = WHITE; pc <= BLACK; pc++)
        for (int pt = PAWN; pt <= KING; pt++) {
            const bitboard_t now = pos_pieces(pos, pc, pt), was = e->pieces[pc][pt];
            const int piece = make_piece(pc, pt);
            for (bitboard_t b = now & ~was; b; b &= b - 1)
                on[n_on++] = net->ft_weight[nnue_feature(c, ksq, piece, lsb(b))];
            for (bitboard_t b = was & ~now; b; b &= b - 1)
                off[n_off++] = net->ft_weight[nnue_feature(c, ksq, piece, lsb(b))];
            e->pieces[pc][pt] = now;
        }
    add_rows(e->v, dst, e->v, on, n_on, off, n_off);
}

void nnue_reset(NnueStack *st, const NnueNet *net, const Position *pos)
{
    st->net = net;
    st->top = 0;
    /* An empty board in every entry: the first refresh there adds every
     * piece, as a computation from scratch does. */
    for (int c = WHITE; c <= BLACK; c++)
        for (int k = 0; k < NNUE_KING_INDICES; k++) {
            memcpy(st->cache[c][k].v, net->ft_bias, sizeof net->ft_bias);
            memset(st->cache[c][k].pieces, 0, sizeof st->cache[c][k].pieces);
        }
    NnueAccumulator *a = &st->acc[0];
    for (int c = WHITE; c <= BLACK; c++) {
        refresh_cached(st, pos, c, a->v[c]);
        a->computed[c] = true;
    }
    a->delta.n_on = a->delta.n_off = 0;
}

/* Whether the move of d was a king move of colour c that changed c's
 * features (the mover comes first in a delta). */
static inline bool king_changed(const PieceDelta *d, int c)
{
    return d->n_off && d->off[0].piece == make_piece(c, KING)
           && nnue_king_changes(c, d->off[0].sq, d->on[0].sq);
}

/* Each perspective from the nearest ply below that is computed (one
 * function, not one call per perspective: it runs at every evaluation). */
const NnueAccumulator *nnue_accumulate(NnueStack *st, const Position *pos)
{
    NnueAccumulator *const top = &st->acc[st->top];
    for (int c = WHITE; c <= BLACK; c++) {
        if (top->computed[c])
            continue;
        int i = st->top;
        bool afresh = false;
        for (; !st->acc[i].computed[c]; i--)
            afresh |= king_changed(&st->acc[i].delta, c);
        if (afresh) {
            refresh_cached(st, pos, c, top->v[c]);
            top->computed[c] = true;
            continue;
        }
        const int ksq = pos_king_sq(pos, c);
        for (i++; i <= st->top; i++) {
            update(st->net, &st->acc[i].delta, c, ksq, st->acc[i - 1].v[c], st->acc[i].v[c]);
            st->acc[i].computed[c] = true;
        }
    }
    return top;
}

bool nnue_check(NnueStack *st, const Position *pos)
{
    _Alignas(64) int16_t acc[H];
    const NnueAccumulator *a = nnue_accumulate(st, pos);
    for (int c = WHITE; c <= BLACK; c++) {
        nnue_refresh(st->net, pos, c, acc);
        if (memcmp(acc, a->v[c], sizeof acc) != 0)
            return false;
    }
    return true;
}
