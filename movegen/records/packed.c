/* Packed training records (layout in packed.h) and their writer. */
#include "packed.h"

#include <stdio.h>
#include <string.h>

#include "../score.h"

enum { CODE_CASTLE_ROOK = 6, CODE_BLACK = 8, EP_NONE = 64, FLAG_CHESS960 = 1 };

static bool has_castle_rook(const Position *pos, int sq)
{
    const uint8_t rights = pos_st(pos)->castling;
    for (int i = 0; i < CR_INDEX_NB; i++)
        if ((rights & (1 << i)) && pos->castle_rook[i] == sq)
            return true;
    return false;
}

bool packed_from_position(const Position *pos, int score_white, int result_white, PackedPos *out)
{
    bitboard_t occ = pos_occupied(pos);
    if (popcount(occ) > 32)
        return false;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 8; i++)
        out->b[i] = (uint8_t)(occ >> (8 * i));
    int n = 0;
    for (bitboard_t b = occ; b; n++) {
        int sq = pop_lsb(&b), pc = pos_piece_on(pos, sq);
        int code = piece_type(pc) - PAWN;
        if (piece_type(pc) == ROOK && has_castle_rook(pos, sq))
            code = CODE_CASTLE_ROOK;
        code |= piece_color(pc) == BLACK ? CODE_BLACK : 0;
        out->b[8 + n / 2] |= (uint8_t)(code << (4 * (n & 1)));
    }
    const StateInfo *st = pos_st(pos);
    int ep = st->ep != SQ_NONE && st->ep_legal ? st->ep : EP_NONE;
    out->b[24] = (uint8_t)(ep | (pos->side == BLACK ? 0x80 : 0));
    int r50 = st->rule50 > 255 ? 255 : st->rule50;
    out->b[25] = (uint8_t)r50;
    int fm = pos_fullmove(pos) > 65535 ? 65535 : pos_fullmove(pos);
    out->b[26] = (uint8_t)fm, out->b[27] = (uint8_t)(fm >> 8);
    int s = score_white > PACKED_SCORE_MAX    ? PACKED_SCORE_MAX
            : score_white < -PACKED_SCORE_MAX ? -PACKED_SCORE_MAX
                                              : score_white;
    uint16_t us = (uint16_t)(int16_t)s;
    out->b[28] = (uint8_t)us, out->b[29] = (uint8_t)(us >> 8);
    packed_set_result(out, result_white);
    out->b[31] = pos->chess960 ? FLAG_CHESS960 : 0;
    return true;
}

void packed_set_result(PackedPos *p, int result_white)
{
    p->b[30] = (uint8_t)(result_white < RESULT_BLACK_WINS   ? RESULT_BLACK_WINS
                         : result_white > RESULT_WHITE_WINS ? RESULT_WHITE_WINS
                                                            : result_white);
}

bool packed_to_position(const PackedPos *p, Position *pos, int *score_white, int *result_white,
                        char *err, size_t errlen)
{
    static const char Letters[] = "pnbrqk";
    bitboard_t occ = 0;
    for (int i = 0; i < 8; i++)
        occ |= (bitboard_t)p->b[i] << (8 * i);
    if (popcount(occ) > 32) {
        snprintf(err, errlen, "record has %d pieces (at most 32)", popcount(occ));
        return false;
    }
    char board[SQ_NB] = {0}, castle[8];
    int nc = 0, n = 0;
    for (bitboard_t b = occ; b; n++) {
        int sq = pop_lsb(&b);
        int code = (p->b[8 + n / 2] >> (4 * (n & 1))) & 15;
        int type = code & 7;
        bool black = code & CODE_BLACK;
        if (type > CODE_CASTLE_ROOK) {
            snprintf(err, errlen, "bad piece code %d on square %d", code, sq);
            return false;
        }
        if (type == CODE_CASTLE_ROOK) {
            if (nc == 4) {
                snprintf(err, errlen, "more than four rooks with a castling right");
                return false;
            }
            castle[nc++] = (char)((black ? 'a' : 'A') + file_of(sq));
            type = ROOK - PAWN;
        }
        board[sq] = (char)(black ? Letters[type] : Letters[type] - 'a' + 'A');
    }
    castle[nc] = 0;
    if (p->b[30] > RESULT_WHITE_WINS) {
        snprintf(err, errlen, "bad result %d (0, 1 or 2)", p->b[30]);
        return false;
    }
    if (p->b[31] & ~FLAG_CHESS960) {
        snprintf(err, errlen, "unknown flags 0x%02x", p->b[31]);
        return false;
    }
    char fen[128], *f = fen;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char c = board[make_square(file, r)];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                *f++ = (char)('0' + empty), empty = 0;
            *f++ = c;
        }
        if (empty)
            *f++ = (char)('0' + empty);
        if (r)
            *f++ = '/';
    }
    int ep = p->b[24] & 0x7f;
    char eps[3] = "-";
    if (ep < 64)
        eps[0] = (char)('a' + file_of(ep)), eps[1] = (char)('1' + rank_of(ep)), eps[2] = 0;
    else if (ep != EP_NONE) {
        snprintf(err, errlen, "bad e.p. square %d", ep);
        return false;
    }
    int fm = p->b[26] | p->b[27] << 8;
    snprintf(f, sizeof fen - (size_t)(f - fen), " %c %s %s %d %d", p->b[24] & 0x80 ? 'b' : 'w',
             nc ? castle : "-", eps, p->b[25], fm ? fm : 1);
    Position tmp;
    char why[160];
    if (!pos_set_fen(&tmp, fen, p->b[31] & FLAG_CHESS960, why, sizeof why)) {
        snprintf(err, errlen, "record is not a legal position (%s): %s", fen, why);
        return false;
    }
    if (ep < 64 && !pos_st(&tmp)->ep_legal) {
        snprintf(err, errlen, "record's e.p. square allows no legal capture: %s", fen);
        return false;
    }
    *pos = tmp;
    *score_white = (int16_t)(uint16_t)(p->b[28] | p->b[29] << 8);
    *result_white = p->b[30];
    return true;
}

/* ------------------------------------------------------------------------ */
/* The writer (record.h): the quiet positions of the game                   */

_Static_assert((int)PACKED_QUIET_SCORE < (int)SCORE_MATE_IN_MAX, "mate scores are never quiet");

static bool packed_start(RecordWriter *w)
{
    (void)w;
    return true;
}

/* A record for a quiet position, its result still to come. */
static bool packed_push(RecordWriter *w, move_t move, int score_white)
{
    const Position *pos = w->pos;
    PackedPos rec;
    if (pos_in_check(pos) || pos_is_capture(pos, move) || move_kind(move) == MOVE_PROMOTION
        || score_white >= PACKED_QUIET_SCORE || score_white <= -PACKED_QUIET_SCORE
        || !packed_from_position(pos, score_white, RESULT_DRAW, &rec))
        return true; /* not kept */
    uint8_t *p = record_append(w, PACKED_SIZE);
    if (!p)
        return false;
    memcpy(p, rec.b, PACKED_SIZE);
    w->positions++;
    return true;
}

/* The records get the game's result. */
static bool packed_finish(RecordWriter *w, int result_white)
{
    for (size_t at = 0; at < w->size; at += PACKED_SIZE) {
        PackedPos rec;
        memcpy(rec.b, w->bytes + at, PACKED_SIZE);
        packed_set_result(&rec, result_white);
        memcpy(w->bytes + at, rec.b, PACKED_SIZE);
    }
    return true;
}

static bool packed_ends_whole(long long size, const uint8_t *tail)
{
    (void)tail;
    return size % PACKED_SIZE == 0;
}

const RecordFormat RecordPacked = {.name = "packed",
                                   .unit = "32-byte record",
                                   .start = packed_start,
                                   .push = packed_push,
                                   .finish = packed_finish,
                                   .ends_whole = packed_ends_whole};
