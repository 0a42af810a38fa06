/* common/simt.c: the SIMT emulator (see simt.h for what it offers).
 *
 * How a launch runs. Blocks are handed out to workers (OS threads; the
 * calling thread is one of them). A worker runs one block at a time: each
 * emulated thread is a fiber (common/fiber.h), and a thread runs until it
 * has to meet others: at __syncthreads, at a warp collective, or at its end.
 * The worker's scheduler then runs the next runnable thread. When every
 * thread waits at the same barrier the barrier opens; when every lane a
 * collective names has arrived, the last one computes all the results. When
 * no thread can run and the block is not done, that is a deadlock, and the
 * scheduler says why instead of hanging.
 *
 * The fibers are kept between blocks and launches (a thread's fiber runs
 * the kernel again for the next block), so a block costs no mmap: a barrier
 * crossing is two fiber switches and a little bookkeeping.
 *
 * What is counted. Every LOAD/STORE is recorded in its warp's log under
 * (site, how many times this lane has passed the site since the warp last
 * met). The lanes that share a key are one warp instruction: that is how
 * lock-step SIMT groups them, including after divergence (the lanes that
 * did not take a branch never pass its sites). When a warp meets (a barrier,
 * a full-warp collective, the end of the block), each instruction is turned
 * into counts: active lanes, 32-byte sectors for device memory, and
 * bank-conflict ways for shared memory (32 banks of 4-byte words; lanes on
 * the same word share it, a broadcast).
 */
#define _GNU_SOURCE
#include "simt.h"
#include "errcheck.h"
#include "fiber.h"
#include "options.h"
#include "timing.h"
#include "util.h"

#include <pthread.h>
#include <stdarg.h>
#include <string.h>
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
    MAX_SITES = 64,               /* distinct LOAD/STORE sites per warp between meetings */
    MAX_DYN_SHARED = 48 * 1024,   /* the default limit of dynamic shared memory per block */
    REDZONE = 256,                /* bytes around each cudaMalloc: cudaMalloc aligns to 256 */
    STACK_BYTES = 0,              /* fiber default: 64 KiB (256 KiB under ASan) */
};

enum { RUNNABLE, AT_BARRIER, AT_COLLECTIVE, DONE, MARK };
enum { SPACE_GLOBAL, SPACE_DYN_SHARED, SPACE_STATIC_SHARED };

/* ---- state --------------------------------------------------------------------- */

typedef struct {                  /* one warp instruction being assembled */
    uint32_t mask;                /* lanes that executed it */
    uint32_t bytes;               /* access size of the first lane */
    uintptr_t addr[32];           /* per lane: address (global) or offset (shared) */
} group;

typedef struct {                  /* every pass of a warp's lanes over one site */
    const char *site;
    int store, space;
    group *g;
    int n, cap;                   /* groups used (= most passes by any lane), allocated */
} site_log;

typedef struct {
    site_log sites[MAX_SITES];
    int nsites;
} warp_log;

typedef struct worker worker;
typedef struct launch launch;

struct pw_simt_thread {
    struct pw_simt_thread_public pub;   /* threadIdx and friends: must come first */
    worker *w;
    pw_fiber *fiber;
    int linear, lane, warp;
    int state;
    bool started, quit;
    const char *wait_site;        /* the barrier or collective it waits at */
    /* a collective in progress */
    int op, arg, width;
    unsigned mask;
    uint64_t value, result;
    uint32_t occ[MAX_SITES];      /* passes over each of its warp's sites */
    int last_slot;                /* the site it touched last: the usual next one */
};

struct launch {
    pw_simt_config cfg;
    void (*thunk)(void *);
    void *args;
    long long nblocks;
    long long next;               /* next block to hand out (atomic) */
    int failed;                   /* an error stopped the launch (atomic) */
    pthread_mutex_t lock;         /* guards sum */
    pw_simt_counters sum;
};

struct worker {
    pw_fiber *sched;              /* this OS thread's own context */
    pw_simt_thread *thr[MAX_THREADS];
    bool pool_broken;             /* fibers stopped mid-kernel by an error */
    launch *L;
    uint3 block_idx;
    dim3 block_dim, grid_dim;
    int nthreads, nwarps;
    int ndone, nbarrier;
    const char *barrier_site;
    bool barrier_mismatch;
    unsigned char *dyn;           /* dynamic shared memory of this launch */
    size_t dyn_bytes;
    char *tls;                    /* this thread's static TLS block: where __shared__ arrays are */
    size_t tls_bytes;
    unsigned char *tls_written;   /* bit per TLS byte: stored to in this block */
    bool tls_known;
    warp_log warps[MAX_WARPS];
    unsigned dirty_warps[MAX_WARPS / 32 + 1];
    int order[MAX_THREADS];
    uint64_t rng;
    pw_simt_counters c;
    size_t last_alloc;
};

_Thread_local struct pw_simt_thread_public *pw_simt_self;
static _Thread_local worker *tls_worker;     /* the calling thread's, kept between launches */

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;   /* errors, allocations */
static cudaError_t last_error;
static char last_message[2048];
static pw_simt_counters last_counters, total_counters;
static bool quiet;
static uint64_t shuffle_seed;
static int workers_setting;       /* 0: not set yet */
static bool settings_read;

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
}

void pw_simt_set_quiet(bool q) { quiet = q; }
void pw_simt_set_shuffle(uint64_t seed) { read_settings(); shuffle_seed = seed; }
void pw_simt_set_workers(int n) { read_settings(); workers_setting = n < 1 ? 1 : n > 256 ? 256 : n; }
int pw_simt_workers(void) { read_settings(); return workers_setting; }

/* ---- device memory: cudaMalloc with red zones ------------------------------------- */

typedef struct { char *base; size_t bytes; } allocation;
static allocation *allocs;        /* sorted by base */
static size_t nallocs, cap_allocs;

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

cudaError_t pw_simt_malloc(void **p, size_t bytes)
{
    if (!p) return last_error = cudaErrorInvalidValue;
    size_t body = round_up(bytes ? bytes : 1, REDZONE);
    char *raw = aligned_alloc(REDZONE, body + 2 * REDZONE);
    if (!raw) { *p = NULL; return last_error = cudaErrorMemoryAllocation; }
    /* Fresh device memory is not zero on a GPU either: garbage, not NaN, but
     * a kernel that reads it before writing is wrong all the same. */
    memset(raw, 0xA5, body + 2 * REDZONE);
    char *base = raw + REDZONE;
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
    allocs[i] = (allocation){ base, bytes };
    nallocs++;
    pthread_mutex_unlock(&state_lock);
    *p = base;
    return cudaSuccess;
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

cudaError_t pw_simt_free(void *p)
{
    if (!p) return cudaSuccess;
    pthread_mutex_lock(&state_lock);
    long i = find_alloc(p, 0);
    if (i < 0 || allocs[i].base != p) {
        pthread_mutex_unlock(&state_lock);
        return last_error = cudaErrorInvalidValue;
    }
    char *raw = allocs[i].base - REDZONE;
    size_t total = round_up(allocs[i].bytes ? allocs[i].bytes : 1, REDZONE) + 2 * REDZONE;
    memmove(&allocs[i], &allocs[i + 1], (nallocs - (size_t)i - 1) * sizeof *allocs);
    nallocs--;
    pthread_mutex_unlock(&state_lock);
#ifdef PW_SIMT_ASAN
    __asan_unpoison_memory_region(raw, total);
#else
    (void)total;
#endif
    free(raw);
    return cudaSuccess;
}

/* The device side of a copy must lie inside one allocation. */
static cudaError_t check_device_range(const void *p, size_t bytes)
{
    pthread_mutex_lock(&state_lock);
    long i = find_alloc(p, bytes);
    pthread_mutex_unlock(&state_lock);
    return i < 0 ? cudaErrorInvalidValue : cudaSuccess;
}

cudaError_t pw_simt_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    cudaError_t e = cudaSuccess;
    if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) e = check_device_range(dst, bytes);
    if (e == cudaSuccess && (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice))
        e = check_device_range(src, bytes);
    if (e != cudaSuccess) return last_error = e;
    if (bytes) memmove(dst, src, bytes);
    return cudaSuccess;
}

cudaError_t pw_simt_memset(void *p, int value, size_t bytes)
{
    if (check_device_range(p, bytes) != cudaSuccess) return last_error = cudaErrorInvalidValue;
    if (bytes) memset(p, value, bytes);
    return cudaSuccess;
}

/* ---- errors ------------------------------------------------------------------------- */

static worker *me(void) { return ((pw_simt_thread *)pw_simt_self)->w; }

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
static void set_error(worker *w, pw_simt_thread *t, cudaError_t code, const char *fmt, va_list ap)
{
    char what[1536], who[160];
    vsnprintf(what, sizeof what, fmt, ap);
    if (t)
        snprintf(who, sizeof who, ", thread (%u,%u,%u)", t->pub.thread_idx.x, t->pub.thread_idx.y,
                 t->pub.thread_idx.z);
    else
        who[0] = 0;
    pthread_mutex_lock(&state_lock);
    if (!w->L->failed) {
        __atomic_store_n(&w->L->failed, 1, __ATOMIC_RELEASE);
        snprintf(last_message, sizeof last_message, "simt: kernel %s, block (%u,%u,%u)%s: %s",
                 w->L->cfg.name, w->block_idx.x, w->block_idx.y, w->block_idx.z, who, what);
        last_error = code;
        if (!quiet) fprintf(stderr, "%s\n", last_message);
    }
    pthread_mutex_unlock(&state_lock);
}

static void block_error(worker *w, cudaError_t code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void block_error(worker *w, cudaError_t code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(w, NULL, code, fmt, ap);
    va_end(ap);
    w->pool_broken = true;        /* the threads are stopped mid-kernel */
}

/* An error in the running thread: recorded, and the thread never resumes. */
static void thread_error(cudaError_t code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void thread_error(cudaError_t code, const char *fmt, ...)
{
    pw_simt_thread *t = (pw_simt_thread *)pw_simt_self;
    worker *w = t->w;
    va_list ap;
    va_start(ap, fmt);
    set_error(w, t, code, fmt, ap);
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
cudaError_t pw_simt_device_synchronize(void) { return last_error; }

const char *pw_simt_error_string(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    }
    return "unknown error";
}

/* ---- classifying an address ------------------------------------------------------------ */

#ifdef PW_SIMT_HAVE_PHDR
static int find_tls(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    worker *w = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_TLS || !info->dlpi_tls_data) continue;
        w->tls = info->dlpi_tls_data;
        w->tls_bytes = info->dlpi_phdr[i].p_memsz;
    }
    return 1;                     /* the first object is the program, where the kernels are */
}
#endif

/* Where static __shared__ arrays live: this OS thread's TLS block of the program. */
static void locate_tls(worker *w)
{
    w->tls_known = true;
#ifdef PW_SIMT_HAVE_PHDR
    dl_iterate_phdr(find_tls, w);
#endif
    if (w->tls_bytes) {
        w->tls_written = calloc(w->tls_bytes / 8 + 1, 1);
        PW_CHECK_ALLOC(w->tls_written, w->tls_bytes / 8 + 1);
    }
}

/* An access that is in no device allocation: say where it is. */
static void bad_address(worker *w, const void *p, size_t bytes, const char *what, const char *site)
{
    const char *c = p;
    long best = -1;
    size_t dist = (size_t)-1;
    pthread_mutex_lock(&state_lock);
    for (size_t i = 0; i < nallocs; i++) {
        const allocation *a = &allocs[i];
        size_t d = c < a->base ? (size_t)(a->base - c) : c >= a->base + a->bytes ? (size_t)(c - (a->base + a->bytes)) : 0;
        if (d < dist) { dist = d; best = (long)i; }
    }
    allocation a = best >= 0 ? allocs[best] : (allocation){ NULL, 0 };
    pthread_mutex_unlock(&state_lock);
    if (w->dyn && c >= (char *)w->dyn + w->dyn_bytes && c < (char *)w->dyn + w->dyn_bytes + 4096)
        thread_error(cudaErrorIllegalAddress,
                     "%s of %zu bytes at %s is %zu bytes past the end of the %zu bytes of dynamic shared memory "
                     "(the third launch argument sets its size)", what, bytes, site,
                     (size_t)(c - ((char *)w->dyn + w->dyn_bytes)), w->dyn_bytes);
    if (best >= 0 && dist < (size_t)1 << 20) {
        if (c >= a.base + a.bytes || (c >= a.base && c + bytes > a.base + a.bytes))
            thread_error(cudaErrorIllegalAddress,
                         "%s of %zu bytes at %s is out of bounds: byte offset %zu of a %zu-byte cudaMalloc "
                         "allocation (element %zu of %zu, counting in %zu-byte elements)", what, bytes, site,
                         (size_t)(c - a.base), a.bytes, (size_t)(c - a.base) / bytes, a.bytes / bytes, bytes);
        thread_error(cudaErrorIllegalAddress,
                     "%s of %zu bytes at %s is out of bounds: %zu bytes before the start of a %zu-byte "
                     "cudaMalloc allocation (element -%zu)", what, bytes, site, (size_t)(a.base - c), a.bytes,
                     (size_t)pw_ceil_div((size_t)(a.base - c), bytes));
    }
    thread_error(cudaErrorIllegalAddress,
                 "%s of %zu bytes at %s touches memory that is neither device memory (cudaMalloc) nor shared "
                 "memory: a host pointer, or a local variable? (LOAD/STORE are for global and shared memory)",
                 what, bytes, site);
}

/* Which memory p is in, and its offset from the start of that memory. */
static int classify(worker *w, const void *p, size_t bytes, uintptr_t *off, const char *what, const char *site)
{
    const char *c = p;
    if (w->dyn && c >= (char *)w->dyn && c + bytes <= (char *)w->dyn + w->dyn_bytes) {
        *off = (uintptr_t)(c - (char *)w->dyn);
        return SPACE_DYN_SHARED;
    }
    if (!w->tls_known) locate_tls(w);
    if (w->tls_bytes && c >= w->tls && c + bytes <= w->tls + w->tls_bytes) {
        *off = (uintptr_t)(c - w->tls);
        return SPACE_STATIC_SHARED;
    }
    /* Device memory: the allocation this thread used last, else a search.
     * No lock: allocations change only between launches. */
    size_t k = w->last_alloc;
    if (k < nallocs && c >= allocs[k].base && c + bytes <= allocs[k].base + allocs[k].bytes) {
        *off = (uintptr_t)c;
        return SPACE_GLOBAL;
    }
    long i = find_alloc(p, bytes);
    if (i < 0) bad_address(w, p, bytes, what, site);
    w->last_alloc = (size_t)i;
    *off = (uintptr_t)c;
    return SPACE_GLOBAL;
}

/* Static shared memory: bytes not yet stored to in this block read as poison. */
static void poison_unwritten(worker *w, uintptr_t off, size_t bytes)
{
    for (size_t b = off; b < off + bytes; b++) {
        if (!(w->tls_written[b >> 3] >> (b & 7) & 1)) {
            w->tls[b] = (char)0xFF;
            w->tls_written[b >> 3] |= (unsigned char)(1u << (b & 7));
        }
    }
}

static void mark_written(worker *w, uintptr_t off, size_t bytes)
{
    for (size_t b = off; b < off + bytes; b++) w->tls_written[b >> 3] |= (unsigned char)(1u << (b & 7));
}

/* ---- the warp logs ------------------------------------------------------------------------- */

static int site_slot(worker *w, pw_simt_thread *t, const char *site, int store, int space)
{
    warp_log *wl = &w->warps[t->warp];
    int s = t->last_slot;
    if (s < wl->nsites && wl->sites[s].site == site && wl->sites[s].store == store) return s;
    for (s = 0; s < wl->nsites; s++)
        if (wl->sites[s].site == site && wl->sites[s].store == store) return t->last_slot = s;
    if (wl->nsites == MAX_SITES)
        thread_error(cudaErrorLaunchFailure, "more than %d LOAD/STORE sites between two barriers in one warp "
                     "(the emulator's limit)", MAX_SITES);
    s = wl->nsites++;
    site_log *sl = &wl->sites[s];
    sl->site = site;
    sl->store = store;
    sl->space = space;
    sl->n = 0;
    return t->last_slot = s;
}

static void record(worker *w, pw_simt_thread *t, const char *site, int store, int space, uintptr_t off, size_t bytes)
{
    int s = site_slot(w, t, site, store, space);
    site_log *sl = &w->warps[t->warp].sites[s];
    uint32_t k = t->occ[s]++;
    if ((int)k >= sl->cap) {
        int cap = sl->cap ? 2 * sl->cap : 16;
        while (cap <= (int)k) cap *= 2;
        sl->g = realloc(sl->g, (size_t)cap * sizeof *sl->g);
        PW_CHECK_ALLOC(sl->g, (size_t)cap * sizeof *sl->g);
        sl->cap = cap;
    }
    while (sl->n <= (int)k) { sl->g[sl->n].mask = 0; sl->g[sl->n].bytes = (uint32_t)bytes; sl->n++; }
    group *g = &sl->g[k];
    g->mask |= 1u << t->lane;
    g->addr[t->lane] = off;
    w->dirty_warps[t->warp / 32] |= 1u << (t->warp % 32);
}

/* Distinct 32-byte sectors the lanes of g touched. */
static int sectors(const group *g)
{
    uintptr_t seen[64];
    int n = 0;
    for (int l = 0; l < 32; l++) {
        if (!(g->mask >> l & 1u)) continue;
        for (uintptr_t s = g->addr[l] >> 5; s <= (g->addr[l] + g->bytes - 1) >> 5; s++) {
            int j = 0;
            while (j < n && seen[j] != s) j++;
            if (j == n && n < 64) seen[n++] = s;
        }
    }
    return n;
}

/* Bank-conflict ways: the most distinct 4-byte words any one bank must serve. */
static int conflict_ways(const group *g)
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
    for (int s = 0; s < wl->nsites; s++) {
        site_log *sl = &wl->sites[s];
        for (int k = 0; k < sl->n; k++) {
            const group *g = &sl->g[k];
            if (!g->mask) continue;
            c->warp_steps++;
            c->active_lanes += __builtin_popcount(g->mask);
            if (sl->space == SPACE_GLOBAL) {
                if (sl->store) { c->global_store_requests++; c->global_store_sectors += sectors(g); }
                else { c->global_load_requests++; c->global_load_sectors += sectors(g); }
            } else {
                int ways = conflict_ways(g);
                c->shared_requests++;
                c->shared_wavefronts += ways;
                if (ways > c->shared_max_ways) c->shared_max_ways = ways;
            }
        }
        sl->n = 0;
    }
    wl->nsites = 0;
    int first = warp * 32, last = first + 32 < w->nthreads ? first + 32 : w->nthreads;
    for (int i = first; i < last; i++) {
        memset(w->thr[i]->occ, 0, sizeof w->thr[i]->occ);
        w->thr[i]->last_slot = 0;
    }
}

static void flush_all(worker *w)
{
    for (int i = 0; i < w->nwarps; i++) flush_warp(w, i);
}

/* ---- LOAD, STORE, atomics ----------------------------------------------------------------- */

static void mem_access(const void *p, size_t bytes, const char *site, int store)
{
    pw_simt_thread *t = (pw_simt_thread *)pw_simt_self;
    if (!t) {
        fprintf(stderr, "simt: LOAD/STORE at %s outside a kernel\n", site);
        abort();
    }
    worker *w = t->w;
    uintptr_t off;
    int space = classify(w, p, bytes, &off, store ? "a STORE" : "a LOAD", site);
    if (space == SPACE_GLOBAL) {
        if (store) w->c.global_stores++; else w->c.global_loads++;
    } else {
        if (store) w->c.shared_stores++; else w->c.shared_loads++;
        if (space == SPACE_STATIC_SHARED) {
            if (store) mark_written(w, off, bytes); else poison_unwritten(w, off, bytes);
        }
    }
    record(w, t, site, store, space, off, bytes);
}

void *pw_simt_load(const void *addr, size_t bytes, const char *site)
{
    mem_access(addr, bytes, site, 0);
    return (void *)(uintptr_t)addr;
}

void *pw_simt_store(void *addr, size_t bytes, const char *site)
{
    mem_access(addr, bytes, site, 1);
    return addr;
}

void *pw_simt_dynamic_shared(void)
{
    worker *w = me();
    return w->dyn;
}

/* An atomic reads and writes: checked and counted, not logged per warp. */
static void atomic_access(void *p, size_t bytes, const char *site)
{
    pw_simt_thread *t = (pw_simt_thread *)pw_simt_self;
    worker *w = t->w;
    uintptr_t off;
    int space = classify(w, p, bytes, &off, "an atomic", site);
    if (space == SPACE_STATIC_SHARED) poison_unwritten(w, off, bytes);
    w->c.atomics++;
}

int pw_atomic_add_i(int *p, int v, const char *s) { atomic_access(p, sizeof *p, s); return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
unsigned pw_atomic_add_u(unsigned *p, unsigned v, const char *s) { atomic_access(p, sizeof *p, s); return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
unsigned long long pw_atomic_add_ull(unsigned long long *p, unsigned long long v, const char *s)
{
    atomic_access(p, sizeof *p, s);
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

/* Floats: compare-and-swap on the bits until no other thread got in between. */
float pw_atomic_add_f(float *p, float v, const char *s)
{
    atomic_access(p, sizeof *p, s);
    uint32_t *u = (uint32_t *)(void *)p, old = __atomic_load_n(u, __ATOMIC_RELAXED), next;
    float f;
    do {
        memcpy(&f, &old, 4);
        f += v;
        memcpy(&next, &f, 4);
    } while (!__atomic_compare_exchange_n(u, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    memcpy(&f, &old, 4);
    return f;
}

double pw_atomic_add_d(double *p, double v, const char *s)
{
    atomic_access(p, sizeof *p, s);
    uint64_t *u = (uint64_t *)(void *)p, old = __atomic_load_n(u, __ATOMIC_RELAXED), next;
    double f;
    do {
        memcpy(&f, &old, 8);
        f += v;
        memcpy(&next, &f, 8);
    } while (!__atomic_compare_exchange_n(u, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    memcpy(&f, &old, 8);
    return f;
}

int pw_atomic_max_i(int *p, int v, const char *s)
{
    atomic_access(p, sizeof *p, s);
    int old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (old < v && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}

unsigned pw_atomic_max_u(unsigned *p, unsigned v, const char *s)
{
    atomic_access(p, sizeof *p, s);
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (old < v && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}

int pw_atomic_cas_i(int *p, int cmp, int v, const char *s)
{
    atomic_access(p, sizeof *p, s);
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return cmp;                   /* the old value, whether or not it swapped */
}

unsigned pw_atomic_cas_u(unsigned *p, unsigned cmp, unsigned v, const char *s)
{
    atomic_access(p, sizeof *p, s);
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return cmp;
}

unsigned long long pw_atomic_cas_ull(unsigned long long *p, unsigned long long cmp, unsigned long long v,
                                     const char *s)
{
    atomic_access(p, sizeof *p, s);
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return cmp;
}

/* ---- barriers ---------------------------------------------------------------------------------- */

/* Back to the scheduler until someone makes this thread runnable again. */
static void yield(pw_simt_thread *t)
{
    pw_fiber_switch(t->fiber, t->w->sched);
}

void pw_simt_syncthreads(const char *site)
{
    pw_simt_thread *t = (pw_simt_thread *)pw_simt_self;
    worker *w = t->w;
    if (w->nbarrier == 0) w->barrier_site = site;
    else if (site != w->barrier_site && strcmp(site, w->barrier_site) != 0) w->barrier_mismatch = true;
    w->nbarrier++;
    t->state = AT_BARRIER;
    t->wait_site = site;
    yield(t);
}

/* ---- warp collectives ----------------------------------------------------------------------------- */

static const char *op_name(int op)
{
    static const char *names[] = { "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                                   "__ballot_sync", "__any_sync", "__all_sync", "__syncwarp" };
    return names[op];
}

/* The lanes that exist in warp `warp` (the last warp of a block may be short). */
static unsigned warp_lanes(worker *w, int warp)
{
    int n = w->nthreads - warp * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

unsigned pw_simt_activemask(void)
{
    pw_simt_thread *t = (pw_simt_thread *)pw_simt_self;
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
    for (int l = 0; l < 32; l++)
        if (mask >> l & 1u) ballot |= (unsigned)(lanes[l]->value != 0) << l;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1u)) continue;
        pw_simt_thread *u = lanes[l];
        switch (t->op) {
        case PW_VOTE_BALLOT: u->result = ballot; break;
        case PW_VOTE_ANY: u->result = ballot != 0; break;
        case PW_VOTE_ALL: u->result = ballot == mask; break;
        case PW_SYNCWARP: u->result = 0; break;
        default: {
            int src = shuffle_source(t->op, l, u->arg, t->width);
            if (!(mask >> src & 1u))
                thread_error(cudaErrorLaunchFailure,
                             "%s at %s: lane %d reads lane %d, which is not in the mask 0x%08x, so its value "
                             "is undefined", op_name(t->op), t->wait_site, l, src, mask);
            u->result = lanes[src]->value;
        }
        }
        if (u != t) u->state = RUNNABLE;
    }
    t->state = RUNNABLE;
    w->c.collectives++;
    w->c.warp_steps++;
    w->c.active_lanes += __builtin_popcount(mask);
    /* Every lane of the warp stopped here: its accesses so far are complete. */
    if ((mask & warp_lanes(w, t->warp)) == warp_lanes(w, t->warp)) flush_warp(w, t->warp);
    return t->result;
}

uint64_t pw_simt_collect(pw_simt_collective op, unsigned mask, uint64_t value, int arg, int width,
                         const char *site)
{
    pw_simt_thread *t = (pw_simt_thread *)pw_simt_self;
    worker *w = t->w;
    unsigned exists = warp_lanes(w, t->warp);
    if (!(mask >> t->lane & 1u))
        thread_error(cudaErrorLaunchFailure, "%s at %s with mask 0x%08x, which leaves out the calling lane %d: "
                     "a lane must name itself in the mask", op_name(op), site, mask, t->lane);
    if (mask & ~exists)
        thread_error(cudaErrorLaunchFailure, "%s at %s with mask 0x%08x names lanes that do not exist: warp %d "
                     "of this block of %d threads has only the lanes 0x%08x", op_name(op), site, mask, t->warp,
                     w->nthreads, exists);
    if (op <= PW_SHFL_XOR && (width < 1 || width > 32 || (width & (width - 1))))
        thread_error(cudaErrorLaunchFailure, "%s at %s with width %d: the width must be a power of two from 1 "
                     "to 32", op_name(op), site, width);
    t->op = op;
    t->mask = mask;
    t->value = value;
    t->arg = arg;
    t->width = width;
    t->wait_site = site;
    t->state = AT_COLLECTIVE;
    pw_simt_thread **lanes = &w->thr[t->warp * 32];
    bool all = true;
    for (int l = 0; l < 32 && all; l++) {
        if (!(mask >> l & 1u)) continue;
        pw_simt_thread *u = lanes[l];
        if (u->state == DONE)
            thread_error(cudaErrorLaunchFailure, "%s at %s: lane %d, named in the mask 0x%08x, has already "
                         "exited", op_name(op), site, l, mask);
        all = u->state == AT_COLLECTIVE && u->op == (int)op && u->mask == mask && u->width == width;
    }
    if (all) return complete(w, t);
    yield(t);
    return t->result;
}

void pw_simt_syncwarp(const unsigned *masks, size_t n, const char *site)
{
    pw_simt_collect(PW_SYNCWARP, masks[n - 1], 0, 0, 32, site);
}

/* ---- the scheduler ------------------------------------------------------------------------------ */

static void thread_main(void *arg)
{
    pw_simt_thread *t = arg;
    while (!t->quit) {
        t->w->L->thunk(t->w->L->args);
        t->state = DONE;
        t->w->ndone++;
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
    if (!t->fiber) t->fiber = pw_fiber_create(thread_main, t, STACK_BYTES);
    t->started = true;
    pw_simt_self = &t->pub;
    pw_fiber_switch(w->sched, t->fiber);
    pw_simt_self = NULL;
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
            pw_simt_self = &t->pub;
            pw_fiber_switch(w->sched, t->fiber);
            pw_simt_self = NULL;
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
        const char *s1 = w->barrier_site, *s2 = "?";
        for (int i = 0; i < T; i++)
            if (w->thr[i]->state == AT_BARRIER && strcmp(w->thr[i]->wait_site, s1) == 0) w->thr[i]->state = MARK;
        for (int i = 0; i < T; i++)
            if (w->thr[i]->state == AT_BARRIER) { s2 = w->thr[i]->wait_site; break; }
        thread_list(w, MARK, 0, 0, a, sizeof a);
        thread_list(w, AT_BARRIER, 0, 0, b, sizeof b);
        for (int i = 0; i < T; i++)
            if (w->thr[i]->state == MARK) w->thr[i]->state = AT_BARRIER;
        block_error(w, cudaErrorLaunchFailure,
                    "threads wait at different barriers: threads %s at __syncthreads() at %s, threads %s at "
                    "__syncthreads() at %s. Every thread of a block must reach the same barrier: is one "
                    "inside a branch that not all threads take?", a, s1, b, s2);
        return;
    }
    if (w->nbarrier > 0 && w->nbarrier + w->ndone == T) {
        thread_list(w, AT_BARRIER, 0, 0, a, sizeof a);
        thread_list(w, DONE, 0, 0, b, sizeof b);
        block_error(w, cudaErrorLaunchFailure,
                    "__syncthreads() at %s: threads %s wait there, but threads %s exited without reaching it "
                    "(on a GPU: undefined, often a hang). Keep every thread alive up to the last barrier: "
                    "guard the work with if (i < n), not an early return", w->barrier_site, a, b);
        return;
    }
    for (int i = 0; i < T; i++) {
        pw_simt_thread *t = w->thr[i];
        if (t->state != AT_COLLECTIVE) continue;
        for (int l = 0; l < 32; l++) {
            if (!(t->mask >> l & 1u)) continue;
            pw_simt_thread *u = w->thr[t->warp * 32 + l];
            if (u->state == AT_COLLECTIVE && u->op == t->op && u->mask == t->mask && u->width == t->width) continue;
            thread_list(w, -1, t->warp, t->mask, a, sizeof a);
            const char *why = u->state == DONE ? "has exited"
                              : u->state == AT_BARRIER ? "waits at __syncthreads()"
                              : u->op != t->op ? "waits at a different collective"
                              : u->mask != t->mask ? "waits at the same collective with another mask"
                              : "waits with another width";
            block_error(w, cudaErrorLaunchFailure,
                        "%s (mask 0x%08x) at %s in warp %d waits for lane %d (thread %d), which %s%s%s; the "
                        "threads named in the mask (%s) must all call it with the same mask",
                        op_name(t->op), t->mask, t->wait_site, t->warp, l, u->linear, why,
                        u->state == DONE ? "" : " at ", u->state == DONE ? "" : u->wait_site, a);
            return;
        }
    }
    block_error(w, cudaErrorLaunchFailure, "deadlock: %d threads at a barrier, %d done, none can run",
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
    if (w->dyn_bytes) memset(w->dyn, 0xFF, w->dyn_bytes);    /* the poison: NaN, -1 */
    if (!w->tls_known) locate_tls(w);
    if (w->tls_written) memset(w->tls_written, 0, w->tls_bytes / 8 + 1);
    w->ndone = w->nbarrier = 0;
    w->barrier_mismatch = false;
    for (int i = 0; i < T; i++) w->thr[i]->state = RUNNABLE;
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
            for (int i = 0; i < T; i++) w->thr[i]->state = RUNNABLE;
            w->nbarrier = 0;
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

/* Run blocks until the grid is done or an error stops it. */
static void work(worker *w, launch *L)
{
    w->L = L;
    w->block_dim = L->cfg.block;
    w->grid_dim = L->cfg.grid;
    w->nthreads = (int)(L->cfg.block.x * L->cfg.block.y * L->cfg.block.z);
    w->nwarps = (w->nthreads + 31) / 32;
    w->sched = pw_fiber_self();
    w->dyn_bytes = L->cfg.shmem;
    w->dyn = L->cfg.shmem ? malloc(L->cfg.shmem) : NULL;
    if (L->cfg.shmem) PW_CHECK_ALLOC(w->dyn, L->cfg.shmem);
    memset(&w->c, 0, sizeof w->c);
    w->rng = shuffle_seed ? shuffle_seed : 1;
    for (int i = 0; i < w->nthreads; i++) {
        pw_simt_thread *t = get_thread(w, i);
        dim3 bd = L->cfg.block;
        t->pub.thread_idx.x = (unsigned)i % bd.x;
        t->pub.thread_idx.y = (unsigned)i / bd.x % bd.y;
        t->pub.thread_idx.z = (unsigned)i / (bd.x * bd.y);
        t->pub.block_idx = &w->block_idx;
        t->pub.block_dim = &w->block_dim;
        t->pub.grid_dim = &w->grid_dim;
        t->last_slot = 0;
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
        for (int i = 0; i < w->nwarps; i++) { w->warps[i].nsites = 0; }
        memset(w->dirty_warps, 0, sizeof w->dirty_warps);
        for (int i = 0; i < w->nthreads; i++) memset(w->thr[i]->occ, 0, sizeof w->thr[i]->occ);
    }
    w->c.blocks = blocks;
    w->c.threads = blocks * w->nthreads;
    pthread_mutex_lock(&L->lock);
    const long long *src = (const long long *)&w->c;
    long long *dst = (long long *)&L->sum;
    for (size_t k = 0; k < sizeof w->c / sizeof(long long); k++) {
        if (&dst[k] == &L->sum.shared_max_ways) { if (src[k] > dst[k]) dst[k] = src[k]; }
        else dst[k] += src[k];
    }
    pthread_mutex_unlock(&L->lock);
    free(w->dyn);
    w->dyn = NULL;
    w->dyn_bytes = 0;
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
    for (int i = 0; i < MAX_WARPS; i++)
        for (int s = 0; s < MAX_SITES; s++) free(w->warps[i].sites[s].g);
    free(w->tls_written);
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
static bool atexit_done;

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

void pw_simt_launch(const pw_simt_config *cfg, void (*thunk)(void *), void *args)
{
    read_settings();
    char why[160];
    if (!valid_config(cfg, why, sizeof why)) {
        pthread_mutex_lock(&state_lock);
        snprintf(last_message, sizeof last_message, "simt: kernel %s: invalid launch: %s", cfg->name, why);
        last_error = cudaErrorInvalidConfiguration;
        if (!quiet) fprintf(stderr, "%s\n", last_message);
        pthread_mutex_unlock(&state_lock);
        return;
    }
    if (!tls_worker) tls_worker = new_worker();
    if (!atexit_done) { atexit_done = true; atexit(pw_simt_shutdown); }
    launch L = { .cfg = *cfg, .thunk = thunk, .args = args };
    L.nblocks = (long long)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    pthread_mutex_init(&L.lock, NULL);
    int extra = workers_setting - 1;
    if (extra > L.nblocks - 1) extra = (int)(L.nblocks - 1);
    pthread_t tids[256];
    in_launch = true;
    for (int i = 0; i < extra; i++) PW_CHECK_PTHREAD(pthread_create(&tids[i], NULL, worker_thread, &L));
    work(tls_worker, &L);
    for (int i = 0; i < extra; i++) PW_CHECK_PTHREAD(pthread_join(tids[i], NULL));
    in_launch = false;
    pthread_mutex_destroy(&L.lock);
    L.sum.launches = 1;
    last_counters = L.sum;
    const long long *src = (const long long *)&L.sum;
    long long *dst = (long long *)&total_counters;
    for (size_t k = 0; k < sizeof L.sum / sizeof(long long); k++) {
        if (&dst[k] == &total_counters.shared_max_ways) { if (src[k] > dst[k]) dst[k] = src[k]; }
        else dst[k] += src[k];
    }
}

/* ---- counters --------------------------------------------------------------------------------------- */

const pw_simt_counters *pw_simt_last_counters(void) { return &last_counters; }
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

cudaError_t pw_simt_set_device(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidValue; }

cudaError_t pw_simt_get_device_properties(cudaDeviceProp *p, int device)
{
    if (device != 0) return cudaErrorInvalidValue;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "SIMT emulator (CPU, %d worker thread%s)", pw_simt_workers(),
             pw_simt_workers() == 1 ? "" : "s");
    p->warpSize = 32;
    p->maxThreadsPerBlock = MAX_THREADS;
    p->multiProcessorCount = pw_simt_workers();
    p->sharedMemPerBlock = MAX_DYN_SHARED;
    p->totalGlobalMem = (size_t)pw_available_memory();
    return cudaSuccess;
}

struct pw_simt_event { double t; };

cudaError_t pw_simt_event_create(cudaEvent_t *e)
{
    *e = calloc(1, sizeof **e);
    return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t pw_simt_event_record(cudaEvent_t e, ...)
{
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
