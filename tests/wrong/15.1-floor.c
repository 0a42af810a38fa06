/* tests/wrong/15.1-floor.c: exercise 15.1 with the loader count rounded
 * down: 2.5 batches' worth of loading per compute gets 2 loaders, which make
 * a batch every 1.25 compute times: the loop still waits.
 * expect: FAIL: loaders_needed\(load 2.5 s, compute 1 s, 8 cores\) = 2, want 3
 * hint: round up */
#include "pool_size.h"

int loaders_needed(double load_s, double compute_s, int cores)
{
    int need = (int)(load_s / compute_s);
    int cap = cores - 1 < 1 ? 1 : cores - 1;
    if (need < 1) need = 1;
    return need > cap ? cap : need;
}
