/* The shared helpers (util.h). */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long long read_line(FILE *f, char **line, size_t *cap)
{
    size_t n = 0;
    int c = EOF;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n + 2 > *cap) {
            size_t grown = *cap ? *cap * 2 : 256;
            char *p = realloc(*line, grown);
            if (!p)
                return -1;
            *line = p;
            *cap = grown;
        }
        (*line)[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return -1;
    while (n > 0 && (*line)[n - 1] == '\r')
        n--;
    if (!*line) {
        if (!(*line = malloc(1)))
            return -1;
        *cap = 1;
    }
    (*line)[n] = '\0';
    return (long long)n;
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

bool parse_real(const char *s, double lo, double hi, bool integer, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !(v >= lo && v <= hi) || (integer && v != floor(v)))
        return false;
    *out = v;
    return true;
}

bool write_file_atomic(const char *path, const void *data, size_t n, char *err, size_t errlen)
{
    size_t len = strlen(path) + 5;
    char *tmp = malloc(len);
    if (!tmp) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        return false;
    }
    snprintf(tmp, len, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f != NULL;
    if (!ok)
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    else {
        ok = fwrite(data, 1, n, f) == n && plat_commit_file(f);
        ok = fclose(f) == 0 && ok;
        if (!ok || !plat_replace_file(tmp, path)) {
            snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
            remove(tmp);
            ok = false;
        }
    }
    free(tmp);
    return ok;
}

void run_parallel(void *(*fn)(void *), void *jobs, size_t size, int n)
{
    pthread_t *tid = n > 1 ? malloc((size_t)n * sizeof *tid) : NULL;
    bool *started = n > 1 ? calloc((size_t)n, sizeof *started) : NULL;
    for (int t = 1; t < n && tid && started; t++)
        started[t] = pthread_create(&tid[t], NULL, fn, (char *)jobs + (size_t)t * size) == 0;
    fn(jobs);
    for (int t = 1; t < n; t++) {
        if (started && started[t])
            pthread_join(tid[t], NULL);
        else
            fn((char *)jobs + (size_t)t * size);
    }
    free(tid);
    free(started);
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
