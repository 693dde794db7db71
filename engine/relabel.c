/* datagen relabel (datagen.h): the games of a game-format file searched
 * again at other nodes, the same games with new scores. Worker threads take
 * the games in turn and write them back in the input's order, so that a run
 * cut off leaves a prefix of the input's games and the next run goes on
 * after it. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/records/viriformat.h"
#include "../movegen/util.h"
#include "../search/search.h"
#include "datagen.h"

enum { RELABEL_MAX_THREADS = 1024 };

/* One game as read: copied out of the reader, whose buffers the next read
 * overwrites. */
typedef struct {
    Position start, pos;
    int result_white, plies, cap;
    move_t *moves;
    int16_t *scores;
    long long index; /* its place among the games written by this run */
} Job;

typedef struct {
    const DatagenOptions *opt;
    VfReader *in;
    PlatAppendFile out;
    long long skip;       /* valid games of the input that the output holds already */
    long long skipped;    /* of those, passed over so far */
    long long limit;      /* games of the input (valid or not) when the run began: no more are
                           * read, so a file that grows, or is the output by another name,
                           * ends there */
    long long read;       /* games of the input read so far */
    long long next_index; /* the index the next game read gets */
    long long next_write; /* the index whose turn it is to be written */
    bool eof, failed;
    pthread_mutex_t lock; /* guards all of this */
    pthread_cond_t turn;  /* next_write moved, a run failed, or a worker ended */
    int running;
    DatagenStats stats;
    long long searched; /* positions searched again */
    char err[1400];     /* why the run failed */
    char note[1200];    /* the first bad game, or where the input could not be read on */
} Relabel;

static void relabel_fail(Relabel *r, const char *msg)
{
    if (!r->failed) {
        r->failed = true;
        snprintf(r->err, sizeof r->err, "%s", msg);
    }
    pthread_cond_broadcast(&r->turn);
}

/* Copies the game just read into job; false when out of memory. */
static bool job_take(Job *job, const RecordGame *g)
{
    if (g->plies > job->cap) {
        int cap = g->plies + 64;
        move_t *m = realloc(job->moves, (size_t)cap * sizeof *m);
        if (m)
            job->moves = m;
        int16_t *s = m ? realloc(job->scores, (size_t)cap * sizeof *s) : NULL;
        if (s)
            job->scores = s;
        if (!m || !s)
            return false;
        job->cap = cap;
    }
    job->start = *g->start;
    job->result_white = g->result_white;
    job->plies = g->plies;
    memcpy(job->moves, g->moves, (size_t)g->plies * sizeof *job->moves);
    memcpy(job->scores, g->scores, (size_t)g->plies * sizeof *job->scores);
    return true;
}

/* Under the lock: the next valid game not yet in the output into job;
 * false at the end of the input or when the run has failed. A bad game is
 * skipped (the first one noted), and a file that cannot be read on ends the
 * input there, as the trainer reads it. */
static bool next_job(Relabel *r, Job *job)
{
    char why[1024];
    while (!r->eof && !r->failed) {
        if (r->read >= r->limit) {
            r->eof = true;
            break;
        }
        int st = vf_next_game(r->in, why, sizeof why);
        r->read += st != RECORD_END;
        if (st == RECORD_END || st == RECORD_FAILED) {
            if (st == RECORD_FAILED && !*r->note)
                snprintf(r->note, sizeof r->note, "%s; read up to there", why);
            r->eof = true;
            break;
        }
        if (st == RECORD_BAD_GAME) {
            r->stats.skipped++;
            if (!*r->note)
                snprintf(r->note, sizeof r->note, "%s; skipped", why);
            continue;
        }
        if (r->skipped < r->skip) {
            r->skipped++;
            continue;
        }
        RecordGame g = vf_game(r->in);
        if (!job_take(job, &g)) {
            relabel_fail(r, "out of memory for a game");
            break;
        }
        job->index = r->next_index++;
        return true;
    }
    return false;
}

/* The game searched again: every position the trainer's filter keeps
 * (vf_filter_default, on the old score) gets the score of a search of
 * `nodes`, the others keep theirs; the moves and the result stay. */
static bool relabel_game(const Relabel *r, Search *s, Job *job, RecordWriter *w,
                         long long *searched)
{
    const VfFilter filter = vf_filter_default();
    Position *pos = &job->pos;
    *pos = job->start;
    record_start(w, &job->start);
    search_new_game(s);
    for (int i = 0; i < job->plies; i++) {
        const move_t m = job->moves[i];
        int white = job->scores[i];
        if (vf_filter_pass(&filter, pos, m, white)) {
            SearchResult res;
            search_position(s, pos, 0, r->opt->nodes, &res);
            if (res.depth < 1) /* too few nodes for one iteration */
                search_position(s, pos, 1, 0, &res);
            if (res.best != MOVE_NONE) {
                white = pos->side == WHITE ? res.score : -res.score;
                (*searched)++;
            }
        }
        record_push(w, m, white);
        pos_make_game_move(pos, m);
    }
    return record_finish(w, job->result_white);
}

static void *relabel_worker(void *arg)
{
    Relabel *r = arg;
    Search *s = search_create(DATAGEN_TT_MB, NULL);
    Job *job = calloc(1, sizeof *job);
    RecordWriter w;
    bool writer = record_writer_init(&w, &RecordViriformat);
    pthread_mutex_lock(&r->lock);
    if (!s || !job || !writer)
        relabel_fail(r, "out of memory for a worker");
    pthread_mutex_unlock(&r->lock);
    if (s)
        search_set_net(s, r->opt->net);
    while (s && job && writer) {
        pthread_mutex_lock(&r->lock);
        bool got = next_job(r, job);
        pthread_mutex_unlock(&r->lock);
        if (!got)
            break;
        long long searched = 0;
        bool whole = relabel_game(r, s, job, &w, &searched);
        pthread_mutex_lock(&r->lock);
        while (r->next_write != job->index && !r->failed)
            pthread_cond_wait(&r->turn, &r->lock);
        if (!r->failed) {
            if (!whole) {
                char msg[300];
                snprintf(msg, sizeof msg, "a game cannot be written again: %s",
                         w.error ? w.error : "?");
                relabel_fail(r, msg);
            } else if (!plat_append_write(&r->out, w.bytes, w.size)) {
                char msg[1300];
                snprintf(msg, sizeof msg, "cannot write to '%s': %s", r->opt->out, strerror(errno));
                relabel_fail(r, msg);
            } else {
                r->next_write++;
                r->stats.games++;
                r->stats.positions += w.positions;
                r->stats.white_wins += job->result_white == RESULT_WHITE_WINS;
                r->stats.draws += job->result_white == RESULT_DRAW;
                r->stats.black_wins += job->result_white == RESULT_BLACK_WINS;
                r->searched += searched;
                pthread_cond_broadcast(&r->turn);
            }
        }
        bool stop = r->failed;
        pthread_mutex_unlock(&r->lock);
        if (stop)
            break;
    }
    if (s)
        search_destroy(s);
    record_writer_free(&w); /* also after a failed init, as datagen's workers do */
    if (job) {
        free(job->moves);
        free(job->scores);
        free(job);
    }
    pthread_mutex_lock(&r->lock);
    r->running--;
    pthread_cond_broadcast(&r->turn);
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* The games of a game-format file. The output (whole): 0 when it is missing
 * or empty, -1 with a message when any game of it cannot be read. The input
 * (!whole): the games, valid or bad, up to its end or its first part that
 * cannot be read (a game still being written); -1 with a message when it
 * cannot be opened. */
static long long count_games(const char *path, bool whole, char *err, size_t errlen)
{
    if (whole && plat_file_size(path) <= 0)
        return 0;
    char why[1024];
    VfReader *f = vf_open(path, why, sizeof why);
    if (!f) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    long long n = 0;
    int st;
    while ((st = vf_next_game(f, why, sizeof why)) != RECORD_END) {
        if (!whole && st == RECORD_FAILED)
            break;
        if (whole && st != RECORD_GAME) {
            snprintf(err, errlen, "'%s' is not a whole game file (%s): not appending to it", path,
                     why);
            n = -1;
            break;
        }
        n++;
    }
    vf_close(f);
    return n;
}

static void relabel_progress(void (*print)(const char *line), const Relabel *r, double seconds)
{
    if (!print)
        return;
    char line[256];
    snprintf(line, sizeof line,
             "relabel games %lld positions %lld searched %lld searched/s %.0f elapsed %.1f s",
             r->stats.games, r->stats.positions, r->searched,
             seconds > 0 ? (double)r->searched / seconds : 0.0, seconds);
    print(line);
}

typedef struct {
    const Relabel *r;
    void (*print)(const char *line);
} ProgressCtx;

static void report_progress(void *ctx, double seconds)
{
    const ProgressCtx *pc = ctx;
    relabel_progress(pc->print, pc->r, seconds);
}

bool datagen_relabel(const DatagenOptions *opt, void (*print)(const char *line),
                     DatagenStats *stats, char *err, size_t errlen)
{
    if (!strcmp(opt->relabel, opt->out)) {
        snprintf(err, errlen, "relabel: the output must be another file than the input");
        return false;
    }
    long long done = count_games(opt->out, true, err, errlen);
    if (done < 0)
        return false;
    const long long limit = count_games(opt->relabel, false, err, errlen);
    if (limit < 0)
        return false;
    Relabel *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    char why[1024];
    if (!(r->in = vf_open(opt->relabel, why, sizeof why))) {
        snprintf(err, errlen, "%s", why);
        free(r);
        return false;
    }
    if (!plat_append_open(opt->out, &r->out, why, sizeof why)) {
        snprintf(err, errlen, "cannot open '%s' for writing: %s", opt->out, why);
        vf_close(r->in);
        free(r);
        return false;
    }
    r->opt = opt;
    r->skip = done;
    r->limit = limit;
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->turn, NULL);
    int threads = opt->threads > 0                    ? opt->threads
                  : cpu_count() > RELABEL_MAX_THREADS ? RELABEL_MAX_THREADS
                                                      : cpu_count();
    if (print) {
        char line[2300];
        snprintf(line, sizeof line,
                 "datagen relabel %s out %s threads %d nodes %llu (%lld games there already: "
                 "going on after them)",
                 opt->relabel, opt->out, threads, (unsigned long long)opt->nodes, done);
        print(line);
    }
    int64_t t0 = now_ms();
    ProgressCtx pc = {r, print};
    int started = datagen_workers(threads, relabel_worker, r, &r->lock, &r->turn, &r->running,
                                  report_progress, &pc);

    bool ok = datagen_end_run(started, r->failed, r->err, &r->out, opt->out, err, errlen);
    vf_close(r->in);
    r->stats.seconds = (double)(now_ms() - t0) / 1000.0;
    if (ok && print) {
        relabel_progress(print, r, r->stats.seconds);
        char line[1400];
        if (*r->note) {
            snprintf(line, sizeof line, "%s", r->note);
            print(line);
        }
        snprintf(line, sizeof line,
                 "relabelled %lld games (%lld were there already), %lld positions searched "
                 "again; bad games skipped %lld",
                 r->stats.games, done, r->searched, r->stats.skipped);
        print(line);
    }
    if (stats)
        *stats = r->stats;
    pthread_cond_destroy(&r->turn);
    pthread_mutex_destroy(&r->lock);
    free(r);
    return ok;
}
