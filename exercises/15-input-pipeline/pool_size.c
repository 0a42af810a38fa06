/* exercises/15-input-pipeline/pool_size.c: exercise 15.1, size the loader pool.
 *
 * What it teaches: the profile (chapters/15-input-pipeline/profile.c) gives
 * two numbers per step, load and compute. With L loaders prefetching, the
 * loaders make L batches every load_s seconds, and the training thread takes
 * one every compute_s: the loop is compute bound once L / load_s >= 1 /
 * compute_s. More loaders than that buy nothing, and loaders beyond the cores
 * left beside the training thread cannot even run.
 *
 * The task: the smallest loader count that keeps the training thread fed,
 * within the cores the machine has.
 *
 * The interface (pool_size.h):
 *   int loaders_needed(double load_s, double compute_s, int cores);
 *   - load_s: seconds one loader takes per batch; compute_s: seconds the
 *     training thread spends on one; cores >= 1;
 *   - at least 1 loader (a loop with no loader thread does not prefetch),
 *     at most cores - 1 (the training thread has a core), and 1 on a
 *     one-core machine;
 *   - a fraction of a loader is a whole loader.
 *
 * What the checker tries (check_pool_size.c): fixed cases with exact
 * answers (loading faster than compute, exact multiples, ratios 2.5 and 3.2
 * that must round up, the core cap on 4, 2 and 1 cores, a huge machine);
 * then this machine: it measures load and compute of the chapter's batches
 * (medians of 15), asks you for L with this machine's cores, compares with
 * the rule on the same numbers, and, for information, runs the loop with
 * your L.
 *
 *   make ex-15.1      grade this file (each failure is explained)
 *   make hint-15.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/15-input-pipeline/pool_size.c: try first.
 */
#include "exercise.h"
#include "pool_size.h"

int loaders_needed(double load_s, double compute_s, int cores)
{
    /* TODO: the count. Then delete the placeholder lines below. */
    (void)load_s;
    (void)compute_s;
    (void)cores;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
