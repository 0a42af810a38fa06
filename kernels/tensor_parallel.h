/* kernels/tensor_parallel.h: a transformer block split across t ranks the
 * Megatron way (M. Shoeybi et al., "Megatron-LM: training multi-billion
 * parameter language models using model parallelism", arXiv:1909.08053,
 * 2019), and sequence parallelism on top of it (V. Korthikanti et al.,
 * "Reducing activation recomputation in large transformer models",
 * arXiv:2205.05198, 2022). Pure computation; the rank functions talk through
 * a pw_comm only, so the same code runs on the virtual cluster and over MPI.
 *
 * The block (pre-layer-norm, GPT style; no biases, layer norms without a
 * learnable scale and shift, no dropout: each would add code, not ideas):
 *   L1 = LN(X)                        X: n x h, n = b*s tokens
 *   Q, K, V = L1 Wq, L1 Wk, L1 Wv      each h x h; `heads` heads of d = h/heads
 *   O = causal softmax(Q K^T / sqrt d) V, head by head
 *   X2 = X + O Wo                     Wo: h x h
 *   L2 = LN(X2)
 *   Y  = X2 + GeLU(L2 W1) W2          W1: h x 4h, W2: 4h x h
 * Activations are stored sequence-major, [s][b][h] (token (i, j) is row
 * i*b + j), as Megatron stores them: a split of the rows into t contiguous
 * pieces is then a split of the sequence.
 *
 * The split on t ranks (t divides heads):
 *   Wq, Wk, Wv by columns: rank r holds heads [r heads/t, (r+1) heads/t)
 *   Wo by rows (the same heads' rows); W1 by columns, W2 by rows.
 * Each rank computes a partial O Wo and a partial GeLU(.) W2, whose sum over
 * ranks is the whole: one all-reduce after each ("g": all-reduce forward,
 * identity backward), and one before each in the backward pass, where the
 * gradient reaching LN's output is a sum over the ranks' column slices ("f":
 * identity forward, all-reduce backward). Per block: 2 all-reduces of n h
 * floats forward and 2 backward; a ring all-reduce sends 2(t-1)/t of the
 * buffer from every rank, so 4 x 2(t-1)/t x n h x 4 bytes per rank per
 * block (fp32 here).
 *
 * Sequence parallelism: each all-reduce becomes a reduce-scatter (the sum
 * lands on the rank owning those tokens) and an all-gather (before the next
 * column-split matmul, which needs every token); layer norms and residuals
 * run on a rank's own tokens only. The same bytes as the all-reduce it
 * replaces; in return the activations that were replicated (the LN inputs
 * and outputs) are stored 1/t each. Like Megatron we keep only the shard of
 * each LN output and all-gather it again in the backward pass (two extra
 * all-gathers per block, which Megatron overlaps with compute).
 *
 * Flops counted (and modelled) are the matmuls' 2mnk; layer norms, softmax
 * and GeLU are a few flops per element, left out. The attention scores are
 * counted in full (s x s per head), as a GPU kernel computes them.
 */
#ifndef PW_TENSOR_PARALLEL_H
#define PW_TENSOR_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

#include "collectives.h"

typedef struct {
    int b;        /* sequences */
    int s;        /* tokens per sequence */
    int h;        /* hidden size */
    int heads;    /* attention heads; divides h */
} tp_shape;

/* Weights of one block, or one rank's slices of them (shapes for t ranks):
 *   wq, wk, wv  h x h/t   (columns of the rank's heads)
 *   wo          h/t x h   (rows of the same heads)
 *   w1          h x 4h/t  (columns)
 *   w2          4h/t x h  (rows)                                  row-major */
typedef struct { float *wq, *wk, *wv, *wo, *w1, *w2; } tp_weights;

size_t tp_tokens(const tp_shape *sh);                    /* n = b s */
/* 0 when t ranks can split this block (seqpar: also the sequence);
 * otherwise 1 and one line saying why in why[len]. */
int tp_shape_check(const tp_shape *sh, int t, bool seqpar, char *why, size_t len);

/* Floats of one rank's weights: 12 h^2 / t. */
size_t tp_weight_floats(const tp_shape *sh, int t);
/* One allocation for all six (tp_weights_free frees it); zeroed. */
void tp_weights_alloc(tp_weights *w, const tp_shape *sh, int t);
void tp_weights_free(tp_weights *w);
/* The six arrays back to back, as one array of tp_weight_floats (they are). */
float *tp_weights_flat(const tp_weights *w);
/* Random full weights, uniform in +-1/sqrt(fan-in). */
void tp_weights_init(tp_weights *full, const tp_shape *sh, unsigned long long seed);
/* Rank r's slices of full (t ranks), and back (unslice writes rank r's part
 * of a full-shaped set: every rank's unslice together make the full one). */
void tp_weights_slice(const tp_shape *sh, const tp_weights *full, int t, int r, tp_weights *part);
void tp_weights_unslice(const tp_shape *sh, const tp_weights *part, int t, int r, tp_weights *full);

/* One forward and backward of the block on one rank of c (t = c->size).
 * Inputs x and dy (n x h, dL/dY) are the whole batch, the same on every
 * rank; w this rank's slices. Outputs: y and dx (n x h) whole, or, with
 * seqpar, only this rank's tokens (rows of tp_seq_rows), the rest untouched;
 * dw this rank's weight gradients (overwritten). stash_bytes: the bytes this
 * rank kept from the forward pass for the backward, as allocated. */
typedef struct {
    tp_shape shape;
    bool seqpar;
    const float *x, *dy;
    const tp_weights *w;
    float *y, *dx;
    tp_weights *dw;
    double stash_bytes;       /* out */
} tp_rank_io;
void tp_block_rank(pw_comm *c, tp_rank_io *io);

/* The same messages and modelled compute, without data (phantom messages,
 * NULL buffers): for sizes that would not fit, e.g. h = 12288. */
void tp_block_model(pw_comm *c, const tp_shape *sh, bool seqpar);

/* The unsplit block, for checking: the same forward and backward on one
 * device with the full weights. */
void tp_block_reference(const tp_shape *sh, const tp_weights *full, const float *x, const float *dy,
                        float *y, float *dx, tp_weights *dw);
/* Forward only, for finite-difference checks of the reference's backward. */
void tp_block_forward_reference(const tp_shape *sh, const tp_weights *full, const float *x, float *y);

/* Rows [first, first + count) that rank r of t owns under sequence
 * parallelism: the chunk a ring reduce-scatter leaves complete on it. */
void tp_seq_rows(const tp_shape *sh, int t, int r, size_t *first, size_t *count);

/* ---- closed forms ------------------------------------------------------------ */
/* Matmul flops of one rank, forward and backward (backward = 2 x forward):
 * per block 24 n h^2 / t + 4 b s^2 h / t forward. */
double tp_flops_forward(const tp_shape *sh, int t);
double tp_flops_backward(const tp_shape *sh, int t);
/* Bytes each rank sends per block (fp32): TP 4 all-reduces of n h floats
 * by ring, 4 x 2(t-1)/t x 4 n h; sequence parallelism adds two all-gathers
 * in the backward pass, 2 x (t-1)/t x 4 n h. Exact when t divides n h. */
double tp_comm_bytes(const tp_shape *sh, int t, bool seqpar);
/* Bytes of activations one rank keeps for the backward (fp32, as
 * tp_block_rank allocates them):
 *   TP:      n h (16 + 48/t) + 4 heads b s^2 / t
 *   TP + SP: n h (64/t)      + 4 heads b s^2 / t
 * (x, LN1 out, x2, LN2 out: 4 n h floats, replicated unless SP; Q, K, V,
 * attention out: 4 n h/t; W1 out and GeLU out: 8 n h/t; softmax: heads b s^2/t). */
double tp_stash_bytes(const tp_shape *sh, int t, bool seqpar);
/* Korthikanti et al. 2022, eqs. (1)-(5): bytes of activations per layer
 * with 16-bit activations and dropout masks: s b h (34 + 5 a s/h) unsplit,
 * s b h (10 + 24/t + 5 a s/(h t)) with TP, s b h (34/t + 5 a s/(h t)) with
 * TP + SP (a = heads). */
double tp_paper_activation_bytes(const tp_shape *sh, int t, bool seqpar);

#endif
