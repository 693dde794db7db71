/* Position set-up (FEN), make/unmake, keys, attack queries, repetitions and
 * the FIDE game state. */
#include "position.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "zobrist.h"

static const char PieceChars[] = " PNBRQK  pnbrqk";

void movegen_init(void)
{
    attacks_init();
    zobrist_init();
}

/* ------------------------------------------------------------------------ */
/* Piece placement helpers                                                  */

static inline void put_piece(Position *pos, int pc, int sq)
{
    bitboard_t b = sq_bb(sq);
    pos->board[sq] = (uint8_t)pc;
    pos->by_type[piece_type(pc)] |= b;
    pos->by_type[0] |= b;
    pos->by_color[piece_color(pc)] |= b;
}

static inline void remove_piece(Position *pos, int sq)
{
    int pc = pos->board[sq];
    bitboard_t b = sq_bb(sq);
    pos->board[sq] = NO_PIECE;
    pos->by_type[piece_type(pc)] ^= b;
    pos->by_type[0] ^= b;
    pos->by_color[piece_color(pc)] ^= b;
}

static inline void move_piece(Position *pos, int from, int to)
{
    int pc = pos->board[from];
    bitboard_t b = sq_bb(from) | sq_bb(to);
    pos->board[from] = NO_PIECE;
    pos->board[to] = (uint8_t)pc;
    pos->by_type[piece_type(pc)] ^= b;
    pos->by_type[0] ^= b;
    pos->by_color[piece_color(pc)] ^= b;
}

/* ------------------------------------------------------------------------ */
/* Attack queries                                                           */

bitboard_t pos_attackers_to(const Position *pos, int sq, bitboard_t occ)
{
    bitboard_t rq = pos->by_type[ROOK] | pos->by_type[QUEEN];
    bitboard_t bq = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    return (pawn_attacks(BLACK, sq) & pos_pieces(pos, WHITE, PAWN))
           | (pawn_attacks(WHITE, sq) & pos_pieces(pos, BLACK, PAWN))
           | (knight_attacks(sq) & pos->by_type[KNIGHT]) | (king_attacks(sq) & pos->by_type[KING])
           | (rook_attacks(sq, occ) & rq) | (bishop_attacks(sq, occ) & bq);
}

bool pos_square_attacked(const Position *pos, int sq, int by, bitboard_t occ)
{
    bitboard_t them = pos->by_color[by];
    return (pawn_attacks(!by, sq) & them & pos->by_type[PAWN])
           || (knight_attacks(sq) & them & pos->by_type[KNIGHT])
           || (king_attacks(sq) & them & pos->by_type[KING])
           || (rook_attacks(sq, occ) & them & (pos->by_type[ROOK] | pos->by_type[QUEEN]))
           || (bishop_attacks(sq, occ) & them & (pos->by_type[BISHOP] | pos->by_type[QUEEN]));
}

bitboard_t pos_attacked_by(const Position *pos, int by)
{
    const bitboard_t occ = pos_occupied(pos), them = pos->by_color[by];
    bitboard_t att = pawn_attacks_bb(by, them & pos->by_type[PAWN])
                     | king_attacks(pos_king_sq(pos, by));
    for (bitboard_t b = them & pos->by_type[KNIGHT]; b;)
        att |= knight_attacks(pop_lsb(&b));
    for (bitboard_t b = them & (pos->by_type[BISHOP] | pos->by_type[QUEEN]); b;)
        att |= bishop_attacks(pop_lsb(&b), occ);
    for (bitboard_t b = them & (pos->by_type[ROOK] | pos->by_type[QUEEN]); b;)
        att |= rook_attacks(pop_lsb(&b), occ);
    return att;
}

bool pos_ep_capture_legal(const Position *pos, int from)
{
    const StateInfo *st = pos_st(pos);
    int us = pos->side, them = !us;
    int to = st->ep, capsq = to - pawn_push(us);
    int ksq = pos_king_sq(pos, us);
    bitboard_t occ = (pos_occupied(pos) ^ sq_bb(from) ^ sq_bb(capsq)) | sq_bb(to);
    bitboard_t t = pos->by_color[them];
    return !((rook_attacks(ksq, occ) & t & (pos->by_type[ROOK] | pos->by_type[QUEEN]))
             || (bishop_attacks(ksq, occ) & t & (pos->by_type[BISHOP] | pos->by_type[QUEEN]))
             || (knight_attacks(ksq) & t & pos->by_type[KNIGHT])
             || (pawn_attacks(us, ksq) & t & pos->by_type[PAWN] & ~sq_bb(capsq)));
}

/* Checkers and pinned pieces of the side to move. */
static void set_check_info(const Position *pos, StateInfo *st)
{
    int us = pos->side, them = !us;
    int ksq = pos_king_sq(pos, us);
    bitboard_t occ = pos_occupied(pos);
    bitboard_t t = pos->by_color[them];
    st->checkers = pos_attackers_to(pos, ksq, occ) & t;
    st->pinned = 0;
    bitboard_t snipers = ((rook_attacks(ksq, 0) & (pos->by_type[ROOK] | pos->by_type[QUEEN]))
                          | (bishop_attacks(ksq, 0) & (pos->by_type[BISHOP] | pos->by_type[QUEEN])))
                         & t;
    while (snipers) {
        int s = pop_lsb(&snipers);
        bitboard_t b = between_bb(ksq, s) & occ;
        if (b && !more_than_one(b) && (b & pos->by_color[us]))
            st->pinned |= b;
    }
}

/* After a double push: the e.p. square enters the key only when a capture is
 * legal (FIDE Art. 9.2.2: otherwise the possible moves are the same). */
static void set_ep_legal(const Position *pos, StateInfo *st)
{
    st->ep_legal = false;
    if (st->ep == SQ_NONE)
        return;
    bitboard_t cands = pawn_attacks(!pos->side, st->ep) & pos_pieces(pos, pos->side, PAWN);
    while (cands)
        if (pos_ep_capture_legal(pos, pop_lsb(&cands))) {
            st->ep_legal = true;
            return;
        }
}

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */

uint64_t pos_compute_non_pawn_key(const Position *pos, int c)
{
    uint64_t k = 0;
    bitboard_t b = pos->by_color[c] & ~pos->by_type[PAWN];
    while (b) {
        int sq = pop_lsb(&b);
        k ^= ZobPiece[pos->board[sq]][sq];
    }
    return k;
}

uint64_t pos_compute_pawn_key(const Position *pos)
{
    uint64_t k = 0;
    bitboard_t b = pos->by_type[PAWN];
    while (b) {
        int sq = pop_lsb(&b);
        k ^= ZobPiece[pos->board[sq]][sq];
    }
    return k;
}

uint64_t pos_compute_key(const Position *pos)
{
    const StateInfo *st = pos_st(pos);
    uint64_t k = 0;
    bitboard_t b = pos_occupied(pos);
    while (b) {
        int sq = pop_lsb(&b);
        k ^= ZobPiece[pos->board[sq]][sq];
    }
    k ^= ZobCastling[st->castling];
    if (st->ep_legal)
        k ^= ZobEp[file_of(st->ep)];
    if (pos->side == BLACK)
        k ^= ZobSide;
    return k;
}

/* ------------------------------------------------------------------------ */
/* Castling set-up                                                          */

static int cr_index(int c, bool kingside) { return c * 2 + (kingside ? 0 : 1); }

static void add_castling_right(Position *pos, StateInfo *st, int c, int rsq)
{
    int ksq = pos_king_sq(pos, c);
    bool kingside = file_of(rsq) > file_of(ksq);
    int idx = cr_index(c, kingside);
    int kto = castle_king_to(c, kingside);
    int rto = castle_rook_to(c, kingside);
    st->castling |= (uint8_t)(1 << idx);
    pos->castle_rook[idx] = (uint8_t)rsq;
    pos->castle_mask[ksq] &= (uint8_t)~castling_rights_of(c);
    pos->castle_mask[rsq] &= (uint8_t) ~(1 << idx);
    pos->castle_path[idx] = (between_bb(ksq, kto) | sq_bb(kto) | between_bb(rsq, rto) | sq_bb(rto))
                            & ~(sq_bb(ksq) | sq_bb(rsq));
    pos->castle_king_path[idx] = between_bb(ksq, kto) | sq_bb(kto);
}

/* ------------------------------------------------------------------------ */
/* FEN                                                                      */

static bool fen_error(char *err, size_t len, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Splits the next space-separated field; returns its length (0 at the end). */
static size_t next_field(const char **s, const char **start)
{
    while (**s && isspace((unsigned char)**s))
        (*s)++;
    *start = *s;
    while (**s && !isspace((unsigned char)**s))
        (*s)++;
    return (size_t)(*s - *start);
}

static bool parse_counter(const char *f, size_t n, long max, long *out)
{
    long v = 0;
    if (n == 0 || n > 9)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)f[i]))
            return false;
        v = v * 10 + (f[i] - '0');
    }
    if (v > max)
        return false;
    *out = v;
    return true;
}

static bool parse_fen_into(Position *pos, const char *fen, bool chess960, char *err, size_t errlen)
{
    memset(pos, 0, offsetof(Position, hist));
    memset(&pos->hist[0], 0, sizeof(StateInfo));
    StateInfo *st = &pos->hist[0];
    pos->hply = 0;
    pos->chess960 = chess960;
    memset(pos->castle_mask, 0xF, sizeof pos->castle_mask);
    for (int i = 0; i < CR_INDEX_NB; i++)
        pos->castle_rook[i] = SQ_NONE;

    if (!fen)
        return fen_error(err, errlen, "empty FEN");
    const char *s = fen, *f;
    size_t n = next_field(&s, &f);
    if (n == 0)
        return fen_error(err, errlen, "empty FEN");

    /* 1. Piece placement. */
    int rank = 7, file = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = f[i];
        if (ch == '/') {
            if (file != 8)
                return fen_error(err, errlen, "piece placement: rank %d has %d squares, not 8",
                                 rank + 1, file);
            if (--rank < 0)
                return fen_error(err, errlen, "piece placement: more than 8 ranks");
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            file += ch - '0';
            if (file > 8)
                return fen_error(err, errlen, "piece placement: rank %d has more than 8 squares",
                                 rank + 1);
        } else {
            const char *p = strchr(PieceChars, ch);
            if (ch == ' ' || !p)
                return fen_error(err, errlen, "piece placement: bad character '%c'", ch);
            if (file >= 8)
                return fen_error(err, errlen, "piece placement: rank %d has more than 8 squares",
                                 rank + 1);
            put_piece(pos, (int)(p - PieceChars), make_square(file, rank));
            file++;
        }
    }
    if (file != 8)
        return fen_error(err, errlen, "piece placement: rank %d has %d squares, not 8", rank + 1,
                         file);
    if (rank != 0)
        return fen_error(err, errlen, "piece placement: %d ranks, not 8", 8 - rank);
    for (int c = WHITE; c <= BLACK; c++) {
        int k = popcount(pos_pieces(pos, c, KING));
        if (k != 1)
            return fen_error(err, errlen,
                             k == 0 ? "piece placement: %s has no king"
                                    : "piece placement: %s has %d kings",
                             c == WHITE ? "white" : "black", k);
    }
    if (pos->by_type[PAWN] & (RANK_1_BB | RANK_8_BB))
        return fen_error(err, errlen, "piece placement: pawn on the first or last rank");

    /* 2. Side to move. */
    n = next_field(&s, &f);
    if (n == 0)
        return fen_error(err, errlen, "side to move: missing");
    if (n != 1 || (f[0] != 'w' && f[0] != 'b'))
        return fen_error(err, errlen, "side to move: '%.*s' is not w or b", (int)(n > 20 ? 20 : n),
                         f);
    pos->side = f[0] == 'w' ? WHITE : BLACK;

    /* 3. Castling: KQkq (outermost rook, X-FEN), or rook files (Shredder-FEN). */
    n = next_field(&s, &f);
    if (n == 0)
        return fen_error(err, errlen, "castling: missing");
    if (!(n == 1 && f[0] == '-')) {
        if (n > 4)
            return fen_error(err, errlen, "castling: '%.*s' has more than 4 letters",
                             (int)(n > 20 ? 20 : n), f);
        bool file_letters = false, kq_letters = false;
        for (size_t i = 0; i < n; i++) {
            if (memchr(f, f[i], i))
                return fen_error(err, errlen, "castling: letter '%c' given twice", f[i]);
            char up = (char)toupper((unsigned char)f[i]);
            file_letters |= up >= 'A' && up <= 'H';
            kq_letters |= up == 'K' || up == 'Q';
        }
        /* Shredder-FEN when only file letters are used; otherwise X-FEN. */
        pos->shredder_castling = file_letters && !kq_letters;
        for (size_t i = 0; i < n; i++) {
            char ch = f[i];
            int c = isupper((unsigned char)ch) ? WHITE : BLACK;
            char up = (char)toupper((unsigned char)ch);
            if (up != 'K' && up != 'Q' && (up < 'A' || up > 'H'))
                return fen_error(err, errlen, "castling: bad character '%c'", ch);
            int ksq = pos_king_sq(pos, c);
            bitboard_t rooks = pos_pieces(pos, c, ROOK) & rank_bb(relative_rank(c, SQ_A1));
            if (relative_rank(c, ksq) != 0)
                continue; /* king not on its first rank: the right is dropped */
            int rsq = SQ_NONE;
            if (up == 'K') {
                bitboard_t r = rooks & ~(sq_bb(ksq) - 1) & ~sq_bb(ksq);
                if (r)
                    rsq = msb(r);
            } else if (up == 'Q') {
                bitboard_t r = rooks & (sq_bb(ksq) - 1);
                if (r)
                    rsq = lsb(r);
            } else {
                int sq = make_square(up - 'A', c == WHITE ? 0 : 7);
                if ((rooks & sq_bb(sq)) && sq != ksq)
                    rsq = sq;
            }
            if (rsq == SQ_NONE)
                continue; /* no rook in place: the right is dropped */
            /* In standard notation castling is written as the king's two-square
             * step, which cannot name castling by a king off the e-file. */
            if (!chess960 && file_of(ksq) != 4)
                return fen_error(err, errlen,
                                 "castling: the %s king on %c%c is not on the e-file "
                                 "(a Chess960 position needs UCI_Chess960 true)",
                                 c == WHITE ? "white" : "black", 'a' + file_of(ksq),
                                 '1' + rank_of(ksq));
            int idx = cr_index(c, file_of(rsq) > file_of(ksq));
            if (st->castling & (1 << idx)) {
                if (pos->castle_rook[idx] == rsq)
                    return fen_error(err, errlen, "castling: right '%c' given twice", ch);
                return fen_error(err, errlen, "castling: two rooks named for one side ('%.*s')",
                                 (int)n, f);
            }
            add_castling_right(pos, st, c, rsq);
        }
    }

    /* 4. En passant. */
    st->ep = SQ_NONE;
    n = next_field(&s, &f);
    if (n == 0)
        return fen_error(err, errlen, "en passant: missing");
    if (!(n == 1 && f[0] == '-')) {
        if (n != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
            return fen_error(err, errlen, "en passant: '%.*s' is not a square or -",
                             (int)(n > 20 ? 20 : n), f);
        int sq = make_square(f[0] - 'a', f[1] - '1');
        int them = !pos->side;
        /* Kept only if a double push of the side that just moved could have made it. */
        if (relative_rank(pos->side, sq) == 5
            && (pos_pieces(pos, them, PAWN) & sq_bb(sq - pawn_push(pos->side)))
            && !(pos_occupied(pos) & (sq_bb(sq) | sq_bb(sq + pawn_push(pos->side)))))
            st->ep = (uint8_t)sq;
    }

    /* 5-6. Counters (optional). The bound is far beyond any game a
     * `position ... moves` line can give, so every FEN printed reads back. */
    long half = 0, full = 1;
    n = next_field(&s, &f);
    if (n) {
        if (!parse_counter(f, n, FEN_COUNTER_MAX, &half))
            return fen_error(err, errlen, "halfmove clock: '%.*s' is not a number from 0 to %d",
                             (int)(n > 20 ? 20 : n), f, FEN_COUNTER_MAX);
        n = next_field(&s, &f);
        if (n) {
            if (!parse_counter(f, n, FEN_COUNTER_MAX, &full))
                return fen_error(err, errlen,
                                 "fullmove number: '%.*s' is not a number from 1 to %d",
                                 (int)(n > 20 ? 20 : n), f, FEN_COUNTER_MAX);
            if (full == 0)
                full = 1;
        }
    }
    n = next_field(&s, &f);
    if (n)
        return fen_error(err, errlen, "unexpected text after the fullmove number: '%.*s'",
                         (int)(n > 20 ? 20 : n), f);
    st->rule50 = (int)half;
    pos->game_ply = (int)(2 * (full - 1) + (pos->side == BLACK));

    /* Legality: the side not to move must not be in check. */
    int xk = pos_king_sq(pos, !pos->side);
    if (pos_square_attacked(pos, xk, pos->side, pos_occupied(pos)))
        return fen_error(err, errlen, "illegal position: the side not to move (%s) is in check",
                         pos->side == WHITE ? "black" : "white");

    set_check_info(pos, st);
    if (popcount(st->checkers) > 2)
        return fen_error(err, errlen, "illegal position: the king is attacked by %d pieces",
                         popcount(st->checkers));
    set_ep_legal(pos, st);
    st->key = pos_compute_key(pos);
    st->pawn_key = pos_compute_pawn_key(pos);
    st->non_pawn_key[WHITE] = pos_compute_non_pawn_key(pos, WHITE);
    st->non_pawn_key[BLACK] = pos_compute_non_pawn_key(pos, BLACK);
    st->move = MOVE_NONE;
    st->captured = NO_PIECE;
    st->plies_from_null = 0;
    return true;
}

bool pos_set_fen(Position *pos, const char *fen, bool chess960, char *err, size_t errlen)
{
    Position *tmp = malloc(sizeof *tmp);
    if (!tmp)
        return fen_error(err, errlen, "out of memory");
    bool ok = parse_fen_into(tmp, fen, chess960, err, errlen);
    if (ok)
        memcpy(pos, tmp, offsetof(Position, hist) + sizeof(StateInfo));
    free(tmp);
    assert(!ok || pos_is_consistent(pos));
    return ok;
}

void pos_set_startpos(Position *pos)
{
    char err[128];
    bool ok = pos_set_fen(pos, START_FEN, pos->chess960, err, sizeof err);
    (void)ok;
}

static bool rook_is_outermost(const Position *pos, int idx)
{
    int c = idx / 2, rsq = pos->castle_rook[idx];
    bitboard_t rooks = pos_pieces(pos, c, ROOK) & rank_bb(rank_of(rsq));
    bitboard_t beyond = (idx % 2 == 0) ? rooks & ~((sq_bb(rsq) << 1) - 1)
                                       : rooks & (sq_bb(rsq) - 1);
    return beyond == 0;
}

void pos_get_fen(const Position *pos, char *buf, size_t len)
{
    char out[128];
    size_t o = 0;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int fl = 0; fl < 8; fl++) {
            int pc = pos->board[make_square(fl, r)];
            if (pc == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                out[o++] = (char)('0' + empty);
            empty = 0;
            out[o++] = PieceChars[pc];
        }
        if (empty)
            out[o++] = (char)('0' + empty);
        if (r)
            out[o++] = '/';
    }
    const StateInfo *st = pos_st(pos);
    out[o++] = ' ';
    out[o++] = pos->side == WHITE ? 'w' : 'b';
    out[o++] = ' ';
    if (!st->castling)
        out[o++] = '-';
    for (int idx = 0; idx < CR_INDEX_NB; idx++) {
        if (!(st->castling & (1 << idx)))
            continue;
        char ch;
        if (!pos->shredder_castling && rook_is_outermost(pos, idx))
            ch = idx % 2 == 0 ? 'K' : 'Q';
        else
            ch = (char)('A' + file_of(pos->castle_rook[idx]));
        out[o++] = idx < 2 ? ch : (char)tolower((unsigned char)ch);
    }
    out[o++] = ' ';
    if (st->ep == SQ_NONE)
        out[o++] = '-';
    else {
        out[o++] = (char)('a' + file_of(st->ep));
        out[o++] = (char)('1' + rank_of(st->ep));
    }
    snprintf(out + o, sizeof out - o, " %d %d", st->rule50, pos_fullmove(pos));
    snprintf(buf, len, "%s", out);
}

/* ------------------------------------------------------------------------ */
/* Make / unmake                                                            */

/* The make-move of both entry points, inlined into each so that the one
 * without a delta (perft, the game) pays nothing for it: d is NULL there. */
#if defined(__GNUC__)
#define MAKE_INLINE static inline __attribute__((always_inline))
#else
#define MAKE_INLINE static inline
#endif

MAKE_INLINE void take_off(PieceDelta *d, int piece, int sq)
{
    if (d)
        d->off[d->n_off++] = (PieceSq){(uint8_t)piece, (uint8_t)sq};
}

MAKE_INLINE void put_on(PieceDelta *d, int piece, int sq)
{
    if (d)
        d->on[d->n_on++] = (PieceSq){(uint8_t)piece, (uint8_t)sq};
}

MAKE_INLINE void make_move(Position *pos, move_t m, PieceDelta *d)
{
    const StateInfo *prev = &pos->hist[pos->hply];
    StateInfo *st = &pos->hist[++pos->hply];
    int us = pos->side, them = !us;
    int from = move_from(m), to = move_to(m), kind = move_kind(m);
    int pc = pos->board[from];
    uint64_t key = prev->key ^ ZobSide;
    uint64_t pkey = prev->pawn_key;
    uint64_t npkey[COLOR_NB] = {prev->non_pawn_key[WHITE], prev->non_pawn_key[BLACK]};
    if (d)
        d->n_off = d->n_on = 0;

    st->rule50 = prev->rule50 + 1;
    st->plies_from_null = prev->plies_from_null + 1;
    st->move = m;
    st->ep = SQ_NONE;
    if (prev->ep_legal)
        key ^= ZobEp[file_of(prev->ep)];

    if (kind == MOVE_CASTLING) {
        bool kingside = to > from;
        int kto = castle_king_to(us, kingside);
        int rto = castle_rook_to(us, kingside);
        int rook = make_piece(us, ROOK);
        remove_piece(pos, from);
        remove_piece(pos, to);
        put_piece(pos, pc, kto);
        put_piece(pos, rook, rto);
        key ^= ZobPiece[pc][from] ^ ZobPiece[pc][kto] ^ ZobPiece[rook][to] ^ ZobPiece[rook][rto];
        npkey[us] ^= ZobPiece[pc][from] ^ ZobPiece[pc][kto] ^ ZobPiece[rook][to]
                     ^ ZobPiece[rook][rto];
        st->captured = NO_PIECE;
        take_off(d, pc, from);
        take_off(d, rook, to);
        put_on(d, pc, kto);
        put_on(d, rook, rto);
    } else {
        /* The mover first: the accumulators look for a king there. */
        take_off(d, pc, from);
        put_on(d, kind == MOVE_PROMOTION ? make_piece(us, move_promo(m)) : pc, to);
        int captured = pos->board[to];
        int capsq = to;
        if (kind == MOVE_EN_PASSANT) {
            capsq = to - pawn_push(us);
            captured = pos->board[capsq];
        }
        st->captured = (uint8_t)captured;
        if (captured) {
            remove_piece(pos, capsq);
            key ^= ZobPiece[captured][capsq];
            take_off(d, captured, capsq);
            if (piece_type(captured) == PAWN)
                pkey ^= ZobPiece[captured][capsq];
            else
                npkey[them] ^= ZobPiece[captured][capsq];
            st->rule50 = 0;
        }
        move_piece(pos, from, to);
        key ^= ZobPiece[pc][from] ^ ZobPiece[pc][to];
        if (piece_type(pc) == PAWN) {
            st->rule50 = 0;
            pkey ^= ZobPiece[pc][from];
            if (kind == MOVE_PROMOTION) {
                int promo = make_piece(us, move_promo(m));
                remove_piece(pos, to);
                put_piece(pos, promo, to);
                key ^= ZobPiece[pc][to] ^ ZobPiece[promo][to];
                npkey[us] ^= ZobPiece[promo][to];
            } else {
                pkey ^= ZobPiece[pc][to];
                if ((to ^ from) == 16)
                    st->ep = (uint8_t)((from + to) / 2);
            }
        } else
            npkey[us] ^= ZobPiece[pc][from] ^ ZobPiece[pc][to];
    }

    st->castling = prev->castling & pos->castle_mask[from] & pos->castle_mask[to];
    key ^= ZobCastling[prev->castling] ^ ZobCastling[st->castling];

    pos->side = them;
    pos->game_ply++;
    set_check_info(pos, st);
    st->ep_legal = false;
    if (st->ep != SQ_NONE) {
        set_ep_legal(pos, st);
        if (st->ep_legal)
            key ^= ZobEp[file_of(st->ep)];
    }
    st->key = key;
    st->pawn_key = pkey;
    st->non_pawn_key[WHITE] = npkey[WHITE];
    st->non_pawn_key[BLACK] = npkey[BLACK];
    assert(pos_is_consistent(pos));
}

void pos_make_move(Position *pos, move_t m) { make_move(pos, m, NULL); }

void pos_make_move_delta(Position *pos, move_t m, PieceDelta *delta) { make_move(pos, m, delta); }

void pos_unmake_move(Position *pos, move_t m)
{
    const StateInfo *st = &pos->hist[pos->hply];
    int them = pos->side, us = !them;
    int from = move_from(m), to = move_to(m), kind = move_kind(m);
    pos->side = us;
    pos->game_ply--;

    if (kind == MOVE_CASTLING) {
        bool kingside = to > from;
        int kto = castle_king_to(us, kingside);
        int rto = castle_rook_to(us, kingside);
        remove_piece(pos, kto);
        remove_piece(pos, rto);
        put_piece(pos, make_piece(us, KING), from);
        put_piece(pos, make_piece(us, ROOK), to);
    } else {
        if (kind == MOVE_PROMOTION) {
            remove_piece(pos, to);
            put_piece(pos, make_piece(us, PAWN), to);
        }
        move_piece(pos, to, from);
        if (st->captured) {
            int capsq = kind == MOVE_EN_PASSANT ? to - pawn_push(us) : to;
            put_piece(pos, st->captured, capsq);
        }
    }
    pos->hply--;
    assert(pos_is_consistent(pos));
}

void pos_make_null(Position *pos)
{
    const StateInfo *prev = &pos->hist[pos->hply];
    StateInfo *st = &pos->hist[++pos->hply];
    *st = *prev;
    st->key ^= ZobSide;
    if (prev->ep_legal)
        st->key ^= ZobEp[file_of(prev->ep)];
    st->ep = SQ_NONE;
    st->ep_legal = false;
    st->move = MOVE_NULL;
    st->captured = NO_PIECE;
    st->rule50 = prev->rule50 + 1;
    st->plies_from_null = 0;
    pos->side = !pos->side;
    pos->game_ply++;
    set_check_info(pos, st);
    assert(pos_is_consistent(pos));
}

void pos_unmake_null(Position *pos)
{
    pos->side = !pos->side;
    pos->game_ply--;
    pos->hply--;
    assert(pos_is_consistent(pos));
}

void pos_make_game_move(Position *pos, move_t m)
{
    if (pos->hply >= MAX_HISTORY - MAX_PLY - 8) {
        /* Old states serve only repetition counting, which looks back at most
         * rule50 plies, and a game ends at 150 (75-move rule): keep the newest
         * HISTORY_KEEP states and drop the rest. */
        int drop = pos->hply + 1 - HISTORY_KEEP;
        memmove(&pos->hist[0], &pos->hist[drop], (size_t)HISTORY_KEEP * sizeof(StateInfo));
        pos->hply -= drop;
    }
    pos_make_move(pos, m);
}

/* ------------------------------------------------------------------------ */
/* Self-check                                                               */

bool pos_is_consistent(const Position *pos)
{
    const StateInfo *st = pos_st(pos);
    const int us = pos->side, them = !us;
    if ((us != WHITE && us != BLACK) || pos->hply < 0 || pos->hply >= MAX_HISTORY
        || pos->game_ply < 0 || (pos->game_ply & 1) != (us == BLACK) || st->rule50 < 0)
        return false;

    /* The bitboards partition the occupied squares by colour and by type... */
    const bitboard_t occ = pos_occupied(pos);
    if ((pos->by_color[WHITE] & pos->by_color[BLACK])
        || (pos->by_color[WHITE] | pos->by_color[BLACK]) != occ)
        return false;
    bitboard_t all = 0;
    for (int pt = PAWN; pt <= KING; pt++) {
        if (all & pos->by_type[pt])
            return false;
        all |= pos->by_type[pt];
    }
    if (all != occ)
        return false;
    /* ...and agree with the mailbox. */
    for (int sq = 0; sq < SQ_NB; sq++) {
        int pc = pos->board[sq];
        if (pc == NO_PIECE) {
            if (occ & sq_bb(sq))
                return false;
            continue;
        }
        int pt = piece_type(pc);
        if (pc >= PIECE_NB || pt < PAWN || pt > KING
            || !(pos_pieces(pos, piece_color(pc), pt) & sq_bb(sq)))
            return false;
    }
    if (popcount(pos_pieces(pos, WHITE, KING)) != 1 || popcount(pos_pieces(pos, BLACK, KING)) != 1
        || (pos->by_type[PAWN] & (RANK_1_BB | RANK_8_BB)))
        return false;

    /* The side to move cannot capture the other king. */
    if (pos_square_attacked(pos, pos_king_sq(pos, them), us, occ))
        return false;

    /* Castling rights: each right's rook on its square, its king on the first rank. */
    for (int idx = 0; idx < CR_INDEX_NB; idx++) {
        int c = idx / 2, rsq = pos->castle_rook[idx];
        if ((st->castling & (1 << idx))
            && (rsq >= SQ_NB || pos->board[rsq] != make_piece(c, ROOK)
                || relative_rank(c, pos_king_sq(pos, c)) != 0))
            return false;
    }

    /* E.p.: a pawn of the side that moved stands just past the square, which
     * and the square it came from are empty. */
    if (st->ep != SQ_NONE
        && (st->ep >= SQ_NB || relative_rank(us, st->ep) != 5
            || pos->board[st->ep - pawn_push(us)] != make_piece(them, PAWN)
            || (occ & (sq_bb(st->ep) | sq_bb(st->ep + pawn_push(us))))))
        return false;
    if (st->captured != NO_PIECE
        && (piece_color(st->captured) != us || piece_type(st->captured) == KING))
        return false;

    /* What make/unmake keep incrementally equals what is computed from scratch. */
    StateInfo fresh = *st;
    set_check_info(pos, &fresh);
    set_ep_legal(pos, &fresh);
    return fresh.checkers == st->checkers && fresh.pinned == st->pinned
           && popcount(st->checkers) <= 2 && fresh.ep_legal == st->ep_legal
           && st->key == pos_compute_key(pos) && st->pawn_key == pos_compute_pawn_key(pos)
           && st->non_pawn_key[WHITE] == pos_compute_non_pawn_key(pos, WHITE)
           && st->non_pawn_key[BLACK] == pos_compute_non_pawn_key(pos, BLACK);
}

/* ------------------------------------------------------------------------ */
/* Game state                                                               */

int pos_repetitions(const Position *pos)
{
    const StateInfo *st = pos_st(pos);
    int back = st->rule50 < st->plies_from_null ? st->rule50 : st->plies_from_null;
    if (back > pos->hply)
        back = pos->hply;
    int count = 0;
    for (int i = 4; i <= back; i += 2)
        if (pos->hist[pos->hply - i].key == st->key)
            count++;
    return count;
}

bool pos_is_dead(const Position *pos)
{
    bitboard_t kings = pos->by_type[KING];
    bitboard_t others = pos_occupied(pos) & ~kings;
    if (!others)
        return true;
    /* A single knight or bishop: no mate possible. */
    if (!more_than_one(others) && (others & (pos->by_type[KNIGHT] | pos->by_type[BISHOP])))
        return true;
    /* Only bishops, all on squares of one colour. */
    if (others == pos->by_type[BISHOP]
        && (!(others & DARK_SQUARES_BB) || !(others & ~DARK_SQUARES_BB)))
        return true;
    return false;
}

bool pos_side_can_mate(const Position *pos, int side)
{
    const bitboard_t ours = pos->by_color[side] & ~pos->by_type[KING];
    const bitboard_t theirs = pos->by_color[!side] & ~pos->by_type[KING];
    if (!ours)
        return false;
    const bitboard_t bishops = pos->by_type[BISHOP];
    /* One colour of bishops on the board and nothing else: no mate. */
    const bitboard_t all = ours | theirs;
    if (all == (all & bishops) && (!(all & DARK_SQUARES_BB) || !(all & ~DARK_SQUARES_BB)))
        return false;
    /* A lone knight or bishop against a bare king. */
    if (!theirs && !more_than_one(ours) && (ours & (pos->by_type[KNIGHT] | bishops)))
        return false;
    return true;
}

GameState pos_game_state(const Position *pos)
{
    if (!pos_has_legal_move(pos))
        return pos_in_check(pos) ? GAME_CHECKMATE : GAME_STALEMATE;
    int reps = pos_repetitions(pos);
    if (reps >= 4)
        return GAME_FIVEFOLD;
    if (pos_rule50(pos) >= 150)
        return GAME_75_MOVES;
    if (pos_is_dead(pos))
        return GAME_DEAD_POSITION;
    if (reps >= 2)
        return GAME_CLAIM_THREEFOLD;
    if (pos_rule50(pos) >= 100)
        return GAME_CLAIM_50_MOVES;
    return GAME_ONGOING;
}

const char *game_state_text(GameState gs)
{
    switch (gs) {
    case GAME_ONGOING: return "ongoing";
    case GAME_CHECKMATE: return "checkmate (5.1.1)";
    case GAME_STALEMATE: return "draw: stalemate (5.2.1)";
    case GAME_DEAD_POSITION: return "draw: dead position (5.2.2)";
    case GAME_FIVEFOLD: return "draw: fivefold repetition (9.6.1)";
    case GAME_75_MOVES: return "draw: 75-move rule (9.6.2)";
    case GAME_CLAIM_THREEFOLD: return "ongoing, draw claimable: threefold repetition (9.2)";
    case GAME_CLAIM_50_MOVES: return "ongoing, draw claimable: 50-move rule (9.3)";
    }
    return "?";
}
