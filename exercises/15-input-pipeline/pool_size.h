/* exercises/15-input-pipeline/pool_size.h: what exercise 15.1 asks you to
 * write. Your exercises/15-input-pipeline/pool_size.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_POOL_SIZE_H
#define PW_EX_POOL_SIZE_H

/* How many loader threads a prefetching training loop needs.
 *   load_s     seconds one thread takes to make (decode + augment) one batch
 *   compute_s  seconds the training thread computes on one batch
 *   cores      CPU cores of the machine (>= 1)
 * The smallest L >= 1 whose loaders together make a batch at least as fast
 * as the training thread uses one (L batches per load_s), but never more
 * loaders than there are cores left beside the training thread (cores - 1;
 * at least 1): loaders past that only take turns with it. */
int loaders_needed(double load_s, double compute_s, int cores);

#endif
