/* Bench: each position searched to a fixed depth with one thread and a 16 MB
 * table, cleared between positions, so the node count is a signature of the
 * search and evaluation. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

#include "../movegen/notation.h"
#include "../movegen/util.h"
#include "../search/search.h"
#include "positions.h"

uint64_t bench_run(int depth, const NnueNet *net, void (*print)(const char *line))
{
    if (depth <= 0)
        depth = BENCH_DEPTH;
    Position *pos = calloc(1, sizeof *pos);
    /* Its own instance: one thread, 16 MB, one line, full strength. */
    Search *s = search_create(16, NULL);
    if (!pos || !s) {
        print("info string error: bench: out of memory");
        free(pos);
        search_destroy(s);
        return 0;
    }
    search_set_net(s, net);
    uint64_t total = 0;
    int64_t t0 = now_ms();
    char line[256], err[200];
    int n = (int)(sizeof BenchFens / sizeof BenchFens[0]);
    for (int i = 0; i < n; i++) {
        bool c960 = i >= n - 4;
        if (!pos_set_fen(pos, BenchFens[i], c960, err, sizeof err)) {
            snprintf(line, sizeof line, "info string error: bench position %d: %s", i + 1, err);
            print(line);
            continue;
        }
        search_new_game(s);
        SearchResult r;
        search_position(s, pos, depth, 0, &r);
        uint64_t nodes = r.nodes;
        char mv[8];
        move_to_uci(pos, r.best, mv);
        snprintf(line, sizeof line, "info string bench %2d/%d: %10llu nodes  bestmove %s", i + 1, n,
                 (unsigned long long)nodes, mv);
        print(line);
        total += nodes;
    }
    int64_t ms = now_ms() - t0;
    free(pos);
    snprintf(line, sizeof line, "Total time (ms) : %lld", (long long)ms);
    print(line);
    snprintf(line, sizeof line, "Nodes/second    : %llu",
             (unsigned long long)(ms > 0 ? total * 1000 / (uint64_t)ms : total));
    print(line);
    snprintf(line, sizeof line, "Nodes searched  : %llu", (unsigned long long)total);
    print(line);

    search_destroy(s);
    return total;
}
