/* tests/wrong/12.1-gpipe-order.c: exercise 12.1 answered with GPipe's order,
 * every forward and then every backward. No deadlock, right gradients and
 * the same bubble as 1F1B, but every rank stores all m micro-batches.
 * expect: FAIL: p = 1, m = 2: rank 0 stores 2 micro-batches at once
 * hint: GPipe's order */
#include "one_f_one_b.h"

int one_f_one_b(int rank, int p, int m, pipe_step *out)
{
    (void)rank;
    (void)p;
    int n = 0;
    for (int i = 0; i < m; i++) out[n++] = (pipe_step){ PIPE_F, i, 0 };
    for (int i = 0; i < m; i++) out[n++] = (pipe_step){ PIPE_B, i, 0 };
    return n;
}
