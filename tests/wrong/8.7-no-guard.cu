/* tests/wrong/8.7-no-guard.cu: puzzle 8.7 answered with 8.5's kernel: no
 * guard, so the 27 spare threads of the 32 (n = 5) read a[5..31] and write
 * out[5..31], past the end of both arrays. The emulator stops the kernel at
 * the first of them; the checker's second run names them all.
 * expect: FAIL: no guard: threads 5 to 31 have no element */
#include "guards.h"

__global__ void guards(const float *a, float *out, int n)
{
    (void)n;
    int i = threadIdx.x;
    out[i] = a[i] + 10.0f;
}

void guards_launch(const float *d_a, float *d_out, int n) { guards<<<1, GUARDS_THREADS(n)>>>(d_a, d_out, n); }
