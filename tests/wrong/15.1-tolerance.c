/* tests/wrong/15.1-tolerance.c: exercise 15.1 rounding up only past a
 * tolerance, ceil(ratio - 1e-3): at 2.0005 loads per compute it answers 2,
 * and 2 loaders fall behind, however little; 3 are needed.
 * expect: FAIL: loaders_needed\(load 2.0005 s, compute 1 s, 8 cores\) = 2, want 3
 * hint: round up any excess */
#include "pool_size.h"

#include <math.h>

int loaders_needed(double load_s, double compute_s, int cores)
{
    double need = ceil(load_s / compute_s - 1e-3);
    int cap = cores - 1 < 1 ? 1 : cores - 1;
    if (need < 1) return 1;
    return need > cap ? cap : (int)need;
}
