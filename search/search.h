/* The search: iterative deepening with aspiration windows, PVS alpha-beta and
 * quiescence on a pool of threads (Lazy SMP).
 *
 * A Search is one engine instance: its thread pool, its transposition table,
 * its options and the limits of the running search. Whoever creates it owns
 * it: the UCI front end owns one, bench creates its own, datagen one per
 * worker. There is no hidden default instance.
 *
 * The search prints nothing. What it has to say (an iteration's lines, the
 * root move being searched, the move it plays) goes to the reporter given at
 * creation, as data; the front end decides how it looks (UCI `info` and
 * `bestmove` lines in engine/report.c). */
#ifndef ROKADE_SEARCH_H
#define ROKADE_SEARCH_H

#include <stddef.h>

#include "../eval/nnue/nnue.h"
#include "../movegen/position.h"
#include "timeman.h"

typedef struct {
    int depth;      /* 0 = none */
    uint64_t nodes; /* 0 = none */
    int mate;       /* mate in N moves; 0 = none */
    bool infinite, ponder;
    ClockInfo clock;
    move_t searchmoves[MAX_MOVES];
    int searchmoves_count;
} SearchLimits;

typedef struct {
    int multipv; /* 1..256 */
    /* Play level (search/level.h): Skill Level 0..20, or UCI_Elo when
     * limit_strength is on; seed 0 = a new random seed for every search. */
    int skill_level;
    bool limit_strength;
    int elo;
    uint64_t seed;
    /* Syzygy tablebases (eval/syzygy/tbprobe.h; the tables are global):
     * probed in the search at depths of at least tb_probe_depth, in
     * positions of at most tb_probe_limit pieces; with tb_50_move_rule a
     * cursed win or blessed loss scores as a draw. */
    int tb_probe_depth;
    int tb_probe_limit;
    bool tb_50_move_rule;
} SearchOptions;

/* One line of an iteration's result. */
typedef struct {
    int depth, seldepth;
    int multipv;     /* 1-based line number */
    int score;       /* side-to-move view; mate scores as in movegen/score.h */
    int bound;       /* BOUND_EXACT, or BOUND_LOWER / BOUND_UPPER after a fail high / low */
    uint64_t nodes;  /* all threads */
    uint64_t tbhits; /* tablebase probes that gave a result, all threads */
    int64_t time_ms; /* since the search started */
    int hashfull;    /* per mille */
    int pv_len;
    const move_t *pv; /* legal moves from the root, pv_len of them */
} SearchLine;

/* Where a search's results go; every callback may be NULL. The callbacks run
 * on the search's main thread; a front end that also prints elsewhere must
 * serialise its output. */
typedef struct {
    void *ctx;
    /* A line of a completed iteration (MultiPV lines come in order), or of
     * an aspiration window's fail high or low. */
    void (*line)(void *ctx, const Position *root, const SearchLine *line);
    /* The root move now searched, after the first seconds of a search. */
    void (*currmove)(void *ctx, const Position *root, int depth, move_t move, int number);
    /* A remark for the user (UCI: `info string`), such as why a search
     * ended early. */
    void (*note)(void *ctx, const char *text);
    /* The search has ended: best is MOVE_NONE when the root has no legal move
     * (checkmate or stalemate); ponder is MOVE_NONE when there is none. */
    void (*bestmove)(void *ctx, const Position *root, move_t best, move_t ponder);
} SearchReporter;

typedef struct Search Search;

typedef struct {
    move_t best; /* MOVE_NONE when there is no legal move */
    int score;   /* side-to-move view */
    int depth;   /* last completed iteration */
    uint64_t nodes;
} SearchResult;

/* ---- Lifecycle ---------------------------------------------------------- */

/* A new instance with one thread and its own table of tt_mb megabytes,
 * reporting to *reporter (copied; NULL: it reports nothing). NULL when the
 * memory or the thread cannot be had. */
Search *search_create(size_t tt_mb, const SearchReporter *reporter);
void search_destroy(Search *s);

/* ---- Settings (each waits for a running search to end) ----------------- */

/* Changes the thread count; false when fewer could be started (then those
 * that could run, at least one). */
bool search_set_threads(Search *s, int n);
int search_threads(const Search *s);
/* Resizes the table; false (table kept) when the memory cannot be had. */
bool search_set_hash(Search *s, size_t mb);
size_t search_hash_mb(const Search *s);
/* The evaluation of the next searches: a net (kept alive by the caller until
 * it is replaced and no search runs) or NULL for the hand-crafted one. */
void search_set_net(Search *s, const NnueNet *net);
/* The options read by the next search_start. */
SearchOptions *search_options(Search *s);
/* A new game: clears the histories and the table, draws a new level seed. */
void search_new_game(Search *s);

/* ---- Searching ---------------------------------------------------------- */

/* Starts a search of root and returns at once; results go to the reporter. */
void search_start(Search *s, const Position *root, const SearchLimits *limits);
/* `stop`: ends the running search (it reports its move). */
void search_stop(Search *s);
/* `ponderhit`: the ponder search goes on as a normal one on our clock. */
void search_ponderhit(Search *s);
/* Blocks until the current search (if any) has reported its move. */
void search_wait(Search *s);
bool search_running(Search *s);
/* True while a search runs that only ends by `stop` (infinite, or ponder). */
bool search_is_unbounded(Search *s);

/* Searches root synchronously to `depth` (0 = no limit) and/or `nodes`
 * (0 = no limit; give at least one of the two) at full strength with one
 * line, reporting nothing. Deterministic for one thread. False when the
 * position has no legal move (then best is MOVE_NONE and score is mated or 0). */
bool search_position(Search *s, const Position *root, int depth, uint64_t nodes, SearchResult *out);

/* A search's result with its line, for analysis (engine/review.c). */
typedef struct {
    move_t best; /* MOVE_NONE when there is no legal move */
    int score;   /* side-to-move view */
    int depth;   /* last completed iteration */
    uint64_t nodes;
    int pv_len;
    move_t pv[MAX_PLY + 1]; /* legal moves from the root, best first */
} SearchAnalysis;

/* Searches root synchronously under `limits` (depth, nodes and/or
 * clock.movetime; give at least one, no clock, not infinite) at full
 * strength with one line, reporting nothing, on the instance's threads and
 * table. False when the position has no legal move (then best is MOVE_NONE,
 * the line empty and score mated or 0). */
bool search_analyse(Search *s, const Position *root, const SearchLimits *limits,
                    SearchAnalysis *out);

/* After a constant of search/tunables.h changed (a TUNE build): rebuilds
 * what the search derives from them. Call between searches. */
void search_tunables_changed(void);

/* No limits: a SearchLimits with no clock (time and inc -1) and no bounds. */
void search_limits_none(SearchLimits *lim);

#endif
