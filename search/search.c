/* Iterative deepening, PVS alpha-beta and quiescence, and the thread pool that
 * runs them (Lazy SMP: the threads share the TT; each has its own histories).
 * Stop and time limits are polled; the search unwinds by returning. All the
 * state of a search lives in its Search instance; the UCI engine uses the
 * default one, datagen one per worker. */
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/eval.h"
#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "level.h"
#include "movepick.h"
#include "../movegen/score.h"
#include "see.h"
#include "tt.h"

/* ------------------------------------------------------------------------ */
/* Technique switches, for ablation matches (bench/ablate.sh): a build with
 * -DSEARCH_OFF=OFF_NMP (or several or-ed together) leaves that technique out.
 * The default build has them all; the unused branches fold away.           */

enum {
    OFF_ASPIRATION = 1 << 0,  /* aspiration windows */
    OFF_RAZOR = 1 << 1,       /* razoring */
    OFF_RFP = 1 << 2,         /* reverse futility pruning */
    OFF_NMP = 1 << 3,         /* null-move pruning */
    OFF_IIR = 1 << 4,         /* internal iterative reduction */
    OFF_LMP = 1 << 5,         /* late-move pruning */
    OFF_FUTILITY = 1 << 6,    /* futility pruning */
    OFF_SEE_PRUNE = 1 << 7,   /* SEE pruning of quiets and captures */
    OFF_SINGULAR = 1 << 8,    /* singular extension and multi-cut */
    OFF_CHECK_EXT = 1 << 9,   /* check extension */
    OFF_LMR = 1 << 10,        /* late-move reductions */
    OFF_KILLERS = 1 << 11,    /* killers and counter-move */
    OFF_QS_PRUNE = 1 << 12,   /* delta and SEE pruning in quiescence */
    OFF_HIST_PRUNE = 1 << 13, /* history pruning of quiet moves */
};
#ifndef SEARCH_OFF
#define SEARCH_OFF 0
#endif
#define USE(tech) (!(SEARCH_OFF & (tech)))

/* ------------------------------------------------------------------------ */
/* Tunables                                                                 */

static const int ASP_DELTA = 14;
static const int RAZOR_MARGIN = 220;
static const int RFP_DEPTH = 8, RFP_MARGIN = 75;
static const int NMP_MIN_DEPTH = 3, NMP_BASE_REDUCTION = 4;
static const int FUTILITY_DEPTH = 8, FUTILITY_BASE = 90, FUTILITY_MARGIN = 90;
static const int SEE_QUIET_MARGIN = -55, SEE_NOISY_MARGIN = -22;
static const int SE_MIN_DEPTH = 7;
static const int HIST_PRUNE_DEPTH = 4, HIST_PRUNE_MARGIN = 4000;
static const int QS_DELTA = 200;
static const int EVAL_DIFF_HIST = 10, EVAL_DIFF_HIST_MAX = 1600;

/* ------------------------------------------------------------------------ */
/* Per-thread data                                                          */

typedef struct {
    ContHist *cont;      /* continuation-history slot of the move made at this ply */
    move_t move, excluded, killers[2];
    bool quiet;          /* the move made at this ply is neither a capture nor a promotion */
    int static_eval;
    int cutoffs; /* beta cutoffs of the nodes searched at this ply under the same grandparent */
    int ply;
    int pv_len;
    move_t pv[MAX_PLY + 1];
} Stack;

typedef struct {
    move_t move;
    int score, prev_score, seldepth, pv_len;
    uint64_t nodes; /* nodes spent under this move in the whole search (time management) */
    move_t pv[MAX_PLY + 1];
} RootMove;

enum { STACK_OFFSET = 4 };

typedef struct SearchThread {
    Search *s;           /* the instance this thread belongs to */
    int id;
    pthread_t tid;
    Position pos;
    _Atomic uint64_t nodes;
    int seldepth, root_depth, completed_depth, pv_idx, root_count;
    RootMove root_moves[MAX_MOVES];
    Stack stack[MAX_PLY + STACK_OFFSET + 4];
    History hist;
} SearchThread;

/* ------------------------------------------------------------------------ */
/* The instance                                                             */

struct Search {
    OutputFn out;           /* NULL: prints nothing */
    SearchOptions options;
    TT *tt;                 /* the default table, or tt_own */
    TT tt_own;
    SearchThread **threads;
    int thread_count;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int start_gen, busy;    /* guarded by lock */
    bool active, exiting;   /* guarded by lock */
    bool user_stopped;      /* guarded by lock: `stop` was received */
    /* Guarded by lock: nothing but `stop` ends this search (infinite, or no
     * depth, node, mate or time limit, as with only the opponent's clock). A
     * `go mate N` counts as finite: it ends when it finds the mate. */
    bool endless;
    bool quiet;             /* bench, instances: print nothing */
    atomic_bool stop, pondering;
    SearchLimits limits;
    TimeLimits time;
    _Atomic int64_t start_time;
    Position root;
    int multipv;            /* lines searched */
    int shown_pv;           /* lines printed: the MultiPV option */
    Level lv;               /* the play level of this search */
    uint64_t level_seed;
    uint64_t game_seed;     /* drawn at creation and by a new game */
    double last_strength;
    uint64_t last_seed;
};

/* Read-only after the first instance is made; shared by all. */
static int Reductions[64][64];
static pthread_once_t ReductionsOnce = PTHREAD_ONCE_INIT;

/* The instance of the functions without a Search argument (UCI, bench). */
static Search *Default;

static void out_line(const Search *s, const char *line);

static inline void count_node(SearchThread *t)
{
    atomic_store_explicit(&t->nodes, atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

static uint64_t total_nodes(const Search *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->thread_count; i++)
        n += atomic_load_explicit(&s->threads[i]->nodes, memory_order_relaxed);
    return n;
}

/* The static evaluation, with the play level's noise when one is set. */
static inline int evaluate(const Search *s, const Position *pos)
{
    int v = eval_position(pos);
    if (s->lv.active)
        v += level_noise(&s->lv, pos_key(pos), s->level_seed);
    return v;
}

static inline bool stopped(const Search *s)
{
    return atomic_load_explicit(&s->stop, memory_order_relaxed);
}

static int64_t elapsed(const Search *s) { return tm_now() - atomic_load(&s->start_time); }

/* Every thread polls the clock and the node limit: with more threads than
 * cores the main thread may not run for a while. One thread stops at exactly
 * the node limit; several check the sum every 1024 nodes of their own. */
static void check_limits(SearchThread *t)
{
    Search *const s = t->s;
    uint64_t n = atomic_load_explicit(&t->nodes, memory_order_relaxed);
    if (s->limits.nodes
        && (s->thread_count == 1 ? n >= s->limits.nodes
                                 : (n & 1023) == 0 && total_nodes(s) >= s->limits.nodes))
        atomic_store(&s->stop, true);
    if ((n & 511) == 0 && s->time.hard
        && !atomic_load_explicit(&s->pondering, memory_order_relaxed) && elapsed(s) >= s->time.hard)
        atomic_store(&s->stop, true);
    /* A play level's node budget is checked between iterations; this is only
     * the backstop, once the first iteration is complete. */
    if (s->lv.active && t->id == 0 && (n & 255) == 0 && t->completed_depth >= 1
        && total_nodes(s) >= 4 * s->lv.node_cap)
        atomic_store(&s->stop, true);
}

/* ------------------------------------------------------------------------ */
/* Draws                                                                    */

static bool is_draw(const Position *pos, int ply)
{
    const StateInfo *st = pos_st(pos);
    /* 50 moves, unless this very position is checkmate (Art. 9.3, 9.6.2). */
    if (st->rule50 >= 100 && (!st->checkers || pos_has_legal_move(pos)))
        return true;
    int back = st->rule50 < st->plies_from_null ? st->rule50 : st->plies_from_null;
    if (back > pos->hply)
        back = pos->hply;
    int reps = 0;
    for (int i = 4; i <= back; i += 2)
        if (pos->hist[pos->hply - i].key == st->key) {
            if (i < ply || ++reps == 2)
                return true;
        }
    return pos_is_dead(pos);
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static void update_pv(Stack *ss, move_t m)
{
    ss->pv[0] = m;
    memcpy(ss->pv + 1, (ss + 1)->pv, (size_t)(ss + 1)->pv_len * sizeof(move_t));
    ss->pv_len = (ss + 1)->pv_len + 1;
}

static bool non_pawn_material(const Position *pos, int c)
{
    return (pos->by_color[c] & ~pos->by_type[PAWN] & ~pos->by_type[KING]) != 0;
}

static RootMove *find_root_move(SearchThread *t, move_t m)
{
    for (int i = t->pv_idx; i < t->root_count; i++)
        if (t->root_moves[i].move == m)
            return &t->root_moves[i];
    return NULL;
}

/* A quiet move's history and continuation histories. */
static void reward_quiet(SearchThread *t, Stack *ss, move_t m, int bonus)
{
    const Position *pos = &t->pos;
    int pc = pos->board[move_from(m)], to = move_to(m);
    history_update(&t->hist.butterfly[pos->side][butterfly_index(m)], bonus);
    for (int k = 1; k <= 2; k++)
        if ((ss - k)->cont)
            history_update(&(*(ss - k)->cont)[pc][to], bonus);
}

static void update_quiet_stats(SearchThread *t, Stack *ss, move_t best, const move_t *quiets,
                               int nq, int depth)
{
    const Position *pos = &t->pos;
    int bonus = history_bonus(depth);
    if (ss->killers[0] != best) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = best;
    }
    if (USE(OFF_KILLERS) && (ss - 1)->move && (ss - 1)->move != MOVE_NULL) {
        int pto = move_to((ss - 1)->move);
        t->hist.counter[pos->board[pto]][pto] = best;
    }
    for (int i = 0; i < nq; i++)
        reward_quiet(t, ss, quiets[i], quiets[i] == best ? bonus : -bonus);
}

/* The capture-history entry of a capture or promotion. */
static int16_t *capture_entry(SearchThread *t, move_t m)
{
    const Position *pos = &t->pos;
    return &t->hist.capture[pos->board[move_from(m)]][move_to(m)][capture_victim(pos, m)];
}

static void update_capture_stats(SearchThread *t, move_t m, int bonus)
{
    history_update(capture_entry(t, m), bonus);
}

/* Bookkeeping at the entry of every node. */
static inline void enter_node(SearchThread *t, Stack *ss)
{
    count_node(t);
    check_limits(t);
    ss->pv_len = 0;
    if (ss->ply > t->seldepth)
        t->seldepth = ss->ply;
}

/* Whether a TT entry's bound settles the node against [alpha, beta]. */
static inline bool tt_cutoff(const TTData *e, int alpha, int beta)
{
    return e->hit && e->score != SCORE_NONE
           && (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && e->score >= beta)
               || (e->bound == BOUND_UPPER && e->score <= alpha));
}

/* ------------------------------------------------------------------------ */
/* Quiescence                                                               */

static int qsearch(SearchThread *t, Stack *ss, int alpha, int beta)
{
    Search *const s = t->s;
    Position *pos = &t->pos;
    const bool pv_node = beta - alpha > 1;
    const bool in_check = pos_in_check(pos);

    enter_node(t, ss);
    if (stopped(s))
        return 0;
    if (is_draw(pos, ss->ply))
        return SCORE_DRAW;
    if (ss->ply >= MAX_PLY - 1)
        return in_check ? SCORE_DRAW : evaluate(s, pos);

    /* 1. Transposition table. */
    TTData tte;
    tt_table_probe(s->tt, pos_key(pos), ss->ply, &tte);
    if (!pv_node && tt_cutoff(&tte, alpha, beta))
        return tte.score;

    /* 2. Stand pat. */
    int best, static_eval = SCORE_NONE;
    if (in_check)
        best = -SCORE_INFINITE;
    else {
        static_eval = tte.hit && tte.eval != SCORE_NONE ? tte.eval : evaluate(s, pos);
        best = static_eval;
        if (tte.hit && tte.score != SCORE_NONE
            && (tte.bound & (tte.score > best ? BOUND_LOWER : BOUND_UPPER)))
            best = tte.score;
        if (best >= beta) {
            if (!tte.hit)
                tt_table_store(s->tt, pos_key(pos), ss->ply, MOVE_NONE, SCORE_NONE, static_eval, 0,
                               BOUND_NONE, false);
            return best;
        }
        if (best > alpha)
            alpha = best;
    }

    /* 3. Captures and queen promotions, or every evasion when in check. */
    MovePicker mp;
    const ContHist *cont[2] = {(ss - 1)->cont, (ss - 2)->cont};
    mp_init(&mp, pos, &t->hist, cont, tte.move, NULL, MOVE_NONE, true);
    move_t m, best_move = MOVE_NONE;
    int moves = 0;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        moves++;
        if (USE(OFF_QS_PRUNE) && !in_check && best > SCORE_MATED_IN_MAX) {
            /* Delta pruning: even winning the piece cannot reach alpha. */
            if (move_kind(m) != MOVE_PROMOTION && !pos_is_capture(pos, m))
                continue;
            int gain = move_kind(m) == MOVE_EN_PASSANT ? PieceValue[PAWN]
                                                        : PieceValue[piece_type(pos->board[move_to(m)])];
            if (move_kind(m) != MOVE_PROMOTION && static_eval + gain + QS_DELTA <= alpha
                && !see_ge(pos, m, 1)) {
                if (static_eval + gain + QS_DELTA > best)
                    best = static_eval + gain + QS_DELTA;
                continue;
            }
            if (!see_ge(pos, m, 0))
                continue;
        }
        ss->move = m;
        ss->quiet = false;
        ss->cont = &t->hist.continuation[pos->board[move_from(m)]][move_to(m)];
        tt_table_prefetch(s->tt, pos_key(pos));
        pos_make_move(pos, m);
        int score = -qsearch(t, ss + 1, -beta, -alpha);
        pos_unmake_move(pos, m);
        if (stopped(s))
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node)
                    update_pv(ss, m);
                if (score >= beta)
                    break;
                alpha = score;
            }
        }
    }
    if (in_check && moves == 0)
        return mated_in(ss->ply);

    tt_table_store(s->tt, pos_key(pos), ss->ply, best_move, best, static_eval, 0,
                   best >= beta ? BOUND_LOWER : BOUND_UPPER, false);
    return best;
}

/* ------------------------------------------------------------------------ */
/* Alpha-beta                                                               */

static int search(SearchThread *t, Stack *ss, int alpha, int beta, int depth, bool cut_node)
{
    Search *const s = t->s;
    Position *pos = &t->pos;
    const bool pv_node = beta - alpha > 1;
    const bool root = ss->ply == 0;

    if (depth <= 0)
        return qsearch(t, ss, alpha, beta);

    enter_node(t, ss);
    const bool in_check = pos_in_check(pos);

    /* 1. Stop, draws, maximum ply, mate distance. */
    if (!root) {
        if (stopped(s))
            return 0;
        if (is_draw(pos, ss->ply))
            return SCORE_DRAW;
        if (ss->ply >= MAX_PLY - 1)
            return in_check ? SCORE_DRAW : evaluate(s, pos);
        int a = alpha > mated_in(ss->ply) ? alpha : mated_in(ss->ply);
        int b = beta < mate_in(ss->ply + 1) ? beta : mate_in(ss->ply + 1);
        if (a >= b)
            return a;
    }

    /* 2. Transposition table (not while a move is excluded). */
    const move_t excluded = ss->excluded;
    TTData tte = {false, MOVE_NONE, SCORE_NONE, SCORE_NONE, -1, BOUND_NONE, false};
    if (!excluded)
        tt_table_probe(s->tt, pos_key(pos), ss->ply, &tte);
    move_t tt_move = root ? t->root_moves[t->pv_idx].move : tte.move;
    const bool tt_pv = pv_node || (tte.hit && tte.pv);
    if (!pv_node && !excluded && tte.depth >= depth && tt_cutoff(&tte, alpha, beta)
        && pos_rule50(pos) < 90) {
        /* A quiet TT move that still cuts off earns history, as a searched one would. */
        if (tte.score >= beta && tte.move && pos_is_pseudo_legal(pos, tte.move)
            && !pos_is_capture(pos, tte.move) && move_kind(tte.move) != MOVE_PROMOTION)
            reward_quiet(t, ss, tte.move, history_bonus(depth));
        return tte.score;
    }

    /* 3. Static evaluation and the improving flag. */
    int eval;
    bool improving = false;
    if (in_check) {
        ss->static_eval = eval = SCORE_NONE;
    } else if (excluded) {
        eval = ss->static_eval;
    } else {
        ss->static_eval = eval = tte.hit && tte.eval != SCORE_NONE ? tte.eval : evaluate(s, pos);
        if (!tte.hit)
            tt_table_store(s->tt, pos_key(pos), ss->ply, MOVE_NONE, SCORE_NONE, eval, -1,
                           BOUND_NONE, tt_pv);
        if (tte.hit && tte.score != SCORE_NONE
            && (tte.bound & (tte.score > eval ? BOUND_LOWER : BOUND_UPPER)))
            eval = tte.score;
        /* The opponent's quiet move is judged by how the static evaluation
         * changed across it (from its side's view: -(theirs + ours)). */
        if (!root && (ss - 1)->quiet && (ss - 1)->static_eval != SCORE_NONE) {
            int b = -EVAL_DIFF_HIST * ((ss - 1)->static_eval + ss->static_eval);
            if (b > EVAL_DIFF_HIST_MAX)
                b = EVAL_DIFF_HIST_MAX;
            if (b < -EVAL_DIFF_HIST_MAX)
                b = -EVAL_DIFF_HIST_MAX;
            history_update(&t->hist.butterfly[!pos->side][butterfly_index((ss - 1)->move)], b);
        }
    }
    if (!in_check) {
        if ((ss - 2)->static_eval != SCORE_NONE)
            improving = ss->static_eval > (ss - 2)->static_eval;
        else if ((ss - 4)->static_eval != SCORE_NONE)
            improving = ss->static_eval > (ss - 4)->static_eval;
        else
            improving = true;
    }
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;
    (ss + 2)->cutoffs = 0;

    if (!pv_node && !in_check && !excluded) {
        /* 4. Razoring: far below alpha, see whether captures can save it. */
        if (USE(OFF_RAZOR) && depth <= 3 && eval + RAZOR_MARGIN * depth < alpha) {
            int v = qsearch(t, ss, alpha - 1, alpha);
            if (v < alpha && !is_mate_score(v))
                return v;
        }
        /* 5. Reverse futility pruning. */
        if (USE(OFF_RFP) && depth <= RFP_DEPTH && eval - RFP_MARGIN * (depth - improving) >= beta
            && eval < SCORE_MATE_IN_MAX)
            return (eval + beta) / 2;

        /* 6. Null move, with a zugzwang guard and verification when deep. */
        if (USE(OFF_NMP) && depth >= NMP_MIN_DEPTH && eval >= beta && ss->static_eval >= beta
            && (ss - 1)->move != MOVE_NULL && non_pawn_material(pos, pos->side)
            && beta > SCORE_MATED_IN_MAX) {
            int r = NMP_BASE_REDUCTION + depth / 4 + ((eval - beta) / 200 < 3 ? (eval - beta) / 200 : 3);
            ss->move = MOVE_NULL;
            ss->quiet = false;
            ss->cont = NULL;
            pos_make_null(pos);
            int v = -search(t, ss + 1, -beta, -beta + 1, depth - r, !cut_node);
            pos_unmake_null(pos);
            if (stopped(s))
                return 0;
            if (v >= beta) {
                if (v >= SCORE_MATE_IN_MAX)
                    v = beta;
                if (depth < 12)
                    return v;
                ss->excluded = MOVE_NONE;
                (ss + 1)->move = MOVE_NONE;
                int w = search(t, ss, beta - 1, beta, depth - r, false);
                if (w >= beta)
                    return v;
            }
        }
    }

    /* 7. Internal iterative reduction without a TT move. */
    if (USE(OFF_IIR) && (pv_node || cut_node) && depth >= 4 && !tt_move)
        depth--;

    /* 8. The move loop. */
    MovePicker mp;
    const ContHist *cont[2] = {(ss - 1)->cont, (ss - 2)->cont};
    move_t counter = MOVE_NONE;
    if ((ss - 1)->move && (ss - 1)->move != MOVE_NULL) {
        int pto = move_to((ss - 1)->move);
        counter = t->hist.counter[pos->board[pto]][pto];
    }
    mp_init(&mp, pos, &t->hist, cont, tt_move, USE(OFF_KILLERS) ? ss->killers : NULL, counter,
            false);

    move_t quiets[64], captures[32];
    int nq = 0, nc = 0, move_count = 0;
    int best = -SCORE_INFINITE;
    move_t best_move = MOVE_NONE, m;
    const int old_alpha = alpha;

    while ((m = mp_next(&mp)) != MOVE_NONE) {
        if (m == excluded)
            continue;
        if (root && !find_root_move(t, m))
            continue;
        move_count++;
        const bool capture = pos_is_capture(pos, m);
        const bool quiet = !capture && move_kind(m) != MOVE_PROMOTION;
        const int pc = pos->board[move_from(m)];
        /* Read before the move is made (for the LMR of captures). */
        const int capture_hist = capture ? *capture_entry(t, m) : 0;
        int hist_score = quiet ? t->hist.butterfly[pos->side][butterfly_index(m)]
                                   + (cont[0] ? cont[0][0][pc][move_to(m)] : 0)
                                   + (cont[1] ? cont[1][0][pc][move_to(m)] : 0)
                               : 0;

        /* 9. Pruning of late and losing moves, never of the last non-losing one. */
        if (!root && best > SCORE_MATED_IN_MAX && non_pawn_material(pos, pos->side)) {
            if (quiet && !pos_gives_check(pos, m)) {
                int lmp = (3 + depth * depth) / (2 - improving);
                if (USE(OFF_LMP) && move_count > lmp)
                    continue;
                /* History pruning: quiet moves that keep failing here. */
                if (USE(OFF_HIST_PRUNE) && depth <= HIST_PRUNE_DEPTH
                    && hist_score < -HIST_PRUNE_MARGIN * depth)
                    continue;
                /* Not against a mate-level alpha: a quiet check may mate sooner. */
                if (USE(OFF_FUTILITY) && !in_check && depth <= FUTILITY_DEPTH
                    && alpha < SCORE_MATE_IN_MAX
                    && ss->static_eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha)
                    continue;
                if (USE(OFF_SEE_PRUNE) && !see_ge(pos, m, SEE_QUIET_MARGIN * depth))
                    continue;
            } else if (USE(OFF_SEE_PRUNE) && !quiet && depth <= 8
                       && !see_ge(pos, m, SEE_NOISY_MARGIN * depth * depth))
                continue;
        }

        /* 10. Extensions: singular (with multi-cut), check. */
        int ext = 0;
        if (USE(OFF_SINGULAR) && !root && depth >= SE_MIN_DEPTH && m == tt_move && !excluded
            && tte.depth >= depth - 3 && (tte.bound & BOUND_LOWER) && tte.score != SCORE_NONE
            && !is_mate_score(tte.score) && ss->ply < 2 * t->root_depth) {
            int sbeta = tte.score - 2 * depth;
            ss->excluded = m;
            int v = search(t, ss, sbeta - 1, sbeta, (depth - 1) / 2, cut_node);
            ss->excluded = MOVE_NONE;
            if (stopped(s))
                return 0;
            if (v < sbeta)
                ext = (!pv_node && v < sbeta - 20) ? 2 : 1;
            else if (sbeta >= beta)
                return sbeta;
            else if (tte.score >= beta)
                ext = -2;
            else if (cut_node)
                ext = -1;
        }

        if (root && t->id == 0 && !s->quiet && elapsed(s) > 3000) {
            char line[96], mv[8];
            move_to_uci(pos, m, mv);
            snprintf(line, sizeof line, "info depth %d currmove %s currmovenumber %d", depth, mv,
                     move_count + t->pv_idx);
            out_line(s, line);
        }
        ss->move = m;
        ss->quiet = quiet;
        ss->cont = &t->hist.continuation[pc][move_to(m)];
        tt_table_prefetch(s->tt, pos_key(pos));
        const uint64_t nodes_before = root ? atomic_load_explicit(&t->nodes, memory_order_relaxed) : 0;
        pos_make_move(pos, m);
        const bool gives_check = pos_in_check(pos);
        if (USE(OFF_CHECK_EXT) && !ext && gives_check && ss->ply < 2 * t->root_depth)
            ext = 1;
        if (quiet && nq < 64)
            quiets[nq++] = m;
        else if (capture && nc < 32)
            captures[nc++] = m;
        int new_depth = depth - 1 + ext;
        int score;

        /* 11. Late-move reductions, then the PVS re-searches. */
        if (USE(OFF_LMR) && depth >= 3 && move_count > 1 + root && (quiet || !pv_node)) {
            int r = Reductions[depth < 63 ? depth : 63][move_count < 63 ? move_count : 63];
            r += !pv_node;
            r += cut_node;
            r -= improving;
            r -= tt_pv && !pv_node;
            r += (ss + 1)->cutoffs > 3;
            r -= gives_check;
            r -= m == ss->killers[0] || m == ss->killers[1] || m == counter;
            if (quiet)
                r -= hist_score / 8192;
            else
                r -= 1 + capture_hist / 8192;
            int d = new_depth - (r > 0 ? r : 0);
            if (d < 1)
                d = 1;
            if (d > new_depth)
                d = new_depth;
            score = -search(t, ss + 1, -alpha - 1, -alpha, d, true);
            if (score > alpha && d < new_depth)
                score = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
        } else if (!pv_node || move_count > 1)
            score = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
        else
            score = alpha + 1; /* forces the full-window search below */
        if (pv_node && (move_count == 1 || (score > alpha && (root || score < beta))))
            score = -search(t, ss + 1, -beta, -alpha, new_depth, false);
        pos_unmake_move(pos, m);

        if (stopped(s))
            return 0;

        if (root) {
            RootMove *rm = find_root_move(t, m);
            rm->nodes += atomic_load_explicit(&t->nodes, memory_order_relaxed) - nodes_before;
            if (move_count == 1 || score > alpha) {
                rm->score = score;
                rm->seldepth = t->seldepth;
                rm->pv[0] = m;
                memcpy(rm->pv + 1, (ss + 1)->pv, (size_t)(ss + 1)->pv_len * sizeof(move_t));
                rm->pv_len = (ss + 1)->pv_len + 1;
            } else
                rm->score = -SCORE_INFINITE;
        }

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node)
                    update_pv(ss, m);
                if (score >= beta) {
                    /* 12. A cutoff: reward the move, punish those tried before. */
                    ss->cutoffs += 1 + !tt_move;
                    if (quiet)
                        update_quiet_stats(t, ss, m, quiets, nq, depth);
                    else
                        update_capture_stats(t, m, history_bonus(depth));
                    for (int i = 0; i < nc; i++)
                        if (captures[i] != m)
                            update_capture_stats(t, captures[i], -history_bonus(depth));
                    break;
                }
                alpha = score;
            }
        }
    }

    if (move_count == 0)
        return excluded ? alpha : in_check ? mated_in(ss->ply) : SCORE_DRAW;

    if (!excluded && !(root && t->pv_idx > 0))
        tt_table_store(s->tt, pos_key(pos), ss->ply, best_move, best, ss->static_eval, depth,
                       best >= beta                  ? BOUND_LOWER
                       : pv_node && best > old_alpha ? BOUND_EXACT
                                                     : BOUND_UPPER,
                       tt_pv);
    return best;
}

/* ------------------------------------------------------------------------ */
/* Iterative deepening                                                      */

static void sort_root_moves(RootMove *rm, int from, int to)
{
    /* Stable insertion sort by score, best first. */
    for (int i = from + 1; i < to; i++) {
        RootMove tmp = rm[i];
        int j = i - 1;
        while (j >= from && rm[j].score < tmp.score) {
            rm[j + 1] = rm[j];
            j--;
        }
        rm[j + 1] = tmp;
    }
}

static void format_score(int score, char *buf, size_t len)
{
    if (score >= SCORE_MATE_IN_MAX)
        snprintf(buf, len, "mate %d", (SCORE_MATE - score + 1) / 2);
    else if (score <= SCORE_MATED_IN_MAX)
        snprintf(buf, len, "mate -%d", (SCORE_MATE + score) / 2);
    else
        snprintf(buf, len, "cp %d", score);
}

static void format_wdl(int score, const Position *pos, char *buf, size_t len)
{
    /* A logistic model of the score: +-150 cp is about an even chance of a
     * decisive result, flatter as material comes off. */
    (void)pos;
    double s = score > 2000 ? 2000 : score < -2000 ? -2000 : score;
    int w = (int)(1000.0 / (1.0 + exp((150.0 - s) / 65.0)) + 0.5);
    int l = (int)(1000.0 / (1.0 + exp((150.0 + s) / 65.0)) + 0.5);
    if (score >= SCORE_MATE_IN_MAX)
        w = 1000, l = 0;
    if (score <= SCORE_MATED_IN_MAX)
        w = 0, l = 1000;
    snprintf(buf, len, " wdl %d %d %d", w, 1000 - w - l, l);
}

static void report(SearchThread *t, int depth, int alpha, int beta)
{
    Search *const s = t->s;
    int64_t ms = elapsed(s);
    uint64_t nodes = total_nodes(s);
    int lines = s->shown_pv < t->root_count ? s->shown_pv : t->root_count;
    char *buf = malloc(16 * (MAX_PLY + 2) + 256);
    if (!buf)
        return;
    for (int i = 0; i < lines; i++) {
        const RootMove *rm = &t->root_moves[i];
        bool updated = rm->score != -SCORE_INFINITE;
        if (!updated && depth == 1)
            continue;
        int d = updated ? depth : depth - 1;
        int score = updated ? rm->score : rm->prev_score;
        char sc[32], wdl[48] = "";
        format_score(score, sc, sizeof sc);
        if (s->options.show_wdl)
            format_wdl(score, &t->pos, wdl, sizeof wdl);
        const char *bound = i != t->pv_idx ? ""
                            : score >= beta ? " lowerbound"
                            : score <= alpha ? " upperbound"
                                             : "";
        int n = snprintf(buf, 256,
                         "info depth %d seldepth %d multipv %d score %s%s%s nodes %llu nps %llu "
                         "hashfull %d time %lld pv",
                         d, rm->seldepth > d ? rm->seldepth : d, i + 1, sc, bound, wdl,
                         (unsigned long long)nodes,
                         (unsigned long long)(ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes),
                         tt_table_hashfull(s->tt), (long long)ms);
        /* Print the moves by playing them on a copy of the root. */
        Position *p = &t->pos;
        int played = 0;
        for (int k = 0; k < rm->pv_len; k++) {
            move_t m = rm->pv[k];
            if (!pos_is_pseudo_legal(p, m) || !pos_is_legal(p, m))
                break;
            char mv[8];
            move_to_uci(p, m, mv);
            n += snprintf(buf + n, 16, " %s", mv);
            pos_make_move(p, m);
            played++;
        }
        while (played--)
            pos_unmake_move(p, rm->pv[played]);
        out_line(s, buf);
    }
    free(buf);
}

static void iterative_deepening(SearchThread *t)
{
    Search *const s = t->s;
    Stack *ss = t->stack + STACK_OFFSET;
    memset(t->stack, 0, sizeof t->stack);
    for (int i = 0; i < MAX_PLY + STACK_OFFSET + 4; i++) {
        t->stack[i].ply = i - STACK_OFFSET;
        t->stack[i].static_eval = SCORE_NONE;
    }
    const bool main_thread = t->id == 0;
    int max_depth = s->limits.depth > 0 ? s->limits.depth : MAX_PLY - 2;
    int prev_best_score = 0, stability = 0;
    move_t prev_best = MOVE_NONE;

    for (int depth = 1; depth <= max_depth; depth++) {
        /* Helpers start one ply deeper every other thread. */
        if (!main_thread && depth == 1 && (t->id & 1) && max_depth > 1)
            continue;
        t->root_depth = depth;
        for (int i = 0; i < t->root_count; i++)
            t->root_moves[i].prev_score = t->root_moves[i].score;
        int lines = s->multipv < t->root_count ? s->multipv : t->root_count;

        for (t->pv_idx = 0; t->pv_idx < lines; t->pv_idx++) {
            t->seldepth = 0;
            int prev = t->root_moves[t->pv_idx].prev_score;
            int delta = ASP_DELTA + abs(prev) / 64;
            int alpha = -SCORE_INFINITE, beta = SCORE_INFINITE, failed_high = 0;
            if (USE(OFF_ASPIRATION) && depth >= 4 && prev != -SCORE_INFINITE) {
                alpha = prev - delta > -SCORE_INFINITE ? prev - delta : -SCORE_INFINITE;
                beta = prev + delta < SCORE_INFINITE ? prev + delta : SCORE_INFINITE;
            }
            for (;;) {
                /* After a fail high the re-search goes a little less deep:
                 * the move is probably good, the depth is only to confirm it. */
                int d = depth - failed_high > 1 ? depth - failed_high : 1;
                int score = search(t, ss, alpha, beta, d, false);
                sort_root_moves(t->root_moves, t->pv_idx, t->root_count);
                if (stopped(s))
                    break;
                if (main_thread && (score <= alpha || score >= beta) && elapsed(s) > 1000)
                    report(t, depth, alpha, beta);
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -SCORE_INFINITE ? score - delta : -SCORE_INFINITE;
                    failed_high = 0;
                } else if (score >= beta) {
                    beta = score + delta < SCORE_INFINITE ? score + delta : SCORE_INFINITE;
                    failed_high += failed_high < 3;
                } else
                    break;
                delta += delta / 2;
            }
            sort_root_moves(t->root_moves, 0, t->pv_idx + 1);
            if (stopped(s))
                break;
        }
        if (stopped(s))
            break;
        t->completed_depth = depth;
        if (!main_thread)
            continue;
        report(t, depth, -SCORE_INFINITE, SCORE_INFINITE);

        /* Limits checked between iterations: a play level's node budget,
         * mate found, soft time. */
        if (s->lv.active && total_nodes(s) >= s->lv.node_cap)
            break;
        int best_score = t->root_moves[0].score;
        if (s->limits.mate && best_score >= mate_in(2 * s->limits.mate - 1) && !s->limits.infinite)
            break;
        move_t best = t->root_moves[0].move;
        stability = best == prev_best ? (stability < 6 ? stability + 1 : 6) : 0;
        prev_best = best;
        if (s->time.soft && !atomic_load(&s->pondering)) {
            /* A stable best move needs less time; a falling score needs more. */
            double scale = 1.3 - 0.1 * stability;
            if (depth > 1 && best_score < prev_best_score - 20)
                scale *= 1.4;
            /* The share of the effort the best move took: a move that
             * needed little of it was never seriously challenged. */
            uint64_t all = atomic_load_explicit(&t->nodes, memory_order_relaxed);
            if (depth >= 8 && all > 0) {
                double frac = (double)t->root_moves[0].nodes / (double)all;
                double effort = 0.5 + 2.0 * (1.0 - frac);
                scale *= effort < 1.5 ? effort : 1.5;
            }
            if (t->root_count == 1)
                scale = 0.2;
            if ((double)elapsed(s) > (double)s->time.soft * scale)
                break;
        }
        prev_best_score = best_score;
    }
    /* A play level that reached its cap early still takes a natural share
     * of its time, as a person would. */
    if (main_thread && s->lv.active && s->time.soft && !s->limits.infinite) {
        double u = (double)(level_mix(s->level_seed ^ pos_key(&t->pos)) >> 11) / 9007199254740992.0;
        double share = s->lv.think_min + u * (s->lv.think_max - s->lv.think_min);
        int64_t target = (int64_t)((double)s->time.soft * share);
        while (!stopped(s) && !atomic_load(&s->pondering) && elapsed(s) < target) {
            struct timespec ts = {0, 2000000L}; /* 2 ms */
            nanosleep(&ts, NULL);
        }
    }
    if (main_thread)
        atomic_store(&s->stop, true);
}

/* ------------------------------------------------------------------------ */
/* Results                                                                  */

static SearchThread *pick_best_thread(const Search *s)
{
    SearchThread *best = s->threads[0];
    if (s->thread_count == 1 || s->multipv > 1)
        return best;
    /* Vote: each thread backs its move by depth and by how good its score is. */
    int min_score = SCORE_INFINITE;
    for (int i = 0; i < s->thread_count; i++)
        if (s->threads[i]->completed_depth > 0 && s->threads[i]->root_moves[0].score < min_score)
            min_score = s->threads[i]->root_moves[0].score;
    int64_t votes[MAX_MOVES] = {0};
    for (int i = 0; i < s->thread_count; i++) {
        SearchThread *t = s->threads[i];
        if (!t->completed_depth)
            continue;
        for (int k = 0; k < t->root_count; k++)
            if (s->threads[0]->root_moves[k].move == t->root_moves[0].move)
                votes[k] += (int64_t)(t->root_moves[0].score - min_score + 14) * t->completed_depth;
    }
    int64_t best_votes = -1;
    for (int i = 0; i < s->thread_count; i++) {
        SearchThread *t = s->threads[i];
        if (!t->completed_depth)
            continue;
        int k;
        for (k = 0; k < s->threads[0]->root_count; k++)
            if (s->threads[0]->root_moves[k].move == t->root_moves[0].move)
                break;
        if (k == s->threads[0]->root_count)
            continue;
        bool mate_better = t->root_moves[0].score >= SCORE_MATE_IN_MAX
                           && t->root_moves[0].score > best->root_moves[0].score;
        if (votes[k] > best_votes || mate_better) {
            best_votes = votes[k];
            best = t;
        }
    }
    return best;
}

static void print_bestmove(Search *s)
{
    SearchThread *t = pick_best_thread(s);
    char line[64], mv[8];
    if (t->root_count == 0) {
        out_line(s, pos_in_check(&s->root) ? "info depth 0 score mate 0"
                                           : "info depth 0 score cp 0");
        out_line(s, "bestmove (none)");
        return;
    }
    if (t != s->threads[0])
        report(t, t->completed_depth, -SCORE_INFINITE, SCORE_INFINITE);
    const RootMove *rm = &t->root_moves[0];
    if (s->lv.active) {
        /* The level's choice among the lines searched, best first. */
        int scores[LEVEL_CANDIDATES], n = 0;
        for (int i = 0; i < t->root_count && n < LEVEL_CANDIDATES; i++) {
            const RootMove *r = &t->root_moves[i];
            int sc = r->score != -SCORE_INFINITE ? r->score : r->prev_score;
            if (sc == -SCORE_INFINITE)
                break;
            scores[n++] = sc;
        }
        if (n > 0)
            rm = &t->root_moves[level_pick(&s->lv, scores, n, s->level_seed ^ pos_key(&s->root))];
    }
    move_to_uci(&s->root, rm->move, mv);
    move_t ponder = rm->pv_len >= 2 ? rm->pv[1] : MOVE_NONE;
    Position *p = &t->pos;
    pos_make_move(p, rm->move);
    if (!ponder) {
        TTData tte;
        if (tt_table_probe(s->tt, pos_key(p), 1, &tte))
            ponder = tte.move;
    }
    if (ponder && (!pos_is_pseudo_legal(p, ponder) || !pos_is_legal(p, ponder)))
        ponder = MOVE_NONE;
    if (ponder) {
        char pm[8];
        move_to_uci(p, ponder, pm);
        snprintf(line, sizeof line, "bestmove %s ponder %s", mv, pm);
    } else
        snprintf(line, sizeof line, "bestmove %s", mv);
    pos_unmake_move(p, rm->move);
    out_line(s, line);
}

/* ------------------------------------------------------------------------ */
/* The pool                                                                 */

static void out_line(const Search *s, const char *line)
{
    if (!s->quiet && s->out)
        s->out(line);
}

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
        pthread_mutex_unlock(&s->lock);

        if (t->root_count > 0)
            iterative_deepening(t);

        pthread_mutex_lock(&s->lock);
        if (t->id != 0) {
            s->busy--;
            pthread_cond_broadcast(&s->cond);
            continue;
        }
        /* The main thread: in ponder or infinite mode bestmove waits for
         * `stop` or `ponderhit`; then the helpers stop and the result is
         * printed. */
        while (!s->user_stopped && !s->exiting
               && (atomic_load(&s->pondering) || s->limits.infinite))
            pthread_cond_wait(&s->cond, &s->lock);
        atomic_store(&s->stop, true);
        while (s->busy > 1)
            pthread_cond_wait(&s->cond, &s->lock);
        pthread_mutex_unlock(&s->lock);
        print_bestmove(s);
        pthread_mutex_lock(&s->lock);
        s->busy = 0;
        s->active = false;
        pthread_cond_broadcast(&s->cond);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void init_reductions(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            Reductions[d][m] = (int)(0.75 + log(d) * log(m) / 2.25);
}

static void destroy_threads(Search *s)
{
    pthread_mutex_lock(&s->lock);
    s->exiting = true;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < s->thread_count; i++) {
        pthread_join(s->threads[i]->tid, NULL);
        free(s->threads[i]);
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
    for (int i = 0; i < n; i++) {
        SearchThread *t = NULL;
        if (posix_memalign((void **)&t, 64, sizeof *t) != 0 || !t)
            return false;
        memset(t, 0, sizeof *t);
        t->s = s;
        t->id = i;
        if (pthread_create(&t->tid, NULL, thread_main, t) != 0) {
            free(t);
            return false;
        }
        s->threads[s->thread_count++] = t;
    }
    return true;
}

/* A new instance without threads, on the given table (NULL: its own). */
static Search *instance_new(OutputFn out, TT *tt)
{
    pthread_once(&ReductionsOnce, init_reductions);
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
    s->out = out;
    s->options = (SearchOptions){.multipv = 1, .threads = 1, .skill_level = LEVEL_FULL,
                                 .elo = 1500};
    s->tt = tt ? tt : &s->tt_own;
    s->game_seed = level_mix((uint64_t)tm_now());
    s->last_strength = LEVEL_FULL;
    return s;
}

static void instance_free(Search *s)
{
    tt_table_free(&s->tt_own);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static void instance_wait(Search *s)
{
    pthread_mutex_lock(&s->lock);
    while (s->active)
        pthread_cond_wait(&s->cond, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

static bool instance_set_threads(Search *s, int n)
{
    instance_wait(s);
    destroy_threads(s);
    if (create_threads(s, n)) {
        s->options.threads = n;
        return true;
    }
    /* Keep what could be started (at least the main thread). */
    if (s->thread_count == 0) {
        free(s->threads);
        s->threads = NULL;
        if (!create_threads(s, 1)) {
            fprintf(stderr, "rokade: cannot start the search thread\n");
            exit(1);
        }
    }
    s->options.threads = s->thread_count;
    return false;
}

static void instance_start(Search *s, const Position *root, const SearchLimits *limits)
{
    instance_wait(s);
    pthread_mutex_lock(&s->lock);
    s->limits = *limits;
    memcpy(&s->root, root, sizeof s->root);
    s->shown_pv = s->multipv = s->options.multipv < 1 ? 1 : s->options.multipv;
    s->time = tm_allocate(&s->limits.clock, root->side);
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
                 || (!s->limits.depth && !s->limits.nodes && !s->limits.mate && !s->time.soft);
    /* Static evals in the table carry the noise of the level that stored
     * them: a new level or seed starts from an empty table. */
    double strength = s->lv.active ? s->lv.strength : LEVEL_FULL;
    if (strength != s->last_strength || (s->lv.active && s->level_seed != s->last_seed))
        tt_table_clear(s->tt, s->thread_count);
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
    for (int i = 0; i < s->thread_count; i++) {
        SearchThread *t = s->threads[i];
        memcpy(&t->pos, root, sizeof t->pos);
        atomic_store(&t->nodes, 0);
        t->completed_depth = t->root_depth = t->seldepth = t->pv_idx = 0;
        t->root_count = count;
        if (i > 0)
            memcpy(t->root_moves, rms, (size_t)count * sizeof *rms);
    }
    atomic_store(&s->stop, false);
    atomic_store(&s->pondering, s->limits.ponder);
    s->user_stopped = false;
    atomic_store(&s->start_time, tm_now());
    tt_table_new_search(s->tt);
    s->busy = s->thread_count;
    s->active = true;
    s->start_gen++;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

static void instance_stop(Search *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->active) {
        s->user_stopped = true;
        atomic_store(&s->stop, true);
        pthread_cond_broadcast(&s->cond);
    }
    pthread_mutex_unlock(&s->lock);
}

static void instance_clear(Search *s)
{
    instance_wait(s);
    for (int i = 0; i < s->thread_count; i++)
        memset(&s->threads[i]->hist, 0, sizeof s->threads[i]->hist);
    tt_table_clear(s->tt, s->thread_count);
    s->game_seed = level_mix(s->game_seed ^ (uint64_t)tm_now());
}

/* Searches synchronously with the given limits, printing nothing. */
static void instance_run_quiet(Search *s, const Position *root, const SearchLimits *lim,
                               SearchResult *out)
{
    instance_wait(s);
    s->quiet = true;
    instance_start(s, root, lim);
    instance_wait(s);
    s->quiet = false;
    SearchThread *t = s->threads[0];
    out->best = t->root_count ? t->root_moves[0].move : MOVE_NONE;
    out->score = t->root_count ? t->root_moves[0].score : 0;
    out->depth = t->completed_depth;
    out->nodes = total_nodes(s);
}

static void limits_none(SearchLimits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->clock.time[0] = lim->clock.time[1] = -1;
    lim->clock.inc[0] = lim->clock.inc[1] = -1;
}

/* ------------------------------------------------------------------------ */
/* Instances                                                                */

Search *search_create(size_t tt_mb)
{
    Search *s = instance_new(NULL, NULL);
    if (!s)
        return NULL;
    if (!tt_table_resize(&s->tt_own, tt_mb)) {
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
    instance_stop(s);
    instance_wait(s);
    destroy_threads(s);
    instance_free(s);
}

void search_new_game(Search *s) { instance_clear(s); }

bool search_position(Search *s, const Position *root, int depth, uint64_t nodes,
                     SearchResult *out)
{
    SearchLimits lim;
    limits_none(&lim);
    lim.depth = depth > MAX_PLY - 2 ? MAX_PLY - 2 : depth < 0 ? 0 : depth;
    lim.nodes = nodes;
    /* Full strength, one line: the play-level options do not apply here. */
    SearchOptions saved = s->options;
    s->options.multipv = 1;
    s->options.skill_level = LEVEL_FULL;
    s->options.limit_strength = false;
    instance_run_quiet(s, root, &lim, out);
    s->options = saved;
    if (out->best == MOVE_NONE) {
        out->score = pos_in_check(root) ? mated_in(0) : SCORE_DRAW;
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* The default instance                                                     */

void search_init(OutputFn out)
{
    Default = instance_new(out, tt_default());
    if (!Default || !tt_resize(16)) {
        fprintf(stderr, "rokade: cannot allocate the hash table\n");
        exit(1);
    }
    if (!create_threads(Default, 1)) {
        fprintf(stderr, "rokade: cannot start the search thread\n");
        exit(1);
    }
}

void search_shutdown(void)
{
    search_stop();
    search_wait();
    destroy_threads(Default);
    tt_free();
    instance_free(Default);
    Default = NULL;
}

bool search_set_threads(int n) { return instance_set_threads(Default, n); }

SearchOptions *search_options(void) { return &Default->options; }

void search_start(const Position *root, const SearchLimits *limits)
{
    instance_start(Default, root, limits);
}

void search_stop(void) { instance_stop(Default); }

void search_ponderhit(void)
{
    Search *s = Default;
    pthread_mutex_lock(&s->lock);
    if (s->active && atomic_load(&s->pondering)) {
        /* Our clock runs from now: the time limits start here. */
        atomic_store(&s->start_time, tm_now());
        atomic_store(&s->pondering, false);
        pthread_cond_broadcast(&s->cond);
    }
    pthread_mutex_unlock(&s->lock);
}

void search_wait(void) { instance_wait(Default); }

bool search_running(void)
{
    pthread_mutex_lock(&Default->lock);
    bool a = Default->active;
    pthread_mutex_unlock(&Default->lock);
    return a;
}

bool search_is_unbounded(void)
{
    Search *s = Default;
    pthread_mutex_lock(&s->lock);
    /* After `stop` the search is ending: commands just wait for it. */
    bool u = s->active && !s->user_stopped && (s->endless || atomic_load(&s->pondering));
    pthread_mutex_unlock(&s->lock);
    return u;
}

void search_clear(void) { instance_clear(Default); }

uint64_t search_fixed_depth(const Position *root, int depth, move_t *best, int *score)
{
    SearchLimits lim;
    limits_none(&lim);
    lim.depth = depth;
    SearchResult r;
    instance_run_quiet(Default, root, &lim, &r);
    if (best)
        *best = r.best;
    if (score)
        *score = r.score;
    return r.nodes;
}
