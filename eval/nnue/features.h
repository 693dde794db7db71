/* The network's input features and output buckets (eval/nnue/format.h
 * describes the architecture), shared by the engine and the trainer.
 *
 * A feature is (king bucket, side, piece type, square), all seen from one
 * perspective: the board is turned top to bottom for Black, so each side
 * sees its own pieces from its own first rank, and, where the layout
 * mirrors, left to right when that side's king stands on files e-h. The
 * king bucket comes from a table of the (turned) king square, chosen by the
 * build's layout below (the default: four buckets by the king's square,
 * unmirrored); a king move that changes the bucket or the mirroring makes
 * the accumulator of its side be computed afresh (nnue_king_changes). */
#ifndef ROKADE_NNUE_FEATURES_H
#define ROKADE_NNUE_FEATURES_H

#include <stdbool.h>

#include "../../movegen/types.h"

/* The layout:
 * - 1 (the nets up to ft12h, eval/nets): one bucket and no mirroring, the
 *   768 features of every king square;
 * - 4: four buckets on the mirrored board (the king on a1-b1, on c1-d1, on
 *   the second rank, further up), built by the tests (make
 *   test-nnue-layout) so that the refresh on a bucket change and the
 *   mirroring are tested;
 * - 5 (the default, the built-in net k8u): four buckets by where the king
 *   stands, unmirrored: on a1-c1, on d1-e1, on f1-h1, further up. Without
 *   mirroring every bucket sees the board as the one-bucket layout does, so
 *   a one-bucket net copied into each computes what it did (rokade-train
 *   --init).
 * make NNUE_KING_LAYOUT=N builds the engine and the trainer for one. */
#ifndef NNUE_KING_LAYOUT
#define NNUE_KING_LAYOUT 5
#endif
#if NNUE_KING_LAYOUT != 1 && NNUE_KING_LAYOUT != 4 && NNUE_KING_LAYOUT != 5
#error "NNUE_KING_LAYOUT is 1, 4 or 5 (eval/nnue/features.h)"
#endif

enum {
    NNUE_KING_BUCKETS = NNUE_KING_LAYOUT == 1 ? 1 : 4,
    NNUE_KING_MIRROR = NNUE_KING_LAYOUT == 4, /* files e-h of the king mirror the board to a-d */
    NNUE_FEATURES = 768, /* per king bucket: 2 sides x 6 piece types x 64 squares */
    NNUE_INPUTS = NNUE_FEATURES * NNUE_KING_BUCKETS,
};

/* The king bucket of a king square seen from its side (a1 = the side's own
 * queen's rook corner), after the mirroring. */
static inline int nnue_king_bucket(int ksq)
{
    /* clang-format off */
    static const unsigned char NnueKingBuckets[2][SQ_NB] = {
        { /* layout 4, on the mirrored board: files a-d only */
            0, 0, 1, 1, 1, 1, 0, 0,
            2, 2, 2, 2, 2, 2, 2, 2,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
        },
        { /* layout 5 */
            0, 0, 0, 1, 1, 2, 2, 2,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
            3, 3, 3, 3, 3, 3, 3, 3,
        },
    };
    /* clang-format on */
    /* One bucket: no look-up, so that the compiler drops the king square. */
    return NNUE_KING_BUCKETS == 1 ? 0 : NnueKingBuckets[NNUE_KING_LAYOUT == 5][ksq];
}

/* What of the perspective's king square the features depend on: the bucket
 * and the mirroring, as one number. */
static inline int nnue_king_index(int persp, int ksq)
{
    const int k = ksq ^ (persp == WHITE ? 0 : 56);
    const int mirror = NNUE_KING_MIRROR && (k & 7) >= 4;
    return 2 * nnue_king_bucket(mirror ? k ^ 7 : k) + mirror;
}

/* Whether a king of colour persp moving from `from` to `to` changes its
 * perspective's features (then that accumulator is computed afresh). */
static inline bool nnue_king_changes(int persp, int from, int to)
{
    return nnue_king_index(persp, from) != nnue_king_index(persp, to);
}

/* The input feature of `piece` on `sq` for perspective `persp` (a colour)
 * whose king stands on ksq: the perspective's own pieces first. */
static inline int nnue_feature(int persp, int ksq, int piece, int sq)
{
    const int ki = nnue_king_index(persp, ksq);
    const int turn = (persp == WHITE ? 0 : 56) ^ (ki & 1 ? 7 : 0);
    const int side = piece_color(piece) != persp;
    return (ki >> 1) * NNUE_FEATURES + side * 384 + (piece_type(piece) - PAWN) * 64 + (sq ^ turn);
}

/* The output bucket of a position with `pieces` pieces (kings included,
 * 2..32) among `buckets`: equal ranges of the piece count, the fewest
 * pieces in bucket 0. */
static inline int nnue_bucket(int pieces, int buckets)
{
    int k = (pieces - 2) * buckets / 31;
    return k < 0 ? 0 : k >= buckets ? buckets - 1 : k;
}

#endif
