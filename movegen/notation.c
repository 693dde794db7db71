/* Move text: UCI long algebraic (both castling notations) and standard
 * algebraic notation per FIDE Appendix C. */
#include "notation.h"

#include <string.h>

#include "movegen.h"

static void uci_text(const Position *pos, move_t m, bool chess960, char *buf)
{
    if (m == MOVE_NONE) {
        strcpy(buf, "(none)");
        return;
    }
    if (m == MOVE_NULL) {
        strcpy(buf, "0000");
        return;
    }
    int from = move_from(m), to = move_to(m);
    if (move_kind(m) == MOVE_CASTLING && !chess960)
        to = castle_king_to(pos->side, move_to(m) > move_from(m));
    buf[0] = (char)('a' + file_of(from));
    buf[1] = (char)('1' + rank_of(from));
    buf[2] = (char)('a' + file_of(to));
    buf[3] = (char)('1' + rank_of(to));
    buf[4] = '\0';
    if (move_kind(m) == MOVE_PROMOTION) {
        buf[4] = " pnbrqk"[move_promo(m)];
        buf[5] = '\0';
    }
}

void move_to_uci(const Position *pos, move_t m, char *buf) { uci_text(pos, m, pos->chess960, buf); }

move_t move_from_uci(const Position *pos, const char *str)
{
    MoveList list;
    char buf[8];
    size_t len = strlen(str);
    if (len < 4 || len > 5)
        return MOVE_NONE;
    gen_legal(pos, &list);
    /* The current mode's notation first, then the other one for castling. */
    for (int pass = 0; pass < 2; pass++) {
        bool c960 = pass == 0 ? pos->chess960 : !pos->chess960;
        for (int i = 0; i < list.count; i++) {
            if (pass == 1 && move_kind(list.moves[i]) != MOVE_CASTLING)
                continue;
            uci_text(pos, list.moves[i], c960, buf);
            if (!strcmp(buf, str))
                return list.moves[i];
        }
    }
    return MOVE_NONE;
}

void move_to_san(Position *pos, move_t m, char *buf)
{
    static const char Letters[] = "  NBRQK";
    int from = move_from(m), to = move_to(m);
    int pt = piece_type(pos->board[from]);
    size_t o = 0;

    if (move_kind(m) == MOVE_CASTLING) {
        strcpy(buf, to > from ? "O-O" : "O-O-O");
        o = strlen(buf);
    } else {
        bool capture = pos_is_capture(pos, m);
        if (pt == PAWN) {
            if (capture)
                buf[o++] = (char)('a' + file_of(from));
        } else {
            buf[o++] = Letters[pt];
            MoveList list;
            gen_legal(pos, &list);
            bool other = false, same_file = false, same_rank = false;
            for (int i = 0; i < list.count; i++) {
                move_t x = list.moves[i];
                int xf = move_from(x);
                if (xf == from || move_to(x) != to || move_kind(x) == MOVE_CASTLING
                    || piece_type(pos->board[xf]) != pt)
                    continue;
                other = true;
                same_file |= file_of(xf) == file_of(from);
                same_rank |= rank_of(xf) == rank_of(from);
            }
            if (other) {
                if (!same_file)
                    buf[o++] = (char)('a' + file_of(from));
                else if (!same_rank)
                    buf[o++] = (char)('1' + rank_of(from));
                else {
                    buf[o++] = (char)('a' + file_of(from));
                    buf[o++] = (char)('1' + rank_of(from));
                }
            }
        }
        if (capture)
            buf[o++] = 'x';
        buf[o++] = (char)('a' + file_of(to));
        buf[o++] = (char)('1' + rank_of(to));
        if (move_kind(m) == MOVE_PROMOTION) {
            buf[o++] = '=';
            buf[o++] = Letters[move_promo(m)];
        }
    }
    pos_make_move(pos, m);
    if (pos_in_check(pos))
        buf[o++] = pos_has_legal_move(pos) ? '+' : '#';
    pos_unmake_move(pos, m);
    buf[o] = '\0';
}
