/* exercises/15-input-pipeline/pool_size.c: exercise 15.1, size the loader pool.
 *
 * What it teaches: the profile (chapters/15-input-pipeline/profile.c) gives
 * two numbers per step, load and compute. With L loaders prefetching, the
 * loaders make L batches every load_s seconds, and the training thread takes
 * one every compute_s: the loop is compute bound once L / load_s >= 1 /
 * compute_s. More loaders than that buy nothing, and loaders beyond the cores
 * left beside the training thread cannot even run.
 *
 * Check your work:  make ex-15.1   (fixed cases with exact answers, then
 * this machine: the checker measures load and compute of the chapter's
 * batches, asks you for L, and runs the loop with your L).
 * The answer is in solutions/15-input-pipeline/pool_size.c: try first.
 */
#include "exercise.h"
#include "pool_size.h"

int loaders_needed(double load_s, double compute_s, int cores)
{
    /* TODO:
     *  1. the smallest whole L >= 1 with load_s / L <= compute_s (careful:
     *     2.5 batches' worth of loading needs 3 loaders, not 2);
     *  2. at most cores - 1 loaders (the training thread has a core), and
     *     never fewer than 1 (a loop with no loader thread does not prefetch).
     * Then delete the lines below. */
    (void)load_s;
    (void)compute_s;
    (void)cores;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
