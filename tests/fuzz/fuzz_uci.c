/* libFuzzer target: the whole UCI line handler, fed arbitrary bytes split
 * into lines. Searches are bounded by a small node limit (appended to every
 * `go`), commands that only cost time (bench, perft, perftsuite) or write
 * files (datagen, review: fuzz_pgn reads its PGN) and huge Hash sizes are
 * skipped, and each input ends like end of input (an endless search is
 * stopped, a finite one finished). The
 * engine's output goes to /dev/null; the sanitizers and the invariants below
 * are the checks. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../engine/uci.h"
#include "../../movegen/position.h"
#include "../../search/search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout))
        return 1;
    uci_init();
    return 0;
}

static bool contains_ci(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (; *s; s++)
        if (!strncasecmp(s, w, n))
            return true;
    return false;
}

static bool skipped(const char *line)
{
    const char *p = line;
    while (*p && isspace((unsigned char)*p))
        p++;
    if (!strncmp(p, "bench", 5) || !strncmp(p, "datagen", 7) || !strncmp(p, "review", 6)
        || contains_ci(line, "perft"))
        return true;
    /* Big tables only cost time and memory: at most two-digit Hash sizes. */
    if (contains_ci(line, "hash"))
        for (const char *q = line; *q; q++)
            if (isdigit((unsigned char)q[0]) && isdigit((unsigned char)q[1])
                && isdigit((unsigned char)q[2]))
                return true;
    /* More than a few threads only cost time. */
    if (contains_ci(line, "threads"))
        for (const char *q = line; *q; q++)
            if (isdigit((unsigned char)q[0]) && isdigit((unsigned char)q[1]))
                return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    char *line = malloc(size + 32);
    if (!buf || !line) {
        free(buf);
        free(line);
        return 0;
    }
    memcpy(buf, data, size);
    buf[size] = '\0';
    bool quit = false;
    for (char *start = buf, *end; !quit && start <= buf + size; start = end + 1) {
        end = start + strcspn(start, "\n");
        *end = '\0';
        if (skipped(start))
            continue;
        const char *p = start;
        while (*p && isspace((unsigned char)*p))
            p++;
        bool go = !strncmp(p, "go", 2) && (!p[2] || isspace((unsigned char)p[2]));
        snprintf(line, size + 32, "%s%s", start, go ? " nodes 2000" : "");
        quit = !uci_command(line);
    }
    uci_finish();
    free(buf);
    free(line);

    const Position *root = uci_position();
    if (pos_compute_key(root) != pos_key(root))
        abort();
    /* Back to a known state for the next input. */
    uci_command("setoption name MultiPV value 1");
    uci_command("setoption name UCI_Chess960 value false");
    uci_command("position startpos");
    return 0;
}
