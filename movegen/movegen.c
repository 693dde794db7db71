/* Strictly legal move generation with check and pin masks. One body serves
 * both generating and counting (perft's last ply): it is force-inlined with
 * constant flags, so each use compiles to its own specialised loop. */
#include "movegen.h"

typedef struct {
    move_t *out;
    int n;
} Sink;

static FORCE_INLINE void add_targets(Sink *s, bool count, int from, bitboard_t targets)
{
    if (count) {
        s->n += popcount(targets);
        return;
    }
    while (targets)
        s->out[s->n++] = move_make(from, pop_lsb(&targets));
}

static FORCE_INLINE void add_pawn_moves(Sink *s, bool count, bitboard_t targets, int delta)
{
    if (count) {
        s->n += popcount(targets);
        return;
    }
    while (targets) {
        int to = pop_lsb(&targets);
        s->out[s->n++] = move_make(to - delta, to);
    }
}

static FORCE_INLINE void add_promotions(Sink *s, bool count, bool noisy, bool quiet,
                                        bitboard_t targets, int delta)
{
    /* Promotions all belong to the noisy stage. */
    (void)quiet;
    if (!noisy)
        return;
    if (count) {
        s->n += 4 * popcount(targets);
        return;
    }
    while (targets) {
        int to = pop_lsb(&targets), from = to - delta;
        s->out[s->n++] = move_make_promo(from, to, QUEEN);
        s->out[s->n++] = move_make_promo(from, to, KNIGHT);
        s->out[s->n++] = move_make_promo(from, to, ROOK);
        s->out[s->n++] = move_make_promo(from, to, BISHOP);
    }
}

static FORCE_INLINE int generate(const Position *pos, move_t *out, bool noisy, bool quiet,
                                 bool count)
{
    const StateInfo *st = pos_st(pos);
    Sink s = {out, 0};
    const int us = pos->side, them = !us;
    const bitboard_t occ = pos_occupied(pos);
    const bitboard_t ours = pos->by_color[us], theirs = pos->by_color[them];
    const int ksq = pos_king_sq(pos, us);
    const bitboard_t checkers = st->checkers, pinned = st->pinned;
    const bitboard_t stage = (noisy ? theirs : 0) | (quiet ? ~occ : 0);

    /* 1. King moves: the target must not be attacked once the king has left. */
    {
        bitboard_t t = king_attacks(ksq) & stage;
        bitboard_t occ_nok = occ ^ sq_bb(ksq);
        while (t) {
            int to = pop_lsb(&t);
            if (!pos_square_attacked(pos, to, them, occ_nok)) {
                if (count)
                    s.n++;
                else
                    s.out[s.n++] = move_make(ksq, to);
            }
        }
    }
    if (more_than_one(checkers))
        return s.n;

    /* 2. Other pieces must capture the checker or block; pinned pieces stay on
     * their line, and cannot help against a check at all. */
    const bitboard_t check_mask = checkers ? between_bb(ksq, lsb(checkers)) | checkers : ~0ULL;
    const bitboard_t target = stage & check_mask;
    const bitboard_t movable = checkers ? ours & ~pinned : ours;

    bitboard_t b = pos->by_type[KNIGHT] & movable & ~pinned;
    while (b) {
        int from = pop_lsb(&b);
        add_targets(&s, count, from, knight_attacks(from) & target);
    }
    b = (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & movable;
    while (b) {
        int from = pop_lsb(&b);
        bitboard_t t = bishop_attacks(from, occ) & target;
        if (sq_bb(from) & pinned)
            t &= line_bb(ksq, from);
        add_targets(&s, count, from, t);
    }
    b = (pos->by_type[ROOK] | pos->by_type[QUEEN]) & movable;
    while (b) {
        int from = pop_lsb(&b);
        bitboard_t t = rook_attacks(from, occ) & target;
        if (sq_bb(from) & pinned)
            t &= line_bb(ksq, from);
        add_targets(&s, count, from, t);
    }
    /* Queens appear in both loops above: diagonal and orthogonal moves. */

    /* 3. Pawns: the unpinned ones in bulk, the pinned ones one by one. */
    const bitboard_t pawns = pos->by_type[PAWN] & movable;
    const bitboard_t rank7 = us == WHITE ? RANK_7_BB : RANK_2_BB;
    const bitboard_t rank3 = us == WHITE ? RANK_3_BB : RANK_6_BB;
    const int up = pawn_push(us);
    const int east = us == WHITE ? 9 : -7, west = us == WHITE ? 7 : -9;
    const bitboard_t capt = theirs & check_mask;
    const bitboard_t empty_ok = ~occ & check_mask;

    bitboard_t free_pawns = pawns & ~pinned;
    {
        bitboard_t promo = free_pawns & rank7, normal = free_pawns & ~rank7;
        bitboard_t push1 = pawn_forward(us, normal) & ~occ;
        bitboard_t push2 = pawn_forward(us, push1 & rank3) & empty_ok;
        if (quiet) {
            add_pawn_moves(&s, count, push1 & check_mask, up);
            add_pawn_moves(&s, count, push2, 2 * up);
        }
        if (noisy) {
            add_pawn_moves(&s, count, pawn_east_captures(us, normal) & capt, east);
            add_pawn_moves(&s, count, pawn_west_captures(us, normal) & capt, west);
        }
        if (promo) {
            add_promotions(&s, count, noisy, quiet, pawn_forward(us, promo) & empty_ok, up);
            add_promotions(&s, count, noisy, quiet, pawn_east_captures(us, promo) & capt, east);
            add_promotions(&s, count, noisy, quiet, pawn_west_captures(us, promo) & capt, west);
        }
    }
    bitboard_t pinned_pawns = pawns & pinned;
    while (pinned_pawns) {
        /* Not in check here: pinned pieces are excluded from `movable` then. */
        int from = pop_lsb(&pinned_pawns);
        bitboard_t line = line_bb(ksq, from), fb = sq_bb(from);
        bitboard_t push1 = pawn_forward(us, fb) & ~occ & line;
        bitboard_t push2 = pawn_forward(us, push1 & rank3) & ~occ;
        bitboard_t caps = pawn_attacks(us, from) & theirs & line;
        if (fb & rank7) {
            add_promotions(&s, count, noisy, quiet, push1, up);
            while (caps) {
                bitboard_t c = sq_bb(pop_lsb(&caps));
                add_promotions(&s, count, noisy, quiet, c, lsb(c) - from);
            }
        } else {
            if (quiet)
                add_targets(&s, count, from, push1 | push2);
            if (noisy)
                add_targets(&s, count, from, caps);
        }
    }

    /* 4. En passant: tested by playing it on the occupancy, which covers pins
     * along the rank and e.p. as an answer to check. */
    if (noisy && st->ep != SQ_NONE) {
        bitboard_t cands = pawn_attacks(them, st->ep) & pos_pieces(pos, us, PAWN);
        while (cands) {
            int from = pop_lsb(&cands);
            if (pos_ep_capture_legal(pos, from)) {
                if (count)
                    s.n++;
                else
                    s.out[s.n++] = move_make_kind(from, st->ep, MOVE_EN_PASSANT);
            }
        }
    }

    /* 5. Castling: not out of, through or into check. The king's path is
     * tested without the king and the castling rook on the board, which also
     * finds a rook that was shielding the king's target square (Chess960). */
    if (quiet && !checkers) {
        int rights = st->castling & castling_rights_of(us);
        while (rights) {
            int idx = lsb((bitboard_t)rights);
            rights &= rights - 1;
            int rsq = pos->castle_rook[idx];
            if (occ & pos->castle_path[idx])
                continue;
            bitboard_t occ2 = occ ^ sq_bb(ksq) ^ sq_bb(rsq);
            bitboard_t path = pos->castle_king_path[idx];
            bool safe = true;
            while (path && safe)
                safe = !pos_square_attacked(pos, pop_lsb(&path), them, occ2);
            if (safe) {
                if (count)
                    s.n++;
                else
                    s.out[s.n++] = move_make_kind(ksq, rsq, MOVE_CASTLING);
            }
        }
    }
    return s.n;
}

void gen_moves(const Position *pos, MoveList *list, GenType type)
{
    move_t *out = list->moves + list->count;
    switch (type) {
    case GEN_NOISY: list->count += generate(pos, out, true, false, false); break;
    case GEN_QUIET: list->count += generate(pos, out, false, true, false); break;
    case GEN_ALL: list->count += generate(pos, out, true, true, false); break;
    }
}

void gen_legal(const Position *pos, MoveList *list)
{
    list->count = generate(pos, list->moves, true, true, false);
}

int gen_count_legal(const Position *pos) { return generate(pos, NULL, true, true, true); }

bool pos_has_legal_move(const Position *pos) { return gen_count_legal(pos) > 0; }

bool pos_is_pseudo_legal(const Position *pos, move_t m)
{
    const StateInfo *st = pos_st(pos);
    const int us = pos->side, them = !us;
    const int from = move_from(m), to = move_to(m), kind = move_kind(m);
    const bitboard_t occ = pos_occupied(pos);
    const int pc = pos->board[from];

    if (m == MOVE_NONE || m == MOVE_NULL || from == to || pc == NO_PIECE || piece_color(pc) != us)
        return false;
    /* Promotion bits are only meaningful on a promotion. */
    if (kind != MOVE_PROMOTION && (m & 0x3000))
        return false;
    const int pt = piece_type(pc);

    if (kind == MOVE_CASTLING) {
        if (pt != KING || st->checkers)
            return false;
        for (int idx = us * 2; idx < us * 2 + 2; idx++) {
            if (!(st->castling & (1 << idx)) || pos->castle_rook[idx] != to)
                continue;
            if (occ & pos->castle_path[idx])
                return false;
            bitboard_t occ2 = occ ^ sq_bb(from) ^ sq_bb(to);
            bitboard_t path = pos->castle_king_path[idx];
            while (path)
                if (pos_square_attacked(pos, pop_lsb(&path), them, occ2))
                    return false;
            return true;
        }
        return false;
    }
    if (kind == MOVE_EN_PASSANT)
        return pt == PAWN && st->ep != SQ_NONE && to == st->ep
               && (pawn_attacks(us, from) & sq_bb(to));

    if (pos->by_color[us] & sq_bb(to))
        return false;

    if (pt == PAWN) {
        bool last = relative_rank(us, to) == 7;
        if (last != (kind == MOVE_PROMOTION))
            return false;
        if (pawn_attacks(us, from) & pos->by_color[them] & sq_bb(to))
            return true;
        if (to == from + pawn_push(us))
            return !(occ & sq_bb(to));
        return to == from + 2 * pawn_push(us) && relative_rank(us, from) == 1
               && !(occ & (sq_bb(to) | sq_bb(from + pawn_push(us))));
    }
    if (kind != MOVE_NORMAL)
        return false;
    return (piece_attacks(pt, from, occ) & sq_bb(to)) != 0;
}

bool pos_is_legal(const Position *pos, move_t m)
{
    const StateInfo *st = pos_st(pos);
    const int us = pos->side;
    const int from = move_from(m), to = move_to(m);
    const int ksq = pos_king_sq(pos, us);

    switch (move_kind(m)) {
    case MOVE_CASTLING: return true; /* fully checked by pos_is_pseudo_legal */
    case MOVE_EN_PASSANT: return pos_ep_capture_legal(pos, from);
    default: break;
    }
    if (from == ksq)
        return !pos_square_attacked(pos, to, !us, pos_occupied(pos) ^ sq_bb(from));
    if (st->checkers) {
        if (more_than_one(st->checkers))
            return false;
        bitboard_t mask = between_bb(ksq, lsb(st->checkers)) | st->checkers;
        if (!(mask & sq_bb(to)))
            return false;
    }
    return !(st->pinned & sq_bb(from)) || aligned(ksq, from, to);
}

/* A normal move or a promotion: the usual case, with the lookups only where
 * a check is possible at all. */
static bool gives_check_simple(const Position *pos, int from, int to, int pt, int ksq)
{
    const int us = pos->side;
    const bitboard_t occ = (pos_occupied(pos) ^ sq_bb(from)) | sq_bb(to);
    /* Direct check: a slider's only when the king is on one of its lines. */
    if (pt == PAWN) {
        if (pawn_attacks(us, to) & sq_bb(ksq))
            return true;
    } else if (pt == KNIGHT) {
        if (knight_attacks(to) & sq_bb(ksq))
            return true;
    } else if (pt != KING && line_bb(to, ksq) && (piece_attacks(pt, to, occ) & sq_bb(ksq)))
        return true;
    /* Discovered check: only when the piece leaves a line through the king
     * (staying on it, it still blocks: no piece jumps a slider on a line). */
    const bitboard_t line = line_bb(ksq, from);
    if (!line || (line & sq_bb(to)))
        return false;
    const bitboard_t ours = pos->by_color[us] ^ sq_bb(from);
    if (file_of(ksq) == file_of(from) || rank_of(ksq) == rank_of(from))
        return rook_attacks(ksq, occ) & ours & (pos->by_type[ROOK] | pos->by_type[QUEEN]);
    return bishop_attacks(ksq, occ) & ours & (pos->by_type[BISHOP] | pos->by_type[QUEEN]);
}

bool pos_gives_check(const Position *pos, move_t m)
{
    const int us = pos->side, them = !us;
    const int from = move_from(m), to = move_to(m), kind = move_kind(m);
    const int ksq = pos_king_sq(pos, them);
    int pt = piece_type(pos->board[from]);
    if (kind == MOVE_NORMAL)
        return gives_check_simple(pos, from, to, pt, ksq);
    if (kind == MOVE_PROMOTION)
        return gives_check_simple(pos, from, to, move_promo(m), ksq);
    /* Castling and e.p.: the general way. */
    bitboard_t occ = pos_occupied(pos) ^ sq_bb(from);
    bitboard_t movers = pos->by_color[us] ^ sq_bb(from);
    int dest = to;

    if (kind == MOVE_CASTLING) {
        bool kingside = to > from;
        int kto = castle_king_to(us, kingside);
        dest = castle_rook_to(us, kingside);
        occ = (occ ^ sq_bb(to)) | sq_bb(kto);
        movers = (movers ^ sq_bb(to)) | sq_bb(kto);
        pt = ROOK;
    } else /* en passant */
        occ ^= sq_bb(to - pawn_push(us));
    occ |= sq_bb(dest);
    movers |= sq_bb(dest);

    /* Direct check by the moved (or promoted, or castling) piece. */
    bitboard_t att = pt == PAWN ? pawn_attacks(us, dest) : piece_attacks(pt, dest, occ);
    if (att & sq_bb(ksq))
        return true;
    /* Discovered check by a slider behind the piece that left. */
    bitboard_t rq = (pos->by_type[ROOK] | pos->by_type[QUEEN]) & movers & ~sq_bb(dest);
    bitboard_t bq = (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & movers & ~sq_bb(dest);
    return (rook_attacks(ksq, occ) & rq) || (bishop_attacks(ksq, occ) & bq);
}
