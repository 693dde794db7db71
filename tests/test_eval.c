/* Evaluation: colour symmetry on every position of the perft suites and of
 * random games from them, dead positions scored 0, and an eval that stays
 * inside the score range. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/eval.h"
#include "../movegen/movegen.h"
#include "../search/score.h"

static void setup(void) { movegen_init(); }

TestSuite(eval, .init = setup);

/* The colour-flipped mirror of a FEN: ranks reversed, colours swapped, the
 * other side to move, castling letters and the e.p. rank mirrored. */
static void mirror_fen(const char *fen, char *out, size_t n)
{
    char board[128], side[8], castle[16], ep[8], rest[64] = "";
    cr_assert(sscanf(fen, "%127s %7s %15s %7s %63[^\n]", board, side, castle, ep, rest) >= 4,
              "bad FEN %s", fen);
    char ranks[8][16];
    int r = 0;
    for (char *tok = strtok(board, "/"); tok && r < 8; tok = strtok(NULL, "/"))
        snprintf(ranks[r++], sizeof ranks[0], "%s", tok);
    cr_assert_eq(r, 8);
    char flipped[128] = "";
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = isupper((unsigned char)*c) ? (char)tolower((unsigned char)*c)
                                             : (char)toupper((unsigned char)*c);
        strcat(flipped, ranks[i]);
        if (i)
            strcat(flipped, "/");
    }
    for (char *c = castle; *c; c++)
        if (*c != '-')
            *c = isupper((unsigned char)*c) ? (char)tolower((unsigned char)*c)
                                             : (char)toupper((unsigned char)*c);
    if (ep[0] != '-')
        ep[1] = (char)('1' + '8' - ep[1]);
    snprintf(out, n, "%s %s %s %s %s", flipped, side[0] == 'w' ? "b" : "w", castle, ep, rest);
}

static int eval_fen(const char *fen, bool c960)
{
    Position *pos = calloc(1, sizeof *pos);
    char err[200];
    cr_assert(pos_set_fen(pos, fen, c960, err, sizeof err), "%s: %s", fen, err);
    int v = eval_position(pos);
    free(pos);
    return v;
}

static int check_suite(const char *path, bool c960, int walk_plies)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot open %s", path);
    char line[512];
    int checked = 0;
    unsigned seed = 12345;
    Position *pos = calloc(1, sizeof *pos);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, ";\r\n")] = '\0';
        char err[200], fen[128], mir[160];
        if (!pos_set_fen(pos, line, c960, err, sizeof err))
            continue;
        /* The position itself and a short random walk from it. */
        for (int ply = 0; ply <= walk_plies; ply++) {
            pos_get_fen(pos, fen, sizeof fen);
            mirror_fen(fen, mir, sizeof mir);
            int a = eval_fen(fen, c960), b = eval_fen(mir, c960);
            cr_assert_eq(a, b, "eval %d for %s but %d for its mirror %s", a, fen, b, mir);
            cr_assert(a > SCORE_MATED_IN_MAX && a < SCORE_MATE_IN_MAX, "eval %d out of range", a);
            checked++;
            MoveList list;
            gen_legal(pos, &list);
            if (!list.count)
                break;
            seed = seed * 1103515245u + 12345u;
            pos_make_game_move(pos, list.moves[(seed >> 16) % (unsigned)list.count]);
        }
    }
    fclose(f);
    free(pos);
    return checked;
}

Test(eval, colour_symmetry)
{
    int n = check_suite("perft/standard.epd", false, 8);
    n += check_suite("perft/tricky.epd", false, 8);
    n += check_suite("perft/chess960.epd", true, 2);
    cr_assert(n > 3000, "only %d positions checked", n);
}

Test(eval, dead_positions_score_zero)
{
    static const char *const Dead[] = {
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KB3/8/8 b - - 0 1",
        "8/8/4k3/8/3n4/3K4/8/8 w - - 0 1",
        "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1", /* both bishops on dark squares */
    };
    for (size_t i = 0; i < sizeof Dead / sizeof *Dead; i++)
        cr_assert_eq(eval_fen(Dead[i], false), 0, "%s is dead but scores %d", Dead[i],
                     eval_fen(Dead[i], false));
}

Test(eval, material_points_the_right_way)
{
    /* A queen up is clearly better for the side that has it, from both sides. */
    int w = eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false);
    int b = eval_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", false);
    cr_assert(w > 500 && b < -500, "queen up: %d (white to move), %d (black to move)", w, b);
}
