/* The platform layer on Windows (platform.h), built with mingw-w64 (gcc
 * and its winpthreads, linked statically). posix.c is the other half. */
#ifdef _WIN32

#define _CRT_RAND_S /* NOLINT(bugprone-reserved-identifier): rand_s in stdlib.h */
#define WIN32_LEAN_AND_MEAN
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <windows.h>

const char *plat_system_name(void) { return "windows"; }

/* ---- Clocks -------------------------------------------------------------- */

static double counter_period(void)
{
    static double period; /* seconds per tick; the same for every caller */
    if (period == 0.0) {
        LARGE_INTEGER f;
        QueryPerformanceFrequency(&f);
        period = 1.0 / (double)f.QuadPart;
    }
    return period;
}

double plat_seconds(void)
{
    LARGE_INTEGER c;
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart * counter_period();
}

int64_t now_ms(void)
{
    LARGE_INTEGER c, f;
    QueryPerformanceCounter(&c);
    QueryPerformanceFrequency(&f);
    return (int64_t)(c.QuadPart / f.QuadPart * 1000 + c.QuadPart % f.QuadPart * 1000 / f.QuadPart);
}

/* A FILETIME's 100-nanosecond units as one number. */
static uint64_t filetime_units(FILETIME t)
{
    return (uint64_t)t.dwHighDateTime << 32 | (uint64_t)t.dwLowDateTime;
}

int64_t cpu_ms(void)
{
    FILETIME created, exited, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
        return 0;
    return (int64_t)((filetime_units(kernel) + filetime_units(user)) / 10000);
}

void plat_wall_clock(struct timespec *ts)
{
    /* 100-ns units since 1601; the Unix epoch is 11644473600 s later. */
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    uint64_t t = filetime_units(ft) - 116444736000000000ull;
    ts->tv_sec = (time_t)(t / 10000000);
    ts->tv_nsec = (long)(t % 10000000) * 100;
}

void plat_sleep_ms(int ms) { Sleep(ms > 0 ? (DWORD)ms : 0); }

/* ---- The machine and the process ---------------------------------------- */

int cpu_count(void)
{
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    if (n == 0) {
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        n = si.dwNumberOfProcessors;
    }
    return n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
}

uint64_t plat_physical_memory(void)
{
    MEMORYSTATUSEX m;
    m.dwLength = sizeof m;
    return GlobalMemoryStatusEx(&m) ? (uint64_t)m.ullTotalPhys : 0;
}

uint64_t plat_process_id(void) { return (uint64_t)GetCurrentProcessId(); }

bool plat_random_bytes(void *buf, size_t n)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i++) {
        unsigned int r;
        if (rand_s(&r) != 0)
            return false;
        p[i] = (unsigned char)r;
    }
    return true;
}

bool plat_stdin_is_terminal(void) { return _isatty(_fileno(stdin)) != 0; }

char plat_path_list_separator(void) { return ';'; }

/* ---- Memory ------------------------------------------------------------- */

void *plat_aligned_alloc(size_t align, size_t size)
{
    return _aligned_malloc(size ? size : align, align);
}

void plat_aligned_free(void *p) { _aligned_free(p); }

/* Large pages need the "Lock pages in memory" right (SeLockMemoryPrivilege),
 * which an administrator grants; without it the request fails and the
 * table gets ordinary pages. */
static bool enable_lock_memory_privilege(void)
{
    HANDLE token;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token))
        return false;
    TOKEN_PRIVILEGES tp;
    bool ok = LookupPrivilegeValueA(NULL, "SeLockMemoryPrivilege", &tp.Privileges[0].Luid);
    if (ok) {
        tp.PrivilegeCount = 1;
        tp.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
        ok = AdjustTokenPrivileges(token, FALSE, &tp, 0, NULL, NULL)
             && GetLastError() == ERROR_SUCCESS;
    }
    CloseHandle(token);
    return ok;
}

void *plat_table_alloc(size_t bytes, bool huge, void **mem)
{
    /* VirtualAlloc gives zeroed pages, committed as they are touched, on a
     * 64 KB boundary; large pages are committed (and zeroed) at once. */
    void *p = NULL;
    const size_t large = GetLargePageMinimum();
    if (huge && large > 0 && bytes >= large && bytes <= SIZE_MAX - large
        && enable_lock_memory_privilege()) {
        const size_t rounded = (bytes + large - 1) / large * large;
        p = VirtualAlloc(NULL, rounded, MEM_RESERVE | MEM_COMMIT | MEM_LARGE_PAGES, PAGE_READWRITE);
    }
    if (!p)
        p = VirtualAlloc(NULL, bytes ? bytes : 1, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    *mem = p;
    return p;
}

void plat_table_free(void *mem)
{
    if (mem)
        VirtualFree(mem, 0, MEM_RELEASE);
}

/* ---- Files -------------------------------------------------------------- */

const char *plat_map_file(const char *path, size_t min_size, PlatMapping *m)
{
    m->data = NULL;
    m->size = 0;
    HANDLE file = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                              FILE_ATTRIBUTE_NORMAL | FILE_FLAG_RANDOM_ACCESS, NULL);
    if (file == INVALID_HANDLE_VALUE)
        return "cannot open the file";
    const char *why = NULL;
    LARGE_INTEGER size;
    if (!GetFileSizeEx(file, &size))
        why = "cannot read the file";
    else if ((uint64_t)size.QuadPart < min_size || size.QuadPart == 0)
        why = "truncated file";
    else if ((uint64_t)size.QuadPart > SIZE_MAX)
        why = "cannot map the file";
    else {
        /* The view keeps the mapping and the file open until it is unmapped. */
        HANDLE map = CreateFileMappingA(file, NULL, PAGE_READONLY, 0, 0, NULL);
        const void *p = map ? MapViewOfFile(map, FILE_MAP_READ, 0, 0, 0) : NULL;
        if (map)
            CloseHandle(map);
        if (!p)
            why = "cannot map the file";
        else {
            m->data = p;
            m->size = (size_t)size.QuadPart;
        }
    }
    CloseHandle(file);
    return why;
}

void plat_unmap_file(PlatMapping *m)
{
    if (m->data)
        UnmapViewOfFile(m->data);
    m->data = NULL;
    m->size = 0;
}

bool plat_list_dir(const char *dir, void (*fn)(const char *name, void *ctx), void *ctx)
{
    size_t len = strlen(dir);
    char *pattern = malloc(len + 3);
    if (!pattern)
        return false;
    memcpy(pattern, dir, len);
    memcpy(pattern + len, "\\*", 3);
    WIN32_FIND_DATAA fd;
    HANDLE h = FindFirstFileA(pattern, &fd);
    free(pattern);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    do
        fn(fd.cFileName, ctx);
    while (FindNextFileA(h, &fd));
    FindClose(h);
    return true;
}

bool plat_make_dir(const char *path)
{
    if (CreateDirectoryA(path, NULL) || GetLastError() == ERROR_ALREADY_EXISTS)
        return true;
    errno = GetLastError() == ERROR_PATH_NOT_FOUND ? ENOENT : EACCES;
    return false;
}

int64_t plat_file_size(const char *path)
{
    WIN32_FILE_ATTRIBUTE_DATA a;
    if (!GetFileAttributesExA(path, GetFileExInfoStandard, &a)
        || (a.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_DEVICE)))
        return -1;
    return (int64_t)((uint64_t)a.nFileSizeHigh << 32 | a.nFileSizeLow);
}

bool plat_file_exists(const char *path)
{
    return GetFileAttributesA(path) != INVALID_FILE_ATTRIBUTES;
}

bool plat_read_at(const char *path, uint64_t offset, void *buf, size_t n)
{
    HANDLE file = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                              OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (file == INVALID_HANDLE_VALUE)
        return false;
    OVERLAPPED at = {0};
    at.Offset = (DWORD)offset;
    at.OffsetHigh = (DWORD)(offset >> 32);
    DWORD got = 0;
    bool ok = n <= 0xFFFFFFFFu && ReadFile(file, buf, (DWORD)n, &got, &at) && got == n;
    CloseHandle(file);
    return ok;
}

bool plat_append_open(const char *path, PlatAppendFile *f, char *err, size_t errlen)
{
    /* FILE_APPEND_DATA alone: every write goes to the end of the file, as
     * O_APPEND's do. */
    HANDLE h = CreateFileA(path, FILE_APPEND_DATA, FILE_SHARE_READ, NULL, OPEN_ALWAYS,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        snprintf(err, errlen, "%s",
                 e == ERROR_ACCESS_DENIED || e == ERROR_SHARING_VIOLATION ? "Permission denied"
                 : e == ERROR_PATH_NOT_FOUND ? "No such file or directory"
                                             : "cannot open the file");
        errno = e == ERROR_PATH_NOT_FOUND ? ENOENT : EACCES;
        return false;
    }
    f->handle = (intptr_t)h;
    return true;
}

bool plat_append_write(PlatAppendFile *f, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        DWORD chunk = n > 0x40000000u ? 0x40000000u : (DWORD)n, put = 0;
        if (!WriteFile((HANDLE)f->handle, c, chunk, &put, NULL) || put == 0) {
            errno = EIO;
            return false;
        }
        c += put;
        n -= put;
    }
    return true;
}

bool plat_append_close(PlatAppendFile *f)
{
    HANDLE h = (HANDLE)f->handle;
    f->handle = (intptr_t)INVALID_HANDLE_VALUE;
    if (h == INVALID_HANDLE_VALUE)
        return true;
    if (!CloseHandle(h)) {
        errno = EIO;
        return false;
    }
    return true;
}

bool plat_commit_file(FILE *f) { return fflush(f) == 0 && _commit(_fileno(f)) == 0; }

bool plat_replace_file(const char *from, const char *to)
{
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return true;
    errno = EACCES;
    return false;
}

#endif
