/* The CPU check (engine/cpu.h): a build for a CPU with more instruction
 * sets than this one says so in one line and names the build to use. The
 * check is run against faked feature words; tests/cross_test.sh runs a real
 * binary on an emulated older CPU (qemu-x86_64 -cpu). */
#include <criterion/criterion.h>
#include <string.h>

#include "../engine/cpu.h"
#include "../engine/version.h"
#include "../movegen/platform/platform.h"

enum {
    SSE41 = CPU_SSE3 | CPU_SSSE3 | CPU_SSE41 | CPU_POPCNT,
    AVX2 = SSE41 | CPU_SSE42 | CPU_AVX | CPU_AVX2 | CPU_BMI1,
    BMI2 = AVX2 | CPU_BMI2,
    AVX512 = BMI2 | CPU_AVX512F | CPU_AVX512BW,
};

Test(cpu, a_cpu_with_every_needed_feature_passes)
{
    char line[256] = "";
    cr_assert(cpu_check(0, 0, line, sizeof line));
    cr_assert(cpu_check(AVX2, AVX2, line, sizeof line));
    cr_assert(cpu_check(AVX2, AVX512 | CPU_AVX512VNNI, line, sizeof line));
    cr_assert_str_empty(line);
}

Test(cpu, a_missing_feature_is_named_with_the_build_to_use)
{
    char line[256], want[256];
    cr_assert_not(cpu_check(AVX2, SSE41 | CPU_SSE42, line, sizeof line));
    snprintf(want, sizeof want,
             "info string error: this build needs AVX, AVX2, BMI1, which this CPU lacks; use "
             "rokade-%s-%s-x86-64-sse41-popcnt%s",
             ROKADE_VERSION, plat_system_name(),
             strcmp(plat_system_name(), "windows") ? "" : ".exe");
    cr_assert_str_eq(line, want);
    cr_assert_null(strchr(line, '\n'), "one line");
}

Test(cpu, the_best_level_of_a_cpu)
{
    cr_assert_str_eq(cpu_best_level(0), "x86-64");
    cr_assert_str_eq(cpu_best_level(CPU_SSE3 | CPU_SSSE3), "x86-64");
    cr_assert_str_eq(cpu_best_level(SSE41), "x86-64-sse41-popcnt");
    cr_assert_str_eq(cpu_best_level(AVX2 | CPU_FMA), "x86-64-avx2");
    cr_assert_str_eq(cpu_best_level(BMI2), "x86-64-bmi2");
    /* Zen 1 and 2: BMI2 with a slow PEXT, so AVX2 without it. */
    cr_assert_str_eq(cpu_best_level(BMI2 | CPU_SLOW_PEXT), "x86-64-avx2");
    cr_assert_str_eq(cpu_best_level(AVX512), "x86-64-avx512");
    cr_assert_str_eq(cpu_best_level(AVX512 | CPU_AVX512VNNI), "x86-64-vnni512");
    /* AVX-512 without BW (Knights Landing) gets AVX2's level. */
    cr_assert_str_eq(cpu_best_level(BMI2 | CPU_AVX512F), "x86-64-bmi2");
}

Test(cpu, avx512_needs_f_and_bw)
{
    char line[256];
    cr_assert_not(cpu_check(AVX512, BMI2 | CPU_AVX512F, line, sizeof line));
    cr_assert(strstr(line, "needs AVX-512BW, which") != NULL, "%s", line);
    cr_assert(strstr(line, "x86-64-bmi2") != NULL, "%s", line);
}

Test(cpu, a_short_buffer_is_cut_not_overrun)
{
    char line[24];
    memset(line, 'x', sizeof line);
    cr_assert_not(cpu_check(AVX512, 0, line, sizeof line));
    cr_assert_eq(strlen(line), sizeof line - 1);
}

Test(cpu, this_build_runs_here)
{
    /* The test program itself started, so the check passed: the features
     * found include what the build needs (on x86-64; 0 needs elsewhere). */
    cr_assert_eq(cpu_build_needs & ~cpu_features(), 0);
    cr_assert_str_eq(cpu_feature_name(CPU_AVX2), "AVX2");
    cr_assert_str_eq(cpu_feature_name(CPU_AVX512VNNI), "AVX-512VNNI");
    cr_assert(strlen(cpu_build_arch) > 0);
}
