/* tests/wrong/8.7-exact-launch.cu: puzzle 8.7 dodged: the launch changed to
 * exactly n threads (8.5's), so 8.5's unguarded kernel works. The spare
 * threads are the puzzle; the checker grades the given launch.
 * expect: FAIL: the launch ran 1 block of 5 threads; the given launch is 1 block of 32 */
#include "guards.h"

__global__ void guards(const float *a, float *out, int n)
{
    (void)n;
    int i = threadIdx.x;
    out[i] = a[i] + 10.0f;
}

void guards_launch(const float *d_a, float *d_out, int n) { guards<<<1, n>>>(d_a, d_out, n); }
