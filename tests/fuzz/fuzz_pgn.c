/* libFuzzer target: the PGN reader of review (movegen/records/pgn.h, games
 * as they were played), fed arbitrary bytes as a file. Every game it gives
 * must hold up: a legal start position, moves that are legal one after the
 * other from it, clocks of -1 or more, a result that is one of the four
 * markers, tags with terminated names and values; a bad game must come with
 * a message. The sanitizers check the rest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../movegen/movegen.h"
#include "../../movegen/records/pgn.h"
#include "../../movegen/records/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static Position *Pos;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    movegen_init();
    Pos = calloc(1, sizeof *Pos);
    return Pos ? 0 : 1;
}

static void check_game(const PgnPlayedGame *g)
{
    static const char *const Results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    bool known = false;
    for (int i = 0; i < 4; i++)
        known |= !strcmp(g->result, Results[i]);
    if (!known || g->move_count < 0 || !pos_is_consistent(g->start))
        abort();
    for (int i = 0; i < g->tag_count; i++)
        if (!memchr(g->tags[i].name, '\0', sizeof g->tags[i].name)
            || !memchr(g->tags[i].value, '\0', sizeof g->tags[i].value))
            abort();
    memcpy(Pos, g->start, sizeof *Pos);
    for (int i = 0; i < g->move_count; i++) {
        move_t m = g->moves[i].move;
        if (!pos_is_pseudo_legal(Pos, m) || !pos_is_legal(Pos, m) || g->moves[i].clk_ms < -1)
            abort();
        pos_make_game_move(Pos, m);
    }
    if (g->stopped && !*g->stop_why)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    char *copy = malloc(size);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    FILE *f = fmemopen(copy, size, "r");
    if (!f) {
        free(copy);
        return 0;
    }
    char err[600];
    PgnPlayedReader *r = pgn_played_open_stream(f, "fuzz", err, sizeof err);
    if (!r)
        abort();
    int rc, games = 0;
    while ((rc = pgn_played_next(r, err, sizeof err)) != RECORD_END && rc != RECORD_FAILED
           && games < 1000) {
        games++;
        if (rc == RECORD_GAME)
            check_game(pgn_played_game(r));
        else if (strncmp(err, "fuzz:", 5) != 0)
            abort();
    }
    pgn_played_close(r);
    fclose(f);
    free(copy);
    return 0;
}
