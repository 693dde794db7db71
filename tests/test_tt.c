/* The transposition table (search/tt.c) through its explicit-table API: every
 * field read back as stored, mate scores relative to the node, the 16-bit key
 * check, which entry of a full bucket a new key replaces, what a store for
 * the same key overwrites, aging by generation, hashfull, resize and clear.
 *
 * Keys that share a bucket are built from the bucket index computed the way
 * tt.c computes it (the high half of key x bucket count); a test checks that
 * computation against where the table really puts an entry. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/score.h"
#include "../search/tt.h"

TestSuite(tt);

static TT *new_tt(size_t mb)
{
    TT *tt = calloc(1, sizeof *tt);
    cr_assert_not_null(tt);
    cr_assert(tt_table_resize(tt, mb), "resize to %zu MB failed", mb);
    return tt;
}

static void free_tt(TT *tt)
{
    tt_table_free(tt);
    free(tt);
}

/* The bucket of a key, as tt.c computes it. */
static size_t bucket_index(const TT *tt, uint64_t key)
{
    return (size_t)(((unsigned __int128)key * tt->bucket_count) >> 64);
}

/* A key of bucket b whose low 16 bits (the key check) are `check`, with
 * `salt` in the bits above them (keys of one bucket that differ in salt
 * and not in check pass each other's key check). */
static uint64_t key_for(const TT *tt, size_t b, uint16_t check, uint16_t salt)
{
    cr_assert_gt(tt->bucket_count, 0, "the table has no memory");
    const unsigned __int128 n = tt->bucket_count;
    /* The smallest key of bucket b, rounded up to a multiple of 2^32. */
    uint64_t first = (uint64_t)((((unsigned __int128)b << 64) + n - 1) / n);
    uint64_t key = ((first + 0xFFFFFFFFULL) & ~0xFFFFFFFFULL) + ((uint64_t)salt << 16) + check;
    cr_assert_eq(bucket_index(tt, key), b, "no key with check %04x in bucket %zu", check, b);
    return key;
}

static TTData probe(TT *tt, uint64_t key, int ply)
{
    TTData d;
    bool hit = tt_table_probe(tt, key, ply, &d);
    cr_assert_eq(hit, d.hit, "probe returns %d but sets hit %d", hit, d.hit);
    return d;
}

static bool has(TT *tt, uint64_t key)
{
    TTData d;
    return tt_table_probe(tt, key, 0, &d);
}

/* Stores with a fixed move, score and eval; the depth says which key it was. */
static void put(TT *tt, uint64_t key, int depth, int bound, bool pv)
{
    tt_table_store(tt, key, 0, (move_t)(depth + 100), 10 * depth, -depth, depth, bound, pv);
}

static int used_entries(const TT *tt)
{
    int n = 0;
    for (size_t i = 0; i < tt->bucket_count; i++)
        for (int j = 0; j < 3; j++)
            n += tt->table[i].entries[j].depth != 0;
    return n;
}

Test(tt, bucket_index_is_where_the_table_stores)
{
    TT *tt = new_tt(1);
    cr_assert_eq(tt->bucket_count, (size_t)(1 << 20) / sizeof(TTBucket));
    static const uint64_t Keys[] = {
        0,
        1,
        0xFFFFFFFFFFFFFFFFULL,
        0x8000000000000000ULL,
        0x123456789ABCDEF0ULL,
        0x0001000000000000ULL,
        0xFFFE000000000000ULL,
        0x7FFF800000012345ULL,
    };
    for (size_t i = 0; i < sizeof Keys / sizeof Keys[0]; i++) {
        tt_table_clear(tt, 1);
        tt_table_store(tt, Keys[i], 0, 1, 0, 0, 5, BOUND_EXACT, false);
        size_t found = tt->bucket_count;
        int count = 0;
        for (size_t b = 0; b < tt->bucket_count; b++)
            for (int j = 0; j < 3; j++)
                if (tt->table[b].entries[j].depth) {
                    found = b;
                    count++;
                }
        cr_expect_eq(count, 1, "key %016llx: %d entries used", (unsigned long long)Keys[i], count);
        cr_expect_eq(found, bucket_index(tt, Keys[i]), "key %016llx stored in bucket %zu, not %zu",
                     (unsigned long long)Keys[i], found, bucket_index(tt, Keys[i]));
        cr_expect_eq(tt->table[found].entries[0].key16, (uint16_t)Keys[i]);
    }
    free_tt(tt);
}

Test(tt, every_field_round_trips)
{
    TT *tt = new_tt(1);
    static const int Depths[] = {0, 1, 7, 63, 100, 254};
    static const int Scores[] = {
        0, 1, -1, 345, -2999, SCORE_MATE_IN_MAX - 1, SCORE_MATED_IN_MAX + 1, SCORE_NONE};
    static const int Evals[] = {0, 77, -1500, SCORE_NONE};
    static const move_t Moves[] = {1, 0x0D1C, 0x7FFF, 0xFFFF};
    int n = 0;
    for (int bound = BOUND_NONE; bound <= BOUND_EXACT; bound++)
        for (int pv = 0; pv < 2; pv++)
            for (size_t di = 0; di < sizeof Depths / sizeof Depths[0]; di++) {
                const int depth = Depths[di];
                const int score = Scores[(size_t)n % (sizeof Scores / sizeof Scores[0])];
                const int eval = Evals[(size_t)n % (sizeof Evals / sizeof Evals[0])];
                const move_t move = Moves[(size_t)n % (sizeof Moves / sizeof Moves[0])];
                const int ply = n % 5;
                /* A key per case, each in its own bucket. */
                const uint64_t key = key_for(tt, 37 * (size_t)n + 3, (uint16_t)(0x9E37 * n), 1);
                n++;
                tt_table_store(tt, key, ply, move, score, eval, depth, bound, pv);
                TTData d = probe(tt, key, ply);
                cr_assert(d.hit, "case %d: miss", n);
                cr_expect_eq(d.move, move, "case %d: move %04x, stored %04x", n, d.move, move);
                cr_expect_eq(d.score, score, "case %d: score %d, stored %d", n, d.score, score);
                cr_expect_eq(d.eval, eval, "case %d: eval %d, stored %d", n, d.eval, eval);
                cr_expect_eq(d.depth, depth, "case %d: depth %d, stored %d", n, d.depth, depth);
                cr_expect_eq(d.bound, bound, "case %d: bound %d, stored %d", n, d.bound, bound);
                cr_expect_eq(d.pv, (bool)pv, "case %d: pv %d, stored %d", n, d.pv, pv);
            }

    /* Depths outside the byte: negative ones read back as 0, deep ones as 254. */
    const uint64_t k1 = key_for(tt, 9000, 0x1111, 1), k2 = key_for(tt, 9001, 0x2222, 1);
    tt_table_store(tt, k1, 0, 5, 0, 0, -3, BOUND_UPPER, false);
    tt_table_store(tt, k2, 0, 5, 0, 0, 400, BOUND_LOWER, false);
    cr_expect_eq(probe(tt, k1, 0).depth, 0);
    cr_expect_eq(probe(tt, k2, 0).depth, 254);

    /* A miss says so in every field. */
    TTData d = probe(tt, key_for(tt, 12345, 0x4242, 7), 3);
    cr_expect(!d.hit);
    cr_expect_eq(d.move, MOVE_NONE);
    cr_expect_eq(d.score, SCORE_NONE);
    cr_expect_eq(d.eval, SCORE_NONE);
    cr_expect_eq(d.depth, -1);
    cr_expect_eq(d.bound, BOUND_NONE);
    cr_expect(!d.pv);
    free_tt(tt);
}

Test(tt, mate_scores_are_stored_relative_to_the_node)
{
    TT *tt = new_tt(1);
    const uint64_t key = key_for(tt, 777, 0xBEEF, 3);
    const size_t b = bucket_index(tt, key);

    /* Mate in 5 plies from a node at ply 3 (mate_in(8) from the root). */
    tt_table_store(tt, key, 3, 1, mate_in(8), 0, 9, BOUND_EXACT, false);
    cr_expect_eq(tt->table[b].entries[0].score, SCORE_MATE - 5, "stored %d",
                 tt->table[b].entries[0].score);
    cr_expect_eq(probe(tt, key, 3).score, mate_in(8));
    cr_expect_eq(probe(tt, key, 5).score, mate_in(10));
    cr_expect_eq(probe(tt, key, 0).score, mate_in(5));
    cr_expect_eq(probe(tt, key, 40).score, mate_in(45));

    /* Mated in 6 plies from a node at ply 2. */
    tt_table_store(tt, key, 2, 1, mated_in(8), 0, 9, BOUND_EXACT, false);
    cr_expect_eq(tt->table[b].entries[0].score, -SCORE_MATE + 6);
    cr_expect_eq(probe(tt, key, 2).score, mated_in(8));
    cr_expect_eq(probe(tt, key, 7).score, mated_in(13));
    cr_expect_eq(probe(tt, key, 0).score, mated_in(6));

    /* The bounds of the mate range are mates, and tablebase wins and losses
     * (just below it) are kept relative to the node too; scores inside the
     * range of estimates are not moved. */
    static const struct {
        int score, ply, stored;
    } Cases[] = {
        {SCORE_MATE_IN_MAX, 4, SCORE_MATE_IN_MAX + 4},
        {SCORE_MATED_IN_MAX, 4, SCORE_MATED_IN_MAX - 4},
        {SCORE_TB_WIN - 7, 4, SCORE_TB_WIN - 3},
        {-SCORE_TB_WIN + 7, 4, -SCORE_TB_WIN + 3},
        {SCORE_TB_WIN_IN_MAX, 4, SCORE_TB_WIN_IN_MAX + 4},
        {SCORE_TB_LOSS_IN_MAX, 4, SCORE_TB_LOSS_IN_MAX - 4},
        {SCORE_TB_WIN_IN_MAX - 1, 4, SCORE_TB_WIN_IN_MAX - 1},
        {SCORE_TB_LOSS_IN_MAX + 1, 4, SCORE_TB_LOSS_IN_MAX + 1},
        {0, 9, 0},
        {-250, 9, -250},
        {SCORE_NONE, 9, SCORE_NONE},
    };
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        tt_table_store(tt, key, Cases[i].ply, 1, Cases[i].score, 0, 9, BOUND_EXACT, false);
        cr_expect_eq(tt->table[b].entries[0].score, Cases[i].stored,
                     "score %d at ply %d: stored %d", Cases[i].score, Cases[i].ply,
                     tt->table[b].entries[0].score);
        cr_expect_eq(probe(tt, key, Cases[i].ply).score, Cases[i].score);
    }
    free_tt(tt);
}

Test(tt, key_check_tells_keys_of_one_bucket_apart)
{
    TT *tt = new_tt(1);
    const uint64_t key = key_for(tt, 4321, 0x5A5A, 9);
    tt_table_store(tt, key, 0, 0x1234, 55, 66, 8, BOUND_LOWER, false);
    cr_assert(has(tt, key));
    /* Either byte of the check differing is a miss. */
    static const uint16_t Checks[] = {0x5A5B, 0x5A58, 0x5B5A, 0xDA5A,
                                      0x005A, 0xA5A5, 0x0000, 0xFFFF};
    for (size_t i = 0; i < sizeof Checks / sizeof Checks[0]; i++) {
        const uint64_t other = key_for(tt, 4321, Checks[i], 9);
        cr_expect(!has(tt, other), "key check %04x hits the entry of %04x", Checks[i], 0x5A5A);
    }
    /* The check is 16 bits wide: a key differing only above them (same
     * bucket) is taken for the stored one. The search validates TT moves. */
    cr_expect(has(tt, key_for(tt, 4321, 0x5A5A, 10)));
    /* The same check in another bucket misses. */
    cr_expect(!has(tt, key_for(tt, 4322, 0x5A5A, 9)));
    free_tt(tt);
}

Test(tt, full_bucket_replaces_the_shallowest)
{
    TT *tt = new_tt(1);
    static const struct {
        int depths[3], replaced;
    } Cases[] = {
        {{9, 3, 6}, 1}, {{2, 8, 5}, 0}, {{7, 9, 4}, 2}, {{5, 5, 5}, 0}, {{6, 4, 4}, 1},
    };
    for (int bound = BOUND_UPPER; bound <= BOUND_EXACT; bound++)
        for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
            tt_table_clear(tt, 1);
            uint64_t keys[3];
            for (int j = 0; j < 3; j++) {
                keys[j] = key_for(tt, 100, (uint16_t)(0x100 + j), 1);
                put(tt, keys[j], Cases[i].depths[j], bound, false);
            }
            /* A new key, even a shallow one, always gets an entry. */
            const uint64_t fresh = key_for(tt, 100, 0x200, 1);
            put(tt, fresh, 1, bound, false);
            cr_expect(has(tt, fresh), "case %zu: the new key was not stored", i);
            for (int j = 0; j < 3; j++)
                cr_expect_eq(has(tt, keys[j]), j != Cases[i].replaced,
                             "bound %d, depths %d %d %d: entry %d %s", bound, Cases[i].depths[0],
                             Cases[i].depths[1], Cases[i].depths[2], j,
                             j == Cases[i].replaced ? "kept" : "replaced");
            /* The other buckets are untouched. */
            cr_expect_eq(used_entries(tt), 3);
        }
    free_tt(tt);
}

/* An entry's age counts generations only: before the fix, the age,
 * ((generation - gen_bound) & GEN_MASK) / GEN_STEP, borrowed from the
 * generation bits whenever the entry's PV or bound bits were set, so such
 * an entry of the current search counted as 31 searches old (the first to
 * go) and one of the previous search as current. */
Test(tt, replacement_ignores_bound_and_pv_flag)
{
    TT *tt = new_tt(1);
    /* Same generation: only the depth decides, whatever bound or flag the
     * entries carry (a static-eval-only entry is BOUND_NONE). */
    static const struct {
        int bound[3];
        bool pv[3];
    } Cases[] = {
        {{BOUND_EXACT, BOUND_NONE, BOUND_UPPER}, {false, false, false}},
        {{BOUND_LOWER, BOUND_NONE, BOUND_NONE}, {true, false, true}},
        {{BOUND_NONE, BOUND_NONE, BOUND_NONE}, {true, false, true}},
    };
    static const int Depths[3] = {9, 3, 6};
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        tt_table_clear(tt, 1);
        uint64_t keys[3];
        for (int j = 0; j < 3; j++) {
            keys[j] = key_for(tt, 200, (uint16_t)(0x300 + j), 1);
            put(tt, keys[j], Depths[j], Cases[i].bound[j], Cases[i].pv[j]);
        }
        put(tt, key_for(tt, 200, 0x400, 1), 1, BOUND_UPPER, false);
        for (int j = 0; j < 3; j++)
            cr_expect_eq(has(tt, keys[j]), j != 1, "case %zu: entry %d (depth %d) %s", i, j,
                         Depths[j], j == 1 ? "kept" : "replaced");
    }
    free_tt(tt);
}

Test(tt, same_key_store_overwrites_or_keeps)
{
    TT *tt = new_tt(1);
    const uint64_t key = key_for(tt, 300, 0x7777, 1);
    TTData d;

    /* A store without a move keeps the stored move, and the rest is new. */
    tt_table_store(tt, key, 0, 0x0ABC, 40, 4, 10, BOUND_LOWER, false);
    tt_table_store(tt, key, 0, MOVE_NONE, 50, 5, 12, BOUND_UPPER, false);
    d = probe(tt, key, 0);
    cr_expect_eq(d.move, 0x0ABC);
    cr_expect_eq(d.score, 50);
    cr_expect_eq(d.depth, 12);
    cr_expect_eq(d.bound, BOUND_UPPER);

    /* Much shallower and not exact (depth + 4 <= stored depth): the result
     * is kept, but a new move replaces the old one. */
    tt_table_store(tt, key, 0, 0x0DEF, 60, 6, 8, BOUND_LOWER, false);
    d = probe(tt, key, 0);
    cr_expect_eq(d.move, 0x0DEF, "a new move is always stored");
    cr_expect_eq(d.score, 50);
    cr_expect_eq(d.eval, 5);
    cr_expect_eq(d.depth, 12);
    cr_expect_eq(d.bound, BOUND_UPPER);
    /* Without a move neither changes. */
    tt_table_store(tt, key, 0, MOVE_NONE, 61, 6, 2, BOUND_UPPER, false);
    d = probe(tt, key, 0);
    cr_expect_eq(d.move, 0x0DEF);
    cr_expect_eq(d.score, 50);

    /* Less shallow (depth + 4 > stored depth) overwrites. */
    tt_table_store(tt, key, 0, MOVE_NONE, 70, 7, 9, BOUND_LOWER, false);
    d = probe(tt, key, 0);
    cr_expect_eq(d.score, 70);
    cr_expect_eq(d.depth, 9);
    cr_expect_eq(d.bound, BOUND_LOWER);
    cr_expect_eq(d.move, 0x0DEF);

    /* PV stores count two plies deeper: 9 + 4 + 2 > 14. */
    tt_table_store(tt, key, 0, MOVE_NONE, 80, 8, 14, BOUND_LOWER, false);
    tt_table_store(tt, key, 0, MOVE_NONE, 81, 8, 9, BOUND_UPPER, false);
    cr_expect_eq(probe(tt, key, 0).score, 80, "9 + 4 > 14 overwrote");
    tt_table_store(tt, key, 0, MOVE_NONE, 82, 8, 9, BOUND_UPPER, true);
    d = probe(tt, key, 0);
    cr_expect_eq(d.score, 82);
    cr_expect(d.pv);

    /* An exact result always overwrites. */
    tt_table_store(tt, key, 0, MOVE_NONE, 90, 9, 30, BOUND_LOWER, false);
    tt_table_store(tt, key, 0, MOVE_NONE, 91, 9, 1, BOUND_EXACT, false);
    d = probe(tt, key, 0);
    cr_expect_eq(d.score, 91);
    cr_expect_eq(d.depth, 1);
    cr_expect_eq(d.bound, BOUND_EXACT);

    /* So does any result once the entry is of an earlier search (not probed since). */
    tt_table_store(tt, key, 0, MOVE_NONE, 100, 9, 30, BOUND_LOWER, false);
    tt_table_new_search(tt);
    tt_table_store(tt, key, 0, MOVE_NONE, 101, 9, 2, BOUND_UPPER, false);
    d = probe(tt, key, 0);
    cr_expect_eq(d.score, 101);
    cr_expect_eq(d.depth, 2);

    /* The same key is found again, not given a second entry. */
    cr_expect_eq(used_entries(tt), 1);
    free_tt(tt);
}

/* Aging across searches (the bug above made it fail). */
Test(tt, new_search_ages_entries)
{
    TT *tt = new_tt(1);
    for (int bound = BOUND_NONE; bound <= BOUND_EXACT; bound++)
        for (int pv = 0; pv < 2; pv++) {
            tt_table_clear(tt, 1);
            /* Worth = depth - 8 x age: depth 10 one search old (worth 3) goes
             * before depths 5 and 6 of this search... */
            const uint64_t old = key_for(tt, 400, 0x10, 1);
            put(tt, old, 10, bound, pv);
            tt_table_new_search(tt);
            const uint64_t a = key_for(tt, 400, 0x11, 1), b = key_for(tt, 400, 0x12, 1);
            put(tt, a, 5, bound, pv);
            put(tt, b, 6, bound, pv);
            put(tt, key_for(tt, 400, 0x13, 1), 3, bound, pv);
            cr_expect(!has(tt, old), "bound %d pv %d: the old entry was kept", bound, pv);
            cr_expect(has(tt, a) && has(tt, b), "bound %d pv %d: a new entry was replaced", bound,
                      pv);

            /* ...depth 18 two searches old (worth 3) too... */
            tt_table_clear(tt, 1);
            put(tt, old, 18, bound, pv);
            tt_table_new_search(tt);
            tt_table_new_search(tt);
            put(tt, a, 5, bound, pv);
            put(tt, b, 6, bound, pv);
            put(tt, key_for(tt, 400, 0x13, 1), 3, bound, pv);
            cr_expect(!has(tt, old), "bound %d pv %d: the older entry was kept", bound, pv);

            /* ...but not depth 20 one search old (worth 13). */
            tt_table_clear(tt, 1);
            put(tt, old, 20, bound, pv);
            tt_table_new_search(tt);
            put(tt, a, 5, bound, pv);
            put(tt, b, 6, bound, pv);
            put(tt, key_for(tt, 400, 0x13, 1), 3, bound, pv);
            cr_expect(has(tt, old), "bound %d pv %d: the deep old entry was replaced", bound, pv);
            cr_expect(!has(tt, a), "bound %d pv %d: the shallowest new entry was kept", bound, pv);

            /* A probe makes an old entry current again. */
            tt_table_clear(tt, 1);
            put(tt, old, 10, bound, pv);
            tt_table_new_search(tt);
            cr_assert(has(tt, old));
            put(tt, a, 5, bound, pv);
            put(tt, b, 6, bound, pv);
            put(tt, key_for(tt, 400, 0x13, 1), 3, bound, pv);
            cr_expect(has(tt, old), "bound %d pv %d: the probed entry was replaced", bound, pv);
            cr_expect(!has(tt, a), "bound %d pv %d: the shallowest entry was kept", bound, pv);
        }
    free_tt(tt);
}

Test(tt, hashfull_counts_the_current_generation)
{
    TT *tt = new_tt(1);
    cr_assert_gt(tt->bucket_count, 1000);
    cr_expect_eq(tt_table_hashfull(tt), 0);

    /* One entry in each of the first 500 buckets: 500 of 3000 sampled. */
    for (size_t b = 0; b < 500; b++)
        put(tt, key_for(tt, b, 1, 1), 5, BOUND_EXACT, false);
    cr_expect_eq(tt_table_hashfull(tt), 166);
    /* Only the first 1000 buckets are sampled. */
    for (size_t b = 1000; b < 3000; b++)
        put(tt, key_for(tt, b, 1, 1), 5, BOUND_EXACT, false);
    cr_expect_eq(tt_table_hashfull(tt), 166);
    /* Every entry of the sample. */
    for (size_t b = 0; b < 1000; b++)
        for (uint16_t j = 1; j <= 3; j++)
            put(tt, key_for(tt, b, j, 1), 5, BOUND_UPPER, j == 2);
    cr_expect_eq(tt_table_hashfull(tt), 1000);

    /* A new search: nothing is of its generation... */
    tt_table_new_search(tt);
    cr_expect_eq(tt_table_hashfull(tt), 0);
    /* ...until entries are stored or probed (a hit refreshes the age). */
    for (size_t b = 0; b < 300; b++)
        put(tt, key_for(tt, b, 1, 1), 5, BOUND_EXACT, false);
    for (size_t b = 300; b < 600; b++)
        cr_assert(has(tt, key_for(tt, b, 2, 1)));
    cr_expect_eq(tt_table_hashfull(tt), 200);
    /* Misses do not. */
    for (size_t b = 600; b < 1000; b++)
        cr_assert(!has(tt, key_for(tt, b, 9, 1)));
    cr_expect_eq(tt_table_hashfull(tt), 200);
    free_tt(tt);
}

Test(tt, resize_and_clear)
{
    TT *tt = calloc(1, sizeof *tt);
    cr_assert_not_null(tt);
    cr_expect_eq(tt_table_hashfull(tt), 0, "a table without memory is empty");

    cr_assert(tt_table_resize(tt, 1));
    cr_expect_eq(tt->size_mb, 1);
    cr_expect_eq(tt->bucket_count, (size_t)(1 << 20) / sizeof(TTBucket));
    cr_expect_eq(used_entries(tt), 0);
    cr_expect_eq((uintptr_t)tt->table % 64, 0, "buckets start on a cache line");
    const uint64_t k1 = key_for(tt, 5, 0x1357, 1);
    put(tt, k1, 7, BOUND_EXACT, false);
    cr_expect(has(tt, k1));

    /* A resize gives an empty table of the new size. */
    cr_assert(tt_table_resize(tt, 2));
    cr_expect_eq(tt->size_mb, 2);
    cr_expect_eq(tt->bucket_count, (size_t)(2 << 20) / sizeof(TTBucket));
    cr_expect_eq(used_entries(tt), 0);
    cr_expect(!has(tt, k1));
    /* A table of a huge page or more starts on one (tt.c, alloc_zeroed). */
    cr_expect_eq((uintptr_t)tt->table % (2 << 20), 0, "a 2 MB table not on a 2 MB boundary");

    /* Entries all over the table, the first and last buckets included, in
     * a later generation; a clear (with two threads) removes all of them
     * and starts again at generation 0. */
    tt_table_new_search(tt);
    tt_table_new_search(tt);
    int stored = 0;
    for (size_t b = 0; b < tt->bucket_count; b += 97) {
        put(tt, key_for(tt, b, 0x2468, 1), 3, BOUND_LOWER, false);
        stored++;
    }
    const uint64_t last = key_for(tt, tt->bucket_count - 1, 0x2468, 1);
    put(tt, last, 3, BOUND_LOWER, false);
    stored++;
    cr_expect_eq(used_entries(tt), stored);
    cr_expect(tt_table_hashfull(tt) > 0);
    tt_table_clear(tt, 2);
    cr_expect_eq(used_entries(tt), 0);
    cr_expect_eq(tt_table_hashfull(tt), 0);
    cr_expect_eq(tt->generation, 0);
    cr_expect(!has(tt, last));
    static const TTBucket Zero;
    bool zero = true;
    for (size_t b = 0; b < tt->bucket_count && zero; b++)
        zero = memcmp(&tt->table[b], &Zero, sizeof Zero) == 0;
    cr_expect(zero, "clear left bytes in the table");

    /* And it works again at 1 MB; 0 MB means 1. */
    cr_assert(tt_table_resize(tt, 0));
    cr_expect_eq(tt->size_mb, 1);
    cr_expect_eq(tt->bucket_count, (size_t)(1 << 20) / sizeof(TTBucket));
    put(tt, k1, 7, BOUND_EXACT, false);
    cr_expect(has(tt, k1));

    tt_table_free(tt);
    cr_expect_null(tt->table);
    cr_expect_eq(tt->bucket_count, 0);
    cr_expect_eq(tt_table_hashfull(tt), 0);
    free(tt);
}
