/* The instruction sets a build was compiled for, checked against the CPU
 * before anything else runs: a binary started on a CPU that lacks one of
 * them says so in one line, names the build to use instead, and exits,
 * rather than dying of an illegal instruction somewhere in the search.
 *
 * cpu.c is compiled for the baseline of its architecture (x86-64 without
 * extensions), whatever the build's level (the Makefile's CPU_CHECK rule),
 * so that the check itself runs on any CPU; cpu_build.c, compiled like the
 * rest, records what the compiler was allowed to use. On other
 * architectures than x86-64 the check passes (their baseline is the
 * build's: armv8 has NEON). */
#ifndef ROKADE_CPU_H
#define ROKADE_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* x86-64 features, one bit each. The AVX and AVX-512 bits also require the
 * system to save their registers (XCR0), as the CPU's flags alone do not. */
enum {
    CPU_SSE3 = 1u << 0,
    CPU_SSSE3 = 1u << 1,
    CPU_SSE41 = 1u << 2,
    CPU_SSE42 = 1u << 3,
    CPU_POPCNT = 1u << 4,
    CPU_AVX = 1u << 5,
    CPU_AVX2 = 1u << 6,
    CPU_FMA = 1u << 7,
    CPU_BMI1 = 1u << 8,
    CPU_BMI2 = 1u << 9,
    CPU_LZCNT = 1u << 10,
    CPU_MOVBE = 1u << 11,
    CPU_F16C = 1u << 12,
    CPU_AVX512F = 1u << 13,
    CPU_AVX512BW = 1u << 14,
    CPU_AVX512DQ = 1u << 15,
    CPU_AVX512VL = 1u << 16,
    CPU_AVX512CD = 1u << 17,
    CPU_AVX512VNNI = 1u << 18,
    CPU_AVX512VBMI = 1u << 19,
    CPU_AVX512VBMI2 = 1u << 20,
    CPU_AVX512IFMA = 1u << 21,
    CPU_AVX512BITALG = 1u << 22,
    CPU_AVX512VPOPCNTDQ = 1u << 23,
    CPU_AVXVNNI = 1u << 24,
    CPU_FEATURE_COUNT = 25,
    /* Not an instruction set: BMI2 is there but its PEXT is slow (AMD
     * Excavator, Zen 1 and 2), so the best level is one without it. */
    CPU_SLOW_PEXT = 1u << 25,
};

/* What this build's code may use (cpu_build.c, from the compiler's
 * predefined macros), and the name of its level (the Makefile's ARCH). */
extern const uint32_t cpu_build_needs;
extern const char cpu_build_arch[];

/* The features of the CPU this runs on (0 off x86-64). */
uint32_t cpu_features(void);
/* The name of one feature bit ("AVX2", "AVX-512 BW"). */
const char *cpu_feature_name(uint32_t bit);
/* The best of the released levels (x86-64-vnni512 ... x86-64) that a CPU
 * with these features runs (with CPU_SLOW_PEXT, none that needs BMI2). */
const char *cpu_best_level(uint32_t have);
/* Whether a build that needs `needs` runs on a CPU that has `have`; if
 * not, the one line to print into buf ("info string error: this build
 * needs AVX2, BMI2; use rokade-1.0-linux-x86-64-sse41-popcnt"). */
bool cpu_check(uint32_t needs, uint32_t have, char *buf, size_t n);

#endif
