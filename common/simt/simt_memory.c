/* common/simt/simt_memory.c: the emulator's memories: which source line an
 * instruction address is, device memory (cudaMalloc with red zones, the
 * allocation table), streams, and the per-worker shared-memory arena. */
#define _GNU_SOURCE
#include "simt_internal.h"

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

void simt_site_text(const void *ra, char *buf, size_t len)
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
                bool ours = strstr(line, "common/simt/") || strstr(line, "/c++/");
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

const char *simt_alloc_names[] = { "cudaMalloc", "cudaMallocManaged", "cudaMallocHost" };
allocation *simt_allocs;        /* sorted by base */
size_t simt_nallocs;
static size_t cap_allocs;

size_t simt_round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

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
        if ((b & 7) == 0 && b + 8 <= off + bytes) { bits[b >> 3] = 0xFF; b += 8; continue; }
        bits[b >> 3] |= (unsigned char)(1u << (b & 7));
        b++;
    }
}

cudaError_t pw_simt_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    if ((unsigned)kind > cudaMemcpyDefault) return simt_last_error = cudaErrorInvalidMemcpyDirection;
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
    if (bytes) memmove((char *)symbol + offset, src, bytes);
    return cudaSuccess;
}

cudaError_t pw_simt_memcpy_from_symbol(void *dst, const void *symbol, size_t bytes, size_t offset)
{
    if (!symbol || (!dst && bytes)) return simt_last_error = cudaErrorInvalidSymbol;
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
    simt_leak_check(false);
    pthread_mutex_lock(&simt_state_lock);
    simt_last_error = cudaSuccess;
    pthread_mutex_unlock(&simt_state_lock);
    return cudaSuccess;
}

/* ---- streams: in order, at once ------------------------------------------------------ */

struct pw_simt_stream { int unused; };

cudaError_t pw_simt_stream_create(cudaStream_t *s)
{
    if (!s) return simt_last_error = cudaErrorInvalidValue;
    *s = calloc(1, sizeof **s);
    return *s ? cudaSuccess : (simt_last_error = cudaErrorMemoryAllocation);
}
cudaError_t pw_simt_stream_destroy(cudaStream_t s) { free(s); return cudaSuccess; }
cudaError_t pw_simt_stream_synchronize(cudaStream_t s) { (void)s; return simt_last_error; }


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
