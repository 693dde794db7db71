/* The platform layer on POSIX systems (platform.h): Linux, macOS, the BSDs
 * and emscripten. windows.c is the other half. */
#ifndef _WIN32

#if defined(__linux__) || defined(__EMSCRIPTEN__)
/* madvise and MADV_HUGEPAGE are Linux's, outside POSIX. */
#define _DEFAULT_SOURCE /* NOLINT(bugprone-reserved-identifier): glibc's feature macro */
#endif
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE /* NOLINT(bugprone-reserved-identifier): sysctl's names */
#endif
#include "platform.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

const char *plat_system_name(void)
{
#if defined(__EMSCRIPTEN__)
    return "wasm";
#elif defined(__linux__)
    return "linux";
#elif defined(__APPLE__)
    return "macos";
#else
    return "posix";
#endif
}

/* ---- Clocks -------------------------------------------------------------- */

static int64_t clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

int64_t cpu_ms(void) { return clock_ms(CLOCK_PROCESS_CPUTIME_ID); }

double plat_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void plat_wall_clock(struct timespec *ts) { clock_gettime(CLOCK_REALTIME, ts); }

void plat_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* ---- The machine and the process ---------------------------------------- */

int cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
}

uint64_t plat_physical_memory(void)
{
#if defined(__APPLE__)
    uint64_t bytes = 0;
    size_t len = sizeof bytes;
    return sysctlbyname("hw.memsize", &bytes, &len, NULL, 0) == 0 ? bytes : 0;
#elif defined(_SC_PHYS_PAGES)
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    return pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
#else
    return 0;
#endif
}

uint64_t plat_process_id(void) { return (uint64_t)getpid(); }

bool plat_random_bytes(void *buf, size_t n)
{
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f)
        return false;
    bool ok = fread(buf, 1, n, f) == n;
    fclose(f);
    return ok;
}

bool plat_stdin_is_terminal(void) { return isatty(STDIN_FILENO) == 1; }

char plat_path_list_separator(void) { return ':'; }

/* ---- Memory ------------------------------------------------------------- */

void *plat_aligned_alloc(size_t align, size_t size)
{
    void *p = NULL;
    return posix_memalign(&p, align, size ? size : align) == 0 ? p : NULL;
}

void plat_aligned_free(void *p) { free(p); }

void *plat_table_alloc(size_t bytes, bool huge, void **mem)
{
    const size_t align = huge ? PLAT_HUGE_PAGE : 64, pad = align - 1;
    if (bytes > SIZE_MAX - pad)
        return NULL;
    /* calloc: a block this large comes from the system as fresh pages that
     * read as zero until written (so it costs no time to clear). */
    *mem = calloc(bytes + pad, 1);
    if (!*mem)
        return NULL;
    /* The first aligned address within the block. */
    char *table = (char *)*mem + ((align - (uintptr_t)*mem % align) % align);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* Advice only: where the system has no huge pages to give, nothing
     * changes (and the table works as well). */
    if (huge && bytes >= PLAT_HUGE_PAGE)
        (void)madvise(table, bytes / PLAT_HUGE_PAGE * PLAT_HUGE_PAGE, MADV_HUGEPAGE);
#endif
    return table;
}

void plat_table_free(void *mem) { free(mem); }

/* ---- Files -------------------------------------------------------------- */

const char *plat_map_file(const char *path, size_t min_size, PlatMapping *m)
{
    m->data = NULL;
    m->size = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return "cannot open the file";
    const char *why = NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        why = "cannot read the file";
    else if ((uint64_t)st.st_size < min_size || st.st_size == 0)
        why = "truncated file";
    else if ((uint64_t)st.st_size > SIZE_MAX)
        why = "cannot map the file";
    else {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            why = "cannot map the file";
        else {
            m->data = p;
            m->size = (size_t)st.st_size;
        }
    }
    close(fd);
    return why;
}

void plat_unmap_file(PlatMapping *m)
{
    if (m->data)
        munmap((void *)(uintptr_t)m->data, m->size);
    m->data = NULL;
    m->size = 0;
}

bool plat_list_dir(const char *dir, void (*fn)(const char *name, void *ctx), void *ctx)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    const struct dirent *de;
    while ((de = readdir(d)) != NULL)
        fn(de->d_name, ctx);
    closedir(d);
    return true;
}

bool plat_make_dir(const char *path) { return mkdir(path, 0777) == 0 || errno == EEXIST; }

int64_t plat_file_size(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    return (int64_t)st.st_size;
}

bool plat_file_exists(const char *path) { return access(path, F_OK) == 0; }

bool plat_read_at(const char *path, uint64_t offset, void *buf, size_t n)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    bool ok = (uint64_t)(off_t)offset == offset && pread(fd, buf, n, (off_t)offset) == (ssize_t)n;
    close(fd);
    return ok;
}

bool plat_append_open(const char *path, PlatAppendFile *f, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        return false;
    }
    f->handle = fd;
    return true;
}

bool plat_append_write(PlatAppendFile *f, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write((int)f->handle, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        c += w;
        n -= (size_t)w;
    }
    return true;
}

bool plat_append_close(PlatAppendFile *f)
{
    int fd = (int)f->handle;
    f->handle = -1;
    return fd < 0 || close(fd) == 0;
}

bool plat_commit_file(FILE *f) { return fflush(f) == 0 && fsync(fileno(f)) == 0; }

bool plat_replace_file(const char *from, const char *to) { return rename(from, to) == 0; }

#endif
