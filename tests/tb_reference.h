/* The Syzygy reference file (../shared/data/syzygy/reference.epd: positions
 * with the WDL and DTZ an independent prober gave), shared by the prober's
 * tests (test_syzygy.c) and the ThreadSanitizer program (tb_threads.c). */
#ifndef ROKADE_TB_REFERENCE_H
#define ROKADE_TB_REFERENCE_H

typedef struct {
    char fen[128];
    int wdl, dtz;
    char table[16];
} TbRefLine;

/* The directory of the test tables: ROKADE_SYZYGY, else ../shared/data/syzygy. */
const char *tb_ref_dir(void);
/* Reads dir/reference.epd into *lines (allocated); the number of lines, 0
 * when the file is absent or unreadable. */
int tb_ref_load(const char *dir, TbRefLine **lines);

/* One thread's probes of every line, starting at another place per `start`. */
typedef struct {
    const TbRefLine *lines;
    int count, start;
    long wrong; /* out: probes that failed or disagree with the reference */
} TbRefJob;

/* pthread entry: probes WDL and DTZ of job->lines (a TbRefJob *). */
void *tb_ref_probe_all(void *job);

#endif
