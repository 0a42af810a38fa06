/* common/simt/simt_race_global.c: racecheck on global memory (cudaMalloc'd
 * memory and __device__ variables), which compute-sanitizer does not check.
 *
 * Two accesses to the same bytes race when at least one writes, not both are
 * atomic (a volatile access counts as a relaxed atomic), and nothing orders
 * the earlier before the later:
 *   - the same thread, or a __syncthreads() between them in one block, or a
 *     completed warp collective (__syncwarp) between two lanes of one warp;
 *   - a kernel boundary (everything of an earlier launch);
 *   - a grid.sync() of a cooperative launch between them;
 *   - a fence-and-flag protocol: the earlier access's block ran a
 *     __threadfence() after it and then an atomic (or volatile) write to a
 *     flag F; the later access's block read F with an atomic (or volatile)
 *     read after that write. Blocks, not threads, are the unit here (a
 *     block's threads meet at barriers around such protocols): lenient, so
 *     that it raises no false alarms.
 *
 * Time is one global counter of events (G): a block takes a new stamp, its
 * "clock", at its start, at each barrier it passes (seen at its next access:
 * w->epoch moved), at each fence and after each grid.sync(). An access
 * records its block's clock, so "a barrier between the earlier access and
 * now" is "its stamp < the stamp of this block's last barrier", "an earlier
 * launch" is "stamp < the launch's first stamp", and so on: 4 bytes a test.
 *
 * The shadow: a 32-byte cell per 4-byte granule (the last writer and the
 * last reader: block, thread, bytes of the granule, atomic or not, clock,
 * warp collective count, source line), in 32 KiB chunks per 4 KiB page of
 * data, allocated when a kernel first touches the page. Device memory's
 * pages index a table over the emulator's device address range (virtual
 * memory: only the touched part costs); other addresses (__device__
 * variables) a hash table under a lock. A fully touched 64 MiB allocation
 * costs 512 MiB of shadow, a typical exercise's few MiB a few times that.
 * When blocks run on several OS threads (PW_SIMT_WORKERS > 1, cooperative
 * launches) each granule's check holds one of 4096 spin locks.
 *
 * Called by simt_check.c (every global access, with racecheck on),
 * simt_grid.c and simt_launch.c; calls simt_report.c and simt_lines.c. */
#define _GNU_SOURCE
#include "simt_state.h"

enum {
    PAGE_SHIFT = 12,
    CELLS = 1 << (PAGE_SHIFT - 2),   /* granules of a 4 KiB page */
    MAX_ACQ = 64,                 /* flags a block remembers having read */
    MAX_REL = 16,                 /* fence intervals remembered per (flag, block) */
    STRIPES = 4096,
};
#define SPACE_BYTES ((size_t)64 << 30)   /* simt_memory.c's device range: 64 GiB */

typedef struct {
    uint32_t wstamp, rstamp;      /* the clock of the last write, of the last read (0: none) */
    uint32_t wblock, rblock;      /* linear block index */
    int32_t wsite, rsite;         /* return address, as an offset from site_base (INT32_MIN: unknown) */
    uint16_t wthr, rthr;          /* bits 0-9 thread, 10-13 the granule's bytes, 14 atomic */
    uint16_t wsync, rsync;        /* the thread's warp's completed collectives then */
} gcell;

typedef struct { uintptr_t flag; uint32_t ta; } acquire;
typedef struct {                  /* the running block of this OS thread */
    const worker *w;
    uint32_t serial, launch, epoch;
    uint32_t clock, last_barrier, last_fence;
    uint32_t block;
    uintptr_t cpage;              /* the last page touched and its chunk */
    gcell *cchunk;
    uintptr_t rel_flag;           /* the last release recorded (skip repeats) */
    uint32_t rel_fence;
    int nacq;
    acquire acq[MAX_ACQ];
} block_state;
static _Thread_local block_state cur;

static uint32_t G;                /* the event counter (atomic) */
static uint32_t launch_floor, last_grid, launch_id;   /* set between launches / under the grid lock */
static bool parallel;             /* blocks may run at once: lock the cells */
static unsigned char stripes[STRIPES];

static uint32_t next_stamp(void) { return __atomic_add_fetch(&G, 1, __ATOMIC_RELAXED); }

/* ---- the shadow --------------------------------------------------------------------- */

static pthread_mutex_t shadow_lock = PTHREAD_MUTEX_INITIALIZER;
static gcell **dev_table;         /* per page of the device range (mmap'd, NORESERVE) */
static gcell **chunks;            /* every chunk, to clear them */
static size_t nchunks, cap_chunks;
typedef struct { uintptr_t page; gcell *chunk; } hslot;
static hslot *other;              /* pages outside the device range */
static size_t other_cap, other_used;

static gcell *new_chunk(void)     /* under shadow_lock */
{
    gcell *c = calloc(CELLS, sizeof *c);
    PW_CHECK_ALLOC(c, CELLS * sizeof *c);
    if (nchunks == cap_chunks) {
        cap_chunks = cap_chunks ? 2 * cap_chunks : 256;
        chunks = realloc(chunks, cap_chunks * sizeof *chunks);
        PW_CHECK_ALLOC(chunks, cap_chunks * sizeof *chunks);
    }
    chunks[nchunks++] = c;
    return c;
}

static gcell *other_chunk(uintptr_t page)   /* under shadow_lock */
{
    if (2 * (other_used + 1) > other_cap) {
        size_t ncap = other_cap ? 2 * other_cap : 1024;
        hslot *n = calloc(ncap, sizeof *n);
        PW_CHECK_ALLOC(n, ncap * sizeof *n);
        for (size_t i = 0; i < other_cap; i++)
            if (other[i].chunk) {
                size_t j = (other[i].page * 0x9E3779B97F4A7C15ull) & (ncap - 1);
                while (n[j].chunk) j = (j + 1) & (ncap - 1);
                n[j] = other[i];
            }
        free(other);
        other = n;
        other_cap = ncap;
    }
    size_t j = (page * 0x9E3779B97F4A7C15ull) & (other_cap - 1);
    while (other[j].chunk && other[j].page != page) j = (j + 1) & (other_cap - 1);
    if (!other[j].chunk) {
        other[j] = (hslot){ page, new_chunk() };
        other_used++;
    }
    return other[j].chunk;
}

static gcell *chunk_of(uintptr_t page)
{
    const char *p = (const char *)(page << PAGE_SHIFT);
    if (simt_in_device_space(p)) {
        gcell **table = __atomic_load_n(&dev_table, __ATOMIC_ACQUIRE);
        if (!table) {
            pthread_mutex_lock(&shadow_lock);
            if (!dev_table) {
                void *m = mmap(NULL, (SPACE_BYTES >> PAGE_SHIFT) * sizeof(gcell *), PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
                if (m == MAP_FAILED) { fprintf(stderr, "simt racecheck: no memory for the shadow of global memory\n"); abort(); }
                __atomic_store_n(&dev_table, (gcell **)m, __ATOMIC_RELEASE);
            }
            pthread_mutex_unlock(&shadow_lock);
            table = dev_table;
        }
        size_t k = (size_t)(p - simt_device_space) >> PAGE_SHIFT;
        gcell *c = __atomic_load_n(&table[k], __ATOMIC_ACQUIRE);
        if (c) return c;
        pthread_mutex_lock(&shadow_lock);
        c = table[k];
        if (!c) { c = new_chunk(); __atomic_store_n(&table[k], c, __ATOMIC_RELEASE); }
        pthread_mutex_unlock(&shadow_lock);
        return c;
    }
    pthread_mutex_lock(&shadow_lock);
    gcell *c = other_chunk(page);
    pthread_mutex_unlock(&shadow_lock);
    return c;
}

/* ---- the fence-and-flag protocol: releases and acquires -------------------------------- */

typedef struct {                  /* the releases of one block to one flag */
    uintptr_t flag;
    uint32_t block;
    int n;                        /* 0: empty slot */
    uint32_t fence[MAX_REL], t[MAX_REL];   /* the block's last fence, and when it released */
} rel_node;
static pthread_mutex_t rel_lock = PTHREAD_MUTEX_INITIALIZER;
static rel_node *rels;
static size_t rel_cap, rel_used;
static uintptr_t *rel_flags;      /* the flags released to (a set; 0: empty) */
static size_t flag_cap, flag_used;
static long nreleases;            /* atomic: 0 skips every acquire */

static size_t hash2(uintptr_t f, uint32_t b) { return (size_t)((f * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full)); }

static rel_node *rel_find(uintptr_t f, uint32_t b, bool add)   /* under rel_lock */
{
    if (add && 2 * (rel_used + 1) > rel_cap) {
        size_t ncap = rel_cap ? 2 * rel_cap : 256;
        rel_node *n = calloc(ncap, sizeof *n);
        PW_CHECK_ALLOC(n, ncap * sizeof *n);
        for (size_t i = 0; i < rel_cap; i++)
            if (rels[i].n) {
                size_t j = hash2(rels[i].flag, rels[i].block) & (ncap - 1);
                while (n[j].n) j = (j + 1) & (ncap - 1);
                n[j] = rels[i];
            }
        free(rels);
        rels = n;
        rel_cap = ncap;
    }
    if (!rel_cap) return NULL;
    size_t j = hash2(f, b) & (rel_cap - 1);
    while (rels[j].n && !(rels[j].flag == f && rels[j].block == b)) j = (j + 1) & (rel_cap - 1);
    if (rels[j].n) return &rels[j];
    if (!add) return NULL;
    rels[j].flag = f;
    rels[j].block = b;
    rel_used++;
    return &rels[j];
}

static bool flag_has(uintptr_t f, bool add)   /* under rel_lock */
{
    if (add && 2 * (flag_used + 1) > flag_cap) {
        size_t ncap = flag_cap ? 2 * flag_cap : 256;
        uintptr_t *n = calloc(ncap, sizeof *n);
        PW_CHECK_ALLOC(n, ncap * sizeof *n);
        for (size_t i = 0; i < flag_cap; i++)
            if (rel_flags[i]) {
                size_t j = hash2(rel_flags[i], 0) & (ncap - 1);
                while (n[j]) j = (j + 1) & (ncap - 1);
                n[j] = rel_flags[i];
            }
        free(rel_flags);
        rel_flags = n;
        flag_cap = ncap;
    }
    if (!flag_cap) return false;
    size_t j = hash2(f, 0) & (flag_cap - 1);
    while (rel_flags[j] && rel_flags[j] != f) j = (j + 1) & (flag_cap - 1);
    if (rel_flags[j]) return true;
    if (add) { rel_flags[j] = f; flag_used++; }
    return false;
}

/* An atomic or volatile write to `flag` by a block that has fenced: what the
 * block did before its last fence is published through the flag. */
static void release(block_state *s, uintptr_t flag)
{
    if (!s->last_fence || (s->rel_flag == flag && s->rel_fence == s->last_fence)) return;
    s->rel_flag = flag;
    s->rel_fence = s->last_fence;
    pthread_mutex_lock(&rel_lock);
    rel_node *r = rel_find(flag, s->block, true);
    if (!r->n || r->fence[r->n - 1] < s->last_fence) {
        if (r->n == MAX_REL) {    /* the oldest goes: a later release with a later fence stands for it */
            memmove(r->fence, r->fence + 1, (MAX_REL - 1) * sizeof r->fence[0]);
            memmove(r->t, r->t + 1, (MAX_REL - 1) * sizeof r->t[0]);
            r->n--;
        }
        r->fence[r->n] = s->last_fence;
        r->t[r->n] = next_stamp();
        r->n++;
        flag_has(flag, true);
        __atomic_fetch_add(&nreleases, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&rel_lock);
}

/* An atomic or volatile read of `flag`: the block has seen its releases so far. */
static void acquire_flag(block_state *s, uintptr_t flag)
{
    if (!__atomic_load_n(&nreleases, __ATOMIC_RELAXED)) return;
    pthread_mutex_lock(&rel_lock);
    bool has = flag_has(flag, false);
    pthread_mutex_unlock(&rel_lock);
    if (!has) return;
    uint32_t ta = next_stamp();
    int oldest = 0;
    for (int i = 0; i < s->nacq; i++) {
        if (s->acq[i].flag == flag) { s->acq[i].ta = ta; return; }
        if (s->acq[i].ta < s->acq[oldest].ta) oldest = i;
    }
    if (s->nacq < MAX_ACQ) s->acq[s->nacq++] = (acquire){ flag, ta };
    else s->acq[oldest] = (acquire){ flag, ta };
}

/* Did block `b` publish its access at clock `stamp` to this block? */
static bool released(const block_state *s, uint32_t b, uint32_t stamp)
{
    if (!s->nacq || !__atomic_load_n(&nreleases, __ATOMIC_RELAXED)) return false;
    bool ok = false;
    pthread_mutex_lock(&rel_lock);
    for (int i = 0; i < s->nacq && !ok; i++) {
        const rel_node *r = rel_find(s->acq[i].flag, b, false);
        for (int k = 0; r && k < r->n && !ok; k++) ok = r->fence[k] > stamp && r->t[k] < s->acq[i].ta;
    }
    pthread_mutex_unlock(&rel_lock);
    return ok;
}

/* ---- the running block ---------------------------------------------------------------- */

static block_state *state_of(const worker *w)
{
    block_state *s = &cur;
    uint32_t id = __atomic_load_n(&launch_id, __ATOMIC_RELAXED);
    if (s->w != w || s->serial != w->serial || s->launch != id) {
        s->w = w;
        s->serial = w->serial;
        s->launch = id;
        s->epoch = w->epoch;
        s->clock = next_stamp();
        s->last_barrier = s->last_fence = 0;
        s->rel_flag = 0;
        s->nacq = 0;
        dim3 g = w->L->cfg.grid;
        s->block = w->block_idx.x + g.x * (w->block_idx.y + g.y * w->block_idx.z);
    } else if (s->epoch != w->epoch) {   /* a barrier since this block's last access */
        s->epoch = w->epoch;
        s->clock = s->last_barrier = next_stamp();
    }
    return s;
}

void simt_race_global_launch(const launch *L)
{
    /* 32-bit stamps: long before they wrap, every cell is emptied (all of
     * them belong to earlier launches, which are ordered anyway) */
    if (__atomic_load_n(&G, __ATOMIC_RELAXED) > 0x80000000u) {
        pthread_mutex_lock(&shadow_lock);
        for (size_t i = 0; i < nchunks; i++) memset(chunks[i], 0, CELLS * sizeof(gcell));
        pthread_mutex_unlock(&shadow_lock);
        __atomic_store_n(&G, 0, __ATOMIC_RELAXED);
    }
    pthread_mutex_lock(&rel_lock);
    if (rel_cap) memset(rels, 0, rel_cap * sizeof *rels);
    if (flag_cap) memset(rel_flags, 0, flag_cap * sizeof *rel_flags);
    rel_used = flag_used = 0;
    nreleases = 0;
    pthread_mutex_unlock(&rel_lock);
    launch_floor = next_stamp();
    last_grid = 0;
    __atomic_add_fetch(&launch_id, 1, __ATOMIC_RELAXED);
    parallel = L->grid || (simt_workers_setting > 1 && L->nblocks > 1);
}

void simt_race_global_fence(void)
{
    pw_simt_thread *t = simt_cur;
    if (!t || !(simt_checks & PW_CHECK_RACECHECK)) return;
    block_state *s = state_of(t->w);
    s->clock = s->last_fence = next_stamp();
}

/* The last block arrived at a grid.sync(): everything before is ordered before everything after. */
void simt_race_global_grid_open(void) { __atomic_store_n(&last_grid, next_stamp(), __ATOMIC_RELEASE); }

void simt_race_global_grid_passed(worker *w)
{
    block_state *s = state_of(w);
    s->clock = next_stamp();
}

/* ---- checking one access ------------------------------------------------------------------ */

static bool ordered(const block_state *s, const worker *w, const pw_simt_thread *t, uint32_t stamp, uint32_t blk,
                    unsigned thr, uint16_t sync)
{
    if (stamp < launch_floor) return true;          /* an earlier kernel */
    if (blk == s->block) {
        if (thr == (unsigned)t->linear) return true;
        if (stamp < s->last_barrier) return true;    /* a __syncthreads() since */
        if ((int)(thr / 32) == t->warp && sync != (uint16_t)w->wsync[t->warp]) return true;   /* a __syncwarp() */
    } else if (stamp < __atomic_load_n(&last_grid, __ATOMIC_ACQUIRE)) {
        return true;                                 /* a grid.sync() since */
    }
    return released(s, blk, stamp);
}

static const char *site_base(void) { return (const char *)(uintptr_t)&simt_race_global; }
static int32_t site_code(const void *site)
{
    long long d = (long long)((const char *)site - site_base());
    return d > INT32_MIN && d <= INT32_MAX ? (int32_t)d : INT32_MIN;
}
static const void *site_of(int32_t code) { return code == INT32_MIN ? NULL : site_base() + code; }

typedef struct {                  /* a hazard found under the lock, reported after it */
    const char *hazard, *oword, *myword;
    uint32_t oblock, myblock;
    unsigned othr, mythr;
    int32_t osite, mysite;
    uintptr_t addr;
    const allocation *al;
    const launch *L;
} hazard_rec;

static void report(const hazard_rec *h)
{
    char mine[512], theirs[512], where[160];   /* long paths: generated codes have 200-character names */
    const void *ms = site_of(h->mysite), *os = site_of(h->osite);
    if (ms) simt_site_text(ms, mine, sizeof mine);
    else snprintf(mine, sizeof mine, "an unknown line");
    if (os) simt_site_text(os, theirs, sizeof theirs);
    else snprintf(theirs, sizeof theirs, "an unknown line");
    if (h->al)
        snprintf(where, sizeof where, "byte %zu of a %zu-byte %s allocation", (size_t)(h->addr - (uintptr_t)h->al->base),
                 h->al->bytes, simt_alloc_names[h->al->kind]);
    else snprintf(where, sizeof where, "a __device__ variable");
    dim3 g = h->L->cfg.grid, b = h->L->cfg.block;
    uint32_t ob = h->oblock, mb = h->myblock;
    const char *why = ob != mb
                          ? "different blocks: nothing orders blocks of one launch; make both atomic, publish with "
                            "__threadfence() and an atomic flag, grid.sync() in a cooperative launch, or split the kernel"
                      : h->othr / 32 == h->mythr / 32
                          ? "same warp: put __syncwarp() between them; lock-step is not a promise since Volta"
                          : "same block: put __syncthreads() between them";
    simt_report_line(PW_CHECK_RACECHECK,
                     "simt racecheck: kernel %s: %s hazard on global memory at %p (%s): block (%u,%u,%u) thread "
                     "(%u,%u,%u) %s at %s, block (%u,%u,%u) thread (%u,%u,%u) %s at %s, and nothing orders them (%s)",
                     h->L->cfg.name, h->hazard, (const void *)h->addr, where, mb % g.x, mb / g.x % g.y, mb / (g.x * g.y),
                     h->mythr % b.x, h->mythr / b.x % b.y, h->mythr / (b.x * b.y), h->myword, mine, ob % g.x,
                     ob / g.x % g.y, ob / (g.x * g.y), h->othr % b.x, h->othr / b.x % b.y, h->othr / (b.x * b.y),
                     h->oword, theirs, why);
}

/* ---- write-after-write of the same value: not reported ----------------------------------------
 * Every thread of a block storing the same flag (`*out = 1`) is a race by
 * the letter, harmless in fact, and compute-sanitizer does not report a
 * write that leaves the value as it was. The hook comes before the store,
 * so the second write's value is known only later: the hazard waits here
 * with the first write's bytes, and the next access to the granule (or the
 * end of the launch) compares them with what memory holds then. */
typedef struct { hazard_rec h; uintptr_t g; uint32_t old; unsigned mask; } pending;
static pthread_mutex_t pend_lock = PTHREAD_MUTEX_INITIALIZER;
static pending *pend;
static size_t npend, cap_pend;

static uint32_t granule_bytes(uintptr_t g, unsigned mask)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++)
        if (mask >> k & 1) v |= (uint32_t)__atomic_load_n((const unsigned char *)g + k, __ATOMIC_RELAXED) << 8 * k;
    return v;
}

static void defer(const hazard_rec *h, uintptr_t g, unsigned mask)
{
    pthread_mutex_lock(&pend_lock);
    if (npend == cap_pend) {
        cap_pend = cap_pend ? 2 * cap_pend : 64;
        pend = realloc(pend, cap_pend * sizeof *pend);
        PW_CHECK_ALLOC(pend, cap_pend * sizeof *pend);
    }
    pend[npend++] = (pending){ *h, g, granule_bytes(g, mask), mask };
    pthread_mutex_unlock(&pend_lock);
}

/* Decide the waiting hazards of granule g (g == 0: all of them). */
static void settle(uintptr_t g)
{
    hazard_rec out[8];
    int nout;
    do {
        nout = 0;
        pthread_mutex_lock(&pend_lock);
        for (size_t i = 0; i < npend && nout < 8;) {
            if (g && pend[i].g != g) { i++; continue; }
            if (granule_bytes(pend[i].g, pend[i].mask) != pend[i].old) out[nout++] = pend[i].h;
            pend[i] = pend[--npend];
        }
        pthread_mutex_unlock(&pend_lock);
        for (int k = 0; k < nout; k++) report(&out[k]);
    } while (nout == 8);
}

/* Shared memory: the same for its write-after-write hazards. A block runs
 * on one OS thread and a check never gives way between its hook and its
 * store, so at the next shared access of this OS thread memory holds the
 * second write's value; a hazard whose block has ended by then (its memory
 * reset for the next) is dropped, not guessed. */
typedef struct {
    const worker *w;
    uint32_t serial;
    const unsigned char *word;
    unsigned mask;
    uint32_t old;
    char text[1024];
} shared_wait;
enum { MAX_SHARED_WAIT = 8 };
_Thread_local int simt_shared_waiting;
static _Thread_local shared_wait swait[MAX_SHARED_WAIT];

void simt_race_shared_settle(worker *w)
{
    for (int i = 0; i < simt_shared_waiting; i++) {
        const shared_wait *q = &swait[i];
        if (q->w == w && q->serial == w->serial && granule_bytes((uintptr_t)q->word, q->mask) != q->old)
            simt_report_line(PW_CHECK_RACECHECK, "%s", q->text);
    }
    simt_shared_waiting = 0;
}

void simt_race_shared_defer(worker *w, const unsigned char *word, unsigned mask, const char *text)
{
    if (simt_shared_waiting == MAX_SHARED_WAIT) simt_race_shared_settle(w);   /* all of this block: memory is current */
    shared_wait *q = &swait[simt_shared_waiting++];
    *q = (shared_wait){ w, w->serial, word, mask, granule_bytes((uintptr_t)word, mask), "" };
    snprintf(q->text, sizeof q->text, "%s", text);
}

void simt_race_global_launch_end(void)
{
    if (__atomic_load_n(&npend, __ATOMIC_RELAXED)) settle(0);
}

static void lock_stripe(uintptr_t g)
{
    unsigned char *l = &stripes[(g >> 2) & (STRIPES - 1)];
    while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(l, __ATOMIC_RELAXED)) {}
}
static void unlock_stripe(uintptr_t g) { __atomic_store_n(&stripes[(g >> 2) & (STRIPES - 1)], 0, __ATOMIC_RELEASE); }

static const char *word(bool reads, bool writes, bool atomic)
{
    return atomic ? (writes && reads ? "did an atomic" : writes ? "did an atomic store" : "did an atomic load")
                  : writes ? "wrote" : "read";
}

void simt_race_global(worker *w, pw_simt_thread *t, uintptr_t a, size_t bytes, int kind, const void *site,
                      const allocation *al)
{
    if (simt_shared_waiting) simt_race_shared_settle(w);   /* shared memory's waiting hazards: memory is current */
    int mode = t->access_mode;
    bool atomic = kind == K_ATOMIC || mode == MODE_VOLATILE;
    bool reads = kind == K_READ || (kind == K_ATOMIC && mode != MODE_ASTORE);
    bool writes = kind == K_WRITE || (kind == K_ATOMIC && mode != MODE_ALOAD);
    block_state *s = state_of(w);
    uintptr_t first = a & ~(uintptr_t)3;
    if (atomic && reads) acquire_flag(s, first);
    uint32_t clock = s->clock, blk = s->block;
    uint16_t sync = (uint16_t)w->wsync[t->warp];
    int32_t code = site_code(site);
    for (uintptr_t g = first; g < a + bytes; g += 4) {
        uintptr_t lo = g > a ? g : a, hi = g + 4 < a + bytes ? g + 4 : a + bytes;
        unsigned m = ((1u << (hi - lo)) - 1) << (lo - g);
        uintptr_t page = g >> PAGE_SHIFT;
        if (page != s->cpage || !s->cchunk) {
            s->cchunk = chunk_of(page);
            s->cpage = page;
        }
        gcell *c = &s->cchunk[(g >> 2) & (CELLS - 1)];
        hazard_rec h[2];
        int nh = 0;
        bool later = false;       /* h[0] waits for the value (a write-after-write) */
        if (parallel) lock_stripe(g);
        if (c->wthr >> 15) {      /* a write-after-write waits: memory has the second value now */
            c->wthr &= 0x7FFF;
            if (parallel) unlock_stripe(g);
            settle(g);
            if (parallel) lock_stripe(g);
        }
        if (c->wstamp && (c->wthr >> 10 & 0xF & m) && !(atomic && (c->wthr >> 14 & 1)) &&
            !ordered(s, w, t, c->wstamp, c->wblock, c->wthr & 0x3FF, c->wsync)) {
            h[nh++] = (hazard_rec){ writes ? "write-after-write" : "read-after-write", (c->wthr >> 14 & 1) ? "did an atomic" : "wrote",
                                    word(reads, writes, atomic), c->wblock, blk, c->wthr & 0x3FFu, (unsigned)t->linear,
                                    c->wsite, code, g, al, w->L };
            later = writes && !reads;
            c->wstamp = 0;        /* one report per pair */
        }
        if (writes && c->rstamp && (c->rthr >> 10 & 0xF & m) && !(atomic && (c->rthr >> 14 & 1)) &&
            !ordered(s, w, t, c->rstamp, c->rblock, c->rthr & 0x3FF, c->rsync)) {
            h[nh++] = (hazard_rec){ "write-after-read", (c->rthr >> 14 & 1) ? "did an atomic load" : "read", word(reads, writes, atomic),
                                    c->rblock, blk, c->rthr & 0x3FFu, (unsigned)t->linear, c->rsite, code, g, al, w->L };
            c->rstamp = 0;
        }
        if (later) defer(&h[0], g, m);
        uint16_t me = (uint16_t)((unsigned)t->linear | m << 10 | (unsigned)atomic << 14 | (unsigned)later << 15);
        if (writes) {
            c->wstamp = clock;
            c->wblock = blk;
            c->wthr = me;
            c->wsync = sync;
            c->wsite = code;
            c->rstamp = 0;
        } else {
            c->rstamp = clock;
            c->rblock = blk;
            c->rthr = me;
            c->rsync = sync;
            c->rsite = code;
        }
        if (parallel) unlock_stripe(g);
        for (int k = later; k < nh; k++) report(&h[k]);
    }
    if (atomic && writes) release(s, first);
}
