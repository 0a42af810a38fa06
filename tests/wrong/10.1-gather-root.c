/* tests/wrong/10.1-gather-root.c: exercise 10.1 the easy serial way: every
 * rank sends its whole buffer to rank 0, which adds them up in rank order
 * and sends the sum back to everyone. The sums are exact and every rank
 * holds the same bits, but rank 0's link carries 2(p-1) whole buffers one
 * after another: 2(p-1)(alpha + n beta) where the ring takes
 * 2(p-1)(alpha + (n/p) beta).
 * expect: FAIL: p = 2, n = 2000: the modelled time is */
#include <stdlib.h>

#include "ring_allreduce.h"

void ring_allreduce(pw_rank *r, float *buf, size_t n)
{
    int p = pw_rank_size(r), me = pw_rank_id(r);
    if (p == 1) return;
    if (me != 0) {
        pw_send(r, 0, buf, n * sizeof *buf);
        pw_recv(r, 0, buf, n * sizeof *buf);
        return;
    }
    float *tmp = malloc((n ? n : 1) * sizeof *tmp);
    for (int q = 1; q < p; q++) {
        pw_recv(r, q, tmp, n * sizeof *tmp);
        for (size_t i = 0; i < n; i++) buf[i] += tmp[i];
    }
    for (int q = 1; q < p; q++) pw_send(r, q, buf, n * sizeof *buf);
    free(tmp);
}
