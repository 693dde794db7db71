/* The instance and its thread pool (thread.h): creation, the threads' wait
 * for work, start, stop, ponderhit and the settings. The search itself is in
 * search.c. */
#include "thread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/score.h"
#include "../movegen/util.h"
#include "tbsearch.h"

/* A thread's state starts on a cache line of its own. */
enum { CACHE_LINE = 64 };

uint64_t search_total_nodes(const Search *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->thread_count; i++)
        n += atomic_load_explicit(&s->threads[i]->nodes, memory_order_relaxed);
    return n;
}

uint64_t search_total_tbhits(const Search *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->thread_count; i++)
        n += atomic_load_explicit(&s->threads[i]->tbhits, memory_order_relaxed);
    return n;
}

int64_t search_elapsed(const Search *s) { return now_ms() - atomic_load(&s->start_time); }

/* ------------------------------------------------------------------------ */
/* The pool                                                                 */

/* Thread t's part of the search that start_gen announced, with s->lock held
 * (and held again on return): the search, then for the main thread the wait
 * for `stop` or `ponderhit` in ponder or infinite mode, the helpers' end and
 * the report. */
static void thread_search(SearchThread *t)
{
    Search *s = t->s;
    pthread_mutex_unlock(&s->lock);
    if (t->root_count > 0)
        search_thread_run(t);
    pthread_mutex_lock(&s->lock);
    if (t->id != 0) {
        s->busy--;
        pthread_cond_broadcast(&s->cond);
        return;
    }
#ifndef SEARCH_INLINE
    while (!s->user_stopped && !s->exiting && (atomic_load(&s->pondering) || s->limits.infinite))
        pthread_cond_wait(&s->cond, &s->lock);
#endif
    atomic_store(&s->stop, true);
    while (s->busy > 1)
        pthread_cond_wait(&s->cond, &s->lock);
    pthread_mutex_unlock(&s->lock);
    search_report_result(s);
    pthread_mutex_lock(&s->lock);
    s->busy = 0;
    s->active = false;
    pthread_cond_broadcast(&s->cond);
}

#ifndef SEARCH_INLINE
static void *thread_main(void *arg)
{
    SearchThread *t = arg;
    Search *s = t->s;
    int seen = 0;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->start_gen == seen && !s->exiting)
            pthread_cond_wait(&s->cond, &s->lock);
        if (s->exiting)
            break;
        seen = s->start_gen;
        thread_search(t);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}
#endif

static void destroy_threads(Search *s)
{
    pthread_mutex_lock(&s->lock);
    s->exiting = true;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < s->thread_count; i++) {
#ifndef SEARCH_INLINE
        pthread_join(s->threads[i]->tid, NULL);
#endif
        plat_aligned_free(s->threads[i]);
    }
    free(s->threads);
    s->threads = NULL;
    s->thread_count = 0;
    s->exiting = false;
    s->start_gen = 0; /* new threads start with nothing seen */
}

static bool create_threads(Search *s, int n)
{
    s->threads = calloc((size_t)n, sizeof(SearchThread *));
    if (!s->threads)
        return false;
#ifdef SEARCH_INLINE
    n = 1; /* the caller is the one searcher */
#endif
    for (int i = 0; i < n; i++) {
        SearchThread *t = NULL;
        if (!(t = plat_aligned_alloc(CACHE_LINE, sizeof *t)))
            return false;
        memset(t, 0, sizeof *t);
        t->s = s;
        t->id = i;
#ifndef SEARCH_INLINE
        if (pthread_create(&t->tid, NULL, thread_main, t) != 0) {
            plat_aligned_free(t);
            return false;
        }
#endif
        s->threads[s->thread_count++] = t;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Lifecycle                                                                */

static void instance_free(Search *s)
{
    tt_table_free(&s->tt);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

Search *search_create(size_t tt_mb, const SearchReporter *reporter)
{
    search_init_tables();
    Search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
        free(s);
        return NULL;
    }
    if (pthread_cond_init(&s->cond, NULL) != 0) {
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    if (reporter)
        s->rep = *reporter;
    s->options = (SearchOptions){.multipv = 1,
                                 .skill_level = LEVEL_FULL,
                                 .elo = 1500,
                                 .tb_probe_depth = 1,
                                 .tb_probe_limit = 7,
                                 .tb_50_move_rule = true};
    s->game_seed = mix64((uint64_t)now_ms());
    s->last_strength = LEVEL_FULL;
    if (!tt_table_resize(&s->tt, tt_mb)) {
        instance_free(s);
        return NULL;
    }
    if (!create_threads(s, 1)) {
        destroy_threads(s);
        instance_free(s);
        return NULL;
    }
    return s;
}

void search_destroy(Search *s)
{
    if (!s)
        return;
    search_stop(s);
    search_wait(s);
    destroy_threads(s);
    instance_free(s);
}

void search_wait(Search *s)
{
    pthread_mutex_lock(&s->lock);
    while (s->active)
        pthread_cond_wait(&s->cond, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------------------------ */
/* Settings                                                                 */

bool search_set_threads(Search *s, int n)
{
    search_wait(s);
    destroy_threads(s);
    if (create_threads(s, n))
        return true;
    /* Keep what could be started (at least the main thread). */
    if (s->thread_count == 0) {
        free(s->threads);
        s->threads = NULL;
        if (!create_threads(s, 1)) {
            fprintf(stderr, "rokade: cannot start the search thread\n");
            exit(1);
        }
    }
    return false;
}

int search_threads(const Search *s) { return s->thread_count; }

bool search_set_hash(Search *s, size_t mb)
{
    search_wait(s);
    return tt_table_resize(&s->tt, mb);
}

size_t search_hash_mb(const Search *s) { return s->tt.size_mb; }

void search_set_net(Search *s, const NnueNet *net)
{
    search_wait(s);
    s->net = net;
}

SearchOptions *search_options(Search *s) { return &s->options; }

void search_new_game(Search *s)
{
    search_wait(s);
    for (int i = 0; i < s->thread_count; i++)
        hist_clear(&s->threads[i]->hist);
    tt_table_clear(&s->tt, s->thread_count);
    s->game_seed = mix64(s->game_seed ^ (uint64_t)now_ms());
}

/* ------------------------------------------------------------------------ */
/* Searching                                                                */

void search_limits_none(SearchLimits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->clock.time[0] = lim->clock.time[1] = -1;
    lim->clock.inc[0] = lim->clock.inc[1] = -1;
}

void search_start(Search *s, const Position *root, const SearchLimits *limits)
{
    search_wait(s);
    pthread_mutex_lock(&s->lock);
    s->limits = *limits;
    memcpy(&s->root, root, sizeof s->root);
    s->shown_pv = s->multipv = s->options.multipv < 1 ? 1 : s->options.multipv;
    tm_init(&s->tm, &s->limits.clock, root->side);
    /* A play level caps depth and nodes and searches a few lines to choose
     * from; its seed is drawn here unless one is set. */
    s->lv = level_make(level_strength(s->options.skill_level, s->options.limit_strength,
                                      s->options.elo));
    if (s->lv.active) {
        s->level_seed = s->options.seed ? s->options.seed : s->game_seed;
        if (s->multipv < LEVEL_CANDIDATES)
            s->multipv = LEVEL_CANDIDATES;
        if (!s->limits.depth || s->limits.depth > s->lv.depth_cap)
            s->limits.depth = s->lv.depth_cap;
    }
    s->endless = s->limits.infinite
                 || (!s->limits.depth && !s->limits.nodes && !s->limits.mate && !s->tm.limits.soft);
#ifdef SEARCH_INLINE
    /* Nothing could stop an endless search that runs in the caller. */
    if (s->endless) {
        s->limits.infinite = s->limits.ponder = false;
        s->limits.clock.movetime = SEARCH_INLINE_MS;
        tm_init(&s->tm, &s->limits.clock, root->side);
        s->endless = false;
    }
#endif
    /* Static evals in the table carry the noise of the level that stored
     * them: a new level or seed starts from an empty table. */
    double strength = s->lv.active ? s->lv.strength : LEVEL_FULL;
    if (strength != s->last_strength || (s->lv.active && s->level_seed != s->last_seed))
        tt_table_clear(&s->tt, s->thread_count);
    s->last_strength = strength;
    s->last_seed = s->level_seed;

    MoveList list;
    gen_legal(root, &list);
    RootMove *rms = s->threads[0]->root_moves;
    int count = 0;
    for (int i = 0; i < list.count; i++) {
        bool wanted = s->limits.searchmoves_count == 0;
        for (int k = 0; k < s->limits.searchmoves_count && !wanted; k++)
            wanted = s->limits.searchmoves[k] == list.moves[i];
        if (!wanted)
            continue;
        memset(&rms[count], 0, sizeof rms[count]);
        rms[count].move = list.moves[i];
        rms[count].score = rms[count].prev_score = -SCORE_INFINITE;
        rms[count].pv[0] = list.moves[i];
        rms[count].pv_len = 1;
        count++;
    }
    tbsearch_rank_root(s, rms, &count);
    for (int i = 0; i < s->thread_count; i++) {
        SearchThread *t = s->threads[i];
        memcpy(&t->pos, root, sizeof t->pos);
        if (s->net)
            nnue_reset(&t->nnue, s->net, root);
        else
            t->nnue.net = NULL;
        atomic_store(&t->nodes, 0);
        atomic_store(&t->tbhits, i == 0 ? s->tb_root_hits : 0);
        t->completed_depth = t->root_depth = t->seldepth = t->pv_idx = 0;
        t->root_count = count;
        t->may_stop = i != 0;
        t->full_width = t->proof_abort = false;
        t->nmp_min_ply = 0;
        if (i > 0)
            memcpy(t->root_moves, rms, (size_t)count * sizeof *rms);
    }
    atomic_store(&s->stop, false);
    atomic_store(&s->pondering, s->limits.ponder);
    atomic_store(&s->ponder_spent, false);
    s->user_stopped = false;
    s->last_line.pv_len = -1;
    atomic_store(&s->start_time, now_ms());
    tt_table_new_search(&s->tt);
    s->busy = s->thread_count;
    s->active = true;
    s->start_gen++;
#ifdef SEARCH_INLINE
    thread_search(s->threads[0]);
#else
    pthread_cond_broadcast(&s->cond);
#endif
    pthread_mutex_unlock(&s->lock);
}

void search_stop(Search *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->active) {
        s->user_stopped = true;
        atomic_store(&s->stop, true);
        pthread_cond_broadcast(&s->cond);
    }
    pthread_mutex_unlock(&s->lock);
}

void search_ponderhit(Search *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->active && atomic_load(&s->pondering)) {
        /* The predicted move was played: the search goes on with our clock,
         * and the time it has spent already counts as spent on this move
         * (elapsed time runs from the start of the ponder search). When
         * that time is past the soft limit, or the main thread found it
         * spent after an iteration, the move is played now. The store of
         * pondering comes before the load of ponder_spent, and the main
         * thread's store of ponder_spent before its load of pondering, so
         * one of the two always sees the other. */
        atomic_store(&s->pondering, false);
        if (atomic_load(&s->ponder_spent)
            || (s->tm.limits.soft && search_elapsed(s) >= s->tm.limits.soft))
            atomic_store(&s->stop, true);
        pthread_cond_broadcast(&s->cond);
    }
    pthread_mutex_unlock(&s->lock);
}

bool search_running(Search *s)
{
    pthread_mutex_lock(&s->lock);
    bool a = s->active;
    pthread_mutex_unlock(&s->lock);
    return a;
}

bool search_is_unbounded(Search *s)
{
    pthread_mutex_lock(&s->lock);
    /* After `stop` the search is ending: commands just wait for it. */
    bool u = s->active && !s->user_stopped && (s->endless || atomic_load(&s->pondering));
    pthread_mutex_unlock(&s->lock);
    return u;
}

bool search_analyse(Search *s, const Position *root, const SearchLimits *limits,
                    SearchAnalysis *out)
{
    SearchLimits lim = *limits;
    lim.depth = lim.depth > MAX_PLY - 2 ? MAX_PLY - 2 : lim.depth < 0 ? 0 : lim.depth;
    lim.infinite = lim.ponder = false;
    /* Full strength, one line, nothing reported. */
    search_wait(s);
    SearchOptions saved = s->options;
    s->options.multipv = 1;
    s->options.skill_level = LEVEL_FULL;
    s->options.limit_strength = false;
    s->quiet = true;
    search_start(s, root, &lim);
    search_wait(s);
    s->quiet = false;
    s->options = saved;
    const SearchThread *t = s->threads[0];
    const RootMove *rm = t->root_count ? &t->root_moves[0] : NULL;
    out->best = rm ? rm->move : MOVE_NONE;
    out->score = rm ? rm->score : 0;
    out->depth = t->completed_depth;
    out->nodes = search_total_nodes(s);
    out->pv_len = 0;
    if (!rm) {
        out->score = pos_in_check(root) ? mated_in(0) : SCORE_DRAW;
        return false;
    }
    for (int i = 0; i < rm->pv_len && i <= MAX_PLY; i++)
        out->pv[out->pv_len++] = rm->pv[i];
    if (out->pv_len == 0)
        out->pv[out->pv_len++] = rm->move;
    return true;
}

bool search_position(Search *s, const Position *root, int depth, uint64_t nodes, SearchResult *out)
{
    SearchLimits lim;
    search_limits_none(&lim);
    lim.depth = depth;
    lim.nodes = nodes;
    SearchAnalysis a;
    bool any = search_analyse(s, root, &lim, &a);
    *out = (SearchResult){a.best, a.score, a.depth, a.nodes};
    return any;
}
