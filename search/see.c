/* SEE by the swap list: both sides recapture with their least valuable
 * attacker, sliders behind a capturer join in (x-rays), and either side may
 * stop when going on would lose. */
#include "see.h"

bool see_ge(const Position *pos, move_t m, int threshold)
{
    if (move_kind(m) != MOVE_NORMAL)
        return 0 >= threshold;
    const int from = move_from(m), to = move_to(m);
    int swap = PieceValue[piece_type(pos->board[to])] - threshold;
    if (swap < 0)
        return false;
    swap = PieceValue[piece_type(pos->board[from])] - swap;
    if (swap <= 0)
        return true;

    bitboard_t occ = pos_occupied(pos) ^ sq_bb(from) ^ sq_bb(to);
    bitboard_t attackers = pos_attackers_to(pos, to, occ) & occ;
    const bitboard_t bq = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    const bitboard_t rq = pos->by_type[ROOK] | pos->by_type[QUEEN];
    int stm = pos->side;
    bool result = true;

    for (;;) {
        stm = !stm;
        attackers &= occ;
        bitboard_t mine = attackers & pos->by_color[stm];
        if (!mine)
            break;
        result = !result;
        /* The least valuable attacker (a king when nothing else is left). */
        int pt;
        bitboard_t b = 0;
        for (pt = PAWN; pt < KING; pt++)
            if ((b = mine & pos->by_type[pt]))
                break;
        if (pt == KING)
            /* The king may only take last: if the other side still attacks,
             * the capture is illegal and the result flips back. */
            return (attackers & pos->by_color[!stm]) ? !result : result;
        swap = PieceValue[pt] - swap;
        if (swap < (int)result)
            break;
        occ ^= sq_bb(lsb(b));
        if (pt == PAWN || pt == BISHOP || pt == QUEEN)
            attackers |= bishop_attacks(to, occ) & bq;
        if (pt == ROOK || pt == QUEEN)
            attackers |= rook_attacks(to, occ) & rq;
    }
    return result;
}
