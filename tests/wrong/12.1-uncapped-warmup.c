/* tests/wrong/12.1-uncapped-warmup.c: exercise 12.1 right for m >= p, but
 * the warm-up p - rank - 1 is not capped at m: with fewer micro-batches than
 * ranks it runs forwards of micro-batches that do not exist.
 * expect: FAIL: p = 3, m = 1: rank 0's order: step 1: F of micro-batch 1, which does not exist
 * hint: cap it at m */
#include "one_f_one_b.h"

int one_f_one_b(int rank, int p, int m, pipe_step *out)
{
    int warm = p - rank - 1, n = 0, f = 0, b = 0;
    while (f < warm) out[n++] = (pipe_step){ PIPE_F, f++, 0 };
    while (f < m) { out[n++] = (pipe_step){ PIPE_F, f++, 0 }; out[n++] = (pipe_step){ PIPE_B, b++, 0 }; }
    while (b < m) out[n++] = (pipe_step){ PIPE_B, b++, 0 };
    return n;
}
