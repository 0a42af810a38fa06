/* tests/wrong/10.1-recv-first.c: exercise 10.1 with every step receiving
 * from the left before sending to the right. Every rank waits for a message
 * its left neighbour will only send after its own receive: the ring
 * deadlocks on every rank count from 2 up (on a real network too).
 * expect: FAIL: deadlock on 2 ranks \(n = 64\): every rank waits to receive, none has sent */
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
    for (int s = 0; s < p - 1; s++) {
        float *out = chunk(buf, n, p, mod(me - s, p), &lo), *in = chunk(buf, n, p, mod(me - s - 1, p), &li);
        pw_recv(r, left, tmp, li * sizeof *tmp);
        pw_send(r, right, out, lo * sizeof *out);
        for (size_t i = 0; i < li; i++) in[i] += tmp[i];
    }
    for (int s = 0; s < p - 1; s++) {
        float *out = chunk(buf, n, p, mod(me + 1 - s, p), &lo), *in = chunk(buf, n, p, mod(me - s, p), &li);
        pw_recv(r, left, in, li * sizeof *in);
        pw_send(r, right, out, lo * sizeof *out);
    }
    free(tmp);
}
