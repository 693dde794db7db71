/* The 16-bit move: from (6 bits), to (6), promotion piece (2), kind (2).
 * Castling is stored as king-takes-own-rook, for standard chess and Chess960
 * alike. 0 is "no move"; from == to == 1 (b1b1) is the null move. */
#ifndef ROKADE_MOVE_H
#define ROKADE_MOVE_H

#include "types.h"

enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1, MOVE_EN_PASSANT = 2, MOVE_CASTLING = 3 };
enum { MOVE_NONE = 0, MOVE_NULL = 65 };

typedef struct {
    move_t moves[MAX_MOVES];
    int count;
} MoveList;

static inline move_t move_make(int from, int to) { return (move_t)(from | (to << 6)); }
static inline move_t move_make_kind(int from, int to, int kind)
{
    return (move_t)(from | (to << 6) | (kind << 14));
}
static inline move_t move_make_promo(int from, int to, int promo_pt)
{
    return (move_t)(from | (to << 6) | ((promo_pt - KNIGHT) << 12) | (MOVE_PROMOTION << 14));
}
static inline int move_from(move_t m) { return m & 63; }
static inline int move_to(move_t m) { return (m >> 6) & 63; }
static inline int move_kind(move_t m) { return m >> 14; }
static inline int move_promo(move_t m) { return ((m >> 12) & 3) + KNIGHT; }
static inline bool move_is_ok(move_t m) { return move_from(m) != move_to(m); }

/* Where king and rook of colour c end up after castling (king-takes-rook
 * form: kingside when the rook stands right of the king). */
static inline int castle_king_to(int c, bool kingside)
{
    return relative_square(c, kingside ? SQ_G1 : SQ_C1);
}
static inline int castle_rook_to(int c, bool kingside)
{
    return relative_square(c, kingside ? SQ_F1 : SQ_D1);
}

#endif
