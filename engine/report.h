/* The UCI text of a search's results: the reporter (search/search.h) that
 * turns them into `info` and `bestmove` lines. */
#ifndef ROKADE_REPORT_H
#define ROKADE_REPORT_H

#include <stddef.h>

#include "../search/search.h"

typedef struct {
    void (*print)(const char *line); /* one whole line, without newline */
    bool show_wdl;                   /* UCI_ShowWDL */
    Position *scratch;               /* for the PV's move text; report_init allocates it */
    int64_t bestmove_at;             /* now_ms() when the last bestmove was printed */
    int64_t bestmove_cpu;            /* cpu_ms() then */
} UciReport;

/* Prepares r to print through `print`; false when out of memory. */
bool report_init(UciReport *r, void (*print)(const char *line));
void report_free(UciReport *r);
/* The callbacks, with r as their context. */
SearchReporter report_callbacks(UciReport *r);

/* "cp N", or "mate N" (negative when mated): the UCI score text of a search
 * score at `root`. The centipawns are the WDL model's (eval/wdl.h): 100 is a
 * 50% chance to win with root's material; tablebase scores are printed as
 * they are. */
void report_score(int score, const Position *root, char *buf, size_t len);
/* " wdl W D L" in per mille from the side to move's view, by the same model
 * (a dead position 0 1000 0, a mate or tablebase result 1000 0 0 or 0 0 1000). */
void report_wdl(int score, const Position *root, char *buf, size_t len);

#endif
