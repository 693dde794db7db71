/* Openings of the self-play games and of genfens (openings.h): a book read
 * once, Chess960 start positions by number, and random plies verified by a
 * short search. */
#include "openings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/util.h"

/* ------------------------------------------------------------------------ */
/* The book                                                                 */

void book_free(Book *b)
{
    for (int i = 0; i < b->count; i++)
        free(b->fens[i]);
    free(b->fens);
    b->fens = NULL;
    b->count = 0;
}

/* The FEN of a book line: the four EPD fields and the counters, given as
 * FEN fields or as the EPD operations hmvc and fmvn (other operations are
 * ignored). "" for an empty or comment line. */
static void book_fen(const char *line, char *fen, size_t len)
{
    Tokens t = {line};
    char word[128], counters[2][24] = {"", ""};
    size_t n = 0, wlen;
    fen[0] = '\0';
    for (int field = 0; (wlen = tok_next(&t, word, sizeof word)) > 0; field++) {
        if (field == 0 && word[0] == '#')
            return;
        if (wlen >= sizeof word)
            word[0] = '\0'; /* too long: an empty field, which pos_set_fen refuses */
        bool counter = word[0] && strspn(word, "0123456789") == strlen(word)
                       && strlen(word) < sizeof counters[0];
        if (field < 4) {
            n += (size_t)snprintf(fen + n, n < len ? len - n : 0, "%s%s", field ? " " : "", word);
            continue;
        }
        if (counter && (field == 4 || (field == 5 && *counters[0]))) {
            snprintf(counters[field - 4], sizeof counters[0], "%.23s", word);
            continue;
        }
        int op = !strcmp(word, "hmvc") ? 0 : !strcmp(word, "fmvn") ? 1 : -1;
        if (op >= 0 && tok_next(&t, word, sizeof word) > 0) {
            word[strcspn(word, ";")] = '\0';
            if (*word && strspn(word, "0123456789") == strlen(word)
                && strlen(word) < sizeof counters[0])
                snprintf(counters[op], sizeof counters[0], "%.23s", word);
        }
    }
    if (*counters[0] || *counters[1])
        snprintf(fen + n, n < len ? len - n : 0, " %s %s", *counters[0] ? counters[0] : "0",
                 *counters[1] ? counters[1] : "1");
}

bool book_load(const char *path, Book *b, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read the book '%s': %s", path, strerror(errno));
        return false;
    }
    Position *pos = malloc(sizeof *pos);
    char *line = NULL;
    size_t cap = 0;
    int line_no = 0, room = 0;
    bool ok = pos != NULL;
    if (!ok)
        snprintf(err, errlen, "out of memory");
    while (ok && read_line(f, &line, &cap) >= 0) {
        line_no++;
        char fen[256], perr[200];
        book_fen(line, fen, sizeof fen);
        if (!*fen)
            continue;
        if (!pos_set_fen(pos, fen, false, perr, sizeof perr)
            && !pos_set_fen(pos, fen, true, perr, sizeof perr)) {
            snprintf(err, errlen, "book '%s' line %d: bad FEN: %s", path, line_no, perr);
            ok = false;
            break;
        }
        if (b->count == room) {
            room = room ? 2 * room : 256;
            char **grown = realloc(b->fens, (size_t)room * sizeof *grown);
            if (!grown) {
                snprintf(err, errlen, "out of memory");
                ok = false;
                break;
            }
            b->fens = grown;
        }
        if (!(b->fens[b->count] = strdup(fen))) {
            snprintf(err, errlen, "out of memory");
            ok = false;
            break;
        }
        b->count++;
    }
    if (ok && ferror(f)) {
        snprintf(err, errlen, "cannot read the book '%s'", path);
        ok = false;
    }
    if (ok && b->count == 0) {
        snprintf(err, errlen, "the book '%s' has no positions", path);
        ok = false;
    }
    free(line);
    free(pos);
    fclose(f);
    if (!ok)
        book_free(b);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Openings                                                                 */

/* The Chess960 start position number n (0-959; 518 is the standard one) in
 * the usual numbering: the light-squared bishop, the dark-squared bishop,
 * the queen on the n-th free square, the knights by a table of the ten ways
 * to place two on five free squares, then rook, king, rook. */
static void chess960_fen(int n, char *fen, size_t len)
{
    static const int Knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                       {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    char rank[9] = "........";
    int light = 2 * (n % 4) + 1, dark = 2 * (n / 4 % 4);
    rank[light] = 'B';
    rank[dark] = 'B';
    n /= 16;
    int free_sq[8] = {0}, nf = 0;
    for (int f = 0; f < 8; f++)
        if (rank[f] == '.')
            free_sq[nf++] = f;
    rank[free_sq[n % 6]] = 'Q';
    n /= 6;
    nf = 0;
    for (int f = 0; f < 8; f++)
        if (rank[f] == '.')
            free_sq[nf++] = f;
    rank[free_sq[Knights[n][0]]] = 'N';
    rank[free_sq[Knights[n][1]]] = 'N';
    static const char Rest[] = "RKR";
    for (int f = 0, k = 0; f < 8; f++)
        if (rank[f] == '.')
            rank[f] = Rest[k++];
    char lower[9];
    for (int f = 0; f < 9; f++)
        lower[f] = rank[f] >= 'A' && rank[f] <= 'Z' ? (char)(rank[f] - 'A' + 'a') : rank[f];
    snprintf(fen, len, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1", lower, rank);
}

/* The base position of an attempt: a book line, a Chess960 start or the
 * start position. False when a book line no longer parses. */
static bool opening_base(const OpeningRules *o, uint64_t seed, long long index, bool frc,
                         uint64_t *rng, Position *pos)
{
    char err[200];
    if (o->book) {
        uint64_t k = (mix64(seed) + (uint64_t)index) % (uint64_t)o->book->count;
        return pos_set_fen(pos, o->book->fens[k], false, err, sizeof err)
               || pos_set_fen(pos, o->book->fens[k], true, err, sizeof err);
    }
    if (frc) {
        char fen[128];
        chess960_fen((int)(rng_next(rng) % 960), fen, sizeof fen);
        return pos_set_fen(pos, fen, true, err, sizeof err);
    }
    return pos_set_fen(pos, START_FEN, false, err, sizeof err);
}

/* The decided tries are kept in best so that the closest can be given. */
bool opening_make(const OpeningRules *o, uint64_t seed, long long index, Search *s, Position *pos,
                  Position *best)
{
    uint64_t rng = mix64(seed ^ mix64((uint64_t)index + 1));
    bool frc = !o->book && o->frc > 0 && (int)(rng_next(&rng) % 100) < o->frc;
    int tries = o->random != 0 || frc ? OPENING_TRIES : 1, best_score = -1;
    for (int attempt = 0; attempt < tries; attempt++) {
        if (!opening_base(o, seed, index, frc, &rng, pos))
            return false;
        if (attempt == 0 && best_score < 0)
            memcpy(best, pos, sizeof *best);
        int plies = o->random >= 0 ? o->random : 8 + (int)(rng_next(&rng) & 1);
        bool ok = true;
        for (int ply = 0; ply < plies && ok; ply++) {
            MoveList list;
            gen_legal(pos, &list);
            ok = list.count > 0 && pos_game_state(pos) == GAME_ONGOING;
            if (ok)
                pos_make_game_move(pos, list.moves[rng_next(&rng) % (uint64_t)list.count]);
        }
        if (!ok || pos_game_state(pos) != GAME_ONGOING)
            continue;
        search_new_game(s);
        SearchResult res;
        search_position(s, pos, 0, OPENING_VERIFY_NODES, &res);
        int score = res.score < 0 ? -res.score : res.score;
        if (score <= OPENING_MAX_SCORE)
            return true;
        if (best_score < 0 || score < best_score) {
            best_score = score;
            memcpy(best, pos, sizeof *best);
        }
    }
    memcpy(pos, best, sizeof *pos);
    return false;
}
