/* common/overlap.h: did the threads really run at the same time?
 *
 * A thread sweep means something only if its threads ran in parallel. On a
 * busy machine (other programs on every core), in a container limited to
 * one CPU, or under `taskset -c 0`, T threads take turns on one core: the
 * racy counter then loses nothing, false sharing costs nothing, and the
 * speedup is 1. A program that printed the textbook conclusion beside such
 * numbers would be contradicted by its own table; so every threaded program
 * of chapters 03-05 measures this and says so.
 *
 * The measure: the CPU time all of the process's threads got during a
 * stretch of work, over the wall time of that stretch,
 *
 *   C = CPU time / wall time     (CLOCK_PROCESS_CPUTIME_ID over CLOCK_MONOTONIC)
 *
 * the average number of threads that were running at once. Two threads on
 * two idle cores give C near 2; two threads on one core (or on two cores
 * that other programs also want) give C near 1 or below. The main thread
 * blocked in pthread_join uses no CPU and does not count; OpenMP threads
 * spinning at a barrier do count (they held a core). Nothing in the threads'
 * code has to change: the program reads two clocks around the call.
 *
 * With T threads and `cores` CPUs, at most N = min(T, cores) can run at
 * once. The share of the run they ran at the same time is at least
 *
 *   overlap = (C - 1) / (N - 1), clamped to 0..1     (undefined for N = 1)
 *
 * for two threads: exactly the fraction of the time both were running when
 * one of them always was (pinned to one CPU: C = 1, overlap 0), a lower
 * bound when other programs took turns with them (each thread getting half
 * of its own core also gives C = 1: they may have overlapped, but their
 * work could have been done on one core, so the run cannot show what two
 * cores give). Below PW_OVERLAP_SUSPECT (one half) the point is suspect.
 * The CSV gets the overlap in its `overlap` column (results.h) and the
 * figures draw suspect points apart.
 *
 *   pw_overlap ov = { 0 };
 *   pw_overlap_mark m = pw_overlap_begin();
 *   run_threads(...);
 *   pw_overlap_end(&ov, m);
 *   double share = pw_overlap_share(&ov, T, pw_cores());
 *   pw_overlap_warn(stdout, &ov, T, pw_cores());   // the one line, if suspect
 *
 * Try it: `taskset -c 0 ./build/ch03/pi` pins the program and all its
 * threads to CPU 0 (Linux), and every threaded program then prints the line.
 */
#ifndef PW_OVERLAP_H
#define PW_OVERLAP_H

#include <stdbool.h>
#include <stdio.h>

/* Below this share of the run together, a point's threads did not really
 * run in parallel: for 2 threads, both ran less than half the time. */
#define PW_OVERLAP_SUSPECT 0.5

typedef struct {
    double wall_s;     /* summed wall time of the measured stretches */
    double cpu_s;      /* summed CPU time the process's threads got in them */
    int runs;          /* stretches measured */
} pw_overlap;

typedef struct {
    double wall, cpu;  /* both clocks at the start of a stretch (s) */
} pw_overlap_mark;

/* Read both clocks: the start of a stretch. */
pw_overlap_mark pw_overlap_begin(void);

/* Add the stretch since m to o. */
void pw_overlap_end(pw_overlap *o, pw_overlap_mark m);

/* The process's CPU time so far, all threads, exited ones included (s). */
double pw_process_cpu_s(void);

/* C: the average number of threads running at once; NaN if nothing measured. */
double pw_overlap_concurrency(const pw_overlap *o);

/* The share of the run min(threads, cores) threads ran together (0..1);
 * NaN when nothing was measured or at most one thread could run. */
double pw_overlap_share(const pw_overlap *o, int threads, int cores);

/* The share raised to what a measured speedup proves. The process clock
 * is a lower bound that can read low: Linux adds a thread's CPU time to it
 * only at a scheduler tick (4 ms at HZ=250) or when the thread sleeps or
 * exits, so a run of a few milliseconds can miss most of a tick per thread
 * (a CI machine read 45% on a 9 ms run whose threads gave a 1.90x
 * speedup). A speedup S over one thread, on work that does not get faster
 * per thread when shared (no cache effect), needs N threads side by side for
 * at least (S - 1) / (N - 1) of the run, N no more than cpus_allowed,
 * the CPUs the process may use (pw_cpus_allowed; on one, a speedup
 * proves nothing). Returns the larger of the two;
 * share stays NaN (not judged) when it was NaN. */
double pw_overlap_share_with_speedup(double share, double speedup, int threads, int cores, int cpus_allowed);

/* True when the share is known and below PW_OVERLAP_SUSPECT. */
bool pw_overlap_suspect(const pw_overlap *o, int threads, int cores);

/* The one plain line, written to f only if the point is suspect, e.g.
 *   suspect, pi: your 2 threads got 1.12 of the 2 cores they could use on
 *   average, enough to have run at the same time for as little as 12% of
 *   the run: rerun on an idle machine
 * `what` (may be NULL or "") names the run ("pi_pthreads at 2 threads").
 * Returns 1 if it wrote the line, 0 if not. */
int pw_overlap_warn(FILE *f, const char *what, const pw_overlap *o, int threads, int cores);

/* The same verdict for several points of one sweep, in one line: the
 * thread counts that were suspect and the least overlap among them.
 * share[i] is pw_overlap_share of point i (NaN: not judged). Returns the
 * number of suspect points (0: nothing written). */
int pw_overlap_warn_sweep(FILE *f, const char *what, const int *threads, const double *share, int count,
                          int cores);

/* The cores a thread sweep is designed for: the online logical CPUs (what
 * the probe counts), not the CPUs this process is allowed on, so that a
 * run squeezed onto fewer (taskset, a container) is measured and reported
 * rather than silently re-planned. At least 1. */
int pw_cores(void);

/* How many CPUs this process may run on (its affinity mask on Linux; the
 * online cores elsewhere). At least 1. */
int pw_cpus_allowed(void);

#endif
