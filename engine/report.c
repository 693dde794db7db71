/* UCI output of the search (report.h). */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/wdl.h"
#include "../movegen/notation.h"
#include "../movegen/score.h"
#include "../movegen/util.h"
#include "../search/tt.h"

bool report_init(UciReport *r, void (*print)(const char *line))
{
    r->print = print;
    r->show_wdl = false;
    r->scratch = malloc(sizeof *r->scratch);
    return r->scratch != NULL;
}

void report_free(UciReport *r)
{
    free(r->scratch);
    r->scratch = NULL;
}

void report_score(int score, const Position *root, char *buf, size_t len)
{
    if (score >= SCORE_MATE_IN_MAX)
        snprintf(buf, len, "mate %d", (SCORE_MATE - score + 1) / 2);
    else if (score <= SCORE_MATED_IN_MAX)
        snprintf(buf, len, "mate -%d", (SCORE_MATE + score) / 2);
    else if (is_decisive_score(score))
        /* A tablebase result keeps its own form: SCORE_TB_WIN less the plies
         * to the table's position, above every evaluation. */
        snprintf(buf, len, "cp %d", score);
    else
        snprintf(buf, len, "cp %d", wdl_normalize(score, wdl_material(root)));
}

void report_wdl(int score, const Position *root, char *buf, size_t len)
{
    int w, l;
    if (pos_is_dead(root))
        /* A dead position is a draw whatever is played (FIDE 5.2.2). */
        w = 0, l = 0;
    else if (is_decisive_score(score))
        w = score > 0 ? 1000 : 0, l = score > 0 ? 0 : 1000;
    else
        wdl_of_score(score, wdl_material(root), &w, &l);
    snprintf(buf, len, " wdl %d %d %d", w, 1000 - w - l, l);
}

static void on_line(void *ctx, const Position *root, const SearchLine *ln)
{
    UciReport *r = ctx;
    char sc[32], wdl[48] = "", nps[40] = "";
    report_score(ln->score, root, sc, sizeof sc);
    if (r->show_wdl)
        report_wdl(ln->score, root, wdl, sizeof wdl);
    /* A speed only when some time has passed to measure it by. */
    if (ln->time_ms > 0)
        snprintf(nps, sizeof nps, " nps %llu",
                 (unsigned long long)(ln->nodes * 1000 / (uint64_t)ln->time_ms));
    const char *bound = ln->bound == BOUND_LOWER   ? " lowerbound"
                        : ln->bound == BOUND_UPPER ? " upperbound"
                                                   : "";
    char *buf = malloc(8 * (size_t)ln->pv_len + 256);
    if (!buf)
        return;
    int n = snprintf(buf, 256,
                     "info depth %d seldepth %d multipv %d score %s%s%s nodes %llu%s hashfull %d "
                     "tbhits %llu time %lld pv",
                     ln->depth, ln->seldepth, ln->multipv, sc, bound, wdl,
                     (unsigned long long)ln->nodes, nps, ln->hashfull,
                     (unsigned long long)ln->tbhits, (long long)ln->time_ms);
    /* The moves' text needs the position each is played in. */
    Position *p = r->scratch;
    memcpy(p, root, sizeof *p);
    for (int k = 0; k < ln->pv_len; k++) {
        char mv[8];
        move_to_uci(p, ln->pv[k], mv);
        n += snprintf(buf + n, 8, " %s", mv);
        pos_make_move(p, ln->pv[k]);
    }
    r->print(buf);
    free(buf);
}

static void on_currmove(void *ctx, const Position *root, int depth, move_t move, int number)
{
    UciReport *r = ctx;
    char line[96], mv[8];
    move_to_uci(root, move, mv);
    snprintf(line, sizeof line, "info depth %d currmove %s currmovenumber %d", depth, mv, number);
    r->print(line);
}

static void on_bestmove(void *ctx, const Position *root, move_t best, move_t ponder)
{
    UciReport *r = ctx;
    r->bestmove_at = now_ms();
    r->bestmove_cpu = cpu_ms();
    if (best == MOVE_NONE) {
        r->print(pos_in_check(root) ? "info depth 0 score mate 0" : "info depth 0 score cp 0");
        r->print("bestmove (none)");
        return;
    }
    char line[64], mv[8];
    move_to_uci(root, best, mv);
    if (ponder) {
        char pm[8];
        Position *p = r->scratch;
        memcpy(p, root, sizeof *p);
        pos_make_move(p, best);
        move_to_uci(p, ponder, pm);
        snprintf(line, sizeof line, "bestmove %s ponder %s", mv, pm);
    } else
        snprintf(line, sizeof line, "bestmove %s", mv);
    r->print(line);
}

static void on_note(void *ctx, const char *text)
{
    UciReport *r = ctx;
    char line[256];
    snprintf(line, sizeof line, "info string %s", text);
    r->print(line);
}

SearchReporter report_callbacks(UciReport *r)
{
    return (SearchReporter){.ctx = r,
                            .line = on_line,
                            .currmove = on_currmove,
                            .note = on_note,
                            .bestmove = on_bestmove};
}
