/* kernels/threads.h: the pthreads building blocks of chapter 03, and the
 * shared-counter ladder.
 *
 * Thread placement: threads_run() starts T threads and waits for them. It
 * can leave them where the scheduler puts them, pin them all to ONE core
 * (concurrency: they take turns), or pin thread t to core t mod cores
 * (parallelism: they run at the same time). Pinning needs Linux
 * (sched_setaffinity); elsewhere threads_can_pin() is false and the pinned
 * placements run unpinned.
 *
 * The counter ladder: `total` increments of one count, shared out over T
 * threads (thread t does its block of them, threads_block). Each update is
 * one load, one add and one store of a 64-bit counter, or the locked or
 * atomic equivalent; no flops, 8 bytes read and 8 written per update.
 *   counter_racy     every thread does `c = c + 1` on the shared c: a data
 *                    race, two threads may read the same value and one of the
 *                    two increments is lost. Returns the (too small) count.
 *   counter_mutex    the same update inside pthread_mutex_lock/unlock.
 *   counter_atomic   one atomic read-modify-write (lock xadd on x86).
 *   counter_partial  each thread counts in its own private counter; the main
 *                    thread adds the T partial counts once, after the join.
 * Every one but racy returns exactly `total`.
 *
 * False sharing: T threads each increment their OWN counter `per` times.
 *   tally_packed     the T counters sit next to each other (8 bytes apart:
 *                    8 share one 64-byte cache line)
 *   tally_padded     each counter has a cache line of its own
 * No thread touches another's counter, yet packed is several times slower on
 * two or more cores: the cores pass the line back and forth on every store.
 */
#ifndef PW_THREADS_H
#define PW_THREADS_H

#include <stdbool.h>
#include <stddef.h>

/* A cache line on x86-64 and most ARM cores (Apple's M-series cores use
 * 128-byte lines: there, 64-byte padding halves the effect but not all of it). */
#define THREADS_LINE 64

typedef enum {
    THREADS_ANYWHERE,   /* wherever the scheduler puts them */
    THREADS_ONE_CORE,   /* all pinned to the first CPU we may run on */
    THREADS_SPREAD,     /* thread t pinned to CPU t mod (CPUs we may run on) */
} threads_placement;

/* True where threads can be pinned to a CPU (Linux). */
bool threads_can_pin(void);

/* How many CPUs this process may run on (its affinity mask; the online
 * cores where that cannot be read). At least 1. */
int threads_cpus(void);

/* Run fn on T threads: thread t gets (char *)args + t * stride. Returns when
 * all have finished. Exits with a message if a thread cannot be created. */
void threads_run(int T, void *(*fn)(void *), void *args, size_t stride, threads_placement where);

/* Thread t's block [*lo, *hi) of 0..n-1 split over T threads: the first
 * n mod T blocks get one more, so every size is covered (odd ones too). */
void threads_block(long long n, int T, int t, long long *lo, long long *hi);

/* The shared-counter ladder (see above). `total` updates in all. */
long long counter_racy(long long total, int T);
long long counter_mutex(long long total, int T);
long long counter_atomic(long long total, int T);
long long counter_partial(long long total, int T);

/* False sharing: each of T threads adds `per` to its own counter; out[t]
 * gets thread t's final count (per, if nothing went wrong). */
void tally_packed(long long per, int T, long long *out);
void tally_padded(long long per, int T, long long *out);

#endif
