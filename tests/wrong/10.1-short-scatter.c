/* tests/wrong/10.1-short-scatter.c: exercise 10.1 with the reduce-scatter
 * one step short (p - 2 steps): the chunk each rank then passes round is
 * missing one rank's contribution. On 2 ranks nothing is added at all.
 * expect: FAIL: p = 2, n = 64: rank [01] has [0-9]+ at element
 * hint: (the sum of only|nothing ever arrived|still rank) */
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
    for (int s = 0; s < p - 2; s++) {
        float *out = chunk(buf, n, p, mod(me - s, p), &lo), *in = chunk(buf, n, p, mod(me - s - 1, p), &li);
        pw_send(r, right, out, lo * sizeof *out);
        pw_recv(r, left, tmp, li * sizeof *tmp);
        for (size_t i = 0; i < li; i++) in[i] += tmp[i];
    }
    for (int s = 0; s < p - 1; s++) {
        float *out = chunk(buf, n, p, mod(me + 1 - s, p), &lo), *in = chunk(buf, n, p, mod(me - s, p), &li);
        pw_send(r, right, out, lo * sizeof *out);
        pw_recv(r, left, in, li * sizeof *in);
    }
    free(tmp);
}
