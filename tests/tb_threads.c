/* Syzygy probes from several threads at once, for the ThreadSanitizer build
 * (`make test-tsan` runs it; Criterion cannot start under TSan): every
 * position of ../shared/data/syzygy/reference.epd (ROKADE_SYZYGY overrides
 * the directory) probed for WDL and DTZ by 4 threads, each from another place
 * in the list, on tables mapped on first use. Exit status 0 when every probe
 * agrees with the reference; 0 with a message when the tables are absent. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../eval/syzygy/tbprobe.h"
#include "../movegen/movegen.h"
#include "tb_reference.h"

enum { THREADS = 4 };

int main(void)
{
    const char *dir = tb_ref_dir();
    TbRefLine *lines;
    const int count = tb_ref_load(dir, &lines);
    if (count == 0) {
        printf("tb_threads: no Syzygy test tables at %s: skipped\n", dir);
        free(lines);
        return 0;
    }
    movegen_init();
    if (tb_init(dir) == 0) {
        printf("tb_threads: no tables found at %s\n", dir);
        return 1;
    }
    pthread_t th[THREADS];
    TbRefJob jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (TbRefJob){.lines = lines, .count = count, .start = i, .wrong = 0};
        if (pthread_create(&th[i], NULL, tb_ref_probe_all, &jobs[i]) != 0)
            return 1;
    }
    long wrong = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        wrong += jobs[i].wrong;
    }
    tb_free();
    free(lines);
    printf("tb_threads: %d threads x %d positions, %ld wrong or failed probes\n", THREADS, count,
           wrong);
    return wrong != 0;
}
