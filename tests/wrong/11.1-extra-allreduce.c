/* tests/wrong/11.1-extra-allreduce.c: exercise 11.1 with an all-reduce of
 * X before the first matmul (then divided by t): the results are right
 * (within rounding), the communication is half as much again.
 * expect: FAIL: t = 2: rank 0 sent
 * hint: that is 3 all-reduces of n h floats, 1 more than the split needs */
#include "tp_mlp.h"

#include <stdlib.h>
#include <string.h>

void tp_mlp_rank(pw_comm *c, tp_mlp_io *io)
{
    size_t n = (size_t)io->n, h = (size_t)io->h, fl = (size_t)io->f / (size_t)c->size;
    float *z = malloc(n * fl * sizeof *z), *g = malloc(n * fl * sizeof *g);
    /* "f" taken for an all-reduce forward: X summed over the ranks, then divided by t */
    float *xs = malloc(n * h * sizeof *xs);
    memcpy(xs, io->x, n * h * sizeof *xs);
    coll_allreduce_ring(c, xs, n * h);
    for (size_t i = 0; i < n * h; i++) xs[i] /= (float)c->size;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < fl; j++) {
            float s = 0;
            for (size_t k = 0; k < h; k++) s += xs[i * h + k] * io->a[k * fl + j];
            z[i * fl + j] = s;
            g[i * fl + j] = tp_gelu(s);
        }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < h; j++) {
            float s = 0;
            for (size_t k = 0; k < fl; k++) s += g[i * fl + k] * io->b[k * h + j];
            io->y[i * h + j] = s;
        }
    coll_allreduce_ring(c, io->y, n * h);
    memset(io->db, 0, fl * h * sizeof *io->db);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < fl; k++)
            for (size_t j = 0; j < h; j++) io->db[k * h + j] += g[i * fl + k] * io->dy[i * h + j];
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < fl; k++) {
            float s = 0;
            for (size_t j = 0; j < h; j++) s += io->dy[i * h + j] * io->b[k * h + j];
            g[i * fl + k] = s * tp_gelu_grad(z[i * fl + k]);
        }
    memset(io->da, 0, h * fl * sizeof *io->da);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < h; k++)
            for (size_t j = 0; j < fl; j++) io->da[k * fl + j] += io->x[i * h + k] * g[i * fl + j];
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < h; k++) {
            float s = 0;
            for (size_t j = 0; j < fl; j++) s += g[i * fl + j] * io->a[k * fl + j];
            io->dx[i * h + k] = s;
        }
    coll_allreduce_ring(c, io->dx, n * h);
    free(z);
    free(xs);
    free(g);
}
