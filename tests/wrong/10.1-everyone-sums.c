/* tests/wrong/10.1-everyone-sums.c: exercise 10.1 with no ring: every rank
 * sends its buffer to every other and adds what arrives onto its own, in
 * the order the others' ranks come after it. On whole numbers every sum is
 * exact; on reals each rank adds in its own order (rank 1 starts from its
 * own values, rank 0 from its), so the replicas differ in the last bits.
 * expect: FAIL: p = 3: rank [0-9]+ holds .* the replicas differ in */
#include <stdlib.h>
#include <string.h>

#include "ring_allreduce.h"

void ring_allreduce(pw_rank *r, float *buf, size_t n)
{
    int p = pw_rank_size(r), me = pw_rank_id(r);
    if (p == 1) return;
    float *mine = malloc((n ? n : 1) * sizeof *mine), *tmp = malloc((n ? n : 1) * sizeof *tmp);
    memcpy(mine, buf, n * sizeof *buf);
    for (int d = 1; d < p; d++) pw_send(r, (me + d) % p, mine, n * sizeof *mine);
    for (int d = 1; d < p; d++) {
        pw_recv(r, (me + p - d) % p, tmp, n * sizeof *tmp);
        for (size_t i = 0; i < n; i++) buf[i] += tmp[i];
    }
    free(mine);
    free(tmp);
}
