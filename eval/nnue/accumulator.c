/* The accumulators: see accumulator.h. */
#include "accumulator.h"

#include <string.h>

#include "../../movegen/bitboard.h"
#include "net.h"

/* The weight rows of perspective c whose king stands on ksq. */
static inline const int16_t *row(const NnueNet *net, int c, int ksq, PieceSq ps)
{
    return net->ft_weight[nnue_feature(c, ksq, ps.piece, ps.sq)];
}

void nnue_refresh(const NnueNet *net, const Position *pos, int persp, int16_t *acc)
{
    const int ksq = pos_king_sq(pos, persp);
    memcpy(acc, net->ft_bias, sizeof net->ft_bias);
    for (bitboard_t b = pos_occupied(pos); b; b &= b - 1) {
        const int sq = lsb(b);
        const int16_t *w = net->ft_weight[nnue_feature(persp, ksq, pos->board[sq], sq)];
        for (int i = 0; i < H; i++)
            acc[i] = (int16_t)(acc[i] + w[i]);
    }
}

/* dst = src + the rows put on - the rows taken off (the usual cases in one
 * pass each). Plain loops of a length known at compile time: the compiler
 * vectorizes and unrolls them completely, which the SIMD layer's loops
 * (simd.h) do not get. */
static void update(const NnueNet *net, const PieceDelta *d, int c, int ksq,
                   const int16_t *restrict src, int16_t *restrict dst)
{
    if (d->n_on == 1 && d->n_off == 1) {
        const int16_t *on = row(net, c, ksq, d->on[0]), *off = row(net, c, ksq, d->off[0]);
        for (int i = 0; i < H; i++)
            dst[i] = (int16_t)(src[i] + on[i] - off[i]);
    } else if (d->n_on == 1 && d->n_off == 2) {
        const int16_t *on = row(net, c, ksq, d->on[0]), *off0 = row(net, c, ksq, d->off[0]),
                      *off1 = row(net, c, ksq, d->off[1]);
        for (int i = 0; i < H; i++)
            dst[i] = (int16_t)(src[i] + on[i] - off0[i] - off1[i]);
    } else {
        memcpy(dst, src, sizeof(int16_t) * H);
        for (int k = 0; k < d->n_on; k++) {
            const int16_t *on = row(net, c, ksq, d->on[k]);
            for (int i = 0; i < H; i++)
                dst[i] = (int16_t)(dst[i] + on[i]);
        }
        for (int k = 0; k < d->n_off; k++) {
            const int16_t *off = row(net, c, ksq, d->off[k]);
            for (int i = 0; i < H; i++)
                dst[i] = (int16_t)(dst[i] - off[i]);
        }
    }
}

/* Perspective c's accumulator of pos into dst, by way of the cache entry of
 * its king's index: the rows of the pieces that differ from the entry's are
 * added and taken off there (in pairs where they can be, so that no sum
 * holds more than 33 rows on the way), and the entry is then pos's. */
static void refresh_cached(NnueStack *st, const Position *pos, int c, int16_t *restrict dst)
{
    const NnueNet *net = st->net;
    const int ksq = pos_king_sq(pos, c);
    NnueCacheEntry *e = &st->cache[c][nnue_king_index(c, ksq)];
    const int16_t *on[32], *off[32];
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
    int16_t *restrict v = e->v;
    int k = 0;
    for (; k < n_on && k < n_off; k++)
        for (int i = 0; i < H; i++)
            v[i] = (int16_t)(v[i] + on[k][i] - off[k][i]);
    for (int j = k; j < n_off; j++)
        for (int i = 0; i < H; i++)
            v[i] = (int16_t)(v[i] - off[j][i]);
    for (int j = k; j < n_on; j++)
        for (int i = 0; i < H; i++)
            v[i] = (int16_t)(v[i] + on[j][i]);
    memcpy(dst, v, sizeof e->v);
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
