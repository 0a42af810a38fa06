/* exercises/04-openmp/mc_pi.c: exercise 4.6, Monte Carlo pi with a stream
 * of random numbers per thread.
 *
 * The task: estimate pi from n random points in the unit square, 4 times
 * the share of them inside the quarter circle x^2 + y^2 < 1, in parallel
 * with OpenMP. Why it is a lesson: random numbers come from a generator
 * with state, and the easy ones (rand()) keep one state for the whole
 * process. Threads calling rand() at once race on it, or take turns at its
 * lock (glibc): no faster than one thread, and which numbers each thread
 * gets depends on the timing, so no run repeats. Each thread needs a
 * generator of its own, and a stream of its own: threads that all start
 * from the same seed draw the same points, and the estimate is no better
 * than one thread's share of them.
 *
 * The interface (mc_pi.h):
 *   double mc_pi(long long n, uint64_t seed);
 *   - mc_rng_make(seed, stream) (given): a generator at the start of stream
 *     `stream` of the run seeded `seed`; mc_uniform(&g) (given): its next
 *     number, uniform in [0, 1), changing g;
 *   - thread t draws all its points from one generator, mc_rng_make(seed, t)
 *     (t = omp_get_thread_num(), or pw_omp_thread_num() from omp_info.h,
 *     which also builds without OpenMP), made inside the parallel region;
 *     a point is two draws in a row, x then y;
 *   - returns 4.0 * (points with x*x + y*y < 1) / n, on as many threads as
 *     omp_set_num_threads() last set (the checker sets it); the same n,
 *     seed and thread count must give the same estimate, bit for bit.
 *
 * What the checker tries (check_mc_pi.c): n = 1, 2, 3, 1000 and 400009 on
 * 1, 2, 3 and 7 threads, each twice. The generator is the checker's: it
 * sees every number drawn, by which thread, from which generator and stream.
 * Two threads on one generator, two threads with the same or overlapping
 * numbers, thread t not on stream t of the seed given, a generator made
 * twice, anything but 2 n draws, an estimate other than the one the drawn
 * points give, and two different estimates for the same n, seed and threads
 * fail; so does an estimate more than 5 standard deviations from pi.
 * rand(), random(), drand48() and rand_r() are refused (check_mc_pi.rules).
 *
 *   make ex-4.6      grade this file (each failure is explained)
 *   make hint-4.6    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/04-openmp/mc_pi.c: try first.
 */
#include "exercise.h"
#include "mc_pi.h"
#include "omp_info.h"   /* builds without OpenMP too: a pragma is then ignored */

double mc_pi(long long n, uint64_t seed)
{
    /* TODO: a parallel region; in it, each thread's generator, then the
     * loop over the points with the count of those inside. Then delete the
     * placeholder lines below. */
    (void)n;
    (void)seed;
    PW_NOT_YET_IMPLEMENTED();
}
