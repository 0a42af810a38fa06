/* tests/wrong/8.7-clamps-index.cu: puzzle 8.7 "fixed" by clamping: a thread
 * past the end takes element n - 1 instead, so nothing is out of bounds and
 * every value is right, but the 27 spare threads each read a[n - 1] and
 * write out[n - 1] again: 32 reads and 32 writes for 5 elements.
 * expect: FAIL: 32 global reads in all; the puzzle allows 5 */
#include "guards.h"

__global__ void guards(const float *a, float *out, int n)
{
    int i = (int)threadIdx.x < n ? (int)threadIdx.x : n - 1;
    out[i] = a[i] + 10.0f;
}

void guards_launch(const float *d_a, float *d_out, int n) { guards<<<1, GUARDS_THREADS(n)>>>(d_a, d_out, n); }
