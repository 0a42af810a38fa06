/* common/simt/simt_memory.c: the emulator's memories: device memory
 * (cudaMalloc with red zones, the allocation table), the per-worker
 * shared-memory arena, and the exit (leaks, and the status of a program that
 * printed reports). Streams and the device's queue: simt_stream.c. */
#define _GNU_SOURCE
#include "simt_state.h"

/* ---- device memory: cudaMalloc with red zones ------------------------------------- */

const char *simt_alloc_names[] = { "cudaMalloc", "cudaMallocManaged", "cudaMallocHost" };
allocation *simt_allocs;        /* sorted by base */
size_t simt_nallocs;
static size_t cap_allocs;

/* Device memory lives in its own reserved range of addresses (64 GiB of
 * address space, no memory until used), so an address tells what it is: in
 * the range but in no allocation is out of bounds (however far), outside it
 * is host memory. Freed ranges are reused first-fit; their pages go back to
 * the system and become inaccessible again. If the reservation fails (a
 * 32-bit machine), allocations come from the heap and "far past the end" is
 * told from "host memory" by distance instead. */
#define DEVICE_SPACE ((size_t)64 << 30)
char *simt_device_space;        /* the reserved range; guarded by state_lock */
static size_t space_used, page_bytes;
static bool space_tried;
hole simt_holes[256];
int simt_nholes;

static char *device_pages(size_t total)
{
    if (!space_tried) {
        space_tried = true;
        page_bytes = (size_t)sysconf(_SC_PAGESIZE);
        void *m = mmap(NULL, DEVICE_SPACE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        simt_device_space = m == MAP_FAILED ? NULL : m;
    }
    if (!simt_device_space) return aligned_alloc(REDZONE, total);
    total = simt_round_up(total, page_bytes);
    size_t off = (size_t)-1;
    for (int i = 0; i < simt_nholes; i++)
        if (simt_holes[i].bytes >= total) {
            off = simt_holes[i].off;
            simt_holes[i].off += total;
            simt_holes[i].bytes -= total;
            if (!simt_holes[i].bytes) simt_holes[i] = simt_holes[--simt_nholes];
            break;
        }
    if (off == (size_t)-1) {
        if (space_used + total > DEVICE_SPACE) return NULL;
        off = space_used;
        space_used += total;
    }
    if (mprotect(simt_device_space + off, total, PROT_READ | PROT_WRITE) != 0) return NULL;
    return simt_device_space + off;
}

void simt_device_pages_free(char *raw, size_t total)
{
    if (!simt_device_space) { free(raw); return; }
    total = simt_round_up(total, page_bytes);
    madvise(raw, total, MADV_DONTNEED);
    mprotect(raw, total, PROT_NONE);
    if (simt_nholes < 256) simt_holes[simt_nholes++] = (hole){ (size_t)(raw - simt_device_space), total };
}

bool simt_in_device_space(const void *p)
{
    return simt_device_space && (const char *)p >= simt_device_space && (const char *)p < simt_device_space + DEVICE_SPACE;
}

static cudaError_t add_allocation(void **p, size_t bytes, int kind, const void *site)
{
    if (!p) return simt_last_error = cudaErrorInvalidValue;
    simt_ensure_atexit();
    simt_device_idle();           /* kernels read the table without a lock: it changes while none runs */
    size_t body = simt_round_up(bytes ? bytes : 1, REDZONE);
    pthread_mutex_lock(&simt_state_lock);
    char *raw = device_pages(body + 2 * REDZONE);
    pthread_mutex_unlock(&simt_state_lock);
    if (!raw) { *p = NULL; return simt_last_error = cudaErrorMemoryAllocation; }
    /* Fresh device memory is garbage on a GPU: here the poison 0xFF (a float
     * NaN, an int -1), and initcheck reports a read before any write.
     * Managed memory starts zeroed (first touch), pinned host memory is the host's. */
    memset(raw, kind == ALLOC_DEVICE ? 0xFF : 0, body + 2 * REDZONE);
    char *base = raw + REDZONE;
    unsigned char *init = NULL;
    if (kind == ALLOC_DEVICE) {
        init = calloc(body / 8 + 1, 1);
        if (!init) {
            pthread_mutex_lock(&simt_state_lock);
            simt_device_pages_free(raw, body + 2 * REDZONE);
            pthread_mutex_unlock(&simt_state_lock);
            *p = NULL;
            return simt_last_error = cudaErrorMemoryAllocation;
        }
    }
#ifdef PW_SIMT_ASAN
    __asan_poison_memory_region(raw, REDZONE);
    __asan_poison_memory_region(base + bytes, body - bytes + REDZONE);
#endif
    pthread_mutex_lock(&simt_state_lock);
    if (simt_nallocs == cap_allocs) {
        cap_allocs = cap_allocs ? 2 * cap_allocs : 16;
        simt_allocs = realloc(simt_allocs, cap_allocs * sizeof *simt_allocs);
        PW_CHECK_ALLOC(simt_allocs, cap_allocs * sizeof *simt_allocs);
    }
    size_t i = simt_nallocs;
    while (i > 0 && simt_allocs[i - 1].base > base) { simt_allocs[i] = simt_allocs[i - 1]; i--; }
    simt_allocs[i] = (allocation){ base, bytes, kind, init, site };
    simt_nallocs++;
    pthread_mutex_unlock(&simt_state_lock);
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
long simt_find_alloc(const void *p, size_t bytes)
{
    const char *c = p;
    size_t lo = 0, hi = simt_nallocs;
    while (lo < hi) {             /* the last allocation whose base <= c */
        size_t mid = (lo + hi) / 2;
        if (simt_allocs[mid].base <= c) lo = mid + 1; else hi = mid;
    }
    if (lo == 0) return -1;
    const allocation *a = &simt_allocs[lo - 1];
    return c + bytes <= a->base + a->bytes && c >= a->base ? (long)(lo - 1) : -1;
}


static cudaError_t free_allocation(void *p, int kind, const char *api, const void *site)
{
    if (!p) return cudaSuccess;
    simt_device_idle();           /* as on a GPU, cudaFree waits for the device */
    pthread_mutex_lock(&simt_state_lock);
    long i = simt_find_alloc(p, 0);
    bool kind_ok = i >= 0 && (simt_allocs[i].kind == kind || (kind == ALLOC_DEVICE && simt_allocs[i].kind == ALLOC_MANAGED));
    if (i < 0 || simt_allocs[i].base != p || !kind_ok) {
        int other = i >= 0 && simt_allocs[i].base == p ? simt_allocs[i].kind : -1;
        pthread_mutex_unlock(&simt_state_lock);
        char where[200];
        simt_site_text(site, where, sizeof where);
        if (other >= 0)
            simt_report_line(PW_CHECK_MEMCHECK, "simt memcheck: %s(%p) at %s: that pointer came from %s, free it with %s",
                        api, p, where, simt_alloc_names[other], other == ALLOC_HOST ? "cudaFreeHost" : "cudaFree");
        else
            simt_report_line(PW_CHECK_MEMCHECK, "simt memcheck: %s(%p) at %s: not a pointer that %s returned (or "
                        "freed already)", api, p, where, simt_alloc_names[kind]);
        return simt_last_error = kind == ALLOC_HOST ? cudaErrorInvalidValue : cudaErrorInvalidDevicePointer;
    }
    allocation a = simt_allocs[i];
    memmove(&simt_allocs[i], &simt_allocs[i + 1], (simt_nallocs - (size_t)i - 1) * sizeof *simt_allocs);
    simt_nallocs--;
    pthread_mutex_unlock(&simt_state_lock);
    char *raw = a.base - REDZONE;
    size_t total = simt_round_up(a.bytes ? a.bytes : 1, REDZONE) + 2 * REDZONE;
#ifdef PW_SIMT_ASAN
    __asan_unpoison_memory_region(raw, total);
#endif
    free(a.init);
    pthread_mutex_lock(&simt_state_lock);
    simt_device_pages_free(raw, total);
    pthread_mutex_unlock(&simt_state_lock);
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
    pthread_mutex_lock(&simt_state_lock);
    long i = simt_find_alloc(p, bytes);
    pthread_mutex_unlock(&simt_state_lock);
    return i;
}

static void mark_init(long i, const void *p, size_t bytes)
{
    if (i < 0 || !simt_allocs[i].init || !bytes) return;
    size_t off = (size_t)((const char *)p - simt_allocs[i].base);
    unsigned char *bits = simt_allocs[i].init;
    for (size_t b = off; b < off + bytes;) {
        /* atomic: a kernel of a non-blocking stream may be reading the bits meanwhile */
        if ((b & 7) == 0 && b + 8 <= off + bytes) { __atomic_store_n(&bits[b >> 3], 0xFF, __ATOMIC_RELAXED); b += 8; continue; }
        __atomic_fetch_or(&bits[b >> 3], (unsigned char)(1u << (b & 7)), __ATOMIC_RELAXED);
        b++;
    }
}

cudaError_t pw_simt_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    if ((unsigned)kind > cudaMemcpyDefault) return simt_last_error = cudaErrorInvalidMemcpyDirection;
    simt_wait_legacy();           /* the blocking cudaMemcpy waits for the blocking streams' earlier work */
    bool to_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool from_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    pthread_mutex_lock(&simt_state_lock);
    long d = simt_find_alloc(dst, bytes), s = simt_find_alloc(src, bytes);   /* cudaMemcpyDefault: either may be */
    if ((to_device && d < 0) || (from_device && s < 0)) {
        simt_last_error = cudaErrorInvalidValue;
        pthread_mutex_unlock(&simt_state_lock);
        return cudaErrorInvalidValue;
    }
    if (bytes) memmove(dst, src, bytes);
    if (d >= 0 && kind != cudaMemcpyDeviceToHost) {
        if (s >= 0 && simt_allocs[s].init) {
            /* device to device: what was written is copied, and only that */
            size_t so = (size_t)((const char *)src - simt_allocs[s].base), dof = (size_t)((char *)dst - simt_allocs[d].base);
            for (size_t b = 0; b < bytes && simt_allocs[d].init; b++) {
                if (simt_allocs[s].init[(so + b) >> 3] >> ((so + b) & 7) & 1)
                    simt_allocs[d].init[(dof + b) >> 3] |= (unsigned char)(1u << ((dof + b) & 7));
            }
        } else {
            mark_init(d, dst, bytes);
        }
    }
    pthread_mutex_unlock(&simt_state_lock);
    return cudaSuccess;
}

cudaError_t pw_simt_memset(void *p, int value, size_t bytes)
{
    simt_wait_legacy();           /* done when it returns (cudaMemsetAsync is the queued one) */
    long i = device_range(p, bytes);
    if (i < 0) return simt_last_error = cudaErrorInvalidValue;
    if (bytes) memset(p, value, bytes);
    pthread_mutex_lock(&simt_state_lock);
    mark_init(simt_find_alloc(p, bytes), p, bytes);
    pthread_mutex_unlock(&simt_state_lock);
    return cudaSuccess;
}

cudaError_t pw_simt_memcpy_to_symbol(void *symbol, const void *src, size_t bytes, size_t offset)
{
    if (!symbol || (!src && bytes)) return simt_last_error = cudaErrorInvalidSymbol;
    simt_wait_legacy();
    if (bytes) memmove((char *)symbol + offset, src, bytes);
    return cudaSuccess;
}

cudaError_t pw_simt_memcpy_from_symbol(void *dst, const void *symbol, size_t bytes, size_t offset)
{
    if (!symbol || (!dst && bytes)) return simt_last_error = cudaErrorInvalidSymbol;
    simt_wait_legacy();
    if (bytes) memmove(dst, (const char *)symbol + offset, bytes);
    return cudaSuccess;
}

cudaError_t pw_simt_mem_get_info(size_t *free_bytes, size_t *total_bytes)
{
    double avail = pw_available_memory();
    size_t used = 0;
    pthread_mutex_lock(&simt_state_lock);
    for (size_t i = 0; i < simt_nallocs; i++) used += simt_allocs[i].bytes;
    pthread_mutex_unlock(&simt_state_lock);
    if (total_bytes) *total_bytes = (size_t)avail + used;
    if (free_bytes) *free_bytes = (size_t)avail;
    return cudaSuccess;
}


cudaError_t pw_simt_device_reset(void)
{
    simt_device_idle();
    simt_leak_check(false);
    pthread_mutex_lock(&simt_state_lock);
    simt_last_error = cudaSuccess;
    pthread_mutex_unlock(&simt_state_lock);
    return cudaSuccess;
}

/* ---- the shared-memory arena ------------------------------------------------------------- */

void simt_arena_alloc(worker *w)
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
    return simt_cur ? simt_cur->w->arena : NULL;
}

void *pw_simt_shared_static(const void *tag, size_t bytes, size_t align)
{
    pw_simt_thread *t = simt_cur;
    if (!t) {
        fprintf(stderr, "simt: a __shared__ variable used outside a kernel\n");
        abort();
    }
    worker *w = t->w;
    for (int i = 0; i < w->nvars; i++)
        if (w->vars[i].tag == tag) return w->arena + w->vars[i].off;
    if (w->nvars == MAX_STATIC_VARS)
        simt_thread_error("memcheck", cudaErrorLaunchOutOfResources, "more than %d __shared__ variables in one block "
                     "(the emulator's limit)", MAX_STATIC_VARS);
    size_t off = simt_round_up(w->static_base + w->static_used, align ? align : 16);
    if (off + bytes > w->static_base + MAX_STATIC_SHARED)
        simt_thread_error("memcheck", cudaErrorLaunchOutOfResources, "the __shared__ variables of this kernel need "
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

/* ---- the exit: leaks, and the status of a program that printed reports ---------------- */

void simt_leak_check(bool report)
{
    pthread_mutex_lock(&simt_state_lock);
    size_t n = 0, bytes = 0;
    allocation first = { 0 };
    for (size_t i = 0; i < simt_nallocs; i++) {
        if (simt_allocs[i].kind == ALLOC_HOST) continue;
        if (!n) first = simt_allocs[i];
        n++;
        bytes += simt_allocs[i].bytes;
    }
    pthread_mutex_unlock(&simt_state_lock);
    if (report && n && (simt_checks & PW_CHECK_MEMCHECK) && simt_leak_checking) {
        char where[200];
        simt_site_text(first.site, where, sizeof where);
        simt_report_line(PW_CHECK_MEMCHECK, "simt memcheck: %zu bytes in %zu device allocation%s not freed at exit (the "
                    "first: %zu bytes from %s at %s); cudaFree each, or cudaDeviceReset() at the end", bytes, n,
                    n == 1 ? "" : "s", first.bytes, simt_alloc_names[first.kind], where);
    }
    if (!report) {                /* cudaDeviceReset: everything goes */
        pthread_mutex_lock(&simt_state_lock);
        for (size_t i = 0; i < simt_nallocs; i++) {
            size_t total = simt_round_up(simt_allocs[i].bytes ? simt_allocs[i].bytes : 1, REDZONE) + 2 * REDZONE;
#ifdef PW_SIMT_ASAN
            __asan_unpoison_memory_region(simt_allocs[i].base - REDZONE, total);
#endif
            free(simt_allocs[i].init);
            simt_device_pages_free(simt_allocs[i].base - REDZONE, total);
        }
        simt_nallocs = 0;
        pthread_mutex_unlock(&simt_state_lock);
    }
}

/* At exit: a program that ends well (status 0) is checked for leaks, and
 * exits 1 if the checks printed anything; one that fails keeps its status
 * (its early exit left memory allocated on purpose). glibc's on_exit passes
 * the status; elsewhere the leak check is skipped. */
static void exit_if_reported(void)
{
    if (!simt_reports_loud) return;
    fprintf(stderr, "simt: %ld report%s from the emulator's checks (PW_SIMT_CHECKS): exit status 1\n", simt_reports_loud,
            simt_reports_loud == 1 ? "" : "s");
    fflush(NULL);
    _exit(1);
}

static void at_exit_status(int status, void *arg)
{
    (void)arg;
    simt_read_settings();
    if (status != 0) return;
    simt_leak_check(true);
    exit_if_reported();
}

#ifndef __GLIBC__
static void at_exit(void) { exit_if_reported(); }
#endif

static bool atexit_done;
void simt_ensure_atexit(void)
{
    pthread_mutex_lock(&simt_state_lock);
    bool first = !atexit_done;
    atexit_done = true;
    pthread_mutex_unlock(&simt_state_lock);
#ifdef __GLIBC__
    if (first) on_exit(at_exit_status, NULL);
#else
    (void)at_exit_status;
    if (first) atexit(at_exit);
#endif
}
