/* The UCI front end: reads commands, keeps the game position, and answers.
 * Every command is a row of one table (Commands, below) and every option a
 * row of another (options.c); the state they change is the one Engine
 * instance (engine.h). All output goes through uci_print, one whole flushed
 * line at a time. */
#include "uci.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../bench/bench.h"
#include "../eval/eval.h"
#include "../eval/nnue/nnue.h"
#include "../eval/syzygy/tbprobe.h"
#include "../eval/wdl.h"
#include "../movegen/attacks.h"
#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../movegen/util.h"
#include "../perft/perft.h"
#include "../search/search.h"
#include "cpu.h"
#include "datagen.h"
#include "engine.h"
#include "options.h"
#include "review.h"

/* The only file-scope state of the front end: the lock that keeps the
 * lines of the search threads and of the loop whole, and the one engine
 * instance the loop drives. */
static pthread_mutex_t OutLock = PTHREAD_MUTEX_INITIALIZER;
static Engine Uci;
static void (*Output)(const char *line); /* NULL: stdout */

void uci_set_output(void (*out)(const char *line)) { Output = out; }

void uci_print(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&OutLock);
    va_start(ap, fmt);
    if (Output) {
        /* Most lines fit in `small`; a longer one is printed again in full. */
        char small[512], *big = NULL;
        va_list again;
        va_copy(again, ap);
        int n = vsnprintf(small, sizeof small, fmt, ap);
        if (n >= (int)sizeof small && (big = malloc((size_t)n + 1)))
            vsnprintf(big, (size_t)n + 1, fmt, again);
        va_end(again);
        if (n >= 0)
            Output(big ? big : small); /* out of memory: the line cut short */
        free(big);
    } else {
        vfprintf(stdout, fmt, ap);
        fputc('\n', stdout);
        fflush(stdout);
    }
    va_end(ap);
    pthread_mutex_unlock(&OutLock);
}

static void print_line(const char *line) { uci_print("%s", line); }
static void print_line_ctx(void *ctx, const char *line) { (void)ctx, print_line(line); }

/* ------------------------------------------------------------------------ */
/* position                                                                 */

/* Refuses a `position` command: says why, keeps the old position, and
 * remembers the reason for the `go` that may follow. */
static void position_refused(Engine *e, const char *fmt, ...) PLAT_PRINTF(2, 3);
static void position_refused(Engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->position_error, sizeof e->position_error, fmt, ap);
    va_end(ap);
    uci_print("info string error: %s (position unchanged)", e->position_error);
}

static void cmd_position(Engine *e, Tokens *t)
{
    char word[64];
    Position *next = malloc(sizeof *next);
    if (!next) {
        position_refused(e, "out of memory");
        return;
    }
    char err[200];
    if (!tok_next(t, word, sizeof word)) {
        position_refused(e, "position needs 'startpos' or 'fen <fen>'");
        free(next);
        return;
    }
    const char *rest;
    if (!strcmp(word, "startpos")) {
        pos_set_fen(next, START_FEN, e->chess960, err, sizeof err);
        rest = tok_rest(t);
    } else if (!strcmp(word, "fen")) {
        const char *fen = tok_rest(t);
        /* The FEN ends before a word "moves" (after any whitespace). */
        const char *mv = NULL;
        for (const char *q = strstr(fen, "moves"); q && !mv; q = strstr(q + 1, "moves"))
            if (q > fen && isspace((unsigned char)q[-1]) && (!q[5] || isspace((unsigned char)q[5])))
                mv = q;
        size_t len = mv ? (size_t)(mv - fen) : strlen(fen);
        char *fenbuf = malloc(len + 1);
        if (!fenbuf) {
            free(next);
            position_refused(e, "out of memory");
            return;
        }
        memcpy(fenbuf, fen, len);
        fenbuf[len] = '\0';
        bool ok = pos_set_fen(next, fenbuf, e->chess960, err, sizeof err);
        free(fenbuf);
        if (!ok) {
            position_refused(e, "bad FEN: %s", err);
            free(next);
            return;
        }
        t->p = fen + len;
        rest = tok_rest(t);
    } else {
        position_refused(e, "position needs 'startpos' or 'fen <fen>', not '%s'", word);
        free(next);
        return;
    }
    Tokens mt = {rest};
    if (tok_next(&mt, word, sizeof word)) {
        if (strcmp(word, "moves") != 0) {
            position_refused(e, "expected 'moves' after the position, got '%s'", word);
            free(next);
            return;
        }
        int index = 0;
        while (tok_next(&mt, word, sizeof word)) {
            index++;
            move_t m = move_from_uci(next, word);
            if (m == MOVE_NONE) {
                position_refused(e, "move %d '%s' is illegal or unreadable", index, word);
                free(next);
                return;
            }
            pos_make_game_move(next, m);
        }
    }
    memcpy(&e->root, next, sizeof e->root);
    e->position_error[0] = '\0';
    free(next);
}

/* ------------------------------------------------------------------------ */
/* Display                                                                  */

static void cmd_display(Engine *e, Tokens *t)
{
    (void)t;
    static const char Pc[] = " PNBRQK  pnbrqk";
    char line[128], fen[128];
    uci_print(" +---+---+---+---+---+---+---+---+");
    for (int r = 7; r >= 0; r--) {
        int o = 0;
        for (int f = 0; f < 8; f++)
            o += snprintf(line + o, sizeof line - (size_t)o, " | %c",
                          Pc[e->root.board[make_square(f, r)]]);
        uci_print("%s | %d", line, r + 1);
        uci_print(" +---+---+---+---+---+---+---+---+");
    }
    uci_print("   a   b   c   d   e   f   g   h");
    pos_get_fen(&e->root, fen, sizeof fen);
    uci_print("Fen: %s", fen);
    uci_print("Key: %016llX", (unsigned long long)pos_key(&e->root));
    bitboard_t ch = pos_checkers(&e->root);
    int o = 0;
    line[0] = '\0';
    while (ch) {
        int sq = pop_lsb(&ch);
        o += snprintf(line + o, sizeof line - (size_t)o, "%s%c%c", o ? " " : "", 'a' + file_of(sq),
                      '1' + rank_of(sq));
    }
    uci_print("Checkers: %s", o ? line : "-");
    uci_print("State: %s", game_state_text(pos_game_state(&e->root)));
    /* The tablebases' verdict, when they have the position (the probes
     * leave it as it was). */
    int wdl, dtz;
    if (tb_probe_wdl(&e->root, &wdl)) {
        static const char *const Wdl[5] = {"loss", "blessed loss", "draw", "cursed win", "win"};
        if (tb_probe_dtz(&e->root, &dtz))
            uci_print("Tablebase: WDL %d (%s), DTZ %d", wdl, Wdl[wdl + 2], dtz);
        else
            uci_print("Tablebase: WDL %d (%s), DTZ -", wdl, Wdl[wdl + 2]);
    }
    MoveList list;
    gen_legal(&e->root, &list);
    char *buf = malloc((size_t)list.count * 12 + 32);
    if (buf) {
        size_t n = 0;
        buf[0] = '\0';
        for (int i = 0; i < list.count; i++) {
            char san[16];
            move_to_san(&e->root, list.moves[i], san);
            n += (size_t)sprintf(buf + n, "%s%s", i ? " " : "", san);
        }
        uci_print("Legal moves (%d): %s", list.count, list.count ? buf : "-");
        free(buf);
    }
}

/* ------------------------------------------------------------------------ */
/* perft                                                                    */

static void run_perft(Engine *e, const Position *pos, int depth)
{
    int64_t t0 = now_ms();
    uint64_t n = perft_divide(pos, depth, search_threads(e->search), print_line_ctx, NULL);
    int64_t ms = now_ms() - t0;
    /* A speed only when there was time enough to measure it by. */
    if (ms > 0)
        uci_print("info string perft %d: %llu nodes in %.3f s, %llu nodes/s", depth,
                  (unsigned long long)n, (double)ms / 1000.0,
                  (unsigned long long)(n * 1000 / (uint64_t)ms));
    else
        uci_print("info string perft %d: %llu nodes in under a millisecond", depth,
                  (unsigned long long)n);
}

/* "perft N [FEN]" from the shell or the loop. */
static void cmd_perft(Engine *e, Tokens *t)
{
    char word[32];
    long long d;
    if (!tok_next(t, word, sizeof word) || !parse_int(word, 1, 20, &d)) {
        uci_print("info string error: perft needs a depth from 1 to 20");
        return;
    }
    const char *fen = tok_rest(t);
    if (*fen) {
        Position *p = malloc(sizeof *p);
        char err[200];
        if (!p)
            return;
        if (pos_set_fen(p, fen, e->chess960, err, sizeof err))
            run_perft(e, p, (int)d);
        else
            uci_print("info string error: bad FEN: %s", err);
        free(p);
    } else
        run_perft(e, &e->root, (int)d);
}

static void cmd_perftsuite(Engine *e, Tokens *t)
{
    char path[1024], word[32];
    long long d = 5;
    bool c960 = e->chess960;
    if (!tok_next(t, path, sizeof path)) {
        uci_print(
            "info string error: perftsuite needs a file: perftsuite FILE [maxdepth] [chess960]");
        return;
    }
    while (tok_next(t, word, sizeof word)) {
        if (!strcmp(word, "chess960"))
            c960 = true;
        else if (!parse_int(word, 1, 20, &d)) {
            uci_print("info string error: perftsuite: '%s' is not a depth from 1 to 20", word);
            return;
        }
    }
    int r = perft_suite(path, (int)d, c960, search_threads(e->search), stdout);
    if (r < 0)
        uci_print("info string error: cannot read '%s'", path);
    else
        uci_print("%s", r == 0 ? "perftsuite: PASS" : "perftsuite: FAIL");
}

/* ------------------------------------------------------------------------ */
/* go                                                                       */

static bool is_go_keyword(const char *w)
{
    static const char *const Keys[] = {"searchmoves", "ponder",    "wtime", "btime", "winc",
                                       "binc",        "movestogo", "depth", "nodes", "mate",
                                       "movetime",    "infinite",  "perft", NULL};
    for (int i = 0; Keys[i]; i++)
        if (!strcmp(w, Keys[i]))
            return true;
    return false;
}

enum { LAG_MAX_MS = 1000 };

/* Sets the clock's safety margins for this `go`. The overhead: Move
 * Overhead plus the client's delay, learned from two `go`s in a row of one
 * game with our clock (the second two plies after the first), fading by an
 * eighth a move when it is not seen again. The reserve on a low clock: twice
 * the longest recent wait of a search for a core, once one of 10 ms or more
 * has been seen. */
static void clock_margins(Engine *e, SearchLimits *lim)
{
    const int us = e->root.side;
    const int64_t time = lim->clock.time[us], inc = lim->clock.inc[us] > 0 ? lim->clock.inc[us] : 0;
    if (e->last_go.valid && time >= 0 && e->last_go.side == us
        && e->root.game_ply == e->last_go.game_ply + 2
        && e->report.bestmove_at >= e->last_go.started) {
        int64_t charged = e->last_go.time - time + e->last_go.inc;
        int64_t took = e->report.bestmove_at - e->last_go.started;
        int64_t lag = charged - took;
        lag = lag < 0 ? 0 : lag > LAG_MAX_MS ? LAG_MAX_MS : lag;
        e->lag_ms = lag > e->lag_ms ? (int)lag : e->lag_ms - e->lag_ms / 8;
        if (e->debug)
            uci_print("info string debug: the client charged %lld ms for a move of %lld ms; "
                      "delay kept back: %d ms",
                      (long long)charged, (long long)took, e->lag_ms);
    }
    /* The last search's wait for a core, when it had our clock. */
    if (e->last_go.valid && e->report.bestmove_at >= e->last_go.started) {
        int64_t wall = e->report.bestmove_at - e->last_go.started;
        int64_t cpu = e->report.bestmove_cpu - e->last_go.started_cpu;
        int cores = cpu_count();
        int busy = search_threads(e->search);
        busy = busy > cores ? cores : busy;
        int64_t stall = wall - cpu / busy;
        stall = stall < 0 ? 0 : stall > LAG_MAX_MS ? LAG_MAX_MS : stall;
        /* A busy machine stays busy for a while: what was seen halves every
         * minute, across games. */
        int64_t now = now_ms();
        for (int64_t t = e->stall_at; t + 60000 <= now; t += 60000)
            e->stall_ms /= 2;
        if (now - e->stall_at >= 60000)
            e->stall_at = now - (now - e->stall_at) % 60000;
        if (stall >= e->stall_ms) {
            e->stall_ms = (int)stall;
            e->stall_at = now;
        }
        if (e->debug && stall > 0)
            uci_print("info string debug: the last search waited %lld ms for a core; reserve "
                      "on a low clock: %d ms",
                      (long long)stall, 2 * e->stall_ms);
    }
    e->last_go.valid = time >= 0 && !lim->ponder && !lim->clock.movetime;
    e->last_go.side = us;
    e->last_go.game_ply = e->root.game_ply;
    e->last_go.time = time;
    e->last_go.inc = inc;
    e->last_go.started = now_ms();
    e->last_go.started_cpu = cpu_ms();
    lim->clock.overhead = e->move_overhead + e->lag_ms;
    /* A few milliseconds of waiting are the scheduler's ordinary noise. */
    lim->clock.reserve = e->stall_ms >= 10 ? 2 * e->stall_ms : 0;
}

/* `go`. An unknown word is ignored with a note, and so are the values that
 * follow it (up to the next known word), as the UCI protocol asks. A known
 * word with a malformed value (or `go mate 0`) is an error: the rest of the
 * line is read only for `ponder` and `infinite`, and the search becomes a
 * one-ply one, so that a bestmove still answers and no client waits. */
static void cmd_go(Engine *e, Tokens *t)
{
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.clock.time[0] = lim.clock.time[1] = -1;
    lim.clock.inc[0] = lim.clock.inc[1] = -1;
    char word[64];
    bool malformed = false;
    bool have_word = tok_next(t, word, sizeof word);
    while (have_word) {
        if (!strcmp(word, "infinite"))
            lim.infinite = true;
        else if (!strcmp(word, "ponder"))
            lim.ponder = true;
        else if (malformed)
            ; /* after an error only ponder and infinite count */
        else if (!strcmp(word, "searchmoves")) {
            while ((have_word = tok_next(t, word, sizeof word)) && !is_go_keyword(word)) {
                move_t m = move_from_uci(&e->root, word);
                if (m == MOVE_NONE) {
                    uci_print("info string error: searchmoves: '%s' is not a legal move; "
                              "searching one ply instead",
                              word);
                    malformed = true;
                    break;
                }
                if (lim.searchmoves_count < MAX_MOVES)
                    lim.searchmoves[lim.searchmoves_count++] = m;
            }
            continue;
        } else if (is_go_keyword(word)) {
            char key[64], val[64] = "";
            snprintf(key, sizeof key, "%s", word);
            long long v, lo = !strcmp(key, "wtime") || !strcmp(key, "btime") ? LLONG_MIN : 0;
            long long hi = !strcmp(key, "perft")   ? 20
                           : !strcmp(key, "depth") ? 1000
                                                   : LLONG_MAX / 4;
            /* Saturating, so that a clock too negative for long long is still
             * just negative (treated as 0 below). */
            bool have_val = tok_next(t, val, sizeof val);
            if (!have_val || !parse_int_saturating(val, &v) || v < lo || v > hi) {
                if (!strcmp(key, "perft")) {
                    /* Not a search: nothing waits for a bestmove. */
                    uci_print("info string error: go perft needs a number from 1 to 20, got '%s' "
                              "(go ignored)",
                              val);
                    return;
                }
                uci_print("info string error: go %s needs a number >= 0, got '%s'; searching one "
                          "ply instead",
                          key, val);
                malformed = true;
                /* A known word in the place of the value is read as one. */
                if (have_val && (!strcmp(val, "ponder") || !strcmp(val, "infinite"))) {
                    snprintf(word, sizeof word, "%s", val);
                    continue;
                }
                have_word = tok_next(t, word, sizeof word);
                continue;
            }
            if (!strcmp(key, "perft")) {
                if (v < 1) {
                    uci_print("info string error: go perft needs a depth from 1 to 20");
                    return;
                }
                run_perft(e, &e->root, (int)v);
                return;
            }
            if (v < 0) {
                uci_print("info string error: go %s %lld is negative; treated as 0", key, v);
                v = 0;
            }
            if (!strcmp(key, "wtime"))
                lim.clock.time[WHITE] = v;
            else if (!strcmp(key, "btime"))
                lim.clock.time[BLACK] = v;
            else if (!strcmp(key, "winc"))
                lim.clock.inc[WHITE] = v;
            else if (!strcmp(key, "binc"))
                lim.clock.inc[BLACK] = v;
            else if (!strcmp(key, "movestogo"))
                lim.clock.movestogo = (int)(v > 1000 ? 1000 : v);
            else if (!strcmp(key, "depth"))
                lim.depth = (int)(v > MAX_PLY - 2 ? MAX_PLY - 2 : v < 1 ? 1 : v);
            else if (!strcmp(key, "nodes"))
                lim.nodes = (uint64_t)(v < 1 ? 1 : v);
            else if (!strcmp(key, "mate") && v == 0) {
                uci_print("info string error: go mate 0: a mate in 0 moves is nothing to search "
                          "for; searching one ply instead");
                malformed = true;
            } else if (!strcmp(key, "mate"))
                lim.mate = (int)(v > 120 ? 120 : v);
            else if (!strcmp(key, "movetime"))
                lim.clock.movetime = v < 1 ? 1 : v;
        } else {
            /* An unknown word and its values, up to the next known word. */
            char skipped[160];
            snprintf(skipped, sizeof skipped, "%s", word);
            while ((have_word = tok_next(t, word, sizeof word)) && !is_go_keyword(word)) {
                size_t len = strlen(skipped);
                if (len + strlen(word) + 2 < sizeof skipped)
                    snprintf(skipped + len, sizeof skipped - len, " %s", word);
            }
            uci_print("info string go: unknown word ignored: '%s'", skipped);
            continue;
        }
        have_word = tok_next(t, word, sizeof word);
    }
    if (malformed) {
        /* One ply of the position (and its searchmoves so far), on no clock;
         * ponder and infinite keep the bestmove for ponderhit or stop. */
        SearchLimits one = {.depth = 1, .infinite = lim.infinite, .ponder = lim.ponder};
        one.clock.time[0] = one.clock.time[1] = -1;
        one.clock.inc[0] = one.clock.inc[1] = -1;
        one.searchmoves_count = lim.searchmoves_count;
        memcpy(one.searchmoves, lim.searchmoves, sizeof lim.searchmoves);
        lim = one;
    }
    if (!lim.infinite && !lim.depth && !lim.nodes && !lim.clock.movetime
        && lim.clock.time[e->root.side] < 0 && lim.clock.time[!e->root.side] >= 0)
        uci_print("info string error: go: no %s for the side to move; searching until stop",
                  e->root.side == WHITE ? "wtime" : "btime");
    /* `go` alone searches until stopped, as `go infinite` does. */
    if (!lim.depth && !lim.nodes && !lim.mate && !lim.clock.movetime && lim.clock.time[WHITE] < 0
        && lim.clock.time[BLACK] < 0)
        lim.infinite = true;
    if (e->debug)
        uci_print("info string debug: go depth %d nodes %llu mate %d movetime %lld wtime %lld "
                  "btime %lld winc %lld binc %lld movestogo %d infinite %d ponder %d "
                  "searchmoves %d",
                  lim.depth, (unsigned long long)lim.nodes, lim.mate, (long long)lim.clock.movetime,
                  (long long)lim.clock.time[WHITE], (long long)lim.clock.time[BLACK],
                  (long long)lim.clock.inc[WHITE], (long long)lim.clock.inc[BLACK],
                  lim.clock.movestogo, lim.infinite, lim.ponder, lim.searchmoves_count);
    if (e->position_error[0]) {
        /* Not the old position: its move would be taken for one of the
         * position the client meant. */
        uci_print("info string error: go: the last position command was refused (%s); not "
                  "searching the position before it",
                  e->position_error);
        uci_print("bestmove 0000");
        return;
    }
    clock_margins(e, &lim);
    search_start(e->search, &e->root, &lim);
}

/* ------------------------------------------------------------------------ */
/* setoption                                                                */

static void cmd_setoption(Engine *e, Tokens *t)
{
    char word[256], name[256] = "", value[1024] = "";
    int mode = 0;
    while (tok_next(t, word, sizeof word)) {
        if (!strcmp(word, "name") && mode == 0)
            mode = 1;
        else if (!strcmp(word, "value") && mode == 1)
            mode = 2;
        else if (mode == 0) {
            uci_print("info string error: setoption: expected 'name', got '%s'", word);
            return;
        } else {
            char *dst = mode == 2 ? value : name;
            size_t cap = mode == 2 ? sizeof value : sizeof name;
            if (strlen(dst) + strlen(word) + 2 > cap) {
                uci_print("info string error: setoption: the %s is too long (at most %zu "
                          "characters; nothing changed)",
                          mode == 2 ? "value" : "name", cap - 2);
                return;
            }
            if (*dst)
                strcat(dst, " ");
            strcat(dst, word);
        }
    }
    if (!*name)
        uci_print("info string error: setoption needs 'name <option> [value <x>]'");
    else
        options_set(e, name, value);
}

/* ------------------------------------------------------------------------ */
/* Bench and datagen                                                        */

/* version: what this binary is, and which build suits this CPU best. */
static void cmd_version(Engine *e, Tokens *t)
{
    (void)e;
    (void)t;
#if defined(__clang__)
    const char *cc = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *cc = "gcc " __VERSION__;
#else
    const char *cc = "an unknown compiler";
#endif
    uci_print("Rokade %s for %s, level %s, built by %s", ROKADE_VERSION, plat_system_name(),
              cpu_build_arch, cc);
    char uses[600] = "";
    size_t len = 0;
    for (int i = 0; i < CPU_FEATURE_COUNT && len < sizeof uses; i++)
        if (cpu_build_needs & 1u << i)
            len += (size_t)snprintf(uses + len, sizeof uses - len, "%s%s", len ? " " : "",
                                    cpu_feature_name(1u << i));
#ifdef USE_PEXT
    const char *sliders = "PEXT";
#else
    const char *sliders = "magic bitboards";
#endif
    uci_print("  instructions: %s; net kernels: %s; sliders: %s", *uses ? uses : "baseline",
              nnue_simd_name(), sliders);
    const uint32_t have = cpu_features();
    if (have)
        uci_print("  this CPU: the %s build suits it best", cpu_best_level(have));
}

static void cmd_bench(Engine *e, Tokens *t)
{
    (void)e;
    char word[32];
    long long d = 0;
    if (tok_next(t, word, sizeof word) && !parse_int(word, 1, 64, &d)) {
        uci_print("info string error: bench: '%s' is not a depth from 1 to 64", word);
        return;
    }
    bench_run((int)d, e->net, print_line);
}

/* datagen with its arguments; "help" prints the usage. False with a message
 * in err. */
static bool run_datagen(const Engine *e, const char *args, char *err, size_t errlen)
{
    Tokens t = {args};
    char word[16];
    if (tok_next(&t, word, sizeof word) && !strcmp(word, "help") && !*tok_rest(&t)) {
        for (int i = 0; DatagenUsage[i]; i++)
            uci_print("%s", DatagenUsage[i]);
        return true;
    }
    DatagenOptions opt;
    if (!datagen_parse(args, &opt, err, errlen)) {
        size_t n = strlen(err);
        snprintf(err + n, errlen - n, " (see 'datagen help')");
        return false;
    }
    opt.net = e->net;
    return datagen_run(&opt, print_line, NULL, err, errlen);
}

static void cmd_datagen(Engine *e, Tokens *t)
{
    char err[1400];
    if (!run_datagen(e, tok_rest(t), err, sizeof err))
        uci_print("info string error: datagen: %s", err);
}

/* OpenBench's opening request: `genfens N seed S book <file|None> [extra]`. */
static void cmd_genfens(Engine *e, Tokens *t)
{
    char err[1400];
    if (!datagen_genfens(tok_rest(t), e->net, print_line, err, sizeof err))
        uci_print("info string error: genfens: %s", err);
}

/* ------------------------------------------------------------------------ */
/* The protocol's small commands                                            */

/* review: progress as info strings, the PGN to `out` or printed line by line. */
static void review_progress(void *ctx, const char *line)
{
    (void)ctx;
    uci_print("info string %s", line);
}

static void review_stderr(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

/* Runs a review for the loop (shell false) or the command line; false with
 * the message in err. The PGN goes to stdout (the loop's too: no search
 * prints meanwhile), or, when the loop's lines go elsewhere (the browser
 * page's worker), through a temporary file to those lines. */
static bool run_review(Engine *e, const char *args, bool shell, char *err, size_t errlen)
{
    ReviewOptions *opt = malloc(sizeof *opt);
    if (!opt) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = review_parse(args, opt, err, errlen);
    FILE *stream = stdout;
    if (ok && !shell && Output && !*opt->out && !(stream = tmpfile())) {
        snprintf(err, errlen, "cannot make a temporary file for the PGN: %s", strerror(errno));
        ok = false;
    }
    if (ok)
        ok = review_run(e->search, opt, stream, shell ? review_stderr : review_progress, NULL, err,
                        errlen)
             >= 0;
    if (stream && stream != stdout) {
        if (ok) {
            rewind(stream);
            char *line = NULL;
            size_t cap = 0;
            while (read_line(stream, &line, &cap) >= 0)
                uci_print("%s", line);
            free(line);
        }
        fclose(stream);
    }
    free(opt);
    return ok;
}

static void cmd_review(Engine *e, Tokens *t)
{
    char err[1400];
    if (!run_review(e, tok_rest(t), false, err, sizeof err))
        uci_print("info string error: review: %s", err);
}

static void cmd_uci(Engine *e, Tokens *t)
{
    (void)e;
    (void)t;
    uci_print("id name Rokade %s", ROKADE_VERSION);
    uci_print("id author the Rokade developers");
    options_print_uci();
    uci_print("uciok");
}

static void cmd_isready(Engine *e, Tokens *t)
{
    (void)e;
    (void)t;
    uci_print("readyok");
}

static void cmd_ucinewgame(Engine *e, Tokens *t)
{
    (void)e;
    (void)t;
    e->position_error[0] = '\0';
    e->last_go.valid = false;
    e->lag_ms = 0; /* the machine's stalls are kept: they are not the game's */
    search_new_game(e->search);
}

static void cmd_stop(Engine *e, Tokens *t)
{
    (void)e;
    (void)t;
    /* Clients send it when nothing runs, e.g. when leaving analysis: legal. */
    if (e->debug && !search_running(e->search))
        uci_print("info string debug: stop: no search is running");
    search_stop(e->search);
}

static void cmd_ponderhit(Engine *e, Tokens *t)
{
    (void)e;
    (void)t;
    if (e->debug && !search_is_unbounded(e->search))
        uci_print("info string debug: ponderhit: no ponder search is running");
    search_ponderhit(e->search);
}

static void cmd_quit(Engine *e, Tokens *t)
{
    (void)e;
    (void)t;
    search_stop(e->search);
    search_wait(e->search);
}

static void cmd_debug(Engine *e, Tokens *t)
{
    char w[16] = "";
    tok_next(t, w, sizeof w);
    if (!strcmp(w, "on") || !strcmp(w, "off"))
        e->debug = !strcmp(w, "on");
    else
        uci_print("info string error: debug takes on or off");
}

/* Accepted and ignored: nothing needs registering. */
static void cmd_register(Engine *e, Tokens *t)
{
    (void)e;
    (void)t;
}

static void cmd_eval(Engine *e, Tokens *t)
{
    (void)t;
    if (!e->net) {
        eval_trace(&e->root, print_line);
        return;
    }
    const Position *pos = &e->root;
    const int v = nnue_evaluate_scratch(e->net, pos);
    uci_print("Network evaluation: %d cp (side to move; EvalFile %s)", v, e->eval_file);
    uci_print("Network evaluation: %+.2f (white side)", (pos->side == WHITE ? v : -v) / 100.0);
    int known;
    const int strong = v > 0 ? pos->side : !pos->side;
    const int scale = eval_net_scale(pos, strong);
    const int scaled = v * scale / 64;
    if (eval_known(pos, &known))
        uci_print("The search scores this position %d cp (side to move): %s", known,
                  pos_is_dead(pos) ? "a dead position (5.2.2)"
                                   : "a won ending against a lone king (known win)");
    else {
        if (scale < 64)
            uci_print("Scaled by %d/64 (the side ahead has material that cannot win): %d cp", scale,
                      scaled);
        int mop = eval_mop_up(pos);
        if (mop != 0) {
            mop = pos->side == WHITE ? mop : -mop;
            uci_print("Mop-up: %+d cp (side to move; a pawnless ending a rook or more ahead, the "
                      "weaker king driven to the edge)",
                      mop);
        }
        if (scale < 64 || mop)
            uci_print("The search scores this position %d cp (side to move)", scaled + mop);
        known = scaled + mop;
    }
    /* What info lines would print for it: the WDL model's scale. */
    char sc[32], wdl[48];
    report_score(known, pos, sc, sizeof sc);
    report_wdl(known, pos, wdl, sizeof wdl);
    uci_print("Printed as score %s,%s (100 cp = a 50%% chance to win with %d material; "
              "eval/wdl.h)",
              sc, wdl, wdl_material(pos));
}

static void cmd_help(Engine *e, Tokens *t);

/* ------------------------------------------------------------------------ */
/* The command table                                                        */

typedef struct {
    const char *name;
    void (*run)(Engine *e, Tokens *args); /* args: the rest of the line */
    /* Answered at once, even while a search runs. The others wait for a
     * running finite search to end and are refused during an endless one
     * (infinite or ponder), which only `stop` or `ponderhit` ends. */
    bool at_once;
    const char *usage; /* for `help`: the command with its arguments */
    const char *help;  /* for `help`: what it does, one line */
} Command;

/* In the order `help` lists them: the UCI protocol, then Rokade's own. */
static const Command Commands[] = {
    {"uci", cmd_uci, true, "uci", "names the engine and lists the options, then uciok"},
    {"isready", cmd_isready, true, "isready", "readyok, at once, even during a search"},
    {"ucinewgame", cmd_ucinewgame, false, "ucinewgame", "clears the hash table and the histories"},
    {"position", cmd_position, false, "position startpos|fen <fen> [moves <m1> <m2> ...]",
     "sets the position; a bad FEN or an illegal move keeps the old one"},
    {"go", cmd_go, false,
     "go [wtime btime winc binc movestogo depth nodes mate movetime <n>] [infinite] [ponder] "
     "[searchmoves <m1> ...]",
     "searches the position; go perft <depth> runs perft divide instead"},
    {"stop", cmd_stop, true, "stop", "ends the search, which prints its bestmove"},
    {"ponderhit", cmd_ponderhit, true, "ponderhit",
     "the ponder move was played: the search goes on as a normal one"},
    {"setoption", cmd_setoption, false, "setoption name <name> [value <v>]",
     "sets an option (listed below)"},
    {"debug", cmd_debug, true, "debug on|off", "on: go also prints the limits it understood"},
    {"register", cmd_register, true, "register ...", "accepted and ignored"},
    {"quit", cmd_quit, true, "quit", "stops any search and exits"},
    {"d", cmd_display, false, "d", "the board, FEN, key, checkers, game state and legal moves"},
    {"eval", cmd_eval, false, "eval", "the static evaluation and its terms"},
    {"bench", cmd_bench, false, "bench [depth]",
     "fixed search of the bench positions (node signature)"},
    {"perft", cmd_perft, false, "perft <depth> [fen]",
     "perft divide of the current or given position"},
    {"perftsuite", cmd_perftsuite, false, "perftsuite <file> [maxdepth] [chess960]",
     "checks an EPD perft suite"},
    {"datagen", cmd_datagen, false,
     "datagen out <file> [games N] [nodes N] [format game|packed] ... | datagen relabel <in> "
     "out <file> [nodes N] | datagen pgn <in> out <file>",
     "self-play training data, a data file's games searched again, or an OpenBench PGN "
     "converted ('datagen help' for details)"},
    {"genfens", cmd_genfens, false, "genfens N seed S book <file|None> [frc P] [random N]",
     "N opening FENs for OpenBench's datagen, from the seed alone"},
    {"review", cmd_review, false,
     "review <file.pgn> [nodes N | depth N | movetime MS] [out <file>]",
     "each game checked move by move (engine and FIDE Laws), as annotated PGN"},
    {"version", cmd_version, true, "version",
     "the version, system and instruction-set level of this build, and the best for this CPU"},
    {"help", cmd_help, true, "help", "this text"},
};

enum { COMMAND_COUNT = (int)(sizeof Commands / sizeof Commands[0]) };

static void cmd_help(Engine *e, Tokens *t)
{
    (void)e;
    (void)t;
    uci_print("Rokade speaks UCI. Commands:");
    for (int i = 0; i < COMMAND_COUNT; i++) {
        const Command *c = &Commands[i];
        if (strlen(c->usage) <= 22)
            uci_print("  %-22s %s", c->usage, c->help);
        else {
            uci_print("  %s", c->usage);
            uci_print("  %-22s %s", "", c->help);
        }
    }
    uci_print("Options (names are case-insensitive; 'uci' gives types, defaults and ranges):");
    options_print_help();
}

int uci_shell_command(const char *line)
{
    Tokens t = {line};
    char cmd[64];
    if (tok_next(&t, cmd, sizeof cmd) && !strcmp(cmd, "datagen")) {
        char err[1400];
        if (run_datagen(&Uci, tok_rest(&t), err, sizeof err))
            return 0;
        fprintf(stderr, "rokade: datagen: %s\n", err);
        return 2;
    }
    if (!strcmp(cmd, "review")) {
        char err[1400];
        if (run_review(&Uci, tok_rest(&t), true, err, sizeof err))
            return 0;
        fprintf(stderr, "rokade: review: %s\n", err);
        return 2;
    }
    uci_command(line);
    return 0;
}

bool uci_command(const char *line)
{
    Tokens t = {line};
    char name[64];
    if (!tok_next(&t, name, sizeof name)) {
        uci_print("info string error: empty line (ignored)");
        return true;
    }
    const Command *c = NULL;
    for (int i = 0; i < COMMAND_COUNT && !c; i++)
        if (!strcmp(name, Commands[i].name))
            c = &Commands[i];
    if (!c) {
        uci_print("info string error: unknown command '%s' (try 'help')", name);
        return true;
    }
    if (!c->at_once) {
        if (search_is_unbounded(Uci.search)) {
            uci_print("info string error: '%s' ignored: a search is running (send stop first)",
                      name);
            return true;
        }
        search_wait(Uci.search);
    }
    c->run(&Uci, &t);
    return c->run != cmd_quit; /* the one command that ends the loop */
}

void uci_init(void)
{
    movegen_init();
    pos_set_startpos(&Uci.root);
    SearchReporter rep = report_callbacks(&Uci.report);
    if (!report_init(&Uci.report, print_line) || !(Uci.search = search_create(16, &rep))) {
        fprintf(stderr, "rokade: cannot allocate the hash table or start the search thread\n");
        exit(1);
    }
    options_init(&Uci);
}

void uci_loop(void)
{
    char *line = NULL;
    size_t cap = 0;
    while (read_line(stdin, &line, &cap) >= 0) {
        if (!uci_command(line)) {
            free(line);
            return;
        }
    }
    free(line);
    uci_finish();
}

void uci_finish(void)
{
    /* End of input: a finite search finishes and prints its bestmove; an
     * endless one is stopped. */
    if (search_is_unbounded(Uci.search))
        search_stop(Uci.search);
    search_wait(Uci.search);
}

const Position *uci_position(void) { return &Uci.root; }

void uci_shutdown(void)
{
    search_destroy(Uci.search);
    Uci.search = NULL;
    nnue_net_free(Uci.net);
    Uci.net = NULL;
    report_free(&Uci.report);
}
