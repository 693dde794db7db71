/* Perft with bulk counting at the last ply, a threaded divide, and the EPD
 * suite runner. */
#include "perft.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../movegen/util.h"

uint64_t perft(Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)gen_count_legal(pos);
    MoveList list;
    gen_legal(pos, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        nodes += perft(pos, depth - 1);
        pos_unmake_move(pos, list.moves[i]);
    }
    return nodes;
}

typedef struct {
    const Position *root;
    const MoveList *list;
    uint64_t *counts;
    int depth;
    atomic_int next;
} DivideJob;

typedef struct {
    DivideJob *job;
    Position *pos; /* this worker's copy of the root */
} DivideWorker;

static void *divide_worker(void *arg)
{
    DivideWorker *w = arg;
    DivideJob *job = w->job;
    for (;;) {
        int i = atomic_fetch_add(&job->next, 1);
        if (i >= job->list->count)
            break;
        memcpy(w->pos, job->root, sizeof *w->pos);
        pos_make_move(w->pos, job->list->moves[i]);
        job->counts[i] = perft(w->pos, job->depth - 1);
    }
    return NULL;
}

uint64_t perft_divide(const Position *root, int depth, int threads,
                      void (*print)(void *ctx, const char *line), void *ctx)
{
    enum { MAX_WORKERS = 256 };
    MoveList list;
    uint64_t counts[MAX_MOVES];
    gen_legal(root, &list);
    if (depth < 1)
        depth = 1;
    threads = threads < 1 ? 1 : threads > MAX_WORKERS ? MAX_WORKERS : threads;
    if (threads > list.count)
        threads = list.count > 0 ? list.count : 1;

    /* One root copy per worker, allocated before any thread starts. */
    Position *copies = malloc((size_t)threads * sizeof *copies);
    if (!copies && threads > 1) {
        threads = 1;
        copies = malloc(sizeof *copies);
    }
    if (!copies) {
        if (print)
            print(ctx, "info string error: perft: out of memory");
        return 0;
    }
    DivideJob job = {root, &list, counts, depth, 0};
    DivideWorker workers[MAX_WORKERS];
    for (int t = 0; t < threads; t++)
        workers[t] = (DivideWorker){&job, &copies[t]};
    /* The workers share the root moves: one whose thread did not start
     * finds them taken. */
    run_parallel(divide_worker, workers, sizeof *workers, threads);
    free(copies);

    uint64_t total = 0;
    char line[64], mv[8];
    for (int i = 0; i < list.count; i++) {
        total += counts[i];
        if (print) {
            move_to_uci(root, list.moves[i], mv);
            snprintf(line, sizeof line, "%s: %llu", mv, (unsigned long long)counts[i]);
            print(ctx, line);
        }
    }
    if (print) {
        print(ctx, "");
        snprintf(line, sizeof line, "Nodes searched: %llu", (unsigned long long)total);
        print(ctx, line);
    }
    return total;
}

/* Divide lines of a failed count, indented under it in the suite's output. */
static void print_indented(void *out, const char *line) { fprintf(out, "    %s\n", line); }

int perft_suite(const char *path, int max_depth, bool chess960, int threads, FILE *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    Position *pos = calloc(1, sizeof *pos);
    if (!pos) {
        fclose(f);
        return -1;
    }
    char line[4096], err[160];
    int lineno = 0, positions = 0, checked = 0, failed = 0, bad_lines = 0;
    uint64_t total_nodes = 0;
    int64_t start = now_ms();
    bool first_failure_shown = false;

    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
            continue;
        char *semi = strchr(p, ';');
        if (semi)
            *semi = '\0';
        if (!pos_set_fen(pos, p, chess960, err, sizeof err)) {
            fprintf(out, "%s:%d: bad FEN: %s\n", path, lineno, err);
            bad_lines++;
            continue;
        }
        positions++;
        char *q = semi ? semi + 1 : NULL;
        int pos_fail = 0, deepest = 0;
        while (q) {
            int d;
            unsigned long long expected;
            if (sscanf(q, " D%d %llu", &d, &expected) == 2 && d >= 1 && d <= max_depth) {
                uint64_t got = perft(pos, d);
                total_nodes += got;
                checked++;
                deepest = d > deepest ? d : deepest;
                if (got != expected) {
                    failed++;
                    pos_fail++;
                    char fen[128];
                    pos_get_fen(pos, fen, sizeof fen);
                    fprintf(out, "FAIL %s:%d D%d expected %llu got %llu  %s\n", path, lineno, d,
                            expected, (unsigned long long)got, fen);
                    if (!first_failure_shown) {
                        first_failure_shown = true;
                        fprintf(out, "  divide at depth %d:\n", d);
                        perft_divide(pos, d, threads, print_indented, out);
                    }
                }
            }
            q = strchr(q, ';');
            if (q)
                q++;
        }
        double el = (double)(now_ms() - start) / 1000.0;
        fprintf(out, "[%d] line %d %s to D%d | %d counts checked, %d failed | %.1f Mnps\n",
                positions, lineno, pos_fail ? "FAIL" : "ok", deepest, checked, failed,
                el > 0 ? (double)total_nodes / el / 1e6 : 0.0);
        fflush(out);
    }
    fclose(f);
    free(pos);
    double el = (double)(now_ms() - start) / 1000.0;
    fprintf(out,
            "perft suite %s: %d positions, %d counts checked, %d passed, %d failed%s "
            "(%llu nodes, %.1f s)\n",
            path, positions, checked, checked - failed, failed,
            bad_lines ? ", some lines unreadable" : "", (unsigned long long)total_nodes, el);
    return failed + bad_lines;
}
