/* Syzygy probes from several threads at once, for the ThreadSanitizer build
 * (`make test-tsan` runs it; Criterion cannot start under TSan): every
 * position of ../shared/data/syzygy/reference.epd (ROKADE_SYZYGY overrides
 * the directory) probed for WDL and DTZ by 4 threads, each from another place
 * in the list, on tables mapped on first use. Exit status 0 when every probe
 * agrees with the reference; 0 with a message when the tables are absent. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/syzygy/tbprobe.h"
#include "../movegen/movegen.h"

enum { THREADS = 4, MAX_LINES = 4096 };

typedef struct {
    char fen[128];
    int wdl, dtz;
} Line;

static Line Lines[MAX_LINES];
static int Count;

/* One thread's work: where it starts in the list, and its wrong probes. */
typedef struct {
    int start;
    long wrong;
} ProbeJob;

static void *probe_all(void *arg)
{
    ProbeJob *job = arg;
    long wrong = 0;
    const int start = job->start;
    for (int k = 0; k < Count; k++) {
        const Line *l = &Lines[(k + start * 97) % Count];
        Position pos;
        char err[128];
        int wdl = 9, dtz = 999;
        if (!pos_set_fen(&pos, l->fen, false, err, sizeof err) || !tb_probe_wdl(&pos, &wdl)
            || !tb_probe_dtz(&pos, &dtz) || wdl != l->wdl || dtz != l->dtz)
            wrong++;
    }
    job->wrong = wrong;
    return NULL;
}

int main(void)
{
    const char *dir = getenv("ROKADE_SYZYGY");
    if (!dir || !*dir)
        dir = "../shared/data/syzygy";
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/reference.epd", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("tb_threads: no Syzygy test tables at %s: skipped\n", dir);
        return 0;
    }
    while (Count < MAX_LINES && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi || (size_t)(semi - line) >= sizeof Lines[0].fen)
            continue;
        memcpy(Lines[Count].fen, line, (size_t)(semi - line));
        Lines[Count].fen[semi - line] = '\0';
        if (sscanf(semi, "; wdl %d; dtz %d", &Lines[Count].wdl, &Lines[Count].dtz) == 2)
            Count++;
    }
    fclose(f);
    movegen_init();
    if (tb_init(dir) == 0) {
        printf("tb_threads: no tables found at %s\n", dir);
        return 1;
    }
    pthread_t th[THREADS];
    ProbeJob jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (ProbeJob){.start = i, .wrong = 0};
        if (pthread_create(&th[i], NULL, probe_all, &jobs[i]) != 0)
            return 1;
    }
    long wrong = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        wrong += jobs[i].wrong;
    }
    tb_free();
    printf("tb_threads: %d threads x %d positions, %ld wrong or failed probes\n", THREADS, Count,
           wrong);
    return wrong != 0;
}
