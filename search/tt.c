/* Transposition table storage, replacement and hashfull. */
#include "tt.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/platform/platform.h"
#include "../movegen/score.h"
#include "../movegen/util.h"

/* gen_bound: the generation in the high five bits, the PV flag, the bound. */
enum { BOUND_MASK = 3, PV_BIT = 4, GEN_STEP = 8, GEN_MASK = 0xF8 };

/* Entries are read and written by every search thread without a lock: each
 * field is accessed as a relaxed atomic (plain moves on x86), so concurrent
 * accesses are well defined. An entry may still mix fields of two writers;
 * the key check and the move validation in the search cope with that. */
#define LD(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)
#define ST(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

static inline TTBucket *bucket_of(const TT *tt, uint64_t key)
{
    return &tt->table[(size_t)(((unsigned __int128)key * tt->bucket_count) >> 64)];
}

/* Tables of this many MB or more are cleared by a fresh block. */
enum { TT_FRESH_CLEAR_MB = 256 };

/* Buckets start on a cache line: a probe reads one line. A table of a huge
 * page (2 MB) or more, below TT_FRESH_CLEAR_MB, starts on a huge page and
 * asks for huge pages: each probe lands on a random page, and with 4 KB
 * pages most of them also miss the TLB (bench/README.md, "Huge pages"). */

/* A zeroed table of n buckets, aligned as above; *mem receives what to free
 * (plat_table_free). The block is fresh from the system: a big table costs
 * neither time nor memory until the search uses it, and a new one is the
 * fastest way to clear it. */
static TTBucket *alloc_zeroed(size_t n, void **mem)
{
    if (n > (SIZE_MAX - PLAT_HUGE_PAGE) / sizeof(TTBucket))
        return NULL;
    const size_t bytes = n * sizeof(TTBucket);
    /* Huge pages only below TT_FRESH_CLEAR_MB: such a table is cleared in
     * place, so all its pages are soon there anyway; a larger one is left to
     * fault in as the search reaches it, and each first touch of a huge
     * page would clear 2 MB (a search of a few thousand nodes in a table of
     * gigabytes then clears gigabytes). */
    const bool huge = bytes >= PLAT_HUGE_PAGE && bytes < ((size_t)TT_FRESH_CLEAR_MB << 20);
    return plat_table_alloc(bytes, huge, mem);
}

bool tt_table_resize(TT *tt, size_t mb)
{
    if (mb < 1)
        mb = 1;
    if (mb > SIZE_MAX >> 21)
        return false;
    size_t n = (mb << 20) / sizeof(TTBucket);
    void *mem;
    TTBucket *table = alloc_zeroed(n, &mem);
    if (!table)
        return false;
    plat_table_free(tt->mem);
    tt->mem = mem;
    tt->table = table;
    tt->bucket_count = n;
    tt->size_mb = mb;
    tt->generation = 0;
    return true;
}

typedef struct {
    TTBucket *table;
    size_t begin, end;
} ClearJob;

static void *clear_part(void *arg)
{
    ClearJob *j = arg;
    memset(&j->table[j->begin], 0, (j->end - j->begin) * sizeof(TTBucket));
    return NULL;
}

void tt_table_clear(TT *tt, int threads)
{
    if (!tt->table)
        return;
    tt->generation = 0;
    /* A large table is replaced by a fresh zeroed block, whose pages cost
     * nothing until the search writes them; a small one (or a large one
     * when no fresh block can be had) is wiped in place with the given
     * number of threads, which is faster than faulting its pages in again. */
    void *mem;
    TTBucket *table = tt->size_mb >= TT_FRESH_CLEAR_MB ? alloc_zeroed(tt->bucket_count, &mem)
                                                       : NULL;
    if (table) {
        plat_table_free(tt->mem);
        tt->mem = mem;
        tt->table = table;
        return;
    }
    enum { MAX_CLEAR_THREADS = 64 };
    threads = threads < 1 ? 1 : threads > MAX_CLEAR_THREADS ? MAX_CLEAR_THREADS : threads;
    ClearJob jobs[MAX_CLEAR_THREADS];
    for (int i = 0; i < threads; i++) {
        jobs[i].table = tt->table;
        jobs[i].begin = tt->bucket_count * (size_t)i / (size_t)threads;
        jobs[i].end = tt->bucket_count * (size_t)(i + 1) / (size_t)threads;
    }
    run_parallel(clear_part, jobs, sizeof *jobs, threads);
}

void tt_table_free(TT *tt)
{
    plat_table_free(tt->mem);
    tt->mem = NULL;
    tt->table = NULL;
    tt->bucket_count = 0;
}

void tt_table_new_search(TT *tt) { tt->generation = (uint8_t)(tt->generation + GEN_STEP); }

void tt_table_prefetch(const TT *tt, uint64_t key)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(bucket_of(tt, key));
#else
    (void)tt;
    (void)key;
#endif
}

/* Mate and tablebase scores are stored relative to the node. */
static inline int score_to_tt(int s, int ply)
{
    return s >= SCORE_TB_WIN_IN_MAX ? s + ply : s <= SCORE_TB_LOSS_IN_MAX ? s - ply : s;
}

static inline int score_from_tt(int s, int ply)
{
    return s >= SCORE_TB_WIN_IN_MAX ? s - ply : s <= SCORE_TB_LOSS_IN_MAX ? s + ply : s;
}

bool tt_table_probe(TT *tt, uint64_t key, int ply, TTData *out)
{
    TTBucket *b = bucket_of(tt, key);
    uint16_t k16 = (uint16_t)key;
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        TTEntry *e = &b->entries[i];
        uint8_t depth = LD(e->depth);
        if (LD(e->key16) == k16 && depth) {
            uint8_t gb = LD(e->gen_bound);
            int16_t score = LD(e->score);
            out->hit = true;
            out->move = LD(e->move);
            out->score = score == SCORE_NONE ? SCORE_NONE : score_from_tt(score, ply);
            out->eval = LD(e->eval);
            out->depth = depth - 1;
            out->bound = gb & BOUND_MASK;
            out->pv = gb & PV_BIT;
            /* Refresh the age so a hit entry is not the first to go. */
            ST(e->gen_bound, (uint8_t)(tt->generation | (gb & (PV_BIT | BOUND_MASK))));
            return true;
        }
    }
    out->hit = false;
    out->move = MOVE_NONE;
    out->score = out->eval = SCORE_NONE;
    out->depth = -1;
    out->bound = BOUND_NONE;
    out->pv = false;
    return false;
}

void tt_table_store(TT *tt, uint64_t key, int ply, move_t move, int score, int eval, int depth,
                    int bound, bool pv)
{
    TTBucket *b = bucket_of(tt, key);
    uint16_t k16 = (uint16_t)key;
    const uint8_t generation = tt->generation;
    TTEntry *replace = &b->entries[0];
    int worth_r = INT_MAX;
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        TTEntry *e = &b->entries[i];
        uint8_t d = LD(e->depth);
        if (!d || LD(e->key16) == k16) {
            replace = e;
            break;
        }
        /* Worth of an entry: its depth, less its age. */
        /* Its generation's distance from this one (the low bits masked off
         * first, so that a bound or PV flag cannot borrow from it). */
        int age = ((generation - (LD(e->gen_bound) & GEN_MASK)) & GEN_MASK) / GEN_STEP;
        int worth = d - 8 * age;
        if (worth < worth_r) {
            replace = e;
            worth_r = worth;
        }
    }
    bool same = LD(replace->key16) == k16;
    /* Keep a good move when the new result has none for the same position. */
    if (move || !same)
        ST(replace->move, move);
    if (bound == BOUND_EXACT || !same || depth + 4 + 2 * pv > LD(replace->depth) - 1
        || (LD(replace->gen_bound) & GEN_MASK) != generation) {
        ST(replace->key16, k16);
        ST(replace->score, (int16_t)(score == SCORE_NONE ? SCORE_NONE : score_to_tt(score, ply)));
        ST(replace->eval, (int16_t)eval);
        ST(replace->depth, (uint8_t)(depth + 1 < 1 ? 1 : depth + 1 > 255 ? 255 : depth + 1));
        ST(replace->gen_bound, (uint8_t)(generation | (pv ? PV_BIT : 0) | bound));
    }
}

int tt_table_hashfull(const TT *tt)
{
    if (!tt->table)
        return 0;
    int used = 0;
    /* UCI's hashfull is per mille: read off the first thousand buckets. */
    enum { SAMPLE_BUCKETS = 1000 };
    size_t n = tt->bucket_count;
    if (n > SAMPLE_BUCKETS)
        n = SAMPLE_BUCKETS;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < TT_BUCKET_ENTRIES; j++)
            if (LD(tt->table[i].entries[j].depth)
                && (LD(tt->table[i].entries[j].gen_bound) & GEN_MASK) == tt->generation)
                used++;
    return n ? (int)(used * 1000 / (TT_BUCKET_ENTRIES * (int)n)) : 0;
}
