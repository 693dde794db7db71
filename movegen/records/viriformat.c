/* The game format (viriformat.h): its writer, and a reader that checks every
 * game (a valid header, legal moves) before it yields positions. */
#include "viriformat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen.h"
#include "../util.h"

enum { VF_EP = 1, VF_CASTLING = 2, VF_PROMOTION = 3 };
enum { FLAG_BYTE = 31, FLAG_CHESS960 = 1 };

/* ------------------------------------------------------------------------ */
/* Moves                                                                    */

uint16_t vf_move_encode(move_t m)
{
    int kind = move_kind(m), type = kind == MOVE_EN_PASSANT  ? VF_EP
                                    : kind == MOVE_CASTLING  ? VF_CASTLING
                                    : kind == MOVE_PROMOTION ? VF_PROMOTION
                                                             : 0;
    int promo = kind == MOVE_PROMOTION ? move_promo(m) - KNIGHT : 0;
    return (uint16_t)(move_from(m) | move_to(m) << 6 | promo << 12 | type << 14);
}

move_t vf_move_decode(uint16_t v)
{
    int from = v & 63, to = (v >> 6) & 63, type = v >> 14;
    if (type == VF_PROMOTION)
        return move_make_promo(from, to, KNIGHT + ((v >> 12) & 3));
    return move_make_kind(from, to,
                          type == VF_EP         ? MOVE_EN_PASSANT
                          : type == VF_CASTLING ? MOVE_CASTLING
                                                : MOVE_NORMAL);
}

/* ------------------------------------------------------------------------ */
/* The writer (record.h)                                                    */

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* The header: the start position, its result set at the end. */
static bool vf_start(RecordWriter *w)
{
    PackedPos head;
    uint8_t *p;
    if (!packed_from_position(w->pos, 0, RESULT_DRAW, &head)) {
        w->error = "the start position has more than 32 pieces";
        return false;
    }
    if (!(p = record_append(w, VF_HEADER_SIZE)))
        return false;
    memcpy(p, head.b, VF_HEADER_SIZE);
    return true;
}

static bool vf_push(RecordWriter *w, move_t move, int score_white)
{
    if (w->plies >= VF_MAX_PLIES) {
        w->error = "more moves than the format takes";
        return false;
    }
    uint8_t *p = record_append(w, VF_ENTRY_SIZE);
    if (!p)
        return false;
    int s = score_white;
    s = s > PACKED_SCORE_MAX ? PACKED_SCORE_MAX : s < -PACKED_SCORE_MAX ? -PACKED_SCORE_MAX : s;
    put16(p, vf_move_encode(move));
    put16(p + 2, (uint16_t)(int16_t)s);
    w->positions++;
    return true;
}

/* The terminator (4 zero bytes), and the result in the header. */
static bool vf_finish(RecordWriter *w, int result_white)
{
    if (!record_append(w, VF_ENTRY_SIZE))
        return false;
    PackedPos head;
    memcpy(head.b, w->bytes, VF_HEADER_SIZE);
    packed_set_result(&head, result_white);
    memcpy(w->bytes, head.b, VF_HEADER_SIZE);
    return true;
}

static bool vf_ends_whole(long long size, const uint8_t *tail)
{
    return size >= VF_HEADER_SIZE + VF_ENTRY_SIZE && !memcmp(tail, "\0\0\0\0", VF_ENTRY_SIZE);
}

const RecordFormat RecordViriformat = {.name = "game",
                                       .unit = "game",
                                       .start = vf_start,
                                       .push = vf_push,
                                       .finish = vf_finish,
                                       .ends_whole = vf_ends_whole};

/* ------------------------------------------------------------------------ */
/* Filters                                                                  */

VfFilter vf_filter_default(void)
{
    return (VfFilter){
        .min_ply = 16, .max_score = VF_MATE_BOUND, .skip_in_check = true, .skip_noisy = true};
}

VfFilter vf_filter_none(void) { return (VfFilter){0, 0, false, false}; }

bool vf_filter_pass(const VfFilter *f, const Position *pos, move_t move, int score_white)
{
    if (pos->game_ply < f->min_ply)
        return false;
    if (f->max_score > 0 && (score_white >= f->max_score || score_white <= -f->max_score))
        return false;
    if (f->skip_in_check && pos_in_check(pos))
        return false;
    if (f->skip_noisy && (pos_is_capture(pos, move) || move_kind(move) == MOVE_PROMOTION))
        return false;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */

struct VfReader {
    FILE *f;
    char *path;
    long long offset; /* of the next record */
    long long games;  /* records read as games, bad ones too */
    move_t *moves;
    int16_t *scores;
    size_t cap; /* of moves and scores */
    int plies, result, next;
    bool have_game;
    Position start, pos;
};

VfReader *vf_open(const char *path, char *err, size_t errlen)
{
    VfReader *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        snprintf(err, errlen, "out of memory");
        free(r);
        return NULL;
    }
    if (!(r->f = fopen(path, "rb"))) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        free(r->path);
        free(r);
        return NULL;
    }
    return r;
}

void vf_close(VfReader *r)
{
    if (!r)
        return;
    if (r->f)
        fclose(r->f);
    free(r->moves);
    free(r->scores);
    free(r->path);
    free(r);
}

/* Reads exactly n bytes: 1 read, 0 end of file before the first byte, -1 a
 * part only or a read error. */
static int read_bytes(VfReader *r, uint8_t *buf, size_t n)
{
    size_t got = fread(buf, 1, n, r->f);
    r->offset += (long long)got;
    return got == n ? 1 : got == 0 && !ferror(r->f) ? 0 : -1;
}

static int fail(const VfReader *r, long long at, char *err, size_t errlen, const char *what)
{
    if (ferror(r->f))
        snprintf(err, errlen, "%s: cannot read at byte %lld: %s", r->path, at, strerror(errno));
    else
        snprintf(err, errlen, "%s: truncated: the file ends inside %s at byte %lld", r->path, what,
                 at);
    return RECORD_FAILED;
}

/* Skips an extension record whose 8 zero bytes are read: id, length, the
 * payload and 4 zero bytes. */
static int skip_extension(VfReader *r, long long at, char *err, size_t errlen)
{
    uint8_t buf[256];
    if (read_bytes(r, buf, 4) != 1)
        return fail(r, at, err, errlen, "an extension record");
    for (size_t left = get16(buf + 2); left > 0;) {
        size_t n = left < sizeof buf ? left : sizeof buf;
        if (read_bytes(r, buf, n) != 1)
            return fail(r, at, err, errlen, "an extension record");
        left -= n;
    }
    if (read_bytes(r, buf, VF_ENTRY_SIZE) != 1)
        return fail(r, at, err, errlen, "an extension record");
    if (memcmp(buf, "\0\0\0\0", VF_ENTRY_SIZE) != 0) {
        snprintf(err, errlen,
                 "%s: the extension record at byte %lld does not end with 4 zero bytes", r->path,
                 at);
        return RECORD_FAILED;
    }
    return RECORD_GAME;
}

/* Room for one more ply. */
static bool grow(VfReader *r)
{
    const GrowArray arrays[] = {{&r->moves, sizeof *r->moves}, {&r->scores, sizeof *r->scores}};
    return arrays_reserve(&r->cap, (size_t)r->plies + 1, arrays, 2);
}

/* Unpacks the header; a Chess960 start written without Rokade's flag (any
 * other writer) is tried again as Chess960. */
static bool unpack_header(VfReader *r, const uint8_t *head, char *why, size_t len)
{
    PackedPos p;
    memcpy(p.b, head, VF_HEADER_SIZE);
    p.b[FLAG_BYTE] &= FLAG_CHESS960; /* the rest of the byte is free for other writers */
    int score, result;
    if (!packed_to_position(&p, &r->start, &score, &result, why, len)) {
        if (p.b[FLAG_BYTE] & FLAG_CHESS960)
            return false;
        p.b[FLAG_BYTE] |= FLAG_CHESS960;
        char why960[8];
        if (!packed_to_position(&p, &r->start, &score, &result, why960, sizeof why960))
            return false;
    }
    r->start.shredder_castling = false; /* FENs print KQkq / X-FEN */
    r->result = result;
    return true;
}

int vf_next_game(VfReader *r, char *err, size_t errlen)
{
    uint8_t head[VF_HEADER_SIZE], e[VF_ENTRY_SIZE];
    r->have_game = false;
    for (;;) {
        long long at = r->offset;
        int got = read_bytes(r, head, 8);
        if (got == 0)
            return RECORD_END;
        if (got < 0)
            return fail(r, at, err, errlen, "a game header");
        if (memcmp(head, "\0\0\0\0\0\0\0\0", 8) == 0) {
            int st = skip_extension(r, at, err, errlen);
            if (st != RECORD_GAME)
                return st;
            continue;
        }
        if (read_bytes(r, head + 8, VF_HEADER_SIZE - 8) != 1)
            return fail(r, at, err, errlen, "a game header");
        r->games++;
        /* The entries up to the terminator, so that the stream stays in step
         * whatever is wrong with the game. */
        r->plies = 0;
        bool too_long = false;
        for (;;) {
            if (read_bytes(r, e, VF_ENTRY_SIZE) != 1)
                return fail(r, at, err, errlen, "a game");
            uint16_t mv = get16(e);
            if (mv == 0 && get16(e + 2) == 0)
                break;
            if (r->plies >= VF_MAX_PLIES) {
                too_long = true;
                continue;
            }
            if (!grow(r)) {
                snprintf(err, errlen, "%s: out of memory", r->path);
                return RECORD_FAILED;
            }
            r->moves[r->plies] = vf_move_decode(mv);
            r->scores[r->plies] = (int16_t)get16(e + 2);
            r->plies++;
        }
        char why[200];
        if (too_long) {
            snprintf(err, errlen, "%s: game %lld at byte %lld: more than %d plies", r->path,
                     r->games, at, VF_MAX_PLIES);
            return RECORD_BAD_GAME;
        }
        if (!unpack_header(r, head, why, sizeof why)) {
            snprintf(err, errlen, "%s: game %lld at byte %lld: bad start position: %s", r->path,
                     r->games, at, why);
            return RECORD_BAD_GAME;
        }
        /* Every move must be legal where it is played. */
        memcpy(&r->pos, &r->start, sizeof r->pos);
        for (int i = 0; i < r->plies; i++) {
            move_t m = r->moves[i];
            if (!pos_is_pseudo_legal(&r->pos, m) || !pos_is_legal(&r->pos, m)) {
                char fen[128];
                pos_get_fen(&r->pos, fen, sizeof fen);
                snprintf(err, errlen,
                         "%s: game %lld at byte %lld: ply %d: move 0x%04x is illegal in %s",
                         r->path, r->games, at, i + 1, vf_move_encode(m), fen);
                return RECORD_BAD_GAME;
            }
            pos_make_game_move(&r->pos, m);
        }
        memcpy(&r->pos, &r->start, sizeof r->pos);
        r->next = 0;
        r->have_game = true;
        return RECORD_GAME;
    }
}

RecordGame vf_game(const VfReader *r)
{
    return (RecordGame){r->have_game ? &r->start : NULL,
                        r->result,
                        r->have_game ? r->plies : 0,
                        r->moves,
                        r->scores,
                        r->games};
}

bool vf_next_position(VfReader *r, const VfFilter *f, VfPosition *out)
{
    if (!r->have_game)
        return false;
    while (r->next < r->plies) {
        int i = r->next++;
        if (i > 0)
            pos_make_game_move(&r->pos, r->moves[i - 1]);
        move_t m = r->moves[i];
        int s = r->scores[i];
        if (f && !vf_filter_pass(f, &r->pos, m, s))
            continue;
        bool white = r->pos.side == WHITE;
        out->pos = &r->pos;
        out->move = m;
        out->score_white = s;
        out->score = white ? s : -s;
        out->result_white = r->result;
        out->result = white ? r->result : RESULT_WHITE_WINS - r->result;
        out->ply = r->pos.game_ply;
        return true;
    }
    return false;
}
