/* Time allocation. With no moves-to-go the game is treated as sudden death
 * (FIDE Guideline III) or increment (Appendix B) and the remaining time is
 * spread over an estimated 40 moves; with moves-to-go over that period. */
#include "timeman.h"

#include <time.h>

int64_t tm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
    int mtg = c->movestogo > 0 ? (c->movestogo < 40 ? c->movestogo : 40) : 40;
    int64_t avail = time + inc * (mtg - 1) - (int64_t)c->overhead * (mtg < 4 ? mtg : 4);
    avail = max64(1, avail);
    int64_t base = avail / mtg;
    if (c->movestogo == 0)
        base = avail / 35;
    tl.soft = base;
    /* The hard limit: several times the soft one, never more than a share of
     * what is on the clock: 2/5, or 4/5 of what is left above the overhead
     * on the last move of a period (the rest is a margin for a loaded
     * machine: the time is used up then anyway). */
    int64_t cap = time - c->overhead - 5;
    int64_t share = c->movestogo == 1 ? cap * 4 / 5 : time * 2 / 5;
    tl.hard = min64(tl.soft * 5, share);
    tl.hard = max64(1, min64(tl.hard, cap));
    tl.soft = max64(1, min64(tl.soft, tl.hard));
    return tl;
}
