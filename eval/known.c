/* What the rules and known endings decide, for every evaluation (eval.h):
 * a dead position is 0, and a won ending against a lone king gets a
 * known-win score that leads the search to the mate. Its own module because
 * the net's evaluation needs it and the rest of the hand-crafted evaluation
 * (eval.c) it does not: in the bench (depth 9, with the built-in net) it
 * decides 728 of 72,189 evaluations (1.0%), the endings self-play shows a
 * net too few of to find the mate. And the net's mop-up bonus, for pawnless
 * endings a rook or more ahead that the net scores without a plan, and the
 * scale of material that cannot win, shared by both evaluations. */
#include "eval.h"

#include <stdlib.h>

#include "../movegen/score.h"

const int PieceValue[PIECE_TYPE_NB] = {0, 100, 320, 330, 500, 950, 0};

/* How near the edge a king on sq stands: 2 in the centre, 14 in a corner. */
static int edge_nearness(int sq) { return abs(2 * file_of(sq) - 7) + abs(2 * rank_of(sq) - 7); }

/* Won endings against a lone king: K+Q, K+R, K+B+N or the bishop pair, with
 * or without more. The value is a known win plus the strong side's material,
 * growing as the lone king nears the edge (with B+N alone, a corner of the
 * bishop's colour, where the mate is) and the strong king nears it, so the
 * search walks to the mate. White's view; 0 when no such ending is on the
 * board. */

int eval_lone_king(const Position *pos)
{
    for (int strong = WHITE; strong <= BLACK; strong++) {
        const int weak = !strong;
        if (pos->by_color[weak] != pos_pieces(pos, weak, KING))
            continue;
        bitboard_t bishops = pos_pieces(pos, strong, BISHOP);
        bool heavy = pos_pieces(pos, strong, ROOK) | pos_pieces(pos, strong, QUEEN);
        bool bn = bishops && pos_pieces(pos, strong, KNIGHT);
        bool pair = (bishops & DARK_SQUARES_BB) && (bishops & ~DARK_SQUARES_BB);
        if (!heavy && !bn && !pair)
            return 0;
        int v = SCORE_KNOWN_WIN;
        for (int pt = PAWN; pt <= QUEEN; pt++)
            v += PieceValue[pt] * popcount(pos_pieces(pos, strong, pt));
        bitboard_t pawns = pos_pieces(pos, strong, PAWN);
        while (pawns)
            v += 10 * relative_rank(strong, pop_lsb(&pawns));
        const int wk = pos_king_sq(pos, weak), sk = pos_king_sq(pos, strong);
        const int edge = edge_nearness(wk);
        v += 10 * (7 - square_distance(wk, sk));
        if (heavy || pair) {
            v += 20 * edge;
        } else {
            /* a1 and h8 are dark squares, a8 and h1 light. */
            bool dark = bishops & DARK_SQUARES_BB;
            int c1 = dark ? SQ_A1 : SQ_A8, c2 = dark ? SQ_H8 : SQ_H1;
            int d1 = square_distance(wk, c1), d2 = square_distance(wk, c2);
            v += 10 * edge + 40 * (7 - (d1 < d2 ? d1 : d2));
        }
        return strong == WHITE ? v : -v;
    }
    return 0;
}

/* Pawnless endings with pieces on both sides where one side is ahead by a
 * rook's worth or more (KQvKR, KQvKB, KQvKN, KRRvKR, ...): usually won, but
 * only by driving the defending king to the edge, a plan a net trained on
 * self-play rarely sees (without tables the built-in net drew KQvKR 6 times
 * in 6 against Stockfish, bench/README.md). A bonus for the stronger side,
 * growing as the weaker king nears the edge and the kings near each other,
 * added to the net's score; White's view, 0 in any other position. */
enum { MOP_UP_MIN_EDGE = 400, MOP_UP_MAX_PIECES = 6 };

int eval_mop_up(const Position *pos)
{
    const bitboard_t occ = pos_occupied(pos);
    if (pos->by_type[PAWN] || popcount(occ) > MOP_UP_MAX_PIECES)
        return 0;
    int material[COLOR_NB] = {0, 0};
    for (int c = WHITE; c <= BLACK; c++)
        for (int pt = KNIGHT; pt <= QUEEN; pt++)
            material[c] += PieceValue[pt] * popcount(pos_pieces(pos, c, pt));
    if (!material[WHITE] || !material[BLACK])
        return 0; /* a lone king: eval_lone_king's */
    const int strong = material[WHITE] > material[BLACK] ? WHITE : BLACK, weak = !strong;
    if (material[strong] - material[weak] < MOP_UP_MIN_EDGE)
        return 0;
    const int wk = pos_king_sq(pos, weak), sk = pos_king_sq(pos, strong);
    const int edge = edge_nearness(wk);
    const int v = 10 * edge + 10 * (7 - square_distance(wk, sk));
    return strong == WHITE ? v : -v;
}

/* Material that cannot win, out of 64, for the side `strong` (the side the
 * score favours). Without pawns: a lone minor (or nothing) cannot mate, 0;
 * an edge of less than a rook (KRvKB, KRvKR, KBNvKN, KQvKRN, ...) seldom
 * wins, 16; two knights cannot force mate, 8. With pawns: pawns on one
 * rook file only, with no piece or only bishops not of the promotion
 * square's colour, against a lone king that stands on or next to that
 * square, is a known draw, 0 (the king cannot be driven from the corner).
 * Otherwise 64.
 * The hand-crafted evaluation scales its endgame score by it; the net's
 * evaluation, which has seen few such endings in self-play (it gave KNNvK
 * +1.91), its whole score, tapered by the game phase (eval_net_scale). */
enum { SCALE_FULL = 64, SCALE_SMALL_EDGE = 16, SCALE_TWO_KNIGHTS = 8, SCALE_EDGE_MAX = 400 };

int eval_material_scale(const Position *pos, int strong)
{
    const int weak = !strong;
    const bitboard_t pawns = pos_pieces(pos, strong, PAWN);
    const bitboard_t pieces = pos->by_color[strong] & ~pos->by_type[PAWN] & ~pos->by_type[KING];
    if (pawns) {
        /* The common case, decided without more: a knight, rook or queen,
         * or pawns off the rook files. */
        const bitboard_t bishops = pos_pieces(pos, strong, BISHOP);
        if (pieces != bishops || ((pawns & ~FILE_A_BB) && (pawns & ~FILE_H_BB)))
            return SCALE_FULL;
        if (pos->by_color[weak] != pos_pieces(pos, weak, KING))
            return SCALE_FULL;
        const int file = (pawns & FILE_A_BB) ? 0 : 7;
        const int queening = make_square(file, strong == WHITE ? 7 : 0);
        const bool dark_corner = (DARK_SQUARES_BB >> queening) & 1;
        if ((bishops & (dark_corner ? DARK_SQUARES_BB : ~DARK_SQUARES_BB))
            || square_distance(pos_king_sq(pos, weak), queening) > 1)
            return SCALE_FULL;
        return 0;
    }
    /* No pawns: a lone minor, or a material edge of less than a rook. */
    if (!more_than_one(pieces) && !(pieces & (pos->by_type[ROOK] | pos->by_type[QUEEN])))
        return 0;
    int diff = 0;
    for (int pt = KNIGHT; pt <= QUEEN; pt++)
        diff += PieceValue[pt]
                * (popcount(pos_pieces(pos, strong, pt)) - popcount(pos_pieces(pos, weak, pt)));
    if (diff < SCALE_EDGE_MAX)
        return SCALE_SMALL_EDGE;
    if (pieces == pos_pieces(pos, strong, KNIGHT) && popcount(pieces) <= 2)
        return SCALE_TWO_KNIGHTS;
    return SCALE_FULL;
}

/* The same for the net's whole score: the scale counts in full in a bare
 * ending and fades as pieces come back (eval_phase), as the hand-crafted
 * evaluation scales only its endgame half. A side with no pawns but queens
 * and rooks on the board still has mating chances. */
int eval_net_scale(const Position *pos, int strong)
{
    const int scale = eval_material_scale(pos, strong);
    if (scale == SCALE_FULL)
        return SCALE_FULL;
    return SCALE_FULL - (SCALE_FULL - scale) * (24 - eval_phase(pos)) / 24;
}

bool eval_known(const Position *pos, int *v)
{
    if (pos_is_dead(pos)) {
        *v = 0;
        return true;
    }
    const int lk = eval_lone_king(pos);
    *v = pos->side == WHITE ? lk : -lk;
    return lk != 0;
}
