/* kernels/threads.c: placing threads, and the counters of chapter 03.
 *
 * Several loops below go through `volatile` on purpose, and each says why:
 * without it the optimiser would (legally) keep the counter in a register
 * and store it once at the end, and the thing the chapter measures (a lost
 * update, a cache line bouncing between cores) would never happen.
 */
#ifdef __linux__
#define _GNU_SOURCE   /* sched_setaffinity, CPU_SET: Linux only */
#include <sched.h>
#else
#define _POSIX_C_SOURCE 200809L   /* sysconf */
#endif
#include "threads.h"

#include "errcheck.h"
#include "util.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- placement ----------------------------------------------------------- */

bool threads_can_pin(void)
{
#ifdef __linux__
    return true;
#else
    return false;
#endif
}

/* The CPUs we may run on, in order, into cpus[0..max); returns how many. */
static int allowed_cpus(int *cpus, int max)
{
    int n = 0;
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE && n < max; c++)
            if (CPU_ISSET(c, &set)) cpus[n++] = c;
#endif
    if (n == 0) {   /* no mask (not Linux): the online cores, unpinned anyway */
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        for (long c = 0; c < (online > 0 ? online : 1) && n < max; c++) cpus[n++] = (int)c;
    }
    return n;
}

int threads_cpus(void)
{
    int cpus[1024];
    return allowed_cpus(cpus, 1024);
}

/* What a new thread needs: the caller's function and argument, and its CPU. */
typedef struct {
    void *(*fn)(void *);
    void *arg;
    int cpu;            /* -1: leave it to the scheduler */
} launch;

/* A thread's first act: move onto its CPU (the scheduler moves it there at
 * once), then do the work. */
static void *trampoline(void *p)
{
    launch *l = p;
#ifdef __linux__
    if (l->cpu >= 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(l->cpu, &one);
        /* A failure (a CPU taken away meanwhile) leaves the thread unpinned:
         * the run is still right, only its placement is not what was asked. */
        (void)sched_setaffinity(0, sizeof one, &one);
    }
#endif
    return l->fn(l->arg);
}

void threads_run(int T, void *(*fn)(void *), void *args, size_t stride, threads_placement where)
{
    pthread_t *tid = malloc((size_t)T * sizeof *tid);
    launch *l = malloc((size_t)T * sizeof *l);
    PW_CHECK_ALLOC(tid, (size_t)T * sizeof *tid);
    PW_CHECK_ALLOC(l, (size_t)T * sizeof *l);
    int cpus[1024];
    int ncpu = allowed_cpus(cpus, 1024);
    for (int t = 0; t < T; t++) {
        l[t].fn = fn;
        l[t].arg = (char *)args + (size_t)t * stride;
        l[t].cpu = !threads_can_pin() || where == THREADS_ANYWHERE ? -1
                 : where == THREADS_ONE_CORE ? cpus[0] : cpus[t % ncpu];
        PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, trampoline, &l[t]));
    }
    for (int t = 0; t < T; t++) PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));
    free(tid);
    free(l);
}

void threads_block(long long n, int T, int t, long long *lo, long long *hi)
{
    long long base = n / T, extra = n % T;
    *lo = t * base + (t < extra ? t : extra);
    *hi = *lo + base + (t < extra ? 1 : 0);
}

/* ---- the shared counter ---------------------------------------------------- */

/* One thread's part of a counter run: how many updates, and where. */
typedef struct {
    long long updates;              /* this thread's share of the total */
    volatile long long *shared;     /* racy: the one shared counter */
    _Atomic long long *atomic;      /* atomic: the one shared counter */
    long long *locked;              /* mutex: the one shared counter ... */
    pthread_mutex_t *lock;          /* ... and the lock that guards it */
    long long mine;                 /* partial: this thread's own count, read after the join */
} counter_arg;

/* `c = c + 1` on the shared counter, `updates` times. volatile forces one
 * load and one store per update: without it gcc -O3 turns the whole loop
 * into `c += updates` (one read-modify-write per THREAD, so two threads
 * almost never overlap and the race hides). volatile is not synchronisation:
 * two threads can still both load 41 and both store 42. ThreadSanitizer
 * reports this function as a data race, which is the point. */
static void *racy_worker(void *p)
{
    counter_arg *a = p;
    volatile long long *c = a->shared;
    long long updates = a->updates;   /* locals: a volatile store could alias *a, forcing reloads */
    for (long long i = 0; i < updates; i++) *c = *c + 1;
    return NULL;
}

/* Lock, update, unlock, per update: right, but every update now waits for
 * the lock and moves its cache line (and the counter's) between cores. */
static void *mutex_worker(void *p)
{
    counter_arg *a = p;
    for (long long i = 0; i < a->updates; i++) {
        PW_CHECK_PTHREAD(pthread_mutex_lock(a->lock));
        *a->locked = *a->locked + 1;
        PW_CHECK_PTHREAD(pthread_mutex_unlock(a->lock));
    }
    return NULL;
}

/* One indivisible read-modify-write. Relaxed order is enough: the count is
 * read only after pthread_join, which orders everything before it. (On x86
 * every atomic RMW is a full barrier anyway: relaxed and seq_cst compile to
 * the same lock xadd.) */
static void *atomic_worker(void *p)
{
    counter_arg *a = p;
    _Atomic long long *c = a->atomic;
    long long updates = a->updates;
    for (long long i = 0; i < updates; i++) atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
    return NULL;
}

/* Count privately, publish once. The private counter is volatile only so
 * that each update is the same load, add and store as racy_worker's: the
 * difference in cost is then the sharing alone. (Without volatile the
 * compiler adds `updates` in one instruction, which is legal here since no
 * other thread can see the variable, and even faster.) It lives on this
 * thread's stack, far from the other threads' counters: no false sharing. */
static void *partial_worker(void *p)
{
    counter_arg *a = p;
    volatile long long mine = 0;
    long long updates = a->updates;
    for (long long i = 0; i < updates; i++) mine = mine + 1;
    a->mine = mine;
    return NULL;
}

/* Shares out `total` over T threads, runs `fn` on them, returns the args. */
static counter_arg *counter_args(long long total, int T)
{
    counter_arg *args = calloc((size_t)T, sizeof *args);
    PW_CHECK_ALLOC(args, (size_t)T * sizeof *args);
    for (int t = 0; t < T; t++) {
        long long lo, hi;
        threads_block(total, T, t, &lo, &hi);
        args[t].updates = hi - lo;
    }
    return args;
}

long long counter_racy(long long total, int T)
{
    volatile long long c = 0;
    counter_arg *args = counter_args(total, T);
    for (int t = 0; t < T; t++) args[t].shared = &c;
    threads_run(T, racy_worker, args, sizeof *args, THREADS_ANYWHERE);
    free(args);
    return c;
}

long long counter_mutex(long long total, int T)
{
    long long c = 0;
    pthread_mutex_t lock;
    PW_CHECK_PTHREAD(pthread_mutex_init(&lock, NULL));
    counter_arg *args = counter_args(total, T);
    for (int t = 0; t < T; t++) { args[t].locked = &c; args[t].lock = &lock; }
    threads_run(T, mutex_worker, args, sizeof *args, THREADS_ANYWHERE);
    PW_CHECK_PTHREAD(pthread_mutex_destroy(&lock));
    free(args);
    return c;
}

long long counter_atomic(long long total, int T)
{
    _Atomic long long c = 0;
    counter_arg *args = counter_args(total, T);
    for (int t = 0; t < T; t++) args[t].atomic = &c;
    threads_run(T, atomic_worker, args, sizeof *args, THREADS_ANYWHERE);
    free(args);
    return atomic_load(&c);
}

long long counter_partial(long long total, int T)
{
    counter_arg *args = counter_args(total, T);
    threads_run(T, partial_worker, args, sizeof *args, THREADS_ANYWHERE);
    long long c = 0;
    for (int t = 0; t < T; t++) c += args[t].mine;   /* the one combine, after the join */
    free(args);
    return c;
}

/* ---- false sharing ----------------------------------------------------------- */

/* Thread t's counter, and how often to bump it. */
typedef struct {
    volatile long long *slot;
    long long per;
} tally_arg;

/* slot = slot + 1, `per` times. volatile makes each update a real load and
 * store to memory (to L1, when the line is ours): without it gcc and clang
 * keep the counter in a register and store once, and the cache line is
 * touched once per thread instead of once per update, hiding the effect.
 * No other thread touches this slot: there is no race, only a shared line. */
static void *tally_worker(void *p)
{
    tally_arg *a = p;
    /* Locals: a store through a volatile long long * might alias a->per, so
     * the compiler would reload a->per (and a->slot) after every store. */
    volatile long long *slot = a->slot;
    long long per = a->per;
    for (long long i = 0; i < per; i++) *slot = *slot + 1;
    return NULL;
}

/* Counters `spacing` bytes apart in one 64-byte aligned block, rounded up to
 * whole lines so that no other allocation shares a line with them. */
static void tally(long long per, int T, long long *out, size_t spacing)
{
    char *block = pw_alloc_bytes(pw_ceil_div((size_t)T * spacing, THREADS_LINE) * THREADS_LINE);
    tally_arg *args = malloc((size_t)T * sizeof *args);
    PW_CHECK_ALLOC(args, (size_t)T * sizeof *args);
    for (int t = 0; t < T; t++) {
        args[t].slot = (volatile long long *)(block + (size_t)t * spacing);
        *args[t].slot = 0;
        args[t].per = per;
    }
    threads_run(T, tally_worker, args, sizeof *args, THREADS_ANYWHERE);
    for (int t = 0; t < T; t++) out[t] = *args[t].slot;
    free(args);
    pw_free(block);
}

void tally_packed(long long per, int T, long long *out) { tally(per, T, out, sizeof(long long)); }

/* One line per counter: a struct aligned to THREADS_LINE is also padded to
 * it (sizeof is a multiple of the alignment), which is what the exercise
 * asks for with alignas. */
typedef struct {
    alignas(THREADS_LINE) long long count;
} padded_counter;
_Static_assert(sizeof(padded_counter) == THREADS_LINE, "one counter per cache line");

void tally_padded(long long per, int T, long long *out) { tally(per, T, out, sizeof(padded_counter)); }
