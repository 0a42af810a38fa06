/* exercises/11-tensor-parallel/tp_mlp.h: what exercise 11.1 asks you to
 * write. Your exercises/11-tensor-parallel/tp_mlp.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_TP_MLP_H
#define PW_EX_TP_MLP_H

#include <math.h>

#include "collectives.h"

/* One rank's part of an MLP split across the t = c->size ranks of a group
 * the Megatron way (Shoeybi et al. 2019):
 *   Y = GeLU(X A) B      X: n x h, A: h x f, B: f x h      (row-major)
 * A is split by columns, B by rows: rank r holds columns [r f/t, (r+1) f/t)
 * of A (an h x f/t matrix) and the same rows of B (f/t x h). t divides f.
 * Given dY = dL/dY, the backward pass gives dA, dB (this rank's slices) and
 * dX = dL/dX. X and dY are the same on every rank; afterwards y and dx must
 * hold the whole Y and dX on every rank, the same bits on all of them.
 * Communicate with the ring all-reduce (coll_allreduce_ring), only where the
 * split needs it. */
typedef struct {
    int n, h, f;            /* tokens, hidden size, MLP width (a multiple of t) */
    const float *x;         /* n x h */
    const float *a;         /* this rank's columns of A: h x f/t */
    const float *b;         /* this rank's rows of B: f/t x h */
    const float *dy;        /* n x h */
    float *y;               /* out: n x h */
    float *dx;              /* out: n x h */
    float *da;              /* out: h x f/t, dL/dA for this rank's columns */
    float *db;              /* out: f/t x h, dL/dB for this rank's rows */
} tp_mlp_io;

void tp_mlp_rank(pw_comm *c, tp_mlp_io *io);

/* GeLU (the tanh form of GPT-2) and its derivative, for you and the checker. */
static inline float tp_gelu(float z)
{
    return 0.5f * z * (1.0f + tanhf(0.7978845608f * (z + 0.044715f * z * z * z)));
}
static inline float tp_gelu_grad(float z)
{
    float th = tanhf(0.7978845608f * (z + 0.044715f * z * z * z));
    return 0.5f * (1.0f + th) + 0.5f * z * (1.0f - th * th) * 0.7978845608f * (1.0f + 3 * 0.044715f * z * z);
}

#endif
