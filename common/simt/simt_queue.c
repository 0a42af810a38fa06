/* common/simt/simt_queue.c: the emulated device's queue, its thread, and
 * the host's waits for it (simt_stream.c says what a GPU does and what the
 * emulator does instead; this file is the machinery).
 *
 * The device is one OS thread (the device thread, started at the first
 * queued operation), which takes the operations in the order the host
 * issued them, over all streams, and runs each to its end by calling its
 * run(). Each operation gets a sequence number when issued (seq, from 1); the
 * device finishes them in that order, so "everything up to done_seq has
 * finished" is the whole state: a stream is idle when its last operation's
 * number is <= done_seq, an event complete when its last record's is.
 *
 * The queue knows no kind of operation but the event record (it stamps the
 * event under its own lock); kernels, copies and callbacks bring their own
 * run(), so this file calls nothing above simt_state.c, and every other
 * file may wait for the device. */
#define _GNU_SOURCE
#include "simt_state.h"

static struct pw_simt_stream legacy_stream;   /* stream 0 (and cudaStreamLegacy, cudaStreamPerThread) */

/* All of the queue's state, and the streams' and events' seq fields, are guarded by q_lock. */
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_work = PTHREAD_COND_INITIALIZER;   /* the device thread waits for work */
static pthread_cond_t q_done = PTHREAD_COND_INITIALIZER;   /* the host waits for done_seq */
static simt_op *q_head, *q_tail;
static long long issued_seq, done_seq;
static long long blocking_last;   /* the last operation issued to the legacy stream or a blocking stream */
static pthread_t device_thread;
static bool device_running, device_quit, exit_registered;
static bool sync_launch, sync_launch_read;
static _Thread_local bool on_device;   /* this thread is the device thread */
void (*simt_device_thread_end)(void);

static bool sync_mode(void)
{
    if (!sync_launch_read) {      /* (under q_lock) */
        const char *s = getenv("PW_SIMT_SYNC_LAUNCH");
        sync_launch = s && *s && strcmp(s, "0") != 0;
        sync_launch_read = true;
    }
    return sync_launch;
}

/* CUDA's special handles: 0, cudaStreamLegacy (1) and cudaStreamPerThread
 * (2) are the one default stream here (a program with one host thread
 * cannot tell per-thread from legacy but for the blocking rule). */
struct pw_simt_stream *simt_stream_of(cudaStream_t s)
{
    return (uintptr_t)s <= 2 ? &legacy_stream : s;
}
bool simt_is_legacy(cudaStream_t s) { return simt_stream_of(s) == &legacy_stream; }

bool simt_on_device_thread(void) { return on_device; }

/* ---- the device thread ------------------------------------------------------------------- */

static void *device_main(void *arg)
{
    (void)arg;
    on_device = true;
    pthread_mutex_lock(&q_lock);
    for (;;) {
        while (!q_head && !device_quit) pthread_cond_wait(&q_work, &q_lock);
        if (!q_head) break;
        simt_op *o = q_head;
        q_head = o->next;
        if (!q_head) q_tail = NULL;
        pthread_mutex_unlock(&q_lock);
        o->run(o);
        pthread_mutex_lock(&q_lock);
        done_seq = o->seq;
        pthread_cond_broadcast(&q_done);
        free(o);
    }
    pthread_mutex_unlock(&q_lock);
    if (simt_device_thread_end) simt_device_thread_end();   /* its fibers and shared-memory arena */
    return NULL;
}

/* Run what is queued, then end the device thread (at exit, and in
 * pw_simt_shutdown); the next queued operation starts a new one. */
void simt_device_stop(void)
{
    if (on_device || simt_cur) return;    /* exit() from a kernel or a callback: the device cannot wait for itself */
    pthread_mutex_lock(&q_lock);
    bool running = device_running;
    device_quit = true;
    pthread_cond_signal(&q_work);
    pthread_mutex_unlock(&q_lock);
    if (running) PW_CHECK_PTHREAD(pthread_join(device_thread, NULL));
    pthread_mutex_lock(&q_lock);
    device_running = false;
    device_quit = false;
    pthread_mutex_unlock(&q_lock);
}

static void at_exit_drain(void) { simt_device_stop(); }

simt_op *simt_op_new(void (*run)(simt_op *o))
{
    simt_op *o = calloc(1, sizeof *o);
    PW_CHECK_ALLOC(o, sizeof *o);
    o->run = run;
    return o;
}

/* Queue o on stream s (takes o). Returns its sequence number. The caller
 * has registered the emulator's exit handlers (simt_ensure_atexit) first:
 * the drain registered here runs before them, so the leak check and the
 * exit status see the finished work. */
long long simt_queue_push(simt_op *o, cudaStream_t s)
{
    struct pw_simt_stream *st = simt_stream_of(s);
    o->stream = s;
    o->next = NULL;
    pthread_mutex_lock(&q_lock);
    if (!exit_registered) { exit_registered = true; atexit(at_exit_drain); }
    long long seq = o->seq = ++issued_seq;
    st->last = seq;
    if (!(st->flags & SIMT_STREAM_NON_BLOCKING)) blocking_last = seq;
    if (o->event) o->event->seq = seq;
    if (q_tail) q_tail->next = o; else q_head = o;
    q_tail = o;
    if (!device_running) {
        device_running = true;
        PW_CHECK_PTHREAD(pthread_create(&device_thread, NULL, device_main, NULL));
    }
    pthread_cond_signal(&q_work);
    bool wait = sync_mode();
    pthread_mutex_unlock(&q_lock);
    if (wait) simt_wait_seq(seq);
    return seq;
}

/* ---- events: the queue stamps them ------------------------------------------------------ */

static void run_record(simt_op *o)
{
    double now = pw_now();
    pthread_mutex_lock(&q_lock);
    if (o->event->seq == o->seq) o->event->t = now;   /* (recorded again since: the later record's time) */
    pthread_mutex_unlock(&q_lock);
}

void simt_queue_record(cudaEvent_t e, cudaStream_t s)
{
    simt_op *o = simt_op_new(run_record);
    o->event = e;
    simt_queue_push(o, s);
}

long long simt_event_seq(cudaEvent_t e)
{
    pthread_mutex_lock(&q_lock);
    long long seq = e->seq;
    pthread_mutex_unlock(&q_lock);
    return seq;
}

int simt_event_times(cudaEvent_t start, cudaEvent_t stop, double *t0, double *t1)
{
    pthread_mutex_lock(&q_lock);
    int r = 1;
    if (!start->seq || !stop->seq || ((start->flags | stop->flags) & SIMT_EVENT_DISABLE_TIMING)) r = -1;
    else if (done_seq < start->seq || done_seq < stop->seq) r = 0;
    else { *t0 = start->t; *t1 = stop->t; }
    pthread_mutex_unlock(&q_lock);
    return r;
}

/* ---- waits and queries -------------------------------------------------------------------- */

/* Wait until every operation up to seq has finished. The device thread and
 * kernel code never wait (the device cannot wait for itself: a callback
 * that calls CUDA is an error on a GPU too). */
void simt_wait_seq(long long seq)
{
    if (on_device || simt_cur) return;
    pthread_mutex_lock(&q_lock);
    while (done_seq < seq) pthread_cond_wait(&q_done, &q_lock);
    pthread_mutex_unlock(&q_lock);
}

bool simt_seq_done(long long seq)
{
    pthread_mutex_lock(&q_lock);
    bool done = done_seq >= seq;
    pthread_mutex_unlock(&q_lock);
    return done;
}

/* Everything issued so far (cudaDeviceSynchronize). */
void simt_device_idle(void)
{
    pthread_mutex_lock(&q_lock);
    long long seq = issued_seq;
    pthread_mutex_unlock(&q_lock);
    simt_wait_seq(seq);
}

/* The blocking streams' earlier work (what a blocking cudaMemcpy waits for). */
void simt_wait_legacy(void)
{
    pthread_mutex_lock(&q_lock);
    long long seq = blocking_last;
    pthread_mutex_unlock(&q_lock);
    simt_wait_seq(seq);
}

static long long stream_last(cudaStream_t s)   /* (under q_lock) */
{
    struct pw_simt_stream *st = simt_stream_of(s);
    return st == &legacy_stream ? blocking_last : st->last;   /* the legacy stream waits for the blocking ones */
}

void simt_wait_stream(cudaStream_t s)
{
    pthread_mutex_lock(&q_lock);
    long long seq = stream_last(s);
    pthread_mutex_unlock(&q_lock);
    simt_wait_seq(seq);
}

bool simt_stream_idle(cudaStream_t s)
{
    pthread_mutex_lock(&q_lock);
    bool idle = done_seq >= stream_last(s);
    pthread_mutex_unlock(&q_lock);
    return idle;
}

/* The queued operations keep only the handle, so a stream can go at once. */
void simt_stream_free(cudaStream_t s)
{
    pthread_mutex_lock(&q_lock);
    free(s);
    pthread_mutex_unlock(&q_lock);
}
