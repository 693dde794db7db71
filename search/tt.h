/* The transposition table: 32-byte buckets of three 10-byte entries, shared by
 * all search threads without locks (a move read from it is validated before
 * use). Mate scores are stored relative to the node. */
#ifndef ROKADE_TT_H
#define ROKADE_TT_H

#include <stddef.h>

#include "../movegen/move.h"

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

typedef struct {
    uint16_t key16;
    uint16_t move;
    int16_t score;
    int16_t eval;
    uint8_t depth;     /* depth + 1; 0 = empty */
    uint8_t gen_bound; /* generation (high 5 bits) | pv << 2 | bound */
} TTEntry;

enum { TT_BUCKET_ENTRIES = 3 };

typedef struct {
    TTEntry entries[TT_BUCKET_ENTRIES];
    uint16_t pad;
} TTBucket;

_Static_assert(sizeof(TTEntry) == 10, "TT entry must be 10 bytes");
_Static_assert(sizeof(TTBucket) == 32, "TT bucket must be 32 bytes");

typedef struct {
    bool hit;
    move_t move;
    int score; /* already adjusted to the probing ply */
    int eval;
    int depth;
    int bound;
    bool pv; /* the entry was stored by a PV node or one that had been */
} TTData;

/* A table; each search instance owns one. */
typedef struct TT {
    TTBucket *table; /* 64-byte aligned, inside mem */
    void *mem;       /* the allocation */
    size_t bucket_count;
    size_t size_mb;
    uint8_t generation; /* stepped by 8 so the low three bits hold pv and bound */
} TT;

/* A zeroed TT has no memory yet. Resizes to `mb` megabytes; on failure keeps
 * the old table and returns false. */
bool tt_table_resize(TT *tt, size_t mb);
/* Clears with up to `threads` threads. */
void tt_table_clear(TT *tt, int threads);
void tt_table_free(TT *tt);
void tt_table_new_search(TT *tt);
bool tt_table_probe(TT *tt, uint64_t key, int ply, TTData *out);
void tt_table_store(TT *tt, uint64_t key, int ply, move_t move, int score, int eval, int depth,
                    int bound, bool pv);
void tt_table_prefetch(const TT *tt, uint64_t key);
/* Used entries of this generation, per mille, sampled on the first 1000 buckets. */
int tt_table_hashfull(const TT *tt);

#endif
