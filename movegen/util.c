/* The shared helpers (util.h). */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

size_t tok_next(Tokens *t, char *buf, size_t len)
{
    while (*t->p && isspace((unsigned char)*t->p))
        t->p++;
    size_t n = 0;
    while (*t->p && !isspace((unsigned char)*t->p)) {
        if (n + 1 < len)
            buf[n] = *t->p;
        n++;
        t->p++;
    }
    if (len > 0)
        buf[n < len ? n : len - 1] = '\0';
    return n;
}

const char *tok_rest(Tokens *t)
{
    while (*t->p && isspace((unsigned char)*t->p))
        t->p++;
    return t->p;
}

bool parse_int_saturating(const char *s, long long *out)
{
    char *end;
    if (!s || !*s || isspace((unsigned char)*s))
        return false;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end)
        return false;
    *out = v; /* ERANGE: strtoll saturated at LLONG_MIN or LLONG_MAX */
    return true;
}

bool parse_int(const char *s, long long min, long long max, long long *out)
{
    long long v;
    if (!parse_int_saturating(s, &v) || errno == ERANGE || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool arrays_reserve(size_t *cap, size_t need, const GrowArray *arrays, int n)
{
    if (need <= *cap)
        return true;
    size_t grown = *cap ? *cap : 256;
    while (grown < need)
        grown *= 2;
    for (int i = 0; i < n; i++) {
        void *old, *grew;
        memcpy(&old, arrays[i].array, sizeof old);
        if (grown > SIZE_MAX / arrays[i].size || !(grew = realloc(old, grown * arrays[i].size)))
            return false; /* old is still the array */
        memcpy(arrays[i].array, &grew, sizeof grew);
    }
    *cap = grown;
    return true;
}
