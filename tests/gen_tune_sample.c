/* Writes the tuner's test data (tests/data/tune_sample.bin, `make
 * tune-sample`): packed records (movegen/records/packed.h) from short self-play games.
 * Each game starts from a bench position (or the start position) after 2 to
 * 9 random legal plies, then both sides play the best move of a depth-4
 * search (search_fixed_depth, one thread, table cleared per game); every
 * position not in check is recorded with that search's score. A game ends by
 * the rules (mate, stalemate, dead position, repetition, 50 moves), by
 * adjudication when a side's score stays above 1000 cp for 6 plies, or as a
 * draw after 200 plies; its result is then written into its records. The
 * RNG seed is fixed, so the file is the same on every run of one build.
 *
 * usage: gen_tune_sample OUT [RECORDS]   (default 4096 records, 128 KiB) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/positions.h"
#include "../movegen/movegen.h"
#include "../movegen/records/packed.h"
#include "../movegen/util.h"
#include "../search/search.h"

enum { DEPTH = 4, MAX_GAME_PLIES = 200, ADJUDICATE_CP = 1000, ADJUDICATE_PLIES = 6 };

static uint64_t Rng = 0x9E3779B97F4A7C15ull;

static unsigned rnd(unsigned n) { return (unsigned)((rng_next(&Rng) >> 32) % n); }

/* The generator's search: one thread, 16 MB, silent. */
static Search *S;

/* A start: a bench position or the start position, then random plies. False
 * if the random plies ended the game. */
static bool random_start(Position *pos)
{
    const int nb = (int)(sizeof BenchFens / sizeof BenchFens[0]);
    unsigned i = rnd((unsigned)nb + 1);
    char err[200];
    if (i == (unsigned)nb)
        pos_set_startpos(pos);
    else if (!pos_set_fen(pos, BenchFens[i], (int)i >= nb - 4, err, sizeof err)) {
        fprintf(stderr, "gen_tune_sample: bench position %u: %s\n", i + 1, err);
        exit(1);
    }
    for (unsigned n = 2 + rnd(8); n; n--) {
        MoveList list;
        gen_legal(pos, &list);
        if (!list.count)
            return false;
        pos_make_game_move(pos, list.moves[rnd((unsigned)list.count)]);
    }
    return pos_game_state(pos) == GAME_ONGOING;
}

/* Plays one game, appending its records to rec[*n .. max); a game that
 * fills the buffer is still played to its end for its result. */
static void play_game(Position *pos, PackedPos *rec, size_t *n, size_t max)
{
    size_t first = *n;
    int result = RESULT_DRAW, winning = 0, streak = 0;
    search_new_game(S);
    for (int ply = 0; ply < MAX_GAME_PLIES; ply++) {
        GameState gs = pos_game_state(pos);
        if (gs == GAME_CHECKMATE) {
            result = pos->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
            break;
        }
        if (gs != GAME_ONGOING)
            break;
        SearchResult r;
        search_position(S, pos, DEPTH, 0, &r);
        move_t best = r.best;
        int score = r.score;
        int white = pos->side == WHITE ? score : -score;
        if (*n < max && !pos_in_check(pos)
            && packed_from_position(pos, white, RESULT_DRAW, &rec[*n]))
            (*n)++;
        int side = white > ADJUDICATE_CP ? 1 : white < -ADJUDICATE_CP ? -1 : 0;
        streak = side && side == winning ? streak + 1 : side ? 1 : 0;
        winning = side;
        if (streak >= ADJUDICATE_PLIES) {
            result = side > 0 ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
            break;
        }
        pos_make_game_move(pos, best);
    }
    for (size_t i = first; i < *n; i++)
        rec[i].b[30] = (uint8_t)result;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: gen_tune_sample OUT [RECORDS]\n");
        return 2;
    }
    size_t max = argc == 3 ? strtoul(argv[2], NULL, 10) : 4096;
    if (max == 0 || max > 10000000) {
        fprintf(stderr, "gen_tune_sample: RECORDS must be from 1 to 10000000\n");
        return 2;
    }
    movegen_init();
    S = search_create(16, NULL);
    if (!S) {
        fprintf(stderr, "gen_tune_sample: cannot create the search\n");
        return 1;
    }
    PackedPos *rec = calloc(max, sizeof *rec);
    Position *pos = calloc(1, sizeof *pos);
    if (!rec || !pos) {
        fprintf(stderr, "gen_tune_sample: out of memory\n");
        free(rec);
        free(pos);
        return 1;
    }
    size_t n = 0;
    int games = 0, wins[3] = {0};
    while (n < max) {
        if (!random_start(pos))
            continue;
        size_t before = n;
        play_game(pos, rec, &n, max);
        games++;
        if (n > before)
            wins[rec[before].b[30]]++;
    }
    search_destroy(S);
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(rec, sizeof *rec, n, f) != n || fclose(f)) {
        fprintf(stderr, "gen_tune_sample: cannot write %s\n", argv[1]);
        return 1;
    }
    printf("%zu records from %d games (White won %d, drawn %d, Black won %d) in %s\n", n, games,
           wins[2], wins[1], wins[0], argv[1]);
    free(rec);
    free(pos);
    return 0;
}
