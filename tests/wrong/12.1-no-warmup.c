/* tests/wrong/12.1-no-warmup.c: exercise 12.1 with no warm-up: forward and
 * backward in turn from the start on every rank. It never deadlocks (the
 * last rank turns each micro-batch round at once) and stores one
 * micro-batch, but each micro-batch crosses the whole pipe and back alone.
 * expect: FAIL: p = 2, m = 2: the pipe stands idle
 * hint: rank 0 runs 1 forward before its first backward; 1F1B runs min\(p - r, m\) = 2 */
#include "one_f_one_b.h"

int one_f_one_b(int rank, int p, int m, pipe_step *out)
{
    (void)rank;
    (void)p;
    int n = 0;
    for (int i = 0; i < m; i++) {
        out[n++] = (pipe_step){ PIPE_F, i, 0 };
        out[n++] = (pipe_step){ PIPE_B, i, 0 };
    }
    return n;
}
