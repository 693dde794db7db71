/* The time manager (search/timeman.c) on simulated games: the engine spends
 * somewhat more than the soft limit on every move, plus a GUI latency, and
 * the clock must never run out; the hard limit always leaves the Move
 * Overhead on the clock; movetime and moves-to-go are obeyed.
 *
 * With an increment the clock settles at two or three increments in long
 * games (about 20 ms at 1+0.01 in this simulation). A fixed reserve above
 * that loses strength at 1+0.01 (five overheads: 226 games, -35.5 +/- 32.7;
 * three overheads and an increment, a move below it still getting half an
 * increment: 543 games, -19.9 +/- 19.0), so the test asks only that the
 * clock never runs out; a busy machine is met by the delay the engine
 * learns (engine/uci.c) instead. */
#include <criterion/criterion.h>

#include "../search/timeman.h"

enum { OVERHEAD = 20, LATENCY = 3 };

static ClockInfo clock_of(int64_t time, int64_t inc, int movestogo)
{
    ClockInfo c = {
        .time = {time, time}, .inc = {inc, inc}, .movestogo = movestogo, .overhead = OVERHEAD};
    return c;
}

/* Plays `moves` moves from `time`+`inc` (a period of `period` moves when not
 * 0) spending 1.25 x soft (at most hard) plus LATENCY each; returns the lowest
 * clock seen after a move. */
static int64_t lowest_clock(int64_t time, int64_t inc, int period, int moves)
{
    int64_t clock = time, lowest = time;
    for (int m = 0; m < moves; m++) {
        int mtg = period ? period - m % period : 0;
        ClockInfo c = clock_of(clock, inc, mtg);
        TimeLimits tl = tm_allocate(&c, 0);
        cr_assert(tl.soft >= 1 && tl.soft <= tl.hard, "soft %lld hard %lld at clock %lld",
                  (long long)tl.soft, (long long)tl.hard, (long long)clock);
        cr_assert(clock <= OVERHEAD + 6 || tl.hard <= clock - OVERHEAD - 5,
                  "hard %lld leaves less than the overhead of clock %lld", (long long)tl.hard,
                  (long long)clock);
        int64_t used = tl.soft * 5 / 4;
        used = (used < tl.hard ? used : tl.hard) + LATENCY;
        clock -= used;
        cr_assert_gt(clock, 0, "flagged at move %d of %lld+%lld (used %lld)", m + 1,
                     (long long)time, (long long)inc, (long long)used);
        if (clock < lowest)
            lowest = clock;
        clock += inc;
        if (period && mtg == 1)
            clock += time;
    }
    return lowest;
}

Test(timeman, increment_games_do_not_flag)
{
    static const int64_t Tcs[][2] = {{1000, 10}, {2000, 20},   {4000, 40},
                                     {8000, 80}, {60000, 600}, {180000, 2000}};
    for (size_t i = 0; i < sizeof Tcs / sizeof *Tcs; i++) {
        int64_t low = lowest_clock(Tcs[i][0], Tcs[i][1], 0, 400);
        /* More than the latency of a move stays on the clock. */
        cr_assert_gt(low, LATENCY, "%lld+%lld: the clock fell to %lld ms", (long long)Tcs[i][0],
                     (long long)Tcs[i][1], (long long)low);
    }
}

Test(timeman, sudden_death_games_do_not_flag)
{
    /* Games long for their clock (LATENCY alone takes 3 ms a move). */
    static const int64_t Tcs[][2] = {{1000, 60}, {10000, 150}, {60000, 150}, {300000, 150}};
    for (size_t i = 0; i < sizeof Tcs / sizeof *Tcs; i++)
        cr_assert_gt(lowest_clock(Tcs[i][0], 0, 0, (int)Tcs[i][1]), 0);
}

Test(timeman, moves_to_go_periods)
{
    cr_assert_gt(lowest_clock(10000, 0, 40, 200), OVERHEAD);
    cr_assert_gt(lowest_clock(5000, 0, 10, 100), OVERHEAD);
    ClockInfo c = clock_of(1000, 0, 1);
    TimeLimits tl = tm_allocate(&c, 0);
    cr_assert(tl.hard <= 1000 - OVERHEAD - 5 && tl.hard >= 500, "last move of a period: hard %lld",
              (long long)tl.hard);
}

Test(timeman, movetime_and_no_clock)
{
    ClockInfo c = {.time = {-1, -1}, .inc = {-1, -1}, .movetime = 500, .overhead = OVERHEAD};
    TimeLimits tl = tm_allocate(&c, 0);
    cr_assert(tl.soft == 500 - OVERHEAD && tl.hard == 500 - OVERHEAD);
    c.movetime = 0;
    tl = tm_allocate(&c, 0);
    cr_assert(tl.soft == 0 && tl.hard == 0, "no clock must mean no limit");
    /* Only the opponent's clock: no limit for us. */
    c.time[1] = 5000;
    tl = tm_allocate(&c, 0);
    cr_assert(tl.soft == 0 && tl.hard == 0);
}

/* On a machine seen busy (ClockInfo.reserve), a low clock keeps the reserve
 * against the next stall; below it a move still gets half an increment. */
Test(timeman, a_busy_machine_keeps_a_reserve)
{
    static const int64_t Incs[] = {0, 10, 80};
    for (size_t k = 0; k < sizeof Incs / sizeof *Incs; k++) {
        const int64_t inc = Incs[k];
        for (int64_t time = 1; time <= 3000; time++) {
            ClockInfo c = clock_of(time, inc, 0);
            TimeLimits idle = tm_allocate(&c, 0);
            c.reserve = 150;
            TimeLimits busy = tm_allocate(&c, 0);
            int64_t allowed = time - 150 > inc / 2 ? time - 150 : inc / 2;
            cr_assert(busy.hard >= 1 && busy.hard <= (allowed > 1 ? allowed : 1),
                      "clock %lld + %lld: hard %lld with a reserve of 150", (long long)time,
                      (long long)inc, (long long)busy.hard);
            cr_assert(busy.hard <= idle.hard && busy.soft <= idle.soft);
            if (time - 150 >= idle.hard)
                cr_assert_eq(busy.hard, idle.hard, "clock %lld: the reserve changed a high clock",
                             (long long)time);
        }
    }
}
