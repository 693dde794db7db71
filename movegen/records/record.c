/* What the formats share (record.h): the list of formats, and the writer,
 * which keeps the game's position and bytes while the format's steps encode. */
#include "record.h"

#include <stdlib.h>
#include <string.h>

#include "../util.h"

const RecordFormat *record_format(const char *name)
{
    static const RecordFormat *const Formats[] = {&RecordViriformat, &RecordPacked};
    for (size_t i = 0; i < sizeof Formats / sizeof Formats[0]; i++)
        if (!strcmp(name, Formats[i]->name))
            return Formats[i];
    return NULL;
}

bool record_writer_init(RecordWriter *w, const RecordFormat *format)
{
    memset(w, 0, sizeof *w);
    w->format = format;
    w->pos = malloc(sizeof *w->pos);
    return w->pos != NULL;
}

void record_writer_free(RecordWriter *w)
{
    free(w->pos);
    free(w->bytes);
    memset(w, 0, sizeof *w);
}

uint8_t *record_append(RecordWriter *w, size_t n)
{
    const GrowArray bytes[] = {{&w->bytes, 1}};
    if (!arrays_reserve(&w->cap, w->size + n, bytes, 1)) {
        w->error = "out of memory";
        return NULL;
    }
    uint8_t *p = w->bytes + w->size;
    memset(p, 0, n);
    w->size += n;
    return p;
}

void record_start(RecordWriter *w, const Position *start)
{
    memcpy(w->pos, start, sizeof *w->pos);
    w->size = 0;
    w->plies = w->positions = 0;
    w->error = NULL;
    w->ok = w->format->start(w);
}

void record_push(RecordWriter *w, move_t move, int score_white)
{
    if (!w->ok)
        return;
    w->ok = w->format->push(w, move, score_white);
    pos_make_game_move(w->pos, move);
    w->plies++;
}

bool record_finish(RecordWriter *w, int result_white)
{
    w->ok = w->ok && w->format->finish(w, result_white);
    return w->ok;
}

bool record_write_game(RecordWriter *w, const RecordGame *g)
{
    record_start(w, g->start);
    for (int i = 0; i < g->plies; i++)
        record_push(w, g->moves[i], g->scores[i]);
    return record_finish(w, g->result_white);
}
