/* solutions/15-input-pipeline/pool_size.c: exercise 15.1, solved.
 *
 * L loaders make L batches per load_s; the loop needs one per compute_s, so
 * L >= load_s / compute_s, rounded up. The cap: the training thread holds one
 * core, and a loader with no core of its own only takes turns. */
#include "pool_size.h"

#include <math.h>

int loaders_needed(double load_s, double compute_s, int cores)
{
    double need = ceil(load_s / compute_s);
    int cap = cores - 1 < 1 ? 1 : cores - 1;
    if (need < 1) return 1;
    return need > cap ? cap : (int)need;
}
