/* The search's threads and the instance they belong to; internal to search/
 * (users see the opaque Search of search.h).
 *
 * Each instance has a pool of threads created once, which sleep on a
 * condition variable between searches (Lazy SMP: the threads share the
 * instance's TT; each has its own position, stack, histories and pawn cache).
 * thread.c runs the pool and the instance's lifecycle; search.c the search
 * each thread runs. */
#ifndef ROKADE_THREAD_H
#define ROKADE_THREAD_H

#include <pthread.h>
#include <stdatomic.h>

#include "../eval/eval.h"
#include "../movegen/platform/platform.h"
#include "history.h"
#include "level.h"
#include "search.h"
#include "timeman.h"
#include "tt.h"

/* A build without threads (the browser's single-threaded WebAssembly): the
 * one searcher is the caller, inside search_start, and a search that only
 * `stop` could end is limited to SEARCH_INLINE_MS instead. */
#ifdef PLAT_NO_THREADS
#define SEARCH_INLINE
enum { SEARCH_INLINE_MS = 10000 };
#endif

/* What the search keeps per ply. */
typedef struct {
    ContHist *cont; /* continuation-history slot of the move made at this ply */
    move_t move, excluded, killers[2];
    bitboard_t threats; /* the opponent's threats at this ply, once a quiet move came */
    int piece;          /* the piece that made it */
    bool quiet;         /* the move made at this ply is neither a capture nor a promotion */
    int static_eval;
    int cutoffs; /* beta cutoffs of the nodes searched at this ply under the same grandparent */
    int ply;
    int pv_len;
    move_t pv[MAX_PLY + 1];
} Stack;

typedef struct {
    move_t move;
    int score, prev_score, seldepth, pv_len;
    uint64_t nodes; /* nodes spent under this move in the whole search (time management) */
    move_t pv[MAX_PLY + 1];
} RootMove;

/* Plies of the stack below the root, so that (ss - 4) is always valid. */
enum { STACK_OFFSET = 4 };

typedef struct SearchThread {
    Search *s; /* the instance this thread belongs to */
    int id;    /* 0 = the main thread, which decides and reports */
    pthread_t tid;
    Position pos;
    _Atomic uint64_t nodes;
    _Atomic uint64_t tbhits; /* tablebase probes that gave a result */
    int seldepth, root_depth, completed_depth, pv_idx, root_count;
    bool may_stop;        /* false until the main thread has completed depth 1 */
    bool full_width;      /* no pruning, no reductions, no TT cutoffs (go mate proofs) */
    bool proof_abort;     /* the proof's node budget is spent */
    uint64_t proof_limit; /* the node count where it is */
    /* While a null-move cutoff is verified: the side that may not try a
     * null move, and the ply from which it may again. */
    int nmp_color, nmp_min_ply;
    RootMove root_moves[MAX_MOVES];
    Stack stack[MAX_PLY + STACK_OFFSET + 4];
    History hist;
    PawnTable pawns;
    NnueStack nnue; /* nnue.net NULL: the hand-crafted evaluation */
} SearchThread;

struct Search {
    SearchReporter rep; /* where the results go */
    bool quiet;         /* search_position: report nothing */
    SearchOptions options;
    const NnueNet *net; /* NULL: the hand-crafted evaluation */
    TT tt;
    SearchThread **threads;
    int thread_count;

    pthread_mutex_t lock;
    pthread_cond_t cond;
    int start_gen, busy;  /* guarded by lock */
    bool active, exiting; /* guarded by lock */
    bool user_stopped;    /* guarded by lock: `stop` was received */
    /* Guarded by lock: nothing but `stop` ends this search (infinite, or no
     * depth, node, mate or time limit, as with only the opponent's clock). A
     * `go mate N` counts as finite: it ends when it finds the mate. */
    bool endless;
    atomic_bool stop, pondering;
    /* Set by the main thread while pondering when its time for the move is
     * spent (tm_should_stop): `ponderhit` then ends the search at once. */
    atomic_bool ponder_spent;

    /* The current search; set by search_start before the threads wake. */
    SearchLimits limits;
    TimeManager tm;
    _Atomic int64_t start_time;
    Position root;
    int multipv;  /* lines searched */
    int shown_pv; /* lines reported: the MultiPV option */
    struct {      /* the last multipv-1 line reported (pv_len -1: none) */
        int score, pv_len;
        move_t pv[MAX_PLY + 1];
    } last_line;
    /* Tablebases (tbsearch.c): the most pieces probed in the tree (0:
     * none); whether the root is in the tables, and its score then. */
    int tb_pieces;
    uint64_t tb_root_hits; /* probes of the root moves */
    bool tb_root;
    int tb_root_score;
    Level lv; /* the play level of this search */
    uint64_t level_seed;
    uint64_t game_seed; /* drawn at creation and by a new game */
    double last_strength;
    uint64_t last_seed;
};

/* Nodes of all threads of the current search. */
uint64_t search_total_nodes(const Search *s);
/* Tablebase hits of all threads of the current search. */
uint64_t search_total_tbhits(const Search *s);
/* Milliseconds since the search started. */
int64_t search_elapsed(const Search *s);

/* search.c: the tables the search reads (built once; again after a
 * tunable changes in a TUNE build). */
void search_init_tables(void);
/* search.c: a thread's whole search of s->root (iterative deepening). */
void search_thread_run(SearchThread *t);
/* result.c: after every thread has stopped, picks the move and reports it. */
void search_report_result(Search *s);
/* result.c: reports the lines of iteration `depth` of thread t, the line
 * searched now with its bound against [alpha, beta]. */
void search_report_lines(SearchThread *t, int depth, int alpha, int beta);
/* result.c: a remark for the user (UCI: info string). */
void search_note(const Search *s, const char *text);

#endif
