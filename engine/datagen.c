/* Self-play data generation (datagen.h). Every worker owns a search
 * instance and a game buffer; a game's randomness depends only on the seed
 * and the game's number, so with one thread the output is a function of the
 * options. */
#include "datagen.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../movegen/movegen.h"
#include "../movegen/packed.h"
#include "../movegen/score.h"
#include "../search/search.h"
#include "../search/timeman.h"

/* ------------------------------------------------------------------------ */
/* Rules of the generated games                                             */

enum { MAX_GAME_PLIES = 400 };           /* searched plies; then a draw */
static const int OPENING_MAX_SCORE = 400; /* a decided opening is drawn again */
static const int OPENING_TRIES = 64;
static const int WIN_SCORE = 2000, WIN_PLIES = 4;     /* one side this far ahead: a win */
static const int DRAW_SCORE = 8, DRAW_PLIES = 16, DRAW_MIN_PLY = 100; /* dead level: a draw */
static const int PROGRESS_MS = 5000;
enum { MAX_THREADS = 1024 };

const char *const DatagenUsage[] = {
    "datagen out FILE [games N] [threads N] [nodes N] [random N] [book FILE] [seed N]",
    "  self-play games for tuning; quiet positions go to FILE as 32-byte records",
    "  (appended), with the search score and the game result",
    "  out FILE      the output file (required)",
    "  games N       games to play (default 1000)",
    "  threads N     worker threads, each with its own search (default: every CPU)",
    "  nodes N       nodes per move (default 5000)",
    "  random N      random plies from the start or book position (default 8; 0 with a book)",
    "  book FILE     openings, one FEN or EPD per line (# starts a comment)",
    "  seed N        seed of the random plies (default: from the clock; printed)",
    NULL};

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t rng_next(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ull;
    return mix64(*state);
}

static bool next_word(const char **p, char *buf, size_t len)
{
    while (**p && isspace((unsigned char)**p))
        (*p)++;
    if (!**p)
        return false;
    size_t n = 0;
    bool fits = true;
    while (**p && !isspace((unsigned char)**p)) {
        if (n + 1 < len)
            buf[n++] = **p;
        else
            fits = false;
        (*p)++;
    }
    buf[n] = '\0';
    if (!fits)
        buf[0] = '\0'; /* too long: an empty word, which every caller refuses */
    return true;
}

static bool number(const char *name, const char *v, long long min, long long max, long long *out,
                   char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (!*v || *end || errno || x < min || x > max) {
        snprintf(err, errlen, "%s: '%s' is not a number from %lld to %lld", name, v, min, max);
        return false;
    }
    *out = x;
    return true;
}

bool datagen_parse(const char *args, DatagenOptions *opt, char *err, size_t errlen)
{
    memset(opt, 0, sizeof *opt);
    opt->games = DATAGEN_GAMES;
    opt->nodes = DATAGEN_NODES;
    opt->random = -1;
    const char *p = args ? args : "";
    char name[64], value[1024];
    long long v;
    while (next_word(&p, name, sizeof name)) {
        if (!*name) {
            snprintf(err, errlen, "unknown option (too long)");
            return false;
        }
        bool is_path = !strcmp(name, "out") || !strcmp(name, "book");
        bool known = is_path || !strcmp(name, "games") || !strcmp(name, "threads")
                     || !strcmp(name, "nodes") || !strcmp(name, "random") || !strcmp(name, "seed");
        if (!known) {
            snprintf(err, errlen,
                     "unknown option '%s' (options: out games threads nodes random book seed)",
                     name);
            return false;
        }
        if (!next_word(&p, value, sizeof value)) {
            snprintf(err, errlen, "option '%s' needs a value", name);
            return false;
        }
        if (!*value) {
            snprintf(err, errlen, "option '%s': the value is too long", name);
            return false;
        }
        if (!strcmp(name, "out"))
            snprintf(opt->out, sizeof opt->out, "%s", value);
        else if (!strcmp(name, "book"))
            snprintf(opt->book, sizeof opt->book, "%s", value);
        else if (!strcmp(name, "games")) {
            if (!number(name, value, 1, 1000000000000LL, &v, err, errlen))
                return false;
            opt->games = v;
        } else if (!strcmp(name, "threads")) {
            if (!number(name, value, 1, MAX_THREADS, &v, err, errlen))
                return false;
            opt->threads = (int)v;
        } else if (!strcmp(name, "nodes")) {
            if (!number(name, value, 1, 1000000000LL, &v, err, errlen))
                return false;
            opt->nodes = (uint64_t)v;
        } else if (!strcmp(name, "random")) {
            if (!number(name, value, 0, 100, &v, err, errlen))
                return false;
            opt->random = (int)v;
        } else {
            if (!number(name, value, 0, 0x7FFFFFFFFFFFFFFFLL, &v, err, errlen))
                return false;
            opt->seed = (uint64_t)v;
            opt->seed_given = true;
        }
    }
    if (!*opt->out) {
        snprintf(err, errlen, "'out FILE' is required");
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* The opening book                                                         */

typedef struct {
    char **fens;
    int count;
} Book;

static void book_free(Book *b)
{
    for (int i = 0; i < b->count; i++)
        free(b->fens[i]);
    free(b->fens);
    b->fens = NULL;
    b->count = 0;
}

/* The FEN of a book line: the four EPD fields and the counters when given
 * (EPD operations after them are ignored). "" for an empty or comment line. */
static void book_fen(const char *line, char *fen, size_t len)
{
    const char *p = line;
    char word[128];
    size_t n = 0;
    fen[0] = '\0';
    for (int field = 0; field < 6 && next_word(&p, word, sizeof word); field++) {
        if (field == 0 && word[0] == '#')
            break;
        bool counter = word[0] && strspn(word, "0123456789") == strlen(word);
        if (field >= 4 && !counter)
            break;
        n += (size_t)snprintf(fen + n, n < len ? len - n : 0, "%s%s", field ? " " : "", word);
        if (n >= len)
            break;
    }
}

static bool book_load(const char *path, Book *b, char *err, size_t errlen)
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
    while (ok && getline(&line, &cap, f) != -1) {
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
/* Games                                                                    */

typedef struct {
    const DatagenOptions *opt;
    const Book *book;
    int random;
    uint64_t seed;
    FILE *out;
    _Atomic long long next_game;
    pthread_mutex_t lock; /* guards what follows */
    pthread_cond_t done;  /* a worker ended */
    int running;
    DatagenStats stats;
    bool failed;
    char err[1200];
} Run;

typedef struct {
    Position start, pos;
    int plies;
    move_t moves[MAX_GAME_PLIES];
    int16_t scores[MAX_GAME_PLIES]; /* White's view */
    bool keep[MAX_GAME_PLIES];
    PackedPos recs[MAX_GAME_PLIES];
} Game;

static bool game_over(const Position *pos) { return pos_game_state(pos) != GAME_ONGOING; }

/* The opening of game `index`: the book or start position, the random
 * plies, and a search that finds it still open. False if none was found. */
static bool make_opening(const Run *r, Search *s, Game *g, long long index)
{
    uint64_t rng = mix64(r->seed ^ mix64((uint64_t)index + 1));
    int tries = r->random > 0 ? OPENING_TRIES : 1;
    char err[200];
    for (int attempt = 0; attempt < tries; attempt++) {
        if (r->book) {
            uint64_t k = (mix64(r->seed) + (uint64_t)index) % (uint64_t)r->book->count;
            if (!pos_set_fen(&g->pos, r->book->fens[k], false, err, sizeof err)
                && !pos_set_fen(&g->pos, r->book->fens[k], true, err, sizeof err))
                return false;
        } else
            pos_set_startpos(&g->pos);
        bool ok = true;
        for (int ply = 0; ply < r->random && ok; ply++) {
            MoveList list;
            gen_legal(&g->pos, &list);
            ok = list.count > 0 && !game_over(&g->pos);
            if (ok)
                pos_make_game_move(&g->pos, list.moves[rng_next(&rng) % (uint64_t)list.count]);
        }
        if (!ok || game_over(&g->pos))
            continue;
        search_new_game(s);
        SearchResult res;
        search_position(s, &g->pos, 0, r->opt->nodes, &res);
        if (res.score > OPENING_MAX_SCORE || res.score < -OPENING_MAX_SCORE)
            continue;
        memcpy(&g->start, &g->pos, sizeof g->start);
        return true;
    }
    return false;
}

/* Plays the game from g->pos; returns the result from White's view. */
static int play_game(const Run *r, Search *s, Game *g)
{
    int win_streak = 0; /* > 0: plies with White far ahead; < 0: Black */
    int draw_streak = 0;
    g->plies = 0;
    for (;;) {
        Position *pos = &g->pos;
        GameState gs = pos_game_state(pos);
        if (gs == GAME_CHECKMATE)
            return pos->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
        if (gs != GAME_ONGOING || g->plies >= MAX_GAME_PLIES)
            return RESULT_DRAW; /* threefold and 50 moves are claimed */

        SearchResult res;
        search_position(s, pos, 0, r->opt->nodes, &res);
        if (res.depth < 1) /* too few nodes for one iteration */
            search_position(s, pos, 1, 0, &res);
        const move_t m = res.best;
        const int score = res.score;
        const int white = pos->side == WHITE ? score : -score;
        g->moves[g->plies] = m;
        g->scores[g->plies] = (int16_t)(white > PACKED_SCORE_MAX    ? PACKED_SCORE_MAX
                                        : white < -PACKED_SCORE_MAX ? -PACKED_SCORE_MAX
                                                                    : white);
        g->keep[g->plies] = !pos_in_check(pos) && !pos_is_capture(pos, m)
                            && move_kind(m) != MOVE_PROMOTION && !is_mate_score(score)
                            && score < DATAGEN_SCORE_BOUND && score > -DATAGEN_SCORE_BOUND;
        g->plies++;

        /* Adjudication: far ahead for several plies wins; level late on draws. */
        if (white >= WIN_SCORE)
            win_streak = win_streak > 0 ? win_streak + 1 : 1;
        else if (white <= -WIN_SCORE)
            win_streak = win_streak < 0 ? win_streak - 1 : -1;
        else
            win_streak = 0;
        if (win_streak >= WIN_PLIES)
            return RESULT_WHITE_WINS;
        if (win_streak <= -WIN_PLIES)
            return RESULT_BLACK_WINS;
        draw_streak = white <= DRAW_SCORE && white >= -DRAW_SCORE ? draw_streak + 1 : 0;
        if (g->plies >= DRAW_MIN_PLY && draw_streak >= DRAW_PLIES)
            return RESULT_DRAW;

        pos_make_game_move(pos, m);
    }
}

/* Packs the kept positions of the game with its result; returns how many. */
static int pack_game(Game *g, int result)
{
    memcpy(&g->pos, &g->start, sizeof g->pos);
    int n = 0;
    for (int i = 0; i < g->plies; i++) {
        if (g->keep[i] && packed_from_position(&g->pos, g->scores[i], result, &g->recs[n]))
            n++;
        pos_make_game_move(&g->pos, g->moves[i]);
    }
    return n;
}

static void fail(Run *r, const char *msg)
{
    pthread_mutex_lock(&r->lock);
    if (!r->failed) {
        r->failed = true;
        snprintf(r->err, sizeof r->err, "%s", msg);
    }
    pthread_mutex_unlock(&r->lock);
}

static void *worker_main(void *arg)
{
    Run *r = arg;
    Search *s = search_create(DATAGEN_TT_MB);
    Game *g = calloc(1, sizeof *g); /* pos_set_startpos keeps g->pos.chess960: false */
    if (!s || !g)
        fail(r, "out of memory for a worker");
    while (s && g) {
        long long index = atomic_fetch_add(&r->next_game, 1);
        pthread_mutex_lock(&r->lock);
        bool stop = r->failed;
        pthread_mutex_unlock(&r->lock);
        if (index >= r->opt->games || stop)
            break;
        if (!make_opening(r, s, g, index)) {
            pthread_mutex_lock(&r->lock);
            r->stats.skipped++;
            pthread_mutex_unlock(&r->lock);
            continue;
        }
        int result = play_game(r, s, g);
        int n = pack_game(g, result);
        pthread_mutex_lock(&r->lock);
        if (!r->failed && fwrite(g->recs, sizeof g->recs[0], (size_t)n, r->out) != (size_t)n) {
            r->failed = true;
            snprintf(r->err, sizeof r->err, "cannot write to '%s': %s", r->opt->out,
                     strerror(errno));
        }
        r->stats.games++;
        r->stats.positions += n;
        r->stats.white_wins += result == RESULT_WHITE_WINS;
        r->stats.draws += result == RESULT_DRAW;
        r->stats.black_wins += result == RESULT_BLACK_WINS;
        pthread_mutex_unlock(&r->lock);
    }
    search_destroy(s);
    free(g);
    pthread_mutex_lock(&r->lock);
    r->running--;
    pthread_cond_signal(&r->done);
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* The run                                                                  */

static void print_progress(void (*print)(const char *line), const DatagenStats *st)
{
    if (!print)
        return;
    char line[256];
    double rate = st->seconds > 0 ? (double)st->positions / st->seconds : 0.0;
    snprintf(line, sizeof line, "games %lld positions %lld positions/s %.0f elapsed %.1f s",
             st->games, st->positions, rate, st->seconds);
    print(line);
}

static int cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

bool datagen_run(const DatagenOptions *opt, void (*print)(const char *line), DatagenStats *stats,
                 char *err, size_t errlen)
{
    Book book = {NULL, 0};
    if (*opt->book && !book_load(opt->book, &book, err, errlen))
        return false;
    FILE *out = fopen(opt->out, "ab");
    if (!out) {
        snprintf(err, errlen, "cannot open '%s' for writing: %s", opt->out, strerror(errno));
        book_free(&book);
        return false;
    }
    Run *r = calloc(1, sizeof *r);
    pthread_t *tids = NULL;
    int threads = opt->threads > 0 ? opt->threads : cpu_count();
    if (threads > opt->games)
        threads = (int)opt->games;
    if (r)
        tids = calloc((size_t)threads, sizeof *tids);
    if (!r || !tids) {
        snprintf(err, errlen, "out of memory");
        free(r);
        fclose(out);
        book_free(&book);
        return false;
    }
    r->opt = opt;
    r->book = *opt->book ? &book : NULL;
    r->random = opt->random >= 0 ? opt->random : *opt->book ? 0 : DATAGEN_RANDOM;
    r->seed = opt->seed_given ? opt->seed
                              : mix64((uint64_t)tm_now() ^ ((uint64_t)getpid() << 32))
                                    & 0x7FFFFFFFFFFFFFFFull;
    r->out = out;
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->done, NULL);
    if (print) {
        char line[2400];
        snprintf(line, sizeof line,
                 "datagen out %s games %lld threads %d nodes %llu random %d%s%s seed %llu",
                 opt->out, opt->games, threads, (unsigned long long)opt->nodes, r->random,
                 *opt->book ? " book " : "", opt->book, (unsigned long long)r->seed);
        print(line);
    }

    int64_t t0 = tm_now();
    int started = 0;
    pthread_mutex_lock(&r->lock);
    for (int i = 0; i < threads; i++)
        if (pthread_create(&tids[started], NULL, worker_main, r) == 0) {
            started++;
            r->running++;
        }
    int64_t next_report = t0 + PROGRESS_MS;
    while (r->running > 0) {
        int64_t now = tm_now();
        if (now >= next_report) {
            next_report = now + PROGRESS_MS;
            DatagenStats st = r->stats;
            st.seconds = (double)(now - t0) / 1000.0;
            fflush(out);
            pthread_mutex_unlock(&r->lock);
            print_progress(print, &st);
            pthread_mutex_lock(&r->lock);
            continue;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        int64_t wait_ms = next_report - now;
        ts.tv_sec += (time_t)(wait_ms / 1000);
        ts.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&r->done, &r->lock, &ts);
    }
    pthread_mutex_unlock(&r->lock);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);

    bool ok = true;
    if (started == 0) {
        snprintf(err, errlen, "cannot start a worker thread");
        ok = false;
    } else if (r->failed) {
        snprintf(err, errlen, "%s", r->err);
        ok = false;
    }
    if (fclose(out) != 0 && ok) {
        snprintf(err, errlen, "cannot write to '%s': %s", opt->out, strerror(errno));
        ok = false;
    }
    r->stats.seconds = (double)(tm_now() - t0) / 1000.0;
    if (ok) {
        print_progress(print, &r->stats);
        if (print) {
            char line[160];
            snprintf(line, sizeof line, "results white %lld draw %lld black %lld skipped %lld",
                     r->stats.white_wins, r->stats.draws, r->stats.black_wins, r->stats.skipped);
            print(line);
        }
    }
    if (stats)
        *stats = r->stats;
    pthread_cond_destroy(&r->done);
    pthread_mutex_destroy(&r->lock);
    free(tids);
    free(r);
    book_free(&book);
    return ok;
}
