/* exercises/06-memory-wall/intensity.h: what exercise 6.1 asks you to write.
 * Your exercises/06-memory-wall/intensity.c implements it; the checker and
 * the solution include this same header.
 *
 * A kernel's arithmetic intensity is its flops divided by the bytes it must
 * move between memory and the core: I = flops / bytes (flop per byte). The
 * roofline says it can run no faster than
 *     min(peak, I x bandwidth)    GFLOP/s     (peak in GFLOP/s, bandwidth in GB/s)
 * Count as STREAM and the whole workbook count:
 *   - flops: each add, subtract, multiply or divide of the kernel's formula
 *     is 1 (a fused multiply-add is 2);
 *   - bytes: compulsory traffic. Each input element read once, each output
 *     element written once, elem_bytes each (4 for float, 8 for double).
 *     Not counted: the write-allocate read of an output's cache line, and
 *     re-reads of data that is still in a cache (a neighbour read a moment
 *     ago by the previous i).
 */
#ifndef PW_EX_INTENSITY_H
#define PW_EX_INTENSITY_H

typedef struct {
    double flops;   /* floating-point operations */
    double bytes;   /* compulsory bytes moved */
} counts;

/* Per element i, for arrays of elem_bytes-sized numbers:
 *   triad:    a[i] = b[i] + s * c[i]
 *   dot:      sum += x[i] * y[i]          (sum stays in a register)
 *   stencil:  y[i] = w * (x[i-r] + ... + x[i] + ... + x[i+r])
 *             a window of 2r + 1 elements of x, summed, then one multiply */
counts count_triad(int elem_bytes);
counts count_dot(int elem_bytes);
counts count_stencil(int radius, int elem_bytes);

/* For the whole call: C = A B + C with A m x k, B k x n, C m x n (C is read
 * and written: that is the "+ C"). Each element of A, B and C crosses from
 * memory once, as if the caches held everything else (the best a blocked
 * GEMM can do; chapter 07 shows how close it gets). */
counts count_gemm(long m, long n, long k, int elem_bytes);

/* The roofline's bound in GFLOP/s for a kernel with counts c on a machine
 * with the given compute peak (GFLOP/s) and memory bandwidth (GB/s). */
double roofline_bound(counts c, double peak_gflops, double bandwidth_gbs);

#endif
