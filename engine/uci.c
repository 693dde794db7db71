/* The UCI front end: reads commands, keeps the game position, and answers.
 * All output goes through uci_print, one whole flushed line at a time. */
#include "uci.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../movegen/movegen.h"
#include "../perft/perft.h"

static pthread_mutex_t OutLock = PTHREAD_MUTEX_INITIALIZER;
static Position *Root;
static bool Chess960;
static int PerftThreads = 1;

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
        const char *mv = strstr(fen, " moves");
        while (mv && mv[6] && !isspace((unsigned char)mv[6]))
            mv = strstr(mv + 1, " moves");
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
        if (strcmp(word, "moves")) {
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
    uint64_t n = perft_divide(pos, depth, PerftThreads, print_line);
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
    int r = perft_suite(path, (int)d, c960, PerftThreads, stdout);
    if (r < 0)
        uci_print("info string error: cannot read '%s'", path);
    else
        uci_print("%s", r == 0 ? "perftsuite: PASS" : "perftsuite: FAIL");
}

/* ------------------------------------------------------------------------ */
/* The loop                                                                 */

static void cmd_go(Tok *t)
{
    char word[32];
    while (tok_next(t, word, sizeof word)) {
        if (!strcmp(word, "perft")) {
            long long d;
            if (!tok_next(t, word, sizeof word) || !parse_int(word, 1, 20, &d)) {
                uci_print("info string error: go perft needs a depth from 1 to 20");
                return;
            }
            run_perft(Root, (int)d);
            return;
        }
    }
    uci_print("info string error: search is not available yet");
}

static void cmd_setoption(Tok *t)
{
    char word[64], name[256] = "", value[256] = "";
    int mode = 0;
    while (tok_next(t, word, sizeof word)) {
        if (!strcmp(word, "name") && mode == 0)
            mode = 1;
        else if (!strcmp(word, "value") && mode == 1)
            mode = 2;
        else {
            char *dst = mode == 2 ? value : name;
            if (*dst)
                strncat(dst, " ", 255 - strlen(dst));
            strncat(dst, word, 255 - strlen(dst));
        }
    }
    for (char *c = name; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (!strcmp(name, "uci_chess960")) {
        if (strcmp(value, "true") && strcmp(value, "false")) {
            uci_print("info string error: UCI_Chess960 takes true or false");
            return;
        }
        Chess960 = !strcmp(value, "true");
        Root->chess960 = Chess960;
    } else if (!strcmp(name, "threads")) {
        long long v;
        if (!parse_int(value, 1, 256, &v)) {
            uci_print("info string error: Threads takes a number from 1 to 256");
            return;
        }
        PerftThreads = (int)v;
    } else
        uci_print("info string error: unknown option '%s'", name);
}

bool uci_command(const char *line)
{
    Tok t = {line};
    char cmd[64];
    if (!tok_next(&t, cmd, sizeof cmd))
        return true;
    if (!strcmp(cmd, "uci")) {
        uci_print("id name Rokade %s", ROKADE_VERSION);
        uci_print("id author the Rokade developers");
        uci_print("option name Threads type spin default 1 min 1 max 256");
        uci_print("option name UCI_Chess960 type check default false");
        uci_print("uciok");
    } else if (!strcmp(cmd, "isready"))
        uci_print("readyok");
    else if (!strcmp(cmd, "ucinewgame"))
        ;
    else if (!strcmp(cmd, "position"))
        cmd_position(&t);
    else if (!strcmp(cmd, "go"))
        cmd_go(&t);
    else if (!strcmp(cmd, "setoption"))
        cmd_setoption(&t);
    else if (!strcmp(cmd, "d"))
        cmd_display();
    else if (!strcmp(cmd, "perft"))
        cmd_perft(&t);
    else if (!strcmp(cmd, "perftsuite"))
        cmd_perftsuite(&t);
    else if (!strcmp(cmd, "quit"))
        return false;
    else
        uci_print("info string error: unknown command '%s'", cmd);
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
}

void uci_loop(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) != -1) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (!uci_command(line))
            break;
    }
    free(line);
}

void uci_shutdown(void)
{
    free(Root);
    Root = NULL;
}
