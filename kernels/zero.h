/* kernels/zero.h: sharded data parallelism (ZeRO stages 1-3, FSDP): what a
 * device holds and what it sends per step, as formulas, and Adam
 * (kernels/zero.c, which chapter 13's planner links for its --zero); then
 * the training step that holds and sends exactly that on a pw_comm (the
 * virtual cluster or Open MPI; kernels/zero_train.c).
 *
 * Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
 * Parameter Models", SC 2020 (arXiv:1910.02054), section 5 and Figure 1:
 * mixed-precision Adam keeps per parameter 2 bytes of fp16/bf16 weights, 2
 * of gradients and K = 12 of optimizer state (fp32 master weights, Adam's m
 * and v). Over Nd data-parallel devices:
 *   stage 0 (plain DP):             (2 + 2 + K) psi
 *   stage 1 (P_os, states sharded):  2 psi + 2 psi + K psi / Nd
 *   stage 2 (P_os+g, + gradients):   2 psi + (2 + K) psi / Nd
 *   stage 3 (P_os+g+p, + weights):   (2 + 2 + K) psi / Nd
 * Figure 1's example, psi = 7.5B on Nd = 64: 120 GB, 31.4, 16.6, 1.9 GB.
 * Communication (section 7): a ring all-reduce is a reduce-scatter and an
 * all-gather, each sending (Nd - 1) / Nd of the data from every device:
 * stages 0-2 move 2 psi (Nd - 1) / Nd elements a device a step; stage 3
 * gathers the weights again for the backward pass, 3 psi (Nd - 1) / Nd. */
#ifndef PW_ZERO_H
#define PW_ZERO_H

#include "collectives.h"
#include "mlp.h"

#include <stddef.h>

/* Bytes per device of each kind of model state, and their sum. */
typedef struct { double weights, grads, optimizer, total; } zero_memory;

/* Model states per device for psi parameters at ZeRO `stage` (0-3) over d
 * devices, with wbytes of weights, gbytes of gradients and k bytes of
 * optimizer state per parameter (the paper: 2, 2, 12). */
zero_memory zero_model_states(double psi, int stage, int d, double wbytes, double gbytes, double k);

/* Elements one device sends in one step at `stage` over d devices, by the
 * ring: 2 psi (d - 1) / d for stages 0-2, 3 psi (d - 1) / d for stage 3;
 * 0 when d = 1. */
double zero_comm_elems(double psi, int stage, int d);

/* ---- Adam on flat fp32 arrays ------------------------------------------------
 * State layout: two arrays of the same length as the parameters they serve,
 * m (first moment) and v (second moment), both starting at zero, and the
 * step count t (1 at the first update), kept by the caller. Each element is
 * updated by itself, so a rank that owns elements lo..hi-1 calls this on
 * w + lo, g + lo, m, v with n = hi - lo and gets exactly the bits one device
 * gets for those elements from the same gradient:
 *   g = grad_sum / batch
 *   m = b1 m + (1 - b1) g          v = b2 v + (1 - b2) g^2
 *   w -= lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
 * (Kingma and Ba 2015, Algorithm 1, without weight decay.) In this run the
 * fp32 weights are their own master copy, so the state is 8 bytes a
 * parameter (m, v); the paper's mixed-precision Adam keeps 12 (an fp32 copy
 * of the fp16 weights besides m and v). */
typedef struct { float lr, beta1, beta2, eps; } zero_adam;

/* The usual defaults with this learning rate: b1 0.9, b2 0.999, eps 1e-8. */
zero_adam zero_adam_defaults(float lr);
void zero_adam_step(const zero_adam *a, int t, float *w, const float *grad_sum, size_t batch,
                    float *m, float *v, size_t n);

/* ---- the sharded training step on a pw_comm ------------------------------
 * Every step: the global batch of b samples is split d ways (as dp_train.h
 * splits it); each rank sums the gradient of its shard (kernels/mlp.h).
 *   stage 0  full weights, gradients, Adam state; ring all-reduce of the
 *            gradient sum; every rank updates every element.
 *   stage 1  full weights and gradients, Adam state of its own chunk only;
 *            reduce-scatter of the gradient sum, Adam on its chunk, all-gather
 *            of the weights.
 *   stage 2  as stage 1, but of the reduced gradient it keeps only its chunk.
 *            The MLP's backward (mlp_grad_sum) writes the whole gradient in
 *            one call, so the full gradient exists as a transient buffer,
 *            allocated for the backward and the reduce-scatter and freed
 *            before the update; the memory report counts it apart
 *            (transient), not as held. A real ZeRO-2 reduce-scatters bucket
 *            by bucket as the backward goes, so its transient is a bucket.
 *   stage 3  its own chunk of the weights only; all-gathers them into a
 *            transient full copy before the forward (the loss) and again
 *            before the backward (freed in between, as FSDP frees a unit's
 *            gathered parameters after its forward), reduce-scatters the
 *            gradient, updates its chunk: no all-gather after the update.
 *            The backward call recomputes the forward (mlp_grad_sum does
 *            both); the modelled clock is charged the forward's 2 flops a
 *            parameter a sample once and the backward's 4, as a real
 *            implementation that keeps activations spends.
 * The chunk a rank owns is coll_rs_owned_chunk(rank, d) of
 * coll_chunk_begin's split: the chunk the ring's reduce-scatter leaves
 * summed on it and its all-gather takes from it.
 * Bytes: every message the rank sends is counted on the way out (a wrapper
 * around comm->send), so the count is what the collectives really sent. */
typedef struct {
    mlp_shape s;
    const float *x, *y;         /* all steps' data: steps * batch samples */
    size_t batch;               /* global batch */
    int steps;
    zero_adam adam;
} zero_job;

/* What one rank held and sent: bytes of each kind, from its allocations. */
typedef struct {
    double weights, grads, optimizer;   /* held for the whole run */
    double transient;                   /* the most held at once only within a step (gathered weights, full gradient) */
    double sent;                        /* bytes this rank sent, all steps */
    size_t lo, hi;                      /* the parameters it owns (stages 1-3; 0..np for stage 0) */
} zero_rank_report;

/* Planted faults, for tests that must see the check fail. */
enum { ZERO_FAULT_NONE = 0, ZERO_FAULT_SKIP_ALLGATHER = 1 };

/* Train from w0 (np floats, the same on every rank) at `stage` for j->steps
 * steps. w_out (may be NULL): np floats, the full trained weights as this
 * rank sees them (stage 3 gathers them once after training, not counted in
 * rep->sent). rep (may be NULL): what the rank held and sent. fault:
 * ZERO_FAULT_NONE, or a planted bug. */
void zero_replica(pw_comm *c, const zero_job *j, int stage, const float *w0, float *w_out,
                  zero_rank_report *rep, int fault);

/* The reference: one device, the whole batch, the same Adam. */
void zero_one_device(const zero_job *j, float *w);

#endif
