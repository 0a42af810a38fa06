/* common/simt/simt_stream.c: streams, events, host callbacks and
 * asynchronous copies: what the host calls; the queue they go on, its
 * thread and the waits are simt_queue.c.
 *
 * What a GPU does, and what this does. A launch, a cudaMemcpyAsync, a
 * cudaMemsetAsync, an event record and a host callback are queued on their
 * stream and the host goes on; the device runs each stream's work in the
 * order it was issued. Here the device is one OS thread (the device thread,
 * started at the first queued operation), which takes the operations in
 * the order the host issued them, over all streams, and runs each to its
 * end: a kernel's blocks on the workers of simt_launch.c (the device thread is one
 * of them), a copy with memmove, a record by reading the clock, a callback
 * by calling it. One order over all streams is one of the schedules CUDA
 * allows (it promises no concurrency between streams; the device reports
 * concurrentKernels = 0): every stream's own order holds, the legacy
 * default stream's (its work waits for every blocking stream's earlier
 * work, and theirs for its) and cudaStreamWaitEvent's (an event's record
 * was issued before the wait on it) hold by construction, and a
 * cudaStreamNonBlocking stream is never waited for by the host's blocking
 * calls (cudaMemcpy waits only for blocking streams' work).
 *
 * Where the host waits (an implicit synchronise, said in each place): the
 * blocking cudaMemcpy, cudaMemset and symbol copies wait for the blocking
 * streams' earlier work, as on a GPU; cudaMalloc, cudaFree and
 * cudaDeviceReset wait for the device to be idle (cudaFree does on a GPU;
 * here the allocation table, which kernels read without a lock, changes
 * only while no kernel runs); the emulator's own accessors (counters, last
 * error and report, access log, lane map) and settings wait for the work
 * issued before them, so a program that reads a launch's counters right
 * after it sees that launch's numbers. PW_SIMT_SYNC_LAUNCH=1 makes every
 * queued operation finish before the call that issued it returns (the old
 * synchronous emulator, for debugging).
 *
 * At exit the queued work runs first (the CUDA runtime's teardown waits for
 * it too), so its reports count towards the exit status. */
#define _GNU_SOURCE
#include "simt_state.h"

/* An operation of this file, queued after the emulator's exit handlers are in place. */
static void issue(simt_op *o, cudaStream_t s)
{
    simt_ensure_atexit();
    simt_queue_push(o, s);
}

static void run_copy(simt_op *o) { pw_simt_memcpy(o->dst, o->src, o->bytes, o->copy_kind); }   /* checked when issued */
static void run_set(simt_op *o) { pw_simt_memset(o->dst, o->value, o->bytes); }
static void run_host_fn(simt_op *o) { o->fn(o->data); }
static void run_callback(simt_op *o) { o->cb(o->stream, pw_simt_peek_error_now(), o->data); }

cudaError_t pw_simt_device_synchronize(void)
{
    simt_device_idle();
    return pw_simt_peek_error_now();   /* a kernel's error surfaces here, as on a GPU */
}

/* ---- streams ---------------------------------------------------------------------------- */

cudaError_t pw_simt_stream_create_with_flags(cudaStream_t *s, unsigned flags)
{
    if (!s || (flags & ~(unsigned)SIMT_STREAM_NON_BLOCKING)) return pw_simt_record_error(cudaErrorInvalidValue);
    *s = calloc(1, sizeof **s);
    if (!*s) return pw_simt_record_error(cudaErrorMemoryAllocation);
    (*s)->flags = flags;
    return cudaSuccess;
}
cudaError_t pw_simt_stream_create(cudaStream_t *s) { return pw_simt_stream_create_with_flags(s, 0); }

/* A GPU returns at once and frees the stream when its work is done: the
 * queued operations keep only the handle, so it can go now. */
cudaError_t pw_simt_stream_destroy(cudaStream_t s)
{
    if (simt_is_legacy(s)) return pw_simt_record_error(cudaErrorInvalidResourceHandle);
    simt_stream_free(s);
    return cudaSuccess;
}

cudaError_t pw_simt_stream_synchronize(cudaStream_t s)
{
    simt_wait_stream(s);
    return pw_simt_peek_error_now();
}

cudaError_t pw_simt_stream_query(cudaStream_t s)
{
    return simt_stream_idle(s) ? cudaSuccess : cudaErrorNotReady;   /* not ready is not an error: the last error stays */
}

cudaError_t pw_simt_stream_get_flags(cudaStream_t s, unsigned *flags)
{
    if (!flags) return pw_simt_record_error(cudaErrorInvalidValue);
    *flags = simt_stream_of(s)->flags;
    return cudaSuccess;
}

/* The device runs the operations in the order issued, and the event's
 * record was issued before this call: s's later work already comes after it. */
cudaError_t pw_simt_stream_wait_event(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
    (void)s;
    if (!e) return pw_simt_record_error(cudaErrorInvalidResourceHandle);
    if (flags) return pw_simt_record_error(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t pw_simt_launch_host_func(cudaStream_t s, void (*fn)(void *), void *data)
{
    if (!fn) return pw_simt_record_error(cudaErrorInvalidValue);
    simt_op *o = simt_op_new(run_host_fn);
    o->fn = fn;
    o->data = data;
    issue(o, s);
    return cudaSuccess;
}

cudaError_t pw_simt_stream_add_callback(cudaStream_t s, void (*cb)(cudaStream_t, cudaError_t, void *), void *data,
                                        unsigned flags)
{
    if (!cb || flags) return pw_simt_record_error(cudaErrorInvalidValue);   /* flags: "must be 0" */
    simt_op *o = simt_op_new(run_callback);
    o->cb = cb;
    o->data = data;
    issue(o, s);
    return cudaSuccess;
}

/* ---- asynchronous copies ----------------------------------------------------------------- */

/* The allocation kind of [p, p+bytes), or -1: pageable host memory (or no memory). */
static int kind_of(const void *p, size_t bytes)
{
    pthread_mutex_lock(&simt_state_lock);
    long i = simt_find_alloc(p, bytes);
    int k = i >= 0 ? simt_allocs[i].kind : -1;
    pthread_mutex_unlock(&simt_state_lock);
    return k;
}

/* A copy that names host memory the emulator did not allocate (malloc, the
 * stack: pageable memory) is synchronous, as CUDA's is for pageable memory:
 * it waits for the stream's earlier work, copies, and returns. Copies
 * between device, managed and pinned memory (cudaMallocHost) are queued. */
cudaError_t pw_simt_memcpy_async(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s)
{
    if ((unsigned)kind > cudaMemcpyDefault) return pw_simt_record_error(cudaErrorInvalidMemcpyDirection);
    bool to_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool from_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    int dk = kind_of(dst, bytes), sk = kind_of(src, bytes);
    if ((to_device && dk < 0) || (from_device && sk < 0)) return pw_simt_record_error(cudaErrorInvalidValue);
    if (!bytes) return cudaSuccess;
    if (dk < 0 || sk < 0) {
        simt_wait_stream(s);
        return pw_simt_memcpy(dst, src, bytes, kind);
    }
    simt_op *o = simt_op_new(run_copy);
    o->dst = dst;
    o->src = src;
    o->bytes = bytes;
    o->copy_kind = kind;
    issue(o, s);
    return cudaSuccess;
}

/* Queued, but for pinned host memory (there CUDA's is synchronous too). */
cudaError_t pw_simt_memset_async(void *p, int value, size_t bytes, cudaStream_t s)
{
    int k = kind_of(p, bytes);
    if (k < 0) return pw_simt_record_error(cudaErrorInvalidValue);
    if (!bytes) return cudaSuccess;
    if (k == ALLOC_HOST) {
        simt_wait_stream(s);
        return pw_simt_memset(p, value, bytes);
    }
    simt_op *o = simt_op_new(run_set);
    o->dst = p;
    o->value = value;
    o->bytes = bytes;
    issue(o, s);
    return cudaSuccess;
}

/* ---- events ------------------------------------------------------------------------------- */

cudaError_t pw_simt_event_create_with_flags(cudaEvent_t *e, unsigned flags)
{
    if (!e) return pw_simt_record_error(cudaErrorInvalidValue);
    *e = calloc(1, sizeof **e);
    if (!*e) return pw_simt_record_error(cudaErrorMemoryAllocation);
    (*e)->flags = flags;
    return cudaSuccess;
}
cudaError_t pw_simt_event_create(cudaEvent_t *e) { return pw_simt_event_create_with_flags(e, 0); }

cudaError_t pw_simt_event_record(cudaEvent_t e, cudaStream_t s)
{
    if (!e) return pw_simt_record_error(cudaErrorInvalidResourceHandle);
    simt_ensure_atexit();
    simt_queue_record(e, s);
    return cudaSuccess;
}

/* Never recorded: complete, as CUDA says. */
cudaError_t pw_simt_event_query(cudaEvent_t e)
{
    if (!e) return pw_simt_record_error(cudaErrorInvalidResourceHandle);
    return simt_seq_done(simt_event_seq(e)) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t pw_simt_event_synchronize(cudaEvent_t e)
{
    if (!e) return pw_simt_record_error(cudaErrorInvalidResourceHandle);
    simt_wait_seq(simt_event_seq(e));
    return pw_simt_peek_error_now();
}

/* The host's time between the two records' runs on the device thread: real
 * elapsed time of the emulator, which says nothing about a GPU's. */
cudaError_t pw_simt_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    if (!ms) return pw_simt_record_error(cudaErrorInvalidValue);
    if (!start || !stop) return pw_simt_record_error(cudaErrorInvalidResourceHandle);
    double t0, t1;
    int r = simt_event_times(start, stop, &t0, &t1);
    if (r < 0) return pw_simt_record_error(cudaErrorInvalidResourceHandle);
    if (r == 0) return cudaErrorNotReady;   /* not ready is not an error: the last error stays */
    *ms = (float)((t1 - t0) * 1e3);
    return cudaSuccess;
}

/* A record still queued holds the event: wait for it, then free. */
cudaError_t pw_simt_event_destroy(cudaEvent_t e)
{
    if (!e) return pw_simt_record_error(cudaErrorInvalidResourceHandle);
    simt_wait_seq(simt_event_seq(e));
    free(e);
    return cudaSuccess;
}
