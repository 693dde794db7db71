/* The PGN reader (pgn.h): a lexer over the file that counts lines, a SAN
 * reader that matches the legal moves, and a game builder that checks each
 * game before it is given. */
#include "pgn.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen.h"
#include "../notation.h"
#include "../score.h"
#include "../util.h"
#include "viriformat.h"

/* ------------------------------------------------------------------------ */
/* Lexer                                                                    */

typedef enum { TOK_EOF, TOK_TAG, TOK_COMMENT, TOK_SYMBOL } TokType;

enum { TEXT_MAX = TEXT_VALUE_MAX };

typedef struct {
    FILE *f;
    int line; /* of the next character */
    /* The token just read and the line it starts on. */
    TokType type;
    int tok_line;
    char name[64];       /* TOK_TAG */
    char text[TEXT_MAX]; /* tag value, comment or symbol (truncated) */
    bool long_text;      /* the symbol did not fit */
    bool bad_tag;        /* TOK_TAG: no name, or no quoted value closed on its line */
} Lexer;

static int lx_get(Lexer *lx)
{
    int c = getc(lx->f);
    if (c == '\n')
        lx->line++;
    return c;
}

static void lx_unget(Lexer *lx, int c)
{
    if (c == EOF)
        return;
    if (c == '\n')
        lx->line--;
    ungetc(c, lx->f);
}

static void lx_put(char *buf, size_t cap, size_t *n, int c)
{
    if (*n + 1 < cap)
        buf[(*n)++] = (char)c;
    buf[*n < cap ? *n : cap - 1] = '\0';
}

static bool is_symbol_char(int c) { return c != EOF && !isspace(c) && !strchr("{}()[];$\"", c); }

/* Skips a variation, whose comments may hold parentheses. */
static void lx_skip_variation(Lexer *lx)
{
    int depth = 1, c;
    while (depth > 0 && (c = lx_get(lx)) != EOF) {
        if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        else if (c == '{')
            while ((c = lx_get(lx)) != EOF && c != '}')
                ;
        else if (c == ';')
            while ((c = lx_get(lx)) != EOF && c != '\n')
                ;
    }
}

/* Reads the next tag, comment or symbol; variations, NAGs, rest-of-line
 * comments and escape lines are skipped. */
static TokType lx_next(Lexer *lx)
{
    int c;
    size_t n = 0;
    for (;;) {
        while ((c = lx_get(lx)) != EOF && isspace(c))
            ;
        lx->tok_line = lx->line;
        lx->text[0] = lx->name[0] = '\0';
        lx->long_text = lx->bad_tag = false;
        if (c == EOF)
            return lx->type = TOK_EOF;
        if (c == '%' || c == ';') {
            while ((c = lx_get(lx)) != EOF && c != '\n')
                ;
            continue;
        }
        if (c == '(') {
            lx_skip_variation(lx);
            continue;
        }
        if (c == '$') {
            while ((c = lx_get(lx)) != EOF && isdigit(c))
                ;
            lx_unget(lx, c);
            continue;
        }
        if (c == ')' || c == '}' || c == ']')
            continue; /* stray closers */
        break;
    }
    if (c == '{') {
        while ((c = lx_get(lx)) != EOF && c != '}')
            lx_put(lx->text, sizeof lx->text, &n, c == '\n' ? ' ' : c);
        return lx->type = TOK_COMMENT;
    }
    if (c == '[') {
        while ((c = lx_get(lx)) != EOF && isspace(c))
            ;
        while (c != EOF && is_symbol_char(c) && c != ']') {
            lx_put(lx->name, sizeof lx->name, &n, c);
            c = lx_get(lx);
        }
        lx->bad_tag = n == 0;
        n = 0;
        while (c != EOF && c != '"' && c != ']' && c != '\n')
            c = lx_get(lx);
        if (c == '"') {
            while ((c = lx_get(lx)) != EOF && c != '"' && c != '\n') {
                if (c == '\\' && (c = lx_get(lx)) == EOF)
                    break;
                lx_put(lx->text, sizeof lx->text, &n, c);
            }
            if (c != '"')
                lx->bad_tag = true;
            else
                c = lx_get(lx);
        } else
            lx->bad_tag = true;
        while (c != EOF && c != ']' && c != '\n')
            c = lx_get(lx);
        if (c != ']')
            lx->bad_tag = true;
        return lx->type = TOK_TAG;
    }
    while (is_symbol_char(c)) {
        if (n + 1 >= sizeof lx->text)
            lx->long_text = true;
        lx_put(lx->text, sizeof lx->text, &n, c);
        c = lx_get(lx);
    }
    lx_unget(lx, c);
    if (n == 0) {
        lx_put(lx->text, sizeof lx->text, &n, c == '"' ? '"' : '?');
        lx_get(lx); /* a lone quote outside a tag */
    }
    return lx->type = TOK_SYMBOL;
}

/* ------------------------------------------------------------------------ */
/* Moves                                                                    */

static const char *const PieceNames[] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};

static const char *square_name(int sq)
{
    static const char Names[64][3] = {
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2",
        "f2", "g2", "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4",
        "c4", "d4", "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5", "g5",
        "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "a7", "b7", "c7", "d7",
        "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"};
    return Names[sq & 63];
}

/* The legal move written `text` (SAN, with or without check marks and
 * annotations; long algebraic; UCI); MOVE_NONE with the reason in why. */
static move_t parse_move(const Position *pos, const char *text, char *why, size_t len)
{
    if (strlen(text) >= 16) {
        snprintf(why, len, "'%.20s...' is not a move", text);
        return MOVE_NONE;
    }
    /* Without check marks, annotations, capture signs and dashes (but
     * castling's). */
    char s[16];
    size_t n = 0;
    for (const char *p = text; *p; p++)
        if (!strchr("+#!?x-:", *p) || (*p == '-' && (p[1] == 'O' || p[1] == '0')))
            s[n++] = *p;
    s[n] = '\0';
    if (n == 0) {
        snprintf(why, len, "'%.20s' is not a move", text);
        return MOVE_NONE;
    }
    MoveList list;
    gen_legal(pos, &list);

    /* Castling: O-O, O-O-O (or with zeros). */
    if (!strcmp(s, "O-O") || !strcmp(s, "0-0") || !strcmp(s, "O-O-O") || !strcmp(s, "0-0-0")) {
        bool kingside = strlen(s) == 3;
        for (int i = 0; i < list.count; i++) {
            move_t m = list.moves[i];
            if (move_kind(m) == MOVE_CASTLING && (move_to(m) > move_from(m)) == kingside)
                return m;
        }
        snprintf(why, len, "illegal move '%.20s'", text);
        return MOVE_NONE;
    }
    /* UCI text (e2e4, e7e8q, e1h1). */
    if (n >= 4 && n <= 5 && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8' && s[2] >= 'a'
        && s[2] <= 'h' && s[3] >= '1' && s[3] <= '8' && (n == 4 || strchr("nbrq", s[4]))) {
        move_t m = move_from_uci(pos, s);
        if (m != MOVE_NONE)
            return m;
    }
    /* SAN: [piece][from file][from rank]to-square[=promotion]. */
    int pt = PAWN, promo = 0, from_file = -1, from_rank = -1;
    const char *p = s;
    if (strchr("NBRQK", *p))
        pt = (int)(strchr(" PNBRQK", *p++) - " PNBRQK");
    char body[16];
    size_t b = 0;
    for (; *p; p++) {
        if (*p == '=' || (pt == PAWN && b >= 2 && strchr("NBRQnbrq", *p))) {
            const char *q = *p == '=' ? p + 1 : p;
            const char *k = *q ? strchr("NBRQ", toupper((unsigned char)*q)) : NULL;
            if (!k || q[1]) {
                snprintf(why, len, "'%.20s' is not a move", text);
                return MOVE_NONE;
            }
            promo = KNIGHT + (int)(k - "NBRQ");
            break;
        }
        body[b++] = *p;
    }
    body[b] = '\0';
    if (b < 2 || b > 4 || body[b - 2] < 'a' || body[b - 2] > 'h' || body[b - 1] < '1'
        || body[b - 1] > '8') {
        snprintf(why, len, "'%.20s' is not a move", text);
        return MOVE_NONE;
    }
    int to = make_square(body[b - 2] - 'a', body[b - 1] - '1');
    for (size_t i = 0; i + 2 < b; i++) {
        if (body[i] >= 'a' && body[i] <= 'h')
            from_file = body[i] - 'a';
        else if (body[i] >= '1' && body[i] <= '8')
            from_rank = body[i] - '1';
        else {
            snprintf(why, len, "'%.20s' is not a move", text);
            return MOVE_NONE;
        }
    }
    move_t found = MOVE_NONE;
    int matches = 0;
    for (int i = 0; i < list.count; i++) {
        move_t m = list.moves[i];
        int from = move_from(m);
        if (move_kind(m) == MOVE_CASTLING || move_to(m) != to || piece_type(pos->board[from]) != pt
            || (from_file >= 0 && file_of(from) != from_file)
            || (from_rank >= 0 && rank_of(from) != from_rank))
            continue;
        if ((move_kind(m) == MOVE_PROMOTION ? move_promo(m) : 0) != promo)
            continue;
        found = m;
        matches++;
    }
    if (matches == 1)
        return found;
    if (matches) {
        snprintf(why, len, "ambiguous move '%.20s': more than one %s can go to %s", text,
                 PieceNames[pt], square_name(to));
        return MOVE_NONE;
    }
    /* Why no legal move fits: a move of the rules that would leave or put
     * the own king in check (3.9), or none at all. */
    bitboard_t from_bb = pos_pieces(pos, pos->side, pt);
    while (from_bb) {
        int from = pop_lsb(&from_bb);
        if ((from_file >= 0 && file_of(from) != from_file)
            || (from_rank >= 0 && rank_of(from) != from_rank))
            continue;
        move_t m = promo ? move_make_promo(from, to, promo) : move_make(from, to);
        if (pt == PAWN && !promo && pos_st(pos)->ep == to)
            m = move_make_kind(from, to, MOVE_EN_PASSANT);
        if (pos_is_pseudo_legal(pos, m) && !pos_is_legal(pos, m)) {
            snprintf(why, len,
                     "illegal move '%.20s': it would leave the %s king in check (Article 3.9)",
                     text, pos->side == WHITE ? "white" : "black");
            return MOVE_NONE;
        }
    }
    snprintf(why, len, "illegal move '%.20s': no %s %s can move to %s (Article 3)", text,
             pos->side == WHITE ? "white" : "black", PieceNames[pt], square_name(to));
    return MOVE_NONE;
}

/* The mover's score of a comment "+0.31/12 ...", "-M7/30 ..." in
 * centipawns; false when the comment does not start like that. */
static bool parse_score(const char *comment, int *score)
{
    const char *p = comment;
    while (isspace((unsigned char)*p))
        p++;
    int sign = 1;
    if (*p == '+' || *p == '-')
        sign = *p++ == '-' ? -1 : 1;
    long long v = 0;
    if (*p == 'M' || *p == '#') {
        p++;
        if (!isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p) && v < 1000)
            v = 10 * v + (*p++ - '0');
        if (v > MAX_PLY)
            v = MAX_PLY;
        v = SCORE_MATE - v;
    } else {
        if (!isdigit((unsigned char)*p))
            return false;
        long long pawns = 0, frac = 0, scale = 100;
        while (isdigit((unsigned char)*p) && pawns < 100000)
            pawns = 10 * pawns + (*p++ - '0');
        if (*p == '.') {
            p++;
            if (!isdigit((unsigned char)*p))
                return false;
            for (; isdigit((unsigned char)*p); p++)
                if (scale > 1)
                    scale /= 10, frac += (*p - '0') * scale;
        }
        v = pawns * 100 + frac;
        if (v >= VF_MATE_BOUND) /* never read as a mate */
            v = VF_MATE_BOUND - 1;
    }
    if (*p != '/' || !isdigit((unsigned char)p[1]))
        return false;
    *score = (int)(sign * v);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Games                                                                    */

typedef struct {
    Position *start, *pos;
    move_t *moves;
    int16_t *scores; /* White's view */
    int *lines;      /* of each move */
    uint8_t *state;  /* per move: 0 no comment yet, 1 scored, 2 book, 3 other */
    int plies;
    size_t cap; /* of moves, scores, lines and state */
    long long number;
    int start_line;
    bool in_game, moving, bad;
    bool whole;       /* the game just ended is good: start, moves + lead */
    int lead, result; /* of the game just ended */
    char why[400];
    char fen[TEXT_MAX], variant[64];
} Game;

enum { MOVE_UNSCORED, MOVE_SCORED, MOVE_BOOK };

static void game_reset(Game *g)
{
    g->plies = g->lead = 0;
    g->in_game = g->moving = g->bad = false;
    g->fen[0] = g->variant[0] = '\0';
}

static void game_bad(Game *g, int line, const char *fmt, const char *arg)
{
    if (g->bad)
        return;
    g->bad = true;
    int n = snprintf(g->why, sizeof g->why, "%d: ", line);
    snprintf(g->why + n, sizeof g->why - (size_t)n, fmt, arg);
}

/* Room for one more ply. */
static bool game_grow(Game *g)
{
    const GrowArray arrays[] = {{&g->moves, sizeof *g->moves},
                                {&g->scores, sizeof *g->scores},
                                {&g->lines, sizeof *g->lines},
                                {&g->state, sizeof *g->state}};
    return arrays_reserve(&g->cap, (size_t)g->plies + 1, arrays, 4);
}

static bool variant_is_960(const char *v, bool *known)
{
    static const char *const Standard[] = {"", "standard", "normal", "chess", NULL};
    static const char *const C960[] = {
        "chess960", "chess 960", "fischerandom", "fischer random", "frc", "960", NULL};
    char low[64];
    size_t i = 0;
    for (; v[i] && i + 1 < sizeof low; i++)
        low[i] = (char)tolower((unsigned char)v[i]);
    low[i] = '\0';
    *known = true;
    for (int k = 0; C960[k]; k++)
        if (!strcmp(low, C960[k]))
            return true;
    for (int k = 0; Standard[k]; k++)
        if (!strcmp(low, Standard[k]))
            return false;
    *known = false;
    return false;
}

/* The start position of the Variant and FEN tags (empty when absent): the
 * start position, or the FEN (in Chess960 when the variant says so or the
 * FEN needs it); false with the reason in why. */
static bool tags_start(const char *variant, const char *fen, Position *start, char *why, size_t len)
{
    bool known, c960 = variant_is_960(variant, &known);
    if (!known) {
        snprintf(why, len, "variant '%.60s' is not chess or Chess960", variant);
        return false;
    }
    char err[200];
    if (!*fen)
        return pos_set_fen(start, START_FEN, c960, err, sizeof err);
    if (!pos_set_fen(start, fen, c960, err, sizeof err)
        && (c960 || !pos_set_fen(start, fen, true, err, sizeof err))) {
        snprintf(why, len, "bad FEN tag: %s", err);
        return false;
    }
    return true;
}

/* The start position from the tags, before the first move. */
static void game_begin_moves(Game *g, int line)
{
    g->moving = true;
    char why[300];
    if (!tags_start(g->variant, g->fen, g->start, why, sizeof why)) {
        game_bad(g, line, "%s", why);
        return;
    }
    memcpy(g->pos, g->start, sizeof *g->pos);
}

static void game_move(Game *g, const char *text, int line)
{
    if (!g->moving)
        game_begin_moves(g, line);
    if (g->bad)
        return;
    char why[200];
    move_t m = parse_move(g->pos, text, why, sizeof why);
    if (m == MOVE_NONE) {
        game_bad(g, line, "%s", why);
        return;
    }
    if (g->plies >= VF_MAX_PLIES) {
        game_bad(g, line, "%s", "more moves than the format takes");
        return;
    }
    if (!game_grow(g)) {
        game_bad(g, line, "%s", "out of memory");
        return;
    }
    g->moves[g->plies] = m;
    g->scores[g->plies] = 0;
    g->lines[g->plies] = line;
    g->state[g->plies] = MOVE_UNSCORED;
    g->plies++;
    pos_make_game_move(g->pos, m);
}

/* The first comment after a move: its score, or "book". */
static void game_comment(Game *g, const char *text, int line)
{
    if (!g->moving || g->bad || g->plies == 0 || g->state[g->plies - 1] != MOVE_UNSCORED)
        return;
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (!strncmp(p, "book", 4)) {
        g->state[g->plies - 1] = MOVE_BOOK;
        return;
    }
    int score;
    if (!parse_score(p, &score)) {
        game_bad(g, line, "unreadable comment '{%.60s}' (not score/depth)", p);
        return;
    }
    /* The mover is the side not to move now. */
    g->scores[g->plies - 1] = (int16_t)(g->pos->side == BLACK ? score : -score);
    g->state[g->plies - 1] = MOVE_SCORED;
}

/* Ends the game with its termination marker; NULL: cut off by the next
 * game's tags on `line`, or by the end of the file (line 0). RECORD_GAME
 * when it is whole: the leading moves without a score are played on the
 * start position, and the game is kept until the next one begins. */
static int game_end(Game *g, const char *result, int line)
{
    if (!result) {
        char where[64] = "before the end of the file";
        if (line)
            snprintf(where, sizeof where, "before line %d", line);
        game_bad(g, g->start_line, "the game is cut off: no result %s", where);
    } else if (!strcmp(result, "*"))
        game_bad(g, line, "%s", "unfinished game (*)");
    if (!g->bad && !g->moving)
        game_bad(g, line, "%s", "no moves");
    /* Leading moves without a score (book) move the start; after them every
     * move needs its score. */
    int lead = 0;
    while (!g->bad && lead < g->plies && g->state[lead] != MOVE_SCORED)
        lead++;
    for (int i = lead; !g->bad && i < g->plies; i++)
        if (g->state[i] != MOVE_SCORED)
            game_bad(g, g->lines[i], "%s",
                     g->state[i] == MOVE_BOOK ? "a book move after scored ones"
                                              : "a move without a score comment");
    if (!g->bad && lead == g->plies)
        game_bad(g, line, "%s", "no scored moves");
    g->in_game = g->moving = false;
    if (g->bad)
        return RECORD_BAD_GAME;
    g->result = result && !strcmp(result, "1-0")   ? RESULT_WHITE_WINS
                : result && !strcmp(result, "0-1") ? RESULT_BLACK_WINS
                                                   : RESULT_DRAW;
    for (int i = 0; i < lead; i++)
        pos_make_game_move(g->start, g->moves[i]);
    g->lead = lead;
    g->whole = true;
    return RECORD_GAME;
}

static void game_start(Game *g, int line)
{
    game_reset(g);
    g->in_game = true;
    g->number++;
    g->start_line = line;
}

/* The move in a symbol past its move number ("12." or "12...", perhaps glued
 * to the move: "1.e4"); NULL when the symbol is only a move number. */
static const char *symbol_move(const char *sym)
{
    const char *q = sym;
    while (isdigit((unsigned char)*q))
        q++;
    if (q == sym)
        return sym;
    if (*q == '.') {
        while (*q == '.')
            q++;
        return *q ? q : NULL;
    }
    return *q ? sym : NULL;
}

static bool is_result(const char *s)
{
    return !strcmp(s, "1-0") || !strcmp(s, "0-1") || !strcmp(s, "1/2-1/2") || !strcmp(s, "*");
}

/* ------------------------------------------------------------------------ */
/* The reader                                                               */

struct PgnReader {
    char *path;
    Lexer lx;
    bool held; /* the token in lx is still to be read (the tags that cut off a game) */
    Game g;
};

PgnReader *pgn_open(const char *path, char *err, size_t errlen)
{
    PgnReader *r = calloc(1, sizeof *r);
    if (r) {
        r->path = strdup(path);
        r->g.start = malloc(sizeof *r->g.start);
        r->g.pos = malloc(sizeof *r->g.pos);
    }
    if (!r || !r->path || !r->g.start || !r->g.pos) {
        snprintf(err, errlen, "out of memory");
        pgn_close(r);
        return NULL;
    }
    r->lx.line = 1;
    if (!(r->lx.f = fopen(path, "r"))) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        pgn_close(r);
        return NULL;
    }
    return r;
}

void pgn_close(PgnReader *r)
{
    if (!r)
        return;
    if (r->lx.f)
        fclose(r->lx.f);
    free(r->path);
    free(r->g.start);
    free(r->g.pos);
    free(r->g.moves);
    free(r->g.scores);
    free(r->g.lines);
    free(r->g.state);
    free(r);
}

/* A bad game's message: "FILE:LINE: reason". */
static int bad_game(const PgnReader *r, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s:%s", r->path, r->g.why);
    return RECORD_BAD_GAME;
}

int pgn_next_game(PgnReader *r, char *err, size_t errlen)
{
    Game *g = &r->g;
    Lexer *lx = &r->lx;
    g->whole = false;
    for (;;) {
        TokType t = r->held ? lx->type : lx_next(lx);
        r->held = false;
        if (t == TOK_EOF) {
            if (g->in_game)
                return game_end(g, NULL, 0) == RECORD_GAME ? RECORD_GAME : bad_game(r, err, errlen);
            if (ferror(lx->f)) {
                snprintf(err, errlen, "cannot read '%s'", r->path);
                return RECORD_FAILED;
            }
            return RECORD_END;
        }
        if (t == TOK_TAG) {
            if (g->in_game && g->moving) { /* no result before these tags */
                r->held = true;
                return game_end(g, NULL, lx->tok_line) == RECORD_GAME ? RECORD_GAME
                                                                      : bad_game(r, err, errlen);
            }
            if (!g->in_game)
                game_start(g, lx->tok_line);
            if (!strcmp(lx->name, "FEN"))
                snprintf(g->fen, sizeof g->fen, "%s", lx->text);
            else if (!strcmp(lx->name, "Variant"))
                snprintf(g->variant, sizeof g->variant, "%.63s", lx->text);
            continue;
        }
        if (t == TOK_COMMENT) {
            game_comment(g, lx->text, lx->tok_line);
            continue;
        }
        /* A symbol: a move number, a move or a result. */
        if (!g->in_game)
            game_start(g, lx->tok_line);
        if (is_result(lx->text))
            return game_end(g, lx->text, lx->tok_line) == RECORD_GAME ? RECORD_GAME
                                                                      : bad_game(r, err, errlen);
        const char *s = symbol_move(lx->text);
        if (!s)
            continue;
        if (lx->long_text)
            game_bad(g, lx->tok_line, "'%.40s...' is not a move", lx->text);
        else
            game_move(g, s, lx->tok_line);
    }
}

RecordGame pgn_game(const PgnReader *r)
{
    const Game *g = &r->g;
    return (RecordGame){g->whole ? g->start : NULL,
                        g->result,
                        g->whole ? g->plies - g->lead : 0,
                        g->moves ? g->moves + g->lead : NULL,
                        g->scores ? g->scores + g->lead : NULL,
                        g->number};
}

int pgn_line(const PgnReader *r) { return r->lx.tok_line; }

/* ------------------------------------------------------------------------ */
/* Games as they were played                                                */

struct PgnPlayedReader {
    char *path;
    Lexer lx;
    bool owns_file;
    bool held; /* the token in lx is the next game's first */
    long long number;
    Position *start, *pos;
    PgnTag *tags;
    size_t tag_cap;
    int tag_count;
    PgnMove *moves;
    size_t move_cap;
    int move_count;
    int start_line;
    bool moving, bad, stopped;
    char fen[TEXT_MAX], variant[64];
    char why[400];
    PgnPlayedGame game;
};

static PgnPlayedReader *played_new(const char *name, char *err, size_t errlen)
{
    PgnPlayedReader *r = calloc(1, sizeof *r);
    if (r) {
        r->path = strdup(name);
        r->start = malloc(sizeof *r->start);
        r->pos = malloc(sizeof *r->pos);
    }
    if (!r || !r->path || !r->start || !r->pos) {
        snprintf(err, errlen, "out of memory");
        pgn_played_close(r);
        return NULL;
    }
    r->lx.line = 1;
    return r;
}

PgnPlayedReader *pgn_played_open(const char *path, char *err, size_t errlen)
{
    PgnPlayedReader *r = played_new(path, err, errlen);
    if (r && !(r->lx.f = fopen(path, "r"))) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        pgn_played_close(r);
        return NULL;
    }
    if (r)
        r->owns_file = true;
    return r;
}

PgnPlayedReader *pgn_played_open_stream(FILE *f, const char *name, char *err, size_t errlen)
{
    PgnPlayedReader *r = played_new(name, err, errlen);
    if (r)
        r->lx.f = f;
    return r;
}

void pgn_played_close(PgnPlayedReader *r)
{
    if (!r)
        return;
    if (r->lx.f && r->owns_file)
        fclose(r->lx.f);
    free(r->path);
    free(r->start);
    free(r->pos);
    free(r->tags);
    free(r->moves);
    free(r);
}

static void played_bad(PgnPlayedReader *r, int line, const char *fmt, const char *arg)
{
    if (r->bad)
        return;
    r->bad = true;
    int n = snprintf(r->why, sizeof r->why, "%s:%d: game %lld: ", r->path, line, r->number);
    if (n > 0 && (size_t)n < sizeof r->why)
        snprintf(r->why + n, sizeof r->why - (size_t)n, fmt, arg);
}

static void played_start(PgnPlayedReader *r, int line)
{
    r->number++;
    r->start_line = line;
    r->tag_count = r->move_count = 0;
    r->moving = r->bad = r->stopped = false;
    r->fen[0] = r->variant[0] = '\0';
    memset(&r->game, 0, sizeof r->game);
}

static void played_tag(PgnPlayedReader *r, const Lexer *lx)
{
    if (lx->bad_tag) {
        played_bad(r, lx->tok_line, "malformed tag '%s' (a tag is [Name \"value\"])",
                   *lx->name ? lx->name : "[");
        return;
    }
    const GrowArray a = {&r->tags, sizeof *r->tags};
    if (!arrays_reserve(&r->tag_cap, (size_t)r->tag_count + 1, &a, 1)) {
        played_bad(r, lx->tok_line, "%s", "out of memory");
        return;
    }
    PgnTag *t = &r->tags[r->tag_count++];
    snprintf(t->name, sizeof t->name, "%s", lx->name);
    snprintf(t->value, sizeof t->value, "%s", lx->text);
    if (!strcmp(lx->name, "FEN"))
        snprintf(r->fen, sizeof r->fen, "%s", lx->text);
    else if (!strcmp(lx->name, "Variant"))
        snprintf(r->variant, sizeof r->variant, "%.63s", lx->text);
}

/* The start position from the tags, before the first move. */
static void played_begin_moves(PgnPlayedReader *r, int line)
{
    r->moving = true;
    char why[300];
    if (!tags_start(r->variant, r->fen, r->start, why, sizeof why)) {
        played_bad(r, line, "%s", why);
        return;
    }
    memcpy(r->pos, r->start, sizeof *r->pos);
}

/* Whether text is written like a move (SAN, long algebraic, UCI, castling),
 * whatever the position. */
static bool looks_like_move(const char *text)
{
    size_t n = strlen(text);
    if (n < 2 || n > 12)
        return false;
    for (const char *p = text; *p; p++)
        if (!strchr("abcdefgh12345678NBRQKOo0x-=+#!?:nbrq", *p))
            return false;
    if (text[0] == 'O' || text[0] == '0')
        return !strncmp(text, "O-O", 3) || !strncmp(text, "0-0", 3);
    for (const char *p = text; p[1]; p++)
        if (*p >= 'a' && *p <= 'h' && p[1] >= '1' && p[1] <= '8')
            return true;
    return false;
}

static void played_move(PgnPlayedReader *r, const char *text, int line)
{
    if (!r->moving)
        played_begin_moves(r, line);
    if (r->bad || r->stopped)
        return;
    char why[200];
    move_t m = parse_move(r->pos, text, why, sizeof why);
    if (m == MOVE_NONE) {
        if (!looks_like_move(text)) {
            played_bad(r, line, "'%s' is not a move", text);
            return;
        }
        /* Written as a move but not playable: the game is given up to it. */
        r->stopped = true;
        r->game.stop_line = line;
        snprintf(r->game.stop_text, sizeof r->game.stop_text, "%.23s", text);
        snprintf(r->game.stop_why, sizeof r->game.stop_why, "%s", why);
        return;
    }
    const GrowArray a = {&r->moves, sizeof *r->moves};
    if (!arrays_reserve(&r->move_cap, (size_t)r->move_count + 1, &a, 1)) {
        played_bad(r, line, "%s", "out of memory");
        return;
    }
    PgnMove *pm = &r->moves[r->move_count++];
    pm->move = m;
    pm->line = line;
    pm->clk_ms = -1;
    snprintf(pm->text, sizeof pm->text, "%.23s", text);
    pos_make_game_move(r->pos, m);
}

/* "[%clk 1:23:45.6]" in a comment: the milliseconds; -1 when absent or bad. */
static int64_t parse_clock(const char *comment)
{
    const char *p = strstr(comment, "[%clk");
    if (!p)
        return -1;
    p += 5;
    while (*p == ' ')
        p++;
    long long part[3] = {0, 0, 0};
    int parts = 0;
    while (parts < 3 && isdigit((unsigned char)*p)) {
        long long v = 0;
        while (isdigit((unsigned char)*p) && v < 100000)
            v = 10 * v + (*p++ - '0');
        part[parts++] = v;
        if (*p != ':')
            break;
        p++;
    }
    if (parts == 0)
        return -1;
    long long ms = 0;
    for (int i = 0; i < parts; i++)
        ms = ms * 60 + part[i];
    ms *= 1000;
    if (*p == '.') {
        long long scale = 100;
        for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
            ms += (*p - '0') * scale;
    }
    while (*p == ' ')
        p++;
    return *p == ']' ? ms : -1;
}

static void played_comment(PgnPlayedReader *r, const char *text)
{
    if (r->bad || r->stopped || r->move_count == 0)
        return;
    int64_t clk = parse_clock(text);
    if (clk >= 0)
        r->moves[r->move_count - 1].clk_ms = clk;
}

/* The game just ended with `result` (NULL: cut off before `line`, 0: the end
 * of the file). */
static int played_end(PgnPlayedReader *r, const char *result, int line, char *err, size_t errlen)
{
    if (!result) {
        char where[64] = "before the end of the file";
        if (line)
            snprintf(where, sizeof where, "before line %d", line);
        played_bad(r, r->start_line, "the game is cut off: no result %s", where);
    }
    if (!r->moving && !r->bad)
        played_begin_moves(r, r->start_line); /* a game of no moves: its start stands */
    if (r->bad) {
        snprintf(err, errlen, "%s", r->why);
        return RECORD_BAD_GAME;
    }
    PgnPlayedGame *g = &r->game;
    g->number = r->number;
    g->line = r->start_line;
    g->tags = r->tags;
    g->tag_count = r->tag_count;
    g->start = r->start;
    g->moves = r->moves;
    g->move_count = r->move_count;
    g->stopped = r->stopped;
    snprintf(g->result, sizeof g->result, "%.7s", result ? result : "*");
    return RECORD_GAME;
}

int pgn_played_next(PgnPlayedReader *r, char *err, size_t errlen)
{
    Lexer *lx = &r->lx;
    bool in_game = false;
    for (;;) {
        TokType t = r->held ? lx->type : lx_next(lx);
        r->held = false;
        if (t == TOK_EOF) {
            if (in_game)
                return played_end(r, NULL, 0, err, errlen);
            if (ferror(lx->f)) {
                snprintf(err, errlen, "cannot read '%s'", r->path);
                return RECORD_FAILED;
            }
            return RECORD_END;
        }
        if (t == TOK_TAG) {
            if (in_game && r->moving) { /* no result before these tags */
                r->held = true;
                return played_end(r, NULL, lx->tok_line, err, errlen);
            }
            if (!in_game) {
                played_start(r, lx->tok_line);
                in_game = true;
            }
            played_tag(r, lx);
            continue;
        }
        if (!in_game) {
            played_start(r, lx->tok_line);
            in_game = true;
        }
        if (t == TOK_COMMENT) {
            played_comment(r, lx->text);
            continue;
        }
        if (is_result(lx->text))
            return played_end(r, lx->text, lx->tok_line, err, errlen);
        const char *s = symbol_move(lx->text);
        if (!s)
            continue;
        if (lx->long_text)
            played_bad(r, lx->tok_line, "'%.40s...' is not a move", lx->text);
        else
            played_move(r, s, lx->tok_line);
    }
}

const PgnPlayedGame *pgn_played_game(const PgnPlayedReader *r) { return &r->game; }
