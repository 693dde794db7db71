/* The pipe harness of the UCI test programs: starting, feeding, reading and
 * ending the engine process, and reading its answers (see harness.h). */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../movegen/movegen.h"
#include "../movegen/notation.h"

enum { MAX_ENGINES = 4 };
static Engine *Live[MAX_ENGINES];

static HarnessWaits Waits = {.send = 20000, .ready = 10000, .reply = 5000, .quit = 5000};

void harness_setup(void)
{
    static bool done;
    signal(SIGPIPE, SIG_IGN);
    if (!done) {
        movegen_init();
        done = true;
    }
}

void harness_set_waits(HarnessWaits waits) { Waits = waits; }

void harness_teardown(void)
{
    for (int i = 0; i < MAX_ENGINES; i++)
        if (Live[i])
            eng_free(Live[i]);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
        ;
}

void harness_make_dir(char *dir) { cr_assert(mkdtemp(dir), "cannot make a temporary directory"); }

void harness_remove_dir(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        cr_log_warn("could not remove %s", dir);
}

bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

void dump(const Engine *e)
{
    if (!e)
        return;
    int from = e->count > 40 ? e->count - 40 : 0;
    fprintf(stderr, "---- last %d of %d engine lines (pid %d) ----\n", e->count - from, e->count,
            (int)e->pid);
    for (int i = from; i < e->count; i++)
        fprintf(stderr, "  | %.300s%s\n", e->lines[i], strlen(e->lines[i]) > 300 ? "..." : "");
    if (e->exited)
        fprintf(stderr, "  (exited: status 0x%x)\n", e->status);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */

static void push_line(Engine *e, const char *s, size_t n)
{
    if (e->count == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 256;
        e->lines = realloc(e->lines, (size_t)e->cap * sizeof *e->lines);
        cr_assert(e->lines, "out of memory");
    }
    char *l = malloc(n + 1);
    cr_assert(l, "out of memory");
    memcpy(l, s, n);
    l[n] = '\0';
    e->lines[e->count++] = l;
}

static void absorb(Engine *e, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            push_line(e, e->part ? e->part : "", e->plen);
            e->plen = 0;
            continue;
        }
        if (e->plen + 1 >= e->pcap) {
            e->pcap = e->pcap ? 2 * e->pcap : 4096;
            e->part = realloc(e->part, e->pcap);
            cr_assert(e->part, "out of memory");
        }
        e->part[e->plen++] = buf[i];
    }
}

/* Reads what the engine has sent, waiting up to timeout_ms for something.
 * True when something was read. */
static bool pump(Engine *e, int timeout_ms)
{
    if (e->eof)
        return false;
    struct pollfd p = {e->from, POLLIN, 0};
    int r = poll(&p, 1, timeout_ms < 0 ? 0 : timeout_ms);
    if (r <= 0)
        return false;
    char buf[65536];
    ssize_t n = read(e->from, buf, sizeof buf);
    if (n > 0) {
        absorb(e, buf, (size_t)n);
        return true;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return false;
    e->eof = true;
    if (e->plen) {
        push_line(e, e->part, e->plen);
        e->plen = 0;
    }
    return false;
}

const char *next_line(Engine *e, int64_t deadline)
{
    while (e->next >= e->count) {
        int64_t left = deadline - now_ms();
        if (left < 0 || e->eof)
            return NULL;
        pump(e, (int)left);
    }
    return e->lines[e->next++];
}

const char *wait_for(Engine *e, const char *prefix, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    const char *l;
    while ((l = next_line(e, deadline)))
        if (starts(l, prefix))
            return l;
    return NULL;
}

bool harness_skip_huge_hash(void)
{
    const char *skip = getenv("ROKADE_SKIP");
    return skip && strstr(skip, "huge-hash") != NULL;
}

/* ------------------------------------------------------------------------ */
/* The process                                                              */

Engine *eng_start(void) { return eng_start_limited(0); }

Engine *eng_start_limited(size_t address_space_mb)
{
    const char *path = getenv("ROKADE");
    if (!path || !*path)
        path = "./rokade";
    cr_assert(access(path, X_OK) == 0, "engine binary '%s' not found (set ROKADE)", path);
    int in[2], out[2];
    cr_assert(pipe(in) == 0 && pipe(out) == 0, "pipe: %s", strerror(errno));
    /* Our ends must not leak into other engines started later, or closing
     * one engine's stdin would not give it end of input. */
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        if (address_space_mb) {
            struct rlimit rl = {(rlim_t)address_space_mb << 20, (rlim_t)address_space_mb << 20};
            setrlimit(RLIMIT_AS, &rl);
        }
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    Engine *e = calloc(1, sizeof *e);
    cr_assert(e, "out of memory");
    e->pid = pid;
    e->to = in[1];
    e->from = out[0];
    fcntl(e->to, F_SETFL, fcntl(e->to, F_GETFL) | O_NONBLOCK);
    for (int i = 0; i < MAX_ENGINES; i++)
        if (!Live[i]) {
            Live[i] = e;
            break;
        }
    return e;
}

/* Neither side can block the other: the engine's output is read while
 * waiting for it to take our input. */
void send_raw(Engine *e, const char *data, size_t len)
{
    CHECK(e, e->to >= 0, "writing to an engine whose input is closed");
    int64_t deadline = now_ms() + Waits.send;
    size_t off = 0;
    while (off < len) {
        int left = (int)(deadline - now_ms());
        CHECK(e, left > 0, "engine did not read its input for %d s", Waits.send / 1000);
        struct pollfd p[2] = {{e->to, POLLOUT, 0}, {e->from, POLLIN, 0}};
        int r = poll(p, e->eof ? 1 : 2, left);
        if (r < 0 && errno == EINTR)
            continue;
        CHECK(e, r >= 0, "poll: %s", strerror(errno));
        if (!e->eof && p[1].revents)
            pump(e, 0);
        if (p[0].revents & POLLOUT) {
            ssize_t n = write(e->to, data + off, len - off);
            if (n > 0)
                off += (size_t)n;
            else
                CHECK(e, n < 0 && (errno == EAGAIN || errno == EINTR),
                      "write to the engine failed: %s (did it crash?)", strerror(errno));
        } else
            CHECK(e, !(p[0].revents & (POLLERR | POLLHUP)),
                  "the engine closed its input (did it crash?)");
    }
}

void eng_send(Engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    cr_assert(n >= 0, "bad format '%s'", fmt);
    char *buf = malloc((size_t)n + 2);
    cr_assert(buf, "out of memory");
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
    va_end(ap);
    buf[n] = '\n';
    send_raw(e, buf, (size_t)n + 1);
    free(buf);
}

void close_input(Engine *e)
{
    if (e->to >= 0)
        close(e->to);
    e->to = -1;
}

bool wait_exit(Engine *e, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        if (!e->exited) {
            int st;
            if (waitpid(e->pid, &st, WNOHANG) == e->pid) {
                e->exited = true;
                e->status = st;
            }
        }
        if (e->exited) {
            int64_t d2 = now_ms() + 2000;
            while (!e->eof && now_ms() < d2)
                pump(e, 100);
            return true;
        }
        if (now_ms() >= deadline)
            return false;
        if (e->eof)
            sleep_ms(5);
        else
            pump(e, 10);
    }
}

void eng_free(Engine *e)
{
    if (!e)
        return;
    if (!e->exited) {
        kill(e->pid, SIGKILL);
        waitpid(e->pid, NULL, 0);
        e->exited = true;
    }
    close_input(e);
    if (e->from >= 0)
        close(e->from);
    for (int i = 0; i < e->count; i++)
        free(e->lines[i]);
    free(e->lines);
    free(e->part);
    for (int i = 0; i < MAX_ENGINES; i++)
        if (Live[i] == e)
            Live[i] = NULL;
    free(e);
}

/* Exit status 0: a sanitizer report exits with 1. */
void check_clean_exit(Engine *e)
{
    CHECK(e, WIFEXITED(e->status) && WEXITSTATUS(e->status) == 0,
          "engine ended with %s %d (sanitizer report on stderr?)",
          WIFEXITED(e->status) ? "exit status" : "signal",
          WIFEXITED(e->status) ? WEXITSTATUS(e->status) : WTERMSIG(e->status));
}

void eng_quit(Engine *e)
{
    eng_send(e, "quit");
    close_input(e);
    CHECK(e, wait_exit(e, Waits.quit), "engine did not exit within %d s of quit",
          Waits.quit / 1000);
    check_clean_exit(e);
    eng_free(e);
}

void sync_ready(Engine *e)
{
    eng_send(e, "isready");
    CHECK(e, wait_for(e, "readyok", Waits.ready), "no readyok within %d s", Waits.ready / 1000);
}

const char *search(Engine *e, const char *go, int timeout_ms, int *mark)
{
    if (mark)
        *mark = e->next;
    eng_send(e, "%s", go);
    const char *l = wait_for(e, "bestmove", timeout_ms);
    CHECK(e, l, "no bestmove within %d ms of '%s'", timeout_ms, go);
    return l;
}

/* ------------------------------------------------------------------------ */
/* Looking at the answers                                                   */

/* Just past the first space-separated token of line equal to tok, or NULL. */
static const char *after_token(const char *line, const char *tok)
{
    size_t kl = strlen(tok);
    const char *p = line;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *s = p;
        while (*p && *p != ' ')
            p++;
        if ((size_t)(p - s) == kl && !memcmp(s, tok, kl))
            return p;
    }
    return NULL;
}

bool field(const char *line, const char *key, char *out, size_t n)
{
    const char *p = after_token(line, key);
    if (!p)
        return false;
    while (*p == ' ')
        p++;
    size_t len = strcspn(p, " ");
    if (len >= n)
        len = n - 1;
    memcpy(out, p, len);
    out[len] = '\0';
    return len > 0;
}

long long field_num(const char *line, const char *key, long long dflt)
{
    char buf[32], *end;
    if (!field(line, key, buf, sizeof buf))
        return dflt;
    long long v = strtoll(buf, &end, 10);
    return *end ? dflt : v;
}

static bool has_token(const char *line, const char *tok) { return after_token(line, tok) != NULL; }

bool is_pv_info(const char *l)
{
    return starts(l, "info depth ") && has_token(l, "pv") && has_token(l, "score");
}

Position *lib_pos(const char *fen, const char *moves, bool c960)
{
    Position *p = calloc(1, sizeof *p);
    char err[200];
    cr_assert(p, "out of memory");
    cr_assert(pos_set_fen(p, fen ? fen : START_FEN, c960, err, sizeof err), "test FEN: %s", err);
    if (moves) {
        char *copy = strdup(moves), *save = NULL;
        cr_assert(copy, "out of memory");
        for (char *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
            move_t mv = move_from_uci(p, m);
            cr_assert(mv != MOVE_NONE, "test move list: '%s' is illegal", m);
            pos_make_game_move(p, mv);
        }
        free(copy);
    }
    return p;
}

void lib_fen(const char *fen, const char *moves, bool c960, char *out, size_t n)
{
    Position *p = lib_pos(fen, moves, c960);
    pos_get_fen(p, out, n);
    free(p);
}

void check_bestmove_in(Engine *e, const char *line, const char *fen, const char *moves, bool c960)
{
    char mv[16] = "", pm[16] = "";
    CHECK(e, line && starts(line, "bestmove "), "no bestmove line");
    CHECK(e, field(line, "bestmove", mv, sizeof mv), "empty bestmove: '%s'", line);
    Position *p = lib_pos(fen, moves, c960);
    move_t m = move_from_uci(p, mv);
    CHECK(e, m != MOVE_NONE, "bestmove '%s' is not legal in %s%s%s", mv, fen ? fen : "startpos",
          moves ? " moves " : "", moves ? moves : "");
    if (field(line, "ponder", pm, sizeof pm)) {
        pos_make_game_move(p, m);
        CHECK(e, move_from_uci(p, pm) != MOVE_NONE, "ponder move '%s' is not legal after %s", pm,
              mv);
    }
    free(p);
}

void check_bestmove(Engine *e, const char *line, const char *fen, const char *moves)
{
    check_bestmove_in(e, line, fen, moves, false);
}

/* Sends cmd (of any length) then isready; returns the first error line
 * answered before readyok (NULL if none). No bestmove may appear meanwhile. */
static const char *answer_error(Engine *e, const char *cmd)
{
    int mark = e->next;
    send_raw(e, cmd, strlen(cmd));
    send_raw(e, "\n", 1);
    sync_ready(e);
    const char *err = NULL;
    for (int i = mark; i < e->next; i++) {
        CHECK(e, !starts(e->lines[i], "bestmove"), "bestmove after '%.80s'", cmd);
        if (!err && starts(e->lines[i], "info string error"))
            err = e->lines[i];
    }
    return err;
}

const char *expect_error(Engine *e, const char *cmd, const char *w1, const char *w2)
{
    const char *err = answer_error(e, cmd);
    CHECK(e, err, "no 'info string error' answer to '%.80s'", cmd);
    CHECK(e, !w1 || strstr(err, w1), "error for '%.80s' does not mention '%s': %s", cmd, w1, err);
    CHECK(e, !w2 || strstr(err, w2), "error for '%.80s' does not mention '%s': %s", cmd, w2, err);
    for (const char *c = err; *c; c++)
        CHECK(e, *c >= 32 && *c < 127, "unprintable byte 0x%02x in the error line", *c & 0xff);
    CHECK(e, strlen(err) < 400, "error line of %zu characters", strlen(err));
    return err;
}

void expect_no_error(Engine *e, const char *cmd)
{
    const char *err = answer_error(e, cmd);
    CHECK(e, !err, "unexpected error for '%.80s': %s", cmd, err);
}

void show(Engine *e, char *fen, size_t fen_len, char *state, size_t state_len)
{
    eng_send(e, "d");
    const char *l = wait_for(e, "Fen: ", Waits.ready);
    CHECK(e, l, "no 'Fen:' line answered to d");
    snprintf(fen, fen_len, "%s", l + 5);
    l = wait_for(e, "State: ", Waits.reply);
    CHECK(e, l, "no 'State:' line answered to d");
    if (state)
        snprintf(state, state_len, "%s", l + 7);
    CHECK(e, wait_for(e, "Legal moves", Waits.reply), "no 'Legal moves' line answered to d");
}
