/* Iterative deepening, PVS alpha-beta and quiescence: what each thread of
 * an instance runs (the pool is in thread.c). Stop and time limits are
 * polled; the search unwinds by returning. Results go to the instance's
 * reporter as data. Every constant is in tunables.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../movegen/score.h"
#include "../movegen/util.h"
#include "movepick.h"
#include "see.h"
#include "tbsearch.h"
#include "thread.h"
#include "tunables.h"

/* Times after which the search reports more than completed iterations. */
enum { CURRMOVE_AFTER_MS = 3000, BOUND_LINES_AFTER_MS = 1000 };

enum {
    /* How often a thread looks at the limits, in its own nodes (masks of
     * powers of two): the node total of several threads, the clock, a play
     * level's node budget. */
    NODES_SUM_MASK = 1023,
    CLOCK_CHECK_MASK = 511,
    LEVEL_CHECK_MASK = 255,
    /* The 50-move rule in plies (FIDE 9.3). */
    FIFTY_MOVE_PLIES = 100,
    /* No TT cutoff from this halfmove clock on: the stored score knows
     * nothing of the draw that comes nearer. */
    TT_CUTOFF_RULE50_MAX = 90,
    /* The fewest nodes a go-mate proof gets (mate_exists). */
    MATE_PROOF_MIN_NODES = 10000,
    /* Rows and columns of the LMR table: depth and move number beyond share
     * the last. */
    LMR_TABLE_SIZE = 64,
};

/* Late-move reductions by depth and move number. Built once before the
 * first instance runs and read-only afterwards (in a TUNE build, built
 * again when a tunable changes, between searches). */
static int Reductions[LMR_TABLE_SIZE][LMR_TABLE_SIZE];

static void build_reductions(void)
{
    for (int d = 1; d < LMR_TABLE_SIZE; d++)
        for (int m = 1; m < LMR_TABLE_SIZE; m++)
            Reductions[d][m] = (int)(LMR_BASE / 100.0 + log(d) * log(m) / (LMR_DIV / 100.0));
}

void search_tunables_changed(void) { build_reductions(); }

void search_init_tables(void)
{
#ifdef TUNE
    build_reductions();
#else
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_reductions);
#endif
}

static inline void count_node(SearchThread *t)
{
    atomic_store_explicit(&t->nodes, atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* The static evaluation, with the play level's noise when one is set. */
static inline int evaluate(SearchThread *t, const Position *pos)
{
    const Search *s = t->s;
    int v = t->nnue.net ? eval_nnue(pos, &t->nnue) : eval_position(pos, &t->pawns);
    if (s->lv.active)
        v += level_noise(&s->lv, pos_key(pos), s->level_seed);
    return v;
}

/* Moves made and unmade in the search: the net's accumulators follow. */
static inline void make_move(SearchThread *t, Position *pos, move_t m)
{
    if (t->nnue.net)
        pos_make_move_delta(pos, m, nnue_push(&t->nnue));
    else
        pos_make_move(pos, m);
}

static inline void unmake_move(SearchThread *t, Position *pos, move_t m)
{
    pos_unmake_move(pos, m);
    if (t->nnue.net)
        nnue_pop(&t->nnue);
}

static inline void make_null(SearchThread *t, Position *pos)
{
    if (t->nnue.net)
        nnue_push_null(&t->nnue);
    pos_make_null(pos);
}

static inline void unmake_null(SearchThread *t, Position *pos)
{
    pos_unmake_null(pos);
    if (t->nnue.net)
        nnue_pop(&t->nnue);
}

/* Whether the search must unwind. The main thread first completes depth 1,
 * however early `stop` or a limit comes (it takes a moment), so that every
 * search has a scored line to report and a move to play. */
static inline bool stopped(const SearchThread *t)
{
    return (atomic_load_explicit(&t->s->stop, memory_order_relaxed) && t->may_stop)
           || t->proof_abort;
}

/* Every thread polls the clock and the node limit: with more threads than
 * cores the main thread may not run for a while. One thread stops at exactly
 * the node limit; several check the sum every 1024 nodes of their own. */
static void check_limits(SearchThread *t)
{
    Search *const s = t->s;
    uint64_t n = atomic_load_explicit(&t->nodes, memory_order_relaxed);
    if (s->limits.nodes
        && (s->thread_count == 1
                ? n >= s->limits.nodes
                : (n & NODES_SUM_MASK) == 0 && search_total_nodes(s) >= s->limits.nodes))
        atomic_store(&s->stop, true);
    if ((n & CLOCK_CHECK_MASK) == 0 && s->tm.limits.hard
        && !atomic_load_explicit(&s->pondering, memory_order_relaxed)
        && tm_out_of_time(&s->tm, search_elapsed(s)))
        atomic_store(&s->stop, true);
    /* A go-mate proof has a budget of its own (mate_exists). */
    if (t->full_width && n >= t->proof_limit)
        t->proof_abort = true;
    /* A play level's node budget is checked between iterations; this is only
     * the backstop, once the first iteration is complete. */
    if (s->lv.active && t->id == 0 && (n & LEVEL_CHECK_MASK) == 0 && t->completed_depth >= 1
        && search_total_nodes(s) >= 4 * s->lv.node_cap)
        atomic_store(&s->stop, true);
}

/* ------------------------------------------------------------------------ */
/* Draws                                                                    */

static bool is_draw(const Position *pos, int ply)
{
    const StateInfo *st = pos_st(pos);
    /* 50 moves, unless this very position is checkmate (Art. 9.3, 9.6.2). */
    if (st->rule50 >= FIFTY_MOVE_PLIES && (!st->checkers || pos_has_legal_move(pos)))
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

/* The continuation histories of the moves 1 and 2 plies before this node. */
static inline void cont_of(Stack *ss, ContHist *cont[2])
{
    cont[0] = (ss - 1)->cont;
    cont[1] = (ss - 2)->cont;
}

/* Records at this ply the move m about to be made from pos. */
static inline void play_at(SearchThread *t, Stack *ss, const Position *pos, move_t m, bool quiet)
{
    const int pc = pos->board[move_from(m)], to = move_to(m);
    ss->move = m;
    ss->piece = pc;
    ss->quiet = quiet;
    ss->cont = &t->hist.continuation[pc][to];
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

/* Stores a result in the TT, unless it comes from a go-mate proof (a
 * null-window full-width search whose bounds would only crowd out the
 * entries the real search needs). */
static inline void tt_save(SearchThread *t, uint64_t key, int ply, move_t move, int score, int eval,
                           int depth, int bound, bool pv)
{
    if (!t->full_width)
        tt_table_store(&t->s->tt, key, ply, move, score, eval, depth, bound, pv);
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
    if (stopped(t))
        return 0;
    if (is_draw(pos, ss->ply))
        return SCORE_DRAW;
    if (ss->ply >= MAX_PLY - 1)
        return in_check ? SCORE_DRAW : evaluate(t, pos);

    /* 1. Transposition table. */
    TTData tte;
    tt_table_probe(&s->tt, pos_key(pos), ss->ply, &tte);
    if (!pv_node && tt_cutoff(&tte, alpha, beta))
        return tte.score;

    /* 2. Stand pat. */
    int best, static_eval = SCORE_NONE, raw_eval = SCORE_NONE;
    if (in_check)
        best = -SCORE_INFINITE;
    else {
        raw_eval = tte.hit && tte.eval != SCORE_NONE ? tte.eval : evaluate(t, pos);
        static_eval = hist_corrected_eval(&t->hist, pos, raw_eval);
        best = static_eval;
        if (tte.hit && tte.score != SCORE_NONE
            && (tte.bound & (tte.score > best ? BOUND_LOWER : BOUND_UPPER)))
            best = tte.score;
        if (best >= beta) {
            if (!tte.hit)
                tt_save(t, pos_key(pos), ss->ply, MOVE_NONE, SCORE_NONE, raw_eval, 0, BOUND_NONE,
                        false);
            return best;
        }
        if (best > alpha)
            alpha = best;
    }

    /* 3. Captures and queen promotions, or every evasion when in check. */
    MovePicker mp;
    ContHist *cont[2];
    cont_of(ss, cont);
    mp_init(&mp, pos, &t->hist, cont, tte.move, NULL, MOVE_NONE, true);
    move_t m, best_move = MOVE_NONE;
    int moves = 0;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        moves++;
        if (!in_check && best > SCORE_MATED_IN_MAX) {
            /* Delta pruning: even winning the piece cannot reach alpha. */
            int gain = PieceValue[capture_victim(pos, m)];
            if (move_kind(m) != MOVE_PROMOTION && static_eval + gain + QS_DELTA <= alpha
                && !see_ge(pos, m, 1)) {
                if (static_eval + gain + QS_DELTA > best)
                    best = static_eval + gain + QS_DELTA;
                continue;
            }
            if (!see_ge(pos, m, QS_SEE_MARGIN))
                continue;
        }
        play_at(t, ss, pos, m, false);
        tt_table_prefetch(&s->tt, pos_key_after(pos, m));
        make_move(t, pos, m);
        int score = -qsearch(t, ss + 1, -beta, -alpha);
        unmake_move(t, pos, m);
        if (stopped(t))
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

    tt_save(t, pos_key(pos), ss->ply, best_move, best, raw_eval, 0,
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
    /* A go-mate proof searches full width: nothing is cut, pruned or reduced. */
    const bool prune = !t->full_width;

    if (depth <= 0)
        return qsearch(t, ss, alpha, beta);

    enter_node(t, ss);
    const bool in_check = pos_in_check(pos);

    /* 1. Stop, draws, maximum ply, mate distance. */
    if (!root) {
        if (stopped(t))
            return 0;
        if (is_draw(pos, ss->ply))
            return SCORE_DRAW;
        if (ss->ply >= MAX_PLY - 1)
            return in_check ? SCORE_DRAW : evaluate(t, pos);
        int a = alpha > mated_in(ss->ply) ? alpha : mated_in(ss->ply);
        int b = beta < mate_in(ss->ply + 1) ? beta : mate_in(ss->ply + 1);
        if (a >= b)
            return a;
    }

    /* 2. Transposition table (not while a move is excluded). */
    const move_t excluded = ss->excluded;
    TTData tte = {false, MOVE_NONE, SCORE_NONE, SCORE_NONE, -1, BOUND_NONE, false};
    if (!excluded)
        tt_table_probe(&s->tt, pos_key(pos), ss->ply, &tte);
    move_t tt_move = root ? t->root_moves[t->pv_idx].move : tte.move;
    const bool tt_pv = pv_node || (tte.hit && tte.pv);
    if (prune && !pv_node && !excluded && tte.depth >= depth && tt_cutoff(&tte, alpha, beta)
        && pos_rule50(pos) < TT_CUTOFF_RULE50_MAX) {
        /* A quiet TT move that still cuts off earns history, as a searched one would. */
        if (tte.score >= beta && tte.move && pos_is_pseudo_legal(pos, tte.move)
            && !pos_is_capture(pos, tte.move) && move_kind(tte.move) != MOVE_PROMOTION) {
            ContHist *cont[2];
            cont_of(ss, cont);
            hist_update_quiet(&t->hist, cont, pos, hist_threats(pos), tte.move,
                              history_bonus(depth));
        }
        return tte.score;
    }

    /* 2b. Tablebases (tbsearch.c): a result that settles the node ends it;
     * in a PV node a win is a floor and a loss a ceiling of the result. */
    int tb_floor = -SCORE_INFINITE, tb_ceiling = SCORE_INFINITE;
    if (!root && !excluded) {
        int tb_bound, v = tbsearch_probe(t, ss->ply, depth, &tb_bound);
        if (v != SCORE_NONE
            && (tb_bound == BOUND_EXACT || (tb_bound == BOUND_LOWER ? v >= beta : v <= alpha))) {
            tt_save(t, pos_key(pos), ss->ply, MOVE_NONE, v, SCORE_NONE,
                    depth + 6 < MAX_PLY ? depth + 6 : MAX_PLY - 1, tb_bound, tt_pv);
            return v;
        }
        if (v != SCORE_NONE && pv_node && tb_bound == BOUND_LOWER) {
            tb_floor = v;
            alpha = v > alpha ? v : alpha;
        } else if (v != SCORE_NONE && pv_node)
            tb_ceiling = v;
    }

    /* 3. Static evaluation and the improving flag. */
    /* The table keeps the raw evaluation; the search uses it corrected by
     * the correction histories (pawns, each side's pieces, minors). */
    int eval, raw_eval = SCORE_NONE;
    bool improving = false;
    if (in_check) {
        ss->static_eval = eval = SCORE_NONE;
    } else if (excluded) {
        eval = ss->static_eval;
    } else {
        raw_eval = tte.hit && tte.eval != SCORE_NONE ? tte.eval : evaluate(t, pos);
        ss->static_eval = eval = hist_corrected_eval(&t->hist, pos, raw_eval);
        if (!tte.hit)
            tt_save(t, pos_key(pos), ss->ply, MOVE_NONE, SCORE_NONE, raw_eval, -1, BOUND_NONE,
                    tt_pv);
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
            history_update(hist_butterfly(&t->hist, !pos->side, (ss - 1)->threats, (ss - 1)->move),
                           b);
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

    if (prune && !pv_node && !in_check && !excluded) {
        /* 4. Razoring: far below alpha, see whether captures can save it. */
        if (depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN * depth < alpha) {
            int v = qsearch(t, ss, alpha - 1, alpha);
            if (v < alpha && !is_decisive_score(v))
                return v;
        }
        /* 5. Reverse futility pruning. */
        if (depth <= RFP_DEPTH && eval - RFP_MARGIN * (depth - improving) >= beta
            && eval < SCORE_TB_WIN_IN_MAX)
            return (eval + beta) / 2;

        /* 6. Null move, with a zugzwang guard and verification when deep. */
        if (depth >= NMP_MIN_DEPTH && eval >= beta && ss->static_eval >= beta
            && (ss - 1)->move != MOVE_NULL && non_pawn_material(pos, pos->side)
            && beta > SCORE_MATED_IN_MAX
            && (ss->ply >= t->nmp_min_ply || pos->side != t->nmp_color)) {
            int r = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIV
                    + ((eval - beta) / NMP_EVAL_DIV < NMP_EVAL_MAX ? (eval - beta) / NMP_EVAL_DIV
                                                                   : NMP_EVAL_MAX);
            ss->move = MOVE_NULL;
            ss->quiet = false;
            ss->cont = NULL;
            make_null(t, pos);
            int v = -search(t, ss + 1, -beta, -beta + 1, depth - r, !cut_node);
            unmake_null(t, pos);
            if (stopped(t))
                return 0;
            if (v >= beta) {
                if (v >= SCORE_TB_WIN_IN_MAX)
                    v = beta;
                if (depth < NMP_VERIFY_DEPTH || t->nmp_min_ply)
                    return v;
                /* The verification searches this node without null moves
                 * of this side in the first three quarters of its depth:
                 * a zugzwang shows there. */
                t->nmp_color = pos->side;
                (ss + 1)->move = MOVE_NONE;
                t->nmp_min_ply = ss->ply + 3 * (depth - r) / 4;
                int w = search(t, ss, beta - 1, beta, depth - r, false);
                t->nmp_min_ply = 0;
                if (w >= beta)
                    return v;
            }
        }

        /* 6b. ProbCut: a good capture whose reduced search beats beta by a
         * margin makes the node a likely cutoff (unless the table already
         * knows a search nearly as deep that stayed below that margin). */
        const int pc_beta = beta + PROBCUT_MARGIN;
        if (depth >= PROBCUT_MIN_DEPTH && !is_decisive_score(beta)
            && !(tte.hit && tte.score != SCORE_NONE && tte.depth >= depth - PROBCUT_REDUCTION + 1
                 && tte.score < pc_beta)) {
            MovePicker pc_mp;
            ContHist *pc_cont[2];
            cont_of(ss, pc_cont);
            /* The quiescence picker: captures and queen promotions only. */
            mp_init(&pc_mp, pos, &t->hist, pc_cont, tt_move, NULL, MOVE_NONE, true);
            move_t m;
            while ((m = mp_next(&pc_mp)) != MOVE_NONE) {
                if (!see_ge(pos, m, pc_beta - ss->static_eval))
                    continue;
                play_at(t, ss, pos, m, false);
                tt_table_prefetch(&s->tt, pos_key_after(pos, m));
                make_move(t, pos, m);
                int v = -qsearch(t, ss + 1, -pc_beta, -pc_beta + 1);
                if (v >= pc_beta)
                    v = -search(t, ss + 1, -pc_beta, -pc_beta + 1, depth - PROBCUT_REDUCTION,
                                !cut_node);
                unmake_move(t, pos, m);
                if (stopped(t))
                    return 0;
                if (v >= pc_beta) {
                    tt_save(t, pos_key(pos), ss->ply, m, v, raw_eval, depth - PROBCUT_REDUCTION + 1,
                            BOUND_LOWER, tt_pv);
                    return v;
                }
            }
        }
    }

    /* 7. Internal iterative reduction without a TT move. */
    if (prune && (pv_node || cut_node) && depth >= IIR_MIN_DEPTH && !tt_move)
        depth--;

    /* 8. The move loop. */
    MovePicker mp;
    ContHist *cont[2];
    cont_of(ss, cont);
    const move_t counter = hist_counter(&t->hist, pos, (ss - 1)->move);
    mp_init(&mp, pos, &t->hist, cont, tt_move, ss->killers, counter, false);

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
        /* Read before the move is made (for the LMR of captures). */
        const int capture_hist = capture ? hist_capture(&t->hist, pos, m) : 0;
        /* The squares the opponent attacks choose the butterfly table of a
         * quiet move (here, at the cutoff's update and, from the child, for
         * the move that led there): made once a quiet move comes. */
        if (quiet)
            ss->threats = mp_threats(&mp);
        const int hist_score = quiet ? hist_quiet(&t->hist, cont, pos, ss->threats, m) : 0;

        /* 9. Pruning of late and losing moves, never of the last non-losing one. */
        if (prune && !root && best > SCORE_MATED_IN_MAX && non_pawn_material(pos, pos->side)) {
            if (quiet && !pos_gives_check(pos, m)) {
                int lmp = (LMP_BASE + depth * depth) / (2 - improving);
                if (move_count > lmp) {
                    /* Every later quiet would be pruned too but a check:
                     * the picker leaves them all out, checks too (the time
                     * it saves is worth more than the quiet checks;
                     * bench/README.md). */
                    mp_skip_quiets(&mp);
                    continue;
                }
                /* History pruning: quiet moves that keep failing here. */
                if (depth <= HIST_PRUNE_DEPTH && hist_score < -HIST_PRUNE_MARGIN * depth)
                    continue;
                /* Not against a mate-level alpha: a quiet check may mate sooner. */
                if (!in_check && depth <= FUTILITY_DEPTH && alpha < SCORE_TB_WIN_IN_MAX
                    && ss->static_eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha)
                    continue;
                if (!see_ge(pos, m, SEE_QUIET_MARGIN * depth))
                    continue;
            } else if (!quiet && depth <= SEE_NOISY_DEPTH
                       && !see_ge(pos, m, SEE_NOISY_MARGIN * depth * depth))
                continue;
        }

        /* 10. Extensions: singular (with multi-cut), check. */
        int ext = 0;
        if (prune && !root && depth >= SE_MIN_DEPTH && m == tt_move && !excluded
            && tte.depth >= depth - SE_TT_DEPTH_MARGIN && (tte.bound & BOUND_LOWER)
            && tte.score != SCORE_NONE && !is_decisive_score(tte.score)
            && ss->ply < EXT_PLY_MUL * t->root_depth) {
            int sbeta = tte.score - SE_BETA_SCALE * depth;
            ss->excluded = m;
            int v = search(t, ss, sbeta - 1, sbeta, (depth - 1) / 2, cut_node);
            ss->excluded = MOVE_NONE;
            if (stopped(t))
                return 0;
            if (v < sbeta)
                ext = (!pv_node && v < sbeta - SE_DOUBLE_MARGIN) ? 2 : 1;
            else if (sbeta >= beta)
                return sbeta;
            else if (tte.score >= beta)
                ext = -2;
            else if (cut_node)
                ext = -1;
        }

        if (root && t->id == 0 && !s->quiet && s->rep.currmove
            && search_elapsed(s) > CURRMOVE_AFTER_MS)
            s->rep.currmove(s->rep.ctx, &s->root, depth, m, move_count + t->pv_idx);
        /* CHECK_EXT_SEE above -10000 (a test; off by default) extends a
         * direct check only when the checking move's SEE reaches it; a
         * discovered check always (a castling rook's check counts as one). */
        const bool check_see_ok = CHECK_EXT_SEE <= -10000 || ext || !pos_gives_check(pos, m)
                                  || see_ge(pos, m, CHECK_EXT_SEE);
        play_at(t, ss, pos, m, quiet);
        tt_table_prefetch(&s->tt, pos_key_after(pos, m));
        const uint64_t nodes_before = root ? atomic_load_explicit(&t->nodes, memory_order_relaxed)
                                           : 0;
        make_move(t, pos, m);
        const bool gives_check = pos_in_check(pos);
        if (!ext && gives_check && ss->ply < CHECK_EXT_PLY_MUL * t->root_depth
            && (check_see_ok || (pos_checkers(pos) & ~sq_bb(move_to(m)))))
            ext = 1;
        if (quiet && nq < (int)(sizeof quiets / sizeof *quiets))
            quiets[nq++] = m;
        else if (capture && nc < (int)(sizeof captures / sizeof *captures))
            captures[nc++] = m;
        int new_depth = depth - 1 + ext;
        int score;

        /* 11. Late-move reductions, then the PVS re-searches. */
        if (prune && depth >= LMR_MIN_DEPTH && move_count > 1 + root && (quiet || !pv_node)) {
            const int last = LMR_TABLE_SIZE - 1;
            int r = Reductions[depth < last ? depth : last][move_count < last ? move_count : last];
            r += !pv_node;
            r += cut_node;
            r -= improving;
            r -= tt_pv && !pv_node;
            r += (ss + 1)->cutoffs > LMR_CUTOFFS;
            r -= gives_check;
            r -= m == ss->killers[0] || m == ss->killers[1] || m == counter;
            if (quiet)
                r -= hist_score / LMR_HIST_DIV;
            else
                r -= 1 + capture_hist / LMR_CAPHIST_DIV;
            int d = new_depth - (r > 0 ? r : 0);
            if (d < 1)
                d = 1;
            if (d > new_depth)
                d = new_depth;
            score = -search(t, ss + 1, -alpha - 1, -alpha, d, true);
            if (score > alpha && d < new_depth) {
                /* The reduced search beat alpha: search again one ply deeper
                 * when it did so by far, one shallower when it came out
                 * barely above the best move so far. */
                if (LMR_RESEARCH_ADJ)
                    new_depth += (score > best + LMR_DEEPER_MARGIN + 2 * new_depth)
                                 - (score < best + LMR_SHALLOWER_MARGIN);
                if (d < new_depth)
                    score = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
            }
        } else if (!pv_node || move_count > 1)
            score = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
        else
            score = alpha + 1; /* forces the full-window search below */
        if (pv_node && (move_count == 1 || (score > alpha && (root || score < beta))))
            score = -search(t, ss + 1, -beta, -alpha, new_depth, false);
        unmake_move(t, pos, m);

        if (stopped(t))
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
                    if (quiet) {
                        if (ss->killers[0] != m) {
                            ss->killers[1] = ss->killers[0];
                            ss->killers[0] = m;
                        }
                        hist_update_quiets(&t->hist, cont, pos, ss->threats, (ss - 1)->move, m,
                                           quiets, nq, depth);
                    }
                    hist_update_captures(&t->hist, pos, quiet ? MOVE_NONE : m, captures, nc, depth);
                    break;
                }
                alpha = score;
            }
        }
    }

    if (move_count == 0)
        return excluded ? alpha : in_check ? mated_in(ss->ply) : SCORE_DRAW;
    best = best < tb_floor ? tb_floor : best > tb_ceiling ? tb_ceiling : best;

    const int bound = best >= beta                  ? BOUND_LOWER
                      : pv_node && best > old_alpha ? BOUND_EXACT
                                                    : BOUND_UPPER;
    /* Every move failed low: the opponent's quiet move that led here was a
     * good one, and earns the history a cutoff would. */
    if (PRIOR_HIST && prune && best <= old_alpha && !root && !excluded && (ss - 1)->quiet) {
        ContHist *prior[2] = {(ss - 2)->cont, (ss - 3)->cont};
        hist_update_quiet_by(&t->hist, prior, !pos->side, (ss - 1)->threats, (ss - 1)->piece,
                             (ss - 1)->move, history_bonus(depth));
    }
    /* What the search found against the static evaluation, where the bound
     * says which way (a capture or promotion as the best move says more of
     * the tactics than of the pawns). */
    if (!in_check && !excluded && best > -SCORE_KNOWN_WIN && best < SCORE_KNOWN_WIN
        && !(best_move
             && (pos_is_capture(pos, best_move) || move_kind(best_move) == MOVE_PROMOTION))
        && !(bound == BOUND_LOWER && best <= ss->static_eval)
        && !(bound == BOUND_UPPER && best >= ss->static_eval))
        hist_update_corr(&t->hist, pos, depth, best - ss->static_eval);
    if (!excluded && !(root && t->pv_idx > 0))
        tt_save(t, pos_key(pos), ss->ply, best_move, best, raw_eval, depth, bound, tt_pv);
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

enum { MATE_NONE, MATE_EXISTS, MATE_UNKNOWN };

/* Whether the side to move mates within `plies` plies: a full-width
 * null-window search of every root move, of at most `budget` nodes.
 * MATE_UNKNOWN when the budget or a stop ended it first. */
static int mate_exists(SearchThread *t, int plies, uint64_t budget)
{
    Stack *ss = t->stack + STACK_OFFSET;
    Position *pos = &t->pos;
    const int beta = mate_in(plies);
    bool found = false;
    t->full_width = true;
    t->proof_abort = false;
    t->proof_limit = atomic_load_explicit(&t->nodes, memory_order_relaxed) + budget;
    for (int i = 0; i < t->root_count && !found && !stopped(t); i++) {
        const move_t m = t->root_moves[i].move;
        play_at(t, ss, pos, m, !pos_is_capture(pos, m) && move_kind(m) != MOVE_PROMOTION);
        make_move(t, pos, m);
        int score = -search(t, ss + 1, -beta, -beta + 1, plies - 1, false);
        unmake_move(t, pos, m);
        found = !stopped(t) && score >= beta;
    }
    const int result = found ? MATE_EXISTS : stopped(t) ? MATE_UNKNOWN : MATE_NONE;
    t->full_width = false;
    t->proof_abort = false;
    return result;
}

void search_thread_run(SearchThread *t)
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
    int mate_known = MATE_UNKNOWN; /* go mate N: whether a mate in N exists */
    uint64_t iteration_start = 0;  /* the main thread's nodes when this iteration began */

    for (int depth = 1; depth <= max_depth; depth++) {
        /* Helpers start one ply deeper every other thread. */
        if (!main_thread && depth == 1 && (t->id & 1) && max_depth > 1)
            continue;
        t->root_depth = depth;
        iteration_start = atomic_load_explicit(&t->nodes, memory_order_relaxed);
        for (int i = 0; i < t->root_count; i++)
            t->root_moves[i].prev_score = t->root_moves[i].score;
        int lines = s->multipv < t->root_count ? s->multipv : t->root_count;

        for (t->pv_idx = 0; t->pv_idx < lines; t->pv_idx++) {
            t->seldepth = 0;
            int prev = t->root_moves[t->pv_idx].prev_score;
            int delta = ASP_DELTA + abs(prev) / ASP_DELTA_DIV;
            int alpha = -SCORE_INFINITE, beta = SCORE_INFINITE, failed_high = 0;
            if (depth >= ASP_MIN_DEPTH && prev != -SCORE_INFINITE) {
                alpha = prev - delta > -SCORE_INFINITE ? prev - delta : -SCORE_INFINITE;
                beta = prev + delta < SCORE_INFINITE ? prev + delta : SCORE_INFINITE;
            }
            for (;;) {
                /* After a fail high the re-search goes a little less deep:
                 * the move is probably good, the depth is only to confirm it. */
                int d = depth - failed_high > 1 ? depth - failed_high : 1;
                int score = search(t, ss, alpha, beta, d, false);
                sort_root_moves(t->root_moves, t->pv_idx, t->root_count);
                if (stopped(t))
                    break;
                if (main_thread && (score <= alpha || score >= beta)
                    && search_elapsed(s) > BOUND_LINES_AFTER_MS)
                    search_report_lines(t, depth, alpha, beta);
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -SCORE_INFINITE ? score - delta : -SCORE_INFINITE;
                    failed_high = 0;
                } else if (score >= beta) {
                    beta = score + delta < SCORE_INFINITE ? score + delta : SCORE_INFINITE;
                    failed_high += failed_high < ASP_FAIL_HIGH_MAX;
                } else
                    break;
                delta += delta / 2;
            }
            sort_root_moves(t->root_moves, 0, t->pv_idx + 1);
            if (stopped(t))
                break;
        }
        if (stopped(t))
            break;
        t->completed_depth = depth;
        t->may_stop = true;
        if (!main_thread)
            continue;
        search_report_lines(t, depth, -SCORE_INFINITE, SCORE_INFINITE);

        /* Limits checked between iterations: a play level's node budget,
         * mate found, soft time. */
        if (s->lv.active && search_total_nodes(s) >= s->lv.node_cap)
            break;
        int best_score = t->root_moves[0].score;
        if (s->limits.mate && !s->limits.infinite) {
            const int plies = 2 * s->limits.mate - 1;
            if (best_score >= mate_in(plies))
                break;
            /* The pruned search may miss a mate, a full-width one of
             * `plies` plies cannot: once the depth gets there, that proves
             * whether a mate in N exists. If none, more depth will not find
             * one: the search ends. If one does, deepening goes on until
             * it finds it (and its exact length). The proof gets as many
             * nodes as the iteration before it took and is tried again
             * after each one until it decides, so it costs about as much
             * as the search itself. */
            if (depth >= plies && mate_known == MATE_UNKNOWN) {
                uint64_t spent = atomic_load_explicit(&t->nodes, memory_order_relaxed)
                                 - iteration_start;
                mate_known = mate_exists(t, plies,
                                         spent > MATE_PROOF_MIN_NODES ? spent
                                                                      : MATE_PROOF_MIN_NODES);
                if (stopped(t))
                    break;
                if (mate_known == MATE_NONE) {
                    char text[96];
                    snprintf(text, sizeof text,
                             "no mate in %d: a full-width search of %d plies found none",
                             s->limits.mate, plies);
                    search_note(s, text);
                    break;
                }
            }
        }
        uint64_t all = atomic_load_explicit(&t->nodes, memory_order_relaxed);
        double share = all > 0 ? (double)t->root_moves[0].nodes / (double)all : -1.0;
        tm_update(&s->tm, depth, t->root_moves[0].move, best_score, share, t->root_count);
        if (tm_should_stop(&s->tm, search_elapsed(s))) {
            /* Pondering goes on deepening, but a `ponderhit` now stops it. */
            atomic_store(&s->ponder_spent, true);
            if (!atomic_load(&s->pondering))
                break;
        }
    }
    /* A play level that reached its cap early still takes a natural share
     * of its time, as a person would. */
    if (main_thread && s->lv.active && s->tm.limits.soft && !s->limits.infinite) {
        double u = rng_unit(mix64(s->level_seed ^ pos_key(&t->pos)));
        double share = s->lv.think_min + u * (s->lv.think_max - s->lv.think_min);
        int64_t target = (int64_t)((double)s->tm.limits.soft * share);
        while (!stopped(t) && !atomic_load(&s->pondering) && search_elapsed(s) < target) {
            plat_sleep_ms(2);
        }
    }
    if (main_thread)
        atomic_store(&s->stop, true);
}
