/* common/simt/simt_report.c: the emulator's errors and reports, the lane map
 * and the warp logs that turn accesses into counts. */
#define _GNU_SOURCE
#include "simt_state.h"

/* ---- errors and reports ------------------------------------------------------------------ */

/* A report that does not stop the kernel (or a host-side one): printed in
 * block order (simt_order.c), unless the launch has printed MAX_REPORTS of
 * its kind already. */
void simt_report_line(int check, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    simt_emit(check, text);
}

/* "threads 0-15, 32-47": the linear indices of threads in state `state`
 * (or, with state < 0, of the lanes in `mask` of warp `warp`). */
void simt_thread_list(worker *w, int state, int warp, unsigned mask, char *buf, size_t len)
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

/* An error of the running block: the launch's error unless a block before
 * it failed too (simt_order.c), printed in its turn. */
static void set_error(worker *w, pw_simt_thread *t, const char *tool, cudaError_t code, const char *fmt, va_list ap)
{
    char what[1536], who[160], text[2048];
    vsnprintf(what, sizeof what, fmt, ap);
    if (t) snprintf(who, sizeof who, ", thread (%u,%u,%u)", t->tid.x, t->tid.y, t->tid.z);
    else who[0] = 0;
    snprintf(text, sizeof text, "simt %s: kernel %s, block (%u,%u,%u)%s: %s", tool, w->L->cfg.name,
             w->block_idx.x, w->block_idx.y, w->block_idx.z, who, what);
    simt_order_fail(w, code, text);
}

void simt_block_error(worker *w, const char *tool, cudaError_t code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(w, NULL, tool, code, fmt, ap);
    va_end(ap);
    w->pool_broken = true;        /* the threads are stopped mid-kernel */
}

/* An error in the running thread: recorded, and the thread never resumes. */
void simt_thread_error(const char *tool, cudaError_t code, const char *fmt, ...)
{
    pw_simt_thread *t = simt_cur;
    worker *w = t->w;
    va_list ap;
    va_start(ap, fmt);
    set_error(w, t, tool, code, fmt, ap);
    va_end(ap);
    w->pool_broken = true;
    pw_fiber_switch(t->fiber, w->sched);
    abort();                      /* the scheduler never resumes a failed thread */
}

/* These wait for the work issued before them (an implicit synchronise,
 * simt_stream.c): a kernel's error is in by the time of a call right after
 * its launch, which the workbook's C checkers rely on. (C++'s
 * cudaGetLastError does not wait, as on a GPU: simt_cuda_host.h.) */
const char *pw_simt_last_error_message(void) { simt_device_idle(); return simt_last_message; }

/* The last error as it stands, without waiting (pw_simt_peek_last_error waits). */
cudaError_t pw_simt_peek_error_now(void)
{
    pthread_mutex_lock(&simt_state_lock);
    cudaError_t e = simt_last_error;
    pthread_mutex_unlock(&simt_state_lock);
    return e;
}

cudaError_t pw_simt_get_last_error_now(void)
{
    pthread_mutex_lock(&simt_state_lock);
    cudaError_t e = simt_last_error;
    simt_last_error = cudaSuccess;
    pthread_mutex_unlock(&simt_state_lock);
    return e;
}

/* The waiting versions: the device's queue first, then the error as it stands. */
cudaError_t pw_simt_get_last_error(void)
{
    simt_device_idle();
    return pw_simt_get_last_error_now();
}
cudaError_t pw_simt_peek_last_error(void)
{
    simt_device_idle();
    return pw_simt_peek_error_now();
}
cudaError_t pw_simt_record_error(cudaError_t e)
{
    pthread_mutex_lock(&simt_state_lock);
    if (e != cudaSuccess) simt_last_error = e;
    pthread_mutex_unlock(&simt_state_lock);
    return e;
}

const char *pw_simt_error_string(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
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
    case cudaErrorInvalidPitchValue: return "cudaErrorInvalidPitchValue";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
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

/* ---- the lane map: one warp's instructions, lane by lane ------------------------------------- */

static pw_simt_step *trace_buf;
static int trace_cap, trace_n;
int simt_trace_warp = -1;

void pw_simt_trace_warp(int warp, pw_simt_step *buf, int cap)
{
    simt_device_idle();           /* the next launch records, not one still running */
    trace_buf = buf;
    trace_cap = cap;
    trace_n = 0;
    simt_trace_warp = buf && cap > 0 ? warp : -1;
    if (simt_trace_warp >= 0) simt_counting = true;   /* the lane map is made from the warp logs */
}
int pw_simt_trace_count(void) { simt_device_idle(); return trace_n; }

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
    static uintptr_t bases[4096];
    int n = 0;
    for (int s = 0; s < wl->nsites; s++)
        for (int k = 0; k < wl->sites[s].n && n < 4096; k++) {
            gs[n] = &wl->sites[s].g[k];
            n++;
        }
    qsort(gs, (size_t)n, sizeof gs[0], by_seq);
    for (int i = 0; i < n; i++) {     /* each group's site: found again by address */
        kinds[i] = spaces[i] = 0;
        bases[i] = 0;
        for (int s = 0; s < wl->nsites; s++)
            if (gs[i] >= wl->sites[s].g && gs[i] < wl->sites[s].g + wl->sites[s].n) {
                kinds[i] = wl->sites[s].kind;
                spaces[i] = wl->sites[s].space;
                bases[i] = wl->sites[s].base;
            }
    }
    for (int i = 0; i < n && trace_n < trace_cap; i++) {
        if (!gs[i]->mask) continue;
        pw_simt_step *st = &trace_buf[trace_n++];
        st->shared = spaces[i] == SPACE_SHARED;
        st->store = kinds[i] == K_WRITE;
        st->mask = gs[i]->mask;
        st->bytes = gs[i]->bytes;
        for (int l = 0; l < 32; l++)
            st->addr[l] = gs[i]->mask >> l & 1u ? (uint64_t)(bases[i] + (uintptr_t)(intptr_t)gs[i]->addr[l]) : 0;
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


/* The thread's hint for a site: one of 4 slots, by the instruction's address. */
static inline int *site_hint(pw_simt_thread *t, const void *site, int kind)
{
    return &t->site_hint[((uintptr_t)site ^ (uintptr_t)kind) & 3];
}

static site_log *site_slot(worker *w, pw_simt_thread *t, const void *site, int kind, int space, uintptr_t off)
{
    warp_log *wl = &w->warps[t->warp];
    /* Guesses before the hash, each checked (a stale one after a flush or
     * another lane's insertion just misses): the lanes of a warp run one
     * after another through the same code, and the first one made the
     * sites in that order, so the next site is likely the one after this
     * thread's last; a loop comes back to the same few instructions, so
     * next the index this thread found last for the instruction's slot. */
    int *hint = site_hint(t, site, kind);
    int guess = t->site_last + 1;
    if (guess < wl->nsites) {
        site_log *sl = &wl->sites[guess];
        if (sl->site == site && sl->kind == kind && sl->space == space) { t->site_last = *hint = guess; return sl; }
    }
    if (*hint < wl->nsites) {
        site_log *sl = &wl->sites[*hint];
        if (sl->site == site && sl->kind == kind && sl->space == space) { t->site_last = *hint; return sl; }
    }
    if (wl->hcap) {
        unsigned h = hash_site(site, kind) & (unsigned)(wl->hcap - 1);
        for (int s; (s = wl->hash[h]); h = (h + 1) & (unsigned)(wl->hcap - 1)) {
            site_log *sl = &wl->sites[s - 1];
            if (sl->site == site && sl->kind == kind && sl->space == space) { t->site_last = *hint = s - 1; return sl; }
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
    sl->base = off;
    sl->n = 0;
    memset(sl->occ, 0, sizeof sl->occ);
    unsigned h = hash_site(site, kind) & (unsigned)(wl->hcap - 1);
    while (wl->hash[h]) h = (h + 1) & (unsigned)(wl->hcap - 1);
    wl->hash[h] = s + 1;
    t->site_last = *hint = s;
    return sl;
}

void simt_record(worker *w, pw_simt_thread *t, const void *site, int kind, int space, uintptr_t off, size_t bytes)
{
    site_log *sl = site_slot(w, t, site, kind, space, off);
    intptr_t d = (intptr_t)(off - sl->base);
    if (d != (int32_t)d) {
        /* 2 GiB or more from the site's first address since the warp met
         * (one instruction reaching both a __device__ variable and the heap):
         * count what is there, as at a meeting, and start again from here */
        simt_flush_warp(w, t->warp);
        sl = site_slot(w, t, site, kind, space, off);
        d = 0;
    }
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
    g->addr[t->lane] = (int32_t)d;
    w->dirty_warps[t->warp / 32] |= 1u << (t->warp % 32);
    if (sl->n >= PASS_CAP) simt_flush_warp(w, t->warp);   /* a long loop with no meeting: count what is there */
}

/* One warp instruction's lanes with their whole addresses (a group adds
 * its site's base back), what the counts below read. */
typedef struct {
    uint32_t mask, bytes;
    uintptr_t addr[32];
} request;

static void expand(const site_log *sl, const group *g, request *r)
{
    r->mask = g->mask;
    r->bytes = g->bytes;
    for (int l = 0; l < 32; l++) r->addr[l] = g->mask >> l & 1u ? sl->base + (uintptr_t)(intptr_t)g->addr[l] : 0;
}

/* Whether v is among the n values of list: a 1024-bit filter of their low
 * bits (the caller's, zeroed per request) answers "no" for most new values
 * without the search, so a request's dedup is about linear, not the
 * quadratic search over up to 128 values it was (a quarter of histogram's
 * time, whose lanes' bytes are not in rising order). */
static inline bool seen_before(uintptr_t v, uint64_t filter[16], const uintptr_t *list, int n)
{
    unsigned h = (unsigned)(v & 1023);
    uint64_t bit = 1ull << (h & 63);
    if (!(filter[h >> 6] & bit)) {
        filter[h >> 6] |= bit;
        return false;
    }
    for (int j = n; j > 0; j--)   /* from the newest: a broadcast's value is the last one */
        if (list[j - 1] == v) return true;
    return false;
}

/* Distinct units of 2^shift bytes the lanes of g touched: 32-byte sectors
 * (shift 5: what the memory system moves), or 128-byte lines (shift 7: the
 * L1 wavefronts of a global request, one line's worth of data a clock). */
static int distinct(const request *g, int shift)
{
    uintptr_t seen[64];           /* 32 lanes of at most 16 bytes: 2 units each at most */
    uint64_t filter[16] = { 0 };
    int n = 0;
    for (int l = 0; l < 32; l++) {
        if (!(g->mask >> l & 1u)) continue;
        for (uintptr_t s = g->addr[l] >> shift; s <= (g->addr[l] + g->bytes - 1) >> shift; s++)
            if (!seen_before(s, filter, seen, n) && n < 64) seen[n++] = s;
    }
    return n;
}
static int sectors(const request *g) { return distinct(g, 5); }
static int lines(const request *g) { return distinct(g, 7); }

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
static int new_sectors(worker *w, const request *g)
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
static int conflict_ways(const request *g, int *words_out)
{
    uintptr_t words[128];         /* 32 lanes x at most 4 words (a 16-byte access) */
    int n = 0, per_bank[32] = { 0 }, ways = 1;
    uint64_t filter[16] = { 0 };
    for (int l = 0; l < 32; l++) {
        if (!(g->mask >> l & 1u)) continue;
        for (uintptr_t wd = g->addr[l] >> 2; wd <= (g->addr[l] + g->bytes - 1) >> 2 && n < 128; wd++) {
            if (seen_before(wd, filter, words, n)) continue;   /* the same word: a broadcast */
            words[n++] = wd;
            int b = (int)(wd & 31);
            if (++per_bank[b] > ways) ways = per_bank[b];
        }
    }
    *words_out = n;
    return ways;
}

/* The warp met: turn its log into counts and start a new one. */
void simt_flush_warp(worker *w, int warp)
{
    unsigned bit = 1u << (warp % 32);
    if (!(w->dirty_warps[warp / 32] & bit)) return;
    w->dirty_warps[warp / 32] &= ~bit;
    warp_log *wl = &w->warps[warp];
    pw_simt_counters *c = &w->c;
    if (warp == simt_trace_warp && !w->block_idx.x && !w->block_idx.y && !w->block_idx.z) trace_flush(w, wl);
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
            if (!sl->g[k].mask) continue;
            c->warp_steps++;
            c->active_lanes += __builtin_popcount(sl->g[k].mask);
            if (sl->kind == K_ATOMIC) continue;
            request req, *g = &req;
            expand(sl, &sl->g[k], &req);
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

void simt_flush_all(worker *w)
{
    for (int i = 0; i < w->nwarps; i++) simt_flush_warp(w, i);
}
