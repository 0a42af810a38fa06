/* exercises/04-openmp/schedule.c: exercise 4.2, pick the schedule for an
 * imbalanced loop, and show with a measurement that it is right.
 *
 * What it teaches: a parallel loop is only as fast as its slowest thread.
 * How OpenMP hands the iterations out decides who that is:
 *   schedule(static)       one contiguous block per thread, decided up front
 *   schedule(static, k)    blocks of k, dealt round-robin
 *   schedule(dynamic, k)   blocks of k, taken from a shared counter by
 *                          whichever thread is free (costs a grab per block)
 *   schedule(guided, k)    like dynamic, but blocks start at about
 *                          remaining / threads and shrink to k
 * The loop here (see schedule.h) has a heavy block at the start AND a cost
 * pattern with period 2. Think about what each schedule does with each, on
 * 2 threads and on 3, before you try them.
 *
 * Write process_items(), declared in schedule.h: the loop
 *     for (int i = 0; i < n; i++) out[i] = sched_item_work(i, n);
 * with `#pragma omp parallel for schedule(KIND, CHUNK)` above it, with the
 * KIND and CHUNK you pick (write them as plain words and numbers: the
 * checker reads them from this file).
 *
 * Check your work:  make ex-4.2   The checker runs your loop on 1, 2, 3 and
 * 7 threads and checks every out[i] exactly, with 8 guard elements past
 * out[n-1] (a write to out[n] fails); it counts the process's threads after
 * the call on 7 (Linux: /proc/self/task) against a region of 7 of its own,
 * so an omp for with no parallel region, or a num_threads() or if() clause,
 * fails. Then it reads the one `#pragma omp ... for` of this file as the
 * compiler does (cc -E; static, dynamic or guided, the chunk a number from
 * 1 to 20011) and models how long your schedule takes on 2, 3 and 7 threads
 * (from the item costs, each dynamic or guided grab costing 2 units)
 * against 11 others, and passes a choice within 10% of the best on every
 * thread count; last it measures your loop against schedule(static) on as
 * many threads as cores (not graded), the number to quote when you justify
 * your choice.
 * Hints, one level more each time (3 levels, the last near the code):
 *   make hint-4.2
 * The answer is in solutions/04-openmp/schedule.c: try first.
 */
#include "exercise.h"
#include "omp_info.h"   /* builds without OpenMP too: the pragma is then ignored */
#include "schedule.h"

void process_items(int n, uint64_t *out)
{
    /* TODO: the loop above, with your pragma on the line before it.
     * Then delete the three lines below. */
    (void)n;
    (void)out;
    PW_NOT_YET_IMPLEMENTED();
}

/* Leave this as it is: it tells the checker where to find your pragma. */
const char *schedule_source(void) { return __FILE__; }
