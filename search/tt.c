/* Transposition table storage, replacement and hashfull. */
#include "tt.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

static TTBucket *Table;
static size_t BucketCount;
static size_t SizeMB;
static uint8_t Generation; /* stepped by 4 so the low two bits hold the bound */

/* Entries are read and written by every search thread without a lock: each
 * field is accessed as a relaxed atomic (plain moves on x86), so concurrent
 * accesses are well defined. An entry may still mix fields of two writers;
 * the key check and the move validation in the search cope with that. */
#define LD(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)
#define ST(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

static inline TTBucket *bucket_of(uint64_t key)
{
    return &Table[(size_t)(((unsigned __int128)key * BucketCount) >> 64)];
}

bool tt_resize(size_t mb)
{
    if (mb < 1)
        mb = 1;
    size_t bytes = mb << 20;
    void *mem = NULL;
    if (posix_memalign(&mem, 64, bytes) != 0 || !mem)
        return false;
    free(Table);
    Table = mem;
    BucketCount = bytes / sizeof(TTBucket);
    SizeMB = mb;
    tt_clear(1);
    return true;
}

size_t tt_size_mb(void) { return SizeMB; }

typedef struct {
    size_t begin, end;
} ClearJob;

static void *clear_part(void *arg)
{
    ClearJob *j = arg;
    memset(&Table[j->begin], 0, (j->end - j->begin) * sizeof(TTBucket));
    return NULL;
}

void tt_clear(int threads)
{
    if (!Table)
        return;
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    pthread_t tids[64];
    ClearJob jobs[64];
    int started = 0;
    for (int i = 0; i < threads; i++) {
        jobs[i].begin = BucketCount * (size_t)i / (size_t)threads;
        jobs[i].end = BucketCount * (size_t)(i + 1) / (size_t)threads;
    }
    for (int i = 1; i < threads; i++)
        if (pthread_create(&tids[started], NULL, clear_part, &jobs[i]) == 0)
            started++;
        else
            clear_part(&jobs[i]);
    clear_part(&jobs[0]);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    Generation = 0;
}

void tt_free(void)
{
    free(Table);
    Table = NULL;
    BucketCount = 0;
}

void tt_new_search(void) { Generation = (uint8_t)(Generation + 4); }

void tt_prefetch(uint64_t key)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(bucket_of(key));
#else
    (void)key;
#endif
}

static inline int score_to_tt(int s, int ply)
{
    return s >= SCORE_MATE_IN_MAX ? s + ply : s <= SCORE_MATED_IN_MAX ? s - ply : s;
}

static inline int score_from_tt(int s, int ply)
{
    return s >= SCORE_MATE_IN_MAX ? s - ply : s <= SCORE_MATED_IN_MAX ? s + ply : s;
}

bool tt_probe(uint64_t key, int ply, TTData *out)
{
    TTBucket *b = bucket_of(key);
    uint16_t k16 = (uint16_t)key;
    for (int i = 0; i < 3; i++) {
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
            out->bound = gb & 3;
            /* Refresh the age so a hit entry is not the first to go. */
            ST(e->gen_bound, (uint8_t)(Generation | (gb & 3)));
            return true;
        }
    }
    out->hit = false;
    out->move = MOVE_NONE;
    out->score = out->eval = SCORE_NONE;
    out->depth = -1;
    out->bound = BOUND_NONE;
    return false;
}

void tt_store(uint64_t key, int ply, move_t move, int score, int eval, int depth, int bound,
              bool pv)
{
    TTBucket *b = bucket_of(key);
    uint16_t k16 = (uint16_t)key;
    TTEntry *replace = &b->entries[0];
    int worth_r = INT_MAX;
    for (int i = 0; i < 3; i++) {
        TTEntry *e = &b->entries[i];
        uint8_t d = LD(e->depth);
        if (!d || LD(e->key16) == k16) {
            replace = e;
            break;
        }
        /* Worth of an entry: its depth, less its age. */
        int age = ((Generation - LD(e->gen_bound)) & 0xFC) / 4;
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
        || (LD(replace->gen_bound) & 0xFC) != Generation) {
        ST(replace->key16, k16);
        ST(replace->score,
           (int16_t)(score == SCORE_NONE ? SCORE_NONE : score_to_tt(score, ply)));
        ST(replace->eval, (int16_t)eval);
        ST(replace->depth, (uint8_t)(depth + 1 < 1 ? 1 : depth + 1 > 255 ? 255 : depth + 1));
        ST(replace->gen_bound, (uint8_t)(Generation | bound));
    }
}

int tt_hashfull(void)
{
    if (!Table)
        return 0;
    int used = 0;
    size_t n = BucketCount;
    if (n > 1000)
        n = 1000;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 3; j++)
            if (LD(Table[i].entries[j].depth)
                && (LD(Table[i].entries[j].gen_bound) & 0xFC) == Generation)
                used++;
    return n ? (int)(used * 1000 / (3 * (int)n)) : 0;
}
