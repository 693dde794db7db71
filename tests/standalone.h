/* The part of Criterion that tests/test_simd.c uses, for the builds where
 * Criterion cannot run: ARM64 under qemu-user (Criterion starts each test
 * by executing the program again, which qemu-user without binfmt_misc
 * cannot) and Windows under Wine (Debian has no Criterion for mingw-w64).
 * The tests run one after another in this one process; the first failed
 * assertion prints where and why and exits with status 1, so a test that
 * fails cannot be taken for one that passed. Built with -DTEST_STANDALONE
 * (make test-cross). */
#ifndef ROKADE_TEST_STANDALONE_H
#define ROKADE_TEST_STANDALONE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    void (*init)(void);
    void (*fini)(void);
} StandaloneSuite;

typedef struct {
    const char *suite, *name;
    void (*fn)(void);
} StandaloneTest;

enum { STANDALONE_MAX_TESTS = 64 };
static StandaloneTest standalone_tests[STANDALONE_MAX_TESTS];
static int standalone_count;
static const StandaloneSuite *standalone_suite;
static int standalone_skipped;
static int standalone_skipping; /* the running test was skipped */

static inline void standalone_register(const char *suite, const char *name, void (*fn)(void))
{
    if (standalone_count == STANDALONE_MAX_TESTS) {
        fprintf(stderr, "error: more than %d tests\n", STANDALONE_MAX_TESTS);
        exit(1);
    }
    standalone_tests[standalone_count++] = (StandaloneTest){suite, name, fn};
}

__attribute__((format(printf, 4, 5))) static inline void
standalone_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    fprintf(stderr, "[FAIL] %s:%d: %s", file, line, cond);
    if (fmt && *fmt) {
        va_list ap;
        va_start(ap, fmt);
        fputs(": ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    exit(1);
}

#define TestSuite(s, ...) static const StandaloneSuite standalone_suite_##s = {__VA_ARGS__}
#define Test(s, n, ...)                                                                            \
    static void standalone_##s##_##n(void);                                                        \
    __attribute__((constructor)) static void standalone_reg_##s##_##n(void)                        \
    {                                                                                              \
        standalone_suite = &standalone_suite_##s;                                                  \
        standalone_register(#s, #n, standalone_##s##_##n);                                         \
    }                                                                                              \
    static void standalone_##s##_##n(void)

/* The message is optional, as Criterion's: "" joins it to the format (and
 * is the whole format without one). */
#pragma GCC diagnostic ignored "-Wformat-zero-length"
#define cr_assert(c, ...)                                                                          \
    do {                                                                                           \
        if (!(c))                                                                                  \
            standalone_fail(__FILE__, __LINE__, #c, "" __VA_ARGS__);                               \
    } while (0)
#define cr_assert_eq(a, b, ...) cr_assert((a) == (b), __VA_ARGS__)
#define cr_assert_geq(a, b, ...) cr_assert((a) >= (b), __VA_ARGS__)
#define cr_assert_not_null(p, ...) cr_assert((p) != NULL, __VA_ARGS__)
#define cr_assert_fail(...) standalone_fail(__FILE__, __LINE__, "failed", "" __VA_ARGS__)
#define cr_log_info(...) (printf("[----] " __VA_ARGS__), putchar('\n'))
#define cr_skip_test(...)                                                                          \
    do {                                                                                           \
        printf("[SKIP] " __VA_ARGS__);                                                             \
        putchar('\n');                                                                             \
        standalone_skipping = 1;                                                                   \
        return;                                                                                    \
    } while (0)

int main(void)
{
    if (standalone_suite && standalone_suite->init)
        standalone_suite->init();
    for (int i = 0; i < standalone_count; i++) {
        standalone_skipping = 0;
        standalone_tests[i].fn();
        standalone_skipped += standalone_skipping;
        printf("[%s] %s::%s\n", standalone_skipping ? "SKIP" : "PASS", standalone_tests[i].suite,
               standalone_tests[i].name);
        fflush(stdout);
    }
    if (standalone_suite && standalone_suite->fini)
        standalone_suite->fini();
    printf("[====] Synthesis: Tested: %d | Skipped: %d\n", standalone_count, standalone_skipped);
    return standalone_count > 0 ? 0 : 1;
}

#endif
