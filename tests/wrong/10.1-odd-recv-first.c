/* tests/wrong/10.1-odd-recv-first.c: exercise 10.1 "made safe" the way a
 * textbook breaks the cycle of blocking sends: even ranks send first, odd
 * ranks receive first. It cannot deadlock and every sum is right, but an
 * odd rank's send waits for its receive, so its right neighbour waits too:
 * steps take up to twice one message's time.
 * expect: FAIL: p = [0-9]+, n = [0-9]+: the modelled time is
 * hint: does a rank receive before it sends within a step */
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
            float *dst = phase ? in : tmp;
            if (me % 2) {
                pw_recv(r, left, dst, li * sizeof *dst);
                pw_send(r, right, out, lo * sizeof *out);
            } else {
                pw_send(r, right, out, lo * sizeof *out);
                pw_recv(r, left, dst, li * sizeof *dst);
            }
            if (!phase)
                for (size_t i = 0; i < li; i++) in[i] += tmp[i];
        }
    free(tmp);
}
