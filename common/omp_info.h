/* common/omp_info.h: what OpenMP ran with, and building without it.
 *
 * Include this in every file that has an OpenMP pragma. It does two things:
 *
 * 1. Without OpenMP (make NO_OMP=1, or Apple clang without libomp) the
 *    compiler ignores `#pragma omp` lines, so the loops run on one thread and
 *    still give the right answer; but -Wall would warn about each unknown
 *    pragma. This header switches that one warning off for such builds only,
 *    so the code keeps the plain `#pragma omp ...` lines a reader should see.
 *
 * 2. A few wrappers that work in both builds (one thread without OpenMP), and
 *    the one line every OpenMP program prints first:
 *      OpenMP 4.5: 2 threads at most (OMP_NUM_THREADS=unset OMP_PROC_BIND=unset
 *      OMP_PLACES=unset; bind false; schedule(runtime) dynamic,1)
 *    or
 *      built without OpenMP: ran on one thread; get it: apt install libgomp1 / brew install libomp
 *
 * The OMP_* conventions (read by the OpenMP runtime when it starts):
 *   OMP_NUM_THREADS=4       threads in a parallel region (default: one per logical core)
 *   OMP_PROC_BIND=close     pin threads, near each other (spread: far apart; false: float)
 *   OMP_PLACES=cores        what a "place" a thread is pinned to is (threads, cores, sockets)
 *   OMP_SCHEDULE=dynamic,4  the schedule of loops that say schedule(runtime)
 * The programs set the thread count with omp_set_num_threads() for their
 * sweeps (-t 1,2,4), which overrides OMP_NUM_THREADS inside them.
 */
#ifndef PW_OMP_INFO_H
#define PW_OMP_INFO_H

#ifndef _OPENMP
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

#include <stdbool.h>
#include <stdio.h>

#include "results.h"

#define PW_OMP_INSTALL_HINT "apt install libgomp1 / brew install libomp"

/* True when built with OpenMP. */
bool pw_omp_enabled(void);

/* omp_set_num_threads, omp_get_max_threads, omp_get_thread_num,
 * omp_get_wtime; without OpenMP: nothing, 1, 0, a monotonic clock. */
void pw_omp_set_threads(int threads);
int pw_omp_max_threads(void);
int pw_omp_thread_num(void);
double pw_omp_now(void);

/* The one line above, into buf (about 200 characters); returns buf. */
const char *pw_omp_describe(char *buf, size_t len);

/* Print that line to f, and record it in csv's metadata ("# openmp: ...")
 * when csv is not NULL. */
void pw_omp_report(FILE *f, pw_csv *csv);

#endif
