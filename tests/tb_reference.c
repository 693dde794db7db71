/* The Syzygy reference file: see tb_reference.h. */
#include "tb_reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/syzygy/tbprobe.h"

const char *tb_ref_dir(void)
{
    const char *d = getenv("ROKADE_SYZYGY");
    return d && *d ? d : "../shared/data/syzygy";
}

int tb_ref_load(const char *dir, TbRefLine **lines)
{
    enum { CAP = 4096 };
    char path[512];
    snprintf(path, sizeof path, "%s/reference.epd", dir);
    FILE *f = fopen(path, "r");
    *lines = f ? calloc(CAP, sizeof **lines) : NULL;
    int n = 0;
    char line[512];
    while (*lines && n < CAP && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        TbRefLine *r = &(*lines)[n];
        if (!semi || (size_t)(semi - line) >= sizeof r->fen)
            continue;
        memcpy(r->fen, line, (size_t)(semi - line));
        r->fen[semi - line] = '\0';
        if (sscanf(semi, "; wdl %d; dtz %d; table %15s", &r->wdl, &r->dtz, r->table) == 3)
            n++;
    }
    if (f)
        fclose(f);
    return n;
}

void *tb_ref_probe_all(void *arg)
{
    TbRefJob *job = arg;
    long wrong = 0;
    for (int k = 0; k < job->count; k++) {
        const TbRefLine *r = &job->lines[(k + job->start * 97) % job->count];
        Position pos;
        char err[128];
        int wdl = 9, dtz = 999;
        if (!pos_set_fen(&pos, r->fen, false, err, sizeof err) || !tb_probe_wdl(&pos, &wdl)
            || !tb_probe_dtz(&pos, &dtz) || wdl != r->wdl || dtz != r->dtz)
            wrong++;
    }
    job->wrong = wrong;
    return NULL;
}
