/* exercises/13-3d-parallelism/memory.h: what exercise 13.1 asks you to
 * write. Your exercises/13-3d-parallelism/memory.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_MEMORY_H
#define PW_EX_MEMORY_H

#include "parallel3d.h"

/* Bytes one device needs to train model md with configuration cf (d, t, p,
 * b, m, zero1, recompute; the mapping does not matter):
 *   - the device's P / (t p) parameters (P = p3_params(md), which you may
 *     call): 2 bytes of bf16 weights, 2 of bf16 gradients, and 12 of Adam's
 *     fp32 state (master weights, m, v), the 12 divided by d with ZeRO-1;
 *   - activations of the first stage, which holds min(p, m) micro-batches
 *     at once under 1F1B, each with L / p layers. One layer of one
 *     micro-batch of b sequences keeps, with tensor and sequence
 *     parallelism (Korthikanti et al. 2022), s b h (34 + 5 a s / h) / t
 *     bytes; with full recomputation only its input, 2 s b h / t bytes, plus
 *     one layer's whole set while it is recomputed.
 * Not the library's p3_memory_of, which is the answer. */
double memory_per_device(const p3_model *md, const p3_config *cf);

/* The fewest pipeline stages p (a divisor of md->layers) with which the
 * model fits in cl's device memory (cl->mem_gb x 1e9 bytes) on all
 * cl->nodes x cl->per_node devices, given t and b: d = devices / (t p) must
 * be whole and divide md->batch, and b must divide batch / d (m = batch /
 * (d b)). Use your memory_per_device. 0 when no p fits. */
int smallest_pipeline(const p3_model *md, const p3_cluster *cl, int t, int b, bool zero1, bool recompute);

#endif
