/* solutions/10-data-parallel/ring_allreduce.c: a solution of exercise 10.1.
 *
 * Added to the skeleton: the helpers chunk_of and mod, the scratch buffer,
 * the two loops of p-1 steps (reduce-scatter, then all-gather), each sending
 * before it receives. The modelled time is 2(p-1)(alpha + (n/p) beta) on one
 * node: every step costs one chunk's message, and the p ranks' messages of a
 * step travel at once on p different links.
 * Graded by: make solution-10.1
 */
#include "ring_allreduce.h"
#include "collectives.h"
#include "errcheck.h"

#include <stdlib.h>

static int mod(int x, int p) { return ((x % p) + p) % p; }                                  /* added */

/* Where chunk k of n floats split p ways starts, and how long it is. */
static float *chunk_of(float *buf, size_t n, int p, int k, size_t *len)                     /* added */
{                                                                                            /* added */
    size_t b = coll_chunk_begin(n, p, k);                                                   /* added */
    *len = coll_chunk_begin(n, p, k + 1) - b;                                               /* added */
    return buf + b;                                                                          /* added */
}                                                                                            /* added */

void ring_allreduce(pw_rank *r, float *buf, size_t n)
{
    int p = pw_rank_size(r), me = pw_rank_id(r);                                            /* added */
    if (p == 1) return;                                                                      /* added */
    int right = (me + 1) % p, left = mod(me - 1, p);                                         /* added */
    size_t cap = n / (size_t)p + 1, len_out, len_in;                                        /* added: the largest chunk */
    float *tmp = malloc(cap * sizeof *tmp);                                                  /* added */
    PW_CHECK_ALLOC(tmp, cap * sizeof *tmp);                                                  /* added */
    for (int s = 0; s < p - 1; s++) {                                                        /* added: reduce-scatter */
        float *out = chunk_of(buf, n, p, mod(me - s, p), &len_out);                         /* added */
        float *in = chunk_of(buf, n, p, mod(me - s - 1, p), &len_in);                       /* added */
        pw_send(r, right, out, len_out * sizeof *out);                                       /* added */
        pw_recv(r, left, tmp, len_in * sizeof *tmp);                                         /* added */
        for (size_t i = 0; i < len_in; i++) in[i] += tmp[i];                                 /* added */
    }                                                                                        /* added */
    for (int s = 0; s < p - 1; s++) {                                                        /* added: all-gather */
        float *out = chunk_of(buf, n, p, mod(me + 1 - s, p), &len_out);                     /* added */
        float *in = chunk_of(buf, n, p, mod(me - s, p), &len_in);                           /* added */
        pw_send(r, right, out, len_out * sizeof *out);                                       /* added */
        pw_recv(r, left, in, len_in * sizeof *in);                                           /* added */
    }                                                                                        /* added */
    free(tmp);                                                                               /* added */
}
