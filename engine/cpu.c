/* The CPU check (cpu.h). Compiled for the architecture's baseline (the
 * Makefile's CPU_CHECK_CFLAGS), so that it runs on any CPU of it. */
#include "cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/platform/platform.h"
#include "version.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#define CPU_X86 1
#endif

static const char *const FeatureNames[CPU_FEATURE_COUNT] = {
    "SSE3",         "SSSE3",       "SSE4.1",        "SSE4.2",
    "POPCNT",       "AVX",         "AVX2",          "FMA",
    "BMI1",         "BMI2",        "LZCNT",         "MOVBE",
    "F16C",         "AVX-512F",    "AVX-512BW",     "AVX-512DQ",
    "AVX-512VL",    "AVX-512CD",   "AVX-512VNNI",   "AVX-512VBMI",
    "AVX-512VBMI2", "AVX-512IFMA", "AVX-512BITALG", "AVX-512VPOPCNTDQ",
    "AVX-VNNI",
};

const char *cpu_feature_name(uint32_t bit)
{
    for (int i = 0; i < CPU_FEATURE_COUNT; i++)
        if (bit == 1u << i)
            return FeatureNames[i];
    return "?";
}

/* The released x86-64 levels, best first, with what each needs (the
 * Makefile's ARCH flags of the same name; `make release` checks that each
 * binary's cpu_build_needs is its level's). */
enum {
    LEVEL_SSE41 = CPU_SSE3 | CPU_SSSE3 | CPU_SSE41 | CPU_POPCNT,
    LEVEL_AVX2 = LEVEL_SSE41 | CPU_SSE42 | CPU_AVX | CPU_AVX2 | CPU_BMI1,
    LEVEL_BMI2 = LEVEL_AVX2 | CPU_BMI2,
    LEVEL_AVX512 = LEVEL_BMI2 | CPU_AVX512F | CPU_AVX512BW,
    LEVEL_VNNI512 = LEVEL_AVX512 | CPU_AVX512VNNI,
};

static const struct {
    const char *name;
    uint32_t needs;
} Levels[] = {
    {"x86-64-vnni512", LEVEL_VNNI512},    {"x86-64-avx512", LEVEL_AVX512},
    {"x86-64-bmi2", LEVEL_BMI2},          {"x86-64-avx2", LEVEL_AVX2},
    {"x86-64-sse41-popcnt", LEVEL_SSE41}, {"x86-64", 0},
};

const char *cpu_best_level(uint32_t have)
{
    for (size_t i = 0; i < sizeof Levels / sizeof Levels[0]; i++)
        if ((Levels[i].needs & ~have) == 0
            && !((have & CPU_SLOW_PEXT) && (Levels[i].needs & CPU_BMI2)))
            return Levels[i].name;
    return "x86-64";
}

bool cpu_check(uint32_t needs, uint32_t have, char *buf, size_t n)
{
    const uint32_t missing = needs & ~have;
    if (!missing)
        return true;
    size_t len = (size_t)snprintf(buf, n, "info string error: this build needs ");
    const char *sep = "";
    for (int i = 0; i < CPU_FEATURE_COUNT && len < n; i++)
        if (missing & 1u << i) {
            len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, FeatureNames[i]);
            sep = ", ";
        }
    const char *sys = plat_system_name();
    if (len < n)
        snprintf(buf + len, n - len, ", which this CPU lacks; use rokade-%s-%s-%s%s",
                 ROKADE_VERSION, sys, cpu_best_level(have), strcmp(sys, "windows") ? "" : ".exe");
    return false;
}

#ifdef CPU_X86

/* The registers the system saves on a thread switch (XCR0). */
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

/* feature when bit n of a cpuid register is set, else 0. */
static uint32_t has(unsigned reg, int n, uint32_t feature) { return (reg >> n & 1u) ? feature : 0; }

uint32_t cpu_features(void)
{
    unsigned a, b, c, d;
    uint32_t f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const unsigned ecx1 = c, eax1 = a;
    f |= has(ecx1, 0, CPU_SSE3);
    f |= has(ecx1, 9, CPU_SSSE3);
    f |= has(ecx1, 19, CPU_SSE41);
    f |= has(ecx1, 20, CPU_SSE42);
    f |= has(ecx1, 22, CPU_MOVBE);
    f |= has(ecx1, 23, CPU_POPCNT);
    /* AVX's registers must be saved by the system (OSXSAVE, XCR0 bits 1-2),
     * AVX-512's too (bits 5-7). */
    const uint64_t xcr0 = has(ecx1, 27, 1) ? xgetbv0() : 0;
    const bool os_avx = (xcr0 & 0x6) == 0x6, os_avx512 = (xcr0 & 0xE6) == 0xE6;
    if (os_avx) {
        f |= has(ecx1, 28, CPU_AVX);
        f |= has(ecx1, 12, CPU_FMA);
        f |= has(ecx1, 29, CPU_F16C);
    }
    unsigned max = __get_cpuid_max(0, NULL);
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        f |= has(b, 3, CPU_BMI1);
        f |= has(b, 8, CPU_BMI2);
        if (os_avx)
            f |= has(b, 5, CPU_AVX2);
        if (os_avx512) {
            f |= has(b, 16, CPU_AVX512F);
            f |= has(b, 17, CPU_AVX512DQ);
            f |= has(b, 21, CPU_AVX512IFMA);
            f |= has(b, 28, CPU_AVX512CD);
            f |= has(b, 30, CPU_AVX512BW);
            f |= has(b, 31, CPU_AVX512VL);
            f |= has(c, 1, CPU_AVX512VBMI);
            f |= has(c, 6, CPU_AVX512VBMI2);
            f |= has(c, 11, CPU_AVX512VNNI);
            f |= has(c, 12, CPU_AVX512BITALG);
            f |= has(c, 14, CPU_AVX512VPOPCNTDQ);
        }
        if (os_avx && a >= 1) {
            unsigned a1, b1, c1, d1;
            __cpuid_count(7, 1, a1, b1, c1, d1);
            f |= has(a1, 4, CPU_AVXVNNI);
        }
    }
    if (__get_cpuid(0x80000001u, &a, &b, &c, &d))
        f |= has(c, 5, CPU_LZCNT);
    /* AMD's families 15h (Excavator) and 17h (Zen 1, Zen+ and Zen 2) have
     * BMI2, but their PEXT is microcoded, some 18 cycles or more against
     * one: magic bitboards are faster. */
    const unsigned family = (eax1 >> 8 & 0xF)
                            + ((eax1 >> 8 & 0xF) == 0xF ? (eax1 >> 20 & 0xFF) : 0);
    char vendor[13];
    __cpuid(0, a, b, c, d);
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = '\0';
    if ((f & CPU_BMI2) && (family == 0x15 || family == 0x17) && !strcmp(vendor, "AuthenticAMD"))
        f |= CPU_SLOW_PEXT;
    return f;
}

/* Before main and before anything of the build's level can run. */
__attribute__((constructor)) static void cpu_check_at_start(void)
{
    char line[512];
    if (!cpu_check(cpu_build_needs, cpu_features(), line, sizeof line)) {
        /* One line on stdout, where a GUI reads the engine (and a person
         * starting it in a console sees it). */
        printf("%s\n", line);
        fflush(stdout);
        exit(1);
    }
}

#else

uint32_t cpu_features(void) { return 0; }

#endif
