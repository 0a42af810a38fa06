/* tests/wrong/10.1-floor-chunks.c: exercise 10.1 with chunks of n / p
 * elements each, rounded down, instead of coll_chunk_begin's: when p does
 * not divide n the last n mod p elements belong to no chunk and never
 * leave their rank (on 2 ranks and n = 7, element 6).
 * expect: FAIL: p = 2, n = 7: rank 0 has [0-9]+ at element 6
 * hint: only the last n mod p = 1 elements are wrong */
#include <stdlib.h>

#include "ring_allreduce.h"

static int mod(int x, int p) { return ((x % p) + p) % p; }

void ring_allreduce(pw_rank *r, float *buf, size_t n)
{
    int p = pw_rank_size(r), me = pw_rank_id(r);
    if (p == 1) return;
    int right = (me + 1) % p, left = mod(me - 1, p);
    size_t len = n / (size_t)p;
    float *tmp = malloc((len ? len : 1) * sizeof *tmp);
    for (int s = 0; s < p - 1; s++) {
        float *out = buf + (size_t)mod(me - s, p) * len, *in = buf + (size_t)mod(me - s - 1, p) * len;
        pw_send(r, right, out, len * sizeof *out);
        pw_recv(r, left, tmp, len * sizeof *tmp);
        for (size_t i = 0; i < len; i++) in[i] += tmp[i];
    }
    for (int s = 0; s < p - 1; s++) {
        float *out = buf + (size_t)mod(me + 1 - s, p) * len, *in = buf + (size_t)mod(me - s, p) * len;
        pw_send(r, right, out, len * sizeof *out);
        pw_recv(r, left, in, len * sizeof *in);
    }
    free(tmp);
}
