/* The search: iterative deepening with aspiration windows, PVS alpha-beta,
 * quiescence, on a pool of threads (Lazy SMP). search_start returns at once;
 * the result is printed through the output callback as UCI `info` and
 * `bestmove` lines.
 *
 * A Search is one engine instance: its thread pool, limits, options and
 * transposition table. The functions without a Search argument work on the
 * default instance (the UCI engine, bench); other users, such as datagen,
 * create as many independent instances as they like. */
#ifndef ROKADE_SEARCH_H
#define ROKADE_SEARCH_H

#include "../movegen/position.h"
#include "timeman.h"

typedef struct {
    int depth;          /* 0 = none */
    uint64_t nodes;     /* 0 = none */
    int mate;           /* mate in N moves; 0 = none */
    bool infinite, ponder;
    ClockInfo clock;
    move_t searchmoves[MAX_MOVES];
    int searchmoves_count;
} SearchLimits;

typedef struct {
    int multipv;       /* 1..256 */
    bool show_wdl;
    int threads;
    /* Play level (search/level.h): Skill Level 0..20, or UCI_Elo when
     * limit_strength is on; seed 0 = a new random seed for every search. */
    int skill_level;
    bool limit_strength;
    int elo;
    uint64_t seed;
} SearchOptions;

typedef void (*OutputFn)(const char *line);

typedef struct Search Search;

typedef struct {
    move_t best;     /* MOVE_NONE when there is no legal move */
    int score;       /* side-to-move view; mate scores as in score.h */
    int depth;       /* last completed iteration */
    uint64_t nodes;
} SearchResult;

/* ---- Instances -------------------------------------------------------- */

/* A new instance with one thread and its own table of tt_mb megabytes; it
 * prints nothing. NULL when memory or the thread cannot be had. */
Search *search_create(size_t tt_mb);
void search_destroy(Search *s);
/* A new game: clears the histories and the table. */
void search_new_game(Search *s);
/* Searches root synchronously to `depth` (0 = no limit) and/or `nodes`
 * (0 = no limit; give at least one of the two) at full strength with one
 * line, printing nothing. Deterministic for one thread. False when the
 * position has no legal move (then best is MOVE_NONE and score is mated or 0). */
bool search_position(Search *s, const Position *root, int depth, uint64_t nodes,
                     SearchResult *out);

/* ---- The default instance ---------------------------------------------- */

/* Creates the pool with one thread and the TT; call once. */
void search_init(OutputFn out);
void search_shutdown(void);
/* Changes the thread count (waits for a running search). False on failure. */
bool search_set_threads(int n);
SearchOptions *search_options(void);

void search_start(const Position *root, const SearchLimits *limits);
void search_stop(void);
void search_ponderhit(void);
/* Blocks until the current search (if any) has printed its bestmove. */
void search_wait(void);
bool search_running(void);
/* True while a search runs that only ends by `stop` (infinite, or ponder). */
bool search_is_unbounded(void);
void search_clear(void); /* ucinewgame: histories and TT */

/* Searches synchronously to a fixed depth with one thread and returns the node
 * count (bench); prints nothing. best/score receive the result. */
uint64_t search_fixed_depth(const Position *root, int depth, move_t *best, int *score);

#endif
