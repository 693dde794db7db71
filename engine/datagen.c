/* Self-play data generation (datagen.h). Every worker owns a search
 * instance and a game buffer; a game's randomness depends only on the seed
 * and the game's number, so with one thread the output is a function of the
 * options. */
#include "datagen.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../eval/syzygy/tbprobe.h"
#include "../movegen/movegen.h"
#include "../movegen/records/pgn.h"
#include "../movegen/records/record.h"
#include "../movegen/util.h"
#include "../search/search.h"
#include "openings.h"

enum { PROGRESS_MS = 5000, MAX_THREADS = 1024 };

const char *const DatagenUsage[] = {
    "datagen out FILE [games N] [threads N] [nodes N] [random N] [frc P] [book FILE]",
    "        [format game|packed] [seed N]",
    "  self-play games for training, appended to FILE",
    "  out FILE      the output file (required)",
    "  format F      game: each game once, its start position, then move and score per",
    "                ply (viriformat, about 4 bytes a position; default); packed: the",
    "                quiet positions as 32-byte records for the HCE tuner",
    "  games N       games to play (default 1000)",
    "  threads N     worker threads, each with its own search (default: every CPU)",
    "  nodes N       nodes per move (default 5000)",
    "  random N      random plies after the start or book position (default 8 or 9;",
    "                0 with a book)",
    "  frc P         percent of games from a random Chess960 start (default 10; 0 with",
    "                a book)",
    "  book FILE     openings, one FEN or EPD per line (# starts a comment)",
    "  seed N        seed of the openings (default: a new one each run; printed)",
    "datagen relabel IN out OUT [nodes N] [threads N]",
    "  the games of the game-format file IN searched again: every position the",
    "  trainer keeps gets the score of a search of N nodes (default 5000), the moves",
    "  and results stay; appended to OUT in IN's order, going on after the games OUT",
    "  holds already (a cut-off run resumes)",
    "datagen pgn IN out OUT",
    "  converts the games of an OpenBench datagen PGN (moves with {score/depth}",
    "  comments) to the game format, appended to OUT; a bad game is reported with",
    "  its line and skipped",
    NULL};

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

/* A number option from min to max; false with a message naming it. */
static bool number(const char *name, const char *v, long long min, long long max, long long *out,
                   char *err, size_t errlen)
{
    if (parse_int(v, min, max, out))
        return true;
    snprintf(err, errlen, "%s: '%s' is not a number from %lld to %lld", name, v, min, max);
    return false;
}

static const char *const OptionNames[] = {"out",  "games",  "threads", "nodes", "random",  "frc",
                                          "book", "format", "seed",    "pgn",   "relabel", NULL};

static bool known_option(const char *name)
{
    for (int i = 0; OptionNames[i]; i++)
        if (!strcmp(name, OptionNames[i]))
            return true;
    return false;
}

static bool set_option(DatagenOptions *opt, const char *name, const char *value, char *err,
                       size_t errlen)
{
    long long v;
    if (!strcmp(name, "out"))
        snprintf(opt->out, sizeof opt->out, "%s", value);
    else if (!strcmp(name, "book"))
        snprintf(opt->book, sizeof opt->book, "%s", value);
    else if (!strcmp(name, "pgn"))
        snprintf(opt->pgn, sizeof opt->pgn, "%s", value);
    else if (!strcmp(name, "relabel"))
        snprintf(opt->relabel, sizeof opt->relabel, "%s", value);
    else if (!strcmp(name, "format")) {
        if (!(opt->format = record_format(value))) {
            snprintf(err, errlen, "format: '%s' is not game or packed", value);
            return false;
        }
    } else if (!strcmp(name, "games")) {
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
    } else if (!strcmp(name, "frc")) {
        if (!number(name, value, 0, 100, &v, err, errlen))
            return false;
        opt->frc = (int)v;
    } else {
        if (!number(name, value, 0, 0x7FFFFFFFFFFFFFFFLL, &v, err, errlen))
            return false;
        opt->seed = (uint64_t)v;
        opt->seed_given = true;
    }
    return true;
}

bool datagen_parse(const char *args, DatagenOptions *opt, char *err, size_t errlen)
{
    memset(opt, 0, sizeof *opt);
    opt->games = DATAGEN_GAMES;
    opt->nodes = DATAGEN_NODES;
    opt->format = &RecordViriformat;
    opt->random = -1;
    opt->frc = -1;
    Tokens t = {args ? args : ""};
    char name[64], value[1024];
    size_t n;
    bool play_option = false, game_option = false; /* beyond out (and nodes, threads) */
    while ((n = tok_next(&t, name, sizeof name)) > 0) {
        if (n >= sizeof name) {
            snprintf(err, errlen, "unknown option (too long)");
            return false;
        }
        if (!known_option(name)) {
            snprintf(err, errlen,
                     "unknown option '%s' (options: out games threads nodes random frc book "
                     "format seed pgn relabel)",
                     name);
            return false;
        }
        n = tok_next(&t, value, sizeof value);
        if (n == 0) {
            snprintf(err, errlen, "option '%s' needs a value", name);
            return false;
        }
        if (n >= sizeof value) {
            snprintf(err, errlen, "option '%s': the value is too long", name);
            return false;
        }
        if (!set_option(opt, name, value, err, errlen))
            return false;
        const bool file_option = !strcmp(name, "out") || !strcmp(name, "pgn")
                                 || !strcmp(name, "relabel");
        play_option |= !file_option;
        game_option |= !file_option && strcmp(name, "nodes") != 0 && strcmp(name, "threads") != 0;
    }
    if (!*opt->out) {
        snprintf(err, errlen, "'out FILE' is required");
        return false;
    }
    if (*opt->relabel && (*opt->pgn || game_option)) {
        snprintf(err, errlen,
                 "'relabel FILE' searches a game file's games again: it takes only 'out FILE', "
                 "'nodes N' and 'threads N'");
        return false;
    }
    if (*opt->pgn && play_option) {
        snprintf(err, errlen,
                 "'pgn FILE' converts a PGN to the game format: it takes only 'out "
                 "FILE'");
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* genfens                                                                  */

/* OpenBench's workers call `./engine "genfens N seed S book <FILE|None>
 * [extra]" quit` and keep the `info string genfens <FEN>` lines. */
bool datagen_genfens(const char *args, const NnueNet *net, void (*print)(const char *line),
                     char *err, size_t errlen)
{
    Tokens t = {args ? args : ""};
    char word[1024], book_path[1024] = "";
    long long count, seed, v;
    OpeningRules rules = {NULL, -1, 0};
    bool random_given = false;
    if (tok_next(&t, word, sizeof word) == 0 || !parse_int(word, 1, 100000000, &count)) {
        snprintf(err, errlen,
                 "usage: genfens N seed S book <FILE|None> [frc P] [random N] "
                 "(N from 1 to 100000000)");
        return false;
    }
    if (tok_next(&t, word, sizeof word) == 0 || strcmp(word, "seed") != 0
        || tok_next(&t, word, sizeof word) == 0
        || !parse_int(word, 0, 0x7FFFFFFFFFFFFFFFLL, &seed)) {
        snprintf(err, errlen, "'seed S' must follow N (S a number from 0 to 2^63-1)");
        return false;
    }
    size_t n;
    if (tok_next(&t, word, sizeof word) == 0 || strcmp(word, "book") != 0
        || (n = tok_next(&t, book_path, sizeof book_path)) == 0 || n >= sizeof book_path) {
        snprintf(err, errlen, "'book <FILE|None>' must follow the seed");
        return false;
    }
    /* The extra options of the workload (OpenBench's "genfens args"). */
    while (tok_next(&t, word, sizeof word) > 0) {
        char value[64];
        bool is_frc = !strcmp(word, "frc"), is_random = !strcmp(word, "random");
        if (!is_frc && !is_random) {
            snprintf(err, errlen, "unknown extra option '%.64s' (frc P, random N)", word);
            return false;
        }
        if (tok_next(&t, value, sizeof value) == 0 || !parse_int(value, 0, 100, &v)) {
            snprintf(err, errlen, "%s: a number from 0 to 100 must follow", word);
            return false;
        }
        if (is_frc)
            rules.frc = (int)v;
        else
            rules.random = (int)v, random_given = true;
    }
    Book book = {NULL, 0};
    if (strcmp(book_path, "None") != 0 && strcmp(book_path, "none") != 0) {
        if (!book_load(book_path, &book, err, errlen))
            return false;
        rules.book = &book;
        rules.frc = 0;
        if (!random_given)
            rules.random = 0;
    }
    Search *s = search_create(DATAGEN_TT_MB, NULL);
    Position *pos = malloc(sizeof *pos), *spare = malloc(sizeof *spare);
    bool ok = s && pos && spare;
    if (s)
        search_set_net(s, net);
    if (!ok)
        snprintf(err, errlen, "out of memory");
    for (long long i = 0; ok && i < count; i++) {
        /* An opening that stays out of bounds after every try is still
         * given (the closest one): OpenBench waits for exactly N lines. */
        opening_make(&rules, (uint64_t)seed, i, s, pos, spare);
        pos->shredder_castling = false;
        char fen[128], line[160];
        pos_get_fen(pos, fen, sizeof fen);
        snprintf(line, sizeof line, "info string genfens %s", fen);
        if (print)
            print(line);
    }
    free(pos);
    free(spare);
    if (s)
        search_destroy(s);
    book_free(&book);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Games                                                                    */

typedef struct {
    const DatagenOptions *opt;
    OpeningRules rules;
    uint64_t seed;
    PlatAppendFile out;
    _Atomic long long next_game;
    pthread_mutex_t lock; /* guards what follows */
    pthread_cond_t done;  /* a worker ended */
    int running;
    DatagenStats stats;
    bool failed;
    char err[1200];
} Run;

typedef struct {
    Position pos, spare;
    int plies;
    RecordWriter out; /* the game in the output format */
} Game;

/* Plays the game from g->pos, each move and score pushed to g->out; returns
 * the result from White's view. */
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
        if (gs != GAME_ONGOING || g->plies >= DATAGEN_MAX_PLIES)
            return RESULT_DRAW; /* threefold and 50 moves are claimed */
        /* Reached the tablebases (SyzygyPath): their result, the fifty-move
         * rule counted (a cursed win is a draw). */
        int wdl;
        if (pos_rule50(pos) == 0 && tb_probe_wdl(pos, &wdl))
            return wdl == TB_WIN    ? (pos->side == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS)
                   : wdl == TB_LOSS ? (pos->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS)
                                    : RESULT_DRAW;

        SearchResult res;
        search_position(s, pos, 0, r->opt->nodes, &res);
        if (res.depth < 1) /* too few nodes for one iteration */
            search_position(s, pos, 1, 0, &res);
        const move_t m = res.best;
        const int score = res.score;
        const int white = pos->side == WHITE ? score : -score;
        record_push(&g->out, m, white);
        g->plies++;

        /* Adjudication: far ahead for several plies wins; level late on draws. */
        if (white >= DATAGEN_WIN_SCORE)
            win_streak = win_streak > 0 ? win_streak + 1 : 1;
        else if (white <= -DATAGEN_WIN_SCORE)
            win_streak = win_streak < 0 ? win_streak - 1 : -1;
        else
            win_streak = 0;
        if (win_streak >= DATAGEN_WIN_PLIES)
            return RESULT_WHITE_WINS;
        if (win_streak <= -DATAGEN_WIN_PLIES)
            return RESULT_BLACK_WINS;
        draw_streak = white <= DATAGEN_DRAW_SCORE && white >= -DATAGEN_DRAW_SCORE ? draw_streak + 1
                                                                                  : 0;
        if (pos->game_ply >= DATAGEN_DRAW_PLY && draw_streak >= DATAGEN_DRAW_PLIES)
            return RESULT_DRAW;

        pos_make_game_move(pos, m);
    }
}

/* One write per game at the end of the file (plat_append_write): a run
 * that is stopped leaves whole games. */
static bool write_all(PlatAppendFile *f, const uint8_t *p, size_t n)
{
    return plat_append_write(f, p, n);
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
    Search *s = search_create(DATAGEN_TT_MB, NULL);
    Game *g = calloc(1, sizeof *g);
    if (g && !record_writer_init(&g->out, r->opt->format)) {
        record_writer_free(&g->out);
        free(g);
        g = NULL;
    }
    if (!s || !g)
        fail(r, "out of memory for a worker");
    if (s)
        search_set_net(s, r->opt->net);
    while (s && g) {
        long long index = atomic_fetch_add(&r->next_game, 1);
        pthread_mutex_lock(&r->lock);
        bool stop = r->failed;
        pthread_mutex_unlock(&r->lock);
        if (index >= r->opt->games || stop)
            break;
        if (!opening_make(&r->rules, r->seed, index, s, &g->pos, &g->spare)) {
            pthread_mutex_lock(&r->lock);
            r->stats.skipped++;
            pthread_mutex_unlock(&r->lock);
            continue;
        }
        record_start(&g->out, &g->pos);
        search_new_game(s);
        int result = play_game(r, s, g);
        /* A game the format cannot hold (a book start of more than 32
         * pieces, in the game format) is skipped. */
        bool whole = record_finish(&g->out, result);
        pthread_mutex_lock(&r->lock);
        if (!whole) {
            r->stats.skipped++;
            pthread_mutex_unlock(&r->lock);
            continue;
        }
        if (!r->failed && !write_all(&r->out, g->out.bytes, g->out.size)) {
            r->failed = true;
            snprintf(r->err, sizeof r->err, "cannot write to '%s': %s", r->opt->out,
                     strerror(errno));
        }
        r->stats.games++;
        r->stats.positions += g->out.positions;
        r->stats.white_wins += result == RESULT_WHITE_WINS;
        r->stats.draws += result == RESULT_DRAW;
        r->stats.black_wins += result == RESULT_BLACK_WINS;
        pthread_mutex_unlock(&r->lock);
    }
    search_destroy(s);
    if (g)
        record_writer_free(&g->out);
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

int datagen_workers(int threads, void *(*worker)(void *), void *arg, pthread_mutex_t *lock,
                    pthread_cond_t *cond, int *running, void (*report)(void *ctx, double seconds),
                    void *ctx)
{
    pthread_t *tids = calloc((size_t)threads, sizeof *tids);
    if (!tids)
        return -1;
    int started = 0;
    const int64_t t0 = now_ms();
    pthread_mutex_lock(lock);
    for (int i = 0; i < threads; i++)
        if (pthread_create(&tids[started], NULL, worker, arg) == 0) {
            started++;
            (*running)++;
        }
    int64_t next_report = t0 + PROGRESS_MS;
    while (*running > 0) {
        int64_t now = now_ms();
        if (now >= next_report) {
            next_report = now + PROGRESS_MS;
            report(ctx, (double)(now - t0) / 1000.0);
            continue;
        }
        struct timespec ts;
        plat_wall_clock(&ts);
        int64_t wait_ms = next_report - now;
        ts.tv_sec += (time_t)(wait_ms / 1000);
        ts.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(cond, lock, &ts);
    }
    pthread_mutex_unlock(lock);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    return started;
}

bool datagen_end_run(int started, bool failed, const char *why, PlatAppendFile *out,
                     const char *path, char *err, size_t errlen)
{
    bool ok = true;
    if (started <= 0) {
        snprintf(err, errlen, started < 0 ? "out of memory" : "cannot start a worker thread");
        ok = false;
    } else if (failed) {
        snprintf(err, errlen, "%s", why);
        ok = false;
    }
    if (!plat_append_close(out) && ok) {
        snprintf(err, errlen, "cannot write to '%s': %s", path, strerror(errno));
        ok = false;
    }
    return ok;
}

/* A seed no earlier run had: the system's random bytes with the clock and
 * the process number (63 bits, so that `seed N` can repeat it). */
static uint64_t new_seed(void)
{
    uint64_t x = 0;
    if (!plat_random_bytes(&x, sizeof x))
        x = 0;
    struct timespec ts;
    plat_wall_clock(&ts);
    x ^= mix64((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
    x ^= mix64(plat_process_id() << 32 ^ (uint64_t)now_ms());
    return mix64(x) & 0x7FFFFFFFFFFFFFFFull;
}

/* Opens the output for appending; an existing file must end with a whole
 * game or record of the format, or appending would hide the damage. False
 * with a message. */
static bool open_output(const DatagenOptions *opt, PlatAppendFile *out, char *err, size_t errlen)
{
    char why[256];
    if (!plat_append_open(opt->out, out, why, sizeof why)) {
        snprintf(err, errlen, "cannot open '%s' for writing: %s", opt->out, why);
        return false;
    }
    const int64_t size = plat_file_size(opt->out);
    bool whole = size >= 0;
    if (whole && size > 0) {
        uint8_t tail[4];
        size_t n = size < (int64_t)sizeof tail ? (size_t)size : sizeof tail;
        whole = plat_read_at(opt->out, (uint64_t)size - n, tail, n)
                && opt->format->ends_whole((long long)size, tail);
        if (!whole) {
            snprintf(err, errlen,
                     "'%s' does not end with a whole %s (another format, or cut "
                     "off): not appending to it",
                     opt->out, opt->format->unit);
            plat_append_close(out);
            return false;
        }
    }
    return true;
}

/* datagen pgn IN out OUT: every game of the PGN (movegen/records/pgn.h)
 * through the writer of the output format; a bad game is reported with its
 * line and skipped. */
static bool convert_pgn(const DatagenOptions *opt, void (*print)(const char *line),
                        DatagenStats *stats, char *err, size_t errlen)
{
    DatagenStats st;
    memset(&st, 0, sizeof st);
    PlatAppendFile file;
    if (!open_output(opt, &file, err, errlen))
        return false;
    int64_t t0 = now_ms();
    RecordWriter out;
    PgnReader *in = pgn_open(opt->pgn, err, errlen);
    bool ok = in != NULL;
    if (ok && !(ok = record_writer_init(&out, opt->format)))
        snprintf(err, errlen, "out of memory");
    char why[1600], line[1700];
    int status;
    while (ok && (status = pgn_next_game(in, why, sizeof why)) != RECORD_END) {
        RecordGame g = pgn_game(in);
        if (status == RECORD_FAILED) {
            snprintf(err, errlen, "%s", why);
            ok = false;
            break;
        }
        if (status == RECORD_GAME && !record_write_game(&out, &g)) {
            snprintf(why, sizeof why, "%s:%d: %s", opt->pgn, pgn_line(in), out.error);
            status = RECORD_BAD_GAME;
        }
        if (status == RECORD_BAD_GAME) {
            st.skipped++;
            snprintf(line, sizeof line, "%s; game %lld skipped", why, g.number);
            if (print)
                print(line);
            continue;
        }
        if (!write_all(&file, out.bytes, out.size)) {
            snprintf(err, errlen, "cannot write the converted games: %s", strerror(errno));
            ok = false;
            break;
        }
        st.games++;
        st.positions += out.positions;
        st.white_wins += g.result_white == RESULT_WHITE_WINS;
        st.draws += g.result_white == RESULT_DRAW;
        st.black_wins += g.result_white == RESULT_BLACK_WINS;
    }
    if (in) {
        record_writer_free(&out);
        pgn_close(in);
    }
    if (!plat_append_close(&file) && ok) {
        snprintf(err, errlen, "cannot write to '%s': %s", opt->out, strerror(errno));
        ok = false;
    }
    st.seconds = (double)(now_ms() - t0) / 1000.0;
    if (ok && print) {
        snprintf(line, sizeof line,
                 "converted %s: games %lld positions %lld skipped %lld (white %lld draw %lld "
                 "black %lld)",
                 opt->pgn, st.games, st.positions, st.skipped, st.white_wins, st.draws,
                 st.black_wins);
        print(line);
    }
    if (stats)
        *stats = st;
    return ok;
}

typedef struct {
    Run *r;
    void (*print)(const char *line);
} ProgressCtx;

/* datagen_supervise's report: the counts copied under the lock, printed
 * without it. */
static void report_progress(void *ctx, double seconds)
{
    ProgressCtx *pc = ctx;
    DatagenStats st = pc->r->stats;
    st.seconds = seconds;
    pthread_mutex_unlock(&pc->r->lock);
    print_progress(pc->print, &st);
    pthread_mutex_lock(&pc->r->lock);
}

bool datagen_run(const DatagenOptions *opt, void (*print)(const char *line), DatagenStats *stats,
                 char *err, size_t errlen)
{
    if (*opt->pgn)
        return convert_pgn(opt, print, stats, err, errlen);
    if (*opt->relabel)
        return datagen_relabel(opt, print, stats, err, errlen);
    Book book = {NULL, 0};
    if (*opt->book && !book_load(opt->book, &book, err, errlen))
        return false;
    PlatAppendFile file;
    if (!open_output(opt, &file, err, errlen)) {
        book_free(&book);
        return false;
    }
    Run *r = calloc(1, sizeof *r);
    int threads = opt->threads > 0            ? opt->threads
                  : cpu_count() > MAX_THREADS ? MAX_THREADS
                                              : cpu_count();
    if (threads > opt->games)
        threads = (int)opt->games;
    if (!r) {
        snprintf(err, errlen, "out of memory");
        free(r);
        plat_append_close(&file);
        book_free(&book);
        return false;
    }
    r->opt = opt;
    r->rules.book = *opt->book ? &book : NULL;
    r->rules.random = opt->random >= 0 ? opt->random : *opt->book ? 0 : -1;
    r->rules.frc = opt->frc >= 0 ? opt->frc : *opt->book ? 0 : DATAGEN_FRC_PERCENT;
    r->seed = opt->seed_given ? opt->seed : new_seed();
    r->out = file;
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->done, NULL);
    if (print) {
        char line[2400], random[16];
        if (r->rules.random >= 0)
            snprintf(random, sizeof random, "%d", r->rules.random);
        else
            snprintf(random, sizeof random, "8-9");
        snprintf(line, sizeof line,
                 "datagen out %s format %s games %lld threads %d nodes %llu random %s frc %d%s%s "
                 "seed %llu",
                 opt->out, opt->format->name, opt->games, threads, (unsigned long long)opt->nodes,
                 random, r->rules.frc, *opt->book ? " book " : "", opt->book,
                 (unsigned long long)r->seed);
        print(line);
    }

    int64_t t0 = now_ms();
    ProgressCtx pc = {r, print};
    int started = datagen_workers(threads, worker_main, r, &r->lock, &r->done, &r->running,
                                  report_progress, &pc);

    bool ok = datagen_end_run(started, r->failed, r->err, &r->out, opt->out, err, errlen);
    r->stats.seconds = (double)(now_ms() - t0) / 1000.0;
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
    free(r);
    book_free(&book);
    return ok;
}
