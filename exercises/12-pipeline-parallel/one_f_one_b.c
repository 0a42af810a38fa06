/* exercises/12-pipeline-parallel/one_f_one_b.c: exercise 12.1, the 1F1B
 * schedule (PipeDream-Flush, Narayanan et al., ICML 2021) for one rank.
 *
 * What it teaches: GPipe runs every forward, then every backward, so each
 * stage stores all m micro-batches' activations. 1F1B starts a micro-batch's
 * backward as soon as its gradient can arrive and alternates one forward
 * with one backward from then on: the same bubble, (p-1)/(m+p-1), but rank r
 * never stores more than p - r micro-batches, however large m grows.
 *
 * Check your work:  make ex-12.1   (p = 1..8 and m = 1..12, m < p too: every
 * rank's order is validated, then all run at once on the virtual cluster:
 * a deadlock, a wrong gradient, a bubble above the formula or more stored
 * micro-batches than 1F1B's are each explained).
 * Hints, one level more each time (3 levels, the last near the code):
 *   make hint-12.1
 * The answer is in solutions/12-pipeline-parallel/one_f_one_b.c: try first.
 */
#include "one_f_one_b.h"
#include "exercise.h"

int one_f_one_b(int rank, int p, int m, pipe_step *out)
{
    /* TODO: the order of one rank, 2m steps.
     *  1. Warm-up: the last rank can start its first backward right after
     *     its first forward; rank r must first fill the pipe behind it.
     *     How many forwards does rank r run before its first backward, so
     *     that the gradient is on its way when it asks for it? (Never more
     *     than m: there may be fewer micro-batches than ranks.)
     *  2. Steady state: one forward, then one backward, while forwards remain.
     *  3. Cool-down: the backwards left.
     * Micro-batches go in order 0, 1, ..., m-1, forwards and backwards alike:
     * the messages between two ranks arrive in the order they were sent.
     * Then delete the lines below. */
    (void)rank;
    (void)p;
    (void)m;
    (void)out;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
