/* common/simt/simt_sync.c: meeting points of the emulated threads: barriers
 * (__syncthreads and its predicates) and the warp collectives (votes,
 * shuffles, reductions, match, PW_WARP_CALL). */
#define _GNU_SOURCE
#include "simt_state.h"

/* ---- barriers ---------------------------------------------------------------------------------- */

/* Give the CPU away until someone makes this thread runnable again: to
 * the next runnable thread of the scheduler's pass (run_block in
 * simt_launch.c), the one it would have run next, so the order is the
 * scheduler's; back to the scheduler at the pass's end (it opens barriers,
 * finds deadlocks), for a thread whose fiber it has not made yet, or when
 * an error stopped the launch. One fiber switch per thread at a barrier
 * instead of two (there and back through the scheduler's loop). */
/* The thread after position k will likely run next: start loading its
 * struct and the top of its stack, which the switch to it would otherwise
 * wait for (256 threads' stacks and structs do not stay in L1 from one
 * barrier to the next). On cuda-samples' scan (2 of its 100 rounds, one
 * worker) it took the CPU time from 43.0 s to 38.8 s; prefetching 2 and 3
 * threads ahead as well, or giving each stack's top another cache set,
 * gained nothing more. */
void simt_prefetch_next(worker *w, int k)
{
    if (k + 1 >= w->nthreads) return;
    pw_simt_thread *n = w->thr[w->order[k + 1]];
    __builtin_prefetch(n);
    if (n->fiber) pw_fiber_prefetch(n->fiber);
}

static void give_way(pw_simt_thread *t)
{
    worker *w = t->w;
    if (!__atomic_load_n(&w->L->failed, __ATOMIC_ACQUIRE) || !simt_block_stopped(w))
        for (int k = w->pos + 1; k < w->nthreads; k++) {
            pw_simt_thread *u = w->thr[w->order[k]];
            if (u->state != RUNNABLE) continue;
            if (!u->fiber) break;
            w->pos = k;
            u->started = true;
            simt_cur = u;
            simt_prefetch_next(w, k);
            pw_fiber_switch(t->fiber, u->fiber);
            return;               /* whoever switched back to t set simt_cur */
        }
    pw_fiber_switch(t->fiber, w->sched);
}

void simt_yield(pw_simt_thread *t)
{
    t->slice = 0;
    give_way(t);
}

/* SLICE accesses in a row: let the others run (a spinning thread must not
 * starve the one it waits for), and call a block that changes nothing for
 * spin_limit accesses a livelock. */
void simt_preempt(pw_simt_thread *t, const void *site)
{
    worker *w = t->w;
    t->slice = 0;
    if (w->no_progress > simt_spin_limit) {
        char list[256], where[200] = "";
        simt_thread_list(w, RUNNABLE, 0, 0, list, sizeof list);
        if (site) simt_site_text(site, where, sizeof where);
        simt_thread_error("livelock", cudaErrorLaunchTimeout,
                     "no progress at %s: %lld memory accesses since anything in this block was written, reached a barrier or "
                     "finished (PW_SIMT_SPIN_LIMIT=%lld). Threads %s still run, waiting for something that never "
                     "comes: a flag no thread of this block sets? (blocks are not promised to run at the same time, "
                     "so waiting for another block can hang a GPU too)", where[0] ? where : "a wait", w->no_progress,
                     simt_spin_limit, list);
    }
    give_way(t);
}

void pw_simt_yield(void)
{
    pw_simt_thread *t = simt_cur;
    if (!t) return;
    t->w->no_progress += SLICE / 4;   /* waiting: not progress, and the budget still runs out */
    simt_preempt(t, __builtin_return_address(0));
}

void pw_simt_syncthreads(const char *file, int line)
{
    pw_simt_syncthreads_op(0, 0, file, line);
}

int pw_simt_syncthreads_op(int op, int pred, const char *file, int line)
{
    pw_simt_thread *t = simt_cur;
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
    simt_yield(t);
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
const char *simt_coll_name(const pw_simt_thread *t) { return t->op == PW_WARP_CALL ? t->call_name : op_name(t->op); }

/* Two lanes wait at the same collective. */
bool simt_same_collective(const pw_simt_thread *u, const pw_simt_thread *t)
{
    return u->state == AT_COLLECTIVE && u->op == t->op && u->mask == t->mask && u->width == t->width &&
           (t->op != PW_WARP_CALL || u->call_fn == t->call_fn);
}

/* The lanes that exist in warp `warp` (the last warp of a block may be short). */
static unsigned lanes_of_warp(worker *w, int warp)
{
    int n = w->nthreads - warp * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

unsigned pw_simt_activemask(void)
{
    pw_simt_thread *t = simt_cur;
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
                simt_thread_error("synccheck", cudaErrorLaunchFailure,
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
    if ((mask & lanes_of_warp(w, t->warp)) == lanes_of_warp(w, t->warp)) simt_flush_warp(w, t->warp);
    return t->result;
}

uint64_t pw_simt_collect(pw_simt_collective op, unsigned mask, uint64_t value, int arg, int width,
                         const char *file, int line)
{
    pw_simt_thread *t = simt_cur;
    if (!t) {
        fprintf(stderr, "simt: %s at %s:%d outside a kernel\n", op_name(op), file, line);
        abort();
    }
    worker *w = t->w;
    unsigned exists = lanes_of_warp(w, t->warp);
    if (!(mask >> t->lane & 1u))
        simt_thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d with mask 0x%08x, which leaves out the "
                     "calling lane %d: a lane must name itself in the mask", op_name(op), file, line, mask, t->lane);
    if (mask & ~exists)
        simt_thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d with mask 0x%08x names lanes that do not "
                     "exist: warp %d of this block of %d threads has only the lanes 0x%08x", op_name(op), file,
                     line, mask, t->warp, w->nthreads, exists);
    if (op <= PW_SHFL_XOR && (width < 1 || width > 32 || (width & (width - 1))))
        simt_thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d with width %d: the width must be a power "
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
            simt_thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d: lane %d, named in the mask 0x%08x, has "
                         "already exited", simt_coll_name(t), file, line, l, mask);
        all = simt_same_collective(u, t);
    }
    if (all) return complete(w, t);
    simt_yield(t);
    return t->result;
}

void pw_simt_warp_call(const char *name, pw_simt_warp_fn fn, void *lane_arg, const char *file, int line)
{
    pw_simt_thread *t = simt_cur;
    if (!t) {
        fprintf(stderr, "simt: %s at %s:%d outside a kernel\n", name, file, line);
        abort();
    }
    worker *w = t->w;
    unsigned lanes = lanes_of_warp(w, t->warp);
    if (lanes != 0xffffffffu)
        simt_thread_error("synccheck", cudaErrorLaunchFailure, "%s at %s:%d in warp %d, which has only %d threads (the "
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
    if (!simt_cur) {
        fprintf(stderr, "simt: %s\n", msg);
        abort();
    }
    simt_thread_error(tool, code, "%s", msg);
}

int pw_simt_lane(void) { return simt_cur ? simt_cur->lane : 0; }
void pw_simt_count_mma(void) { if (simt_cur) simt_cur->w->c.mma_ops++; }
