/* Time management. With no moves-to-go the game is treated as sudden death
 * (FIDE Guideline III) or increment (Appendix B) and the remaining time is
 * spread over an estimated number of moves; with moves-to-go over that
 * period. During the search the soft limit is scaled by how settled the
 * result is. The constants are in tunables.h. */
#include "timeman.h"

#include "tunables.h"

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

TimeLimits tm_allocate(const ClockInfo *c, int us)
{
    TimeLimits tl = {0, 0};
    if (c->movetime > 0) {
        int64_t t = max64(1, c->movetime - c->overhead);
        tl.soft = tl.hard = t;
        return tl;
    }
    if (c->time[us] < 0)
        return tl;
    int64_t time = c->time[us], inc = c->inc[us] > 0 ? c->inc[us] : 0;
    /* Keep the overhead for every move still to come in the period (up to
     * a few), so a slow GUI cannot flag us. */
    int mtg = c->movestogo > 0 ? (c->movestogo < TM_MOVES ? c->movestogo : TM_MOVES) : TM_MOVES;
    int64_t avail = time + inc * (mtg - 1)
                    - (int64_t)c->overhead * (mtg < TM_OVERHEAD_MOVES ? mtg : TM_OVERHEAD_MOVES);
    avail = max64(1, avail);
    int64_t base = avail / mtg;
    if (c->movestogo == 0)
        base = avail / TM_SD_MOVES;
    tl.soft = base;
    /* The hard limit: several times the soft one, never more than a share of
     * what is on the clock, or of what is left above the overhead on the
     * last move of a period (the rest is a margin for a loaded machine: the
     * time is used up then anyway). */
    int64_t cap = time - c->overhead - TM_MARGIN_MS;
    int64_t share = c->movestogo == 1 ? cap * TM_LAST_SHARE / 100 : time * TM_HARD_SHARE / 100;
    tl.hard = min64(tl.soft * TM_HARD_MUL, share);
    /* On a machine seen busy, a low clock keeps a reserve against the next
     * stall; below it a move still gets half an increment, so that the clock
     * climbs back while the moves stay searched. */
    if (c->reserve > 0)
        tl.hard = min64(tl.hard, max64(time - c->reserve, inc / 2));
    tl.hard = max64(1, min64(tl.hard, cap));
    tl.soft = max64(1, min64(tl.soft, tl.hard));
    return tl;
}

void tm_init(TimeManager *tm, const ClockInfo *c, int us)
{
    tm->limits = tm_allocate(c, us);
    tm->stability = 0;
    tm->prev_best = MOVE_NONE;
    tm->prev_score = 0;
    tm->scale = 1.0;
}

void tm_update(TimeManager *tm, int depth, move_t best, int score, double best_share,
               int root_moves)
{
    tm->stability = best == tm->prev_best
                        ? (tm->stability < TM_STABILITY_MAX ? tm->stability + 1 : TM_STABILITY_MAX)
                        : 0;
    tm->prev_best = best;
    /* A stable best move needs less time; a falling score needs more. */
    double scale = (TM_STABLE_BASE - TM_STABLE_STEP * tm->stability) / 100.0;
    if (depth > 1 && score < tm->prev_score - TM_DROP_SCORE)
        scale *= TM_DROP_SCALE / 100.0;
    /* The share of the effort the best move took: a move that needed little
     * of it was never seriously challenged. */
    if (depth >= TM_SHARE_MIN_DEPTH && best_share >= 0) {
        double effort = (TM_SHARE_BASE + TM_SHARE_WEIGHT * (1.0 - best_share)) / 100.0;
        scale *= effort < TM_SHARE_MAX / 100.0 ? effort : TM_SHARE_MAX / 100.0;
    }
    if (root_moves == 1)
        scale = TM_SINGLE_REPLY / 100.0;
    tm->scale = scale;
    tm->prev_score = score;
}

bool tm_should_stop(const TimeManager *tm, int64_t elapsed)
{
    return tm->limits.soft && (double)elapsed > (double)tm->limits.soft * tm->scale;
}
