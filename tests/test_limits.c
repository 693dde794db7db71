/* The engine at its limits, driven through UCI: 256 threads, Hash beyond the
 * machine's memory, MultiPV above the number of legal moves, the 218-move
 * position, games of thousands of plies (history compaction), depth limits
 * at MAX_PLY and mate scores. The engine named by $ROKADE (default ./rokade)
 * runs behind the pipe harness of harness.c (with longer waits than
 * test_uci's, for 256 threads and megabyte lines); every read has a
 * deadline, and the child is killed and reaped at the end of each test. The
 * move generator is linked in to check moves, PVs and mate distances
 * independently.
 *
 * Two tests guard fixed bugs: threads_256_keep_the_node_and_time_limits
 * (limits were enforced only by a main thread that could start last) and
 * fen_with_fullmove_past_100000_round_trips (`d` printed a FEN that
 * `position fen` refused). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "harness.h"

/* Threads of the engine process (the UCI thread plus the search threads). */
static int task_count(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    const struct dirent *de;
    while ((de = readdir(d)))
        n += de->d_name[0] != '.';
    closedir(d);
    return n;
}

/* ------------------------------------------------------------------------ */
/* Reading the answers                                                      */

/* The score of an info line: *mate set for `score mate N`. */
static int score_of(const char *l, bool *mate)
{
    const char *s = strstr(l, " score ");
    cr_assert(s, "no score in '%s'", l);
    int v = 0;
    *mate = starts(s, " score mate ");
    cr_assert(sscanf(s + (*mate ? 12 : 10), "%d", &v) == 1, "unreadable score in '%s'", l);
    cr_assert(*mate || starts(s, " score cp "), "unknown score in '%s'", l);
    return v;
}

/* ------------------------------------------------------------------------ */
/* Positions through the library                                            */

static int legal_count(const char *fen)
{
    Position *p = lib_pos(fen, NULL, false);
    int n = gen_count_legal(p);
    free(p);
    return n;
}

/* Every pv line in [from, to): depth and seldepth within MAX_PLY, a legal pv,
 * and a mate score that fits its pv: `mate N` (N > 0, the side to move mates)
 * has at most 2N-1 moves and, with exactly that many, ends in checkmate;
 * `mate -N` has at most 2N moves and, with 2N, ends in checkmate too. The
 * number of pv lines is returned and the last one put in *last. */
static int check_pv_lines(Engine *e, int from, int to, const char *fen, const char *moves,
                          const char **last)
{
    Position *root = lib_pos(fen, moves, false);
    Position *p = malloc(sizeof *p);
    cr_assert(p, "out of memory");
    int lines = 0;
    *last = NULL;
    for (int i = from; i < to; i++) {
        const char *l = e->lines[i];
        if (!is_pv_info(l))
            continue;
        lines++;
        *last = l;
        long long d = field_num(l, "depth", -1), sd = field_num(l, "seldepth", -1);
        CHECK(e, d >= 1 && d <= MAX_PLY - 1, "depth out of range: %.200s", l);
        CHECK(e, sd >= d && sd <= MAX_PLY, "seldepth out of range: %.200s", l);
        memcpy(p, root, sizeof *p);
        const char *pv = strstr(l, " pv ");
        CHECK(e, pv, "a pv without moves: %.200s", l);
        char *copy = strdup(pv + 4), *save = NULL;
        cr_assert(copy, "out of memory");
        int plies = 0;
        for (char *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
            move_t mv = move_from_uci(p, m);
            CHECK(e, mv != MOVE_NONE, "pv move %d '%s' is illegal: %.200s", plies + 1, m, l);
            pos_make_game_move(p, mv);
            plies++;
        }
        free(copy);
        CHECK(e, plies >= 1 && plies <= MAX_PLY, "pv of %d moves: %.200s", plies, l);
        bool mate;
        int v = score_of(l, &mate);
        if (mate) {
            CHECK(e, v != 0, "score mate 0 in a search line: %.200s", l);
            int most = v > 0 ? 2 * v - 1 : -2 * v;
            CHECK(e, plies <= most, "mate %d with a pv of %d moves: %.200s", v, plies, l);
            if (plies == most)
                CHECK(e, pos_in_check(p) && !pos_has_legal_move(p),
                      "the pv of mate %d does not end in checkmate: %.200s", v, l);
        }
    }
    free(p);
    free(root);
    return lines;
}

/* Mate solvers on the library (no draw rules: only for short mates). */
static bool mates_in(Position *p, int n)
{
    MoveList mine;
    gen_legal(p, &mine);
    for (int i = 0; i < mine.count; i++) {
        pos_make_move(p, mine.moves[i]);
        MoveList theirs;
        gen_legal(p, &theirs);
        bool ok;
        if (theirs.count == 0)
            ok = pos_in_check(p);
        else if (n <= 1)
            ok = false;
        else {
            ok = true;
            for (int j = 0; j < theirs.count && ok; j++) {
                pos_make_move(p, theirs.moves[j]);
                ok = mates_in(p, n - 1);
                pos_unmake_move(p, theirs.moves[j]);
            }
        }
        pos_unmake_move(p, mine.moves[i]);
        if (ok)
            return true;
    }
    return false;
}

/* The side to move has moves, and after each the other side mates in n. */
static bool mated_in(Position *p, int n)
{
    MoveList mine;
    gen_legal(p, &mine);
    bool all = mine.count > 0;
    for (int i = 0; i < mine.count && all; i++) {
        pos_make_move(p, mine.moves[i]);
        all = mates_in(p, n);
        pos_unmake_move(p, mine.moves[i]);
    }
    return all;
}

/* The exact mate distance, checked here by brute force (n <= 4). */
static void certify(const char *fen, int n, bool winning)
{
    Position *p = lib_pos(fen, NULL, false);
    if (winning)
        cr_assert(mates_in(p, n) && (n == 1 || !mates_in(p, n - 1)),
                  "test data: %s is not mate in exactly %d", fen, n);
    else
        cr_assert(mated_in(p, n) && (n == 1 || !mated_in(p, n - 1)),
                  "test data: %s is not mated in exactly %d", fen, n);
    free(p);
}

static void setup(void)
{
    harness_setup();
    harness_set_waits((HarnessWaits){.send = 60000, .ready = 30000, .reply = 10000, .quit = 20000});
}

TestSuite(limits, .init = setup, .fini = harness_teardown, .timeout = 600);

static const char *const R218 = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
static const char *const KNIGHTS = " g1f3 g8f6 f3g1 f6g8";

/* ------------------------------------------------------------------------ */
/* Threads                                                                  */

static void expect_threads(Engine *e, int base, int n, const char *after)
{
    int t = task_count(e->pid);
    CHECK(e, t == base + n - 1, "after %s: %d threads in the process, expected %d (Threads %d)",
          after, t, base + n - 1, n);
}

Test(limits, threads_up_to_256_and_back)
{
    Engine *e = eng_start();
    sync_ready(e);
    int base = task_count(e->pid); /* Threads 1 */
    CHECK(e, base >= 2, "cannot count the engine's threads (%d)", base);

    expect_no_error(e, "setoption name Threads value 256");
    expect_threads(e, base, 256, "Threads 256");
    eng_send(e, "position startpos moves e2e4 e7e5");
    /* Long deadlines: 256 threads on a small machine under load. */
    check_bestmove(e, search(e, "go depth 4", 180000, NULL), NULL, "e2e4 e7e5");
    /* Perft with far more threads than root moves. */
    eng_send(e, "go perft 3");
    const char *l = wait_for(e, "Nodes searched", 60000);
    CHECK(e, l && !strcmp(l, "Nodes searched: 24825"), "perft 3 with 256 threads: '%s'",
          l ? l : "(none)");

    /* Out of range: said, and clamped (README); 256 stays 256. */
    expect_error(e, "setoption name Threads value 257", "set to 256", NULL);
    expect_threads(e, base, 256, "Threads 257");

    expect_no_error(e, "setoption name Threads value 2");
    expect_threads(e, base, 2, "Threads 2");
    check_bestmove(e, search(e, "go nodes 20000", 60000, NULL), NULL, "e2e4 e7e5");
    /* Not a number: refused, unchanged. */
    expect_error(e, "setoption name Threads value abc", "abc", NULL);
    expect_threads(e, base, 2, "Threads abc");
    /* Below the range: clamped to 1. */
    expect_error(e, "setoption name Threads value 0", "set to 1", NULL);
    expect_threads(e, base, 1, "Threads 0");
    expect_no_error(e, "setoption name Threads value 2");
    expect_error(e, "setoption name Threads value -1", "set to 1", NULL);
    expect_threads(e, base, 1, "Threads -1");

    expect_no_error(e, "setoption name Threads value 1");
    expect_threads(e, base, 1, "Threads 1");
    check_bestmove(e, search(e, "go nodes 20000", 60000, NULL), NULL, "e2e4 e7e5");
    eng_quit(e);
}

/* Only the main search thread enforces nodes and time (check_limits runs
 * for t->id == 0). All threads wait on one condition variable and mutex, so
 * after search_start's broadcast the main thread may get the mutex after
 * many helpers, which meanwhile search with no limit at all. With 256
 * threads on a small, busy machine `go nodes 20000` searched millions of
 * nodes and `go movetime 200` took up to 48 s. */
Test(limits, threads_256_keep_the_node_and_time_limits)
{
    Engine *e = eng_start();
    expect_no_error(e, "setoption name Threads value 256");
    eng_send(e, "position startpos moves e2e4 e7e5");
    for (int i = 0; i < 2; i++) {
        int mark = e->next;
        eng_send(e, "go nodes 20000");
        const char *bm = wait_for(e, "bestmove", 4000), *last = NULL;
        CHECK(e, bm, "go nodes 20000 with 256 threads: no bestmove within 4 s");
        check_bestmove(e, bm, NULL, "e2e4 e7e5");
        for (int k = mark; k < e->next; k++)
            if (is_pv_info(e->lines[k]))
                last = e->lines[k];
        CHECK(e, last, "no info line");
        long long n = field_num(last, "nodes", -1);
        CHECK(e, n >= 0 && n <= 400000, "go nodes 20000 with 256 threads searched %lld nodes", n);

        int64_t t0 = now_ms();
        eng_send(e, "go movetime 200");
        bm = wait_for(e, "bestmove", 4000);
        int64_t ms = now_ms() - t0;
        CHECK(e, bm, "go movetime 200 with 256 threads: no bestmove within 4 s");
        check_bestmove(e, bm, NULL, "e2e4 e7e5");
        CHECK(e, ms <= 3000, "go movetime 200 with 256 threads answered after %lld ms",
              (long long)ms);
    }
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* Hash                                                                     */

/* The MB figure after "set to " in an error line; 0 when there is none. */
static long long set_to_mb(const char *err)
{
    const char *p = strstr(err, "set to ");
    return p ? strtoll(p + 7, NULL, 10) : 0;
}

Test(limits, hash_beyond_memory_is_clamped)
{
    static const char *const Fen =
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    /* A table of three quarters of the machine's memory is set in a moment
     * by the release build (fresh zero pages), but takes ASan 15-20 s on an
     * idle machine (it maps and poisons the table's shadow): more than the
     * suite's 30 s once the machine is busy, which failed a CI run. */
    if (harness_skip_huge_hash())
        cr_skip_test("ROKADE_SKIP=huge-hash (the release run sets the largest table)");
    harness_set_waits((HarnessWaits){
        .send = 60000, .ready = 180000, .reply = 10000, .quit = 60000});
    Engine *e = eng_start();
    eng_send(e, "position fen %s", Fen);
    expect_no_error(e, "setoption name Hash value 64");
    check_bestmove(e, search(e, "go nodes 20000", 60000, NULL), Fen, NULL);

    /* More than the machine has: the largest table it can give, said so
     * (a client that believes the value it set is as close as can be). */
    const char *err = expect_error(e, "setoption name Hash value 33554432",
                                   "more than this machine", "set to ");
    long long max = set_to_mb(err);
    CHECK(e, max > 64 && max < 33554432, "33554432 MB: set to %lld MB: %s", max, err);
    int mark;
    check_bestmove(e, search(e, "go nodes 20000", 60000, &mark), Fen, NULL);
    const char *last;
    CHECK(e, check_pv_lines(e, mark, e->next, Fen, NULL, &last) > 0, "no info lines");
    err = expect_error(e, "setoption name Hash value 1000000", "more than this machine", "set to ");
    CHECK(e, set_to_mb(err) == max, "1000000 MB: set to %lld MB, 33554432 MB gave %lld MB",
          set_to_mb(err), max);

    static const char *const Small[] = {"1", "2", "64", "1"};
    for (size_t i = 0; i < sizeof Small / sizeof Small[0]; i++) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "setoption name Hash value %s", Small[i]);
        expect_no_error(e, cmd);
        check_bestmove(e, search(e, "go nodes 20000", 60000, NULL), Fen, NULL);
    }
    /* One over the maximum is clamped to it, and then to what the machine has. */
    expect_error(e, "setoption name Hash value 33554433", "set to 33554432", NULL);
    check_bestmove(e, search(e, "go depth 5", 60000, NULL), Fen, NULL);
    eng_quit(e);

    /* Memory the machine has but that cannot be allocated (here an address
     * space of 1 GB): the largest table that can be had, said so. */
    e = eng_start_limited(1024);
    eng_send(e, "isready");
    if (!wait_for(e, "readyok", 5000)) {
        eng_free(e);
        cr_skip_test("the engine does not start in a 1 GB address space (a sanitizer build)");
    }
    err = expect_error(e, "setoption name Hash value 4096", "cannot allocate 4096 MB", "set to ");
    long long got = set_to_mb(err);
    CHECK(e, got >= 1 && got <= 1024, "4096 MB in 1 GB: set to %lld MB: %s", got, err);
    eng_send(e, "position fen %s", Fen);
    check_bestmove(e, search(e, "go nodes 20000", 60000, NULL), Fen, NULL);
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* MultiPV                                                                  */

static bool bound_line_at(const Engine *e, int from, int to, int d)
{
    for (int i = from; i < to; i++)
        if (is_pv_info(e->lines[i]) && field_num(e->lines[i], "depth", -1) == d
            && strstr(e->lines[i], "bound"))
            return true;
    return false;
}

/* For each depth 1..depth: exactly k lines, multipv 1..k once each, with
 * different first moves, and nothing above k. (After an aspiration failure,
 * which is reported only after a second, the lines of depth d and d-1 are
 * printed again: then each index must be there, repeats allowed.) The
 * multipv 1 move of the last depth goes to best. */
static void check_multipv(Engine *e, int from, int to, int depth, int k, char *best, size_t blen)
{
    int top = 0;
    for (int i = from; i < to; i++)
        if (starts(e->lines[i], "info depth ") && field_num(e->lines[i], "multipv", 0) > top)
            top = (int)field_num(e->lines[i], "multipv", 0);
    CHECK(e, top == k, "the highest multipv is %d, expected %d (legal moves)", top, k);
    char(*first)[8] = calloc((size_t)k, sizeof *first);
    cr_assert(first, "out of memory");
    for (int d = 1; d <= depth; d++) {
        bool repeats = bound_line_at(e, from, to, d) || bound_line_at(e, from, to, d + 1);
        int lines = 0, distinct = 0;
        memset(first, 0, (size_t)k * sizeof *first);
        for (int i = from; i < to; i++) {
            const char *l = e->lines[i];
            if (!is_pv_info(l) || field_num(l, "depth", -1) != d || strstr(l, "bound"))
                continue;
            long long j = field_num(l, "multipv", -1);
            CHECK(e, j >= 1 && j <= k, "multipv %lld at depth %d: %.200s", j, d, l);
            CHECK(e, repeats || !first[j - 1][0], "depth %d: multipv %lld printed twice", d, j);
            distinct += !first[j - 1][0];
            CHECK(e, field(l, "pv", first[j - 1], sizeof first[0]), "no pv: %.200s", l);
            lines++;
        }
        CHECK(e, distinct == k && (repeats || lines == k),
              "depth %d: %d multipv lines, expected %d", d, lines, k);
        for (int a = 0; a < k; a++)
            for (int b = a + 1; b < k; b++)
                CHECK(e, strcmp(first[a], first[b]) != 0,
                      "depth %d: multipv %d and %d both start with %s", d, a + 1, b + 1, first[a]);
        if (d == depth && best)
            snprintf(best, blen, "%s", first[0]);
    }
    free(first);
}

/* `lines` = min(MultiPV, moves): the lines each depth must show. */
static void multipv_case(Engine *e, const char *fen, int depth, int expect_moves, int lines)
{
    int k = legal_count(fen);
    cr_assert_eq(k, expect_moves, "test data: %s has %d legal moves", fen, k);
    k = lines;
    eng_send(e, "position fen %s", fen);
    char cmd[32], mv[16], first[8] = "";
    snprintf(cmd, sizeof cmd, "go depth %d", depth);
    int mark;
    const char *bm = search(e, cmd, 60000, &mark);
    check_bestmove(e, bm, fen, NULL);
    field(bm, "bestmove", mv, sizeof mv);
    int to = e->next;
    check_multipv(e, mark, to, depth, k, first, sizeof first);
    CHECK(e, !strcmp(mv, first), "bestmove %s is not the multipv 1 move %s", mv, first);
    const char *last;
    check_pv_lines(e, mark, to, fen, NULL, &last);
}

Test(limits, multipv_above_the_number_of_moves)
{
    Engine *e = eng_start();
    expect_no_error(e, "setoption name MultiPV value 256");
    /* White king in check from a rook: two moves; then three; then one. */
    multipv_case(e, "7k/8/8/8/8/8/8/K6r w - - 0 1", 6, 2, 2);
    multipv_case(e, "7k/8/8/8/8/5r2/8/K7 w - - 0 1", 6, 3, 3);
    multipv_case(e, "7k/8/8/8/8/8/5r2/K7 w - - 0 1", 6, 1, 1);
    multipv_case(e, START_FEN, 3, 20, 20);
    /* Back to one line. */
    expect_no_error(e, "setoption name MultiPV value 1");
    multipv_case(e, "7k/8/8/8/8/5r2/8/K7 w - - 0 1", 4, 3, 1);
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* The 218-move position                                                    */

Test(limits, position_with_218_moves)
{
    cr_assert_eq(legal_count(R218), 218, "test data: the record position");
    Engine *e = eng_start();
    eng_send(e, "position fen %s", R218);
    /* go perft 1: `move: 1` for each root move, a blank line, the total. */
    int mark = e->next;
    eng_send(e, "go perft 1");
    const char *l = wait_for(e, "Nodes searched", 30000);
    CHECK(e, l && !strcmp(l, "Nodes searched: 218"), "go perft 1: '%s'", l ? l : "(none)");
    Position *p = lib_pos(R218, NULL, false);
    bool *seen = calloc(1 << 16, sizeof *seen);
    cr_assert(seen, "out of memory");
    int moves = 0, blank = 0;
    for (int i = mark; i < e->next - 1; i++) {
        char mv[8];
        int cnt = 0, used = 0;
        if (!e->lines[i][0]) {
            blank++;
            continue;
        }
        CHECK(e,
              sscanf(e->lines[i], "%7[a-h1-8qrbn]: %d%n", mv, &cnt, &used) == 2
                  && !e->lines[i][used] && cnt == 1,
              "perft line '%s'", e->lines[i]);
        move_t m = move_from_uci(p, mv);
        CHECK(e, m != MOVE_NONE && !seen[m], "perft 1 lists '%s' (illegal or twice)", mv);
        seen[m] = true;
        moves++;
    }
    free(seen);
    free(p);
    CHECK(e, moves == 218 && blank == 1, "go perft 1: %d move lines and %d blank lines", moves,
          blank);
    /* Deeper counts, as Stockfish 15.1 gives them. */
    eng_send(e, "go perft 2");
    l = wait_for(e, "Nodes searched", 30000);
    CHECK(e, l && !strcmp(l, "Nodes searched: 99"), "go perft 2: '%s'", l ? l : "(none)");
    eng_send(e, "go perft 3");
    l = wait_for(e, "Nodes searched", 30000);
    CHECK(e, l && !strcmp(l, "Nodes searched: 19073"), "go perft 3: '%s'", l ? l : "(none)");

    /* a3xb2 mates: go depth 5 says mate 1 and plays a mate. */
    char mv[16];
    const char *last;
    const char *bm = search(e, "go depth 5", 60000, &mark);
    check_bestmove(e, bm, R218, NULL);
    field(bm, "bestmove", mv, sizeof mv);
    CHECK(e, check_pv_lines(e, mark, e->next, R218, NULL, &last) >= 5, "too few info lines");
    CHECK(e, strstr(last, " score mate 1 "), "the last line is not mate 1: %.200s", last);
    p = lib_pos(R218, NULL, false);
    pos_make_game_move(p, move_from_uci(p, mv));
    CHECK(e, pos_in_check(p) && !pos_has_legal_move(p), "bestmove %s does not mate", mv);
    free(p);

    /* MultiPV 256: all 218 moves at depth 1 and 2, the mate first. */
    expect_no_error(e, "setoption name MultiPV value 256");
    char first[8];
    bm = search(e, "go depth 2", 60000, &mark);
    check_bestmove(e, bm, R218, NULL);
    field(bm, "bestmove", mv, sizeof mv);
    int to = e->next;
    check_multipv(e, mark, to, 2, 218, first, sizeof first);
    CHECK(e, !strcmp(first, mv), "bestmove %s is not the multipv 1 move %s", mv, first);
    CHECK(e, check_pv_lines(e, mark, to, R218, NULL, &last) == 2 * 218, "info lines: %d",
          check_pv_lines(e, mark, to, R218, NULL, &last));
    for (int i = mark; i < to; i++)
        if (is_pv_info(e->lines[i]) && field_num(e->lines[i], "multipv", 0) == 1)
            CHECK(e, strstr(e->lines[i], " score mate 1 "), "multipv 1 is not mate 1: %.200s",
                  e->lines[i]);
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* Games of thousands of plies                                              */

/* "position startpos moves" and `cycles` knight shuffles, then tail. */
static char *knight_game(int cycles, const char *tail, char **moves_out)
{
    size_t kl = strlen(KNIGHTS), n = (size_t)cycles * kl + strlen(tail) + 64;
    char *cmd = malloc(n);
    cr_assert(cmd, "out of memory");
    size_t o = (size_t)snprintf(cmd, n, "position startpos moves");
    for (int i = 0; i < cycles; i++, o += kl)
        strcpy(cmd + o, KNIGHTS);
    snprintf(cmd + o, n - o, "%s", tail);
    if (moves_out)
        *moves_out = cmd + strlen("position startpos moves ");
    return cmd;
}

Test(limits, knight_shuffle_games)
{
    static const struct {
        const char *tail, *fen;
        int cycles;
        bool search;
    } Cases[] = {
        {"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1200 601", 300, true},
        {" g1f3", "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1201 601", 300, true},
        {"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3000 1501", 750, false},
        {" g1f3 g8f6 e2e4", "rnbqkb1r/pppppppp/5n2/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 1502",
         750, true},
    };
    Engine *e = eng_start();
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        char *moves, fen[128], state[128];
        char *cmd = knight_game(Cases[i].cycles, Cases[i].tail, &moves);
        expect_no_error(e, cmd);
        show(e, fen, sizeof fen, state, sizeof state);
        CHECK(e, !strcmp(fen, Cases[i].fen), "%d knight cycles%s: Fen '%s', expected '%s'",
              Cases[i].cycles, Cases[i].tail, fen, Cases[i].fen);
        /* The start (or start + Nf3) position has been on the board far more
         * than five times; after e4 the clock and the repetitions restart. */
        bool after_pawn = strstr(Cases[i].tail, "e2e4") != NULL;
        CHECK(e, after_pawn ? !strcmp(state, "ongoing") : strstr(state, "fivefold") != NULL,
              "%d knight cycles%s: State '%s'", Cases[i].cycles, Cases[i].tail, state);
        if (Cases[i].search) {
            /* The README gives bestmove (none) only when there is no legal
             * move: a drawn game still gets a legal move. */
            int mark;
            const char *last;
            check_bestmove(e, search(e, "go depth 3", 60000, &mark), NULL, moves);
            CHECK(e, check_pv_lines(e, mark, e->next, NULL, moves, &last) >= 3, "info lines");
            CHECK(e, field_num(last, "depth", 0) == 3, "the last line is not depth 3: %.200s",
                  last);
        }
        free(cmd);
    }
    eng_quit(e);
}

/* One line of over a megabyte: 210000 plies. */
Test(limits, megabyte_game)
{
    enum { CYCLES = 52500 };
    char *moves, fen[128], state[128];
    char *cmd = knight_game(CYCLES, "", &moves);
    cr_assert_gt(strlen(cmd), 1 << 20);
    Engine *e = eng_start();
    expect_no_error(e, cmd);
    show(e, fen, sizeof fen, state, sizeof state);
    CHECK(e, !strcmp(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 210000 105001"),
          "Fen after 210000 plies: '%s'", fen);
    CHECK(e, strstr(state, "fivefold"), "State after 210000 plies: '%s'", state);
    int mark;
    const char *last;
    check_bestmove(e, search(e, "go depth 3", 60000, &mark), NULL, moves);
    CHECK(e, check_pv_lines(e, mark, e->next, NULL, moves, &last) >= 3, "info lines");
    free(cmd);
    /* Then an ordinary game again. */
    expect_no_error(e, "position startpos moves e2e4");
    show(e, fen, sizeof fen, state, sizeof state);
    CHECK(e, !strcmp(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
          "Fen '%s'", fen);
    check_bestmove(e, search(e, "go depth 4", 60000, NULL), NULL, "e2e4");
    eng_quit(e);
}

/* A game that never repeats a position, made up here with the library: a
 * pseudo-random walk that plays reversible moves and, once the halfmove
 * clock reaches a cap, a pawn move or a capture; it gives no check and leaves
 * the other side at least four moves, so that it does not get stuck. The
 * halfmove clock and the ply count are kept here, not taken from the
 * library. */
enum { KEYSET = 1 << 14 };

typedef struct {
    Position *pos;
    uint64_t *seen; /* open addressing, KEYSET slots */
    char *text;     /* " e2e4 e7e5 ..." */
    size_t len, cap;
    int plies, rule50;
    uint32_t rng;
} Walk;

static bool seen_key(const Walk *w, uint64_t k)
{
    for (size_t i = (size_t)(k ^ (k >> 31)) & (KEYSET - 1); w->seen[i]; i = (i + 1) & (KEYSET - 1))
        if (w->seen[i] == k)
            return true;
    return false;
}

static void add_key(Walk *w, uint64_t k)
{
    size_t i = (size_t)(k ^ (k >> 31)) & (KEYSET - 1);
    while (w->seen[i])
        i = (i + 1) & (KEYSET - 1);
    w->seen[i] = k;
}

static void walk_init(Walk *w, uint32_t seed)
{
    memset(w, 0, sizeof *w);
    w->pos = lib_pos(NULL, NULL, false);
    w->seen = calloc(KEYSET, sizeof *w->seen);
    w->cap = 1 << 16;
    w->text = calloc(w->cap, 1);
    cr_assert(w->seen && w->text, "out of memory");
    w->rng = seed;
    add_key(w, pos_key(w->pos));
}

static void walk_free(Walk *w)
{
    free(w->pos);
    free(w->seen);
    free(w->text);
}

static bool irreversible(const Position *p, move_t m)
{
    return piece_type(pos_piece_on(p, move_from(m))) == PAWN || pos_is_capture(p, m);
}

static void walk_play(Walk *w, move_t m)
{
    char mv[8];
    move_to_uci(w->pos, m, mv);
    cr_assert(w->len + 8 < w->cap, "walk text full");
    w->len += (size_t)snprintf(w->text + w->len, w->cap - w->len, " %s", mv);
    w->rule50 = irreversible(w->pos, m) ? 0 : w->rule50 + 1;
    w->plies++;
    pos_make_game_move(w->pos, m);
    add_key(w, pos_key(w->pos));
}

/* One move to a position not seen before that does not end the game (but
 * for the 75-move rule when may_end): irreversible once rule50 >= cap. */
static bool walk_step(Walk *w, int cap, bool may_end)
{
    MoveList l;
    gen_legal(w->pos, &l);
    if (!l.count)
        return false;
    w->rng = w->rng * 1103515245u + 12345u;
    int start = (int)((w->rng >> 8) % (uint32_t)l.count);
    bool want = w->rule50 >= cap;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < l.count; k++) {
            move_t m = l.moves[(start + k) % l.count];
            if (irreversible(w->pos, m) != (pass == 0 ? want : !want))
                continue;
            pos_make_move(w->pos, m);
            uint64_t key = pos_key(w->pos);
            GameState gs = pos_game_state(w->pos);
            /* No checks, and room to move: the walk does not get stuck. */
            bool roomy = !pos_in_check(w->pos) && gen_count_legal(w->pos) >= 4;
            pos_unmake_move(w->pos, m);
            if (roomy && !seen_key(w, key)
                && (gs == GAME_ONGOING || gs == GAME_CLAIM_50_MOVES
                    || (may_end && gs == GAME_75_MOVES))) {
                walk_play(w, m);
                return true;
            }
        }
    return false;
}

static void walk_to(Walk *w, int plies)
{
    while (w->plies < plies)
        cr_assert(walk_step(w, 60, false), "test data: the walk is stuck at ply %d", w->plies);
}

/* A reversible four-ply cycle from the walk's position (no pawn, no
 * capture, back to the same key), into out as " m1 m2 m3 m4". */
static void find_cycle(const Walk *w, char *out, size_t n)
{
    Position *p = malloc(sizeof *p);
    cr_assert(p, "out of memory");
    memcpy(p, w->pos, sizeof *p);
    uint64_t key0 = pos_key(p);
    MoveList a;
    gen_legal(p, &a);
    for (int i = 0; i < a.count; i++) {
        move_t m1 = a.moves[i];
        if (irreversible(p, m1) || move_kind(m1) != MOVE_NORMAL)
            continue;
        char t1[8], t2[8], t3[8], t4[8];
        move_to_uci(p, m1, t1);
        pos_make_move(p, m1);
        MoveList b;
        gen_legal(p, &b);
        for (int j = 0; j < b.count; j++) {
            move_t m2 = b.moves[j];
            if (irreversible(p, m2) || move_kind(m2) != MOVE_NORMAL)
                continue;
            move_to_uci(p, m2, t2);
            pos_make_move(p, m2);
            move_t m3 = move_make(move_to(m1), move_from(m1));
            if (pos_is_pseudo_legal(p, m3) && pos_is_legal(p, m3)) {
                move_to_uci(p, m3, t3);
                pos_make_move(p, m3);
                move_t m4 = move_make(move_to(m2), move_from(m2));
                if (pos_is_pseudo_legal(p, m4) && pos_is_legal(p, m4)) {
                    move_to_uci(p, m4, t4);
                    pos_make_move(p, m4);
                    bool back = pos_key(p) == key0;
                    pos_unmake_move(p, m4);
                    if (back) {
                        snprintf(out, n, " %s %s %s %s", t1, t2, t3, t4);
                        free(p);
                        return;
                    }
                }
                pos_unmake_move(p, m3);
            }
            pos_unmake_move(p, m2);
        }
        pos_unmake_move(p, m1);
    }
    free(p);
    cr_assert_fail("test data: no reversible cycle");
}

/* Sends position startpos moves <moves>; the Fen must have the walk's board
 * and our counters, and the State must contain state_word. */
static void send_game(Engine *e, const char *moves, const char *lib_moves_fen, int rule50,
                      int plies, const char *state_word)
{
    size_t n = strlen(moves) + 64;
    char *cmd = malloc(n);
    cr_assert(cmd, "out of memory");
    snprintf(cmd, n, "position startpos moves%s", moves);
    expect_no_error(e, cmd);
    free(cmd);
    char fen[128], state[128], want[160];
    show(e, fen, sizeof fen, state, sizeof state);
    /* The board, side, castling and e.p. fields from the library; the two
     * counters as counted here. */
    size_t head = 0;
    for (int sp = 0; lib_moves_fen[head] && sp < 4; head++)
        sp += lib_moves_fen[head] == ' ';
    snprintf(want, sizeof want, "%.*s%d %d", (int)head, lib_moves_fen, rule50, 1 + plies / 2);
    CHECK(e, !strcmp(fen, want), "after %d plies: Fen '%s', expected '%s'", plies, fen, want);
    /* "ongoing" exactly: not even a draw claim. */
    CHECK(e,
          strcmp(state_word, "ongoing") ? strstr(state, state_word) != NULL
                                        : !strcmp(state, state_word),
          "after %d plies: State '%s', expected '%s'", plies, state, state_word);
}

Test(limits, long_game_without_repetition)
{
    Walk w;
    walk_init(&w, 20240611u);
    walk_to(&w, 1300);
    cr_assert_lt(w.rule50, 100, "test data: the walk ends with rule50 %d", w.rule50);
    char fen[128];
    pos_get_fen(w.pos, fen, sizeof fen);

    Engine *e = eng_start();
    send_game(e, w.text, fen, w.rule50, w.plies, "ongoing");
    int mark;
    const char *last;
    check_bestmove(e, search(e, "go depth 3", 60000, &mark), NULL, w.text);
    CHECK(e, check_pv_lines(e, mark, e->next, NULL, w.text, &last) >= 3, "info lines");

    /* Repetitions counted across the compacted history: the final position
     * again after 2 and after 4 cycles. */
    char cycle[64];
    find_cycle(&w, cycle, sizeof cycle);
    size_t n = w.len + 4 * strlen(cycle) + 1;
    char *moves = malloc(n), libfen[128];
    cr_assert(moves, "out of memory");
    snprintf(moves, n, "%s%s%s", w.text, cycle, cycle);
    lib_fen(NULL, moves, false, libfen, sizeof libfen);
    send_game(e, moves, libfen, w.rule50 + 8, w.plies + 8, "draw claimable: threefold");
    snprintf(moves, n, "%s%s%s%s%s", w.text, cycle, cycle, cycle, cycle);
    lib_fen(NULL, moves, false, libfen, sizeof libfen);
    send_game(e, moves, libfen, w.rule50 + 16, w.plies + 16, "fivefold");
    check_bestmove(e, search(e, "go depth 3", 60000, NULL), NULL, moves);
    free(moves);

    /* 150 plies without a pawn move or capture: the 75-move rule. */
    Walk x;
    walk_init(&x, 20240611u);
    walk_to(&x, 1300);
    cr_assert_str_eq(x.text, w.text);
    while (x.rule50 < 150)
        cr_assert(walk_step(&x, 1000, x.rule50 == 149), "test data: no reversible move");
    pos_get_fen(x.pos, libfen, sizeof libfen);
    send_game(e, x.text, libfen, 150, x.plies, "75-move");
    check_bestmove(e, search(e, "go depth 3", 60000, NULL), NULL, x.text);
    walk_free(&x);

    /* 3000 plies in one command. */
    walk_to(&w, 3000);
    cr_assert_lt(w.rule50, 100, "test data: the walk ends with rule50 %d", w.rule50);
    pos_get_fen(w.pos, libfen, sizeof libfen);
    send_game(e, w.text, libfen, w.rule50, 3000, "ongoing");
    check_bestmove(e, search(e, "go depth 3", 60000, &mark), NULL, w.text);
    CHECK(e, check_pv_lines(e, mark, e->next, NULL, w.text, &last) >= 3, "info lines");
    walk_free(&w);
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* Depth limits and mate scores                                             */

/* Mates in exactly N, checked by certify() (N <= 4; rook endings). */
static const char *const MATE_IN[] = {
    NULL,
    "8/8/8/8/8/1R6/2K5/k7 w - - 0 1",
    "8/7R/k7/8/3K4/8/8/8 w - - 0 1",
    "8/8/1R6/8/4K3/8/8/4k3 w - - 0 1",
    "5R2/8/8/8/8/8/4K3/6k1 w - - 0 1",
};
/* Mate in exactly 6 (queen ending; checked by the same brute force when the
 * test was written: about 9 s, too long to repeat here). */
static const char *const MATE_IN_6 = "8/8/8/8/8/8/5k2/1K1Q4 w - - 0 1";
/* The side to move is mated in exactly N (N <= 4). */
static const char *const MATED_IN[] = {
    NULL,
    "8/8/8/8/3R4/7k/5K2/8 b - - 0 1",
    "7k/8/5K2/8/8/8/3R4/8 b - - 0 1",
    "8/8/8/8/4K3/8/R7/7k b - - 0 1",
    "k2K4/6R1/8/8/8/8/8/8 b - - 0 1",
};

/* Runs go, checks every line (check_pv_lines), that every mate score has the
 * sign `sign` and is never shorter than the exact distance `exact` (0 when
 * not known), and that the last line says `final` (a string such as
 * " score mate 2 ", or NULL). Returns the largest depth seen. */
static int deep_search(Engine *e, const char *fen, const char *cmd, int sign, int exact,
                       const char *final, char *mv, size_t mvlen)
{
    int mark;
    const char *bm = search(e, cmd, 90000, &mark), *last;
    check_bestmove(e, bm, fen, NULL);
    field(bm, "bestmove", mv, mvlen);
    int to = e->next;
    CHECK(e, check_pv_lines(e, mark, to, fen, NULL, &last) > 0, "no info lines for '%s'", cmd);
    int top = 0;
    for (int i = mark; i < to; i++) {
        const char *l = e->lines[i];
        if (!is_pv_info(l))
            continue;
        top = field_num(l, "depth", 0) > top ? (int)field_num(l, "depth", 0) : top;
        bool mate;
        int v = score_of(l, &mate);
        if (!mate)
            continue;
        CHECK(e, (v > 0) == (sign > 0), "%s: score mate %d has the wrong sign: %.200s", fen, v, l);
        CHECK(e, !exact || abs(v) >= exact, "%s: mate %d is shorter than the exact %d: %.200s", fen,
              v, exact, l);
    }
    CHECK(e, !final || strstr(last, final), "%s, '%s': the last line does not say '%s': %.200s",
          fen, cmd, final, last);
    char pv[16] = "";
    field(last, "pv", pv, sizeof pv);
    CHECK(e, !strcmp(pv, mv), "bestmove %s is not the first move of the last pv %s", mv, pv);
    return top;
}

Test(limits, depth_beyond_max_ply)
{
    certify(MATE_IN[1], 1, true);
    certify(MATE_IN[2], 2, true);
    certify(MATED_IN[3], 3, false);
    Engine *e = eng_start();
    char mv[16];
    eng_send(e, "position fen %s", MATE_IN[2]);
    int top = deep_search(e, MATE_IN[2], "go depth 200 nodes 3000000", 1, 2, " score mate 2 ", mv,
                          sizeof mv);
    CHECK(e, top == 200, "go depth 200 ended at depth %d", top);
    /* The first move of a mate in 2 leaves a mate in 1 against every reply. */
    Position *p = lib_pos(MATE_IN[2], NULL, false);
    pos_make_game_move(p, move_from_uci(p, mv));
    CHECK(e, mated_in(p, 1), "bestmove %s does not keep the mate in 2", mv);
    free(p);
    /* Beyond MAX_PLY: the search stops at the deepest depth it can do. */
    expect_no_error(e, "ucinewgame");
    top = deep_search(e, MATE_IN[2], "go depth 1000 nodes 3000000", 1, 2, " score mate 2 ", mv,
                      sizeof mv);
    CHECK(e, top > 200 && top < MAX_PLY, "go depth 1000 ended at depth %d (MAX_PLY %d)", top,
          MAX_PLY);
    eng_send(e, "position fen %s", MATE_IN[1]);
    top = deep_search(e, MATE_IN[1], "go depth 1000", 1, 1, " score mate 1 ", mv, sizeof mv);
    CHECK(e, top > 200 && top < MAX_PLY, "go depth 1000 ended at depth %d", top);

    /* The side to move is mated: only negative mates, and the exact one. */
    eng_send(e, "position fen %s", MATED_IN[3]);
    deep_search(e, MATED_IN[3], "go depth 1000 nodes 200000", -1, 0, " score mate -3 ", mv,
                sizeof mv);
    /* Mated in many moves (rook against king, the king in the middle): no
     * mate for the side to move, a clearly lost score. */
    static const char *const Lost = "8/8/8/3k4/8/8/8/R3K3 b - - 0 1";
    eng_send(e, "position fen %s", Lost);
    deep_search(e, Lost, "go depth 1000 nodes 100000", -1, 0, NULL, mv, sizeof mv);
    const char *last = NULL;
    for (int i = e->next - 1; i >= 0 && !last; i--)
        if (is_pv_info(e->lines[i]))
            last = e->lines[i];
    bool mate;
    int v = score_of(last, &mate);
    CHECK(e, mate ? v < 0 : v <= -300, "rook down, the score is %s %d", mate ? "mate" : "cp", v);
    /* go depth above what the engine reads is an error, answered by a
     * one-ply search. */
    int mark;
    check_bestmove(e, search(e, "go depth 1001", 10000, &mark), Lost, NULL);
    bool said = false;
    for (int i = mark; i < e->count; i++)
        said |= starts(e->lines[i], "info string error") && strstr(e->lines[i], "depth") != NULL;
    CHECK(e, said, "go depth 1001 is not refused");
    eng_quit(e);
}

Test(limits, go_mate_1_to_10)
{
    for (int n = 1; n <= 4; n++)
        certify(MATE_IN[n], n, true);
    Engine *e = eng_start();
    for (int n = 1; n <= 10; n++) {
        int m = n <= 4 ? n : n == 5 ? 4 : 6;
        const char *fen = m <= 4 ? MATE_IN[m] : MATE_IN_6;
        char cmd[64], want[32], mv[16];
        snprintf(cmd, sizeof cmd, "go mate %d nodes 5000000", n);
        snprintf(want, sizeof want, " score mate %d ", m);
        eng_send(e, "position fen %s", fen);
        deep_search(e, fen, cmd, 1, m, want, mv, sizeof mv);
        if (m <= 4) {
            Position *p = lib_pos(fen, NULL, false);
            pos_make_game_move(p, move_from_uci(p, mv));
            CHECK(e, m == 1 ? pos_in_check(p) && !pos_has_legal_move(p) : mated_in(p, m - 1),
                  "go mate %d: bestmove %s is not the start of a mate in %d", n, mv, m);
            free(p);
        }
    }
    /* Asked for a mate shorter than there is: no false mate 1. */
    eng_send(e, "position fen %s", MATE_IN[2]);
    char mv[16];
    deep_search(e, MATE_IN[2], "go mate 1 nodes 200000", 1, 2, NULL, mv, sizeof mv);
    /* The mated side asked for a mate: there is none, which a full-width
     * search of 5 plies proves; the search says so, ends and plays. */
    for (int n = 1; n <= 4; n++)
        certify(MATED_IN[n], n, false);
    for (int n = 1; n <= 4; n++) {
        eng_send(e, "position fen %s", MATED_IN[n]);
        int from = e->count;
        deep_search(e, MATED_IN[n], "go mate 3 nodes 300000", -1, 0, NULL, mv, sizeof mv);
        bool said = false;
        for (int i = from; i < e->count && !said; i++)
            said = starts(e->lines[i], "info string no mate in 3");
        CHECK(e, said, "%s: go mate 3 for the mated side does not say there is no mate",
              MATED_IN[n]);
    }
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* FEN counters past the parser's range                                     */

/* The FEN parser takes counters up to 100000, but a game from such a FEN
 * moves past it, and then `d` shows a FEN that `position fen` refuses. */
Test(limits, fen_with_fullmove_past_100000_round_trips)
{
    static const char *const Printed = "3k4/8/8/8/8/8/4P3/4K3 w - - 1 100001";
    Engine *e = eng_start();
    expect_no_error(e, "position fen 4k3/8/8/8/8/8/4P3/4K3 b - - 0 100000 moves e8d8");
    char fen[128], state[128], cmd[160];
    show(e, fen, sizeof fen, state, sizeof state);
    CHECK(e, !strcmp(fen, Printed), "Fen '%s', expected '%s'", fen, Printed);
    CHECK(e, !strcmp(state, "ongoing"), "State '%s'", state);
    snprintf(cmd, sizeof cmd, "position fen %s", fen);
    expect_no_error(e, cmd);
    show(e, fen, sizeof fen, state, sizeof state);
    CHECK(e, !strcmp(fen, Printed), "Fen '%s' after the round trip, expected '%s'", fen, Printed);
    eng_quit(e);
}
