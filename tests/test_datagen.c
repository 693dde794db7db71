/* datagen tests: the packed records are whole, valid, quiet positions; the
 * game format (movegen/records/viriformat.h) round-trips (Chess960 castling,
 * e.p., promotions), filters and refuses bad files; the two writers
 * (movegen/records/record.h) agree on the same games; datagen is
 * reproducible with one thread and a seed, plays the same games on more
 * threads, verifies its openings, ends its games by rules its scores
 * explain, appends with a new printed seed; genfens prints N legal FENs of
 * the seed; the PGN converter reads OpenBench's comments and skips bad games
 * with their line; relabel searches the kept positions again, in the input's
 * order on any threads, and resumes; bad options, files and books are refused, and the
 * command line exits with status 2 on them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/datagen.h"
#include "../engine/openings.h"
#include "../eval/nnue/nnue.h"
#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../movegen/records/packed.h"
#include "../movegen/records/record.h"
#include "../movegen/records/viriformat.h"
#include "../movegen/util.h"
#include "../search/search.h"

static void setup(void) { movegen_init(); }

TestSuite(datagen, .init = setup);

/* A fresh temporary path (the file is removed; datagen appends). */
static void temp_path(char *buf, size_t len, const char *tag)
{
    snprintf(buf, len, "/tmp/rokade-test-datagen-%s-XXXXXX", tag);
    int fd = mkstemp(buf);
    cr_assert(fd >= 0);
    close(fd);
    unlink(buf);
}

static unsigned char *read_all(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s was written", path);
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)*size + 1);
    cr_assert_not_null(data);
    cr_assert_eq(fread(data, 1, (size_t)*size, f), (size_t)*size);
    fclose(f);
    return data;
}

static void run(const char *args, DatagenStats *stats)
{
    DatagenOptions opt;
    char err[1400];
    cr_assert(datagen_parse(args, &opt, err, sizeof err), "%s: %s", args, err);
    cr_assert(datagen_run(&opt, NULL, stats, err, sizeof err), "%s: %s", args, err);
}

Test(datagen, records_are_valid_quiet_positions)
{
    char path[128], args[256];
    temp_path(path, sizeof path, "valid");
    snprintf(args, sizeof args, "out %s format packed threads 2 games 4 nodes 1000 seed 3", path);
    DatagenStats st;
    run(args, &st);
    long size;
    unsigned char *data = read_all(path, &size);
    unlink(path);
    cr_expect_eq(st.games + st.skipped, 4);
    cr_expect(st.games >= 3, "games played: %lld", st.games);
    cr_assert_eq(size % PACKED_SIZE, 0, "size %ld is a multiple of 32", size);
    cr_assert(size > 0);
    cr_expect_eq(size / PACKED_SIZE, st.positions);
    cr_expect_eq(st.white_wins + st.draws + st.black_wins, st.games);
    Position *pos = malloc(sizeof *pos);
    for (long i = 0; i < size / PACKED_SIZE; i++) {
        PackedPos rec;
        memcpy(rec.b, data + i * PACKED_SIZE, PACKED_SIZE);
        int score, result;
        char err[200];
        cr_assert(packed_to_position(&rec, pos, &score, &result, err, sizeof err), "record %ld: %s",
                  i, err);
        cr_expect(result >= 0 && result <= 2, "record %ld: result %d", i, result);
        cr_expect(!pos_in_check(pos), "record %ld is not in check", i);
        cr_expect(score > -PACKED_QUIET_SCORE && score < PACKED_QUIET_SCORE, "record %ld: score %d",
                  i, score);
        cr_expect_eq(pos_game_state(pos), GAME_ONGOING, "record %ld: a game position", i);
    }
    free(pos);
    free(data);
}

/* The games of a file in the game format, each as its bytes, sorted. */
typedef struct {
    unsigned char *data;
    long size;
    long offsets[64];
    int count;
} GameFile;

static void split_games(GameFile *gf, const char *path)
{
    gf->data = read_all(path, &gf->size);
    gf->count = 0;
    long at = 0;
    while (at < gf->size) {
        cr_assert(gf->count < 63);
        gf->offsets[gf->count++] = at;
        at += VF_HEADER_SIZE;
        while (at + VF_ENTRY_SIZE <= gf->size && memcmp(gf->data + at, "\0\0\0\0", 4) != 0)
            at += VF_ENTRY_SIZE;
        at += VF_ENTRY_SIZE;
    }
    cr_assert_eq(at, gf->size, "whole games");
    gf->offsets[gf->count] = at;
}

static bool has_game(const GameFile *gf, const unsigned char *game, long len)
{
    for (int i = 0; i < gf->count; i++)
        if (gf->offsets[i + 1] - gf->offsets[i] == len
            && !memcmp(gf->data + gf->offsets[i], game, (size_t)len))
            return true;
    return false;
}

Test(datagen, one_thread_is_deterministic_and_threads_play_the_same_games)
{
    char p1[128], p2[128], p3[128], p4[128], args[256];
    temp_path(p1, sizeof p1, "det1");
    temp_path(p2, sizeof p2, "det2");
    temp_path(p3, sizeof p3, "det3");
    temp_path(p4, sizeof p4, "det4");
    snprintf(args, sizeof args, "out %s threads 1 games 3 nodes 800 seed 11", p1);
    run(args, NULL);
    snprintf(args, sizeof args, "out %s threads 1 games 3 nodes 800 seed 11", p2);
    run(args, NULL);
    snprintf(args, sizeof args, "out %s threads 3 games 3 nodes 800 seed 11", p3);
    run(args, NULL);
    snprintf(args, sizeof args, "out %s threads 1 games 3 nodes 800 seed 12", p4);
    run(args, NULL);
    GameFile g1, g2, g3, g4;
    split_games(&g1, p1);
    split_games(&g2, p2);
    split_games(&g3, p3);
    split_games(&g4, p4);
    unlink(p1);
    unlink(p2);
    unlink(p3);
    unlink(p4);
    cr_assert_eq(g1.count, 3);
    cr_assert_eq(g1.size, g2.size);
    cr_expect(memcmp(g1.data, g2.data, (size_t)g1.size) == 0, "the same seed gives the same file");
    /* Three threads write the same games, perhaps in another order. */
    cr_assert_eq(g1.size, g3.size);
    for (int i = 0; i < g1.count; i++)
        cr_expect(has_game(&g3, g1.data + g1.offsets[i], g1.offsets[i + 1] - g1.offsets[i]),
                  "game %d is in the three-thread file", i);
    /* Another seed, other games. */
    for (int i = 0; i < g1.count; i++)
        cr_expect(!has_game(&g4, g1.data + g1.offsets[i], g1.offsets[i + 1] - g1.offsets[i]),
                  "game %d is not in the file of another seed", i);
    free(g1.data);
    free(g2.data);
    free(g3.data);
    free(g4.data);
}

/* Every game of a datagen file is valid, starts from a verified opening of
 * 8 or 9 random plies (some from Chess960 starts) and ends by a rule or an
 * adjudication its last scores explain. */
Test(datagen, games_are_whole_openings_verified_and_endings_explained)
{
    char path[128], args[256], err[300];
    temp_path(path, sizeof path, "games");
    snprintf(args, sizeof args, "out %s threads 1 games 6 nodes 1000 frc 50 seed 21", path);
    DatagenStats st;
    run(args, &st);
    cr_assert_eq(st.games, 6);
    VfReader *r = vf_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    Search *s = search_create(16, NULL);
    cr_assert_not_null(s);
    Position *pos = malloc(sizeof *pos);
    long long games = 0, positions = 0, results[3] = {0, 0, 0};
    int chess960 = 0, plies8 = 0;
    int st_code;
    while ((st_code = vf_next_game(r, err, sizeof err)) == RECORD_GAME) {
        RecordGame g = vf_game(r);
        games++;
        positions += g.plies;
        results[g.result_white]++;
        chess960 += g.start->chess960;
        plies8 += g.start->game_ply == 8;
        cr_expect(g.start->game_ply == 8 || g.start->game_ply == 9,
                  "game %lld: opening of %d plies", games, g.start->game_ply);
        search_new_game(s);
        SearchResult res;
        search_position(s, g.start, 0, OPENING_VERIFY_NODES, &res);
        cr_expect(res.score >= -OPENING_MAX_SCORE && res.score <= OPENING_MAX_SCORE,
                  "game %lld: opening scored %d", games, res.score);
        memcpy(pos, g.start, sizeof *pos);
        for (int i = 0; i < g.plies; i++)
            pos_make_game_move(pos, g.moves[i]);
        GameState gs = pos_game_state(pos);
        const int16_t *last = g.scores + g.plies;
        if (gs == GAME_CHECKMATE)
            cr_expect_eq(g.result_white,
                         pos->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS);
        else if (gs != GAME_ONGOING)
            cr_expect_eq(g.result_white, RESULT_DRAW, "game %lld: %s", games, game_state_text(gs));
        else if (g.result_white != RESULT_DRAW) {
            int sign = g.result_white == RESULT_WHITE_WINS ? 1 : -1;
            cr_assert(g.plies >= DATAGEN_WIN_PLIES);
            for (int i = 1; i <= DATAGEN_WIN_PLIES; i++)
                cr_expect(sign * last[-i] >= DATAGEN_WIN_SCORE, "game %lld: won, score %d", games,
                          last[-i]);
        } else if (g.plies < DATAGEN_MAX_PLIES) {
            cr_expect(pos->game_ply - 1 >= DATAGEN_DRAW_PLY, "game %lld: drawn at ply %d", games,
                      pos->game_ply);
            for (int i = 1; i <= DATAGEN_DRAW_PLIES; i++)
                cr_expect(last[-i] >= -DATAGEN_DRAW_SCORE && last[-i] <= DATAGEN_DRAW_SCORE,
                          "game %lld: drawn, score %d", games, last[-i]);
        }
    }
    cr_expect_eq(st_code, RECORD_END, "%s", err);
    cr_expect_eq(games, st.games);
    cr_expect_eq(positions, st.positions);
    cr_expect_eq(results[RESULT_WHITE_WINS], st.white_wins);
    cr_expect_eq(results[RESULT_DRAW], st.draws);
    cr_expect_eq(results[RESULT_BLACK_WINS], st.black_wins);
    cr_expect(chess960 > 0 && chess960 < games, "Chess960 starts: %d of %lld", chess960, games);
    cr_expect(plies8 > 0 && plies8 < games, "openings of 8 plies: %d of %lld", plies8, games);
    free(pos);
    search_destroy(s);
    vf_close(r);
    unlink(path);
}

static char Printed[8][2600];
static int PrintedCount;

static void capture(const char *line)
{
    if (PrintedCount < 8)
        snprintf(Printed[PrintedCount++], sizeof Printed[0], "%s", line);
}

/* Runs append whole games, each run without a seed takes a new one and
 * prints it, and a file that does not end with a whole game is refused. */
Test(datagen, runs_append_with_new_printed_seeds)
{
    char path[128], args[256], err[1400];
    temp_path(path, sizeof path, "resume");
    snprintf(args, sizeof args, "out %s threads 1 games 1 nodes 500 random 2 frc 0", path);
    unsigned long long seeds[2];
    long sizes[2];
    for (int i = 0; i < 2; i++) {
        DatagenOptions opt;
        cr_assert(datagen_parse(args, &opt, err, sizeof err));
        PrintedCount = 0;
        cr_assert(datagen_run(&opt, capture, NULL, err, sizeof err), "%s", err);
        cr_assert(PrintedCount >= 3);
        const char *seed = strstr(Printed[0], " seed ");
        cr_assert_not_null(seed, "the start line names the seed: %s", Printed[0]);
        seeds[i] = strtoull(seed + 6, NULL, 10);
        cr_expect(strstr(Printed[PrintedCount - 2], "positions/s"), "%s", Printed[1]);
        unsigned char *d = read_all(path, &sizes[i]);
        free(d);
    }
    cr_expect_neq(seeds[0], seeds[1], "a new seed each run");
    cr_expect(sizes[1] > sizes[0]);
    GameFile gf;
    split_games(&gf, path);
    cr_expect_eq(gf.count, 2, "one game of each run");
    free(gf.data);
    /* The first run again with its printed seed: the same game. */
    char p2[128];
    temp_path(p2, sizeof p2, "resume2");
    snprintf(args, sizeof args, "out %s threads 1 games 1 nodes 500 random 2 frc 0 seed %llu", p2,
             seeds[0]);
    run(args, NULL);
    long size2;
    unsigned char *d1 = read_all(path, &sizes[1]), *d2 = read_all(p2, &size2);
    cr_expect_eq(size2, sizes[0]);
    cr_expect(size2 == sizes[0] && !memcmp(d1, d2, (size_t)size2), "seed %llu repeats the game",
              seeds[0]);
    free(d1);
    free(d2);
    unlink(p2);
    /* A cut-off tail is refused, and so is a packed file of another length. */
    FILE *f = fopen(path, "ab");
    fputs("abc", f);
    fclose(f);
    snprintf(args, sizeof args, "out %s threads 1 games 1 nodes 500", path);
    DatagenOptions opt;
    cr_assert(datagen_parse(args, &opt, err, sizeof err));
    cr_expect(!datagen_run(&opt, NULL, NULL, err, sizeof err));
    cr_expect(strstr(err, "does not end with a whole game"), "%s", err);
    snprintf(args, sizeof args, "out %s threads 1 games 1 nodes 500 format packed", path);
    cr_assert(datagen_parse(args, &opt, err, sizeof err));
    cr_expect(!datagen_run(&opt, NULL, NULL, err, sizeof err));
    cr_expect(strstr(err, "32-byte record"), "%s", err);
    unlink(path);
}

Test(datagen, book_openings)
{
    char book[128], out[128], args[400];
    temp_path(book, sizeof book, "book");
    temp_path(out, sizeof out, "bookout");
    FILE *f = fopen(book, "w");
    cr_assert_not_null(f);
    fputs("# two openings\n"
          "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
          "\n"
          "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"x\";\n",
          f);
    fclose(f);
    snprintf(args, sizeof args, "out %s book %s games 2 threads 1 nodes 600", out, book);
    DatagenStats st;
    run(args, &st);
    cr_expect_eq(st.games, 2);
    cr_expect(st.positions > 0);
    /* A line that is not a position is refused with its line number. */
    f = fopen(book, "a");
    fputs("not a fen\n", f);
    fclose(f);
    DatagenOptions opt;
    char err[1400];
    cr_assert(datagen_parse(args, &opt, err, sizeof err));
    cr_expect(!datagen_run(&opt, NULL, NULL, err, sizeof err));
    cr_expect(strstr(err, "line 5"), "error: %s", err);
    unlink(book);
    unlink(out);
}

Test(datagen, bad_options_are_refused)
{
    static const struct {
        const char *args, *words;
    } Bad[] = {
        {"", "out FILE"},
        {"games 10", "out FILE"},
        {"out", "needs a value"},
        {"out /tmp/x games", "needs a value"},
        {"out /tmp/x games 0", "games"},
        {"out /tmp/x games ten", "games"},
        {"out /tmp/x threads 0", "threads"},
        {"out /tmp/x threads 99999", "threads"},
        {"out /tmp/x nodes -5", "nodes"},
        {"out /tmp/x random 1000", "random"},
        {"out /tmp/x seed -1", "seed"},
        {"out /tmp/x frc 101", "frc"},
        {"out /tmp/x format bin", "format: 'bin'"},
        {"out /tmp/x format", "needs a value"},
        {"out /tmp/x speed 3", "unknown option 'speed'"},
    };
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        DatagenOptions opt;
        char err[1400] = "";
        cr_expect(!datagen_parse(Bad[i].args, &opt, err, sizeof err), "'%s' is refused",
                  Bad[i].args);
        cr_expect(strstr(err, Bad[i].words), "'%s': error '%s' names '%s'", Bad[i].args, err,
                  Bad[i].words);
    }
    DatagenOptions opt;
    char err[1400];
    cr_assert(datagen_parse("out /nonexistent-dir/x.bin games 1", &opt, err, sizeof err));
    cr_expect(!datagen_run(&opt, NULL, NULL, err, sizeof err));
    cr_expect(strstr(err, "cannot open"), "%s", err);
    cr_assert(datagen_parse("out /tmp/x book /nonexistent-book.epd", &opt, err, sizeof err));
    cr_expect(!datagen_run(&opt, NULL, NULL, err, sizeof err));
    cr_expect(strstr(err, "book"), "%s", err);
}

/* The command line: a one-line error on stderr and exit status 2. */
Test(datagen, command_line_errors_exit_with_status_2)
{
    const char *exe = getenv("ROKADE");
    if (!exe)
        exe = "./rokade";
    if (access(exe, X_OK) != 0)
        cr_skip_test("no engine binary at %s (set ROKADE)", exe);
    static const char *const Bad[] = {"",
                                      "games 3",
                                      "out /tmp/x nodes x",
                                      "out /nonexistent-dir/x games 1",
                                      "out /tmp/x book /nonexistent-book",
                                      "pgn /nonexistent.pgn out /tmp/x"};
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        char cmd[512], line[1024];
        snprintf(cmd, sizeof cmd, "%s datagen %s 2>&1 >/dev/null", exe, Bad[i]);
        FILE *p = popen(cmd, "r");
        cr_assert_not_null(p);
        int lines = 0;
        while (fgets(line, sizeof line, p))
            lines++;
        int status = pclose(p);
        cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 2, "'datagen %s' exits with 2",
                  Bad[i]);
        cr_expect_eq(lines, 1, "'datagen %s': one error line, got %d", Bad[i], lines);
        cr_expect(strstr(line, "datagen"), "'%s'", line);
    }
}

/* ------------------------------------------------------------------------ */
/* The game format (movegen/records/viriformat.h)                                   */

/* The same position: pieces, side, castling rights and rooks, e.p., the
 * halfmove clock and the game ply (the key covers what it can). */
static void expect_same_position(const Position *a, const Position *b, const char *where)
{
    char fa[128], fb[128];
    pos_get_fen(a, fa, sizeof fa);
    pos_get_fen(b, fb, sizeof fb);
    cr_expect_eq(pos_key(a), pos_key(b), "%s: key of %s / %s", where, fa, fb);
    cr_expect(memcmp(a->board, b->board, sizeof a->board) == 0, "%s: board %s / %s", where, fa, fb);
    cr_expect_eq(a->side, b->side, "%s: side", where);
    cr_expect_eq(pos_st(a)->castling, pos_st(b)->castling, "%s: castling %s / %s", where, fa, fb);
    for (int i = 0; i < CR_INDEX_NB; i++)
        if (pos_st(a)->castling & (1 << i))
            cr_expect_eq(a->castle_rook[i], b->castle_rook[i], "%s: castling rook %d", where, i);
    int ea = pos_st(a)->ep_legal ? pos_st(a)->ep : SQ_NONE;
    int eb = pos_st(b)->ep_legal ? pos_st(b)->ep : SQ_NONE;
    cr_expect_eq(ea, eb, "%s: e.p. %s / %s", where, fa, fb);
    cr_expect_eq(pos_rule50(a), pos_rule50(b), "%s: halfmove clock %s / %s", where, fa, fb);
    cr_expect_eq(a->game_ply, b->game_ply, "%s: game ply %s / %s", where, fa, fb);
}

typedef struct {
    Position *start;
    move_t moves[400];
    int16_t scores[400];
    int plies, result;
    int castles, eps, promos;
} TestGame;

/* A random game from fen (castling, e.p. and promotions are played whenever
 * they are legal) with random scores and a result. */
static void random_game(TestGame *g, const char *fen, bool chess960, uint64_t seed)
{
    char err[200];
    g->start = malloc(sizeof *g->start);
    Position *pos = malloc(sizeof *pos);
    cr_assert(g->start && pos);
    cr_assert(pos_set_fen(g->start, fen, chess960, err, sizeof err), "%s: %s", fen, err);
    memcpy(pos, g->start, sizeof *pos);
    uint64_t rng = seed;
    g->plies = g->castles = g->eps = g->promos = 0;
    while (g->plies < 400 && pos_game_state(pos) == GAME_ONGOING) {
        MoveList list;
        gen_legal(pos, &list);
        move_t m = list.moves[rng_next(&rng) % (uint64_t)list.count];
        for (int i = 0; i < list.count; i++)
            if (move_kind(list.moves[i]) != MOVE_NORMAL)
                m = list.moves[i];
        g->castles += move_kind(m) == MOVE_CASTLING;
        g->eps += move_kind(m) == MOVE_EN_PASSANT;
        g->promos += move_kind(m) == MOVE_PROMOTION;
        g->moves[g->plies] = m;
        g->scores[g->plies] = (int16_t)((int)(rng_next(&rng) % 64001) - 32000);
        g->plies++;
        pos_make_game_move(pos, m);
    }
    g->result = (int)(rng_next(&rng) % 3);
    free(pos);
}

/* The game in the game format through the writer (w->bytes, w->size): a
 * header, an entry per ply and the terminator. */
static void encode_game(RecordWriter *w, const TestGame *g, int result)
{
    record_start(w, g->start);
    for (int i = 0; i < g->plies; i++)
        record_push(w, g->moves[i], g->scores[i]);
    cr_assert(record_finish(w, result));
    cr_assert_eq(w->size, VF_HEADER_SIZE + VF_ENTRY_SIZE * ((size_t)g->plies + 1));
    cr_assert_eq(w->positions, g->plies);
}

static void write_games(const char *path, TestGame *games, int n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    RecordWriter w;
    cr_assert(record_writer_init(&w, &RecordViriformat));
    for (int i = 0; i < n; i++) {
        encode_game(&w, &games[i], games[i].result);
        cr_assert_eq(fwrite(w.bytes, 1, w.size, f), w.size);
        if (i == 1) { /* an extension record, which readers skip */
            static const uint8_t Ext[] = {0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 3, 0, 1, 2, 3, 0, 0, 0, 0};
            cr_assert_eq(fwrite(Ext, 1, sizeof Ext, f), sizeof Ext);
        }
    }
    record_writer_free(&w);
    fclose(f);
}

Test(datagen, game_format_round_trips)
{
    static const struct {
        const char *fen;
        bool chess960;
    } Starts[] = {
        {START_FEN, false},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
        {"8/2P5/8/8/8/8/5p2/K1k5 w - - 0 60", false},
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
        {"1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9", true},
    };
    enum { N = sizeof Starts / sizeof Starts[0] };
    TestGame games[N];
    int castles960 = 0, eps = 0, promos = 0, castles = 0;
    for (int i = 0; i < N; i++) {
        random_game(&games[i], Starts[i].fen, Starts[i].chess960, 1000 + (uint64_t)i);
        castles += games[i].castles;
        castles960 += Starts[i].chess960 ? games[i].castles : 0;
        eps += games[i].eps;
        promos += games[i].promos;
    }
    cr_assert(castles960 > 0 && castles > castles960 && eps > 0 && promos > 0,
              "the games castle (%d, Chess960 %d), capture e.p. (%d) and promote (%d)", castles,
              castles960, eps, promos);
    char path[128], err[300];
    temp_path(path, sizeof path, "vf");
    write_games(path, games, N);

    VfReader *r = vf_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    Position *replay = malloc(sizeof *replay);
    VfFilter none = vf_filter_none();
    for (int i = 0; i < N; i++) {
        int st = vf_next_game(r, err, sizeof err);
        cr_assert_eq(st, RECORD_GAME, "game %d: %s", i, err);
        RecordGame g = vf_game(r);
        cr_expect_eq(g.number, i + 1);
        cr_expect_eq(g.result_white, games[i].result, "game %d: result", i);
        cr_assert_eq(g.plies, games[i].plies, "game %d: plies", i);
        cr_expect(memcmp(g.moves, games[i].moves, (size_t)g.plies * sizeof *g.moves) == 0);
        cr_expect(memcmp(g.scores, games[i].scores, (size_t)g.plies * sizeof *g.scores) == 0);
        expect_same_position(g.start, games[i].start, "start");
        memcpy(replay, games[i].start, sizeof *replay);
        VfPosition p;
        for (int ply = 0; ply < games[i].plies; ply++) {
            char where[64];
            snprintf(where, sizeof where, "game %d ply %d", i, ply);
            cr_assert(vf_next_position(r, &none, &p), "%s is yielded", where);
            expect_same_position(p.pos, replay, where);
            cr_expect_eq(p.move, games[i].moves[ply], "%s: move", where);
            cr_expect_eq(p.score_white, games[i].scores[ply], "%s", where);
            bool white = replay->side == WHITE;
            cr_expect_eq(p.score, white ? p.score_white : -p.score_white, "%s", where);
            cr_expect_eq(p.result_white, games[i].result, "%s", where);
            cr_expect_eq(p.result, white ? games[i].result : 2 - games[i].result, "%s", where);
            cr_expect_eq(p.ply, replay->game_ply, "%s", where);
            pos_make_game_move(replay, games[i].moves[ply]);
        }
        cr_expect(!vf_next_position(r, &none, &p), "game %d has no more positions", i);
        free(games[i].start);
    }
    cr_expect_eq(vf_next_game(r, err, sizeof err), RECORD_END);
    vf_close(r);
    free(replay);
    unlink(path);
}

/* The two writers on the same games: the packed one keeps exactly the quiet
 * positions (not in check, no capture or promotion played, |score| below
 * PACKED_QUIET_SCORE), each with its score and the result; a game read back
 * from the game format and written again is the same bytes; a start the
 * game format cannot hold is refused with the reason. */
Test(datagen, writers_agree)
{
    static const char *const Fens[] = {
        START_FEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"};
    RecordWriter packed, game, again;
    cr_assert(record_writer_init(&packed, record_format("packed")));
    cr_assert(record_writer_init(&game, record_format("game")));
    cr_assert(record_writer_init(&again, &RecordViriformat));
    cr_expect_eq(packed.format, &RecordPacked);
    cr_expect_eq(game.format, &RecordViriformat);
    cr_expect_null(record_format("pgn"));
    char path[128], err[300];
    temp_path(path, sizeof path, "writers");
    Position *pos = malloc(sizeof *pos), *back = malloc(sizeof *back);
    for (int k = 0; k < 2; k++) {
        TestGame g;
        random_game(&g, Fens[k], false, 50 + (uint64_t)k);
        for (int i = 0; i < g.plies; i++) /* most within the quiet bound */
            g.scores[i] = (int16_t)(g.scores[i] / 8);
        encode_game(&game, &g, g.result);
        record_start(&packed, g.start);
        for (int i = 0; i < g.plies; i++)
            record_push(&packed, g.moves[i], g.scores[i]);
        cr_assert(record_finish(&packed, g.result));
        memcpy(pos, g.start, sizeof *pos);
        int n = 0;
        for (int i = 0; i < g.plies; i++) {
            move_t m = g.moves[i];
            if (!pos_in_check(pos) && !pos_is_capture(pos, m) && move_kind(m) != MOVE_PROMOTION
                && g.scores[i] < PACKED_QUIET_SCORE && g.scores[i] > -PACKED_QUIET_SCORE) {
                cr_assert((size_t)(n + 1) * PACKED_SIZE <= packed.size, "game %d: record %d", k, n);
                PackedPos rec;
                memcpy(rec.b, packed.bytes + (size_t)n * PACKED_SIZE, PACKED_SIZE);
                int score, result;
                cr_assert(packed_to_position(&rec, back, &score, &result, err, sizeof err), "%s",
                          err);
                expect_same_position(back, pos, "packed record");
                cr_expect_eq(score, g.scores[i], "game %d ply %d", k, i);
                cr_expect_eq(result, g.result, "game %d ply %d", k, i);
                n++;
            }
            pos_make_game_move(pos, m);
        }
        cr_expect(n > 10, "game %d: %d quiet positions", k, n);
        cr_expect_eq(packed.positions, n);
        cr_expect_eq(packed.size, (size_t)n * PACKED_SIZE);

        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f);
        cr_assert_eq(fwrite(game.bytes, 1, game.size, f), game.size);
        fclose(f);
        VfReader *r = vf_open(path, err, sizeof err);
        cr_assert_not_null(r, "%s", err);
        cr_assert_eq(vf_next_game(r, err, sizeof err), RECORD_GAME, "%s", err);
        RecordGame read = vf_game(r);
        cr_assert(record_write_game(&again, &read));
        cr_expect_eq(again.positions, g.plies);
        cr_assert_eq(again.size, game.size);
        cr_expect(memcmp(again.bytes, game.bytes, game.size) == 0, "game %d written again", k);
        vf_close(r);
        free(g.start);
    }
    /* 40 pieces: no game-format header can hold them. */
    cr_assert(pos_set_fen(pos, "rnbqkbnr/8/pppppppp/pppppppp/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          false, err, sizeof err),
              "%s", err);
    record_start(&game, pos);
    record_push(&game, move_from_uci(pos, "g1f3"), 10);
    cr_expect(!record_finish(&game, RESULT_DRAW));
    cr_expect(game.error && strstr(game.error, "more than 32 pieces"), "%s",
              game.error ? game.error : "no reason");
    unlink(path);
    free(pos);
    free(back);
    record_writer_free(&packed);
    record_writer_free(&game);
    record_writer_free(&again);
}

/* The moves of a game in UCI notation, each checked legal. */
static int uci_moves(const Position *start, const char *const *uci, move_t *moves)
{
    Position *pos = malloc(sizeof *pos);
    memcpy(pos, start, sizeof *pos);
    int n = 0;
    for (; uci[n]; n++) {
        moves[n] = move_from_uci(pos, uci[n]);
        cr_assert_neq(moves[n], MOVE_NONE, "%s is legal", uci[n]);
        pos_make_game_move(pos, moves[n]);
    }
    free(pos);
    return n;
}

Test(datagen, game_format_filter)
{
    /* 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Be2 Nf6: two captures, a mate
     * score on 3... Qe5+ and White in check on move 4. */
    static const char *const Moves[] = {"e2e4", "d7d5", "e4d5", "d8d5", "b1c3",
                                        "d5e5", "f1e2", "g8f6", NULL};
    static const int16_t Scores[] = {20, -30, 40, 0, 10, -31900, -20, 15};
    /* Then a promotion to a knight and a quiet king move. */
    static const char *const Moves2[] = {"e7e8n", "a8b7", NULL};
    static const int16_t Scores2[] = {500, 480};
    TestGame g[2];
    char err[300];
    for (int i = 0; i < 2; i++) {
        g[i].start = malloc(sizeof *g[i].start);
        cr_assert(pos_set_fen(g[i].start, i ? "k7/4P3/8/8/8/8/8/K7 w - - 0 1" : START_FEN, false,
                              err, sizeof err));
        g[i].plies = uci_moves(g[i].start, i ? Moves2 : Moves, g[i].moves);
        memcpy(g[i].scores, i ? Scores2 : Scores, (size_t)g[i].plies * sizeof(int16_t));
        g[i].result = RESULT_BLACK_WINS;
    }
    char path[128];
    temp_path(path, sizeof path, "filter");
    write_games(path, g, 2);

    VfFilter def = vf_filter_default(), f = def;
    f.min_ply = 0;
    VfFilter min2 = f, noisy_only = vf_filter_none(), none = vf_filter_none();
    min2.min_ply = 2;
    noisy_only.skip_noisy = true;
    const struct {
        const VfFilter *f;
        const char *plies[2];
    } Cases[] = {
        {&none, {"01234567", "01"}},
        {&f, {"0147", "1"}}, /* captures, the mate score, in check, the promotion */
        {&min2, {"47", ""}}, /* and the plies before 2 */
        {&noisy_only, {"014567", "1"}},
        {&def, {"", ""}}, /* the first 16 plies */
    };
    for (size_t c = 0; c < sizeof Cases / sizeof Cases[0]; c++) {
        VfReader *r = vf_open(path, err, sizeof err);
        cr_assert_not_null(r, "%s", err);
        for (int i = 0; i < 2; i++) {
            cr_assert_eq(vf_next_game(r, err, sizeof err), RECORD_GAME, "%s", err);
            char got[16] = "";
            size_t n = 0;
            VfPosition p;
            while (vf_next_position(r, Cases[c].f, &p) && n < sizeof got - 1) {
                got[n++] = (char)('0' + p.ply);
                int k = p.ply - g[i].start->game_ply;
                cr_expect_eq(p.score_white, g[i].scores[k]);
                cr_expect_eq(p.result_white, RESULT_BLACK_WINS);
            }
            got[n] = '\0';
            cr_expect_str_eq(got, Cases[c].plies[i], "filter %zu game %d", c, i);
        }
        vf_close(r);
    }
    for (int i = 0; i < 2; i++)
        free(g[i].start);
    unlink(path);
}

/* Bad files: a game is refused whole (the next one is read), a truncated
 * file ends the reading, and nothing crashes. */
Test(datagen, game_format_bad_input)
{
    TestGame g;
    random_game(&g, START_FEN, false, 7);
    RecordWriter w;
    cr_assert(record_writer_init(&w, &RecordViriformat));
    encode_game(&w, &g, RESULT_DRAW);
    size_t size = w.size;
    uint8_t *good = malloc(size), *bad = malloc(size);
    memcpy(good, w.bytes, size);
    record_writer_free(&w);
    char path[128], err[300];
    temp_path(path, sizeof path, "bad");
    static const struct {
        size_t at;
        uint8_t value;
        const char *words;
    } Breaks[] = {
        {VF_HEADER_SIZE + 4 * 5, 0x3f, "illegal"}, /* the sixth move's from square */
        {30, 3, "bad start position"},             /* the result */
        {8, 0xff, "bad start position"},           /* a piece code */
    };
    for (size_t b = 0; b < sizeof Breaks / sizeof Breaks[0]; b++) {
        memcpy(bad, good, size);
        bad[Breaks[b].at] = Breaks[b].value;
        FILE *f = fopen(path, "wb");
        fwrite(bad, 1, size, f);
        fwrite(good, 1, size, f);
        fwrite(good, 1, size - 3, f); /* truncated */
        fclose(f);
        VfReader *r = vf_open(path, err, sizeof err);
        cr_assert_not_null(r);
        cr_expect_eq(vf_next_game(r, err, sizeof err), RECORD_BAD_GAME, "break %zu", b);
        cr_expect(strstr(err, Breaks[b].words) && strstr(err, "game 1"), "break %zu: %s", b, err);
        VfPosition p;
        cr_expect(!vf_next_position(r, NULL, &p));
        cr_expect_eq(vf_next_game(r, err, sizeof err), RECORD_GAME, "break %zu: %s", b, err);
        cr_expect_eq(vf_game(r).plies, g.plies);
        cr_expect_eq(vf_next_game(r, err, sizeof err), RECORD_FAILED);
        cr_expect(strstr(err, "truncated"), "%s", err);
        vf_close(r);
    }
    cr_expect_null(vf_open("/nonexistent-dir/x.vf", err, sizeof err));
    cr_expect(strstr(err, "cannot read"), "%s", err);
    unlink(path);
    free(good);
    free(bad);
    free(g.start);
}

/* ------------------------------------------------------------------------ */
/* genfens                                                                  */

static const char *engine_path(void)
{
    const char *exe = getenv("ROKADE");
    if (!exe)
        exe = "./rokade";
    if (access(exe, X_OK) != 0)
        cr_skip_test("no engine binary at %s (set ROKADE)", exe);
    return exe;
}

typedef struct {
    char lines[64][160];
    int count, fens;
} Output;

/* Runs the engine with the given arguments (shell words) and keeps its
 * lines; fens counts the "info string genfens " ones. */
static void run_engine(const char *args, Output *out)
{
    char cmd[1024], line[1024];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", engine_path(), args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    out->count = out->fens = 0;
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        out->fens += !strncmp(line, "info string genfens ", 20);
        if (out->count < 64)
            snprintf(out->lines[out->count++], sizeof out->lines[0], "%.159s", line);
    }
    cr_expect_eq(pclose(p), 0, "%s", cmd);
}

Test(datagen, genfens_prints_n_legal_fens_of_the_seed)
{
    Output a, b, c, d;
    run_engine("'genfens 24 seed 7 book None frc 50 ' quit", &a);
    run_engine("'genfens 24 seed 7 book None frc 50 ' quit", &b);
    run_engine("'genfens 24 seed 8 book None frc 50' quit", &c);
    run_engine("genfens 5 seed 7 book None frc 50", &d); /* shell words */
    cr_assert_eq(a.fens, 24, "exactly N FENs, got %d", a.fens);
    cr_assert_eq(a.count, 24, "and nothing else");
    cr_assert_eq(c.fens, 24);
    cr_assert_eq(d.fens, 5);
    /* The engine verified each opening with the built-in net (when the build
     * has one) in a search of its own table size: the same here, so that
     * the scores are the engine's own. */
    Search *s = search_create(DATAGEN_TT_MB, NULL);
    cr_assert_not_null(s);
    size_t net_size = 0;
    const uint8_t *net_data = nnue_embedded(&net_size);
    char net_err[200];
    NnueNet *net = net_data ? nnue_net_load(net_data, net_size, net_err, sizeof net_err) : NULL;
    cr_assert(!net_data || net, "the built-in net: %s", net_err);
    search_set_net(s, net);
    Position *pos = malloc(sizeof *pos);
    int chess960 = 0, common = 0;
    for (int i = 0; i < 24; i++) {
        const char *fen = a.lines[i] + 20;
        cr_expect_str_eq(a.lines[i], b.lines[i], "the same seed, the same FENs");
        if (i < 5)
            cr_expect_str_eq(a.lines[i], d.lines[i], "the first N of a longer run");
        for (int k = 0; k < 24; k++)
            common += !strcmp(a.lines[i], c.lines[k]);
        int fields = 0;
        for (const char *q = fen; *q; q++)
            fields += (q == fen || q[-1] == ' ') && *q != ' ';
        cr_expect_eq(fields, 6, "six fields: %s", fen);
        char err[200], again[128];
        cr_assert(pos_set_fen(pos, fen, true, err, sizeof err), "%s: %s", fen, err);
        pos->shredder_castling = false;
        pos_get_fen(pos, again, sizeof again);
        cr_expect_str_eq(again, fen, "X-FEN castling (KQkq for the outermost rooks)");
        cr_expect_eq(pos_game_state(pos), GAME_ONGOING, "%s", fen);
        cr_expect(pos->game_ply == 8 || pos->game_ply == 9, "8 or 9 plies: %s", fen);
        Position *std = malloc(sizeof *std);
        chess960 += !pos_set_fen(std, fen, false, err, sizeof err);
        free(std);
        search_new_game(s);
        SearchResult res;
        search_position(s, pos, 0, OPENING_VERIFY_NODES, &res);
        cr_expect(res.score >= -OPENING_MAX_SCORE && res.score <= OPENING_MAX_SCORE, "%s scored %d",
                  fen, res.score);
    }
    cr_expect(chess960 > 0 && chess960 < 24, "Chess960 openings: %d of 24", chess960);
    cr_expect(common < 3, "another seed, other FENs (%d in common)", common);
    free(pos);
    search_destroy(s);
    nnue_net_free(net);
}

Test(datagen, genfens_book_and_errors)
{
    char book[128], args[400];
    temp_path(book, sizeof book, "gbook");
    FILE *f = fopen(book, "w");
    cr_assert_not_null(f);
    fputs("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
          "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 3;\n",
          f);
    fclose(f);
    Output o;
    snprintf(args, sizeof args, "'genfens 3 seed 1 book %s' quit", book);
    run_engine(args, &o);
    cr_assert_eq(o.fens, 3);
    for (int i = 0; i < 3; i++)
        cr_expect(strstr(o.lines[i], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq")
                      || strstr(o.lines[i],
                                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w"),
                  "a book line: %s", o.lines[i]);
    snprintf(args, sizeof args, "'genfens 2 seed 1 book %s random 3' quit", book);
    run_engine(args, &o);
    cr_assert_eq(o.fens, 2);
    Position *pos = malloc(sizeof *pos);
    for (int i = 0; i < 2; i++) {
        char err[200];
        cr_assert(pos_set_fen(pos, o.lines[i] + 20, false, err, sizeof err), "%s", err);
        cr_expect(pos->game_ply == 4 || pos->game_ply == 7, "3 plies after a book line: %s",
                  o.lines[i]);
    }
    free(pos);
    unlink(book);
    static const char *const Bad[] = {
        "'genfens 0 seed 1 book None' quit",
        "'genfens 3 book None' quit",
        "'genfens 3 seed -1 book None' quit",
        "'genfens 3 seed 1' quit",
        "'genfens 3 seed 1 book None frc' quit",
        "'genfens 3 seed 1 book None depth 5' quit",
        "'genfens 3 seed 1 book /nonexistent-book.epd' quit",
    };
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        run_engine(Bad[i], &o);
        cr_expect_eq(o.fens, 0, "%s prints no FEN", Bad[i]);
        cr_expect(o.count == 1 && strstr(o.lines[0], "info string error: genfens"),
                  "%s: one error line: %s", Bad[i], o.count ? o.lines[0] : "");
    }
}

/* ------------------------------------------------------------------------ */
/* The PGN converter                                                        */

static const char TestPgn[] =
    "[Event \"fastchess comments, e.p.\"]\n" /* 1 */
    "[Result \"1-0\"]\n"
    "\n"
    "1. e4 {+0.31/12 0.101s, n=5012, sd=15} e6 {-0.25/12 0.090s, n=4800, sd=14}\n"
    "2. e5 {+0.40/13 0.100s} d5 {-0.35/12 0.100s} 3. exd6 {+0.50/12 0.100s}\n" /* 5 */
    "Bxd6 {-0.45/12 0.100s, White wins by adjudication} 1-0\n"
    "\n"
    "[Event \"an illegal move\"]\n"
    "[Result \"0-1\"]\n"
    "\n" /* 10 */
    "1. e4 {+0.31/12} e5 {-0.20/12}\n"
    "2. Ke3 {+0.10/10} Nc6 {-0.10/10} 0-1\n"
    "\n"
    "[Event \"Chess960, castling both ways\"]\n"
    "[FEN \"nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w GBgb - 0 1\"]\n" /* 15 */
    "[SetUp \"1\"]\n"
    "[Variant \"fischerandom\"]\n"
    "[Result \"1/2-1/2\"]\n"
    "\n"
    "1. f4 {+0.10/10} f5 {-0.05/10} 2. Nf2 {+0.20/11} Nf7 {-0.10/11} 3. e3 {+0.15/12}\n" /* 20 */
    "e6 {0.00/12} 4. Be2 {+0.12/12} Be7 {-0.08/12} 5. O-O {+0.30/13} O-O {-0.20/13}\n"
    "1/2-1/2\n"
    "\n"
    "[Event \"an unreadable comment\"]\n"
    "[Result \"1-0\"]\n" /* 25 */
    "\n"
    "1. d4 {+0.20/10} d5 {what a move} 2. c4 {+0.3/10} 1-0\n"
    "\n"
    "[Event \"cut off\"]\n"
    "\n" /* 30 */
    "1. d4 {+0.20/10} d5 {-0.20/10}\n"
    "\n"
    "[Event \"OpenBench compact, book moves, a promotion and mate scores\"]\n"
    "[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n"
    "[SetUp \"1\"]\n" /* 35 */
    "[Result \"1-0\"]\n"
    "\n"
    "1. Kd2 {book} Kd7 {book} 2. b8=Q {+M5/20} Ke7 {-M4/20} 3. Qb4+ {+M3/20} 1-0\n"
    "\n"
    "[Event \"a move without a score\"]\n" /* 40 */
    "\n"
    "1. e4 {+0.31/12} e5 2. Nf3 {+0.2/9} 1/2-1/2\n"
    "\n"
    "[Event \"truncated\"]\n"
    "\n" /* 45 */
    "1. e4 {+0.31/12} e5\n";

Test(datagen, pgn_converter)
{
    char in[128], out[128], args[400], err[1400];
    temp_path(in, sizeof in, "pgn");
    temp_path(out, sizeof out, "pgnout");
    FILE *f = fopen(in, "w");
    cr_assert_not_null(f);
    fputs(TestPgn, f);
    fclose(f);
    snprintf(args, sizeof args, "pgn %s out %s", in, out);
    DatagenOptions opt;
    DatagenStats st;
    cr_assert(datagen_parse(args, &opt, err, sizeof err), "%s", err);
    PrintedCount = 0;
    cr_assert(datagen_run(&opt, capture, &st, err, sizeof err), "%s", err);
    cr_expect_eq(st.games, 3);
    cr_expect_eq(st.skipped, 5);
    cr_expect_eq(st.positions, 6 + 10 + 3);
    /* One message per bad game, with the file and line, then the summary. */
    static const struct {
        int line;
        const char *words;
    } Bad[] = {
        {12, "illegal move 'Ke3': no white king can move to e3 (Article 3); game 2 skipped"},
        {27, "unreadable comment"},
        {29, "cut off: no result before line 33"},
        {42, "without a score"},
        {44, "cut off: no result before the end"},
    };
    cr_assert_eq(PrintedCount, 6);
    for (int i = 0; i < 5; i++) {
        char where[200];
        snprintf(where, sizeof where, "%s:%d: ", in, Bad[i].line);
        cr_expect(strstr(Printed[i], where) == Printed[i] && strstr(Printed[i], Bad[i].words),
                  "'%s' names %s and '%s'", Printed[i], where, Bad[i].words);
    }
    cr_expect(strstr(Printed[5], "games 3 positions 19 skipped 5"), "%s", Printed[5]);

    static const struct {
        const char *start, *moves;
        int16_t scores[10];
        int result;
    } Expect[] = {
        {START_FEN, "e2e4 e7e6 e4e5 d7d5 e5d6 f8d6", {31, 25, 40, 35, 50, 45}, RESULT_WHITE_WINS},
        {"nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1",
         "f2f4 f7f5 h1f2 h8f7 e2e3 e7e6 f1e2 f8e7 e1g1 e8g8",
         {10, 5, 20, 10, 15, 0, 12, 8, 30, 20},
         RESULT_DRAW},
        {"8/1P1k4/8/8/8/8/3K4/8 w - - 2 2",
         "b7b8q d7e7 b8b4",
         {31995, 31996, 31997},
         RESULT_WHITE_WINS},
    };
    VfReader *r = vf_open(out, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    Position *pos = malloc(sizeof *pos);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(vf_next_game(r, err, sizeof err), RECORD_GAME, "%s", err);
        RecordGame g = vf_game(r);
        char fen[128];
        pos_get_fen(g.start, fen, sizeof fen);
        cr_expect_str_eq(fen, Expect[i].start, "game %d: the start after the book moves", i);
        cr_expect_eq(g.start->chess960, i == 1);
        cr_expect_eq(g.result_white, Expect[i].result);
        memcpy(pos, g.start, sizeof *pos);
        Tokens t = {Expect[i].moves};
        char uci[8];
        int ply = 0;
        while (tok_next(&t, uci, sizeof uci) > 0) {
            cr_assert(ply < g.plies, "game %d: %d plies", i, g.plies);
            move_t m = move_from_uci(pos, uci);
            cr_expect_eq(g.moves[ply], m, "game %d ply %d: %s", i, ply, uci);
            cr_expect_eq(g.scores[ply], Expect[i].scores[ply], "game %d ply %d", i, ply);
            pos_make_game_move(pos, m);
            ply++;
        }
        cr_expect_eq(ply, g.plies, "game %d", i);
    }
    cr_expect_eq(vf_next_game(r, err, sizeof err), RECORD_END);
    vf_close(r);
    free(pos);

    /* The converter takes only in and out, and a missing file is an error. */
    snprintf(args, sizeof args, "pgn %s out %s games 3", in, out);
    cr_expect(!datagen_parse(args, &opt, err, sizeof err));
    cr_expect(strstr(err, "only 'out FILE'"), "%s", err);
    snprintf(args, sizeof args, "pgn /nonexistent.pgn out %s", out);
    cr_assert(datagen_parse(args, &opt, err, sizeof err));
    cr_expect(!datagen_run(&opt, NULL, NULL, err, sizeof err));
    cr_expect(strstr(err, "cannot read"), "%s", err);
    unlink(in);
    unlink(out);
}

/* Random bytes and cut-off files do not crash the converter. */
Test(datagen, pgn_converter_survives_garbage)
{
    char in[128], out[128], args[400], err[1400];
    temp_path(in, sizeof in, "garbage");
    temp_path(out, sizeof out, "garbageout");
    uint64_t rng = 99;
    size_t len = strlen(TestPgn);
    for (int round = 0; round < 40; round++) {
        FILE *f = fopen(in, "w");
        cr_assert_not_null(f);
        size_t cut = (size_t)(rng_next(&rng) % len);
        for (size_t i = 0; i < cut; i++) {
            int c = (unsigned char)TestPgn[i];
            if (rng_next(&rng) % 50 == 0)
                c = (int)(rng_next(&rng) % 256);
            fputc(c, f);
        }
        fclose(f);
        snprintf(args, sizeof args, "pgn %s out %s", in, out);
        DatagenOptions opt;
        DatagenStats st;
        cr_assert(datagen_parse(args, &opt, err, sizeof err));
        cr_expect(datagen_run(&opt, NULL, &st, err, sizeof err), "%s", err);
        unlink(out);
    }
    unlink(in);
}

/* ---- datagen relabel ------------------------------------------------------ */

static bool same_bytes(const char *a, const char *b)
{
    long na, nb;
    unsigned char *x = read_all(a, &na), *y = read_all(b, &nb);
    bool same = na == nb && na > 0 && !memcmp(x, y, (size_t)na);
    free(x);
    free(y);
    return same;
}

/* relabel: the same games, moves and results in the input's order; the
 * scores of the positions the trainer keeps are exactly those of a search
 * of the given nodes made as the relabel makes it (a new game, then the
 * game's positions in turn), the others are the input's; one thread and two
 * write the same bytes; a run that finds the output holding the first games
 * goes on after them and ends with the same file as a run from nothing. */
Test(datagen, relabel_searches_the_kept_positions_again)
{
    char in[128], a[128], b[128], c[128], prefix[128], args[600], err[1400];
    temp_path(in, sizeof in, "rl-in");
    temp_path(a, sizeof a, "rl-a");
    temp_path(b, sizeof b, "rl-b");
    temp_path(c, sizeof c, "rl-c");
    temp_path(prefix, sizeof prefix, "rl-prefix");
    DatagenStats st;
    snprintf(args, sizeof args, "out %s games 6 threads 1 nodes 600 seed 11", in);
    run(args, &st);
    cr_assert_eq(st.games, 6);
    const long long in_positions = st.positions;

    snprintf(args, sizeof args, "relabel %s out %s nodes 1500 threads 1", in, a);
    run(args, &st);
    cr_assert_eq(st.games, 6);
    cr_assert_eq(st.positions, in_positions);
    snprintf(args, sizeof args, "relabel %s out %s nodes 1500 threads 2", in, b);
    run(args, &st);
    cr_assert(same_bytes(a, b), "one thread and two wrote different files");

    /* Game by game against the input, the first game's kept scores against
     * searches made here. */
    VfReader *ri = vf_open(in, err, sizeof err), *ra = vf_open(a, err, sizeof err);
    cr_assert(ri && ra, "%s", err);
    Position *pos = malloc(sizeof *pos);
    Search *s = search_create(DATAGEN_TT_MB, NULL);
    cr_assert(pos && s);
    const VfFilter filter = vf_filter_default();
    int kept = 0, changed = 0, other = 0;
    for (int game = 0; game < 6; game++) {
        cr_assert_eq(vf_next_game(ri, err, sizeof err), RECORD_GAME, "%s", err);
        cr_assert_eq(vf_next_game(ra, err, sizeof err), RECORD_GAME, "%s", err);
        RecordGame gi = vf_game(ri), ga = vf_game(ra);
        char fi[128], fa[128];
        pos_get_fen(gi.start, fi, sizeof fi);
        pos_get_fen(ga.start, fa, sizeof fa);
        cr_assert_str_eq(fi, fa, "game %d", game);
        cr_assert_eq(gi.result_white, ga.result_white, "game %d", game);
        cr_assert_eq(gi.plies, ga.plies, "game %d", game);
        memcpy(pos, gi.start, sizeof *pos);
        search_new_game(s);
        for (int i = 0; i < gi.plies; i++) {
            cr_assert_eq(gi.moves[i], ga.moves[i], "game %d ply %d", game, i);
            if (!vf_filter_pass(&filter, pos, gi.moves[i], gi.scores[i])) {
                cr_assert_eq(ga.scores[i], gi.scores[i], "game %d ply %d: not kept, changed", game,
                             i);
                other++;
            } else {
                kept++;
                changed += ga.scores[i] != gi.scores[i];
                if (game == 0) {
                    SearchResult res;
                    cr_assert(search_position(s, pos, 0, 1500, &res));
                    int white = pos->side == WHITE ? res.score : -res.score;
                    cr_assert_eq(ga.scores[i], white, "game 0 ply %d: %d, a search here %d", i,
                                 ga.scores[i], white);
                }
            }
            pos_make_game_move(pos, gi.moves[i]);
        }
    }
    cr_assert_eq(vf_next_game(ra, err, sizeof err), RECORD_END);
    cr_assert(kept > 100 && other > 20, "kept %d, other %d", kept, other);
    cr_assert(changed > kept / 4, "only %d of %d kept scores changed at 1500 nodes", changed, kept);
    vf_close(ri);
    vf_close(ra);
    search_destroy(s);
    free(pos);

    /* The first two games as an output cut off: the next run goes on. */
    RecordWriter w;
    cr_assert(record_writer_init(&w, &RecordViriformat));
    ri = vf_open(in, err, sizeof err);
    FILE *f = fopen(prefix, "wb");
    cr_assert(ri && f);
    for (int game = 0; game < 2; game++) {
        cr_assert_eq(vf_next_game(ri, err, sizeof err), RECORD_GAME);
        RecordGame g = vf_game(ri);
        cr_assert(record_write_game(&w, &g));
        cr_assert_eq(fwrite(w.bytes, 1, w.size, f), w.size);
    }
    fclose(f);
    vf_close(ri);
    record_writer_free(&w);
    snprintf(args, sizeof args, "relabel %s out %s nodes 1500 threads 2", prefix, c);
    run(args, &st);
    cr_assert_eq(st.games, 2);
    snprintf(args, sizeof args, "relabel %s out %s nodes 1500 threads 2", in, c);
    run(args, &st);
    cr_assert_eq(st.games, 4, "the run went on after the 2 games there");
    cr_assert(same_bytes(a, c), "a resumed relabel differs from one from nothing");
    run(args, &st);
    cr_assert_eq(st.games, 0, "a finished output got more games");
    cr_assert(same_bytes(a, c));

    /* Refused: the input as the output, other options, a missing input, an
     * output that does not end with a whole game (left as it was). */
    DatagenOptions opt;
    snprintf(args, sizeof args, "relabel %s out %s", in, in);
    cr_assert(datagen_parse(args, &opt, err, sizeof err), "%s", err);
    cr_assert(!datagen_run(&opt, NULL, NULL, err, sizeof err));
    cr_assert(strstr(err, "another file"), "%s", err);
    const char *bad_args[] = {"games 3", "seed 4", "book x.epd", "format packed", "pgn x.pgn"};
    for (int i = 0; i < 5; i++) {
        snprintf(args, sizeof args, "relabel %s out %s %s", in, b, bad_args[i]);
        cr_assert(!datagen_parse(args, &opt, err, sizeof err), "%s was taken", args);
        cr_assert(strstr(err, "only 'out FILE', 'nodes N' and 'threads N'"), "%s", err);
    }
    /* The input as the output by another name: its games are all there
     * already, so nothing is read past them and the file stays as it was. */
    long len0, len1;
    free(read_all(in, &len0));
    snprintf(args, sizeof args, "relabel %s out /tmp/../tmp/%s", in, in + strlen("/tmp/"));
    run(args, &st);
    cr_assert_eq(st.games, 0);
    free(read_all(in, &len1));
    cr_assert_eq(len0, len1);
    snprintf(args, sizeof args, "relabel /nonexistent.vf out %s", b);
    cr_assert(datagen_parse(args, &opt, err, sizeof err));
    cr_assert(!datagen_run(&opt, NULL, NULL, err, sizeof err));
    cr_assert(strstr(err, "/nonexistent.vf"), "%s", err);
    f = fopen(b, "ab");
    cr_assert(f);
    fputs("xyz", f);
    fclose(f);
    long before, after;
    free(read_all(b, &before));
    snprintf(args, sizeof args, "relabel %s out %s", in, b);
    cr_assert(datagen_parse(args, &opt, err, sizeof err));
    cr_assert(!datagen_run(&opt, NULL, NULL, err, sizeof err));
    cr_assert(strstr(err, "not appending"), "%s", err);
    free(read_all(b, &after));
    cr_assert_eq(before, after);
    unlink(in);
    unlink(a);
    unlink(b);
    unlink(c);
    unlink(prefix);
}
