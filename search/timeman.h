/* Time allocation for one move: a soft limit (do not start another
 * iteration) and a hard limit (abort), from the UCI clock. */
#ifndef ROKADE_TIMEMAN_H
#define ROKADE_TIMEMAN_H

#include <stdint.h>

typedef struct {
    int64_t time[2], inc[2]; /* ms; -1 = not given */
    int movestogo;           /* 0 = sudden death or increment */
    int64_t movetime;        /* ms; 0 = none */
    int overhead;            /* ms */
} ClockInfo;

typedef struct {
    int64_t soft, hard; /* ms from the start; 0 = unlimited */
} TimeLimits;

/* Limits for the side `us`; none when the clock is not given. */
TimeLimits tm_allocate(const ClockInfo *c, int us);
/* Monotonic milliseconds. */
int64_t tm_now(void);

#endif
