/* The pipe harness of the UCI test programs (test_uci, test_limits): the
 * engine binary named by $ROKADE (default ./rokade) runs as a child process
 * behind two pipes. Every read and write has a deadline, so a hung engine
 * fails its test instead of hanging the run; every line the engine sends is
 * kept, CHECK prints the last of them on a failure, and the suite's .fini
 * (harness_teardown) kills and reaps any engine a failed test left. The
 * library is linked in, so bestmoves are checked by the move generator. */
#ifndef ROKADE_HARNESS_H
#define ROKADE_HARNESS_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../movegen/position.h"
#include "../movegen/util.h"

/* ------------------------------------------------------------------------ */
/* The engine process                                                       */

typedef struct {
    pid_t pid;
    int to, from; /* its stdin (non-blocking) and its stdout */
    bool eof, exited;
    int status; /* waitpid status once exited */
    char *part; /* an incomplete last line */
    size_t plen, pcap;
    char **lines; /* every line received */
    int count, cap;
    int next; /* the first line not yet consumed */
} Engine;

/* How long the harness waits for the engine, in ms. The defaults are
 * {20000, 10000, 5000, 5000}; a test program whose engines work under heavy
 * load (256 threads, megabyte lines) sets longer ones in its suite's .init. */
typedef struct {
    int send;  /* to read all of a command line */
    int ready; /* to answer isready, and the first line of d */
    int reply; /* the further lines of d */
    int quit;  /* to exit after quit */
} HarnessWaits;

/* Suite .init: SIGPIPE ignored, the move generator initialised. */
void harness_setup(void);
void harness_set_waits(HarnessWaits waits);
/* Suite .fini: kills and frees the engines a test left running. */
void harness_teardown(void);
/* True when $ROKADE_SKIP has the word huge-hash: the tests that set the
 * largest table the machine can give skip that part (`make sanitize` sets
 * it: ASan writes the shadow of every such table, 15-20 s for 18 GB, while
 * the release run (and `make test-debug`) checks the same code in a moment). */
bool harness_skip_huge_hash(void);

/* A test's scratch directory: `dir` is a mkdtemp template ("/tmp/x-XXXXXX"),
 * made (or the test fails) and later removed with all it holds. */
void harness_make_dir(char *dir);
void harness_remove_dir(const char *dir);

bool starts(const char *s, const char *prefix);

/* Prints the last lines the engine sent (on a failure). */
void dump(const Engine *e);

#define CHECK(e, cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            dump(e);                                                                               \
            cr_assert_fail(__VA_ARGS__);                                                           \
        }                                                                                          \
    } while (0)

Engine *eng_start(void);
/* The engine with its address space limited to address_space_mb (0: no
 * limit), so that large allocations fail as on a machine without memory. */
Engine *eng_start_limited(size_t address_space_mb);
/* Writes all of data, reading the engine's output meanwhile. */
void send_raw(Engine *e, const char *data, size_t len);
/* Sends one line (the newline is added). */
__attribute__((format(printf, 2, 3))) void eng_send(Engine *e, const char *fmt, ...);
void close_input(Engine *e);
/* Waits up to timeout_ms for the process to end, reading its output. */
bool wait_exit(Engine *e, int timeout_ms);
void check_clean_exit(Engine *e);
/* `quit`: the engine must exit in time with status 0, then it is freed. */
void eng_quit(Engine *e);
/* Kills (when still running), reaps and frees. */
void eng_free(Engine *e);

/* The next unconsumed line, or NULL at the deadline or end of output. */
const char *next_line(Engine *e, int64_t deadline);
/* Consumes lines until one starts with prefix (returned), or NULL after
 * timeout_ms. */
const char *wait_for(Engine *e, const char *prefix, int timeout_ms);
/* isready / readyok: every earlier command has been read and answered. */
void sync_ready(Engine *e);
/* Runs a search and returns its bestmove line; the info lines stay in the
 * transcript from *mark on. */
const char *search(Engine *e, const char *go, int timeout_ms, int *mark);

/* ------------------------------------------------------------------------ */
/* Looking at the answers                                                   */

/* The token after the token `key` in a space-separated line, into out. */
bool field(const char *line, const char *key, char *out, size_t n);
long long field_num(const char *line, const char *key, long long dflt);
/* An `info depth ... pv ...` line of a search (not the depth-0 line). */
bool is_pv_info(const char *l);

/* Builds a position with the library (FEN NULL = start position). */
Position *lib_pos(const char *fen, const char *moves, bool c960);
void lib_fen(const char *fen, const char *moves, bool c960, char *out, size_t n);
/* The bestmove line must name a legal move (and a legal ponder move). */
void check_bestmove_in(Engine *e, const char *line, const char *fen, const char *moves, bool c960);
void check_bestmove(Engine *e, const char *line, const char *fen, const char *moves);

/* cmd must be answered with an error line containing each of the words
 * (NULL: any); no bestmove may come meanwhile. */
const char *expect_error(Engine *e, const char *cmd, const char *w1, const char *w2);
void expect_no_error(Engine *e, const char *cmd);
/* `d`: copies the FEN (and, when state is not NULL, the State: text) shown. */
void show(Engine *e, char *fen, size_t fen_len, char *state, size_t state_len);

#endif
