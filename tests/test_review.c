/* `review` (engine/review.h) on the games of tests/data/review: a hanging
 * queen and a missed mate marked as blunders; the Laws' comments for an
 * illegal move, a claimable threefold, a fivefold and a 75-move ending that
 * the result ignores, a mate on the 75th move, a dead position and flag
 * falls with and without mating material; Chess960 castling; bad games
 * named with their line and skipped; the output read back by Rokade's own
 * reader with the same moves, tags and results; bad arguments refused with
 * the output left as it was. The searches use the hand-crafted evaluation at few nodes: what is
 * checked does not hang on a close call. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/review.h"
#include "../movegen/records/pgn.h"
#include "../movegen/records/record.h"
#include "harness.h"

static char Dir[] = "/tmp/rokade-review-test-XXXXXX";
static Search *S;

static void setup(void)
{
    harness_make_dir(Dir);
    movegen_init();
    S = search_create(8, NULL);
    cr_assert(S);
}

static void teardown(void)
{
    search_destroy(S);
    harness_remove_dir(Dir);
}

TestSuite(review, .init = setup, .fini = teardown, .timeout = 240);

typedef struct {
    char lines[64][1400];
    int count;
} Progress;

static void on_progress(void *ctx, const char *line)
{
    Progress *p = ctx;
    if (strncmp(line, "review: game ", 13) == 0 && strstr(line, "positions"))
        return; /* the per-position lines */
    if (p->count < 64)
        snprintf(p->lines[p->count++], sizeof p->lines[0], "%s", line);
}

/* Reviews `file` of tests/data/review at `nodes` a position into the
 * returned text (malloc'd); *games gets review_run's count. */
static char *review(const char *file, const char *budget, int *games, Progress *prog)
{
    char args[512], err[1400];
    snprintf(args, sizeof args, "tests/data/review/%s %s out %s/out.pgn", file, budget, Dir);
    ReviewOptions opt;
    cr_assert(review_parse(args, &opt, err, sizeof err), "%s", err);
    *games = review_run(S, &opt, NULL, on_progress, prog, err, sizeof err);
    cr_assert(*games >= 0, "%s", err);
    char path[256];
    snprintf(path, sizeof path, "%s/out.pgn", Dir);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = calloc(1, (size_t)n + 1);
    cr_assert(text && fread(text, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    return text;
}

/* The text of game `number` (from 1) of a review's output. */
static char *game_text(const char *all, int number)
{
    const char *p = all;
    for (int i = 1; i < number; i++) {
        p = strstr(p + 1, "\n[Event ");
        cr_assert(p, "no game %d", number);
    }
    const char *end = strstr(p + 1, "\n[Event ");
    size_t n = end ? (size_t)(end - p) : strlen(p);
    char *g = malloc(n + 1);
    memcpy(g, p, n);
    g[n] = '\0';
    /* One line: the writer wraps words at column 80. */
    for (char *q = g; *q; q++)
        if (*q == '\n')
            *q = ' ';
    return g;
}

static void has(const char *text, const char *what)
{
    cr_expect(strstr(text, what), "missing '%s' in:\n%s", what, text);
}

static void lacks(const char *text, const char *what)
{
    cr_expect(!strstr(text, what), "unexpected '%s' in:\n%s", what, text);
}

/* The annotated file read back by Rokade's reader: each game whole, with
 * the moves given. */
static void read_back(const int *moves, const char *const *results, int games)
{
    char path[256], err[600];
    snprintf(path, sizeof path, "%s/out.pgn", Dir);
    PgnPlayedReader *r = pgn_played_open(path, err, sizeof err);
    cr_assert(r, "%s", err);
    for (int i = 0; i < games; i++) {
        int rc = pgn_played_next(r, err, sizeof err);
        cr_assert_eq(rc, RECORD_GAME, "game %d: %s", i + 1, rc == RECORD_BAD_GAME ? err : "");
        const PgnPlayedGame *g = pgn_played_game(r);
        cr_expect(!g->stopped, "game %d stops at '%s': %s", i + 1, g->stop_text, g->stop_why);
        cr_expect_eq(g->move_count, moves[i], "game %d: %d moves", i + 1, g->move_count);
        cr_expect_str_eq(g->result, results[i], "game %d", i + 1);
        bool annotator = false;
        for (int k = 0; k < g->tag_count; k++)
            annotator |= !strcmp(g->tags[k].name, "Annotator");
        cr_expect(annotator);
    }
    cr_expect_eq(pgn_played_next(r, err, sizeof err), RECORD_END);
    pgn_played_close(r);
}

Test(review, blunders)
{
    int games;
    Progress prog = {0};
    char *all = review("blunders.pgn", "nodes 20000", &games, &prog);
    cr_assert_eq(games, 3);
    char *g1 = game_text(all, 1), *g2 = game_text(all, 2), *g3 = game_text(all, 3);
    has(g1, "3. Qxg7 $4 { [%eval");
    has(g1, "Blunder");
    has(g1, "Better was 3.");
    has(g1, "1 blunder.");
    /* The start position's evaluation opens the game's comment. */
    has(g1, "{ [%eval 0.");
    has(g2, "3... Nf6 $4");
    has(g2, "it allows a mate in 1");
    has(g2, "4. Qf3 $4");
    has(g2, "a mate in 1 was missed. Better was 4. Qxf7#.");
    has(g2, "( 4. Qxf7# { [%eval #1] } )");
    has(g2, "[%eval #1]"); /* after 3... Nf6: White mates in one */
    /* Black's mate in one is #-1 from White's view, counted in Black's moves. */
    has(g3, "2. g4 $4 { [%eval #-1] Blunder");
    has(g3, "2... Qh4# { Checkmate.");
    const int moves[] = {6, 7, 4};
    const char *const results[] = {"0-1", "*", "0-1"};
    read_back(moves, results, 3);
    free(g1);
    free(g2);
    free(g3);
    free(all);
}

Test(review, laws)
{
    int games;
    Progress prog = {0};
    char *all = review("laws.pgn", "nodes 5000", &games, &prog);
    cr_assert_eq(games, 6);
    char *g[7];
    for (int i = 1; i <= 6; i++)
        g[i] = game_text(all, i);
    /* Threefold: Black may claim by writing 4... Ng8 (9.2.1.1), then White
     * has the position for the third time (9.2.1.2). */
    has(g[1], "Black may now claim a draw by threefold repetition: by writing 4... Ng8");
    has(g[1], "(Article 9.2.1.1)");
    has(g[1], "White may now claim a draw: this position has appeared for the third time");
    lacks(g[1], "contradicts");
    /* Fivefold ignored by 1-0. */
    has(g[2], "8... Ng8");
    has(g[2], "The game ends here: a draw by fivefold repetition");
    has(g[2], "(Article 9.6.1)");
    has(g[2], "The moves after it do not count");
    has(g[2], "The result 1-0 contradicts the game");
    has(g[2], "so the result is 1/2-1/2");
    /* 75 moves: claimable from the start, automatic after 102. Qd5. */
    has(g[3], "White may now claim a draw: the last 50 moves by each player");
    has(g[3], "(Article 9.3.2)");
    has(g[3], "102. Qd5 { [%eval 0.00] The game ends here: a draw by the 75-move rule");
    has(g[3], "The result 1-0 contradicts the game");
    /* Mate on the 75th move stands. */
    has(g[4], "100. Qb8# { Checkmate. The game ends here: checkmate (Article 5.1.1).");
    lacks(g[4], "contradicts");
    lacks(g[4], "75-move");
    /* Dead position. */
    has(g[5], "1. Kxe2 { [%eval 0.00] The game ends here: a draw: a dead position");
    has(g[5], "(Article 5.2.2)");
    has(g[5], "The result 0-1 contradicts the game");
    /* An illegal move: reviewed up to it. */
    has(g[6], "Black's 'Nf6', which cannot be played: illegal move 'Nf6': it would leave the "
              "black king in check (Article 3.9)");
    has(g[6], "Article 7.5.1");
    has(g[6], "two minutes extra");
    lacks(g[6], "4. O-O");
    const int moves[] = {8, 17, 6, 1, 2, 5};
    const char *const results[] = {"1/2-1/2", "1-0", "1-0", "1-0", "0-1", "1-0"};
    read_back(moves, results, 6);
    for (int i = 1; i <= 6; i++)
        free(g[i]);
    free(all);
}

Test(review, clocks)
{
    int games;
    Progress prog = {0};
    char *all = review("clocks.pgn", "nodes 5000", &games, &prog);
    cr_assert_eq(games, 3);
    char *g1 = game_text(all, 1), *g2 = game_text(all, 2), *g3 = game_text(all, 3);
    /* The clocks are kept. */
    has(g1, "[%clk 0:00:05]");
    has(g3, "[%clk 0:00:01.5]");
    has(g1, "White's flag falls here");
    has(g1, "lost by the player whose flag fell: Black could still checkmate");
    has(g1, "blitz (Appendix B.1");
    has(g1, "Guideline III");
    lacks(g1, "contradicts");
    has(g2, "drawn: Black cannot checkmate White's king by any series of legal moves");
    has(g2, "standard play");
    has(g2, "The result 0-1 contradicts the game: White's flag fell, so the result is 1/2-1/2");
    has(g3, "Black's flag falls here (Termination tag)");
    has(g3, "rapid (Appendix A.1");
    lacks(g3, "contradicts");
    const int moves[] = {3, 3, 3};
    const char *const results[] = {"0-1", "0-1", "1-0"};
    read_back(moves, results, 3);
    free(g1);
    free(g2);
    free(g3);
    free(all);
}

Test(review, bad_games_are_named_and_skipped)
{
    int games;
    Progress prog = {0};
    char *all = review("bad.pgn", "depth 2", &games, &prog);
    cr_assert_eq(games, 1);
    const char *want[] = {
        "review: skipped: tests/data/review/bad.pgn:1: game 1: the game is cut off: no result "
        "before line 8",
        "review: skipped: tests/data/review/bad.pgn:13: game 2: 'Nf9' is not a move",
        "review: skipped: tests/data/review/bad.pgn:15: game 3: malformed tag 'Event'",
    };
    for (int k = 0; k < 3; k++) {
        bool seen = false;
        for (int i = 0; i < prog.count; i++)
            seen |= strncmp(prog.lines[i], want[k], strlen(want[k])) == 0;
        cr_expect(seen, "no '%s'", want[k]);
    }
    has(all, "[Event \"Good\"]");
    lacks(all, "Truncated");
    free(all);
}

Test(review, arguments)
{
    ReviewOptions opt;
    char err[600];
    cr_expect(!review_parse("", &opt, err, sizeof err));
    cr_expect(strstr(err, "no PGN file"), "%s", err);
    cr_expect(!review_parse("a.pgn nodes 0", &opt, err, sizeof err));
    cr_expect(strstr(err, "bad nodes"), "%s", err);
    cr_expect(!review_parse("a.pgn depth x", &opt, err, sizeof err));
    cr_expect(!review_parse("a.pgn nodes 5 depth 3", &opt, err, sizeof err));
    cr_expect(strstr(err, "one budget"), "%s", err);
    cr_expect(!review_parse("a.pgn fast 3", &opt, err, sizeof err));
    cr_expect(strstr(err, "unknown word 'fast'"), "%s", err);
    cr_expect(!review_parse("a.pgn out", &opt, err, sizeof err));
    cr_expect(!review_parse("a.pgn out a.pgn", &opt, err, sizeof err));
    cr_expect(strstr(err, "would replace"), "%s", err);
    cr_assert(review_parse("a.pgn movetime 50", &opt, err, sizeof err), "%s", err);
    cr_expect_eq(opt.limits.clock.movetime, 50);
    cr_assert(review_parse("a.pgn", &opt, err, sizeof err), "%s", err);
    cr_expect_eq(opt.limits.nodes, REVIEW_DEFAULT_NODES);

    /* A missing file: an error, and the output file untouched. */
    char out[256], args[600];
    snprintf(out, sizeof out, "%s/keep.pgn", Dir);
    FILE *f = fopen(out, "w");
    cr_assert(f);
    fputs("old\n", f);
    fclose(f);
    snprintf(args, sizeof args, "%s/missing.pgn depth 1 out %s", Dir, out);
    cr_assert(review_parse(args, &opt, err, sizeof err), "%s", err);
    cr_expect_eq(review_run(S, &opt, NULL, NULL, NULL, err, sizeof err), -1);
    cr_expect(strstr(err, "cannot read"), "%s", err);
    /* A file of no games. */
    char empty[256];
    snprintf(empty, sizeof empty, "%s/empty.pgn", Dir);
    f = fopen(empty, "w");
    cr_assert(f);
    fputs("\n  \n", f);
    fclose(f);
    snprintf(args, sizeof args, "%s depth 1 out %s", empty, out);
    cr_assert(review_parse(args, &opt, err, sizeof err), "%s", err);
    cr_expect_eq(review_run(S, &opt, NULL, NULL, NULL, err, sizeof err), -1);
    cr_expect(strstr(err, "no games"), "%s", err);
    f = fopen(out, "r");
    cr_assert(f);
    char line[16] = "";
    cr_expect(fgets(line, sizeof line, f) && !strcmp(line, "old\n"));
    fclose(f);
}

Test(review, chess960_castling)
{
    int games;
    Progress prog = {0};
    char *all = review("chess960.pgn", "nodes 5000", &games, &prog);
    cr_assert_eq(games, 1);
    char *g = game_text(all, 1);
    has(g, "[Variant \"Chess960\"]");
    has(g, "1. O-O {");
    has(g, "1... O-O-O {");
    has(g, "2. Kh1 {");
    const int moves[] = {4};
    const char *const results[] = {"1/2-1/2"};
    read_back(moves, results, 1);
    free(g);
    free(all);
}
