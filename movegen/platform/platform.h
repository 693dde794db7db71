/* The platform layer: everything Rokade needs that is not C11 + pthreads,
 * behind one small interface, with its POSIX (posix.c: Linux, macOS, the
 * BSDs, emscripten) and Windows (windows.c: mingw-w64) implementations side
 * by side. No other file names an operating system; each of the two files
 * compiles to nothing on the other's systems.
 *
 * Clocks, the machine (processors, memory), the console, aligned and large
 * zeroed memory, read-only file mappings (Syzygy), directory listings,
 * appending files (datagen), atomic replacement of a file (the trainer's
 * checkpoints, the tuner's output), and a few bytes of system randomness. */
#ifndef ROKADE_PLATFORM_H
#define ROKADE_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* The format check of a printf-like function's format (argument f) and
 * arguments (from a): against the C library's printf, which on Windows is
 * mingw-w64's own C99 one (gnu_printf), as the build asks for. */
#if defined(__MINGW32__)
#define PLAT_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#else
#define PLAT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#endif

/* Defined on a system without threads (the browser's single-threaded
 * WebAssembly build): the search then runs on the caller (search/thread.h). */
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define PLAT_NO_THREADS
#endif

/* The name of the system the build is for: "linux", "windows", "macos",
 * "wasm" or "posix". */
const char *plat_system_name(void);

/* ---- Clocks -------------------------------------------------------------- */

/* Monotonic milliseconds since an arbitrary start. */
int64_t now_ms(void);
/* Milliseconds of CPU time the process has used (all its threads). */
int64_t cpu_ms(void);
/* Monotonic seconds, with sub-millisecond resolution (for rates). */
double plat_seconds(void);
/* The wall clock as C11's TIME_UTC timespec (the epoch of 1970), the clock
 * that pthread_cond_timedwait's deadlines are given in. */
void plat_wall_clock(struct timespec *ts);
/* Sleeps for about ms milliseconds. */
void plat_sleep_ms(int ms);

/* ---- The machine and the process ---------------------------------------- */

/* The processors online (at least 1, at most 4096). */
int cpu_count(void);
/* The machine's physical memory in bytes; 0 when it cannot be told. */
uint64_t plat_physical_memory(void);
/* The process's number. */
uint64_t plat_process_id(void);
/* n bytes from the system's random source; false when there is none. */
bool plat_random_bytes(void *buf, size_t n);
/* Whether standard input is a terminal (a person typing), not a pipe. */
bool plat_stdin_is_terminal(void);
/* The separator of directories in a list of them, such as SyzygyPath:
 * ':' on POSIX systems, ';' on Windows (whose paths hold ':'). */
char plat_path_list_separator(void);

/* ---- Memory ------------------------------------------------------------- */

/* size bytes aligned to align (a power of two, at least sizeof(void *));
 * NULL when out of memory. Freed with plat_aligned_free only. */
void *plat_aligned_alloc(size_t align, size_t size);
void plat_aligned_free(void *p);

/* A zeroed block of at least bytes, aligned to 64 bytes, for a table that
 * may be large (the transposition table). A block of this size is fresh
 * from the system: its pages read as zero and cost nothing until written.
 * huge asks for huge (large) pages and an alignment of one, where the
 * system gives them (advice: the block works as well without). *mem
 * receives the handle for plat_table_free. NULL when out of memory. */
void *plat_table_alloc(size_t bytes, bool huge, void **mem);
void plat_table_free(void *mem);
/* The huge page size that plat_table_alloc aligns a huge table to. */
enum { PLAT_HUGE_PAGE = 2 << 20 };

/* ---- Files -------------------------------------------------------------- */

/* A file mapped read-only into memory (the Syzygy tables). */
typedef struct {
    const uint8_t *data;
    size_t size;
} PlatMapping;

/* Maps path read-only; NULL, or why not ("cannot open the file", "cannot
 * map the file", ...). A file of fewer than min_size bytes is refused as
 * "truncated file" before it is mapped. */
const char *plat_map_file(const char *path, size_t min_size, PlatMapping *m);
void plat_unmap_file(PlatMapping *m);

/* Calls fn(name, ctx) for each entry of directory dir ("." and ".." too);
 * false when the directory cannot be read. */
bool plat_list_dir(const char *dir, void (*fn)(const char *name, void *ctx), void *ctx);

/* Makes the directory path; true when it was made or was already there,
 * false (errno set) otherwise. */
bool plat_make_dir(const char *path);
/* The size of the regular file at path, or -1 when there is none (or it is
 * a directory or device). */
int64_t plat_file_size(const char *path);
/* Whether anything exists at path. */
bool plat_file_exists(const char *path);
/* Reads n bytes at offset of the file at path; false when it cannot. */
bool plat_read_at(const char *path, uint64_t offset, void *buf, size_t n);

/* A file opened for appending whole records (datagen's output): each
 * plat_append_write is one system write at the end of the file, so that a
 * process stopped between two of them leaves only whole records. */
typedef struct {
    intptr_t handle;
} PlatAppendFile;

/* Opens (creating it, readable and writable by its owner and readable by
 * others) path for appending; false with errno's message in err. */
bool plat_append_open(const char *path, PlatAppendFile *f, char *err, size_t errlen);
/* Writes all n bytes; false (errno set) when the system refused some. */
bool plat_append_write(PlatAppendFile *f, const void *p, size_t n);
/* Closes the file; false (errno set) when the last writes failed. */
bool plat_append_close(PlatAppendFile *f);

/* Flushes f's buffers and the system's to the disk; false on failure. */
bool plat_commit_file(FILE *f);
/* Renames from to to, replacing a file that is there as one step; false
 * (errno set) on failure. */
bool plat_replace_file(const char *from, const char *to);

#endif
