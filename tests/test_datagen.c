/* datagen tests: the records written are whole, valid, quiet positions with a
 * result and a bounded score; one thread is deterministic and more threads
 * play the same games; bad options, files and books are refused, and the
 * command line exits with status 2 on them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/datagen.h"
#include "../movegen/movegen.h"
#include "../movegen/packed.h"

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
    snprintf(args, sizeof args, "out %s threads 2 games 4 nodes 1000 seed 3", path);
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
        cr_expect(score > -DATAGEN_SCORE_BOUND && score < DATAGEN_SCORE_BOUND,
                  "record %ld: score %d", i, score);
        cr_expect_eq(pos_game_state(pos), GAME_ONGOING, "record %ld: a game position", i);
    }
    free(pos);
    free(data);
}

Test(datagen, one_thread_is_deterministic_and_threads_play_the_same_games)
{
    char p1[128], p2[128], p3[128], args[256];
    temp_path(p1, sizeof p1, "det1");
    temp_path(p2, sizeof p2, "det2");
    temp_path(p3, sizeof p3, "det3");
    snprintf(args, sizeof args, "out %s threads 1 games 3 nodes 800 seed 11", p1);
    run(args, NULL);
    snprintf(args, sizeof args, "out %s threads 1 games 3 nodes 800 seed 11", p2);
    run(args, NULL);
    snprintf(args, sizeof args, "out %s threads 3 games 3 nodes 800 seed 11", p3);
    run(args, NULL);
    long s1, s2, s3;
    unsigned char *d1 = read_all(p1, &s1), *d2 = read_all(p2, &s2), *d3 = read_all(p3, &s3);
    unlink(p1);
    unlink(p2);
    unlink(p3);
    cr_assert_eq(s1, s2);
    cr_expect(memcmp(d1, d2, (size_t)s1) == 0, "the same seed gives the same file");
    /* Three threads write the same records, perhaps in another order. */
    cr_assert_eq(s1, s3);
    long n = s1 / PACKED_SIZE, found = 0;
    for (long i = 0; i < n; i++)
        for (long k = 0; k < n; k++)
            if (!memcmp(d1 + i * PACKED_SIZE, d3 + k * PACKED_SIZE, PACKED_SIZE)) {
                found++;
                break;
            }
    cr_expect_eq(found, n);
    free(d1);
    free(d2);
    free(d3);
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
    static const struct { const char *args, *words; } Bad[] = {
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
    static const char *const Bad[] = {"", "games 3", "out /tmp/x nodes x",
                                      "out /nonexistent-dir/x games 1",
                                      "out /tmp/x book /nonexistent-book"};
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
