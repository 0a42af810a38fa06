/* tests/wrong/10.1-gather-adds.c: exercise 10.1 with an all-gather that adds
 * the chunk it receives, as the reduce-scatter does, where it should copy:
 * a finished chunk is added onto the receiver's own partial one, so ranks
 * are counted twice.
 * expect: FAIL: p = 2, n = 64: rank [01] has [0-9]+ at element
 * hint: counted twice */
#include <stdlib.h>

#include "collectives.h"
#include "ring_allreduce.h"

static int mod(int x, int p) { return ((x % p) + p) % p; }

static float *chunk(float *buf, size_t n, int p, int k, size_t *len)
{
    size_t b = coll_chunk_begin(n, p, k);
    *len = coll_chunk_begin(n, p, k + 1) - b;
    return buf + b;
}

void ring_allreduce(pw_rank *r, float *buf, size_t n)
{
    int p = pw_rank_size(r), me = pw_rank_id(r);
    if (p == 1) return;
    int right = (me + 1) % p, left = mod(me - 1, p);
    size_t lo, li;
    float *tmp = malloc((n / (size_t)p + 1) * sizeof *tmp);
    for (int phase = 0; phase < 2; phase++)
        for (int s = 0; s < p - 1; s++) {
            int k = phase ? me + 1 - s : me - s;
            float *out = chunk(buf, n, p, mod(k, p), &lo), *in = chunk(buf, n, p, mod(k - 1, p), &li);
            pw_send(r, right, out, lo * sizeof *out);
            pw_recv(r, left, tmp, li * sizeof *tmp);
            for (size_t i = 0; i < li; i++) in[i] += tmp[i];
        }
    free(tmp);
}
