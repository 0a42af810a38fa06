/* common/simt/simt_launch.c: the SIMT emulator's scheduler and launch (see
 * simt.h for what the emulator offers), the running thread's indices, the
 * public settings and the counters: the top of the emulator. The rest is
 * split by concern, each file calling only those before it in this list:
 * simt_state.c (state and settings), simt_queue.c (the device's queue, its
 * thread, the host's waits), simt_lines.c (source lines), simt_report.c
 * (errors, reports, the lane map, the warp logs), simt_memory.c (device
 * memory, the shared-memory arena, the exit), simt_api_memory.c and
 * simt_api_device.c (pitched and 3-D copies, symbols; the device's
 * properties), simt_sync.c (barriers, warp collectives), simt_coalesce.c
 * (coalesced groups), simt_check.c (checking one access, the hooks),
 * simt_wmma.c (the tensor cores), simt_stream.c (streams, events,
 * callbacks, asynchronous copies), simt_grid.c (cooperative launches,
 * grid.sync()). simt_state.h is what they share, simt_api.h the C
 * interface.
 *
 * How a launch runs. pw_simt_launch checks the configuration and queues the
 * launch on its stream; the host goes on, and the device thread
 * (simt_queue.c) runs it when its turn comes: run_launch hands the
 * blocks out to workers (OS threads; the device thread is one of them). A worker runs one block at a time: each
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
#include "simt_state.h"

/* ---- the settings, as programs set and read them ------------------------------------ */

/* The setters wait for the work issued before them: a launch runs with the
 * settings in force when it was issued. */
void pw_simt_set_quiet(bool q) { simt_device_idle(); simt_quiet = q; }
void pw_simt_set_shuffle(uint64_t seed) { simt_device_idle(); simt_read_settings(); simt_shuffle_seed = seed; }
void pw_simt_set_workers(int n)
{
    simt_device_idle();
    simt_read_settings();
    simt_workers_setting = n < 1 ? simt_default_workers() : n > 256 ? 256 : n;   /* 0: the default */
}
void pw_simt_set_checks(unsigned c) { simt_device_idle(); simt_read_settings(); simt_checks = c & PW_CHECK_ALL; }
void pw_simt_set_spin_limit(long long n)
{
    simt_device_idle();
    simt_read_settings();
    simt_spin_limit = n > 0 ? n : DEFAULT_SPIN_LIMIT;
}
long pw_simt_report_count(void) { simt_device_idle(); return simt_reports; }
const char *pw_simt_last_report(void) { simt_device_idle(); return simt_last_report; }


/* ---- the running thread: indices, clock, trap ------------------------------------------------------ */

uint3 pw_simt_thread_idx(void) { return simt_cur->tid; }
uint3 pw_simt_block_idx(void) { return simt_cur->w->block_idx; }
uint3 pw_simt_block_dim(void) { dim3 d = simt_cur->w->block_dim; return (uint3){ d.x, d.y, d.z }; }
uint3 pw_simt_grid_dim(void) { dim3 d = simt_cur->w->grid_dim; return (uint3){ d.x, d.y, d.z }; }
int pw_simt_in_kernel(void) { return simt_cur != NULL; }

long long pw_simt_clock(void) { return (long long)(pw_now() * 1e9); }

void pw_simt_trap(const char *what, const char *file, int line)
{
    if (!simt_cur) {
        fprintf(stderr, "simt: %s at %s:%d outside a kernel\n", what, file, line);
        abort();
    }
    simt_thread_error("trap", cudaErrorLaunchFailure, "%s at %s:%d stopped the kernel", what, file, line);
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
        simt_yield(t);                 /* resumed for the next block, or to quit */
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
    simt_cur = t;
    pw_fiber_switch(w->sched, t->fiber);
    simt_cur = NULL;
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
            simt_cur = t;
            pw_fiber_switch(w->sched, t->fiber);
            simt_cur = NULL;
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
        simt_thread_list(w, MARK, 0, 0, a, sizeof a);
        simt_thread_list(w, AT_BARRIER, 0, 0, b, sizeof b);
        for (int i = 0; i < T; i++)
            if (w->thr[i]->state == MARK) w->thr[i]->state = AT_BARRIER;
        simt_block_error(w, "synccheck", cudaErrorLaunchFailure,
                    "threads wait at different barriers: threads %s at __syncthreads() at %s:%d, threads %s at "
                    "__syncthreads() at %s:%d. Every thread of a block must reach the same barrier: is one "
                    "inside a branch that not all threads take?", a, f1, l1, b, f2, l2);
        return;
    }
    if (w->nbarrier > 0 && w->nbarrier + w->ndone == T) {
        simt_thread_list(w, AT_BARRIER, 0, 0, a, sizeof a);
        simt_thread_list(w, DONE, 0, 0, b, sizeof b);
        simt_block_error(w, "synccheck", cudaErrorLaunchFailure,
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
            if (simt_same_collective(u, t)) continue;
            simt_thread_list(w, -1, t->warp, t->mask, a, sizeof a);
            const char *why = u->state == DONE ? "has exited"
                              : u->state == AT_BARRIER ? "waits at __syncthreads()"
                              : u->op != t->op || (t->op == PW_WARP_CALL && u->call_fn != t->call_fn) ? "waits at a different collective"
                              : u->mask != t->mask ? "waits at the same collective with another mask"
                              : "waits with another width";
            char at[200] = "";
            if (u->state != DONE) snprintf(at, sizeof at, " at %s:%d", u->wait_file, u->wait_line);
            if (u->state == AT_COLLECTIVE && u->op == PW_WARP_CALL && u->call_fn != t->call_fn)
                snprintf(at, sizeof at, " (%s) at %s:%d", u->call_name, u->wait_file, u->wait_line);
            simt_block_error(w, "synccheck", cudaErrorLaunchFailure,
                        "%s (mask 0x%08x) at %s:%d in warp %d waits for lane %d (thread %d), which %s%s; the "
                        "threads named in the mask (%s) must all call it with the same mask",
                        simt_coll_name(t), t->mask, t->wait_file, t->wait_line, t->warp, l, u->linear, why, at, a);
            return;
        }
    }
    simt_block_error(w, "synccheck", cudaErrorLaunchFailure, "deadlock: %d threads at a barrier, %d done, none can run",
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
    /* PW_SIMT_SHUFFLE: each block's own sequence, whichever worker runs it */
    if (simt_shuffle_seed) w->rng = simt_shuffle_seed ^ ((uint64_t)b + 1) * 0x9E3779B97F4A7C15ull;
    for (;;) {
        bool ran = false;
        if (simt_shuffle_seed)
            for (int i = T - 1; i > 0; i--) {
                int j = (int)(xorshift(&w->rng) % (uint64_t)(i + 1)), tmp = w->order[i];
                w->order[i] = w->order[j];
                w->order[j] = tmp;
            }
        /* A thread that gives way hands the CPU straight to the next runnable
         * one of this pass (simt_sync.c, give_way: one fiber switch, not two
         * through here) and moves w->pos on; it comes back here at the
         * pass's end, or for a thread with no fiber yet, or on an error. */
        for (w->pos = 0; w->pos < T; w->pos++) {
            pw_simt_thread *t = w->thr[w->order[w->pos]];
            if (t->state != RUNNABLE) continue;
            simt_prefetch_next(w, w->pos);
            run_thread(w, t);
            ran = true;
            if (__atomic_load_n(&L->failed, __ATOMIC_ACQUIRE) && simt_block_stopped(w)) {
                w->pool_broken = true;    /* its threads stop mid-kernel: their fibers cannot be reused */
                return;
            }
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
            simt_flush_all(w);
            continue;
        }
        if (!ran || (w->nbarrier > 0 && w->nbarrier + w->ndone == T)) {
            diagnose(w);
            return;
        }
    }
    simt_flush_all(w);
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
    simt_arena_alloc(w);
    w->dyn_bytes = L->cfg.shmem;
    w->static_base = simt_round_up(L->cfg.shmem, 128);
    w->touched = w->static_base + MAX_STATIC_SHARED;   /* the first block starts clean */
    memset(&w->c, 0, sizeof w->c);
    for (int i = 0; i < w->nthreads; i++) {
        pw_simt_thread *t = get_thread(w, i);
        dim3 bd = L->cfg.block;
        t->tid.x = (unsigned)i % bd.x;
        t->tid.y = (unsigned)i / bd.x % bd.y;
        t->tid.z = (unsigned)i / (bd.x * bd.y);
    }
    long long blocks = 0;
    for (;;) {
        /* after an error, no new block: each would come after the failed one */
        if (__atomic_load_n(&L->failed, __ATOMIC_ACQUIRE)) break;
        long long b = __atomic_fetch_add(&L->next, 1, __ATOMIC_RELAXED);
        if (b >= L->nblocks) break;
        simt_order_block_start(w, b);
        run_block(w, b);
        if (L->grid) simt_grid_block_done(w);   /* a cooperative launch: grid.sync() waits no more for it */
        simt_order_block_end(w);
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

/* This OS thread's own worker, at its end. */
static void free_thread_worker(void)
{
    if (!simt_tls_worker) return;
    free_worker(simt_tls_worker);
    simt_tls_worker = NULL;
}

/* A helper thread's share of a launch (simt_pool.c): its own worker, kept. */
static void pool_work(launch *L)
{
    if (!simt_tls_worker) simt_tls_worker = new_worker();
    work(simt_tls_worker, L);
}

/* The device thread ends (simt_queue.c calls it): the helpers, then its own worker. */
static void device_thread_end(void)
{
    simt_pool_stop(free_thread_worker);
    free_thread_worker();
}

/* Runs what is queued, then frees the device thread's fibers. */
void pw_simt_shutdown(void)
{
    simt_device_stop();           /* (returns at once from inside a kernel: exit() there leaves it) */
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

static void run_launch(const pw_simt_config *cfg, void (*thunk)(void *), void *args, size_t args_bytes,
                       bool cooperative);
static void run_kernel(simt_op *o)
{
    run_launch(&o->cfg, o->thunk, o->args, o->args_bytes, o->cooperative);
    free(o->args);
}

/* A launch is checked when issued (a bad configuration is the launch's own
 * error, as on a GPU), then queued on its stream; the device thread runs it
 * (simt_queue.c, run_launch below). The argument block is copied: a GPU
 * copies the parameters when the launch is issued; the caller's copy dies
 * with its frame. */
static void issue_launch(const pw_simt_config *cfg, void (*thunk)(void *), void *args, size_t args_bytes,
                         bool cooperative)
{
    simt_read_settings();
    simt_ensure_atexit();
    char why[160];
    if (simt_cur) {
        fprintf(stderr, "simt: kernel %s launched from inside a kernel (dynamic parallelism is not supported)\n",
                cfg->name);
        abort();
    }
    if (!valid_config(cfg, why, sizeof why)) {
        pthread_mutex_lock(&simt_state_lock);
        snprintf(simt_last_message, sizeof simt_last_message, "simt: kernel %s: invalid launch: %s", cfg->name, why);
        simt_last_error = cudaErrorInvalidConfiguration;
        if (!simt_quiet) fprintf(stderr, "%s\n", simt_last_message);
        pthread_mutex_unlock(&simt_state_lock);
        return;
    }
    simt_op *o = simt_op_new(run_kernel);
    o->cfg = *cfg;
    o->thunk = thunk;
    o->args = malloc(args_bytes ? args_bytes : 1);
    PW_CHECK_ALLOC(o->args, args_bytes);
    memcpy(o->args, args, args_bytes);
    o->args_bytes = args_bytes;
    o->cooperative = cooperative;
    simt_device_thread_end = device_thread_end;
    simt_queue_push(o, cfg->stream);
}

void pw_simt_launch(const pw_simt_config *cfg, void (*thunk)(void *), void *args, size_t args_bytes)
{
    issue_launch(cfg, thunk, args, args_bytes, false);
}

/* cudaLaunchCooperativeKernel, once it has checked that the grid fits
 * (simt_cuda_stream.h): every block at once (simt_grid.c). */
void pw_simt_launch_cooperative(const pw_simt_config *cfg, void (*thunk)(void *), void *args, size_t args_bytes)
{
    issue_launch(cfg, thunk, args, args_bytes, true);
}

/* One launch, on the device thread: its blocks on this thread and on
 * PW_SIMT_WORKERS - 1 helpers of simt_pool.c (a cooperative launch: one OS thread per block,
 * so that every block is alive at once and grid.sync() can gather them). */
static void run_launch(const pw_simt_config *cfg, void (*thunk)(void *), void *args, size_t args_bytes,
                       bool cooperative)
{
    if (!simt_tls_worker) simt_tls_worker = new_worker();
    launch L = { .cfg = *cfg, .thunk = thunk, .args = args, .args_bytes = args_bytes };
    L.nblocks = (long long)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    pthread_mutex_init(&L.lock, NULL);
    memset(simt_launch_reports, 0, sizeof simt_launch_reports);
    simt_launch_suppressed = 0;
    simt_order_begin(&L);
    /* the access log is in block order only when one thread runs the blocks (simt_api.h) */
    long long extra = cooperative ? L.nblocks - 1 : simt_logging() ? 0 : simt_workers_setting - 1;
    if (extra > L.nblocks - 1) extra = L.nblocks - 1;
    if (cooperative) simt_grid_begin(&L);
    simt_race_global_launch(&L);  /* global racecheck: a new launch orders everything before it */
    /* helpers: the pool's, kept between launches; a cooperative launch's, one per block, made for it */
    pthread_t *tids = cooperative && extra > 0 ? malloc((size_t)extra * sizeof *tids) : NULL;
    if (cooperative && extra > 0) PW_CHECK_ALLOC(tids, (size_t)extra * sizeof *tids);
    if (cooperative)
        for (long long i = 0; i < extra; i++) PW_CHECK_PTHREAD(pthread_create(&tids[i], NULL, worker_thread, &L));
    else if (extra > 0)
        simt_pool_start((int)extra, pool_work, &L);
    work(simt_tls_worker, &L);
    if (cooperative)
        for (long long i = 0; i < extra; i++) PW_CHECK_PTHREAD(pthread_join(tids[i], NULL));
    else if (extra > 0)
        simt_pool_wait();
    simt_order_end(&L);           /* the held reports, in block order; the launch's error */
    simt_race_global_launch_end();
    free(tids);
    if (cooperative) simt_grid_end(&L);
    pthread_mutex_destroy(&L.lock);
    if (simt_launch_suppressed && !simt_quiet)
        fprintf(stderr, "simt: kernel %s: %ld more reports like those above, not shown\n", cfg->name,
                simt_launch_suppressed);
    simt_trace_warp = -1;              /* the lane map records one launch */
    L.sum.launches = 1;
    pthread_mutex_lock(&simt_state_lock);   /* (the host reads them after waiting for the device) */
    simt_last_counters = L.sum;
    snprintf(simt_last_kernel, sizeof simt_last_kernel, "%s", cfg->name ? cfg->name : "");
    const long long *src = (const long long *)&L.sum;
    long long *dst = (long long *)&simt_total_counters;
    for (size_t k = 0; k < sizeof L.sum / sizeof(long long); k++) {
        if (counter_is_max(k)) { if (src[k] > dst[k]) dst[k] = src[k]; }
        else dst[k] += src[k];
    }
    pthread_mutex_unlock(&simt_state_lock);
}

/* ---- counters: simt_counters.c (linked only into programs that read them) ---- */

const char *pw_simt_last_kernel(void) { simt_device_idle(); return simt_last_kernel; }

/* ---- the device ------------------------------------------------------------------------------- */

cudaError_t pw_simt_get_device_count(int *n)
{
    *n = 1;
    return cudaSuccess;
}

cudaError_t pw_simt_set_device(int device) { return device == 0 ? cudaSuccess : (simt_last_error = cudaErrorInvalidDevice); }
cudaError_t pw_simt_get_device(int *device)
{
    *device = 0;
    return cudaSuccess;
}

/* cudaGetDeviceProperties, cudaDeviceGetAttribute: simt_api_device.c (the device file's figures);
 * events: simt_stream.c */
