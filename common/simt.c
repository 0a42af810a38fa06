/* common/simt.c: the SIMT emulator (see simt.h for what it offers).
 *
 * How a launch runs. Blocks are handed out to workers (OS threads; the
 * calling thread is one of them). A worker runs one block at a time: each
 * emulated thread is a fiber (common/fiber.h), and a thread runs until it
 * has to meet others (at __syncthreads, at a warp collective, at its end) or
 * until it has made SLICE memory accesses in a row, when it gives way to the
 * next one: that is what lets a thread spinning on a flag see another warp
 * set it. When every thread waits at the same barrier the barrier opens;
 * when every lane a collective names has arrived, the last one computes all
 * the results. When no thread can run and the block is not done, that is a
 * deadlock, and the scheduler says why instead of hanging; when the threads
 * run but nothing changes for spin_limit accesses, that is a livelock.
 *
 * How accesses are seen. The .cu files are compiled with ThreadSanitizer's
 * instrumentation and their __tsan_* calls renamed to the pw_tsan_* hooks
 * below (mk/cuda.mk, tools/pwcc). A hook gets the address and size, and
 * __builtin_return_address(0) names the instruction. Outside a kernel (host
 * code of a .cu file) a hook returns at once.
 *
 * What is counted. Every access is recorded in its warp's log under
 * (instruction, how many times this lane has executed it since the warp last
 * met). The lanes that share a key are one warp instruction: that is how
 * lock-step SIMT groups them, including after divergence (the lanes that
 * did not take a branch never pass its instructions). When a warp meets (a
 * barrier, a full-warp collective, the end of the block), each instruction
 * is turned into counts: active lanes, 32-byte sectors for device memory,
 * and bank-conflict ways for shared memory (32 banks of 4-byte words; lanes
 * on the same word share it, a broadcast).
 *
 * Shared memory. Each worker has one arena: the dynamic array (the launch's
 * third argument) at offset 0, the static __shared__ variables after it, at
 * the 128-byte boundary, in the order the block first reaches them
 * (tools/pwcc-tr turns each declaration into a pw_simt_shared_static call).
 * It is filled with 0xFF at every block start, and a shadow byte per byte
 * says what this block wrote (initcheck); a shadow cell per 4-byte word says
 * who last wrote and read it and in which barrier interval (racecheck).
 */
#define _GNU_SOURCE
#include "simt.h"
#include "errcheck.h"
#include "fiber.h"
#include "options.h"
#include "timing.h"
#include "util.h"

#include <dlfcn.h>
#include <stddef.h>
#include <pthread.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__) || defined(__FreeBSD__)
#include <link.h>
#define PW_SIMT_HAVE_PHDR 1
#endif

#if defined(__SANITIZE_ADDRESS__)
#define PW_SIMT_ASAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PW_SIMT_ASAN 1
#endif
#endif
#ifdef PW_SIMT_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#endif

enum {
    MAX_THREADS = 1024,           /* per block, as on every CUDA GPU since 2010 */
    MAX_WARPS = MAX_THREADS / 32,
    MAX_DYN_SHARED = 227 * 1024,  /* the most an H100 gives one block (opt-in beyond 48 KiB) */
    MAX_STATIC_SHARED = 48 * 1024,/* static __shared__ variables: 48 KiB per block */
    ARENA = MAX_DYN_SHARED + 128 + MAX_STATIC_SHARED,
    MAX_STATIC_VARS = 256,
    REDZONE = 256,                /* bytes around each cudaMalloc: cudaMalloc aligns to 256 */
    SLICE = 4096,                 /* accesses a thread makes before it gives way */
    PASS_CAP = 1 << 14,           /* passes over one instruction kept before a warp's log is counted */
    MAX_REPORTS = 10,             /* per check and launch; the rest are counted */
};
#define DEFAULT_SPIN_LIMIT (1LL << 26)   /* ~67 M accesses with no progress: about a second */

enum { RUNNABLE, AT_BARRIER, AT_COLLECTIVE, DONE, MARK };
enum { SPACE_GLOBAL, SPACE_SHARED };
enum { K_READ, K_WRITE, K_ATOMIC };

/* ---- state --------------------------------------------------------------------- */

typedef struct {                  /* one warp instruction being assembled */
    uint32_t seq;                 /* when its first lane got there, in the warp's order */
    uint32_t mask;                /* lanes that executed it */
    uint32_t bytes;               /* access size of the first lane */
    uintptr_t addr[32];           /* per lane: address (global) or offset (shared) */
} group;

typedef struct {                  /* every pass of a warp's lanes over one instruction */
    const void *site;
    int kind, space;
    uint32_t occ[32];             /* passes by each lane */
    group *g;
    int n, cap;                   /* groups used (= most passes by any lane), allocated */
} site_log;

typedef struct {
    site_log *sites;
    int nsites, cap;
    int *hash;                    /* open addressing: site -> index + 1 */
    int hcap;
} warp_log;

typedef struct {                  /* racecheck: one 4-byte word of shared memory */
    uint32_t serial;              /* the block it describes (else empty) */
    int16_t wtid, rtid;           /* last writer, last reader (-1 none, -2 several) */
    int16_t rwarp;                /* the readers' warp (-1: several warps) */
    uint8_t watomic, ratomic;
    uint8_t wmask, rmask;         /* the word's bytes the last write, the reads touched (a __half is 2 of 4) */
    uint32_t wepoch, repoch;      /* barrier intervals */
    uint32_t wsync, rsync;        /* the warp's collective count then */
    const void *wsite, *rsite;
} race_cell;

typedef struct worker worker;
typedef struct pw_simt_thread pw_simt_thread;
typedef struct launch launch;

struct pw_simt_thread {
    worker *w;
    pw_fiber *fiber;
    uintptr_t stack_lo, stack_bytes;
    int linear, lane, warp;
    int state;
    bool started, quit;
    uint3 tid;
    const char *wait_file;        /* the barrier or collective it waits at */
    int wait_line;
    int slice;                    /* accesses since it last gave way */
    /* a collective in progress, or a barrier's predicate */
    int op, arg, width, pred;
    unsigned mask;
    uint64_t value, result;
    pw_simt_warp_fn call_fn;      /* PW_WARP_CALL: the operation, and its name */
    const char *call_name;
};

struct launch {
    pw_simt_config cfg;
    void (*thunk)(void *);
    void *args;
    size_t args_bytes;
    long long nblocks;
    long long next;               /* next block to hand out (atomic) */
    int failed;                   /* an error stopped the launch (atomic) */
    pthread_mutex_t lock;         /* guards sum */
    pw_simt_counters sum;
};

typedef struct { const void *tag; size_t off, bytes; } static_var;

struct worker {
    pw_fiber *sched;              /* this OS thread's own context */
    pw_simt_thread *thr[MAX_THREADS];
    bool pool_broken;             /* fibers stopped mid-kernel by an error */
    launch *L;
    uint3 block_idx;
    dim3 block_dim, grid_dim;
    int nthreads, nwarps;
    int ndone, nbarrier;
    const char *barrier_file;
    int barrier_line;
    bool barrier_mismatch;
    int barrier_count;            /* threads whose predicate held, at the last barrier */
    /* shared memory */
    unsigned char *arena;         /* ARENA bytes */
    unsigned char *written;       /* per byte: stored to in this block (initcheck) */
    race_cell *race;              /* per 4-byte word */
    size_t dyn_bytes, static_base, static_used, touched;
    static_var vars[MAX_STATIC_VARS];
    int nvars;
    uint32_t serial;              /* blocks run by this worker */
    uint32_t epoch;               /* barriers passed in this block */
    uint32_t wsync[MAX_WARPS];    /* collectives completed per warp in this block */
    uint32_t seq[MAX_WARPS];      /* warp instructions begun per warp (the lane map's order) */
    /* the warp logs */
    warp_log warps[MAX_WARPS];
    unsigned dirty_warps[MAX_WARPS / 32 + 1];
    int order[MAX_THREADS];
    uint64_t rng;
    long long no_progress;        /* accesses since anything changed in this block */
    pw_simt_counters c;
    size_t last_alloc;
    /* the sectors this block has loaded: a load of one again is an L1 hit for the GPU model */
    uintptr_t *l1_set;
    size_t l1_cap, l1_used;
};

static _Thread_local pw_simt_thread *cur;          /* the running emulated thread, or NULL */
static _Thread_local worker *tls_worker;           /* the calling thread's, kept between launches */

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;   /* errors, allocations, reports */
static cudaError_t last_error;
static char last_message[2048];
static pw_simt_counters last_counters, total_counters;
static char last_kernel[256];   /* the last launch's kernel, as written before <<< */
static bool quiet;
static uint64_t shuffle_seed;
static int workers_setting;       /* 0: not set yet */
static unsigned checks = PW_CHECK_ALL;
static long long spin_limit = DEFAULT_SPIN_LIMIT;
static bool leak_checking = true;   /* PW_SIMT_LEAK_CHECK=0: not */
static bool settings_read;
static long reports, reports_loud;
static char last_report[2048];   /* kept in quiet mode too: checkers explain it */
static int launch_reports[4];     /* per check, this launch: printed ones */
static long launch_suppressed;

static void read_settings(void)
{
    if (settings_read) return;
    settings_read = true;
    const char *s = getenv("PW_SIMT_SHUFFLE");
    if (s && *s) shuffle_seed = strtoull(s, NULL, 10);
    const char *w = getenv("PW_SIMT_WORKERS");
    if (w && *w && !workers_setting) {
        long v = strtol(w, NULL, 10);
        workers_setting = v >= 1 && v <= 256 ? (int)v : 1;
    }
    if (!workers_setting) workers_setting = 1;
    const char *c = getenv("PW_SIMT_CHECKS");
    if (c && *c) {
        unsigned m = 0;
        char buf[256];
        snprintf(buf, sizeof buf, "%s", c);
        for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", ")) {
            if (!strcmp(tok, "all")) m |= PW_CHECK_ALL;
            else if (!strcmp(tok, "none")) m |= 0;
            else if (!strcmp(tok, "memcheck")) m |= PW_CHECK_MEMCHECK;
            else if (!strcmp(tok, "racecheck")) m |= PW_CHECK_RACECHECK;
            else if (!strcmp(tok, "initcheck")) m |= PW_CHECK_INITCHECK;
            else if (!strcmp(tok, "synccheck")) m |= PW_CHECK_SYNCCHECK;
            else {
                fprintf(stderr, "simt: PW_SIMT_CHECKS=%s: '%s' is not one of all, none, memcheck, racecheck, "
                        "initcheck, synccheck\n", c, tok);
                exit(2);
            }
        }
        checks = m;
    }
    const char *lc = getenv("PW_SIMT_LEAK_CHECK");
    if (lc && !strcmp(lc, "0")) leak_checking = false;
    const char *l = getenv("PW_SIMT_SPIN_LIMIT");
    if (l && *l) {
        long long v = strtoll(l, NULL, 10);
        if (v > 0) spin_limit = v;
    }
}

void pw_simt_set_quiet(bool q) { quiet = q; }
void pw_simt_set_shuffle(uint64_t seed) { read_settings(); shuffle_seed = seed; }
void pw_simt_set_workers(int n) { read_settings(); workers_setting = n < 1 ? 1 : n > 256 ? 256 : n; }
int pw_simt_workers(void) { read_settings(); return workers_setting; }
unsigned pw_simt_checks(void) { read_settings(); return checks; }
void pw_simt_set_checks(unsigned c) { read_settings(); checks = c & PW_CHECK_ALL; }
void pw_simt_set_spin_limit(long long n) { read_settings(); spin_limit = n > 0 ? n : DEFAULT_SPIN_LIMIT; }
long pw_simt_report_count(void) { return reports; }
const char *pw_simt_last_report(void) { return last_report; }

/* ---- source lines: which line an instruction address is ---------------------------- */

static uintptr_t program_bias;
static bool bias_known;
#ifdef PW_SIMT_HAVE_PHDR
static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    program_bias = info->dlpi_addr;
    return 1;
}
#endif

/* "file.cu:12" for an instruction of the program: its debug line table, read
 * by addr2line (binutils), once per address; else the function's name. */
/* One line of addr2line's answer, without its newline and discriminator;
 * false if it names no line ("??", or line ? or 0). */
static bool clean_line(char *line)
{
    line[strcspn(line, "\n")] = 0;
    char *disc = strstr(line, " (discriminator");
    if (disc) *disc = 0;
    size_t n = strlen(line);
    return n >= 2 && strncmp(line, "??", 2) != 0 && strcmp(line + n - 2, ":?") != 0 && strcmp(line + n - 2, ":0") != 0;
}

static void site_text(const void *ra, char *buf, size_t len)
{
    static struct { const void *ra; char text[160]; } cache[64];
    static int ncache;
    for (int i = 0; i < ncache; i++)
        if (cache[i].ra == ra) { snprintf(buf, len, "%s", cache[i].text); return; }
    char text[160] = "";
    Dl_info info;
    const char *object = NULL;
    uintptr_t off = 0;
    if (dladdr(ra, &info) && info.dli_fname) {
        object = info.dli_fname;
        if (!bias_known) {
#ifdef PW_SIMT_HAVE_PHDR
            dl_iterate_phdr(first_object, NULL);
#endif
            bias_known = true;
        }
        /* the main program: addresses relative to its load bias; a library: to its base */
        uintptr_t base = info.dli_fbase && strstr(object, ".so") ? (uintptr_t)info.dli_fbase : program_bias;
        off = (uintptr_t)ra - base - 1;   /* the return address is after the call: step back into it */
        char exe[4096];
        if (!strstr(object, ".so")) {
            ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
            if (n > 0) { exe[n] = 0; object = exe; }
        }
        char cmd[4400];
        /* the call's own line, with its chain of inlined calls (-i: innermost
         * first); the line to show is the first one outside the emulator's own
         * headers (an atomicAdd or a cudaFree wrapper is inlined from there) */
        snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%lx 2>/dev/null", object, (unsigned long)off);
        FILE *p = popen(cmd, "r");
        if (p) {
            char line[160];
            bool chosen = false;
            while (fgets(line, sizeof line, p)) {
                if (!clean_line(line) && strncmp(line, "??", 2) == 0) continue;
                bool ours = strstr(line, "common/simt") || strstr(line, "common/cuda/") || strstr(line, "/c++/");
                if (!text[0] || (!chosen && !ours)) snprintf(text, sizeof text, "%s", line);
                if (!ours) chosen = true;
            }
            pclose(p);
        }
        /* clang gives the instrumentation's call (and the access after it)
         * line 0 at times: then the nearest line before it, which computed
         * the address, is the access's */
        if (text[0] && !clean_line(text)) {
            size_t n = (size_t)snprintf(cmd, sizeof cmd, "addr2line -e '%s'", object);
            for (unsigned back = 1; back <= 48 && n < sizeof cmd - 24; back++)
                n += (size_t)snprintf(cmd + n, sizeof cmd - n, " 0x%lx", (unsigned long)(off - back));
            snprintf(cmd + n, sizeof cmd - n, " 2>/dev/null");
            p = popen(cmd, "r");
            if (p) {
                char line[160];
                while (fgets(line, sizeof line, p)) {
                    if (!clean_line(line)) continue;
                    snprintf(text, sizeof text, "%s", line);
                    break;
                }
                pclose(p);
            }
        }
        if (!text[0] && info.dli_sname) snprintf(text, sizeof text, "%s+0x%lx", info.dli_sname,
                                                 (unsigned long)((uintptr_t)ra - (uintptr_t)info.dli_saddr));
    }
    if (!text[0]) snprintf(text, sizeof text, "pc %p", ra);
    /* a path under the current folder: shorter */
    char cwd[4096];
    const char *shown = text;
    if (getcwd(cwd, sizeof cwd)) {
        size_t n = strlen(cwd);
        if (strncmp(text, cwd, n) == 0 && text[n] == '/') shown = text + n + 1;
    }
    snprintf(buf, len, "%s", shown);
    if (ncache < 64) {
        cache[ncache].ra = ra;
        snprintf(cache[ncache].text, sizeof cache[ncache].text, "%s", shown);
        ncache++;
    }
}

/* ---- device memory: cudaMalloc with red zones ------------------------------------- */

enum { ALLOC_DEVICE, ALLOC_MANAGED, ALLOC_HOST };
static const char *alloc_names[] = { "cudaMalloc", "cudaMallocManaged", "cudaMallocHost" };
typedef struct {
    char *base;
    size_t bytes;
    int kind;
    unsigned char *init;          /* bit per byte: written (cudaMalloc memory only) */
    const void *site;             /* who allocated it */
} allocation;
static allocation *allocs;        /* sorted by base */
static size_t nallocs, cap_allocs;

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* Device memory lives in its own reserved range of addresses (64 GiB of
 * address space, no memory until used), so an address tells what it is: in
 * the range but in no allocation is out of bounds (however far), outside it
 * is host memory. Freed ranges are reused first-fit; their pages go back to
 * the system and become inaccessible again. If the reservation fails (a
 * 32-bit machine), allocations come from the heap and "far past the end" is
 * told from "host memory" by distance instead. */
#define DEVICE_SPACE ((size_t)64 << 30)
static char *space;               /* guarded by state_lock */
static size_t space_used, page_bytes;
static bool space_tried;
typedef struct { size_t off, bytes; } hole;
static hole holes[256];
static int nholes;

static char *device_pages(size_t total)
{
    if (!space_tried) {
        space_tried = true;
        page_bytes = (size_t)sysconf(_SC_PAGESIZE);
        void *m = mmap(NULL, DEVICE_SPACE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        space = m == MAP_FAILED ? NULL : m;
    }
    if (!space) return aligned_alloc(REDZONE, total);
    total = round_up(total, page_bytes);
    size_t off = (size_t)-1;
    for (int i = 0; i < nholes; i++)
        if (holes[i].bytes >= total) {
            off = holes[i].off;
            holes[i].off += total;
            holes[i].bytes -= total;
            if (!holes[i].bytes) holes[i] = holes[--nholes];
            break;
        }
    if (off == (size_t)-1) {
        if (space_used + total > DEVICE_SPACE) return NULL;
        off = space_used;
        space_used += total;
    }
    if (mprotect(space + off, total, PROT_READ | PROT_WRITE) != 0) return NULL;
    return space + off;
}

static void device_pages_free(char *raw, size_t total)
{
    if (!space) { free(raw); return; }
    total = round_up(total, page_bytes);
    madvise(raw, total, MADV_DONTNEED);
    mprotect(raw, total, PROT_NONE);
    if (nholes < 256) holes[nholes++] = (hole){ (size_t)(raw - space), total };
}

static bool in_device_space(const void *p)
{
    return space && (const char *)p >= space && (const char *)p < space + DEVICE_SPACE;
}

static void ensure_atexit(void);
static cudaError_t add_allocation(void **p, size_t bytes, int kind, const void *site)
{
    if (!p) return last_error = cudaErrorInvalidValue;
    ensure_atexit();
    size_t body = round_up(bytes ? bytes : 1, REDZONE);
    pthread_mutex_lock(&state_lock);
    char *raw = device_pages(body + 2 * REDZONE);
    pthread_mutex_unlock(&state_lock);
    if (!raw) { *p = NULL; return last_error = cudaErrorMemoryAllocation; }
    /* Fresh device memory is garbage on a GPU: here the poison 0xFF (a float
     * NaN, an int -1), and initcheck reports a read before any write.
     * Managed memory starts zeroed (first touch), pinned host memory is the host's. */
    memset(raw, kind == ALLOC_DEVICE ? 0xFF : 0, body + 2 * REDZONE);
    char *base = raw + REDZONE;
    unsigned char *init = NULL;
    if (kind == ALLOC_DEVICE) {
        init = calloc(body / 8 + 1, 1);
        if (!init) {
            pthread_mutex_lock(&state_lock);
            device_pages_free(raw, body + 2 * REDZONE);
            pthread_mutex_unlock(&state_lock);
            *p = NULL;
            return last_error = cudaErrorMemoryAllocation;
        }
    }
#ifdef PW_SIMT_ASAN
    __asan_poison_memory_region(raw, REDZONE);
    __asan_poison_memory_region(base + bytes, body - bytes + REDZONE);
#endif
    pthread_mutex_lock(&state_lock);
    if (nallocs == cap_allocs) {
        cap_allocs = cap_allocs ? 2 * cap_allocs : 16;
        allocs = realloc(allocs, cap_allocs * sizeof *allocs);
        PW_CHECK_ALLOC(allocs, cap_allocs * sizeof *allocs);
    }
    size_t i = nallocs;
    while (i > 0 && allocs[i - 1].base > base) { allocs[i] = allocs[i - 1]; i--; }
    allocs[i] = (allocation){ base, bytes, kind, init, site };
    nallocs++;
    pthread_mutex_unlock(&state_lock);
    *p = base;
    return cudaSuccess;
}

cudaError_t pw_simt_malloc(void **p, size_t bytes)
{
    return add_allocation(p, bytes, ALLOC_DEVICE, __builtin_return_address(0));
}
cudaError_t pw_simt_malloc_managed(void **p, size_t bytes)
{
    return add_allocation(p, bytes, ALLOC_MANAGED, __builtin_return_address(0));
}
cudaError_t pw_simt_malloc_host(void **p, size_t bytes)
{
    return add_allocation(p, bytes, ALLOC_HOST, __builtin_return_address(0));
}

/* The allocation that contains [p, p+bytes), or -1. */
static long find_alloc(const void *p, size_t bytes)
{
    const char *c = p;
    size_t lo = 0, hi = nallocs;
    while (lo < hi) {             /* the last allocation whose base <= c */
        size_t mid = (lo + hi) / 2;
        if (allocs[mid].base <= c) lo = mid + 1; else hi = mid;
    }
    if (lo == 0) return -1;
    const allocation *a = &allocs[lo - 1];
    return c + bytes <= a->base + a->bytes && c >= a->base ? (long)(lo - 1) : -1;
}

static void report_line(int check, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static cudaError_t free_allocation(void *p, int kind, const char *api, const void *site)
{
    if (!p) return cudaSuccess;
    pthread_mutex_lock(&state_lock);
    long i = find_alloc(p, 0);
    bool kind_ok = i >= 0 && (allocs[i].kind == kind || (kind == ALLOC_DEVICE && allocs[i].kind == ALLOC_MANAGED));
    if (i < 0 || allocs[i].base != p || !kind_ok) {
        int other = i >= 0 && allocs[i].base == p ? allocs[i].kind : -1;
        pthread_mutex_unlock(&state_lock);
        char where[200];
        site_text(site, where, sizeof where);
        if (other >= 0)
            report_line(PW_CHECK_MEMCHECK, "simt memcheck: %s(%p) at %s: that pointer came from %s, free it with %s",
                        api, p, where, alloc_names[other], other == ALLOC_HOST ? "cudaFreeHost" : "cudaFree");
        else
            report_line(PW_CHECK_MEMCHECK, "simt memcheck: %s(%p) at %s: not a pointer that %s returned (or "
                        "freed already)", api, p, where, alloc_names[kind]);
        return last_error = kind == ALLOC_HOST ? cudaErrorInvalidValue : cudaErrorInvalidDevicePointer;
    }
    allocation a = allocs[i];
    memmove(&allocs[i], &allocs[i + 1], (nallocs - (size_t)i - 1) * sizeof *allocs);
    nallocs--;
    pthread_mutex_unlock(&state_lock);
    char *raw = a.base - REDZONE;
    size_t total = round_up(a.bytes ? a.bytes : 1, REDZONE) + 2 * REDZONE;
#ifdef PW_SIMT_ASAN
    __asan_unpoison_memory_region(raw, total);
#endif
    free(a.init);
    pthread_mutex_lock(&state_lock);
    device_pages_free(raw, total);
    pthread_mutex_unlock(&state_lock);
    return cudaSuccess;
}

cudaError_t pw_simt_free(void *p) { return free_allocation(p, ALLOC_DEVICE, "cudaFree", __builtin_return_address(0)); }
cudaError_t pw_simt_free_host(void *p)
{
    return free_allocation(p, ALLOC_HOST, "cudaFreeHost", __builtin_return_address(0));
}

/* The allocation (device, managed or pinned) that holds [p, p+bytes), or -1. */
static long device_range(const void *p, size_t bytes)
{
    pthread_mutex_lock(&state_lock);
    long i = find_alloc(p, bytes);
    pthread_mutex_unlock(&state_lock);
    return i;
}

static void mark_init(long i, const void *p, size_t bytes)
{
    if (i < 0 || !allocs[i].init || !bytes) return;
    size_t off = (size_t)((const char *)p - allocs[i].base);
    unsigned char *bits = allocs[i].init;
    for (size_t b = off; b < off + bytes;) {
        if ((b & 7) == 0 && b + 8 <= off + bytes) { bits[b >> 3] = 0xFF; b += 8; continue; }
        bits[b >> 3] |= (unsigned char)(1u << (b & 7));
        b++;
    }
}

cudaError_t pw_simt_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    if ((unsigned)kind > cudaMemcpyDefault) return last_error = cudaErrorInvalidMemcpyDirection;
    bool to_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool from_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    pthread_mutex_lock(&state_lock);
    long d = find_alloc(dst, bytes), s = find_alloc(src, bytes);   /* cudaMemcpyDefault: either may be */
    if ((to_device && d < 0) || (from_device && s < 0)) {
        last_error = cudaErrorInvalidValue;
        pthread_mutex_unlock(&state_lock);
        return cudaErrorInvalidValue;
    }
    if (bytes) memmove(dst, src, bytes);
    if (d >= 0 && kind != cudaMemcpyDeviceToHost) {
        if (s >= 0 && allocs[s].init) {
            /* device to device: what was written is copied, and only that */
            size_t so = (size_t)((const char *)src - allocs[s].base), dof = (size_t)((char *)dst - allocs[d].base);
            for (size_t b = 0; b < bytes && allocs[d].init; b++) {
                if (allocs[s].init[(so + b) >> 3] >> ((so + b) & 7) & 1)
                    allocs[d].init[(dof + b) >> 3] |= (unsigned char)(1u << ((dof + b) & 7));
            }
        } else {
            mark_init(d, dst, bytes);
        }
    }
    pthread_mutex_unlock(&state_lock);
    return cudaSuccess;
}

cudaError_t pw_simt_memset(void *p, int value, size_t bytes)
{
    long i = device_range(p, bytes);
    if (i < 0) return last_error = cudaErrorInvalidValue;
    if (bytes) memset(p, value, bytes);
    pthread_mutex_lock(&state_lock);
    mark_init(find_alloc(p, bytes), p, bytes);
    pthread_mutex_unlock(&state_lock);
    return cudaSuccess;
}

cudaError_t pw_simt_memcpy_to_symbol(void *symbol, const void *src, size_t bytes, size_t offset)
{
    if (!symbol || (!src && bytes)) return last_error = cudaErrorInvalidSymbol;
    if (bytes) memmove((char *)symbol + offset, src, bytes);
    return cudaSuccess;
}

cudaError_t pw_simt_memcpy_from_symbol(void *dst, const void *symbol, size_t bytes, size_t offset)
{
    if (!symbol || (!dst && bytes)) return last_error = cudaErrorInvalidSymbol;
    if (bytes) memmove(dst, (const char *)symbol + offset, bytes);
    return cudaSuccess;
}

cudaError_t pw_simt_mem_get_info(size_t *free_bytes, size_t *total_bytes)
{
    double avail = pw_available_memory();
    size_t used = 0;
    pthread_mutex_lock(&state_lock);
    for (size_t i = 0; i < nallocs; i++) used += allocs[i].bytes;
    pthread_mutex_unlock(&state_lock);
    if (total_bytes) *total_bytes = (size_t)avail + used;
    if (free_bytes) *free_bytes = (size_t)avail;
    return cudaSuccess;
}

static void leak_check(bool report);

cudaError_t pw_simt_device_reset(void)
{
    leak_check(false);
    pthread_mutex_lock(&state_lock);
    last_error = cudaSuccess;
    pthread_mutex_unlock(&state_lock);
    return cudaSuccess;
}

/* ---- streams: in order, at once ------------------------------------------------------ */

struct pw_simt_stream { int unused; };

cudaError_t pw_simt_stream_create(cudaStream_t *s)
{
    if (!s) return last_error = cudaErrorInvalidValue;
    *s = calloc(1, sizeof **s);
    return *s ? cudaSuccess : (last_error = cudaErrorMemoryAllocation);
}
cudaError_t pw_simt_stream_destroy(cudaStream_t s) { free(s); return cudaSuccess; }
cudaError_t pw_simt_stream_synchronize(cudaStream_t s) { (void)s; return last_error; }

/* ---- errors and reports ------------------------------------------------------------------ */

static int check_index(int check)
{
    return check == PW_CHECK_MEMCHECK ? 0 : check == PW_CHECK_RACECHECK ? 1 : check == PW_CHECK_INITCHECK ? 2 : 3;
}

/* A report that does not stop the kernel (or a host-side one): printed,
 * unless the launch has printed MAX_REPORTS of its kind already. */
static void report_line(int check, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&state_lock);
    reports++;
    snprintf(last_report, sizeof last_report, "%s", text);
    if (!quiet) {
        reports_loud++;
        if (launch_reports[check_index(check)]++ < MAX_REPORTS) fprintf(stderr, "%s\n", text);
        else launch_suppressed++;
    }
    pthread_mutex_unlock(&state_lock);
}

/* "threads 0-15, 32-47": the linear indices of threads in state `state`
 * (or, with state < 0, of the lanes in `mask` of warp `warp`). */
static void thread_list(worker *w, int state, int warp, unsigned mask, char *buf, size_t len)
{
    size_t used = 0;
    int n = 0, first = -1, prev = -2;
    buf[0] = 0;
    for (int i = 0; i <= w->nthreads; i++) {
        bool in = false;
        if (i < w->nthreads) {
            if (state >= 0) in = w->thr[i]->state == state;
            else in = w->thr[i]->warp == warp && (mask >> w->thr[i]->lane & 1u);
        }
        if (in && i == prev + 1) { prev = i; continue; }
        if (first >= 0 && used < len) {
            used += (size_t)snprintf(buf + used, len - used, "%s%d", n++ ? ", " : "", first);
            if (prev > first && used < len) used += (size_t)snprintf(buf + used, len - used, "-%d", prev);
        }
        first = in ? i : -1;
        prev = in ? i : -2;
    }
}

/* Record the launch's first error and print it. */
static void set_error(worker *w, pw_simt_thread *t, const char *tool, cudaError_t code, const char *fmt, va_list ap)
{
    char what[1536], who[160];
    vsnprintf(what, sizeof what, fmt, ap);
    if (t) snprintf(who, sizeof who, ", thread (%u,%u,%u)", t->tid.x, t->tid.y, t->tid.z);
    else who[0] = 0;
    pthread_mutex_lock(&state_lock);
    if (!w->L->failed) {
        __atomic_store_n(&w->L->failed, 1, __ATOMIC_RELEASE);
        snprintf(last_message, sizeof last_message, "simt %s: kernel %s, block (%u,%u,%u)%s: %s", tool,
                 w->L->cfg.name, w->block_idx.x, w->block_idx.y, w->block_idx.z, who, what);
        last_error = code;
        if (!quiet) fprintf(stderr, "%s\n", last_message);
    }
    pthread_mutex_unlock(&state_lock);
}

static void block_error(worker *w, const char *tool, cudaError_t code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void block_error(worker *w, const char *tool, cudaError_t code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(w, NULL, tool, code, fmt, ap);
    va_end(ap);
    w->pool_broken = true;        /* the threads are stopped mid-kernel */
}

/* An error in the running thread: recorded, and the thread never resumes. */
static void thread_error(const char *tool, cudaError_t code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
static void thread_error(const char *tool, cudaError_t code, const char *fmt, ...)
{
    pw_simt_thread *t = cur;
    worker *w = t->w;
    va_list ap;
    va_start(ap, fmt);
    set_error(w, t, tool, code, fmt, ap);
    va_end(ap);
    w->pool_broken = true;
    pw_fiber_switch(t->fiber, w->sched);
    abort();                      /* the scheduler never resumes a failed thread */
}

const char *pw_simt_last_error_message(void) { return last_message; }

cudaError_t pw_simt_get_last_error(void)
{
    pthread_mutex_lock(&state_lock);
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    pthread_mutex_unlock(&state_lock);
    return e;
}

cudaError_t pw_simt_peek_last_error(void) { return last_error; }
cudaError_t pw_simt_record_error(cudaError_t e)
{
    pthread_mutex_lock(&state_lock);
    if (e != cudaSuccess) last_error = e;
    pthread_mutex_unlock(&state_lock);
    return e;
}
cudaError_t pw_simt_device_synchronize(void) { return last_error; }

const char *pw_simt_error_string(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
    }
    return "unknown error";
}

const char *pw_simt_error_name(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorIllegalInstruction: return "cudaErrorIllegalInstruction";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorUnknown: return "cudaErrorUnknown";
    }
    return "cudaErrorUnknown";
}

/* ---- the exit: leaks, and the status of a program that printed reports ---------------- */

static void leak_check(bool report)
{
    pthread_mutex_lock(&state_lock);
    size_t n = 0, bytes = 0;
    allocation first = { 0 };
    for (size_t i = 0; i < nallocs; i++) {
        if (allocs[i].kind == ALLOC_HOST) continue;
        if (!n) first = allocs[i];
        n++;
        bytes += allocs[i].bytes;
    }
    pthread_mutex_unlock(&state_lock);
    if (report && n && (checks & PW_CHECK_MEMCHECK) && leak_checking) {
        char where[200];
        site_text(first.site, where, sizeof where);
        report_line(PW_CHECK_MEMCHECK, "simt memcheck: %zu bytes in %zu device allocation%s not freed at exit (the "
                    "first: %zu bytes from %s at %s); cudaFree each, or cudaDeviceReset() at the end", bytes, n,
                    n == 1 ? "" : "s", first.bytes, alloc_names[first.kind], where);
    }
    if (!report) {                /* cudaDeviceReset: everything goes */
        pthread_mutex_lock(&state_lock);
        for (size_t i = 0; i < nallocs; i++) {
            size_t total = round_up(allocs[i].bytes ? allocs[i].bytes : 1, REDZONE) + 2 * REDZONE;
#ifdef PW_SIMT_ASAN
            __asan_unpoison_memory_region(allocs[i].base - REDZONE, total);
#endif
            free(allocs[i].init);
            device_pages_free(allocs[i].base - REDZONE, total);
        }
        nallocs = 0;
        pthread_mutex_unlock(&state_lock);
    }
}

/* At exit: a program that ends well (status 0) is checked for leaks, and
 * exits 1 if the checks printed anything; one that fails keeps its status
 * (its early exit left memory allocated on purpose). glibc's on_exit passes
 * the status; elsewhere the leak check is skipped. */
static void exit_if_reported(void)
{
    if (!reports_loud) return;
    fprintf(stderr, "simt: %ld report%s from the emulator's checks (PW_SIMT_CHECKS): exit status 1\n", reports_loud,
            reports_loud == 1 ? "" : "s");
    fflush(NULL);
    _exit(1);
}

static void at_exit_status(int status, void *arg)
{
    (void)arg;
    read_settings();
    if (status != 0) return;
    leak_check(true);
    exit_if_reported();
}

#ifndef __GLIBC__
static void at_exit(void) { exit_if_reported(); }
#endif

static bool atexit_done;
static void ensure_atexit(void)
{
    pthread_mutex_lock(&state_lock);
    bool first = !atexit_done;
    atexit_done = true;
    pthread_mutex_unlock(&state_lock);
#ifdef __GLIBC__
    if (first) on_exit(at_exit_status, NULL);
#else
    (void)at_exit_status;
    if (first) atexit(at_exit);
#endif
}

/* ---- the shared-memory arena ------------------------------------------------------------- */

static void arena_alloc(worker *w)
{
    if (w->arena) return;
    /* A GPU's shared window starts at address 0 of its own space: as aligned
     * as anything asks (wmma's loads want 32 bytes; malloc gives 16). */
    if (posix_memalign((void **)&w->arena, 1024, ARENA)) w->arena = NULL;
    w->written = calloc(ARENA, 1);
    w->race = calloc(ARENA / 4, sizeof *w->race);
    PW_CHECK_ALLOC(w->arena, ARENA);
    PW_CHECK_ALLOC(w->written, ARENA);
    PW_CHECK_ALLOC(w->race, ARENA / 4 * sizeof *w->race);
}

void *pw_simt_shared_dynamic(void)
{
    return cur ? cur->w->arena : NULL;
}

void *pw_simt_shared_static(const void *tag, size_t bytes, size_t align)
{
    pw_simt_thread *t = cur;
    if (!t) {
        fprintf(stderr, "simt: a __shared__ variable used outside a kernel\n");
        abort();
    }
    worker *w = t->w;
    for (int i = 0; i < w->nvars; i++)
        if (w->vars[i].tag == tag) return w->arena + w->vars[i].off;
    if (w->nvars == MAX_STATIC_VARS)
        thread_error("memcheck", cudaErrorLaunchOutOfResources, "more than %d __shared__ variables in one block "
                     "(the emulator's limit)", MAX_STATIC_VARS);
    size_t off = round_up(w->static_base + w->static_used, align ? align : 16);
    if (off + bytes > w->static_base + MAX_STATIC_SHARED)
        thread_error("memcheck", cudaErrorLaunchOutOfResources, "the __shared__ variables of this kernel need "
                     "more than %d bytes (48 KiB of static shared memory per block, as on a GPU)",
                     MAX_STATIC_SHARED);
    w->vars[w->nvars++] = (static_var){ tag, off, bytes };
    w->static_used = off + bytes - w->static_base;
    if ((long long)w->static_used > w->c.shared_static_bytes) w->c.shared_static_bytes = (long long)w->static_used;
    /* Poison, unwritten: nothing carries over from the last block. */
    memset(w->arena + off, 0xFF, bytes);
    memset(w->written + off, 0, bytes);
    if (off + bytes > w->touched) w->touched = off + bytes;
    return w->arena + off;
}

/* ---- the lane map: one warp's instructions, lane by lane ------------------------------------- */

static pw_simt_step *trace_buf;
static int trace_cap, trace_n, trace_warp = -1;

void pw_simt_trace_warp(int warp, pw_simt_step *buf, int cap)
{
    trace_buf = buf;
    trace_cap = cap;
    trace_n = 0;
    trace_warp = buf && cap > 0 ? warp : -1;
}
int pw_simt_trace_count(void) { return trace_n; }

static int by_seq(const void *a, const void *b)
{
    uint32_t x = (*(group *const *)a)->seq, y = (*(group *const *)b)->seq;
    return x < y ? -1 : x > y;
}

/* Warp `warp` of block (0,0,0) met: its instructions, in the order begun. */
static void trace_flush(worker *w, warp_log *wl)
{
    /* static: this may run on a fiber's small stack (only block 0's worker gets here) */
    static group *gs[4096];
    static int kinds[4096], spaces[4096];
    int n = 0;
    for (int s = 0; s < wl->nsites; s++)
        for (int k = 0; k < wl->sites[s].n && n < 4096; k++) {
            gs[n] = &wl->sites[s].g[k];
            n++;
        }
    qsort(gs, (size_t)n, sizeof gs[0], by_seq);
    for (int i = 0; i < n; i++) {     /* each group's site: found again by address */
        kinds[i] = spaces[i] = 0;
        for (int s = 0; s < wl->nsites; s++)
            if (gs[i] >= wl->sites[s].g && gs[i] < wl->sites[s].g + wl->sites[s].n) {
                kinds[i] = wl->sites[s].kind;
                spaces[i] = wl->sites[s].space;
            }
    }
    for (int i = 0; i < n && trace_n < trace_cap; i++) {
        if (!gs[i]->mask) continue;
        pw_simt_step *st = &trace_buf[trace_n++];
        st->shared = spaces[i] == SPACE_SHARED;
        st->store = kinds[i] == K_WRITE;
        st->mask = gs[i]->mask;
        st->bytes = gs[i]->bytes;
        for (int l = 0; l < 32; l++) st->addr[l] = gs[i]->mask >> l & 1u ? (uint64_t)gs[i]->addr[l] : 0;
    }
    (void)w;
}

/* ---- the warp logs ------------------------------------------------------------------------- */

static unsigned hash_site(const void *site, int kind)
{
    uintptr_t h = (uintptr_t)site * 0x9E3779B97F4A7C15ull + (uintptr_t)kind;
    return (unsigned)(h >> 40);
}

static void rehash(warp_log *wl)
{
    int cap = wl->hcap ? 2 * wl->hcap : 64;
    free(wl->hash);
    wl->hash = calloc((size_t)cap, sizeof *wl->hash);
    PW_CHECK_ALLOC(wl->hash, (size_t)cap * sizeof *wl->hash);
    wl->hcap = cap;
    for (int s = 0; s < wl->nsites; s++) {
        unsigned h = hash_site(wl->sites[s].site, wl->sites[s].kind) & (unsigned)(cap - 1);
        while (wl->hash[h]) h = (h + 1) & (unsigned)(cap - 1);
        wl->hash[h] = s + 1;
    }
}

static void flush_warp(worker *w, int warp);

static site_log *site_slot(worker *w, pw_simt_thread *t, const void *site, int kind, int space)
{
    warp_log *wl = &w->warps[t->warp];
    if (wl->hcap) {
        unsigned h = hash_site(site, kind) & (unsigned)(wl->hcap - 1);
        for (int s; (s = wl->hash[h]); h = (h + 1) & (unsigned)(wl->hcap - 1)) {
            site_log *sl = &wl->sites[s - 1];
            if (sl->site == site && sl->kind == kind && sl->space == space) return sl;
        }
    }
    if (2 * (wl->nsites + 1) > wl->hcap) {
        rehash(wl);
    }
    if (wl->nsites == wl->cap) {
        int cap = wl->cap ? 2 * wl->cap : 16;
        wl->sites = realloc(wl->sites, (size_t)cap * sizeof *wl->sites);
        PW_CHECK_ALLOC(wl->sites, (size_t)cap * sizeof *wl->sites);
        memset(wl->sites + wl->cap, 0, (size_t)(cap - wl->cap) * sizeof *wl->sites);
        wl->cap = cap;
    }
    int s = wl->nsites++;
    site_log *sl = &wl->sites[s];
    sl->site = site;
    sl->kind = kind;
    sl->space = space;
    sl->n = 0;
    memset(sl->occ, 0, sizeof sl->occ);
    unsigned h = hash_site(site, kind) & (unsigned)(wl->hcap - 1);
    while (wl->hash[h]) h = (h + 1) & (unsigned)(wl->hcap - 1);
    wl->hash[h] = s + 1;
    return sl;
}

static void record(worker *w, pw_simt_thread *t, const void *site, int kind, int space, uintptr_t off, size_t bytes)
{
    site_log *sl = site_slot(w, t, site, kind, space);
    uint32_t k = sl->occ[t->lane]++;
    if ((int)k >= sl->cap) {
        int cap = sl->cap ? 2 * sl->cap : 16;
        while (cap <= (int)k) cap *= 2;
        sl->g = realloc(sl->g, (size_t)cap * sizeof *sl->g);
        PW_CHECK_ALLOC(sl->g, (size_t)cap * sizeof *sl->g);
        sl->cap = cap;
    }
    while (sl->n <= (int)k) {
        sl->g[sl->n].mask = 0;
        sl->g[sl->n].bytes = (uint32_t)bytes;
        sl->g[sl->n].seq = w->seq[t->warp]++;
        sl->n++;
    }
    group *g = &sl->g[k];
    g->mask |= 1u << t->lane;
    g->addr[t->lane] = off;
    w->dirty_warps[t->warp / 32] |= 1u << (t->warp % 32);
    if (sl->n >= PASS_CAP) flush_warp(w, t->warp);   /* a long loop with no meeting: count what is there */
}

/* Distinct units of 2^shift bytes the lanes of g touched: 32-byte sectors
 * (shift 5: what the memory system moves), or 128-byte lines (shift 7: the
 * L1 wavefronts of a global request, one line's worth of data a clock). */
static int distinct(const group *g, int shift)
{
    uintptr_t seen[64];           /* 32 lanes of at most 16 bytes: 2 units each at most */
    int n = 0;
    for (int l = 0; l < 32; l++) {
        if (!(g->mask >> l & 1u)) continue;
        for (uintptr_t s = g->addr[l] >> shift; s <= (g->addr[l] + g->bytes - 1) >> shift; s++) {
            int j = n;
            while (j > 0 && seen[j - 1] != s) j--;
            if (j == 0 && n < 64) seen[n++] = s;
        }
    }
    return n;
}
static int sectors(const group *g) { return distinct(g, 5); }
static int lines(const group *g) { return distinct(g, 7); }

/* Whether sector s is new to this block (and now remembered): the GPU
 * model's L1, a cache of the block's own loads that forgets nothing while
 * the block runs (common/gpu_model.h: an idealisation, stated there). An
 * open-addressing set of sector numbers + 1 (0: empty), doubled at half full. */
static int l1_first_touch(worker *w, uintptr_t s)
{
    if (2 * (w->l1_used + 1) > w->l1_cap) {
        size_t cap = w->l1_cap ? 2 * w->l1_cap : 4096;
        uintptr_t *t = (uintptr_t *)calloc(cap, sizeof *t);
        if (!t) return 1;   /* out of memory: count it as a miss, as if uncached */
        for (size_t i = 0; i < w->l1_cap; i++) {
            uintptr_t v = w->l1_set[i];
            if (!v) continue;
            size_t h = (size_t)(v * 0x9E3779B97F4A7C15ull) & (cap - 1);
            while (t[h]) h = (h + 1) & (cap - 1);
            t[h] = v;
        }
        free(w->l1_set);
        w->l1_set = t;
        w->l1_cap = cap;
    }
    uintptr_t v = s + 1;
    size_t h = (size_t)(v * 0x9E3779B97F4A7C15ull) & (w->l1_cap - 1);
    while (w->l1_set[h]) {
        if (w->l1_set[h] == v) return 0;
        h = (h + 1) & (w->l1_cap - 1);
    }
    w->l1_set[h] = v;
    w->l1_used++;
    return 1;
}

/* The sectors of g this block had not loaded before. */
static int new_sectors(worker *w, const group *g)
{
    int n = 0;
    for (int l = 0; l < 32; l++) {
        if (!(g->mask >> l & 1u)) continue;
        for (uintptr_t s = g->addr[l] >> 5; s <= (g->addr[l] + g->bytes - 1) >> 5; s++) n += l1_first_touch(w, s);
    }
    return n;
}

/* Bank-conflict ways: the most distinct 4-byte words any one bank must serve.
 * *words: how many distinct words the request touched (32 fit one wavefront). */
static int conflict_ways(const group *g, int *words_out)
{
    uintptr_t words[128];         /* 32 lanes x at most 4 words (a 16-byte access) */
    int n = 0, per_bank[32] = { 0 }, ways = 1;
    for (int l = 0; l < 32; l++) {
        if (!(g->mask >> l & 1u)) continue;
        for (uintptr_t wd = g->addr[l] >> 2; wd <= (g->addr[l] + g->bytes - 1) >> 2 && n < 128; wd++) {
            int j = 0;
            while (j < n && words[j] != wd) j++;
            if (j < n) continue;          /* the same word: a broadcast */
            words[n++] = wd;
            int b = (int)(wd & 31);
            if (++per_bank[b] > ways) ways = per_bank[b];
        }
    }
    *words_out = n;
    return ways;
}

/* The warp met: turn its log into counts and start a new one. */
static void flush_warp(worker *w, int warp)
{
    unsigned bit = 1u << (warp % 32);
    if (!(w->dirty_warps[warp / 32] & bit)) return;
    w->dirty_warps[warp / 32] &= ~bit;
    warp_log *wl = &w->warps[warp];
    pw_simt_counters *c = &w->c;
    if (warp == trace_warp && !w->block_idx.x && !w->block_idx.y && !w->block_idx.z) trace_flush(w, wl);
    /* Rounds of global loads since the warp last met (common/gpu_model.h's
     * latency term): in a loop with no barrier each pass waits for its loads
     * (the most passes of one load instruction); loads whose values the warp
     * stages into shared memory before the next barrier are all independent,
     * one round, however many passes the loop that issues them makes. */
    int rounds = 0, staged = 0;
    for (int s = 0; s < wl->nsites; s++) {
        site_log *sl = &wl->sites[s];
        if (sl->space == SPACE_GLOBAL && sl->kind != K_WRITE && sl->kind != K_ATOMIC && sl->n > rounds) rounds = sl->n;
        if (sl->space != SPACE_GLOBAL && sl->kind == K_WRITE) staged = 1;
    }
    if (staged && rounds > 1) rounds = 1;
    for (int s = 0; s < wl->nsites; s++) {
        site_log *sl = &wl->sites[s];
        for (int k = 0; k < sl->n; k++) {
            const group *g = &sl->g[k];
            if (!g->mask) continue;
            c->warp_steps++;
            c->active_lanes += __builtin_popcount(g->mask);
            if (sl->kind == K_ATOMIC) continue;
            if (sl->space == SPACE_GLOBAL) {
                if (sl->kind == K_WRITE) {
                    c->global_store_requests++;
                    c->global_store_sectors += sectors(g);
                    c->global_store_lines += lines(g);
                } else {
                    c->global_load_requests++;
                    c->global_load_sectors += sectors(g);
                    c->global_load_lines += lines(g);
                    c->global_load_l2_sectors += new_sectors(w, g);
                }
            } else {
                int words, ways = conflict_ways(g, &words);
                c->shared_requests++;
                c->shared_wavefronts += ways;
                c->shared_ideal_wavefronts += words > 32 ? (words + 31) / 32 : 1;
                if (ways > c->shared_max_ways) c->shared_max_ways = ways;
            }
        }
        sl->n = 0;
    }
    c->load_rounds += rounds;
    wl->nsites = 0;
    if (wl->hcap) memset(wl->hash, 0, (size_t)wl->hcap * sizeof *wl->hash);
}

static void flush_all(worker *w)
{
    for (int i = 0; i < w->nwarps; i++) flush_warp(w, i);
}

/* ---- checking one access ------------------------------------------------------------------ */

static const char *kind_word(int kind) { return kind == K_READ ? "read" : kind == K_WRITE ? "write" : "atomic"; }

/* Static data of the program (__device__ and __constant__ variables are
 * ordinary globals here): its loaded segments. */
typedef struct { uintptr_t lo, hi; } range;
static range statics[16];
static int nstatics = -1;
#ifdef PW_SIMT_HAVE_PHDR
static int program_segments(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    for (int i = 0; i < info->dlpi_phnum && nstatics < 16; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_X)) continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        statics[nstatics++] = (range){ lo, lo + ph->p_memsz };
    }
    return 1;                     /* the program only: the kernels are in it */
}
#endif
static bool in_statics(uintptr_t a, size_t n)
{
    if (nstatics < 0) {
        pthread_mutex_lock(&state_lock);
        if (nstatics < 0) {
            nstatics = 0;
#ifdef PW_SIMT_HAVE_PHDR
            dl_iterate_phdr(program_segments, NULL);
#endif
        }
        pthread_mutex_unlock(&state_lock);
    }
    for (int i = 0; i < nstatics; i++)
        if (a >= statics[i].lo && a + n <= statics[i].hi) return true;
    return false;
}

/* An access that is in no memory a kernel may touch: say where it is. */
static void bad_address(worker *w, uintptr_t a, size_t bytes, int kind, const void *site)
{
    char where[200];
    site_text(site, where, sizeof where);
    const char *c = (const char *)a;
    if (a - (uintptr_t)w->arena < ARENA) {
        size_t off = a - (uintptr_t)w->arena;
        if (off < w->static_base || !w->static_used)
            thread_error("memcheck", cudaErrorIllegalAddress,
                         "invalid %s of %zu bytes at %s: out of bounds: shared address 0x%zx is %zu bytes past the end of the %zu "
                         "bytes of dynamic shared memory (the launch's third argument sets its size)",
                         kind_word(kind), bytes, where, off, off - w->dyn_bytes, w->dyn_bytes);
        thread_error("memcheck", cudaErrorIllegalAddress,
                     "invalid %s of %zu bytes at %s: out of bounds: shared address 0x%zx is past the end of this block's __shared__ "
                     "variables", kind_word(kind), bytes, where, off);
    }
    long best = -1;
    size_t dist = (size_t)-1;
    pthread_mutex_lock(&state_lock);
    for (size_t i = 0; i < nallocs; i++) {
        const allocation *al = &allocs[i];
        size_t d = c < al->base ? (size_t)(al->base - c) : c >= al->base + al->bytes ? (size_t)(c - (al->base + al->bytes)) : 0;
        if (d < dist) { dist = d; best = (long)i; }
    }
    allocation al = best >= 0 ? allocs[best] : (allocation){ 0 };
    bool device = space ? in_device_space(c) : best >= 0 && dist < (size_t)1 << 20;
    bool freed = false;
    for (int h = 0; space && h < nholes; h++)
        if (c >= space + holes[h].off && c < space + holes[h].off + holes[h].bytes) freed = true;
    pthread_mutex_unlock(&state_lock);
    if (device && (best < 0 || freed))
        thread_error("memcheck", cudaErrorIllegalAddress,
                     "invalid %s of %zu bytes at %s: address %p is device memory that is no longer allocated "
                     "(cudaFree'd before this launch)", kind_word(kind), bytes, where, (const void *)c);
    if (device) {
        if (c >= al.base + al.bytes || (c >= al.base && c + bytes > al.base + al.bytes))
            thread_error("memcheck", cudaErrorIllegalAddress,
                         "invalid %s of %zu bytes at %s: out of bounds: address %p is %zu bytes past the end of a %zu-byte %s "
                         "allocation (byte offset %zu: element %zu of %zu, counting in %zu-byte elements)",
                         kind_word(kind), bytes, where, (const void *)c, (size_t)(c - (al.base + al.bytes)),
                         al.bytes, alloc_names[al.kind], (size_t)(c - al.base), (size_t)(c - al.base) / bytes,
                         al.bytes / bytes, bytes);
        thread_error("memcheck", cudaErrorIllegalAddress,
                     "invalid %s of %zu bytes at %s: out of bounds: address %p is %zu bytes before the start of a %zu-byte %s "
                     "allocation (element -%zu)", kind_word(kind), bytes, where, (const void *)c,
                     (size_t)(al.base - c), al.bytes, alloc_names[al.kind], (size_t)pw_ceil_div((size_t)(al.base - c), bytes));
    }
    if (a < 65536)
        thread_error("memcheck", cudaErrorIllegalAddress,
                     "invalid %s of %zu bytes at %s: address %p is a null pointer (plus %zu)", kind_word(kind), bytes,
                     where, (const void *)c, (size_t)a);
    thread_error("memcheck", cudaErrorIllegalAddress,
                 "invalid %s of %zu bytes at %s: address %p is host memory (malloc, new or the host's stack), not "
                 "device memory: a GPU cannot reach it. Allocate with cudaMalloc and copy with cudaMemcpy%s",
                 kind_word(kind), bytes, where, (const void *)c,
                 best >= 0 ? "" : " (no device memory is allocated at all)");
}

/* racecheck: is the earlier access (by thread `tid`, in barrier interval
 * `epoch`, when its warp had completed `sync` collectives) ordered before
 * the running thread's? */
static bool ordered(worker *w, pw_simt_thread *t, int tid, int warp, uint32_t epoch, uint32_t sync)
{
    if (tid == t->linear) return true;
    if (epoch != w->epoch) return true;
    return warp == t->warp && sync != w->wsync[t->warp];
}

static void race_report(worker *w, pw_simt_thread *t, const char *hazard, size_t off, int other, const void *osite,
                        const char *oword, const char *myword, const void *site)
{
    char mine[200], theirs[200];
    site_text(site, mine, sizeof mine);
    site_text(osite, theirs, sizeof theirs);
    pw_simt_thread *u = w->thr[other];
    bool same_warp = u->warp == t->warp;
    report_line(PW_CHECK_RACECHECK,
                "simt racecheck: kernel %s, block (%u,%u,%u): %s hazard on shared memory at offset 0x%zx: thread "
                "(%u,%u,%u) %s at %s, thread (%u,%u,%u) %s at %s, and nothing orders them (%s)",
                w->L->cfg.name, w->block_idx.x, w->block_idx.y, w->block_idx.z, hazard, off, t->tid.x, t->tid.y,
                t->tid.z, myword, mine, u->tid.x, u->tid.y, u->tid.z, oword, theirs,
                same_warp ? "same warp: put __syncwarp() between them; lock-step is not a promise since Volta"
                          : "put __syncthreads() between them");
}

static void race_check(worker *w, pw_simt_thread *t, size_t off, size_t bytes, int kind, const void *site)
{
    for (size_t wd = off >> 2; wd <= (off + bytes - 1) >> 2; wd++) {
        race_cell *c = &w->race[wd];
        if (c->serial != w->serial) {
            c->serial = w->serial;
            c->wtid = c->rtid = -1;
            c->wmask = c->rmask = 0;
        }
        /* the bytes of this word the access touches: two threads storing
         * neighbouring __half values share a word and do not race */
        size_t lo = wd * 4 > off ? wd * 4 : off, hi = wd * 4 + 4 < off + bytes ? wd * 4 + 4 : off + bytes;
        uint8_t m = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - wd * 4));
        bool atomic = kind == K_ATOMIC;
        if (c->wtid >= 0 && (c->wmask & m) && !(atomic && c->watomic) &&
            !ordered(w, t, c->wtid, w->thr[c->wtid]->warp, c->wepoch, c->wsync)) {
            race_report(w, t, kind == K_READ ? "read-after-write" : "write-after-write", wd * 4, c->wtid, c->wsite,
                        c->watomic ? "did an atomic" : "wrote", kind == K_READ ? "read" : atomic ? "did an atomic" : "wrote",
                        site);
            c->wtid = -1;         /* one report per pair */
        }
        if (kind != K_READ && c->rtid != -1 && (c->rmask & m) && !(atomic && c->ratomic)) {
            bool ok = c->rtid >= 0 ? ordered(w, t, c->rtid, c->rwarp, c->repoch, c->rsync)
                                   : c->repoch != w->epoch ||
                                         (c->rwarp == t->warp && c->rsync != w->wsync[t->warp]);
            if (!ok) {
                int other = c->rtid >= 0 ? c->rtid : -1;
                if (other < 0) {  /* several readers: name one that is not me */
                    for (int i = 0; i < w->nthreads; i++)
                        if (i != t->linear) { other = i; break; }
                }
                if (other >= 0 && other != t->linear)
                    race_report(w, t, "write-after-read", wd * 4, other, c->rsite, "read",
                                atomic ? "did an atomic" : "wrote", site);
                c->rtid = -1;
            }
        }
        if (kind == K_READ) {
            if (c->rtid == -1 || c->repoch != w->epoch) {
                c->rtid = (int16_t)t->linear;
                c->rwarp = (int16_t)t->warp;
                c->repoch = w->epoch;
                c->rsync = w->wsync[t->warp];
                c->rsite = site;
                c->ratomic = 0;
                c->rmask = m;
            } else {
                if (c->rtid != t->linear) {
                    if (c->rwarp != t->warp) c->rwarp = -1;
                    c->rtid = -2;
                    c->rsync = w->wsync[t->warp];
                }
                c->rmask |= m;
            }
        } else {
            c->wmask = m;
            c->wtid = (int16_t)t->linear;
            c->wepoch = w->epoch;
            c->wsync = w->wsync[t->warp];
            c->wsite = site;
            c->watomic = atomic;
            if (atomic) {         /* an atomic reads too */
                c->rtid = (int16_t)t->linear;
                c->rwarp = (int16_t)t->warp;
                c->repoch = w->epoch;
                c->rsync = w->wsync[t->warp];
                c->rsite = site;
                c->ratomic = 1;
                c->rmask = m;
            } else {
                c->rtid = -1;
            }
        }
    }
}

static void preempt(pw_simt_thread *t, const void *site);

/* Every access of kernel code comes here. */
static inline __attribute__((always_inline)) void on_access(const void *p, size_t bytes, int kind, const void *site,
                                                             bool aligned)
{
    pw_simt_thread *t = cur;
    if (!t) return;                                       /* host code */
    worker *w = t->w;
    uintptr_t a = (uintptr_t)p;
    if (a - t->stack_lo < t->stack_bytes) return;         /* its own locals */
    if (a - (uintptr_t)w->L->args < w->L->args_bytes) return;   /* its parameters */
    if (++t->slice >= SLICE) preempt(t, site);
    if (kind == K_WRITE) w->no_progress = 0;      /* atomics: progress if they change memory (below) */
    else w->no_progress++;
    if (aligned && bytes > 1 && (a & (bytes - 1)) && (checks & PW_CHECK_MEMCHECK)) {
        char where[200];
        site_text(site, where, sizeof where);
        thread_error("memcheck", cudaErrorMisalignedAddress,
                     "misaligned %s of %zu bytes at %s: address %p is not a multiple of %zu (a GPU reads a %zu-byte "
                     "value only at a multiple of %zu)", kind_word(kind), bytes, where, p, bytes, bytes, bytes);
    }
    uintptr_t off = a - (uintptr_t)w->arena;
    if (off < ARENA) {                                    /* shared memory */
        bool dyn = off + bytes <= w->dyn_bytes;
        if (!dyn && !(off >= w->static_base && off + bytes <= w->static_base + w->static_used))
            bad_address(w, a, bytes, kind, site);
        if (kind == K_WRITE) w->c.shared_stores++;
        else if (kind == K_READ) w->c.shared_loads++;
        else w->c.atomics++;
        if (kind != K_WRITE) {
            unsigned char *wr = w->written + off;
            for (size_t b = 0; b < bytes; b++)
                if (!wr[b]) {
                    if (checks & PW_CHECK_INITCHECK) {
                        char where[200];
                        site_text(site, where, sizeof where);
                        report_line(PW_CHECK_INITCHECK,
                                    "simt initcheck: kernel %s, block (%u,%u,%u), thread (%u,%u,%u): %s of %zu bytes "
                                    "at %s from uninitialized shared memory at offset 0x%zx: this block stored nothing "
                                    "there (a GPU would show whatever was left; here it is 0xFF)", w->L->cfg.name,
                                    w->block_idx.x, w->block_idx.y, w->block_idx.z, t->tid.x, t->tid.y, t->tid.z,
                                    kind_word(kind), bytes, where, (size_t)off);
                    }
                    memset(wr, 1, bytes);         /* one report per location */
                    break;
                }
        }
        if (kind != K_READ) memset(w->written + off, 1, bytes);
        if (checks & PW_CHECK_RACECHECK) race_check(w, t, off, bytes, kind, site);
        if (kind != K_ATOMIC) record(w, t, site, kind, SPACE_SHARED, off, bytes);
        return;
    }
    /* device memory: the allocation this worker used last, else a search.
     * No lock: allocations change only between launches. */
    size_t k = w->last_alloc;
    long i;
    if (k < nallocs && a >= (uintptr_t)allocs[k].base && a + bytes <= (uintptr_t)allocs[k].base + allocs[k].bytes) {
        i = (long)k;
    } else {
        i = find_alloc(p, bytes);
        if (i < 0) {
            if (in_statics(a, bytes)) {                  /* __device__, __constant__ variables */
                if (kind == K_WRITE) w->c.global_stores++;
                else if (kind == K_READ) w->c.global_loads++;
                else w->c.atomics++;
                if (kind != K_ATOMIC) record(w, t, site, kind, SPACE_GLOBAL, a, bytes);
                return;
            }
            bad_address(w, a, bytes, kind, site);
        }
        w->last_alloc = (size_t)i;
    }
    if (kind == K_WRITE) w->c.global_stores++;
    else if (kind == K_READ) w->c.global_loads++;
    else w->c.atomics++;
    unsigned char *bits = allocs[i].init;
    if (bits) {
        size_t o = (size_t)(a - (uintptr_t)allocs[i].base);
        bool all = true;
        for (size_t b = o; b < o + bytes; b++)
            if (!(__atomic_load_n(&bits[b >> 3], __ATOMIC_RELAXED) >> (b & 7) & 1)) { all = false; break; }
        if (!all) {
            if (kind == K_READ && (checks & PW_CHECK_INITCHECK)) {
                char where[200];
                site_text(site, where, sizeof where);
                report_line(PW_CHECK_INITCHECK,
                            "simt initcheck: kernel %s, block (%u,%u,%u), thread (%u,%u,%u): read of %zu bytes at %s "
                            "from uninitialized global memory: byte %zu of a %zu-byte cudaMalloc allocation that no "
                            "cudaMemcpy, cudaMemset or store has written", w->L->cfg.name, w->block_idx.x,
                            w->block_idx.y, w->block_idx.z, t->tid.x, t->tid.y, t->tid.z, bytes, where, o,
                            allocs[i].bytes);
            }
            /* written now (or reported once) */
            for (size_t b = o; b < o + bytes; b++)
                __atomic_fetch_or(&bits[b >> 3], (unsigned char)(1u << (b & 7)), __ATOMIC_RELAXED);
        }
    }
    if (kind != K_ATOMIC) record(w, t, site, kind, SPACE_GLOBAL, a, bytes);
}

/* ---- the hooks: ThreadSanitizer's entry points, renamed pw_tsan_* in .cu objects ----------- */

#define RA __builtin_return_address(0)
#define PW_HOOKS(n)                                                                                 \
    void pw_tsan_read##n(void *p) { on_access(p, n, K_READ, RA, true); }                            \
    void pw_tsan_write##n(void *p) { on_access(p, n, K_WRITE, RA, true); }                          \
    void pw_tsan_unaligned_read##n(void *p) { on_access(p, n, K_READ, RA, false); }                 \
    void pw_tsan_unaligned_write##n(void *p) { on_access(p, n, K_WRITE, RA, false); }               \
    void pw_tsan_volatile_read##n(void *p) { on_access(p, n, K_READ, RA, true); }                   \
    void pw_tsan_volatile_write##n(void *p) { on_access(p, n, K_WRITE, RA, true); }                 \
    void pw_tsan_unaligned_volatile_read##n(void *p) { on_access(p, n, K_READ, RA, false); }        \
    void pw_tsan_unaligned_volatile_write##n(void *p) { on_access(p, n, K_WRITE, RA, false); }      \
    void pw_tsan_read##n##_pc(void *p, void *pc) { (void)pc; on_access(p, n, K_READ, RA, true); }   \
    void pw_tsan_write##n##_pc(void *p, void *pc) { (void)pc; on_access(p, n, K_WRITE, RA, true); }
/* declared here, defined once: no header declares the hooks (only objects call them) */
#define PW_HOOK_DECLS(n)                                                                            \
    void pw_tsan_read##n(void *p); void pw_tsan_write##n(void *p);                                  \
    void pw_tsan_unaligned_read##n(void *p); void pw_tsan_unaligned_write##n(void *p);              \
    void pw_tsan_volatile_read##n(void *p); void pw_tsan_volatile_write##n(void *p);                \
    void pw_tsan_unaligned_volatile_read##n(void *p); void pw_tsan_unaligned_volatile_write##n(void *p); \
    void pw_tsan_read##n##_pc(void *p, void *pc); void pw_tsan_write##n##_pc(void *p, void *pc);
PW_HOOK_DECLS(1)
PW_HOOK_DECLS(2)
PW_HOOK_DECLS(4)
PW_HOOK_DECLS(8)
PW_HOOK_DECLS(16)
PW_HOOKS(1)
PW_HOOKS(2)
PW_HOOKS(4)
PW_HOOKS(8)
PW_HOOKS(16)

/* A lane's access on behalf of a library function (wmma's loads and stores):
 * counted and checked as one access of `bytes` at the device address (src
 * for a load, dst for a store), from the caller's line, then copied. Not left
 * to the instrumentation: clang turns a 16-byte struct copy into a memcpy
 * call it does not instrument. */
void pw_simt_move(void *dst, const void *src, size_t bytes, int store)
{
    on_access(store ? dst : src, bytes, store ? K_WRITE : K_READ, RA, true);
    memcpy(dst, src, bytes);
}

/* A range (a struct copy, a memcpy): as accesses of up to 16 bytes (a float4's LDG.128). */
static void range_access(const void *p, size_t n, int kind, const void *site)
{
    if (!cur) return;                     /* host code (a driver's memcpy) */
    const char *c = p;
    while (n) {
        size_t step = n >= 16 && ((uintptr_t)c & 15) == 0 ? 16 : n >= 8 && ((uintptr_t)c & 7) == 0 ? 8
                      : n >= 4 && ((uintptr_t)c & 3) == 0 ? 4 : 1;
        on_access(c, step, kind, site, false);
        c += step;
        n -= step;
    }
}
void pw_tsan_read_range(void *p, unsigned long n);
void pw_tsan_write_range(void *p, unsigned long n);
void pw_tsan_read_range(void *p, unsigned long n) { range_access(p, n, K_READ, RA); }
void pw_tsan_write_range(void *p, unsigned long n) { range_access(p, n, K_WRITE, RA); }

void *pw_tsan_memcpy(void *d, const void *s, unsigned long n);
void *pw_tsan_memmove(void *d, const void *s, unsigned long n);
void *pw_tsan_memset(void *d, int c, unsigned long n);
void *pw_tsan_memcpy(void *d, const void *s, unsigned long n)
{
    range_access(s, n, K_READ, RA);
    range_access(d, n, K_WRITE, RA);
    return memcpy(d, s, n);
}
void *pw_tsan_memmove(void *d, const void *s, unsigned long n)
{
    range_access(s, n, K_READ, RA);
    range_access(d, n, K_WRITE, RA);
    return memmove(d, s, n);
}
void *pw_tsan_memset(void *d, int c, unsigned long n)
{
    range_access(d, n, K_WRITE, RA);
    return memset(d, c, n);
}

void pw_tsan_init(void);
void pw_tsan_func_entry(void *pc);
void pw_tsan_func_exit(void);
void pw_tsan_vptr_update(void **vptr, void *value);
void pw_tsan_vptr_read(void **vptr);
void pw_tsan_ignore_thread_begin(void);
void pw_tsan_ignore_thread_end(void);
void pw_tsan_init(void) {}
void pw_tsan_func_entry(void *pc) { (void)pc; }
void pw_tsan_func_exit(void) {}
void pw_tsan_vptr_update(void **vptr, void *value) { (void)vptr; (void)value; }
void pw_tsan_vptr_read(void **vptr) { (void)vptr; }
void pw_tsan_ignore_thread_begin(void) {}
void pw_tsan_ignore_thread_end(void) {}

/* Atomics: checked as an atomic access, then done for real (blocks may run on
 * several OS threads). An atomic that changes memory is progress. */
#define PW_ATOMIC_HOOKS(bits, T)                                                                           \
    T pw_tsan_atomic##bits##_load(const volatile T *a, int mo);                                           \
    void pw_tsan_atomic##bits##_store(volatile T *a, T v, int mo);                                        \
    T pw_tsan_atomic##bits##_exchange(volatile T *a, T v, int mo);                                        \
    T pw_tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo);                                       \
    T pw_tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo);                                       \
    T pw_tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo);                                       \
    T pw_tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo);                                        \
    T pw_tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int mo);                                       \
    T pw_tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int mo);                                      \
    int pw_tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo);        \
    int pw_tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo);          \
    T pw_tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo);              \
    T pw_tsan_atomic##bits##_load(const volatile T *a, int mo)                                            \
    {                                                                                                     \
        (void)mo;                                                                                         \
        on_access((const void *)a, sizeof(T), K_ATOMIC, RA, true);                                        \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                      \
    }                                                                                                     \
    void pw_tsan_atomic##bits##_store(volatile T *a, T v, int mo)                                         \
    {                                                                                                     \
        (void)mo;                                                                                         \
        on_access((const void *)a, sizeof(T), K_ATOMIC, RA, true);                                        \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                         \
    }                                                                                                     \
    PW_ATOMIC_RMW(bits, T, exchange, __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST))                         \
    PW_ATOMIC_RMW(bits, T, fetch_add, __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST))                         \
    PW_ATOMIC_RMW(bits, T, fetch_sub, __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST))                         \
    PW_ATOMIC_RMW(bits, T, fetch_and, __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST))                         \
    PW_ATOMIC_RMW(bits, T, fetch_or, __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST))                           \
    PW_ATOMIC_RMW(bits, T, fetch_xor, __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST))                         \
    PW_ATOMIC_RMW(bits, T, fetch_nand, __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST))                       \
    int pw_tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo)         \
    {                                                                                                     \
        (void)mo;                                                                                         \
        (void)fmo;                                                                                        \
        return atomic_cas_##bits(a, c, v, RA);                                                            \
    }                                                                                                     \
    int pw_tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo)           \
    {                                                                                                     \
        (void)mo;                                                                                         \
        (void)fmo;                                                                                        \
        return atomic_cas_##bits(a, c, v, RA);                                                            \
    }                                                                                                     \
    T pw_tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo)               \
    {                                                                                                     \
        (void)mo;                                                                                         \
        (void)fmo;                                                                                        \
        atomic_cas_##bits(a, &c, v, RA);                                                                  \
        return c;                                                                                         \
    }
#define PW_ATOMIC_RMW(bits, T, name, op)                                                                  \
    T pw_tsan_atomic##bits##_##name(volatile T *a, T v, int mo)                                           \
    {                                                                                                     \
        (void)mo;                                                                                         \
        on_access((const void *)a, sizeof(T), K_ATOMIC, RA, true);                                        \
        T old = op;                                                                                       \
        if (cur && __atomic_load_n(a, __ATOMIC_RELAXED) != old) cur->w->no_progress = 0;                  \
        return old;                                                                                       \
    }
#define PW_ATOMIC_CAS(bits, T)                                                                            \
    static int atomic_cas_##bits(volatile T *a, T *c, T v, const void *site)                              \
    {                                                                                                     \
        on_access((const void *)a, sizeof(T), K_ATOMIC, site, true);                                      \
        T expected = *c;                                                                                  \
        int ok = __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);         \
        /* a failed compare-and-swap changed nothing: a spin, not progress */                             \
        if (cur && ok && expected != v) cur->w->no_progress = 0;                                          \
        return ok;                                                                                        \
    }
PW_ATOMIC_CAS(8, uint8_t)
PW_ATOMIC_CAS(16, uint16_t)
PW_ATOMIC_CAS(32, uint32_t)
PW_ATOMIC_CAS(64, uint64_t)
PW_ATOMIC_HOOKS(8, uint8_t)
PW_ATOMIC_HOOKS(16, uint16_t)
PW_ATOMIC_HOOKS(32, uint32_t)
PW_ATOMIC_HOOKS(64, uint64_t)
void pw_tsan_atomic_thread_fence(int mo);
void pw_tsan_atomic_signal_fence(int mo);
/* A full fence: a seq_cst read-modify-write (ThreadSanitizer builds of this
 * file warn on __atomic_thread_fence, which they do not model). */
static int fence_word;
void pw_simt_fence(void) { __atomic_fetch_add(&fence_word, 0, __ATOMIC_SEQ_CST); }
void pw_tsan_atomic_thread_fence(int mo) { (void)mo; pw_simt_fence(); }
void pw_tsan_atomic_signal_fence(int mo) { (void)mo; }

/* ---- barriers ---------------------------------------------------------------------------------- */

/* Back to the scheduler until someone makes this thread runnable again. */
static void yield(pw_simt_thread *t)
{
    t->slice = 0;
    pw_fiber_switch(t->fiber, t->w->sched);
}

/* SLICE accesses in a row: let the others run (a spinning thread must not
 * starve the one it waits for), and call a block that changes nothing for
 * spin_limit accesses a livelock. */
static void preempt(pw_simt_thread *t, const void *site)
{
    worker *w = t->w;
    t->slice = 0;
    if (w->no_progress > spin_limit) {
        char list[256], where[200] = "";
        thread_list(w, RUNNABLE, 0, 0, list, sizeof list);
        if (site) site_text(site, where, sizeof where);
        thread_error("livelock", cudaErrorLaunchTimeout,
                     "no progress at %s: %lld memory accesses since anything in this block was written, reached a barrier or "
                     "finished (PW_SIMT_SPIN_LIMIT=%lld). Threads %s still run, waiting for something that never "
                     "comes: a flag no thread of this block sets? (blocks are not promised to run at the same time, "
                     "so waiting for another block can hang a GPU too)", where[0] ? where : "a wait", w->no_progress,
                     spin_limit, list);
    }
    pw_fiber_switch(t->fiber, w->sched);
}

void pw_simt_yield(void)
{
    pw_simt_thread *t = cur;
    if (!t) return;
    t->w->no_progress += SLICE / 4;   /* waiting: not progress, and the budget still runs out */
    preempt(t, __builtin_return_address(0));
}

void pw_simt_syncthreads(const char *file, int line)
{
    pw_simt_syncthreads_op(0, 0, file, line);
}

int pw_simt_syncthreads_op(int op, int pred, const char *file, int line)
{
    pw_simt_thread *t = cur;
    if (!t) {
        fprintf(stderr, "simt: __syncthreads() at %s:%d outside a kernel\n", file, line);
        abort();
    }
    worker *w = t->w;
    if (w->nbarrier == 0) { w->barrier_file = file; w->barrier_line = line; }
    else if (line != w->barrier_line || (file != w->barrier_file && strcmp(file, w->barrier_file) != 0))
        w->barrier_mismatch = true;
    w->nbarrier++;
    t->state = AT_BARRIER;
    t->wait_file = file;
    t->wait_line = line;
    t->pred = pred != 0;
    t->op = op;
    yield(t);
    int count = w->barrier_count;   /* counted when the barrier opened */
    return op == 0 ? 0 : op == 1 ? count : op == 2 ? count == w->nthreads : count > 0;
}

/* ---- warp collectives ----------------------------------------------------------------------------- */

static const char *op_name(int op)
{
    static const char *names[] = { "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                                   "__ballot_sync", "__any_sync", "__all_sync", "__syncwarp", "__match_any_sync",
                                   "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync",
                                   "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
                                   "__reduce_xor_sync", "__reduce_min_sync", "__reduce_max_sync" };
    return op == PW_WARP_CALL ? "a warp-wide operation" : names[op];
}

/* A waiting thread's collective, by name. */
static const char *coll_name(const pw_simt_thread *t) { return t->op == PW_WARP_CALL ? t->call_name : op_name(t->op); }

/* Two lanes wait at the same collective. */
static bool same_collective(const pw_simt_thread *u, const pw_simt_thread *t)
{
    return u->state == AT_COLLECTIVE && u->op == t->op && u->mask == t->mask && u->width == t->width &&
           (t->op != PW_WARP_CALL || u->call_fn == t->call_fn);
}

/* The lanes that exist in warp `warp` (the last warp of a block may be short). */
static unsigned warp_lanes(worker *w, int warp)
{
    int n = w->nthreads - warp * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

unsigned pw_simt_activemask(void)
{
    pw_simt_thread *t = cur;
    worker *w = t->w;
    unsigned m = 0;
    for (int l = 0; l < 32 && t->warp * 32 + l < w->nthreads; l++)
        if (w->thr[t->warp * 32 + l]->state != DONE) m |= 1u << l;
    return m;
}

/* Source lane of a shuffle, as the hardware picks it (PTX shfl.sync). */
static int shuffle_source(int op, int lane, int arg, int width)
{
    int seg = lane & ~(width - 1), last = seg + width - 1, src;
    switch (op) {
    case PW_SHFL_IDX: return seg | (arg & (width - 1));
    case PW_SHFL_UP: src = lane - arg; return src >= seg ? src : lane;
    case PW_SHFL_DOWN: src = lane + arg; return src <= last ? src : lane;
    default: src = lane ^ (arg & 31); return src <= last ? src : lane;
    }
}

/* Every lane named in t's mask has arrived at the same collective: compute
 * all the results. Returns t's. */
static uint64_t complete(worker *w, pw_simt_thread *t)
{
    pw_simt_thread **lanes = &w->thr[t->warp * 32];
    unsigned mask = t->mask, ballot = 0;
    if (t->op == PW_WARP_CALL) {               /* all 32 lanes are here (pw_simt_warp_call) */
        void *args[32];
        for (int l = 0; l < 32; l++) args[l] = (void *)(uintptr_t)lanes[l]->value;
        t->call_fn(args, t->wait_file, t->wait_line);
    }
    uint32_t red = t->op == PW_REDUCE_AND ? 0xffffffffu : 0;
    int32_t smin = INT32_MAX, smax = INT32_MIN;
    uint32_t umin = UINT32_MAX, umax = 0;
    bool all_equal = true;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1u)) continue;
        uint64_t v = lanes[l]->value;
        ballot |= (unsigned)(v != 0) << l;
        uint32_t u = (uint32_t)v;
        int32_t s = (int32_t)u;
        switch (t->op) {
        case PW_REDUCE_ADD: red += u; break;
        case PW_REDUCE_AND: red &= u; break;
        case PW_REDUCE_OR: red |= u; break;
        case PW_REDUCE_XOR: red ^= u; break;
        default: break;
        }
        if (u < umin) umin = u;
        if (u > umax) umax = u;
        if (s < smin) smin = s;
        if (s > smax) smax = s;
        if (v != t->value) all_equal = false;
    }
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1u)) continue;
        pw_simt_thread *u = lanes[l];
        switch (t->op) {
        case PW_VOTE_BALLOT: u->result = ballot; break;
        case PW_VOTE_ANY: u->result = ballot != 0; break;
        case PW_VOTE_ALL: u->result = ballot == mask; break;
        case PW_SYNCWARP: u->result = 0; break;
        case PW_MATCH_ANY: {
            unsigned m = 0;
            for (int j = 0; j < 32; j++)
                if ((mask >> j & 1u) && lanes[j]->value == u->value) m |= 1u << j;
            u->result = m;
            break;
        }
        case PW_MATCH_ALL: u->result = all_equal ? ((uint64_t)1 << 32) | mask : 0; break;
        case PW_REDUCE_ADD: case PW_REDUCE_AND: case PW_REDUCE_OR: case PW_REDUCE_XOR: u->result = red; break;
        case PW_REDUCE_MIN: u->result = umin; break;
        case PW_REDUCE_MAX: u->result = umax; break;
        case PW_REDUCE_MIN_S: u->result = (uint32_t)smin; break;
        case PW_REDUCE_MAX_S: u->result = (uint32_t)smax; break;
        case PW_WARP_CALL: u->result = 0; break;
        default: {
            int src = shuffle_source(t->op, l, u->arg, t->width);
            if (!(mask >> src & 1u))
                thread_error("synccheck", cudaErrorLaunchFailure,
                             "%s at %s:%d: lane %d reads lane %d, which is not in the mask 0x%08x, so its value "
                             "is undefined", op_name(t->op), t->wait_file, t->wait_line, l, src, mask);
            u->result = lanes[src]->value;
        }
        }
        if (u != t) u->state = RUNNABLE;
    }
    t->state = RUNNABLE;
    w->c.collectives++;
    w->c.warp_steps++;
    w->c.active_lanes += __builtin_popcount(mask);
    w->wsync[t->warp]++;          /* racecheck: the lanes' accesses before are ordered before those after */
    w->no_progress = 0;
    /* Every lane of the warp stopped here: its accesses so far are complete. */
    if ((mask & warp_lanes(w, t->warp)) == warp_lanes(w, t->warp)) flush_warp(w, t->warp);
    return t->result;
}

uint64_t pw_simt_collect(pw_simt_collective op, unsigned mask, uint64_t value, int arg, int width,
                         const char *file, int line)
{
    pw_simt_thread *t = cur;
    if (!t) {
        fprintf(stderr, "simt: %s at %s:%d outside a kernel\n", op_name(op), file, line);
        abort();
    }
    worker *w = t->w;
    unsigned exists = warp_lanes(w, t->warp);
    if (!(mask >> t->lane & 1u))
        thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d with mask 0x%08x, which leaves out the "
                     "calling lane %d: a lane must name itself in the mask", op_name(op), file, line, mask, t->lane);
    if (mask & ~exists)
        thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d with mask 0x%08x names lanes that do not "
                     "exist: warp %d of this block of %d threads has only the lanes 0x%08x", op_name(op), file,
                     line, mask, t->warp, w->nthreads, exists);
    if (op <= PW_SHFL_XOR && (width < 1 || width > 32 || (width & (width - 1))))
        thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d with width %d: the width must be a power "
                     "of two from 1 to 32", op_name(op), file, line, width);
    t->op = op;
    t->mask = mask;
    t->value = value;
    t->arg = arg;
    t->width = width;
    t->wait_file = file;
    t->wait_line = line;
    t->state = AT_COLLECTIVE;
    pw_simt_thread **lanes = &w->thr[t->warp * 32];
    bool all = true;
    for (int l = 0; l < 32 && all; l++) {
        if (!(mask >> l & 1u)) continue;
        pw_simt_thread *u = lanes[l];
        if (u->state == DONE)
            thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d: lane %d, named in the mask 0x%08x, has "
                         "already exited", coll_name(t), file, line, l, mask);
        all = same_collective(u, t);
    }
    if (all) return complete(w, t);
    yield(t);
    return t->result;
}

void pw_simt_warp_call(const char *name, pw_simt_warp_fn fn, void *lane_arg, const char *file, int line)
{
    pw_simt_thread *t = cur;
    if (!t) {
        fprintf(stderr, "simt: %s at %s:%d outside a kernel\n", name, file, line);
        abort();
    }
    worker *w = t->w;
    unsigned lanes = warp_lanes(w, t->warp);
    if (lanes != 0xffffffffu)
        thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d in warp %d, which has only %d threads (the "
                     "block has %d): it is an operation of a whole warp, 32 threads; make the block a multiple of "
                     "32 threads", name, file, line, t->warp, __builtin_popcount(lanes), w->nthreads);
    t->call_fn = fn;
    t->call_name = name;
    pw_simt_collect(PW_WARP_CALL, lanes, (uint64_t)(uintptr_t)lane_arg, 0, 32, file, line);
}

void pw_simt_fail(const char *tool, cudaError_t code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!cur) {
        fprintf(stderr, "simt: %s\n", msg);
        abort();
    }
    thread_error(tool, code, "%s", msg);
}

int pw_simt_lane(void) { return cur ? cur->lane : 0; }
void pw_simt_count_mma(void) { if (cur) cur->w->c.mma_ops++; }

/* ---- the running thread: indices, clock, trap ------------------------------------------------------ */

uint3 pw_simt_thread_idx(void) { return cur->tid; }
uint3 pw_simt_block_idx(void) { return cur->w->block_idx; }
uint3 pw_simt_block_dim(void) { dim3 d = cur->w->block_dim; return (uint3){ d.x, d.y, d.z }; }
uint3 pw_simt_grid_dim(void) { dim3 d = cur->w->grid_dim; return (uint3){ d.x, d.y, d.z }; }
int pw_simt_in_kernel(void) { return cur != NULL; }

long long pw_simt_clock(void) { return (long long)(pw_now() * 1e9); }

void pw_simt_trap(const char *what, const char *file, int line)
{
    if (!cur) {
        fprintf(stderr, "simt: %s at %s:%d outside a kernel\n", what, file, line);
        abort();
    }
    thread_error("trap", cudaErrorLaunchFailure, "%s at %s:%d stopped the kernel", what, file, line);
}

/* ---- the scheduler ------------------------------------------------------------------------------ */

static void thread_main(void *arg)
{
    pw_simt_thread *t = arg;
    while (!t->quit) {
        t->w->L->thunk(t->w->L->args);
        t->state = DONE;
        t->w->ndone++;
        t->w->no_progress = 0;
        yield(t);                 /* resumed for the next block, or to quit */
    }
}

static pw_simt_thread *get_thread(worker *w, int i)
{
    if (!w->thr[i]) {
        w->thr[i] = calloc(1, sizeof *w->thr[i]);
        PW_CHECK_ALLOC(w->thr[i], sizeof *w->thr[i]);
        w->thr[i]->w = w;
        w->thr[i]->linear = i;
        w->thr[i]->lane = i % 32;
        w->thr[i]->warp = i / 32;
    }
    return w->thr[i];
}

static void run_thread(worker *w, pw_simt_thread *t)
{
    if (!t->fiber) {
        t->fiber = pw_fiber_create(thread_main, t, 0);
        t->stack_lo = (uintptr_t)pw_fiber_stack_bottom(t->fiber);
        t->stack_bytes = pw_fiber_stack_size(t->fiber);
    }
    t->started = true;
    cur = t;
    pw_fiber_switch(w->sched, t->fiber);
    cur = NULL;
}

/* Fibers stopped mid-kernel cannot be reused: let the idle ones return,
 * and free them all. */
static void free_pool(worker *w)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        pw_simt_thread *t = w->thr[i];
        if (!t) continue;
        if (t->fiber && t->started && t->state == DONE && !pw_fiber_done(t->fiber)) {
            t->quit = true;
            cur = t;
            pw_fiber_switch(w->sched, t->fiber);
            cur = NULL;
        }
        pw_fiber_destroy(t->fiber);
        free(t);
        w->thr[i] = NULL;
    }
    w->pool_broken = false;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Why nobody can run: the message of a block that would hang on a GPU. */
static void diagnose(worker *w)
{
    char a[256], b[256];
    int T = w->nthreads;
    if (w->nbarrier > 0 && w->barrier_mismatch) {
        /* two groups: the threads at the first barrier's site, and the rest */
        const char *f1 = w->barrier_file, *f2 = "?";
        int l1 = w->barrier_line, l2 = 0;
        for (int i = 0; i < T; i++)
            if (w->thr[i]->state == AT_BARRIER && w->thr[i]->wait_line == l1 && !strcmp(w->thr[i]->wait_file, f1))
                w->thr[i]->state = MARK;
        for (int i = 0; i < T; i++)
            if (w->thr[i]->state == AT_BARRIER) { f2 = w->thr[i]->wait_file; l2 = w->thr[i]->wait_line; break; }
        thread_list(w, MARK, 0, 0, a, sizeof a);
        thread_list(w, AT_BARRIER, 0, 0, b, sizeof b);
        for (int i = 0; i < T; i++)
            if (w->thr[i]->state == MARK) w->thr[i]->state = AT_BARRIER;
        block_error(w, "synccheck", cudaErrorLaunchFailure,
                    "threads wait at different barriers: threads %s at __syncthreads() at %s:%d, threads %s at "
                    "__syncthreads() at %s:%d. Every thread of a block must reach the same barrier: is one "
                    "inside a branch that not all threads take?", a, f1, l1, b, f2, l2);
        return;
    }
    if (w->nbarrier > 0 && w->nbarrier + w->ndone == T) {
        thread_list(w, AT_BARRIER, 0, 0, a, sizeof a);
        thread_list(w, DONE, 0, 0, b, sizeof b);
        block_error(w, "synccheck", cudaErrorLaunchFailure,
                    "__syncthreads() at %s:%d: threads %s wait there, but threads %s exited without reaching it "
                    "(on a GPU: undefined, often a hang). Every thread must reach every barrier: no barrier inside "
                    "an if that some threads skip, and guard the work with if (i < n), not an early return",
                    w->barrier_file, w->barrier_line, a, b);
        return;
    }
    for (int i = 0; i < T; i++) {
        pw_simt_thread *t = w->thr[i];
        if (t->state != AT_COLLECTIVE) continue;
        for (int l = 0; l < 32; l++) {
            if (!(t->mask >> l & 1u)) continue;
            pw_simt_thread *u = w->thr[t->warp * 32 + l];
            if (same_collective(u, t)) continue;
            thread_list(w, -1, t->warp, t->mask, a, sizeof a);
            const char *why = u->state == DONE ? "has exited"
                              : u->state == AT_BARRIER ? "waits at __syncthreads()"
                              : u->op != t->op || (t->op == PW_WARP_CALL && u->call_fn != t->call_fn) ? "waits at a different collective"
                              : u->mask != t->mask ? "waits at the same collective with another mask"
                              : "waits with another width";
            char at[200] = "";
            if (u->state != DONE) snprintf(at, sizeof at, " at %s:%d", u->wait_file, u->wait_line);
            if (u->state == AT_COLLECTIVE && u->op == PW_WARP_CALL && u->call_fn != t->call_fn)
                snprintf(at, sizeof at, " (%s) at %s:%d", u->call_name, u->wait_file, u->wait_line);
            block_error(w, "synccheck", cudaErrorLaunchFailure,
                        "%s (mask 0x%08x) at %s:%d in warp %d waits for lane %d (thread %d), which %s%s; the "
                        "threads named in the mask (%s) must all call it with the same mask",
                        coll_name(t), t->mask, t->wait_file, t->wait_line, t->warp, l, u->linear, why, at, a);
            return;
        }
    }
    block_error(w, "synccheck", cudaErrorLaunchFailure, "deadlock: %d threads at a barrier, %d done, none can run",
                w->nbarrier, w->ndone);
}

static void run_block(worker *w, long long b)
{
    launch *L = w->L;
    dim3 g = L->cfg.grid;
    w->block_idx.x = (unsigned)(b % g.x);
    w->block_idx.y = (unsigned)(b / g.x % g.y);
    w->block_idx.z = (unsigned)(b / ((long long)g.x * g.y));
    int T = w->nthreads;
    /* Shared memory: poison, nothing written, no static variable placed yet. */
    if (w->touched) {
        memset(w->arena, 0xFF, w->touched);
        memset(w->written, 0, w->touched);
    }
    w->touched = w->dyn_bytes;
    w->nvars = 0;
    w->static_used = 0;
    if (w->l1_used) {   /* a new block: an empty L1 (the model's) */
        memset(w->l1_set, 0, w->l1_cap * sizeof *w->l1_set);
        w->l1_used = 0;
    }
    w->serial++;
    w->epoch = 0;
    memset(w->wsync, 0, sizeof w->wsync);
    memset(w->seq, 0, sizeof w->seq);
    w->ndone = w->nbarrier = 0;
    w->no_progress = 0;
    w->barrier_mismatch = false;
    for (int i = 0; i < T; i++) { w->thr[i]->state = RUNNABLE; w->thr[i]->slice = 0; }
    for (int i = 0; i < T; i++) w->order[i] = i;
    for (;;) {
        bool ran = false;
        if (shuffle_seed)
            for (int i = T - 1; i > 0; i--) {
                int j = (int)(xorshift(&w->rng) % (uint64_t)(i + 1)), tmp = w->order[i];
                w->order[i] = w->order[j];
                w->order[j] = tmp;
            }
        for (int k = 0; k < T; k++) {
            pw_simt_thread *t = w->thr[w->order[k]];
            if (t->state != RUNNABLE) continue;
            run_thread(w, t);
            ran = true;
            if (__atomic_load_n(&L->failed, __ATOMIC_ACQUIRE)) return;
        }
        if (w->ndone == T) break;
        if (w->nbarrier > 0 && w->nbarrier == T && !w->barrier_mismatch) {
            w->barrier_count = 0;
            for (int i = 0; i < T; i++) { w->thr[i]->state = RUNNABLE; w->barrier_count += w->thr[i]->pred; }
            w->nbarrier = 0;
            w->epoch++;
            w->no_progress = 0;
            w->c.barriers++;
            w->c.barrier_crossings += T;
            flush_all(w);
            continue;
        }
        if (!ran || (w->nbarrier > 0 && w->nbarrier + w->ndone == T)) {
            diagnose(w);
            return;
        }
    }
    flush_all(w);
}

/* The counters that hold the largest value, not a sum (k: the index of a
 * long long of pw_simt_counters). */
static int counter_is_max(size_t k)
{
    static const size_t max_fields[] = { offsetof(pw_simt_counters, shared_max_ways),
                                         offsetof(pw_simt_counters, threads_per_block),
                                         offsetof(pw_simt_counters, shared_static_bytes),
                                         offsetof(pw_simt_counters, shared_dynamic_bytes) };
    for (size_t i = 0; i < sizeof max_fields / sizeof max_fields[0]; i++)
        if (k * sizeof(long long) == max_fields[i]) return 1;
    return 0;
}

/* Run blocks until the grid is done or an error stops it. */
static void work(worker *w, launch *L)
{
    w->L = L;
    w->block_dim = L->cfg.block;
    w->grid_dim = L->cfg.grid;
    w->nthreads = (int)(L->cfg.block.x * L->cfg.block.y * L->cfg.block.z);
    w->nwarps = (w->nthreads + 31) / 32;
    w->sched = pw_fiber_self();
    arena_alloc(w);
    w->dyn_bytes = L->cfg.shmem;
    w->static_base = round_up(L->cfg.shmem, 128);
    w->touched = w->static_base + MAX_STATIC_SHARED;   /* the first block starts clean */
    memset(&w->c, 0, sizeof w->c);
    w->rng = shuffle_seed ? shuffle_seed : 1;
    for (int i = 0; i < w->nthreads; i++) {
        pw_simt_thread *t = get_thread(w, i);
        dim3 bd = L->cfg.block;
        t->tid.x = (unsigned)i % bd.x;
        t->tid.y = (unsigned)i / bd.x % bd.y;
        t->tid.z = (unsigned)i / (bd.x * bd.y);
    }
    long long blocks = 0;
    for (;;) {
        if (__atomic_load_n(&L->failed, __ATOMIC_ACQUIRE)) break;
        long long b = __atomic_fetch_add(&L->next, 1, __ATOMIC_RELAXED);
        if (b >= L->nblocks) break;
        run_block(w, b);
        blocks++;
    }
    if (__atomic_load_n(&L->failed, __ATOMIC_ACQUIRE)) {
        for (int i = 0; i < w->nwarps; i++) {
            warp_log *wl = &w->warps[i];
            for (int s = 0; s < wl->nsites; s++) wl->sites[s].n = 0;
            wl->nsites = 0;
            if (wl->hcap) memset(wl->hash, 0, (size_t)wl->hcap * sizeof *wl->hash);
        }
        memset(w->dirty_warps, 0, sizeof w->dirty_warps);
    }
    w->c.blocks = blocks;
    w->c.threads = blocks * w->nthreads;
    w->c.warps = blocks * w->nwarps;
    w->c.threads_per_block = w->nthreads;
    w->c.shared_dynamic_bytes = (long long)L->cfg.shmem;
    pthread_mutex_lock(&L->lock);
    const long long *src = (const long long *)&w->c;
    long long *dst = (long long *)&L->sum;
    for (size_t k = 0; k < sizeof w->c / sizeof(long long); k++) {
        if (counter_is_max(k)) { if (src[k] > dst[k]) dst[k] = src[k]; }
        else dst[k] += src[k];
    }
    pthread_mutex_unlock(&L->lock);
    if (w->pool_broken) free_pool(w);
}

static worker *new_worker(void)
{
    worker *w = calloc(1, sizeof *w);
    PW_CHECK_ALLOC(w, sizeof *w);
    return w;
}

static void free_worker(worker *w)
{
    free_pool(w);
    for (int i = 0; i < MAX_WARPS; i++) {
        warp_log *wl = &w->warps[i];
        for (int s = 0; s < wl->cap; s++) free(wl->sites[s].g);
        free(wl->sites);
        free(wl->hash);
    }
    free(w->l1_set);
    free(w->arena);
    free(w->written);
    free(w->race);
    free(w);
}

static void *worker_thread(void *arg)
{
    worker *w = new_worker();
    work(w, arg);
    free_worker(w);
    return NULL;
}

static bool in_launch;

void pw_simt_shutdown(void)
{
    if (in_launch || !tls_worker) return;     /* exit() from inside a kernel: leave it */
    free_worker(tls_worker);
    tls_worker = NULL;
}

static bool valid_config(const pw_simt_config *c, char *why, size_t len)
{
    dim3 b = c->block, g = c->grid;
    unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    if (!b.x || !b.y || !b.z || !g.x || !g.y || !g.z)
        snprintf(why, len, "a grid or block size is 0");
    else if (threads > MAX_THREADS)
        snprintf(why, len, "%llu threads per block: the most is %d", threads, MAX_THREADS);
    else if (b.z > 64)
        snprintf(why, len, "blockDim.z = %u: the most is 64", b.z);
    else if (g.y > 65535 || g.z > 65535)
        snprintf(why, len, "gridDim.y and .z can be at most 65535");
    else if (c->shmem > MAX_DYN_SHARED)
        snprintf(why, len, "%zu bytes of dynamic shared memory: the most is %d", c->shmem, MAX_DYN_SHARED);
    else
        return true;
    return false;
}

void pw_simt_launch(const pw_simt_config *cfg, void (*thunk)(void *), void *args, size_t args_bytes)
{
    read_settings();
    ensure_atexit();
    char why[160];
    if (cur) {
        fprintf(stderr, "simt: kernel %s launched from inside a kernel (dynamic parallelism is not supported)\n",
                cfg->name);
        abort();
    }
    if (!valid_config(cfg, why, sizeof why)) {
        pthread_mutex_lock(&state_lock);
        snprintf(last_message, sizeof last_message, "simt: kernel %s: invalid launch: %s", cfg->name, why);
        last_error = cudaErrorInvalidConfiguration;
        if (!quiet) fprintf(stderr, "%s\n", last_message);
        pthread_mutex_unlock(&state_lock);
        return;
    }
    if (!tls_worker) {
        tls_worker = new_worker();
        static bool registered;
        if (!registered) { registered = true; atexit(pw_simt_shutdown); }
    }
    launch L = { .cfg = *cfg, .thunk = thunk, .args = args, .args_bytes = args_bytes };
    L.nblocks = (long long)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    pthread_mutex_init(&L.lock, NULL);
    memset(launch_reports, 0, sizeof launch_reports);
    launch_suppressed = 0;
    int extra = workers_setting - 1;
    if (extra > L.nblocks - 1) extra = (int)(L.nblocks - 1);
    pthread_t tids[256];
    in_launch = true;
    for (int i = 0; i < extra; i++) PW_CHECK_PTHREAD(pthread_create(&tids[i], NULL, worker_thread, &L));
    work(tls_worker, &L);
    for (int i = 0; i < extra; i++) PW_CHECK_PTHREAD(pthread_join(tids[i], NULL));
    in_launch = false;
    pthread_mutex_destroy(&L.lock);
    if (launch_suppressed && !quiet)
        fprintf(stderr, "simt: kernel %s: %ld more reports like those above, not shown\n", cfg->name,
                launch_suppressed);
    trace_warp = -1;              /* the lane map records one launch */
    L.sum.launches = 1;
    last_counters = L.sum;
    snprintf(last_kernel, sizeof last_kernel, "%s", cfg->name ? cfg->name : "");
    const long long *src = (const long long *)&L.sum;
    long long *dst = (long long *)&total_counters;
    for (size_t k = 0; k < sizeof L.sum / sizeof(long long); k++) {
        if (counter_is_max(k)) { if (src[k] > dst[k]) dst[k] = src[k]; }
        else dst[k] += src[k];
    }
}

/* ---- counters --------------------------------------------------------------------------------------- */

const pw_simt_counters *pw_simt_last_counters(void) { return &last_counters; }
const char *pw_simt_last_kernel(void) { return last_kernel; }
const pw_simt_counters *pw_simt_total_counters(void) { return &total_counters; }
void pw_simt_counters_reset(void) { memset(&total_counters, 0, sizeof total_counters); }

double pw_simt_efficiency(const pw_simt_counters *c)
{
    return c->warp_steps ? (double)c->active_lanes / (32.0 * (double)c->warp_steps) : 0;
}

double pw_simt_sectors_per_request(const pw_simt_counters *c)
{
    long long r = c->global_load_requests + c->global_store_requests;
    return r ? (double)(c->global_load_sectors + c->global_store_sectors) / (double)r : 0;
}

double pw_simt_conflict_ways(const pw_simt_counters *c)
{
    return c->shared_requests ? (double)c->shared_wavefronts / (double)c->shared_requests : 0;
}

/* ---- the device, events ------------------------------------------------------------------------------- */

cudaError_t pw_simt_get_device_count(int *n)
{
    *n = 1;
    return cudaSuccess;
}

cudaError_t pw_simt_set_device(int device) { return device == 0 ? cudaSuccess : (last_error = cudaErrorInvalidDevice); }
cudaError_t pw_simt_get_device(int *device)
{
    *device = 0;
    return cudaSuccess;
}

cudaError_t pw_simt_get_device_properties(cudaDeviceProp *p, int device)
{
    if (device != 0) return last_error = cudaErrorInvalidDevice;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "SIMT emulator (CPU, %d worker thread%s)", pw_simt_workers(),
             pw_simt_workers() == 1 ? "" : "s");
    p->warpSize = 32;
    p->maxThreadsPerBlock = MAX_THREADS;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->multiProcessorCount = pw_simt_workers();
    p->maxThreadsPerMultiProcessor = 2048;
    p->sharedMemPerBlock = 48 * 1024;
    p->sharedMemPerBlockOptin = MAX_DYN_SHARED;
    p->sharedMemPerMultiprocessor = MAX_DYN_SHARED + 1024;
    p->totalGlobalMem = (size_t)pw_available_memory();
    p->totalConstMem = 64 * 1024;
    p->regsPerBlock = 65536;
    p->concurrentKernels = 0;
    p->unifiedAddressing = 1;
    p->managedMemory = 1;
    return cudaSuccess;
}

struct pw_simt_event { double t; };

cudaError_t pw_simt_event_create(cudaEvent_t *e)
{
    *e = calloc(1, sizeof **e);
    return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t pw_simt_event_record(cudaEvent_t e, cudaStream_t s)
{
    (void)s;
    if (!e) return last_error = cudaErrorInvalidResourceHandle;
    e->t = pw_now();
    return cudaSuccess;
}

cudaError_t pw_simt_event_synchronize(cudaEvent_t e) { (void)e; return cudaSuccess; }

cudaError_t pw_simt_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    *ms = (float)((stop->t - start->t) * 1e3);
    return cudaSuccess;
}

cudaError_t pw_simt_event_destroy(cudaEvent_t e)
{
    free(e);
    return cudaSuccess;
}
