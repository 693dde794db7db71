/* What a search reports, and the move it plays: the lines of an iteration
 * (their PVs checked, and completed to the mate from the table), the last
 * line before the move, the choice among the threads (Lazy SMP votes) and
 * the play level's, and the move to ponder on. The text is the reporter's
 * (engine/report.c); nothing is printed here. */
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/score.h"
#include "thread.h"
#include "tunables.h"

/* The PV to report for root move rm with this score, into out: its legal
 * prefix (checked by playing it on the thread's position, in case a TT move
 * of another thread slipped in), and for a mate score the moves to the mate
 * that the PV lacks (a mate found through the table, whose line was never
 * searched at this depth), from the table. Returns the length. */
static int report_pv(SearchThread *t, const RootMove *rm, int score, move_t *out)
{
    Position *p = &t->pos;
    int len = 0;
    while (len < rm->pv_len && pos_is_pseudo_legal(p, rm->pv[len])
           && pos_is_legal(p, rm->pv[len])) {
        out[len] = rm->pv[len];
        pos_make_move(p, out[len++]);
    }
    const int plies = score >= SCORE_MATE_IN_MAX    ? SCORE_MATE - score
                      : score <= SCORE_MATED_IN_MAX ? SCORE_MATE + score
                                                    : 0;
    while (len == rm->pv_len && len < plies && len < MAX_PLY) {
        TTData tte;
        if (!tt_table_probe(&t->s->tt, pos_key(p), len, &tte) || !tte.move
            || !pos_is_pseudo_legal(p, tte.move) || !pos_is_legal(p, tte.move))
            break;
        out[len] = tte.move;
        pos_make_move(p, out[len++]);
    }
    for (int k = len; k-- > 0;)
        pos_unmake_move(p, out[k]);
    return len;
}

/* Reports root move rm as line `multipv` of iteration depth, with score and
 * bound; the first line is remembered, so that the last line before the
 * move can be left out when it would repeat it. */
static void report_line(SearchThread *t, const RootMove *rm, int multipv, int depth, int score,
                        int bound)
{
    Search *const s = t->s;
    move_t pv[MAX_PLY + 1];
    /* A root in the tablebases shows their result, unless a mate is seen. */
    if (s->tb_root && !is_mate_score(score))
        score = s->tb_root_score;
    SearchLine line = {.depth = depth,
                       .seldepth = rm->seldepth > depth ? rm->seldepth : depth,
                       .multipv = multipv,
                       .score = score,
                       .bound = bound,
                       .nodes = search_total_nodes(s),
                       .tbhits = search_total_tbhits(s),
                       .time_ms = search_elapsed(s),
                       .hashfull = tt_table_hashfull(&s->tt),
                       .pv = pv};
    line.pv_len = report_pv(t, rm, score, pv);
    if (multipv == 1) {
        s->last_line.score = score;
        s->last_line.pv_len = line.pv_len;
        memcpy(s->last_line.pv, pv, (size_t)line.pv_len * sizeof *pv);
    }
    s->rep.line(s->rep.ctx, &s->root, &line);
}

/* Reports the lines of iteration `depth` of thread t: those searched at this
 * depth, and the others as they stood at the last one. */
void search_report_lines(SearchThread *t, int depth, int alpha, int beta)
{
    Search *const s = t->s;
    if (s->quiet || !s->rep.line)
        return;
    int lines = s->shown_pv < t->root_count ? s->shown_pv : t->root_count;
    for (int i = 0; i < lines; i++) {
        const RootMove *rm = &t->root_moves[i];
        bool updated = rm->score != -SCORE_INFINITE;
        if (!updated && depth == 1)
            continue;
        int score = updated ? rm->score : rm->prev_score;
        int bound = i != t->pv_idx   ? BOUND_EXACT
                    : score >= beta  ? BOUND_LOWER
                    : score <= alpha ? BOUND_UPPER
                                     : BOUND_EXACT;
        report_line(t, rm, i + 1, updated ? depth : depth - 1, score, bound);
    }
}

/* The last line before the move: the line of the move played, unless the
 * last line reported already was exactly that. */
static void report_final(SearchThread *t, const RootMove *rm)
{
    Search *const s = t->s;
    if (s->quiet || !s->rep.line)
        return;
    int score = rm->score != -SCORE_INFINITE ? rm->score : rm->prev_score;
    move_t pv[MAX_PLY + 1];
    int len = report_pv(t, rm, score, pv);
    if (s->last_line.pv_len == len && s->last_line.score == score
        && !memcmp(s->last_line.pv, pv, (size_t)len * sizeof *pv))
        return;
    if (s->shown_pv > 1 && !s->lv.active && rm == &t->root_moves[0])
        search_report_lines(t, t->completed_depth, -SCORE_INFINITE, SCORE_INFINITE);
    else
        report_line(t, rm, 1, t->completed_depth, score, BOUND_EXACT);
}

void search_note(const Search *s, const char *text)
{
    if (!s->quiet && s->rep.note)
        s->rep.note(s->rep.ctx, text);
}

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
                votes[k] += (int64_t)(t->root_moves[0].score - min_score + VOTE_SCORE_OFFSET)
                            * t->completed_depth;
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

void search_report_result(Search *s)
{
    SearchThread *t = pick_best_thread(s);
    if (t->root_count == 0) {
        if (!s->quiet && s->rep.bestmove)
            s->rep.bestmove(s->rep.ctx, &s->root, MOVE_NONE, MOVE_NONE);
        return;
    }
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
    report_final(t, rm);
    /* The move to ponder on: the PV's second move, or the table's. */
    move_t ponder = rm->pv_len >= 2 ? rm->pv[1] : MOVE_NONE;
    Position *p = &t->pos;
    pos_make_move(p, rm->move);
    if (!ponder) {
        TTData tte;
        if (tt_table_probe(&s->tt, pos_key(p), 1, &tte))
            ponder = tte.move;
    }
    if (ponder && (!pos_is_pseudo_legal(p, ponder) || !pos_is_legal(p, ponder)))
        ponder = MOVE_NONE;
    pos_unmake_move(p, rm->move);
    if (!s->quiet && s->rep.bestmove)
        s->rep.bestmove(s->rep.ctx, &s->root, rm->move, ponder);
}
