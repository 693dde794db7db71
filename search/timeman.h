/* Time management for one move. tm_allocate turns the UCI clock into a soft
 * limit (do not start another iteration) and a hard limit (abort); during the
 * search, tm_update scales the soft limit after every iteration by how
 * settled the result is, and tm_should_stop says whether to go on. */
#ifndef ROKADE_TIMEMAN_H
#define ROKADE_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "../movegen/move.h"

typedef struct {
    int64_t time[2], inc[2]; /* ms; -1 = not given */
    int movestogo;           /* 0 = sudden death or increment */
    int64_t movetime;        /* ms; 0 = none */
    int overhead;            /* ms */
    int reserve;             /* ms the hard limit keeps on a low clock (a busy machine); 0 = none */
} ClockInfo;

typedef struct {
    int64_t soft, hard; /* ms from the start; 0 = unlimited */
} TimeLimits;

/* The state of one search's time decisions. */
typedef struct {
    TimeLimits limits;
    int stability; /* iterations the best move has stayed (0..TM_STABILITY_MAX) */
    move_t prev_best;
    int prev_score; /* the previous iteration's best score */
    double scale;   /* of the soft limit, from the last tm_update */
} TimeManager;

/* Limits for the side `us`; none when the clock is not given. */
TimeLimits tm_allocate(const ClockInfo *c, int us);

/* A new search for the side `us`. */
void tm_init(TimeManager *tm, const ClockInfo *c, int us);
/* After the main thread completes iteration `depth`: its best move and score,
 * the share of the iteration's root nodes the best move took (negative when
 * not known) and the number of root moves. */
void tm_update(TimeManager *tm, int depth, move_t best, int score, double best_share,
               int root_moves);
/* Whether the search should not start another iteration after `elapsed` ms. */
bool tm_should_stop(const TimeManager *tm, int64_t elapsed);
/* Whether the hard limit is reached: the search must end now. */
static inline bool tm_out_of_time(const TimeManager *tm, int64_t elapsed)
{
    return tm->limits.hard && elapsed >= tm->limits.hard;
}

#endif
