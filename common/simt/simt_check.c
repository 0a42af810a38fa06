/* common/simt/simt_check.c: checking one access (memcheck, initcheck,
 * racecheck against the shadow cells), and the ThreadSanitizer hooks that
 * the instrumented .cu objects call (renamed pw_tsan_*). */
#define _GNU_SOURCE
#include "simt_state.h"

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
    int *k = data;
    for (int i = 0; i < info->dlpi_phnum && *k < 16; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_X)) continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        statics[(*k)++] = (range){ lo, lo + ph->p_memsz };
    }
    return 1;                     /* the program only: the kernels are in it */
}
#endif
static bool in_statics(uintptr_t a, size_t n)
{
    int count = __atomic_load_n(&nstatics, __ATOMIC_ACQUIRE);
    if (count < 0) {              /* blocks on several OS threads may get here at once */
        pthread_mutex_lock(&simt_state_lock);
        if (nstatics < 0) {
            int found = 0;        /* filled first, published whole */
#ifdef PW_SIMT_HAVE_PHDR
            dl_iterate_phdr(program_segments, &found);
#endif
            __atomic_store_n(&nstatics, found, __ATOMIC_RELEASE);
        }
        count = nstatics;
        pthread_mutex_unlock(&simt_state_lock);
    }
    for (int i = 0; i < count; i++)
        if (a >= statics[i].lo && a + n <= statics[i].hi) return true;
    return false;
}

/* An access that is in no memory a kernel may touch: say where it is. */
static void bad_address(worker *w, uintptr_t a, size_t bytes, int kind, const void *site)
{
    char where[200];
    simt_site_text(site, where, sizeof where);
    const char *c = (const char *)a;
    if (a - (uintptr_t)w->arena < ARENA) {
        size_t off = a - (uintptr_t)w->arena;
        if (off < w->static_base || !w->static_used)
            simt_thread_error("memcheck", cudaErrorIllegalAddress,
                         "invalid %s of %zu bytes at %s: out of bounds: shared address 0x%zx is %zu bytes past the end of the %zu "
                         "bytes of dynamic shared memory (the launch's third argument sets its size)",
                         kind_word(kind), bytes, where, off, off - w->dyn_bytes, w->dyn_bytes);
        simt_thread_error("memcheck", cudaErrorIllegalAddress,
                     "invalid %s of %zu bytes at %s: out of bounds: shared address 0x%zx is past the end of this block's __shared__ "
                     "variables", kind_word(kind), bytes, where, off);
    }
    long best = -1;
    size_t dist = (size_t)-1;
    pthread_mutex_lock(&simt_state_lock);
    for (size_t i = 0; i < simt_nallocs; i++) {
        const allocation *al = &simt_allocs[i];
        size_t d = c < al->base ? (size_t)(al->base - c) : c >= al->base + al->bytes ? (size_t)(c - (al->base + al->bytes)) : 0;
        if (d < dist) { dist = d; best = (long)i; }
    }
    allocation al = best >= 0 ? simt_allocs[best] : (allocation){ 0 };
    bool device = simt_device_space ? simt_in_device_space(c) : best >= 0 && dist < (size_t)1 << 20;
    bool freed = false;
    for (int h = 0; simt_device_space && h < simt_nholes; h++)
        if (c >= simt_device_space + simt_holes[h].off && c < simt_device_space + simt_holes[h].off + simt_holes[h].bytes) freed = true;
    pthread_mutex_unlock(&simt_state_lock);
    if (device && (best < 0 || freed))
        simt_thread_error("memcheck", cudaErrorIllegalAddress,
                     "invalid %s of %zu bytes at %s: address %p is device memory that is no longer allocated "
                     "(cudaFree'd before this launch)", kind_word(kind), bytes, where, (const void *)c);
    if (device) {
        if (c >= al.base + al.bytes || (c >= al.base && c + bytes > al.base + al.bytes))
            simt_thread_error("memcheck", cudaErrorIllegalAddress,
                         "invalid %s of %zu bytes at %s: out of bounds: address %p is %zu bytes past the end of a %zu-byte %s "
                         "allocation (byte offset %zu: element %zu of %zu, counting in %zu-byte elements)",
                         kind_word(kind), bytes, where, (const void *)c, (size_t)(c - (al.base + al.bytes)),
                         al.bytes, simt_alloc_names[al.kind], (size_t)(c - al.base), (size_t)(c - al.base) / bytes,
                         al.bytes / bytes, bytes);
        simt_thread_error("memcheck", cudaErrorIllegalAddress,
                     "invalid %s of %zu bytes at %s: out of bounds: address %p is %zu bytes before the start of a %zu-byte %s "
                     "allocation (element -%zu)", kind_word(kind), bytes, where, (const void *)c,
                     (size_t)(al.base - c), al.bytes, simt_alloc_names[al.kind], (size_t)pw_ceil_div((size_t)(al.base - c), bytes));
    }
    if (a < 65536)
        simt_thread_error("memcheck", cudaErrorIllegalAddress,
                     "invalid %s of %zu bytes at %s: address %p is a null pointer (plus %zu)", kind_word(kind), bytes,
                     where, (const void *)c, (size_t)a);
    simt_thread_error("memcheck", cudaErrorIllegalAddress,
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
                        const char *oword, const char *myword, const void *site, unsigned wait_mask)
{
    char mine[200], theirs[200], text[2048];
    simt_site_text(site, mine, sizeof mine);
    simt_site_text(osite, theirs, sizeof theirs);
    pw_simt_thread *u = w->thr[other];
    bool same_warp = u->warp == t->warp;
    snprintf(text, sizeof text,
             "simt racecheck: kernel %s, block (%u,%u,%u): %s hazard on shared memory at offset 0x%zx: thread "
             "(%u,%u,%u) %s at %s, thread (%u,%u,%u) %s at %s, and nothing orders them (%s)",
             w->L->cfg.name, w->block_idx.x, w->block_idx.y, w->block_idx.z, hazard, off, t->tid.x, t->tid.y,
             t->tid.z, myword, mine, u->tid.x, u->tid.y, u->tid.z, oword, theirs,
             same_warp ? "same warp: put __syncwarp() between them; lock-step is not a promise since Volta"
                       : "put __syncthreads() between them");
    /* two plain writes: reported only if the second changes the value (simt_race_global.c) */
    if (wait_mask) simt_race_shared_defer(w, w->arena + off, wait_mask, text);
    else simt_report_line(PW_CHECK_RACECHECK, "%s", text);
}

static void race_check(worker *w, pw_simt_thread *t, size_t off, size_t bytes, int kind, const void *site)
{
    if (simt_shared_waiting) simt_race_shared_settle(w);   /* the last write-after-write's value is in memory now */
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
        bool aload = atomic && t->access_mode == MODE_ALOAD;   /* an atomic load only reads */
        if (c->wtid >= 0 && (c->wmask & m) && !(atomic && c->watomic) &&
            !ordered(w, t, c->wtid, w->thr[c->wtid]->warp, c->wepoch, c->wsync)) {
            race_report(w, t, kind == K_READ || aload ? "read-after-write" : "write-after-write", wd * 4, c->wtid,
                        c->wsite, c->watomic ? "did an atomic" : "wrote",
                        kind == K_READ ? "read" : atomic ? "did an atomic" : "wrote", site,
                        kind == K_WRITE && !c->watomic ? m : 0);
            c->wtid = -1;         /* one report per pair */
        }
        if (kind != K_READ && !aload && c->rtid != -1 && (c->rmask & m) && !(atomic && c->ratomic)) {
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
                                atomic ? "did an atomic" : "wrote", site, 0);
                c->rtid = -1;
            }
        }
        if (kind == K_READ || aload) {
            if (c->rtid == -1 || c->repoch != w->epoch) {
                c->rtid = (int16_t)t->linear;
                c->rwarp = (int16_t)t->warp;
                c->repoch = w->epoch;
                c->rsync = w->wsync[t->warp];
                c->rsite = site;
                c->ratomic = aload;
                c->rmask = m;
            } else {
                if (c->rtid != t->linear) {
                    if (c->rwarp != t->warp) c->rwarp = -1;
                    c->rtid = -2;
                    c->rsync = w->wsync[t->warp];
                }
                c->ratomic = c->ratomic && aload;
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


/* ---- the access log (pw_simt_log_accesses) ---------------------------------------------- */

static pw_simt_access *log_buf;
static long log_cap, log_n;       /* log_n: atomic; may pass log_cap (the count goes on) */

void pw_simt_log_accesses(pw_simt_access *buf, long cap)
{
    simt_device_idle();           /* the launches issued from now on are logged */
    __atomic_store_n(&log_n, 0, __ATOMIC_RELAXED);
    log_cap = buf && cap > 0 ? cap : 0;
    __atomic_store_n(&log_buf, log_cap ? buf : NULL, __ATOMIC_RELEASE);
}
long pw_simt_access_count(void) { simt_device_idle(); return __atomic_load_n(&log_n, __ATOMIC_RELAXED); }
bool simt_logging(void) { return __atomic_load_n(&log_buf, __ATOMIC_ACQUIRE) != NULL; }

static void log_access(const worker *w, const pw_simt_thread *t, int kind, int shared, uintptr_t addr,
                       size_t bytes)
{
    long i = __atomic_fetch_add(&log_n, 1, __ATOMIC_RELAXED);
    if (i >= log_cap) return;
    const dim3 g = w->L->cfg.grid, b = w->L->cfg.block;
    pw_simt_access *e = &log_buf[i];
    e->block = w->block_idx.x + g.x * (w->block_idx.y + g.y * w->block_idx.z);
    e->thread = t->tid.x + b.x * (t->tid.y + b.y * t->tid.z);
    e->shared = (unsigned char)shared;
    e->store = kind == K_WRITE;
    e->atomic = kind == K_ATOMIC;
    e->bytes = (unsigned char)(bytes > 255 ? 255 : bytes);
    e->addr = addr;
}

/* Whether all n bytes at wr are marked written (initcheck's byte map of
 * shared memory holds only 0 and 1): the sizes the hooks pass, a word at a
 * time, instead of a loop over the bytes on every load. */
static inline __attribute__((always_inline)) bool bytes_written(const unsigned char *wr, size_t n)
{
    uint64_t v, y;
    switch (n) {
    case 1: return wr[0] != 0;
    case 4: { uint32_t x; memcpy(&x, wr, 4); return x == 0x01010101u; }
    case 8: memcpy(&v, wr, 8); return v == 0x0101010101010101ull;
    case 16: memcpy(&v, wr, 8); memcpy(&y, wr + 8, 8); return (v & y) == 0x0101010101010101ull;
    default:
        for (size_t b = 0; b < n; b++)
            if (!wr[b]) return false;
        return true;
    }
}

/* Whether bits o..o+n-1 of a cudaMalloc allocation's written-bit map are
 * all set: one byte of the map for an access inside 8 aligned bytes (any
 * aligned access up to 8 bytes), whole bytes for a 16-byte one. */
static inline __attribute__((always_inline)) bool bits_set(unsigned char *bits, size_t o, size_t n)
{
    if ((o & 7) + n <= 8) {
        unsigned m = ((1u << n) - 1) << (o & 7);
        return (__atomic_load_n(&bits[o >> 3], __ATOMIC_RELAXED) & m) == m;
    }
    if (!(o & 7) && !(n & 7)) {
        for (size_t k = o >> 3; k < (o + n) >> 3; k++)
            if (__atomic_load_n(&bits[k], __ATOMIC_RELAXED) != 0xFF) return false;
        return true;
    }
    for (size_t b = o; b < o + n; b++)
        if (!(__atomic_load_n(&bits[b >> 3], __ATOMIC_RELAXED) >> (b & 7) & 1)) return false;
    return true;
}

/* Every access of kernel code comes here. */
static inline __attribute__((always_inline)) void on_access(const void *p, size_t bytes, int kind, const void *site,
                                                             bool aligned)
{
    pw_simt_thread *t = simt_cur;
    if (!t) return;                                       /* host code */
    worker *w = t->w;
    uintptr_t a = (uintptr_t)p;
    if (a - t->stack_lo < t->stack_bytes) return;         /* its own locals */
    if (a - (uintptr_t)w->L->args < w->L->args_bytes) return;   /* its parameters */
    if (++t->slice >= SLICE) simt_preempt(t, site);
    if (kind == K_WRITE) w->no_progress = 0;      /* atomics: progress if they change memory (below) */
    else w->no_progress++;
    if (aligned && bytes > 1 && (a & (bytes - 1)) && (simt_checks & PW_CHECK_MEMCHECK)) {
        char where[200];
        simt_site_text(site, where, sizeof where);
        simt_thread_error("memcheck", cudaErrorMisalignedAddress,
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
        if (__builtin_expect(log_buf != NULL, 0)) log_access(w, t, kind, 1, off, bytes);
        if (kind != K_WRITE && t->access_mode < MODE_ASTORE && !bytes_written(w->written + off, bytes)) {
            unsigned char *wr = w->written + off;
            for (size_t b = 0; b < bytes; b++)
                if (!wr[b]) {
                    if (simt_checks & PW_CHECK_INITCHECK) {
                        char where[200];
                        simt_site_text(site, where, sizeof where);
                        simt_report_line(PW_CHECK_INITCHECK,
                                    "simt initcheck: kernel %s, block (%u,%u,%u), thread (%u,%u,%u): %s of %zu bytes "
                                    "at %s from uninitialized shared memory at offset 0x%zx: this block stored nothing "
                                    "there (a GPU would show whatever was left; here it is 0xFF)", w->L->cfg.name,
                                    w->block_idx.x, w->block_idx.y, w->block_idx.z, t->tid.x, t->tid.y, t->tid.z,
                                    kind == K_ATOMIC ? "atomic read" : kind_word(kind), bytes, where, (size_t)off);
                    }
                    memset(wr, 1, bytes);         /* one report per location */
                    break;
                }
        }
        if (kind != K_READ) memset(w->written + off, 1, bytes);
        if (simt_checks & PW_CHECK_RACECHECK) race_check(w, t, off, bytes, kind, site);
        if (kind != K_ATOMIC && simt_counting) simt_record(w, t, site, kind, SPACE_SHARED, off, bytes);
        return;
    }
    /* device memory: the allocation this worker used last, else a search.
     * No lock: allocations change only between launches. */
    size_t k = w->last_alloc;
    long i;
    if (k < simt_nallocs && a >= (uintptr_t)simt_allocs[k].base && a + bytes <= (uintptr_t)simt_allocs[k].base + simt_allocs[k].bytes) {
        i = (long)k;
    } else {
        i = simt_find_alloc(p, bytes);
        if (i < 0) {
            if (in_statics(a, bytes)) {                  /* __device__, __constant__ variables */
                if (kind == K_WRITE) w->c.global_stores++;
                else if (kind == K_READ) w->c.global_loads++;
                else w->c.atomics++;
                if (__builtin_expect(log_buf != NULL, 0)) log_access(w, t, kind, 0, a, bytes);
                if (simt_checks & PW_CHECK_RACECHECK) simt_race_global(w, t, a, bytes, kind, site, NULL);
                if (kind != K_ATOMIC && simt_counting) simt_record(w, t, site, kind, SPACE_GLOBAL, a, bytes);
                return;
            }
            bad_address(w, a, bytes, kind, site);
        }
        w->last_alloc = (size_t)i;
    }
    if (kind == K_WRITE) w->c.global_stores++;
    else if (kind == K_READ) w->c.global_loads++;
    else w->c.atomics++;
    if (__builtin_expect(log_buf != NULL, 0)) log_access(w, t, kind, 0, a, bytes);
    unsigned char *bits = simt_allocs[i].init;
    if (bits) {
        size_t o = (size_t)(a - (uintptr_t)simt_allocs[i].base);
        if (!bits_set(bits, o, bytes)) {
            if (kind != K_WRITE && t->access_mode < MODE_ASTORE && (simt_checks & PW_CHECK_INITCHECK)) {
                char where[200];
                simt_site_text(site, where, sizeof where);
                simt_report_line(PW_CHECK_INITCHECK,
                            "simt initcheck: kernel %s, block (%u,%u,%u), thread (%u,%u,%u): %s of %zu bytes at %s "
                            "from uninitialized global memory: byte %zu of a %zu-byte cudaMalloc allocation that no "
                            "cudaMemcpy, cudaMemset or store has written", w->L->cfg.name, w->block_idx.x,
                            w->block_idx.y, w->block_idx.z, t->tid.x, t->tid.y, t->tid.z,
                            kind == K_ATOMIC ? "atomic read" : "read", bytes, where, o,
                            simt_allocs[i].bytes);
            }
            /* written now (or reported once) */
            for (size_t b = o; b < o + bytes; b++)
                __atomic_fetch_or(&bits[b >> 3], (unsigned char)(1u << (b & 7)), __ATOMIC_RELAXED);
        }
    }
    if (simt_checks & PW_CHECK_RACECHECK) simt_race_global(w, t, a, bytes, kind, site, &simt_allocs[i]);
    if (kind != K_ATOMIC && simt_counting) simt_record(w, t, site, kind, SPACE_GLOBAL, a, bytes);
}

/* ---- the hooks: ThreadSanitizer's entry points, renamed pw_tsan_* in .cu objects ----------- */

/* A volatile access, an atomic load or store: the kind rides on the thread
 * (an access may give way to other fibers before it is checked). */
static inline __attribute__((always_inline)) void moded(const void *p, size_t bytes, int kind, const void *site,
                                                         bool aligned, int mode)
{
    pw_simt_thread *t = simt_cur;
    if (t) t->access_mode = mode;
    on_access(p, bytes, kind, site, aligned);
    if (t) t->access_mode = MODE_PLAIN;
}

#define RA __builtin_return_address(0)
#define PW_HOOKS(n)                                                                                 \
    void pw_tsan_read##n(void *p) { on_access(p, n, K_READ, RA, true); }                            \
    void pw_tsan_write##n(void *p) { on_access(p, n, K_WRITE, RA, true); }                          \
    void pw_tsan_unaligned_read##n(void *p) { on_access(p, n, K_READ, RA, false); }                 \
    void pw_tsan_unaligned_write##n(void *p) { on_access(p, n, K_WRITE, RA, false); }               \
    void pw_tsan_volatile_read##n(void *p) { moded(p, n, K_READ, RA, true, MODE_VOLATILE); }         \
    void pw_tsan_volatile_write##n(void *p) { moded(p, n, K_WRITE, RA, true, MODE_VOLATILE); }       \
    void pw_tsan_unaligned_volatile_read##n(void *p) { moded(p, n, K_READ, RA, false, MODE_VOLATILE); } \
    void pw_tsan_unaligned_volatile_write##n(void *p) { moded(p, n, K_WRITE, RA, false, MODE_VOLATILE); } \
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
    if (!simt_cur) return;                     /* host code (a driver's memcpy) */
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
        moded((const void *)a, sizeof(T), K_ATOMIC, RA, true, MODE_ALOAD);                                \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                      \
    }                                                                                                     \
    void pw_tsan_atomic##bits##_store(volatile T *a, T v, int mo)                                         \
    {                                                                                                     \
        (void)mo;                                                                                         \
        moded((const void *)a, sizeof(T), K_ATOMIC, RA, true, MODE_ASTORE);                               \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                         \
    }                                                                                                     \
    T pw_tsan_atomic##bits##_exchange(volatile T *a, T v, int mo)                                         \
    {                                                                                                     \
        (void)mo;                                                                                         \
        moded((const void *)a, sizeof(T), K_ATOMIC, RA, true, MODE_AEXCH);                                \
        T old = __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                              \
        if (simt_cur && old != v) simt_cur->w->no_progress = 0;                                           \
        return old;                                                                                       \
    }                                                                                                     \
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
        if (simt_cur && __atomic_load_n(a, __ATOMIC_RELAXED) != old) simt_cur->w->no_progress = 0;                  \
        return old;                                                                                       \
    }
#define PW_ATOMIC_CAS(bits, T)                                                                            \
    static int atomic_cas_##bits(volatile T *a, T *c, T v, const void *site)                              \
    {                                                                                                     \
        on_access((const void *)a, sizeof(T), K_ATOMIC, site, true);                                      \
        T expected = *c;                                                                                  \
        int ok = __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);         \
        /* a failed compare-and-swap changed nothing: a spin, not progress */                             \
        if (simt_cur && ok && expected != v) simt_cur->w->no_progress = 0;                                          \
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
void pw_simt_fence(void)
{
    __atomic_fetch_add(&fence_word, 0, __ATOMIC_SEQ_CST);
    simt_race_global_fence();     /* the fence-and-flag protocol (simt_race_global.c) */
}
void pw_tsan_atomic_thread_fence(int mo) { (void)mo; pw_simt_fence(); }
void pw_tsan_atomic_signal_fence(int mo) { (void)mo; }
