/* The small helpers every layer shares, one of each: a random generator
 * (splitmix64), a line reader, a tokenizer, a number parser and growable
 * arrays. They sit
 * at the bottom of the tree so that movegen, eval, search and the programs
 * on top can all use them. */
#ifndef ROKADE_UTIL_H
#define ROKADE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "platform/platform.h" /* the clock (now_ms) and the machine (cpu_count) */

/* ---- Random numbers (splitmix64) --------------------------------------- */

/* splitmix64's output function: a bijective 64-bit mix of z. */
static inline uint64_t mix64_finalize(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A hash of x: one splitmix64 step from state x. Used to derive seeds and
 * per-position noise from keys. */
static inline uint64_t mix64(uint64_t x) { return mix64_finalize(x + 0x9E3779B97F4A7C15ull); }

/* The splitmix64 generator: steps the state and returns the next number.
 * Any 64-bit state is a valid seed. */
static inline uint64_t rng_next(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ull;
    return mix64_finalize(*state);
}

/* A uniform double in [0, 1) from 53 bits of x. */
static inline double rng_unit(uint64_t x) { return (double)(x >> 11) / 9007199254740992.0; }

/* ---- Files, threads ----------------------------------------------------- */

/* Writes n bytes to path through path.tmp, flushed to disk, and a rename,
 * so that the file is either the old one or the whole new one; false with
 * a message naming the file in err. */
bool write_file_atomic(const char *path, const void *data, size_t n, char *err, size_t errlen);
/* Runs fn on each of the n jobs (size bytes each, from jobs) and returns
 * when all are done: jobs 1.. on threads of their own, job 0 on the
 * calling thread, and any job whose thread cannot be started also there. */
void run_parallel(void *(*fn)(void *), void *jobs, size_t size, int n);

/* ---- Text --------------------------------------------------------------- */

/* Reads the next line of f into *line (grown as needed; *cap its size),
 * without its end, "\n" or "\r\n" (a GUI may send either on any
 * system). Returns the line's length, or -1 at the
 * end of the input (or when out of memory) with no line read. */
long long read_line(FILE *f, char **line, size_t *cap);

/* A cursor over a line of whitespace-separated tokens. */
typedef struct {
    const char *p;
} Tokens;

/* Copies the next token into buf (at most len - 1 characters, always
 * terminated) and returns its full length, which is >= len when it was
 * truncated; 0 at the end of the line. */
size_t tok_next(Tokens *t, char *buf, size_t len);
/* The rest of the line after any whitespace (the cursor moves there). */
const char *tok_rest(Tokens *t);

/* A whole decimal integer in [min, max]: no sign-only, no trailing text, no
 * overflow. False (out untouched) otherwise. */
bool parse_int(const char *s, long long min, long long max, long long *out);
/* A whole decimal integer of any size, for values that may lie out of a
 * range the caller clamps to: false only when s is not a number at all.
 * Values beyond long long saturate. */
bool parse_int_saturating(const char *s, long long *out);
/* A whole decimal or real number in [lo, hi], and an integer when integer
 * is set: no trailing text, no overflow. False (out untouched) otherwise. */
bool parse_real(const char *s, double lo, double hi, bool integer, double *out);

/* ---- Growable arrays ---------------------------------------------------- */

/* One of a set of arrays that grow together (one entry per ply of a game,
 * say): the address of its pointer (a T **) and the size of a T. */
typedef struct {
    void *array;
    size_t size;
} GrowArray;

/* Makes room for `need` elements in each of the n arrays, whose common
 * capacity is *cap: doubles it (from 256) until it holds them and
 * reallocates every array. False when out of memory: the arrays stay valid
 * (some may have grown) and *cap is unchanged. */
bool arrays_reserve(size_t *cap, size_t need, const GrowArray *arrays, int n);

#endif
