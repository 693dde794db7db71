/* The UCI front end: reads commands, keeps the game position, and answers.
 * All output goes through uci_print, one whole flushed line at a time. */
#include "uci.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <time.h>

#include <unistd.h>

#include "../bench/bench.h"
#include "datagen.h"
#include "../eval/eval.h"
#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../perft/perft.h"
#include "../search/level.h"
#include "../search/search.h"
#include "../search/tt.h"

static pthread_mutex_t OutLock = PTHREAD_MUTEX_INITIALIZER;
static Position *Root;
static bool Chess960;
static bool Debug;
static int MoveOverhead = 20;
static bool Ponder;

void uci_print(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&OutLock);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
    pthread_mutex_unlock(&OutLock);
}

static void print_line(const char *line) { uci_print("%s", line); }
static void print_line_ctx(void *ctx, const char *line) { (void)ctx, print_line(line); }

/* ------------------------------------------------------------------------ */
/* Tokenizer                                                                */

typedef struct {
    const char *p;
} Tok;

/* Next whitespace-separated token into buf; false at the end. A token longer
 * than the buffer is truncated (and then never matches a keyword). */
static bool tok_next(Tok *t, char *buf, size_t len)
{
    while (*t->p && isspace((unsigned char)*t->p))
        t->p++;
    if (!*t->p)
        return false;
    size_t n = 0;
    while (*t->p && !isspace((unsigned char)*t->p)) {
        if (n + 1 < len)
            buf[n++] = *t->p;
        t->p++;
    }
    buf[n] = '\0';
    return true;
}

static const char *tok_rest(Tok *t)
{
    while (*t->p && isspace((unsigned char)*t->p))
        t->p++;
    return t->p;
}

static bool parse_int(const char *s, long long min, long long max, long long *out)
{
    char *end;
    if (!*s)
        return false;
    long long v = strtoll(s, &end, 10);
    if (*end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* ------------------------------------------------------------------------ */
/* position                                                                 */

static void cmd_position(Tok *t)
{
    char word[64];
    Position *next = malloc(sizeof *next);
    if (!next) {
        uci_print("info string error: out of memory");
        return;
    }
    char err[200];
    if (!tok_next(t, word, sizeof word)) {
        uci_print("info string error: position needs 'startpos' or 'fen <fen>'");
        free(next);
        return;
    }
    const char *rest;
    if (!strcmp(word, "startpos")) {
        pos_set_fen(next, START_FEN, Chess960, err, sizeof err);
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
            uci_print("info string error: out of memory");
            return;
        }
        memcpy(fenbuf, fen, len);
        fenbuf[len] = '\0';
        bool ok = pos_set_fen(next, fenbuf, Chess960, err, sizeof err);
        free(fenbuf);
        if (!ok) {
            uci_print("info string error: bad FEN: %s (position unchanged)", err);
            free(next);
            return;
        }
        t->p = fen + len;
        rest = tok_rest(t);
    } else {
        uci_print("info string error: position needs 'startpos' or 'fen <fen>', not '%s'", word);
        free(next);
        return;
    }
    Tok mt = {rest};
    if (tok_next(&mt, word, sizeof word)) {
        if (strcmp(word, "moves") != 0) {
            uci_print("info string error: expected 'moves' after the position, got '%s' "
                      "(position unchanged)", word);
            free(next);
            return;
        }
        int index = 0;
        while (tok_next(&mt, word, sizeof word)) {
            index++;
            move_t m = move_from_uci(next, word);
            if (m == MOVE_NONE) {
                uci_print("info string error: move %d '%s' is illegal or unreadable "
                          "(position unchanged)", index, word);
                free(next);
                return;
            }
            pos_make_game_move(next, m);
        }
    }
    memcpy(Root, next, sizeof *Root);
    free(next);
}

/* ------------------------------------------------------------------------ */
/* Display                                                                  */

static void cmd_display(void)
{
    static const char Pc[] = " PNBRQK  pnbrqk";
    char line[128], fen[128];
    uci_print(" +---+---+---+---+---+---+---+---+");
    for (int r = 7; r >= 0; r--) {
        int o = 0;
        for (int f = 0; f < 8; f++)
            o += snprintf(line + o, sizeof line - (size_t)o, " | %c",
                          Pc[Root->board[make_square(f, r)]]);
        uci_print("%s | %d", line, r + 1);
        uci_print(" +---+---+---+---+---+---+---+---+");
    }
    uci_print("   a   b   c   d   e   f   g   h");
    pos_get_fen(Root, fen, sizeof fen);
    uci_print("Fen: %s", fen);
    uci_print("Key: %016llX", (unsigned long long)pos_key(Root));
    bitboard_t ch = pos_checkers(Root);
    int o = 0;
    line[0] = '\0';
    while (ch) {
        int sq = pop_lsb(&ch);
        o += snprintf(line + o, sizeof line - (size_t)o, "%s%c%c", o ? " " : "",
                      'a' + file_of(sq), '1' + rank_of(sq));
    }
    uci_print("Checkers: %s", o ? line : "-");
    uci_print("State: %s", game_state_text(pos_game_state(Root)));
    MoveList list;
    gen_legal(Root, &list);
    char *buf = malloc((size_t)list.count * 12 + 32);
    if (buf) {
        size_t n = 0;
        buf[0] = '\0';
        for (int i = 0; i < list.count; i++) {
            char san[16];
            move_to_san(Root, list.moves[i], san);
            n += (size_t)sprintf(buf + n, "%s%s", i ? " " : "", san);
        }
        uci_print("Legal moves (%d): %s", list.count, list.count ? buf : "-");
        free(buf);
    }
}

/* ------------------------------------------------------------------------ */
/* perft                                                                    */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_perft(const Position *pos, int depth)
{
    double t0 = now_seconds();
    uint64_t n = perft_divide(pos, depth, search_options()->threads, print_line_ctx, NULL);
    double el = now_seconds() - t0;
    uci_print("info string perft %d: %llu nodes in %.3f s, %.0f nodes/s", depth,
              (unsigned long long)n, el, el > 0 ? (double)n / el : 0.0);
}

/* "perft N [FEN]" from the shell or the loop. */
static void cmd_perft(Tok *t)
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
        if (pos_set_fen(p, fen, Chess960, err, sizeof err))
            run_perft(p, (int)d);
        else
            uci_print("info string error: bad FEN: %s", err);
        free(p);
    } else
        run_perft(Root, (int)d);
}

static void cmd_perftsuite(Tok *t)
{
    char path[1024], word[32];
    long long d = 5;
    bool c960 = Chess960;
    if (!tok_next(t, path, sizeof path)) {
        uci_print("info string error: perftsuite needs a file: perftsuite FILE [maxdepth] [chess960]");
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
    int r = perft_suite(path, (int)d, c960, search_options()->threads, stdout);
    if (r < 0)
        uci_print("info string error: cannot read '%s'", path);
    else
        uci_print("%s", r == 0 ? "perftsuite: PASS" : "perftsuite: FAIL");
}

/* ------------------------------------------------------------------------ */
/* go                                                                       */

static bool is_go_keyword(const char *w)
{
    static const char *const Keys[] = {"searchmoves", "ponder", "wtime", "btime", "winc", "binc",
                                       "movestogo", "depth", "nodes", "mate", "movetime",
                                       "infinite", "perft", NULL};
    for (int i = 0; Keys[i]; i++)
        if (!strcmp(w, Keys[i]))
            return true;
    return false;
}

static void cmd_go(Tok *t)
{
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.clock.time[0] = lim.clock.time[1] = -1;
    lim.clock.inc[0] = lim.clock.inc[1] = -1;
    lim.clock.overhead = MoveOverhead;
    char word[64];
    bool have_word = tok_next(t, word, sizeof word);
    while (have_word) {
        if (!strcmp(word, "infinite"))
            lim.infinite = true;
        else if (!strcmp(word, "ponder"))
            lim.ponder = true;
        else if (!strcmp(word, "searchmoves")) {
            while ((have_word = tok_next(t, word, sizeof word)) && !is_go_keyword(word)) {
                move_t m = move_from_uci(Root, word);
                if (m == MOVE_NONE) {
                    uci_print("info string error: searchmoves: '%s' is not a legal move (go ignored)",
                              word);
                    return;
                }
                if (lim.searchmoves_count < MAX_MOVES)
                    lim.searchmoves[lim.searchmoves_count++] = m;
            }
            continue;
        } else if (is_go_keyword(word)) {
            char key[64], val[64] = "";
            snprintf(key, sizeof key, "%s", word);
            long long v, lo = !strcmp(key, "wtime") || !strcmp(key, "btime") ? LLONG_MIN : 0;
            long long hi = !strcmp(key, "perft") ? 20 : !strcmp(key, "depth") ? 1000 : LLONG_MAX / 4;
            if (!tok_next(t, val, sizeof val) || !parse_int(val, lo, hi, &v)) {
                uci_print("info string error: go %s needs a number%s, got '%s' (go ignored)", key,
                          !strcmp(key, "perft") ? " from 1 to 20" : " >= 0",
                          tok_rest(t) == t->p && !*val ? "" : val);
                return;
            }
            if (!strcmp(key, "perft")) {
                if (v < 1) {
                    uci_print("info string error: go perft needs a depth from 1 to 20");
                    return;
                }
                run_perft(Root, (int)v);
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
            else if (!strcmp(key, "mate"))
                lim.mate = (int)(v > 120 ? 120 : v < 1 ? 1 : v);
            else if (!strcmp(key, "movetime"))
                lim.clock.movetime = v < 1 ? 1 : v;
        } else {
            uci_print("info string error: go: unknown word '%s' (go ignored)", word);
            return;
        }
        have_word = tok_next(t, word, sizeof word);
    }
    if (!lim.infinite && !lim.depth && !lim.nodes && !lim.clock.movetime
        && lim.clock.time[Root->side] < 0 && lim.clock.time[!Root->side] >= 0)
        uci_print("info string error: go: no %s for the side to move; searching until stop",
                  Root->side == WHITE ? "wtime" : "btime");
    /* `go` alone searches until stopped, as `go infinite` does. */
    if (!lim.depth && !lim.nodes && !lim.mate && !lim.clock.movetime && lim.clock.time[WHITE] < 0
        && lim.clock.time[BLACK] < 0)
        lim.infinite = true;
    if (Debug)
        uci_print("info string debug: go depth %d nodes %llu mate %d movetime %lld wtime %lld "
                  "btime %lld winc %lld binc %lld movestogo %d infinite %d ponder %d "
                  "searchmoves %d",
                  lim.depth, (unsigned long long)lim.nodes, lim.mate, (long long)lim.clock.movetime,
                  (long long)lim.clock.time[WHITE], (long long)lim.clock.time[BLACK],
                  (long long)lim.clock.inc[WHITE], (long long)lim.clock.inc[BLACK],
                  lim.clock.movestogo, lim.infinite, lim.ponder, lim.searchmoves_count);
    search_start(Root, &lim);
}

/* ------------------------------------------------------------------------ */
/* setoption                                                                */

static bool parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "true")) {
        *out = true;
        return true;
    }
    if (!strcmp(v, "false")) {
        *out = false;
        return true;
    }
    return false;
}

/* Spin option: parses and clamps; false (with a message) when unreadable. */
static bool spin_value(const char *name, const char *v, long long min, long long max, long long *out)
{
    char *end;
    if (!*v) {
        uci_print("info string error: option %s needs a value", name);
        return false;
    }
    long long x = strtoll(v, &end, 10);
    if (*end) {
        uci_print("info string error: option %s: '%s' is not a number (unchanged)", name, v);
        return false;
    }
    if (x < min || x > max) {
        long long c = x < min ? min : max;
        uci_print("info string error: option %s: %s is out of range %lld..%lld, set to %lld", name,
                  v, min, max, c);
        x = c;
    }
    *out = x;
    return true;
}

static long long max_hash_mb(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || psize <= 0)
        return 1 << 20;
    long long mb = (long long)pages * psize / (1 << 20);
    return mb * 3 / 4;
}

static void cmd_setoption(Tok *t)
{
    char word[256], name[256] = "", value[256] = "";
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
            if (*dst)
                strncat(dst, " ", 255 - strlen(dst));
            strncat(dst, word, 255 - strlen(dst));
        }
    }
    char lname[256];
    snprintf(lname, sizeof lname, "%s", name);
    for (char *c = lname; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    SearchOptions *o = search_options();
    long long v;
    bool b;
    if (!*lname) {
        uci_print("info string error: setoption needs 'name <option> [value <x>]'");
    } else if (!strcmp(lname, "hash")) {
        long long max = max_hash_mb();
        if (spin_value("Hash", value, 1, 33554432, &v)) {
            if (v > max)
                uci_print("info string error: Hash %lld MB is more than this machine can give "
                          "(%lld MB); table kept at %zu MB", v, max, tt_size_mb());
            else if (!tt_resize((size_t)v))
                uci_print("info string error: cannot allocate %lld MB; table kept at %zu MB", v,
                          tt_size_mb());
        }
    } else if (!strcmp(lname, "threads")) {
        if (spin_value("Threads", value, 1, 256, &v) && !search_set_threads((int)v))
            uci_print("info string error: could only start %d threads", o->threads);
    } else if (!strcmp(lname, "multipv")) {
        if (spin_value("MultiPV", value, 1, 256, &v))
            o->multipv = (int)v;
    } else if (!strcmp(lname, "skill level")) {
        if (spin_value("Skill Level", value, 0, LEVEL_FULL, &v))
            o->skill_level = (int)v;
    } else if (!strcmp(lname, "uci_elo")) {
        if (spin_value("UCI_Elo", value, LEVEL_ELO_MIN, LEVEL_ELO_MAX, &v))
            o->elo = (int)v;
    } else if (!strcmp(lname, "skill seed")) {
        if (spin_value("Skill Seed", value, 0, 2147483647, &v))
            o->seed = (uint64_t)v;
    } else if (!strcmp(lname, "move overhead")) {
        if (spin_value("Move Overhead", value, 0, 5000, &v))
            MoveOverhead = (int)v;
    } else if (!strcmp(lname, "clear hash")) {
        search_clear();
    } else if (!strcmp(lname, "ponder") || !strcmp(lname, "uci_chess960")
               || !strcmp(lname, "uci_showwdl") || !strcmp(lname, "uci_limitstrength")) {
        if (!parse_bool(value, &b)) {
            uci_print("info string error: option %s takes true or false, not '%s' (unchanged)", name,
                      value);
            return;
        }
        if (!strcmp(lname, "ponder"))
            Ponder = b;
        else if (!strcmp(lname, "uci_showwdl"))
            o->show_wdl = b;
        else if (!strcmp(lname, "uci_limitstrength"))
            o->limit_strength = b;
        else {
            Chess960 = b;
            Root->chess960 = b;
        }
    } else
        uci_print("info string error: unknown option '%s'", name);
}

/* ------------------------------------------------------------------------ */
/* The loop                                                                 */

static void cmd_uci(void)
{
    uci_print("id name Rokade %s", ROKADE_VERSION);
    uci_print("id author the Rokade developers");
    uci_print("option name Hash type spin default 16 min 1 max 33554432");
    uci_print("option name Threads type spin default 1 min 1 max 256");
    uci_print("option name MultiPV type spin default 1 min 1 max 256");
    uci_print("option name Ponder type check default false");
    uci_print("option name Move Overhead type spin default 20 min 0 max 5000");
    uci_print("option name Clear Hash type button");
    uci_print("option name UCI_Chess960 type check default false");
    uci_print("option name UCI_ShowWDL type check default false");
    uci_print("option name Skill Level type spin default %d min 0 max %d", LEVEL_FULL, LEVEL_FULL);
    uci_print("option name UCI_LimitStrength type check default false");
    uci_print("option name UCI_Elo type spin default 1500 min %d max %d", LEVEL_ELO_MIN,
              LEVEL_ELO_MAX);
    uci_print("option name Skill Seed type spin default 0 min 0 max 2147483647");
    uci_print("uciok");
}

static void cmd_help(void)
{
    static const char *const Lines[] = {
        "Rokade speaks UCI. Commands:",
        "  uci | isready | ucinewgame | debug on|off | quit",
        "  setoption name <name> [value <v>]   (options: see 'uci')",
        "  position startpos|fen <fen> [moves <m1> <m2> ...]",
        "  go [wtime btime winc binc movestogo depth nodes mate movetime infinite ponder",
        "     searchmoves <moves>] | go perft <depth>",
        "  stop | ponderhit",
        "Extra commands:",
        "  d                      show the board, FEN, key, game state and legal moves",
        "  eval                   the static evaluation and its terms",
        "  bench [depth]          fixed search of the bench positions (node signature)",
        "  perft <depth> [fen]    perft divide of the current or given position",
        "  perftsuite <file> [maxdepth] [chess960]   check an EPD perft suite",
        "  datagen out <file> [games N] [threads N] [nodes N] [random N] [book <file>] [seed N]",
        "                         self-play training data ('datagen help' for details)",
        "  help                   this text",
        NULL};
    for (int i = 0; Lines[i]; i++)
        uci_print("%s", Lines[i]);
}

static void cmd_bench(Tok *t)
{
    char word[32];
    long long d = 0;
    if (tok_next(t, word, sizeof word) && !parse_int(word, 1, 64, &d)) {
        uci_print("info string error: bench: '%s' is not a depth from 1 to 64", word);
        return;
    }
    bench_run((int)d, print_line);
}

/* datagen with its arguments; "help" prints the usage. False with a message
 * in err. */
static bool run_datagen(const char *args, char *err, size_t errlen)
{
    Tok t = {args};
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
    return datagen_run(&opt, print_line, NULL, err, errlen);
}

static void cmd_datagen(Tok *t)
{
    char err[1400];
    if (!run_datagen(tok_rest(t), err, sizeof err))
        uci_print("info string error: datagen: %s", err);
}

int uci_shell_command(const char *line)
{
    Tok t = {line};
    char cmd[64];
    if (tok_next(&t, cmd, sizeof cmd) && !strcmp(cmd, "datagen")) {
        char err[1400];
        if (run_datagen(tok_rest(&t), err, sizeof err))
            return 0;
        fprintf(stderr, "rokade: datagen: %s\n", err);
        return 2;
    }
    uci_command(line);
    return 0;
}

bool uci_command(const char *line)
{
    Tok t = {line};
    char cmd[64];
    if (!tok_next(&t, cmd, sizeof cmd)) {
        uci_print("info string error: empty line (ignored)");
        return true;
    }

    /* Answered at once, even while a search runs. */
    if (!strcmp(cmd, "isready")) {
        uci_print("readyok");
        return true;
    }
    if (!strcmp(cmd, "stop")) {
        if (!search_running())
            uci_print("info string error: stop: no search is running");
        search_stop();
        return true;
    }
    if (!strcmp(cmd, "ponderhit")) {
        if (!search_is_unbounded())
            uci_print("info string error: ponderhit: no ponder search is running");
        search_ponderhit();
        return true;
    }
    if (!strcmp(cmd, "quit")) {
        search_stop();
        search_wait();
        return false;
    }
    if (!strcmp(cmd, "debug")) {
        char w[16] = "";
        tok_next(&t, w, sizeof w);
        if (!strcmp(w, "on") || !strcmp(w, "off"))
            Debug = !strcmp(w, "on");
        else
            uci_print("info string error: debug takes on or off");
        return true;
    }
    if (!strcmp(cmd, "uci")) {
        cmd_uci();
        return true;
    }
    if (!strcmp(cmd, "register") || !strcmp(cmd, "help")) {
        if (cmd[0] == 'h')
            cmd_help();
        return true;
    }

    static const char *const Known[] = {"ucinewgame", "position", "go", "setoption", "d", "eval",
                                        "bench", "perft", "perftsuite", "datagen", NULL};
    bool known = false;
    for (int i = 0; Known[i] && !known; i++)
        known = !strcmp(cmd, Known[i]);
    if (!known) {
        uci_print("info string error: unknown command '%s' (try 'help')", cmd);
        return true;
    }
    /* The rest waits for a finite search; an endless one must be stopped first. */
    if (search_is_unbounded()) {
        uci_print("info string error: '%s' ignored: a search is running (send stop first)", cmd);
        return true;
    }
    search_wait();
    if (!strcmp(cmd, "ucinewgame"))
        search_clear();
    else if (!strcmp(cmd, "position"))
        cmd_position(&t);
    else if (!strcmp(cmd, "go"))
        cmd_go(&t);
    else if (!strcmp(cmd, "setoption"))
        cmd_setoption(&t);
    else if (!strcmp(cmd, "d"))
        cmd_display();
    else if (!strcmp(cmd, "eval"))
        eval_trace(Root, print_line);
    else if (!strcmp(cmd, "bench"))
        cmd_bench(&t);
    else if (!strcmp(cmd, "perft"))
        cmd_perft(&t);
    else if (!strcmp(cmd, "perftsuite"))
        cmd_perftsuite(&t);
    else if (!strcmp(cmd, "datagen"))
        cmd_datagen(&t);
    return true;
}

void uci_init(void)
{
    movegen_init();
    Root = calloc(1, sizeof *Root);
    if (!Root) {
        fprintf(stderr, "rokade: out of memory\n");
        exit(1);
    }
    pos_set_startpos(Root);
    search_init(print_line);
}

void uci_loop(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) != -1) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
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
    if (search_is_unbounded())
        search_stop();
    search_wait();
}

const Position *uci_position(void) { return Root; }

void uci_shutdown(void)
{
    search_shutdown();
    free(Root);
    Root = NULL;
}
