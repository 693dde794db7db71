/* The engine front end's state: what the UCI commands and options set that
 * the search does not hold itself. The UCI loop (uci.c) owns the one
 * instance; command handlers and option setters receive it. */
#ifndef ROKADE_ENGINE_H
#define ROKADE_ENGINE_H

#include <stdbool.h>

#include "../movegen/position.h"
#include "../search/search.h"
#include "report.h"

typedef struct Engine {
    Position root;     /* the game position `position` set */
    bool chess960;     /* UCI_Chess960: castling notation of positions set from now on */
    int move_overhead; /* Move Overhead (ms), handed to the time manager with each `go` */
    bool debug;        /* `debug on`: `go` echoes the limits it understood */
    /* Why the last `position` was refused ("" when it was accepted): until
     * the next accepted one or `ucinewgame`, `go` refuses to search the old
     * position, whose move the client would take for one of the new. */
    char position_error[240];
    Search *search;       /* the search instance, with its table and threads */
    NnueNet *net;         /* the net the search uses (NULL: the hand-crafted evaluation) */
    char eval_file[4096]; /* the EvalFile option's value in force */
    UciReport report;     /* how its results are printed (UCI_ShowWDL) */
    /* The delay between our bestmove and the client's clock, learned from
     * the clocks of consecutive `go`s of one game: when the client charges
     * more than the search took, the difference (a slow client, a busy
     * machine) is kept back on later moves as well as Move Overhead. */
    struct {
        bool valid;          /* the last go had our clock and was no ponder search */
        int side, game_ply;  /* its position */
        int64_t time, inc;   /* our clock and increment then, ms */
        int64_t started;     /* now_ms() when it started */
        int64_t started_cpu; /* cpu_ms() then */
    } last_go;
    int lag_ms; /* the learned delay (0 .. LAG_MAX_MS) */
    /* The longest time lately that a search waited for a core (its wall
     * time less its CPU time): on a busy machine a low clock keeps twice
     * that in reserve. Halves every minute (stall_at: when last set). */
    int stall_ms;
    int64_t stall_at;
} Engine;

/* The options the search holds (MultiPV, the play level): the engine's one
 * way to them. */
static inline SearchOptions *engine_search_options(Engine *e) { return search_options(e->search); }

#endif
