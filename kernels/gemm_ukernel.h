/* kernels/gemm_ukernel.h: what the GEMM ladder's packed rungs (kernels/gemm.c)
 * and the per-ISA micro-kernels (gemm_x86.c, gemm_neon.c, gemm_scalar.c)
 * share. Not part of the chapter's interface: programs include gemm.h.
 *
 * A micro-kernel multiplies one packed A sliver (kc x MR, see gemm_pack_a)
 * by one packed B sliver (kc x NR) into an MR x NR tile of C at c (row
 * stride ldc): C = product when accumulate is 0, C += product otherwise.
 * The whole tile is always computed (packing pads with zeros); the caller
 * points c at a scratch tile when the real one is cut off by the matrix edge.
 * Both slivers are 64-byte aligned (the packed buffers are, and MR*4, NR*4
 * are multiples of 16: whole vectors).
 */
#ifndef PW_GEMM_UKERNEL_H
#define PW_GEMM_UKERNEL_H

#include "probe.h"

typedef void (*gemm_ukernel_fn)(int kc, const float *a, const float *b, float *c, int ldc, int accumulate);

typedef struct {
    pw_isa isa;
    int mr, nr;
    gemm_ukernel_fn fn;
    const char *why;    /* the derivation of the shape from the registers, one line */
} gemm_ukernel;

/* The shapes each ISA offers, best first (gemm.c picks the first that runs
 * here unless told otherwise). Defined where the kernels are. */
extern const gemm_ukernel gemm_ukernels_x86[];
extern const int gemm_ukernels_x86_n;
extern const gemm_ukernel gemm_ukernels_neon[];
extern const int gemm_ukernels_neon_n;
extern const gemm_ukernel gemm_ukernels_scalar[];
extern const int gemm_ukernels_scalar_n;

#endif
