/* The UCI options, all in the one table below: `uci` lists them from it,
 * `setoption` looks them up in it, `help` prints their descriptions, and
 * options_init gives each its default through its setter (unless the search
 * was born with it), so a default is written nowhere else.
 *
 * To add or change an option: edit its row here (and its setter, if it needs
 * a new one), then the row of README.md's option table, which must repeat the
 * name, type, default, range and description: tests/cli_test.sh compares
 * that table with the engine's `uci` and `help` output. */
#include "options.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../eval/syzygy/tbprobe.h"
#include "../movegen/util.h"
#include "../search/level.h"
#include "../search/tunables.h"
#include "uci.h"

typedef enum { OPTION_SPIN, OPTION_CHECK, OPTION_BUTTON, OPTION_STRING } OptionType;

typedef struct {
    const char *name; /* as `uci` lists it; `setoption` ignores case */
    OptionType type;
    long long def, min, max; /* spin: default and range; check: default 0 or 1 */
    /* Applies a value: spin parsed and clamped, check 0 or 1, button 0.
     * NULL: the value is accepted and kept nowhere. */
    void (*set)(Engine *e, long long value);
    /* The value in force, for setters that reallocate (NULL otherwise):
     * options_init leaves an option alone that already has its default. */
    long long (*current)(Engine *e);
    const char *help; /* one line, no Markdown: `help` and the README row */
    /* A string option's default and setter (the value as given, "" for none). */
    const char *(*str_default)(void);
    void (*set_str)(Engine *e, const char *value);
} Option;

enum { HASH_MAX_MB = 33554432 };

/* Three quarters of the machine's memory, in MB: a larger Hash is refused. */
static long long max_hash_mb(void)
{
    const uint64_t bytes = plat_physical_memory();
    if (bytes == 0)
        return 1 << 20;
    return (long long)(bytes >> 20) * 3 / 4;
}

/* A Hash beyond what the machine can give, or than can be allocated, is
 * clamped to the largest table that can be had (halving from the limit), so
 * that the size the client set and the size used agree as far as they can;
 * the message says what was set. */
static void set_hash(Engine *e, long long mb)
{
    long long max = max_hash_mb();
    long long want = mb > max ? max : mb;
    long long got = want;
    while (!search_set_hash(e->search, (size_t)got) && got > 1)
        got /= 2;
    if (search_hash_mb(e->search) != (size_t)got) {
        uci_print("info string error: cannot allocate a table of %lld MB or less; table kept at "
                  "%zu MB",
                  want, search_hash_mb(e->search));
        return;
    }
    if (mb > max)
        uci_print("info string error: Hash %lld MB is more than this machine can give (%lld MB); "
                  "set to %lld MB%s",
                  mb, max, got, got < max ? ", the largest that could be had" : "");
    else if (got < mb)
        uci_print("info string error: cannot allocate %lld MB; set to %lld MB, the largest "
                  "that could be had",
                  mb, got);
}

static long long hash_mb(Engine *e)
{
    (void)e;
    return (long long)search_hash_mb(e->search);
}

static long long threads(Engine *e) { return search_threads(e->search); }

static void set_threads(Engine *e, long long n)
{
    if (!search_set_threads(e->search, (int)n))
        uci_print("info string error: could only start %d threads", search_threads(e->search));
}

static void clear_hash(Engine *e, long long unused)
{
    (void)e;
    (void)unused;
    search_new_game(e->search);
}

static void set_multipv(Engine *e, long long n) { engine_search_options(e)->multipv = (int)n; }
static void set_move_overhead(Engine *e, long long ms) { e->move_overhead = (int)ms; }
static void set_show_wdl(Engine *e, long long on) { e->report.show_wdl = on; }
static void set_skill_level(Engine *e, long long level)
{
    engine_search_options(e)->skill_level = (int)level;
}
static void set_elo(Engine *e, long long elo) { engine_search_options(e)->elo = (int)elo; }
static void set_seed(Engine *e, long long seed) { engine_search_options(e)->seed = (uint64_t)seed; }

static void set_limit_strength(Engine *e, long long on)
{
    engine_search_options(e)->limit_strength = on;
}

/* The current position takes the notation at once; later ones are set with it. */
static void set_chess960(Engine *e, long long on)
{
    e->chess960 = on;
    e->root.chess960 = on;
}

/* EvalFile: the evaluation, a net file or one of the names below. A net
 * that cannot be loaded leaves the evaluation as it was. */
#define EVAL_BUILT_IN "<built-in>"
#define EVAL_HAND_CRAFTED "<hand-crafted>"

/* The evaluation in force, for messages: before any setting (a build whose
 * built-in net does not load) it is the hand-crafted one. */
static const char *eval_in_force(const Engine *e)
{
    return e->eval_file[0] ? e->eval_file : EVAL_HAND_CRAFTED;
}

static void set_eval_file(Engine *e, const char *value)
{
    char err[300];
    NnueNet *net = NULL;
    if (!*value) {
        uci_print("info string error: option EvalFile needs a value: a net file, " EVAL_BUILT_IN
                  " or " EVAL_HAND_CRAFTED " (unchanged: %s)",
                  eval_in_force(e));
        return;
    }
    if (!strcasecmp(value, EVAL_HAND_CRAFTED)) {
        /* net stays NULL */
    } else if (!strcasecmp(value, EVAL_BUILT_IN)) {
        size_t size;
        const uint8_t *data = nnue_embedded(&size);
        if (!data) {
            uci_print("info string error: EvalFile: this build has no built-in net (unchanged: "
                      "%s)",
                      eval_in_force(e));
            return;
        }
        if (!(net = nnue_net_load(data, size, err, sizeof err))) {
            uci_print("info string error: EvalFile: the built-in net: %s (unchanged: %s)", err,
                      eval_in_force(e));
            return;
        }
    } else if (!(net = nnue_net_load_file(value, err, sizeof err))) {
        uci_print("info string error: EvalFile: %s (unchanged: %s)", err, eval_in_force(e));
        return;
    }
    search_set_net(e->search, net);
    nnue_net_free(e->net);
    e->net = net;
    snprintf(e->eval_file, sizeof e->eval_file, "%s", value);
}

/* The default evaluation: the built-in net when the build has one. */
static const char *default_eval_file(void)
{
    size_t size;
    return nnue_embedded(&size) ? EVAL_BUILT_IN : EVAL_HAND_CRAFTED;
}

/* SyzygyPath: the tablebases' directories. The tables are the program's,
 * not the search instance's: every search (bench and datagen too) probes
 * them. */
#define SYZYGY_NONE "<empty>"

static void tb_report(const char *line) { uci_print("%s", line); }

static const char *default_syzygy_path(void) { return SYZYGY_NONE; }

static void set_syzygy_path(Engine *e, const char *value)
{
    search_wait(e->search);
    tb_set_report(tb_report);
    bool none = !*value || !strcmp(value, SYZYGY_NONE);
    int found = tb_init(none ? NULL : value);
    if (none)
        return;
    if (found == 0)
        uci_print("info string error: SyzygyPath: no Syzygy tables (.rtbw) found in %s", value);
    else
        uci_print("info string Syzygy tables found: %d WDL, %d DTZ, up to %d pieces", found,
                  tb_dtz_count(), tb_max_pieces());
}

static void set_syzygy_probe_depth(Engine *e, long long d)
{
    engine_search_options(e)->tb_probe_depth = (int)d;
}
static void set_syzygy_probe_limit(Engine *e, long long n)
{
    engine_search_options(e)->tb_probe_limit = (int)n;
}
static void set_syzygy_50_move_rule(Engine *e, long long on)
{
    engine_search_options(e)->tb_50_move_rule = on;
}

/* In the order `uci` lists them. */
static const Option Options[] = {
    {"Hash", OPTION_SPIN, 16, 1, HASH_MAX_MB, set_hash, hash_mb,
     "hash table size in MB; at most 3/4 of the machine's memory (clamped)", NULL, NULL},
    {"Threads", OPTION_SPIN, 1, 1, 256, set_threads, threads,
     "search threads (Lazy SMP); perft splits its root moves over them too", NULL, NULL},
    {"MultiPV", OPTION_SPIN, 1, 1, 256, set_multipv, NULL,
     "number of best lines searched and printed", NULL, NULL},
    /* Listed because GUIs only send `go ponder` to an engine that has it.
     * The search learns of pondering from `go ponder` itself, so the value
     * is not kept. */
    {"Ponder", OPTION_CHECK, 0, 0, 1, NULL, NULL,
     "lets the GUI send go ponder; the engine needs no setting", NULL, NULL},
    {"Move Overhead", OPTION_SPIN, 20, 0, 5000, set_move_overhead, NULL,
     "milliseconds kept back on every move for GUI and network delays (plus any delay the "
     "engine sees the GUI add)",
     NULL, NULL},
    {"Clear Hash", OPTION_BUTTON, 0, 0, 0, clear_hash, NULL,
     "clears the hash table and the histories, as ucinewgame does", NULL, NULL},
    {"UCI_Chess960", OPTION_CHECK, 0, 0, 1, set_chess960, NULL,
     "castling printed king-takes-rook (e1h1); needed for a FEN whose castling king is not on "
     "e1/e8",
     NULL, NULL},
    {"UCI_ShowWDL", OPTION_CHECK, 0, 0, 1, set_show_wdl, NULL,
     "adds wdl W D L (per mille, the WDL model's chances) to info lines", NULL, NULL},
    {"Skill Level", OPTION_SPIN, LEVEL_FULL, 0, LEVEL_FULL, set_skill_level, NULL,
     "the play level; 20 = full strength, lower is weaker", NULL, NULL},
    {"UCI_LimitStrength", OPTION_CHECK, 0, 0, 1, set_limit_strength, NULL,
     "play at UCI_Elo instead of Skill Level", NULL, NULL},
    {"UCI_Elo", OPTION_SPIN, 1500, LEVEL_ELO_MIN, LEVEL_ELO_MAX, set_elo, NULL,
     "the play level as an Elo rating, when UCI_LimitStrength is on", NULL, NULL},
    {"Skill Seed", OPTION_SPIN, 0, 0, 2147483647, set_seed, NULL,
     "0 = a new seed each game (ucinewgame); any other value makes a level's choices "
     "repeatable",
     NULL, NULL},
    {"EvalFile", OPTION_STRING, 0, 0, 0, NULL, NULL,
     "the evaluation: a net file (eval/README.md), " EVAL_BUILT_IN " or " EVAL_HAND_CRAFTED,
     default_eval_file, set_eval_file},
    {"SyzygyPath", OPTION_STRING, 0, 0, 0, NULL, NULL,
     "directories of Syzygy tablebases (.rtbw, .rtbz), separated by : (; on Windows); " SYZYGY_NONE
     " for none",
     default_syzygy_path, set_syzygy_path},
    {"SyzygyProbeDepth", OPTION_SPIN, 1, 1, 100, set_syzygy_probe_depth, NULL,
     "the least depth at which the search probes the tablebases", NULL, NULL},
    {"Syzygy50MoveRule", OPTION_CHECK, 1, 0, 1, set_syzygy_50_move_rule, NULL,
     "scores a win or loss that the fifty-move rule spoils (cursed, blessed) as a draw", NULL,
     NULL},
    {"SyzygyProbeLimit", OPTION_SPIN, 7, 0, 7, set_syzygy_probe_limit, NULL,
     "the most pieces (kings included) of a position probed; 0 = no probes", NULL, NULL},
};

enum { OPTION_COUNT = (int)(sizeof Options / sizeof Options[0]) };

void options_init(Engine *e)
{
    for (int i = 0; i < OPTION_COUNT; i++) {
        const Option *o = &Options[i];
        if (o->type == OPTION_STRING)
            o->set_str(e, o->str_default());
        else if (o->type != OPTION_BUTTON && o->set && !(o->current && o->current(e) == o->def))
            o->set(e, o->def);
    }
}

void options_print_uci(void)
{
    for (int i = 0; i < OPTION_COUNT; i++) {
        const Option *o = &Options[i];
        if (o->type == OPTION_SPIN)
            uci_print("option name %s type spin default %lld min %lld max %lld", o->name, o->def,
                      o->min, o->max);
        else if (o->type == OPTION_CHECK)
            uci_print("option name %s type check default %s", o->name, o->def ? "true" : "false");
        else if (o->type == OPTION_STRING)
            uci_print("option name %s type string default %s", o->name, o->str_default());
        else
            uci_print("option name %s type button", o->name);
    }
#ifdef TUNE
    for (int i = 0; i < TunableCount; i++)
        uci_print("option name %s type spin default %d min %d max %d", Tunables[i].name,
                  Tunables[i].def, Tunables[i].min, Tunables[i].max);
#endif
}

#ifdef TUNE
/* A TUNE build's search constant: true when name is one. */
static bool set_tunable(const char *name, const char *value)
{
    for (int i = 0; i < TunableCount; i++) {
        const Tunable *tu = &Tunables[i];
        if (strcasecmp(name, tu->name) != 0)
            continue;
        long long v;
        if (!parse_int_saturating(value, &v))
            uci_print("info string error: option %s: '%s' is not a number (unchanged)", tu->name,
                      value);
        else {
            if (v < tu->min || v > tu->max) {
                long long c = v < tu->min ? tu->min : tu->max;
                uci_print("info string error: option %s: %s is out of range %d..%d, set to %lld",
                          tu->name, value, tu->min, tu->max, c);
                v = c;
            }
            *tu->value = (int)v;
            search_tunables_changed();
        }
        return true;
    }
    return false;
}
#endif

void options_print_help(void)
{
    for (int i = 0; i < OPTION_COUNT; i++)
        uci_print("  %-22s %s", Options[i].name, Options[i].help);
}

void options_set(Engine *e, const char *name, const char *value)
{
    const Option *o = NULL;
    for (int i = 0; i < OPTION_COUNT && !o; i++)
        if (!strcasecmp(name, Options[i].name))
            o = &Options[i];
    if (!o) {
#ifdef TUNE
        if (set_tunable(name, value))
            return;
#endif
        uci_print("info string error: unknown option '%s'", name);
        return;
    }
    if (o->type == OPTION_STRING) {
        o->set_str(e, value);
        return;
    }
    long long v = 0;
    if (o->type == OPTION_SPIN) {
        if (!*value) {
            uci_print("info string error: option %s needs a value", o->name);
            return;
        }
        /* Saturating, so that a huge value is clamped like any other. */
        if (!parse_int_saturating(value, &v)) {
            uci_print("info string error: option %s: '%s' is not a number (unchanged)", o->name,
                      value);
            return;
        }
        if (v < o->min || v > o->max) {
            v = v < o->min ? o->min : o->max;
            uci_print("info string error: option %s: %s is out of range %lld..%lld, set to %lld",
                      o->name, value, o->min, o->max, v);
        }
    } else if (o->type == OPTION_CHECK) {
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
            uci_print("info string error: option %s takes true or false, not '%s' (unchanged)",
                      o->name, value);
            return;
        }
        v = !strcmp(value, "true");
    } /* a button ignores any value */
    if (o->set)
        o->set(e, v);
}
