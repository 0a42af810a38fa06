/* tests/wrong/12.1-reversed-warmup.c: exercise 12.1 with the warm-up counted
 * from the wrong end: rank r runs r forwards first (the last rank p - 1,
 * rank 0 none). Rank 0 then waits for a gradient that needs forwards it
 * will only send after it: a deadlock, reported, never a hang.
 * expect: FAIL: p = 2, m = 2: deadlock
 * hint: tag 2 \(gradients\) */
#include "one_f_one_b.h"

int one_f_one_b(int rank, int p, int m, pipe_step *out)
{
    (void)p;
    int warm = rank < m ? rank : m, n = 0, f = 0, b = 0;
    while (f < warm) out[n++] = (pipe_step){ PIPE_F, f++, 0 };
    while (f < m) { out[n++] = (pipe_step){ PIPE_F, f++, 0 }; out[n++] = (pipe_step){ PIPE_B, b++, 0 }; }
    while (b < m) out[n++] = (pipe_step){ PIPE_B, b++, 0 };
    return n;
}
