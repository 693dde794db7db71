/* UCI protocol tests. The engine binary named by $ROKADE (default ./rokade)
 * runs behind the pipe harness of harness.c: every read has a deadline, so a
 * hung engine fails its test instead of hanging the run, and the child is
 * always killed and reaped. The library objects are linked in, so the
 * move generator checks that bestmoves are legal. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../perft/perft.h"
#include "harness.h"

static const char *const KIWIPETE =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
static const char *const FOOLS_MATE =
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
static const char *const STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
static const char *const MATE_IN_1 = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
static const char *const MATE_IN_2 = "1k6/8/2K5/8/8/8/8/6R1 w - - 0 1";

/* Consumes every line that arrives during ms milliseconds. */
static void drain(Engine *e, int ms)
{
    int64_t deadline = now_ms() + ms;
    while (next_line(e, deadline))
        ;
}

static int count_from(const Engine *e, int from, const char *prefix)
{
    int n = 0;
    for (int i = from; i < e->count; i++)
        n += starts(e->lines[i], prefix);
    return n;
}

/* The first line from `mark` on that starts with prefix and contains word. */
static const char *line_with(const Engine *e, int mark, const char *prefix, const char *word)
{
    for (int i = mark; i < e->count; i++)
        if (starts(e->lines[i], prefix) && strstr(e->lines[i], word))
            return e->lines[i];
    return NULL;
}

/* After a refused `position`, `go` must not search the position before it:
 * it says why and answers bestmove 0000. */
static void expect_go_refused(Engine *e, const char *go)
{
    int mark;
    const char *bm = search(e, go, 10000, &mark);
    CHECK(e, bm && !strcmp(bm, "bestmove 0000"), "'%s' after a refused position: %s", go,
          bm ? bm : "no bestmove");
    bool said = false;
    for (int i = mark; i < e->count && !said; i++)
        said = starts(e->lines[i], "info string error: go: the last position command was refused");
    CHECK(e, said, "'%s' after a refused position does not say why it does not search", go);
    CHECK(e, count_from(e, mark, "info depth") == 0, "'%s' after a refused position searched", go);
}

static void expect_fen(Engine *e, const char *want, const char *after)
{
    char fen[128];
    show(e, fen, sizeof fen, NULL, 0);
    CHECK(e, !strcmp(fen, want), "after %s: Fen is '%s', expected '%s'", after, fen, want);
}

/* After the bestmove of a stopped endless search: lets the engine finish
 * the search (the race right after bestmove has its own test). */
static void settle(Engine *e)
{
    sync_ready(e);
    drain(e, 50);
}

/* The last pv info line in [from, to). */
static const char *last_info(const Engine *e, int from, int to)
{
    for (int i = to - 1; i >= from; i--)
        if (is_pv_info(e->lines[i]))
            return e->lines[i];
    return NULL;
}

/* The timeout leaves room for hash_sizes under the sanitizer (below). */
TestSuite(uci, .init = harness_setup, .fini = harness_teardown, .timeout = 300);

/* ------------------------------------------------------------------------ */
/* Handshake                                                                */

/* A syntactically valid UCI option line (spin default within min..max). */
static bool option_ok(const char *l)
{
    if (!starts(l, "option name "))
        return false;
    const char *t = strstr(l, " type ");
    if (!t || t == l + 11)
        return false;
    t += 6;
    long long d, lo, hi;
    int n = 0;
    if (starts(t, "spin ")) {
        if (sscanf(t, "spin default %lld min %lld max %lld%n", &d, &lo, &hi, &n) != 3 || t[n])
            return false;
        return lo <= d && d <= hi;
    }
    if (starts(t, "check "))
        return !strcmp(t, "check default true") || !strcmp(t, "check default false");
    if (starts(t, "button"))
        return !strcmp(t, "button");
    if (starts(t, "string "))
        return starts(t, "string default ");
    if (starts(t, "combo "))
        return starts(t, "combo default ") && strstr(t, " var ");
    return false;
}

Test(uci, handshake_lists_every_option)
{
    static const char *const Options[] = {
        "option name Hash type spin default 16 min 1 max 33554432",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 20 min 0 max 5000",
        "option name Clear Hash type button",
        "option name UCI_Chess960 type check default false",
        "option name UCI_ShowWDL type check default false",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 1000 max 2800",
        "option name Skill Seed type spin default 0 min 0 max 2147483647",
        "option name EvalFile type string default <built-in>",
    };
    Engine *e = eng_start();
    eng_send(e, "uci");
    CHECK(e, wait_for(e, "uciok", 10000), "no uciok");
    int end = e->next - 1; /* the uciok line */
    CHECK(e, !strcmp(e->lines[end], "uciok"), "uciok line is '%s'", e->lines[end]);
    CHECK(e, end >= 2 && starts(e->lines[0], "id name Rokade") && strlen(e->lines[0]) > 14,
          "first line is not 'id name Rokade <version>'");
    CHECK(e, starts(e->lines[1], "id author ") && strlen(e->lines[1]) > 10, "no 'id author' line");
    for (int i = 2; i < end; i++)
        CHECK(e, option_ok(e->lines[i]), "not a valid option line: '%s'", e->lines[i]);
    for (size_t k = 0; k < sizeof Options / sizeof Options[0]; k++) {
        int found = 0;
        for (int i = 2; i < end; i++)
            found += !strcmp(e->lines[i], Options[k]);
        CHECK(e, found == 1, "option line '%s' listed %d times", Options[k], found);
    }

    int64_t t0 = now_ms();
    eng_send(e, "isready");
    const char *l = next_line(e, t0 + 1000);
    CHECK(e, l && !strcmp(l, "readyok"), "isready not answered with readyok at once");
    /* uci may be sent again. */
    eng_send(e, "uci");
    CHECK(e, wait_for(e, "uciok", 5000), "no uciok for a second uci");
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* Searches that end only on stop / ponderhit                                */

Test(uci, isready_during_go_infinite)
{
    Engine *e = eng_start();
    eng_send(e, "position startpos");
    int mark = e->next;
    eng_send(e, "go infinite");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go infinite");
    for (int i = 0; i < 3; i++) {
        int64_t t0 = now_ms();
        eng_send(e, "isready");
        CHECK(e, wait_for(e, "readyok", 1000),
              "isready not answered within 1 s during go infinite");
        CHECK(e, now_ms() - t0 <= 1000, "readyok took %lld ms", (long long)(now_ms() - t0));
        drain(e, 100);
    }
    drain(e, 200);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "bestmove before stop in go infinite");
    int64_t t0 = now_ms();
    eng_send(e, "stop");
    const char *bm = wait_for(e, "bestmove", 2000);
    CHECK(e, bm, "no bestmove within 2 s of stop");
    CHECK(e, now_ms() - t0 < 2000, "stop took %lld ms", (long long)(now_ms() - t0));
    check_bestmove(e, bm, NULL, NULL);
    sync_ready(e);
    drain(e, 100);
    CHECK(e, count_from(e, mark, "bestmove") == 1, "%d bestmoves for one go infinite",
          count_from(e, mark, "bestmove"));

    /* `go infinite depth 2` reaches depth 2 but keeps the bestmove until stop. */
    mark = e->next;
    eng_send(e, "go infinite depth 2");
    CHECK(e, wait_for(e, "info depth 2 ", 10000), "no depth 2 info");
    drain(e, 300);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "bestmove before stop in go infinite depth 2");
    eng_send(e, "stop");
    bm = wait_for(e, "bestmove", 2000);
    check_bestmove(e, bm, NULL, NULL);

    /* A bare `go` searches until stop as well. */
    mark = e->next;
    eng_send(e, "go");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go");
    drain(e, 200);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "bestmove before stop in a bare go");
    eng_send(e, "stop");
    bm = wait_for(e, "bestmove", 2000);
    check_bestmove(e, bm, NULL, NULL);
    eng_quit(e);
}

Test(uci, go_ponder_then_ponderhit)
{
    /* The clock gives about 0.2 s; pondering must ignore it, and after
     * ponderhit the search runs on that clock. */
    static const char *const Moves = "e2e4 e7e5";
    Engine *e = eng_start();
    eng_send(e, "setoption name Ponder value true");
    eng_send(e, "position startpos moves %s", Moves);
    sync_ready(e);
    int mark = e->next;
    eng_send(e, "go ponder wtime 500 btime 500 winc 0 binc 0");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go ponder");
    drain(e, 700);
    int64_t t0 = now_ms();
    eng_send(e, "isready");
    CHECK(e, wait_for(e, "readyok", 1000), "isready not answered within 1 s while pondering");
    CHECK(e, now_ms() - t0 <= 1000, "readyok took %lld ms", (long long)(now_ms() - t0));
    CHECK(e, count_from(e, mark, "bestmove") == 0, "bestmove before ponderhit");
    t0 = now_ms();
    int hit = e->next;
    eng_send(e, "ponderhit");
    const char *bm = wait_for(e, "bestmove", 3000);
    CHECK(e, bm, "no bestmove within 3 s of ponderhit (0.5 s on the clock)");
    CHECK(e, now_ms() - t0 <= 2000, "bestmove %lld ms after ponderhit with 0.5 s on the clock",
          (long long)(now_ms() - t0));
    check_bestmove(e, bm, NULL, Moves);
    CHECK(e, count_from(e, hit, "info string error") == 0, "ponderhit answered with an error");
    sync_ready(e);
    CHECK(e, count_from(e, mark, "bestmove") == 1, "%d bestmoves for one go ponder",
          count_from(e, mark, "bestmove"));
    eng_quit(e);
}

Test(uci, ponderhit_after_a_long_ponder_answers_at_once)
{
    /* 20 s on the clock give this move about half a second. After three
     * seconds of pondering that time is spent: ponderhit plays the move at
     * once instead of finishing the iteration. */
    static const char *const Moves = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6";
    Engine *e = eng_start();
    eng_send(e, "setoption name Ponder value true");
    eng_send(e, "position startpos moves %s", Moves);
    sync_ready(e);
    int mark = e->next;
    eng_send(e, "go ponder wtime 20000 btime 20000 winc 200 binc 200");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go ponder");
    drain(e, 3000);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "bestmove before ponderhit");
    int64_t t0 = now_ms();
    eng_send(e, "ponderhit");
    const char *bm = wait_for(e, "bestmove", 5000);
    int64_t took = now_ms() - t0;
    CHECK(e, bm, "no bestmove within 5 s of ponderhit");
    check_bestmove(e, bm, NULL, Moves);
    CHECK(e, took <= 250, "bestmove %lld ms after ponderhit, the move's time long spent",
          (long long)took);
    /* A short ponder leaves time: the search goes on after ponderhit. */
    eng_send(e, "position startpos moves %s", Moves);
    mark = e->next;
    eng_send(e, "go ponder wtime 20000 btime 20000 winc 200 binc 200");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go ponder");
    eng_send(e, "ponderhit");
    check_bestmove(e, wait_for(e, "bestmove", 5000), NULL, Moves);
    CHECK(e, count_from(e, mark, "bestmove") == 1, "%d bestmoves for one go ponder",
          count_from(e, mark, "bestmove"));
    eng_quit(e);
}

Test(uci, go_ponder_then_stop)
{
    Engine *e = eng_start();
    eng_send(e, "setoption name Ponder value true");
    eng_send(e, "position startpos moves d2d4");
    int mark = e->next;
    eng_send(e, "go ponder wtime 60000 btime 60000");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go ponder");
    drain(e, 300);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "bestmove before stop while pondering");
    int64_t t0 = now_ms();
    eng_send(e, "stop");
    const char *bm = wait_for(e, "bestmove", 2000);
    CHECK(e, bm, "no bestmove within 2 s of stop");
    CHECK(e, now_ms() - t0 < 2000, "stop took %lld ms", (long long)(now_ms() - t0));
    check_bestmove(e, bm, NULL, "d2d4");
    sync_ready(e);
    CHECK(e, count_from(e, mark, "bestmove") == 1, "%d bestmoves", count_from(e, mark, "bestmove"));
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* go limits                                                                */

Test(uci, go_depth)
{
    Engine *e = eng_start();
    eng_send(e, "position fen %s", KIWIPETE);
    int mark;
    const char *bm = search(e, "go depth 5", 20000, &mark);
    check_bestmove(e, bm, KIWIPETE, NULL);
    bool seen[6] = {false};
    for (int i = mark; i < e->next; i++) {
        const char *l = e->lines[i];
        if (!starts(l, "info depth"))
            continue;
        long long d = field_num(l, "depth", -1);
        CHECK(e, d >= 1 && d <= 5, "info depth %lld in go depth 5", d);
        seen[d] = true;
        CHECK(e,
              !is_pv_info(l)
                  || (field_num(l, "nodes", -1) >= 0 && field_num(l, "time", -1) >= 0
                      && field_num(l, "seldepth", -1) >= d),
              "info line lacks nodes/time/seldepth: %s", l);
    }
    for (int d = 1; d <= 5; d++)
        CHECK(e, seen[d], "no info line for depth %d", d);
    /* The final pv starts with the bestmove. */
    char mv[16], pv[16];
    field(bm, "bestmove", mv, sizeof mv);
    const char *li = last_info(e, mark, e->next);
    CHECK(e, li && field(li, "pv", pv, sizeof pv) && !strcmp(mv, pv),
          "bestmove %s is not the first move of the last pv", mv);
    /* depth 1 and depth 0 (taken as 1) from the start position. */
    eng_send(e, "position startpos");
    check_bestmove(e, search(e, "go depth 1", 10000, NULL), NULL, NULL);
    check_bestmove(e, search(e, "go depth 0", 10000, NULL), NULL, NULL);
    eng_quit(e);
}

Test(uci, go_nodes)
{
    Engine *e = eng_start();
    eng_send(e, "position startpos moves e2e4 c7c5");
    int mark;
    int64_t t0 = now_ms();
    const char *bm = search(e, "go nodes 3000", 10000, &mark);
    CHECK(e, now_ms() - t0 < 5000, "go nodes 3000 took %lld ms", (long long)(now_ms() - t0));
    check_bestmove(e, bm, NULL, "e2e4 c7c5");
    for (int i = mark; i < e->next; i++)
        if (is_pv_info(e->lines[i]))
            CHECK(e, field_num(e->lines[i], "nodes", 0) <= 3000 * 11 / 10 + 200,
                  "more nodes than go nodes 3000 allows: %s", e->lines[i]);
    /* A single node still gives a legal move. */
    check_bestmove(e, search(e, "go nodes 1", 10000, NULL), NULL, "e2e4 c7c5");
    eng_quit(e);
}

Test(uci, go_movetime)
{
    Engine *e = eng_start();
    eng_send(e, "position fen %s", KIWIPETE);
    sync_ready(e);
    int64_t t0 = now_ms();
    const char *bm = search(e, "go movetime 300", 5000, NULL);
    int64_t el = now_ms() - t0;
    CHECK(e, el <= 300 + 1500, "go movetime 300 answered after %lld ms", (long long)el);
    check_bestmove(e, bm, KIWIPETE, NULL);
    check_bestmove(e, search(e, "go movetime 1", 3000, NULL), KIWIPETE, NULL);
    eng_quit(e);
}

Test(uci, go_mate_finds_the_mate)
{
    Engine *e = eng_start();
    eng_send(e, "position fen %s", MATE_IN_1);
    int mark;
    const char *bm = search(e, "go mate 1", 10000, &mark);
    CHECK(e, !strcmp(bm, "bestmove d1d8"), "mate in 1: got '%s', expected bestmove d1d8", bm);
    const char *li = last_info(e, mark, e->next);
    CHECK(e, li && strstr(li, " score mate 1 "), "mate in 1 not reported as score mate 1");

    eng_send(e, "position fen %s", MATE_IN_2);
    int64_t t0 = now_ms();
    bm = search(e, "go mate 2", 10000, &mark);
    CHECK(e, now_ms() - t0 < 5000, "go mate 2 took %lld ms", (long long)(now_ms() - t0));
    check_bestmove(e, bm, MATE_IN_2, NULL);
    li = last_info(e, mark, e->next);
    CHECK(e, li && strstr(li, " score mate 2 "), "mate in 2 not reported as score mate 2");
    eng_quit(e);
}

Test(uci, go_with_clocks)
{
    Engine *e = eng_start();
    eng_send(e, "position startpos");
    sync_ready(e);
    int64_t t0 = now_ms();
    const char *bm = search(e, "go wtime 3000 btime 3000 winc 50 binc 50", 6000, NULL);
    int64_t el = now_ms() - t0;
    CHECK(e, el < 3000, "3 s on the clock, answered after %lld ms", (long long)el);
    check_bestmove(e, bm, NULL, NULL);

    /* Black to move must use btime, not the large wtime. */
    eng_send(e, "position startpos moves e2e4");
    sync_ready(e);
    t0 = now_ms();
    bm = search(e, "go wtime 600000 btime 2000 winc 0 binc 0", 6000, NULL);
    el = now_ms() - t0;
    CHECK(e, el < 2000, "black has 2 s, answered after %lld ms", (long long)el);
    check_bestmove(e, bm, NULL, "e2e4");

    /* Very little time: still a legal move, quickly. */
    t0 = now_ms();
    bm = search(e, "go wtime 50 btime 50", 3000, NULL);
    check_bestmove(e, bm, NULL, "e2e4");
    CHECK(e, now_ms() - t0 < 1000, "50 ms on the clock, answered after %lld ms",
          (long long)(now_ms() - t0));
    eng_quit(e);
}

Test(uci, go_movestogo)
{
    Engine *e = eng_start();
    eng_send(e, "position startpos moves g1f3 d7d5");
    sync_ready(e);
    int64_t t0 = now_ms();
    const char *bm = search(e, "go wtime 2000 btime 2000 movestogo 10", 6000, NULL);
    int64_t el = now_ms() - t0;
    CHECK(e, el < 2000, "2 s for 10 moves, answered after %lld ms", (long long)el);
    check_bestmove(e, bm, NULL, "g1f3 d7d5");
    /* The last move of the period may use more, but never the whole clock. */
    t0 = now_ms();
    bm = search(e, "go wtime 1000 btime 1000 winc 0 binc 0 movestogo 1", 6000, NULL);
    el = now_ms() - t0;
    CHECK(e, el < 1000, "1 s for 1 move, answered after %lld ms", (long long)el);
    check_bestmove(e, bm, NULL, "g1f3 d7d5");
    eng_quit(e);
}

Test(uci, searchmoves_restricts_the_root)
{
    Engine *e = eng_start();
    eng_send(e, "position startpos");
    int mark;
    const char *bm = search(e, "go depth 6 searchmoves a2a3 h2h3", 20000, &mark);
    CHECK(e,
          !strcmp(bm, "bestmove a2a3") || !strcmp(bm, "bestmove h2h3")
              || starts(bm, "bestmove a2a3 ") || starts(bm, "bestmove h2h3 "),
          "searchmoves a2a3 h2h3 gave '%s'", bm);
    check_bestmove(e, bm, NULL, NULL);
    for (int i = mark; i < e->next; i++) {
        char pv[16];
        if (is_pv_info(e->lines[i]) && field(e->lines[i], "pv", pv, sizeof pv))
            CHECK(e, !strcmp(pv, "a2a3") || !strcmp(pv, "h2h3"), "pv outside searchmoves: %s",
                  e->lines[i]);
    }
    /* One move; and a limit after the move list. */
    bm = search(e, "go searchmoves g2g4 depth 4", 20000, NULL);
    CHECK(e, starts(bm, "bestmove g2g4"), "searchmoves g2g4 gave '%s'", bm);
    eng_send(e, "position fen %s", KIWIPETE);
    bm = search(e, "go depth 3 searchmoves e1c1", 20000, NULL);
    CHECK(e, starts(bm, "bestmove e1c1"), "searchmoves e1c1 gave '%s'", bm);
    eng_quit(e);
}

/* The lines of a completed MultiPV iteration: for every depth 1..depth there
 * must be lines multipv 1..k with different first moves, best first. */
static void check_multipv(Engine *e, int from, int to, int depth, int k)
{
    for (int d = 1; d <= depth; d++) {
        char first[256][8];
        long long score[256];
        for (int j = 1; j <= k; j++) {
            const char *found = NULL;
            for (int i = from; i < to; i++) {
                const char *l = e->lines[i];
                if (is_pv_info(l) && field_num(l, "depth", -1) == d
                    && field_num(l, "multipv", -1) == j && !strstr(l, "bound"))
                    found = l;
            }
            CHECK(e, found, "no 'info depth %d ... multipv %d' line", d, j);
            field(found, "pv", first[j - 1], sizeof first[0]);
            score[j - 1] = field_num(found, "cp", 100000);
            for (int p = 0; p < j - 1; p++)
                CHECK(e, strcmp(first[p], first[j - 1]),
                      "depth %d: multipv %d and %d both start with %s", d, p + 1, j, first[p]);
            if (j > 1 && score[j - 2] != 100000 && score[j - 1] != 100000)
                CHECK(e, score[j - 2] >= score[j - 1], "depth %d: multipv %d scores above %d", d, j,
                      j - 1);
        }
    }
    for (int i = from; i < to; i++)
        CHECK(e, !starts(e->lines[i], "info depth") || field_num(e->lines[i], "multipv", 1) <= k,
              "more than %d multipv lines: %s", k, e->lines[i]);
}

Test(uci, multipv)
{
    Engine *e = eng_start();
    expect_no_error(e, "setoption name MultiPV value 3");
    eng_send(e, "position startpos");
    int mark;
    const char *bm = search(e, "go depth 5", 20000, &mark);
    check_bestmove(e, bm, NULL, NULL);
    check_multipv(e, mark, e->next, 5, 3);
    char mv[16], pv[16] = "";
    field(bm, "bestmove", mv, sizeof mv);
    for (int i = mark; i < e->next; i++)
        if (is_pv_info(e->lines[i]) && field_num(e->lines[i], "multipv", -1) == 1)
            field(e->lines[i], "pv", pv, sizeof pv);
    CHECK(e, !strcmp(mv, pv), "bestmove %s is not the last multipv 1 move %s", mv, pv);

    /* More lines than legal moves: one line per move. */
    static const char *const Few = "7k/8/8/8/8/8/6P1/7K w - - 0 1";
    Position *p = lib_pos(Few, NULL, false);
    MoveList list;
    gen_legal(p, &list);
    free(p);
    cr_assert_eq(list.count, 4);
    expect_no_error(e, "setoption name MultiPV value 10");
    eng_send(e, "position fen %s", Few);
    bm = search(e, "go depth 4", 20000, &mark);
    check_bestmove(e, bm, Few, NULL);
    check_multipv(e, mark, e->next, 4, list.count);

    /* 500 is clamped to 256 (and said so): the 20 moves of the start. */
    expect_error(e, "setoption name MultiPV value 500", "256", NULL);
    eng_send(e, "position startpos");
    bm = search(e, "go depth 2", 20000, &mark);
    check_bestmove(e, bm, NULL, NULL);
    check_multipv(e, mark, e->next, 2, 20);

    /* Back to one line. */
    expect_no_error(e, "setoption name MultiPV value 1");
    search(e, "go depth 3", 20000, &mark);
    check_multipv(e, mark, e->next, 3, 1);
    eng_quit(e);
}

static void check_wdl(Engine *e, int from, int to, bool want)
{
    int lines = 0;
    for (int i = from; i < to; i++) {
        const char *l = e->lines[i];
        if (!is_pv_info(l))
            continue;
        lines++;
        const char *w = strstr(l, " wdl ");
        if (!want) {
            CHECK(e, !w, "wdl shown with UCI_ShowWDL false: %s", l);
            continue;
        }
        int a, b, c;
        CHECK(e, w && sscanf(w, " wdl %d %d %d", &a, &b, &c) == 3, "no 'wdl W D L' in: %s", l);
        CHECK(e, a >= 0 && b >= 0 && c >= 0 && a + b + c == 1000,
              "wdl %d %d %d does not sum to 1000", a, b, c);
        CHECK(e, strstr(l, " score ") < w, "wdl before the score: %s", l);
        if (strstr(l, " score mate ") && !strstr(l, " score mate -"))
            CHECK(e, a == 1000, "a mate for us with wdl %d %d %d", a, b, c);
    }
    CHECK(e, lines > 0, "no info lines");
}

Test(uci, show_wdl)
{
    Engine *e = eng_start();
    eng_send(e, "position startpos");
    int mark;
    search(e, "go depth 4", 20000, &mark);
    check_wdl(e, mark, e->next, false);
    expect_no_error(e, "setoption name UCI_ShowWDL value true");
    search(e, "go depth 5", 20000, &mark);
    check_wdl(e, mark, e->next, true);
    eng_send(e, "position fen %s", MATE_IN_1);
    search(e, "go depth 4", 20000, &mark);
    check_wdl(e, mark, e->next, true);
    expect_no_error(e, "setoption name UCI_ShowWDL value false");
    search(e, "go depth 3", 20000, &mark);
    check_wdl(e, mark, e->next, false);
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* Positions without a move                                                 */

static void check_no_move(Engine *e, const char *go, const char *info)
{
    int mark;
    const char *bm = search(e, go, 10000, &mark);
    CHECK(e, !strcmp(bm, "bestmove (none)"), "'%s' gave '%s', expected 'bestmove (none)'", go, bm);
    CHECK(e, e->next - 2 >= mark && !strcmp(e->lines[e->next - 2], info),
          "the line before bestmove (none) is not '%s'", info);
    CHECK(e, count_from(e, mark, "info string error") == 0, "error for '%s'", go);
}

Test(uci, checkmate_and_stalemate_have_no_bestmove)
{
    Engine *e = eng_start();
    eng_send(e, "position fen %s", FOOLS_MATE);
    check_no_move(e, "go depth 5", "info depth 0 score mate 0");
    check_no_move(e, "go movetime 100", "info depth 0 score mate 0");
    check_no_move(e, "go wtime 1000 btime 1000", "info depth 0 score mate 0");
    eng_send(e, "position startpos moves f2f3 e7e5 g2g4 d8h4");
    check_no_move(e, "go nodes 1000", "info depth 0 score mate 0");
    eng_send(e, "position fen %s", STALEMATE);
    check_no_move(e, "go depth 5", "info depth 0 score cp 0");
    check_no_move(e, "go mate 3", "info depth 0 score cp 0");

    /* go infinite on a mate still waits for stop. */
    eng_send(e, "position fen %s", FOOLS_MATE);
    int mark = e->next;
    eng_send(e, "go infinite");
    drain(e, 300);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "bestmove before stop in go infinite");
    eng_send(e, "stop");
    const char *bm = wait_for(e, "bestmove", 2000);
    CHECK(e, bm && !strcmp(bm, "bestmove (none)"), "go infinite on a mate: no 'bestmove (none)'");
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* Chess960                                                                 */

static bool has_line_from(const Engine *e, int from, const char *line)
{
    for (int i = from; i < e->count; i++)
        if (!strcmp(e->lines[i], line))
            return true;
    return false;
}

static void perft1(Engine *e, const char *fen, int *mark)
{
    eng_send(e, "position fen %s", fen);
    *mark = e->next;
    eng_send(e, "go perft 1");
    CHECK(e, wait_for(e, "Nodes searched", 10000), "no perft answer for %s", fen);
}

Test(uci, chess960_castling_notation)
{
    static const char *const Std = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    static const char *const StdB = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
    /* King on b1 next to the a1 rook: O-O-O is b1a1, b1c1 a king step. */
    static const char *const Adj = "rk4rn/pppppppp/8/8/8/8/PPPPPPPP/RK4RN w GAga - 0 1";
    static const char *const C960 = "1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/1R1K3R w HBhb - 0 1";
    Engine *e = eng_start();
    int mark;
    expect_no_error(e, "setoption name UCI_Chess960 value true");

    perft1(e, Std, &mark);
    CHECK(e, has_line_from(e, mark, "e1h1: 1") && has_line_from(e, mark, "e1a1: 1"),
          "Chess960: castling not shown as e1h1 / e1a1");
    CHECK(e, !has_line_from(e, mark, "e1g1: 1") && !has_line_from(e, mark, "e1c1: 1"),
          "Chess960: castling shown as e1g1 / e1c1");
    CHECK(e, has_line_from(e, mark, "Nodes searched: 26"), "perft 1 is not 26");
    perft1(e, StdB, &mark);
    CHECK(e, has_line_from(e, mark, "e8h8: 1") && has_line_from(e, mark, "e8a8: 1"),
          "Chess960: black castling not shown as e8h8 / e8a8");
    perft1(e, Adj, &mark);
    CHECK(e,
          has_line_from(e, mark, "b1a1: 1") && has_line_from(e, mark, "b1g1: 1")
              && has_line_from(e, mark, "b1c1: 1") && has_line_from(e, mark, "Nodes searched: 24"),
          "Chess960 divide of %s", Adj);
    perft1(e, C960, &mark);
    /* (d1c1 is also a king step here.) */
    CHECK(e,
          has_line_from(e, mark, "d1h1: 1") && has_line_from(e, mark, "d1b1: 1")
              && !has_line_from(e, mark, "d1g1: 1") && has_line_from(e, mark, "Nodes searched: 25"),
          "Chess960 divide of %s", C960);

    /* Castling both ways, both colours, written king-takes-rook. */
    expect_no_error(e, "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1 e8a8");
    expect_fen(e, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2", "e1h1 e8a8");
    expect_no_error(e, "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1a1 e8h8");
    expect_fen(e, "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2", "e1a1 e8h8");
    expect_no_error(
        e, "position fen rk4rn/pppppppp/8/8/8/8/PPPPPPPP/RK4RN w GAga - 0 1 moves b1a1 b8g8");
    expect_fen(e, "r4rkn/pppppppp/8/8/8/8/PPPPPPPP/2KR2RN w - - 2 2", "b1a1 b8g8");
    /* b1c1 here is the king step, not castling. */
    expect_no_error(e,
                    "position fen rk4rn/pppppppp/8/8/8/8/PPPPPPPP/RK4RN w GAga - 0 1 moves b1c1");
    char fen[128];
    show(e, fen, sizeof fen, NULL, 0);
    CHECK(e, starts(fen, "rk4rn/pppppppp/8/8/8/8/PPPPPPPP/R1K3RN b "),
          "b1c1 is not a king step: %s", fen);
    expect_no_error(
        e, "position fen 1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/1R1K3R w HBhb - 0 1 moves d1h1 d8b8");
    expect_fen(e, "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2", "d1h1 d8b8");

    /* The search prints its castling bestmove the same way. */
    eng_send(e, "position fen %s", Std);
    const char *bm = search(e, "go depth 2 searchmoves e1h1", 10000, &mark);
    CHECK(e, starts(bm, "bestmove e1h1"), "Chess960 bestmove castling: '%s'", bm);
    const char *li = last_info(e, mark, e->next);
    CHECK(e, li && strstr(li, " pv e1h1"), "Chess960 pv castling not e1h1");
    eng_quit(e);
}

Test(uci, standard_castling_notation)
{
    static const char *const Std = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    Engine *e = eng_start();
    int mark;
    perft1(e, Std, &mark);
    CHECK(e, has_line_from(e, mark, "e1g1: 1") && has_line_from(e, mark, "e1c1: 1"),
          "castling not shown as e1g1 / e1c1");
    CHECK(e, !has_line_from(e, mark, "e1h1: 1") && !has_line_from(e, mark, "e1a1: 1"),
          "castling shown king-takes-rook without UCI_Chess960");
    expect_no_error(e, "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8");
    expect_fen(e, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2", "e1g1 e8c8");
    expect_no_error(e, "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");
    char want[128];
    lib_fen(NULL, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1", false, want, sizeof want);
    expect_fen(e, want, "a standard game with e1g1");
    eng_send(e, "position fen %s", Std);
    const char *bm = search(e, "go depth 2 searchmoves e1c1", 10000, &mark);
    CHECK(e, starts(bm, "bestmove e1c1"), "standard bestmove castling: '%s'", bm);

    /* Switching UCI_Chess960 on and off again. */
    expect_no_error(e, "setoption name UCI_Chess960 value true");
    expect_no_error(e, "setoption name UCI_Chess960 value false");
    perft1(e, Std, &mark);
    CHECK(e, has_line_from(e, mark, "e1g1: 1"), "castling not e1g1 after UCI_Chess960 off again");
    eng_quit(e);
}

Test(uci, chess960_start_positions)
{
    /* A fixed start position (Chess960 #0) and, when the shared data is
     * there, three positions of the X-FEN opening file: the UCI perft 2 must
     * match the library's, and a search must give a legal move. */
    const char *fens[4] = {"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"};
    char lines[3][256];
    int n = 1;
    FILE *f = fopen("../shared/data/openings/chess960-xfen.epd", "r");
    if (f) {
        char buf[256];
        int row = 0;
        while (n < 4 && fgets(buf, sizeof buf, f)) {
            row++;
            if (row != 7 && row != 300 && row != 901)
                continue;
            buf[strcspn(buf, "\r\n;")] = '\0';
            snprintf(lines[n - 1], sizeof lines[0], "%s", buf);
            fens[n] = lines[n - 1];
            n++;
        }
        fclose(f);
    }
    Engine *e = eng_start();
    expect_no_error(e, "setoption name UCI_Chess960 value true");
    for (int i = 0; i < n; i++) {
        Position *p = lib_pos(fens[i], NULL, true);
        uint64_t want = perft(p, 2);
        free(p);
        eng_send(e, "position fen %s", fens[i]);
        int mark = e->next;
        eng_send(e, "go perft 2");
        const char *l = wait_for(e, "Nodes searched: ", 10000);
        CHECK(e, l && strtoull(l + 16, NULL, 10) == want, "%s: perft 2 should be %llu", fens[i],
              (unsigned long long)want);
        CHECK(e, count_from(e, mark, "info string error") == 0, "error for %s", fens[i]);
        char fen[128];
        show(e, fen, sizeof fen, NULL, 0);
        CHECK(e, !strncmp(fen, fens[i], strcspn(fens[i], " ")), "position %s shown as %s", fens[i],
              fen);
        check_bestmove_in(e, search(e, "go depth 3", 10000, NULL), fens[i], NULL, true);
    }
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* Bad input                                                                */

Test(uci, unknown_blank_and_crlf_lines)
{
    Engine *e = eng_start();
    eng_send(e, "position startpos moves e2e4 e7e5");
    char before[128];
    show(e, before, sizeof before, NULL, 0);

    expect_error(e, "foo bar", "foo", NULL);
    expect_error(e, "ISREADY", "ISREADY", NULL);
    expect_error(e, "\tgoo depth 5", "goo", NULL);
    expect_fen(e, before, "unknown commands");

    /* Blank lines are not commands: one error line each, nothing changes. */
    static const char *const Blank[] = {"", " ", "   \t  ", "\r", " \r", "\t\r"};
    for (size_t i = 0; i < sizeof Blank / sizeof Blank[0]; i++) {
        int mark = e->next;
        send_raw(e, Blank[i], strlen(Blank[i]));
        send_raw(e, "\n", 1);
        sync_ready(e);
        CHECK(e, e->next == mark + 2, "blank line %zu: expected one error line", i);
        CHECK(e, strstr(e->lines[mark], "info string error") != NULL,
              "blank line %zu was answered with '%s'", i, e->lines[mark]);
    }
    expect_fen(e, before, "blank lines");

    /* CRLF line ends work like LF. */
    int mark = e->next;
    send_raw(e, "isready\r\n", 9);
    CHECK(e, wait_for(e, "readyok", 2000), "no readyok for isready\\r\\n");
    CHECK(e, e->next == mark + 1, "isready\\r\\n gave extra output");
    const char *cr = "position startpos moves d2d4 d7d5 c2c4\r\n";
    send_raw(e, cr, strlen(cr));
    char want[128];
    lib_fen(NULL, "d2d4 d7d5 c2c4", false, want, sizeof want);
    expect_fen(e, want, "position ...\\r\\n");
    cr = "go depth 2\r\n";
    send_raw(e, cr, strlen(cr));
    check_bestmove(e, wait_for(e, "bestmove", 10000), NULL, "d2d4 d7d5 c2c4");
    cr = "setoption name MultiPV value 2\r\nisready\r\n";
    mark = e->next;
    send_raw(e, cr, strlen(cr));
    CHECK(e, wait_for(e, "readyok", 5000), "no readyok");
    CHECK(e, count_from(e, mark, "info string error") == 0, "setoption ...\\r\\n gave an error");
    eng_quit(e);
}

Test(uci, one_megabyte_lines)
{
    enum { MB = 1 << 20 };
    Engine *e = eng_start();
    eng_send(e, "position fen %s", KIWIPETE);
    char before[128];
    show(e, before, sizeof before, NULL, 0);
    char *big = malloc(MB + 64);
    cr_assert(big);

    memset(big, 'x', MB);
    big[MB] = '\0';
    expect_error(e, big, "unknown command", NULL);
    expect_fen(e, before, "a 1 MB unknown command");

    int n = snprintf(big, 64, "position fen ");
    memset(big + n, 'p', MB - (size_t)n);
    big[MB] = '\0';
    expect_error(e, big, "FEN", NULL);
    expect_fen(e, before, "a 1 MB FEN");

    n = snprintf(big, 64, "position startpos moves");
    for (size_t i = (size_t)n; i + 5 < MB; i += 5)
        memcpy(big + i, " a1a1", 5);
    big[MB - 5] = '\0';
    expect_error(e, big, "move 1 ", "a1a1");
    expect_fen(e, before, "a 1 MB move list");

    n = snprintf(big, 64, "go depth 1 ");
    memset(big + n, 'z', MB - (size_t)n);
    big[MB] = '\0';
    /* An unknown word of a megabyte: ignored, said in a short line, and the
     * go answered (bestmove 0000: the last position was refused). */
    int go_mark = e->next;
    send_raw(e, big, strlen(big));
    send_raw(e, "\n", 1);
    const char *bm = wait_for(e, "bestmove", 5000);
    CHECK(e, bm && !strcmp(bm, "bestmove 0000"), "'go depth 1 zzz...' after a refused position: %s",
          bm ? bm : "no bestmove");
    const char *note = line_with(e, go_mark, "info string go: unknown word", "zzz");
    CHECK(e, note && strlen(note) < 400, "the 1 MB unknown word is not said in a short line");

    /* A megabyte of blanks before a command. */
    memset(big, ' ', MB);
    strcpy(big + MB, "isready");
    int mark = e->next;
    send_raw(e, big, strlen(big));
    send_raw(e, "\n", 1);
    CHECK(e, wait_for(e, "readyok", 5000), "no readyok after 1 MB of blanks");
    CHECK(e, count_from(e, mark, "info string error") == 0, "error for blanks + isready");
    free(big);

    expect_fen(e, before, "1 MB lines");
    expect_go_refused(e, "go depth 3");
    eng_send(e, "position fen %s", KIWIPETE);
    check_bestmove(e, search(e, "go depth 3", 10000, NULL), KIWIPETE, NULL);
    eng_quit(e);
}

Test(uci, bad_fen_keeps_the_position)
{
    static const char *const Bad[] = {
        "position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
        "position fen",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 trailing",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - zero 1",
        "position fen 3kk3/8/8/8/8/8/8/4K3 w - - 0 1",
        "position fen moves e2e4",
        "position",
        "position foo",
        "position startpos e2e4",
        "position startpos movesx e2e4",
    };
    Engine *e = eng_start();
    eng_send(e, "position startpos moves e2e4 c7c5 g1f3");
    char before[128];
    show(e, before, sizeof before, NULL, 0);
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        expect_error(e, Bad[i], NULL, NULL);
        expect_fen(e, before, Bad[i]);
        if (i % 5 == 0)
            expect_go_refused(e, "go depth 3");
    }
    /* Until a position is accepted (or a new game starts), go refuses. */
    expect_go_refused(e, "go wtime 1000 btime 1000");
    expect_go_refused(e, "go infinite");
    expect_no_error(e, "ucinewgame");
    check_bestmove(e, search(e, "go depth 3", 10000, NULL), NULL, "e2e4 c7c5 g1f3");
    expect_error(e, Bad[0], NULL, NULL);
    expect_go_refused(e, "go nodes 100");
    expect_no_error(e, "position startpos moves e2e4 c7c5 g1f3");
    check_bestmove(e, search(e, "go depth 3", 10000, NULL), NULL, "e2e4 c7c5 g1f3");
    /* An empty move list is fine. */
    expect_no_error(e, "position startpos moves");
    expect_fen(e, START_FEN, "position startpos moves");
    eng_quit(e);
}

Test(uci, illegal_move_keeps_the_position)
{
    static const struct {
        const char *cmd, *move, *index;
    } Bad[] = {
        {"position startpos moves e2e4 e7e5 e1e2 e8e7 g1g3", "'g1g3'", "move 5 "},
        {"position startpos moves e2e4 e2e4", "'e2e4'", "move 2 "},
        {"position startpos moves e7e5", "'e7e5'", "move 1 "},
        {"position startpos moves e2e4 xyz", "'xyz'", "move 2 "},
        {"position startpos moves e2e4 e7e5 e1g1", "'e1g1'", "move 3 "},
        {"position startpos moves e2e4 e7e5 e2e4x", "'e2e4x'", "move 3 "},
        {"position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8", "'a7a8'", "move 1 "},
        {"position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8k", "'a7a8k'", "move 1 "},
        {"position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 e8e7 e2e3 e7e6 e3e4 e6e5", "'e6e5'",
         "move 6 "},
    };
    Engine *e = eng_start();
    eng_send(e, "position fen %s", KIWIPETE);
    char before[128];
    show(e, before, sizeof before, NULL, 0);
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        expect_error(e, Bad[i].cmd, Bad[i].move, Bad[i].index);
        expect_fen(e, before, Bad[i].cmd);
    }
    /* The legal prefix is not kept either; go refuses until a position is
     * accepted, then searches that. */
    expect_go_refused(e, "go depth 3");
    eng_send(e, "position fen %s", KIWIPETE);
    check_bestmove(e, search(e, "go depth 3", 10000, NULL), KIWIPETE, NULL);
    /* Promotions written in full are fine. */
    expect_no_error(e, "position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8n");
    expect_fen(e, "N3k3/8/8/8/8/8/8/4K3 b - - 0 1", "a7a8n");
    eng_quit(e);
}

Test(uci, bad_go_still_answers)
{
    /* A known word with a malformed value: the error names it, and a one-ply
     * search answers, so that no client waits for a bestmove forever. */
    static const struct {
        const char *cmd, *word;
    } Bad[] = {
        {"go depth abc", "depth"},
        {"go depth", "depth"},
        {"go nodes -5", "nodes"},
        {"go movetime xyz", "movetime"},
        {"go mate", "mate"},
        {"go mate 0", "mate 0"},
        {"go movestogo", "movestogo"},
        {"go wtime 1000 btime 1000 movestogo", "movestogo"},
        {"go searchmoves e2e5", "e2e5"},
        {"go searchmoves e7e5 depth 2", "e7e5"},
        {"go movestogo -1", "movestogo"},
        {"go depth 99999999999999999999", "depth"},
        {"go infinite depth x", "depth"}, /* infinite: the bestmove waits for stop */
    };
    Engine *e = eng_start();
    eng_send(e, "position startpos");
    sync_ready(e);
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        int mark = e->next;
        eng_send(e, "%s", Bad[i].cmd);
        if (strstr(Bad[i].cmd, "infinite")) {
            CHECK(e, wait_for(e, "info depth", 5000), "no search after '%s'", Bad[i].cmd);
            drain(e, 200);
            CHECK(e, count_from(e, mark, "bestmove") == 0, "bestmove before stop after '%s'",
                  Bad[i].cmd);
            eng_send(e, "stop");
        }
        const char *bm = wait_for(e, "bestmove", 5000);
        CHECK(e, bm, "no bestmove after '%s'", Bad[i].cmd);
        check_bestmove(e, bm, NULL, NULL);
        const char *err = line_with(e, mark, "info string error", Bad[i].word);
        CHECK(e, err, "no error naming '%s' for '%s'", Bad[i].word, Bad[i].cmd);
        CHECK(e, !line_with(e, mark, "info depth 2 ", ""), "'%s' searched past one ply",
              Bad[i].cmd);
    }
    /* go perft is no search: a bad depth is refused and nothing else comes. */
    int mark = e->next;
    expect_error(e, "go perft 0", "perft", NULL);
    expect_error(e, "go perft abc", "perft", NULL);
    expect_error(e, "go perft 21", "perft", NULL);
    expect_fen(e, START_FEN, "bad go commands");
    CHECK(e, count_from(e, mark, "bestmove") == 0, "a refused go perft printed a bestmove");
    /* Negative clock times (a flagged GUI) are said and taken as 0. */
    mark = e->next;
    int64_t t0 = now_ms();
    const char *bm = search(e, "go wtime -100 btime -100", 5000, NULL);
    check_bestmove(e, bm, NULL, NULL);
    CHECK(e, now_ms() - t0 < 2000, "no time left, answered after %lld ms",
          (long long)(now_ms() - t0));
    CHECK(e, count_from(e, mark, "info string") >= 1, "negative wtime not mentioned");
    sync_ready(e);
    CHECK(e, count_from(e, mark, "bestmove") == 1, "%d bestmoves", count_from(e, mark, "bestmove"));
    /* A missing number must not be reported with an earlier command's text. */
    search(e, "go nodes qwerty", 5000, &mark);
    CHECK(e, line_with(e, mark, "info string error", "qwerty"), "'go nodes qwerty' not refused");
    search(e, "go depth", 5000, &mark);
    const char *err = line_with(e, mark, "info string error", "depth");
    CHECK(e, err && !strstr(err, "qwerty"),
          "'go depth' (number missing) is reported with the word of an earlier command: %s", err);
    eng_quit(e);
}

Test(uci, go_ignores_unknown_words)
{
    /* The UCI protocol: an unknown token is ignored and the rest of the line
     * is read (some GUIs send newer words, such as nodestime). */
    Engine *e = eng_start();
    eng_send(e, "position startpos");
    sync_ready(e);
    int mark;
    const char *bm = search(e, "go depth 3 nodestime 0", 10000, &mark);
    check_bestmove(e, bm, NULL, NULL);
    CHECK(e, line_with(e, mark, "info depth 3 ", ""),
          "'go depth 3 nodestime 0' did not search 3 plies");
    CHECK(e, !line_with(e, mark, "info depth 4 ", ""),
          "'go depth 3 nodestime 0' searched past 3 plies");
    CHECK(e, line_with(e, mark, "info string", "nodestime"), "the unknown word is not mentioned");
    CHECK(e, count_from(e, mark, "info string error") == 0,
          "an unknown word is taken for an error");
    int64_t t0 = now_ms();
    bm = search(e, "go wtime 1000 btime 1000 foo 3", 5000, &mark);
    check_bestmove(e, bm, NULL, NULL);
    CHECK(e, now_ms() - t0 < 1000, "1 s on the clock, answered after %lld ms",
          (long long)(now_ms() - t0));
    CHECK(e, line_with(e, mark, "info string", "foo 3"), "'foo 3' is not mentioned");
    /* Before a known word, after it, alone (then the search is endless). */
    bm = search(e, "go bar depth 2", 10000, &mark);
    check_bestmove(e, bm, NULL, NULL);
    CHECK(e, !line_with(e, mark, "info depth 3 ", ""), "'go bar depth 2' searched past 2 plies");
    mark = e->next;
    eng_send(e, "go foo");
    CHECK(e, wait_for(e, "info depth", 5000), "'go foo' did not search");
    drain(e, 200);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "'go foo' (a bare go) ended before stop");
    eng_send(e, "stop");
    check_bestmove(e, wait_for(e, "bestmove", 2000), NULL, NULL);
    eng_quit(e);
}

Test(uci, bad_setoption)
{
    Engine *e = eng_start();
    expect_error(e, "setoption name Foo value 3", "Foo", NULL);
    expect_error(e, "setoption name Foo Bar", "Foo Bar", NULL);
    expect_error(e, "setoption name Hash value abc", "Hash", "abc");
    expect_error(e, "setoption name Hash value 12x", "Hash", NULL);
    expect_error(e, "setoption name Hash", "Hash", NULL);
    expect_error(e, "setoption name Hash value 0", "set to 1", NULL);
    expect_error(e, "setoption name Threads value 0", "set to 1", NULL);
    expect_error(e, "setoption name Threads value -3", "set to 1", NULL);
    expect_error(e, "setoption name Move Overhead value 99999", "set to 5000", NULL);
    expect_error(e, "setoption name Move Overhead value -1", "set to 0", NULL);
    expect_error(e, "setoption name MultiPV value 0", "set to 1", NULL);
    expect_error(e, "setoption name MultiPV value 99999999999999999999999", "MultiPV", NULL);
    expect_error(e, "setoption name UCI_ShowWDL value yes", "UCI_ShowWDL", NULL);
    expect_error(e, "setoption name Ponder", "Ponder", NULL);
    expect_error(e, "setoption name", NULL, NULL);
    expect_error(e, "setoption", NULL, NULL);
    expect_error(e, "setoption Hash value 4", NULL, NULL);
    /* Names are case-insensitive; these are fine. */
    expect_no_error(e, "setoption name hash value 8");
    expect_no_error(e, "setoption name MOVE OVERHEAD value 30");
    expect_no_error(e, "setoption name clear hash");
    expect_no_error(e, "setoption name multipv value 2");
    /* A refused value leaves the option as it was (MultiPV 2). */
    expect_error(e, "setoption name MultiPV value many", "many", NULL);
    eng_send(e, "position startpos");
    int mark;
    check_bestmove(e, search(e, "go depth 3", 10000, &mark), NULL, NULL);
    check_multipv(e, mark, e->next, 3, 2);
    /* The clamped Threads 1 and Move Overhead 0 searches too. */
    expect_error(e, "setoption name Move Overhead value -1", "set to 0", NULL);
    check_bestmove(e, search(e, "go movetime 100", 5000, NULL), NULL, NULL);
    eng_quit(e);
}

Test(uci, stop_and_ponderhit_without_a_search)
{
    /* Legal in practice (python-chess sends stop when it leaves analysis):
     * silent, but mentioned under debug on. */
    Engine *e = eng_start();
    int mark = e->next;
    expect_no_error(e, "stop");
    expect_no_error(e, "ponderhit");
    check_bestmove(e, search(e, "go depth 2", 10000, NULL), NULL, NULL);
    settle(e);
    expect_no_error(e, "stop");
    expect_no_error(e, "ponderhit");
    CHECK(e, count_from(e, mark, "info string") == 0, "a stray stop or ponderhit said something");
    expect_no_error(e, "debug on");
    int dmark = e->next;
    eng_send(e, "stop");
    eng_send(e, "ponderhit");
    sync_ready(e);
    CHECK(e, count_from(e, dmark, "info string debug: stop: no search is running") == 1,
          "debug on: a stray stop is not mentioned");
    CHECK(e, count_from(e, dmark, "info string debug: ponderhit: no ponder search") == 1,
          "debug on: a stray ponderhit is not mentioned");
    expect_no_error(e, "debug off");
    /* ponderhit during a plain go infinite does not end it. */
    eng_send(e, "go infinite");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go infinite");
    eng_send(e, "ponderhit");
    drain(e, 300);
    CHECK(e, count_from(e, mark, "bestmove") == 1, "ponderhit ended a go infinite");
    eng_send(e, "stop");
    check_bestmove(e, wait_for(e, "bestmove", 2000), NULL, NULL);
    sync_ready(e);
    drain(e, 100);
    CHECK(e, count_from(e, mark, "bestmove") == 2, "%d bestmoves for two searches",
          count_from(e, mark, "bestmove"));
    eng_quit(e);
}

Test(uci, commands_during_an_endless_search_are_refused)
{
    Engine *e = eng_start();
    eng_send(e, "position startpos moves e2e4");
    int mark = e->next;
    eng_send(e, "go infinite");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go infinite");
    static const char *const Refused[] = {
        "position startpos",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "go depth 1",
        "go infinite",
        "setoption name MultiPV value 3",
        "ucinewgame",
        "d",
        "go perft 2",
    };
    for (size_t i = 0; i < sizeof Refused / sizeof Refused[0]; i++)
        expect_error(e, Refused[i], "search is running", NULL);
    drain(e, 200);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "the search ended before stop");
    eng_send(e, "stop");
    const char *bm = wait_for(e, "bestmove", 2000);
    check_bestmove(e, bm, NULL, "e2e4");
    sync_ready(e);
    drain(e, 100);
    CHECK(e, count_from(e, mark, "bestmove") == 1, "%d bestmoves", count_from(e, mark, "bestmove"));
    char want[128];
    lib_fen(NULL, "e2e4", false, want, sizeof want);
    expect_fen(e, want, "refused position commands");
    /* MultiPV stayed 1. */
    search(e, "go depth 2", 10000, &mark);
    check_multipv(e, mark, e->next, 2, 1);

    /* The same while pondering. */
    mark = e->next;
    eng_send(e, "go ponder wtime 10000 btime 10000");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go ponder");
    expect_error(e, "position startpos", "search is running", NULL);
    expect_error(e, "go depth 1", "search is running", NULL);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "the ponder search ended by itself");
    eng_send(e, "stop");
    check_bestmove(e, wait_for(e, "bestmove", 2000), NULL, "e2e4");
    settle(e);
    expect_fen(e, want, "refused position while pondering");
    eng_quit(e);
}

/* After `stop` an endless search is over as far as the GUI is concerned:
 * the next position and go must be obeyed, whether the GUI sends them right
 * behind the stop (as on a ponder miss) or as soon as it reads the bestmove.
 * Returns the number of rounds in which they were refused; *example gets
 * the first refusal. */
static int next_search_refused(Engine *e, const char *go, bool wait_bestmove, char *example,
                               size_t len)
{
    eng_send(e, "position startpos");
    eng_send(e, "%s", go);
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after %s", go);
    int mark = e->next;
    if (wait_bestmove) {
        eng_send(e, "stop");
        check_bestmove(e, wait_for(e, "bestmove", 2000), NULL, NULL);
        mark = e->next;
        eng_send(e, "position startpos moves e2e4\ngo depth 1");
    } else
        eng_send(e, "stop\nposition startpos moves e2e4\ngo depth 1");
    sync_ready(e);
    const char *err = NULL;
    for (int i = mark; i < e->next; i++)
        if (!err && starts(e->lines[i], "info string error"))
            err = e->lines[i];
    if (err) {
        if (!*example)
            snprintf(example, len, "%s", err);
        settle(e);
        return 1;
    }
    /* The stopped search's bestmove (when not read yet), then the new one,
     * for black after e2e4. */
    int want = wait_bestmove ? 1 : 2;
    const char *bm = NULL;
    for (int i = mark; i < e->next; i++)
        if (starts(e->lines[i], "bestmove") && --want == 0)
            bm = e->lines[i];
    while (!bm) {
        const char *l = wait_for(e, "bestmove", 5000);
        CHECK(e, l, "no bestmove for go depth 1 after stop");
        if (--want == 0)
            bm = l;
    }
    check_bestmove(e, bm, NULL, "e2e4");
    return 0;
}

Test(uci, commands_right_after_stop_are_accepted)
{
    static const char *const Gos[] = {"go infinite", "go ponder wtime 100000 btime 100000",
                                      "go infinite depth 3"};
    Engine *e = eng_start();
    int rounds = 0, behind_stop = 0, after_bestmove = 0;
    char ex1[256] = "", ex2[256] = "";
    for (int r = 0; r < 4; r++)
        for (size_t g = 0; g < sizeof Gos / sizeof Gos[0]; g++) {
            rounds++;
            behind_stop += next_search_refused(e, Gos[g], false, ex1, sizeof ex1);
            after_bestmove += next_search_refused(e, Gos[g], true, ex2, sizeof ex2);
        }
    CHECK(e, behind_stop == 0 && after_bestmove == 0,
          "'position' / 'go' refused as sent during a search: %d of %d times when sent right "
          "after stop (e.g. '%s'), %d of %d times when sent on reading the bestmove (e.g. '%s')",
          behind_stop, rounds, ex1, after_bestmove, rounds, ex2);
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* Ending the process                                                       */

static void quit_during(const char *go)
{
    Engine *e = eng_start();
    eng_send(e, "position fen %s", KIWIPETE);
    eng_send(e, "%s", go);
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after '%s'", go);
    int64_t t0 = now_ms();
    eng_send(e, "quit");
    CHECK(e, wait_exit(e, 2000), "not ended 2 s after quit during '%s'", go);
    CHECK(e, now_ms() - t0 <= 2000, "quit took %lld ms", (long long)(now_ms() - t0));
    check_clean_exit(e);
    eng_free(e);
}

Test(uci, quit_during_a_search)
{
    quit_during("go infinite");
    quit_during("go depth 100");
    quit_during("go ponder wtime 100000 btime 100000");
}

Test(uci, end_of_input_after_a_finite_go)
{
    Engine *e = eng_start();
    eng_send(e, "position startpos moves e2e4");
    eng_send(e, "go depth 6");
    close_input(e);
    CHECK(e, wait_exit(e, 15000), "not ended 15 s after end of input");
    check_clean_exit(e);
    const char *bm = wait_for(e, "bestmove", 0);
    CHECK(e, bm, "no bestmove after end of input");
    check_bestmove(e, bm, NULL, "e2e4");
    CHECK(e, count_from(e, 0, "info depth 6 ") >= 1, "the search did not reach depth 6");
    eng_free(e);
}

Test(uci, end_of_input_during_an_endless_search)
{
    static const char *const Gos[] = {"go infinite", "go ponder wtime 100000 btime 100000"};
    for (size_t i = 0; i < 2; i++) {
        Engine *e = eng_start();
        eng_send(e, "position startpos");
        eng_send(e, "%s", Gos[i]);
        CHECK(e, wait_for(e, "info depth", 10000), "no info line after %s", Gos[i]);
        int64_t t0 = now_ms();
        close_input(e);
        CHECK(e, wait_exit(e, 2000), "not ended 2 s after end of input during %s", Gos[i]);
        CHECK(e, now_ms() - t0 <= 2000, "took %lld ms", (long long)(now_ms() - t0));
        check_clean_exit(e);
        CHECK(e, count_from(e, 0, "bestmove") <= 1, "more than one bestmove");
        eng_free(e);
    }
}

/* ------------------------------------------------------------------------ */
/* Determinism, threads, hash                                               */

static long long final_nodes(Engine *e, int mark, int depth, char *best, size_t len)
{
    const char *li = last_info(e, mark, e->next);
    CHECK(e, li && field_num(li, "depth", -1) == depth, "no final depth %d info line", depth);
    const char *bm = e->lines[e->next - 1];
    field(bm, "bestmove", best, len);
    return field_num(li, "nodes", -1);
}

Test(uci, ucinewgame_makes_searches_repeatable)
{
    Engine *e = eng_start();
    char b1[16], b2[16], b3[16];
    int mark;
    eng_send(e, "ucinewgame");
    eng_send(e, "position startpos");
    search(e, "go depth 8", 20000, &mark);
    long long n1 = final_nodes(e, mark, 8, b1, sizeof b1);
    /* Fill the TT and the histories with something else. */
    eng_send(e, "position fen %s", KIWIPETE);
    search(e, "go depth 6", 20000, NULL);
    eng_send(e, "ucinewgame");
    eng_send(e, "position startpos");
    search(e, "go depth 8", 20000, &mark);
    long long n2 = final_nodes(e, mark, 8, b2, sizeof b2);
    CHECK(e, n1 > 0 && n1 == n2, "go depth 8 after ucinewgame: %lld nodes, then %lld", n1, n2);
    CHECK(e, !strcmp(b1, b2), "go depth 8 after ucinewgame: bestmove %s, then %s", b1, b2);
    /* A fresh engine gives the same count. */
    eng_quit(e);
    e = eng_start();
    eng_send(e, "position startpos");
    search(e, "go depth 8", 20000, &mark);
    long long n3 = final_nodes(e, mark, 8, b3, sizeof b3);
    CHECK(e, n3 == n1, "a fresh engine: %lld nodes, before %lld", n3, n1);
    eng_quit(e);
}

/* Sends a Threads change; returns a line it printed of its own (there
 * should be none: no search output without a go), or NULL. */
static char *set_threads(Engine *e, int n)
{
    int mark = e->next;
    eng_send(e, "setoption name Threads value %d", n);
    sync_ready(e);
    drain(e, 300);
    for (int i = mark; i < e->count; i++)
        if (strcmp(e->lines[i], "readyok") != 0)
            return e->lines[i];
    return NULL;
}

Test(uci, two_threads)
{
    Engine *e = eng_start();
    expect_no_error(e, "setoption name Threads value 2");
    eng_send(e, "position startpos");
    int mark;
    const char *bm = search(e, "go depth 8", 20000, &mark);
    check_bestmove(e, bm, NULL, NULL);
    CHECK(e, count_from(e, mark, "info depth 8 ") >= 1, "no depth 8 info with 2 threads");
    eng_send(e, "go perft 4");
    const char *l = wait_for(e, "Nodes searched", 20000);
    CHECK(e, l && !strcmp(l, "Nodes searched: 197281"), "perft 4 with 2 threads");
    /* Stop works with helpers running. */
    eng_send(e, "go infinite");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go infinite");
    drain(e, 200);
    eng_send(e, "stop");
    check_bestmove(e, wait_for(e, "bestmove", 2000), NULL, NULL);
    settle(e);
    /* Back to one thread and to two again, after searches: the searches
     * work, and the change itself prints nothing. */
    char *extra1 = set_threads(e, 1);
    eng_send(e, "position startpos moves e2e4");
    check_bestmove(e, search(e, "go depth 5", 20000, NULL), NULL, "e2e4");
    char *extra2 = set_threads(e, 2);
    check_bestmove(e, search(e, "go depth 6", 20000, NULL), NULL, "e2e4");
    CHECK(e, !extra1, "'setoption name Threads value 1' after a search printed '%s' without any go",
          extra1);
    CHECK(e, !extra2, "'setoption name Threads value 2' after a search printed '%s' without any go",
          extra2);
    eng_quit(e);
}

/* The largest table the machine can give is three quarters of its memory,
 * asked for twice here: the release build maps it lazily, but the
 * sanitizer's allocator writes all of its shadow (18 s for 18 GB seen, each
 * time), so `make sanitize` skips that part (ROKADE_SKIP=huge-hash). */
Test(uci, hash_sizes)
{
    harness_set_waits((HarnessWaits){.send = 20000, .ready = 120000, .reply = 5000, .quit = 5000});
    Engine *e = eng_start();
    expect_no_error(e, "setoption name Hash value 64");
    eng_send(e, "position fen %s", KIWIPETE);
    check_bestmove(e, search(e, "go depth 6", 20000, NULL), KIWIPETE, NULL);
    if (!harness_skip_huge_hash()) {
        expect_error(e, "setoption name Hash value 33554432", "Hash", NULL);
        check_bestmove(e, search(e, "go depth 5", 20000, NULL), KIWIPETE, NULL);
        expect_error(e, "setoption name Hash value 99999999999", "set to 33554432", NULL);
    }
    expect_no_error(e, "setoption name Hash value 1");
    check_bestmove(e, search(e, "go depth 5", 20000, NULL), KIWIPETE, NULL);
    expect_no_error(e, "setoption name Clear Hash");
    check_bestmove(e, search(e, "go depth 4", 20000, NULL), KIWIPETE, NULL);
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* d                                                                        */

Test(uci, d_shows_the_game_state)
{
    static const char *const Knights = "g1f3 g8f6 f3g1 f6g8";
    static const struct {
        const char *fen;
        int reps; /* times the knight dance is played from the start */
        const char *state, *checkers;
    } Cases[] = {
        {NULL, 0, "ongoing", "-"},
        {NULL, 2, "threefold", "-"},
        {NULL, 3, "threefold", "-"},
        {NULL, 4, "fivefold", "-"},
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 0, "checkmate", "h4"},
        {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0, "stalemate", "-"},
        {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", 0, "dead", "-"},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 150 100", 0, "75-move", "-"},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 100 100", 0, "50-move", "-"},
    };
    Engine *e = eng_start();
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        char cmd[512], moves[256] = "";
        for (int r = 0; r < Cases[i].reps; r++)
            snprintf(moves + strlen(moves), sizeof moves - strlen(moves), "%s%s", r ? " " : "",
                     Knights);
        if (Cases[i].fen)
            snprintf(cmd, sizeof cmd, "position fen %s", Cases[i].fen);
        else
            snprintf(cmd, sizeof cmd, "position startpos%s%s", *moves ? " moves " : "", moves);
        expect_no_error(e, cmd);
        char fen[128], state[128], want[128];
        eng_send(e, "d");
        const char *l = wait_for(e, "Fen: ", 10000);
        CHECK(e, l, "no Fen line");
        snprintf(fen, sizeof fen, "%s", l + 5);
        l = wait_for(e, "Checkers: ", 5000);
        CHECK(e, l && !strcmp(l + 10, Cases[i].checkers), "%s: checkers '%s', expected '%s'", cmd,
              l ? l + 10 : "(none)", Cases[i].checkers);
        l = wait_for(e, "State: ", 5000);
        CHECK(e, l, "no State line");
        snprintf(state, sizeof state, "%s", l + 7);
        CHECK(e, wait_for(e, "Legal moves", 5000), "no Legal moves line");
        CHECK(e, strstr(state, Cases[i].state), "%s: State '%s' does not say '%s'", cmd, state,
              Cases[i].state);
        if (!strcmp(Cases[i].state, "threefold") || !strcmp(Cases[i].state, "ongoing"))
            CHECK(e, !strstr(state, "fivefold"), "%s: State '%s'", cmd, state);
        lib_fen(Cases[i].fen, *moves ? moves : NULL, false, want, sizeof want);
        CHECK(e, !strcmp(fen, want), "%s: Fen '%s', expected '%s'", cmd, fen, want);
    }
    eng_quit(e);
}

/* Other commands of the README answer without errors. */
Test(uci, other_commands)
{
    Engine *e = eng_start();
    expect_no_error(e, "debug on");
    expect_no_error(e, "debug off");
    expect_error(e, "debug maybe", "debug", NULL);
    int mark = e->next;
    expect_no_error(e, "help");
    CHECK(e, e->next - mark > 3, "help printed %d lines", e->next - mark - 1);
    eng_send(e, "position fen %s", KIWIPETE);
    expect_no_error(e, "eval");
    expect_no_error(e, "ucinewgame");
    eng_send(e, "position fen %s", KIWIPETE);
    eng_send(e, "perft 2");
    const char *l = wait_for(e, "Nodes searched", 10000);
    CHECK(e, l && !strcmp(l, "Nodes searched: 2039"), "perft 2 of Kiwipete");
    eng_quit(e);
}

Test(uci, found_by_the_stress_script)
{
    Engine *e = eng_start();
    /* A tab (any whitespace) may stand before "moves" after a FEN. */
    eng_send(e, "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\tmoves e1e2");
    expect_fen(e, "4k3/8/8/8/8/8/4K3/8 b - - 1 1", "a tab before moves");
    eng_send(e, "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 \t moves\te1e2 \t e8d7");
    expect_fen(e, "8/3k4/8/8/8/8/4K3/8 w - - 2 2", "tabs and spaces around moves");

    /* Only the opponent's clock: said, searched until stop, and commands that
     * would wait for it are refused instead of blocking the input. */
    eng_send(e, "position startpos");
    int mark = e->next;
    eng_send(e, "go btime 100");
    CHECK(e, wait_for(e, "info string error: go: no wtime", 5000),
          "no note about the missing wtime");
    expect_error(e, "position startpos moves e2e4", "stop", NULL);
    drain(e, 200);
    CHECK(e, count_from(e, mark, "bestmove") == 0, "the search ended by itself");
    eng_send(e, "stop");
    check_bestmove(e, wait_for(e, "bestmove", 2000), NULL, NULL);
    settle(e);
    /* go mate N without a mate to find ends once a full-width search of
     * 2N-1 plies proves there is none, and says so. */
    eng_send(e, "position startpos");
    eng_send(e, "go mate 2");
    CHECK(e, wait_for(e, "info string no mate in 2", 5000), "go mate 2 from the start: no note");
    check_bestmove(e, wait_for(e, "bestmove", 5000), NULL, NULL);
    settle(e);
    expect_no_error(e, "position startpos moves e2e4");
    expect_fen(e, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "after stop");
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* Play levels                                                              */

/* bestmove (just the move) of `go` at the current settings, after a new game. */
static void level_move(Engine *e, const char *position, const char *go, char *mv, size_t n)
{
    eng_send(e, "ucinewgame");
    eng_send(e, "%s", position);
    const char *bm = search(e, go, 20000, NULL);
    CHECK(e, field(bm, "bestmove", mv, n), "no move in '%s'", bm);
}

Test(uci, play_level_options_parse_and_clamp)
{
    Engine *e = eng_start();
    expect_error(e, "setoption name Skill Level value 25", "set to 20", NULL);
    expect_error(e, "setoption name Skill Level value -3", "set to 0", NULL);
    expect_error(e, "setoption name Skill Level value weak", "not a number", NULL);
    expect_error(e, "setoption name UCI_Elo value 500", "set to 1000", NULL);
    expect_error(e, "setoption name UCI_Elo value 3500", "set to 2800", NULL);
    expect_error(e, "setoption name UCI_LimitStrength value maybe", "true or false", NULL);
    expect_error(e, "setoption name Skill Seed value -1", "set to 0", NULL);
    expect_no_error(e, "setoption name Skill Level value 7");
    expect_no_error(e, "setoption name UCI_LimitStrength value true");
    expect_no_error(e, "setoption name UCI_Elo value 1350");
    expect_no_error(e, "setoption name Skill Seed value 99");
    eng_quit(e);
}

Test(uci, play_levels_are_capped_and_repeatable)
{
    static const char *const Pos = "position startpos moves e2e4 e7e5 g1f3";
    Engine *e = eng_start();
    /* Level 0 searches one ply (plus quiescence) whatever depth is asked. */
    expect_no_error(e, "setoption name Skill Level value 0");
    int mark;
    eng_send(e, "%s", Pos);
    const char *bm = search(e, "go depth 20", 10000, &mark);
    check_bestmove(e, bm, NULL, "e2e4 e7e5 g1f3");
    const char *info = last_info(e, mark, e->next);
    CHECK(e, info && field_num(info, "depth", -1) == 1, "level 0 searched deeper than 1: %s",
          info ? info : "(no info)");

    /* The same seed gives the same moves; different seeds vary them. */
    expect_no_error(e, "setoption name Skill Level value 3");
    char first[10][8];
    int distinct = 0;
    for (int seed = 1; seed <= 10; seed++) {
        char a[8] = "", b[8] = "";
        eng_send(e, "setoption name Skill Seed value %d", seed);
        level_move(e, Pos, "go wtime 2000 btime 2000", a, sizeof a);
        level_move(e, Pos, "go wtime 2000 btime 2000", b, sizeof b);
        CHECK(e, !strcmp(a, b), "seed %d: %s then %s", seed, a, b);
        snprintf(first[seed - 1], sizeof first[0], "%s", a);
        int seen = 0;
        for (int k = 0; k < seed - 1; k++)
            seen |= !strcmp(first[k], a);
        distinct += !seen;
    }
    CHECK(e, distinct >= 2, "ten seeds at level 3 all chose %s", first[0]);

    /* A level never hands back a mate in one it has. */
    eng_send(e, "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    bm = search(e, "go wtime 2000 btime 2000", 10000, NULL);
    CHECK(e, bm && !strncmp(bm, "bestmove d1d8", 13), "level 3 missed the mate in one: %s", bm);

    /* UCI_Elo takes effect only with UCI_LimitStrength, and then wins over
     * Skill Level: at the top Elo the level is no longer capped at depth 1. */
    expect_no_error(e, "setoption name Skill Level value 0");
    expect_no_error(e, "setoption name UCI_Elo value 2800");
    expect_no_error(e, "setoption name UCI_LimitStrength value true");
    eng_send(e, "%s", Pos);
    search(e, "go depth 6", 20000, &mark);
    info = last_info(e, mark, e->next);
    CHECK(e, info && field_num(info, "depth", -1) == 6, "UCI_Elo 2800 did not reach depth 6: %s",
          info ? info : "(no info)");
    eng_quit(e);
}

Test(uci, full_strength_is_unchanged_by_level_options)
{
    /* Skill Level 20 without UCI_LimitStrength is the full engine: the same
     * node count for the same search as with the options never touched, and
     * bench runs at full strength whatever the level. */
    Engine *e = eng_start();
    int mark;
    eng_send(e, "position startpos moves d2d4");
    search(e, "go depth 9", 20000, &mark);
    long long full = field_num(last_info(e, mark, e->next), "nodes", -1);
    eng_send(e, "bench 6");
    const char *l = wait_for(e, "Nodes searched", 60000);
    long long bench_full = l ? strtoll(strchr(l, ':') + 1, NULL, 10) : -1;

    eng_send(e, "setoption name UCI_Elo value 1200");
    eng_send(e, "setoption name Skill Level value 3");
    eng_send(e, "ucinewgame");
    eng_send(e, "bench 6");
    l = wait_for(e, "Nodes searched", 60000);
    long long bench_level = l ? strtoll(strchr(l, ':') + 1, NULL, 10) : -2;
    CHECK(e, bench_full > 0 && bench_full == bench_level,
          "bench %lld at full strength, %lld at level 3", bench_full, bench_level);

    eng_send(e, "setoption name Skill Level value 20");
    eng_send(e, "ucinewgame");
    eng_send(e, "position startpos moves d2d4");
    search(e, "go depth 9", 20000, &mark);
    long long again = field_num(last_info(e, mark, e->next), "nodes", -1);
    CHECK(e, full > 0 && full == again, "depth 9: %lld nodes before, %lld at Skill Level 20", full,
          again);
    eng_quit(e);
}

/* ------------------------------------------------------------------------ */
/* What real clients tripped over                                           */

/* The last `info ... pv` line of lines [from, to): its first pv move. */
static void last_pv_move(const Engine *e, int from, int to, char *mv, size_t n)
{
    mv[0] = '\0';
    for (int i = from; i < to; i++)
        if (is_pv_info(e->lines[i]))
            field(e->lines[i], "pv", mv, n);
}

/* fastchess warns when bestmove is not the first move of the last PV. */
Test(uci, bestmove_is_the_first_move_of_the_last_pv)
{
    static const char *const Positions[] = {
        "startpos",
        "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 3 9",
        "fen 8/2k5/8/2P5/3K4/8/8/8 w - - 0 1",
        "fen 5rk1/5ppp/5n2/3N3Q/8/3B4/8/6K1 w - - 0 1",
    };
    static const char *const Gos[] = {"go nodes 1",     "go nodes 10",          "go nodes 300",
                                      "go depth 1",     "go depth 4",           "go movetime 5",
                                      "go movetime 30", "go wtime 60 btime 60", "go nodes 4000"};
    Engine *e = eng_start();
    for (size_t p = 0; p < sizeof Positions / sizeof *Positions; p++)
        for (size_t g = 0; g < sizeof Gos / sizeof *Gos; g++) {
            eng_send(e, "position %s", Positions[p]);
            int mark;
            const char *bm = search(e, Gos[g], 10000, &mark);
            char best[16] = "", pv[16];
            field(bm, "bestmove", best, sizeof best);
            last_pv_move(e, mark, e->next, pv, sizeof pv);
            CHECK(e, *pv, "%s, '%s': no info line with a pv before bestmove", Positions[p], Gos[g]);
            CHECK(e, !strcmp(pv, best), "%s, '%s': bestmove %s, last pv starts with %s",
                  Positions[p], Gos[g], best, pv);
        }
    /* A stop right after go still gives a line with a pv first. */
    for (int i = 0; i < 10; i++) {
        eng_send(e, "position fen %s", KIWIPETE);
        sync_ready(e);
        int mark = e->next;
        eng_send(e, i % 2 ? "go infinite" : "go wtime 100000 btime 100000");
        eng_send(e, "stop");
        const char *bm = wait_for(e, "bestmove", 5000);
        CHECK(e, bm, "no bestmove after go and stop");
        char best[16] = "", pv[16];
        field(bm, "bestmove", best, sizeof best);
        last_pv_move(e, mark, e->next, pv, sizeof pv);
        CHECK(e, *pv && !strcmp(pv, best), "go then stop: bestmove %s, last pv starts with '%s'",
              best, pv);
    }
    /* Two threads: the move may come from a helper; the line still leads. */
    expect_no_error(e, "setoption name Threads value 2");
    for (int i = 0; i < 6; i++) {
        eng_send(e, "position fen %s", KIWIPETE);
        int mark;
        const char *bm = search(e, i % 2 ? "go movetime 40" : "go nodes 20000", 10000, &mark);
        char best[16] = "", pv[16];
        field(bm, "bestmove", best, sizeof best);
        last_pv_move(e, mark, e->next, pv, sizeof pv);
        CHECK(e, *pv && !strcmp(pv, best), "2 threads: bestmove %s, last pv starts with '%s'", best,
              pv);
    }
    eng_quit(e);
}

/* The time spent pondering counts: info time runs from the start of the
 * ponder search, and after a long ponder the move comes at once. */
Test(uci, ponderhit_counts_the_time_spent_pondering)
{
    Engine *e = eng_start();
    eng_send(e, "setoption name Ponder value true");
    eng_send(e, "position startpos moves e2e4 e7e5");
    sync_ready(e);
    int mark = e->next;
    /* 10 s on the clock: about a quarter second a move. */
    eng_send(e, "go ponder wtime 10000 btime 10000 winc 0 binc 0");
    CHECK(e, wait_for(e, "info depth", 10000), "no info line after go ponder");
    drain(e, 1500);
    int hit = e->next;
    int64_t t0 = now_ms();
    eng_send(e, "ponderhit");
    const char *bm = wait_for(e, "bestmove", 5000);
    CHECK(e, bm, "no bestmove after ponderhit");
    int64_t after = now_ms() - t0;
    CHECK(e, after < 400,
          "bestmove %lld ms after ponderhit, after 1.5 s of pondering on a move "
          "worth about 0.25 s",
          (long long)after);
    long long last_time = -1, nodes = 0;
    for (int i = hit; i < e->next; i++)
        if (is_pv_info(e->lines[i])) {
            last_time = field_num(e->lines[i], "time", -1);
            nodes = field_num(e->lines[i], "nodes", 0);
        }
    if (last_time >= 0) {
        CHECK(e, last_time >= 1400, "info time %lld after 1.5 s of pondering: the clock restarted",
              last_time);
        CHECK(e, nodes / (last_time + 1) < 50000, "%lld nodes in %lld ms: nps is not believable",
              nodes, last_time);
    }
    CHECK(e, count_from(e, mark, "bestmove") == 1, "one bestmove");
    eng_quit(e);
}

/* Small truths in info lines. */
Test(uci, info_lines_tell_the_truth)
{
    Engine *e = eng_start();
    /* No speed without time to measure it by. */
    eng_send(e, "position startpos");
    int mark;
    search(e, "go depth 3", 10000, &mark);
    for (int i = mark; i < e->next; i++)
        if (is_pv_info(e->lines[i]) && field_num(e->lines[i], "time", -1) == 0)
            CHECK(e, !strstr(e->lines[i], " nps "), "nps at time 0: %s", e->lines[i]);
    eng_send(e, "perft 1");
    const char *l = wait_for(e, "info string perft 1:", 5000);
    CHECK(e, l && !strstr(l, "0.000 s") && (!strstr(l, "nodes/s") || !strstr(l, " 0 s")),
          "perft 1: %s", l ? l : "no summary line");
    /* A dead position is a certain draw. */
    expect_no_error(e, "setoption name UCI_ShowWDL value true");
    eng_send(e, "position fen 8/8/4k3/8/8/3K4/8/8 w - - 0 1");
    search(e, "go depth 4", 10000, &mark);
    int lines = 0;
    for (int i = mark; i < e->next; i++)
        if (is_pv_info(e->lines[i])) {
            lines++;
            CHECK(e, strstr(e->lines[i], " wdl 0 1000 0 "), "K v K: %s", e->lines[i]);
        }
    CHECK(e, lines > 0, "K v K: no info lines");
    expect_no_error(e, "setoption name UCI_ShowWDL value false");
    /* A mate found at depth 1 shows the whole line to the mate, also when
     * the table found it (a second search of the same position). */
    static const char *const Mate2 = "5rk1/5ppp/5n2/3N3Q/8/3B4/8/6K1 w - - 0 1";
    eng_send(e, "position fen %s", Mate2);
    for (int round = 0; round < 3; round++) {
        search(e, round == 2 ? "go depth 3" : "go depth 1", 10000, &mark);
        for (int i = mark; i < e->next; i++) {
            const char *x = e->lines[i];
            if (!is_pv_info(x) || !strstr(x, " score mate 2 "))
                continue;
            const char *pv = strstr(x, " pv ");
            int moves = 0;
            for (const char *c = pv; c && *c; c++)
                moves += *c == ' ';
            CHECK(e, moves - 1 == 3, "mate 2 with a pv of %d moves: %s", moves - 1, x);
        }
    }
    eng_quit(e);
}

/* A client that charges more than the engine took (a slow GUI, a busy
 * machine): the engine learns the delay from the clocks of consecutive
 * moves and keeps it back from then on (said under debug on). */
Test(uci, learns_the_delay_of_the_client)
{
    Engine *e = eng_start();
    expect_no_error(e, "debug on");
    eng_send(e, "position startpos");
    sync_ready(e);
    int64_t t0 = now_ms();
    const char *bm = search(e, "go wtime 20000 btime 20000 winc 100 binc 100", 10000, NULL);
    int64_t took = now_ms() - t0;
    char mv[16] = "", reply[8], cmd[128];
    field(bm, "bestmove", mv, sizeof mv);
    Position *p = lib_pos(NULL, mv, false);
    MoveList list;
    gen_legal(p, &list);
    move_to_uci(p, list.moves[0], reply);
    free(p);
    /* The client charges 400 ms more than the move took as seen here (a
     * little longer than the engine itself sees it). */
    eng_send(e, "position startpos moves %s %s", mv, reply);
    snprintf(cmd, sizeof cmd, "go wtime %lld btime 20000 winc 100 binc 100",
             (long long)(20000 + 100 - took - 400));
    int mark;
    search(e, cmd, 10000, &mark);
    const char *said = NULL;
    for (int i = mark; i < e->next; i++)
        if (starts(e->lines[i], "info string debug: the client charged"))
            said = e->lines[i];
    CHECK(e, said, "no word of the client's delay under debug on");
    const char *k = strstr(said, "delay kept back: ");
    long long lag = k ? strtoll(k + 17, NULL, 10) : -1;
    CHECK(e, lag >= 390 && lag <= 600, "a delay of 400 ms learned as %lld ms: %s", lag, said);
    /* A new game forgets it. */
    expect_no_error(e, "ucinewgame");
    eng_send(e, "position startpos");
    search(e, "go wtime 20000 btime 20000 winc 100 binc 100", 10000, &mark);
    CHECK(e, count_from(e, mark, "info string debug: the client charged") == 0,
          "a delay measured across games");
    eng_quit(e);
}
