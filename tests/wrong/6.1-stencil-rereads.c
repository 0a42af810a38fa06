/* tests/wrong/6.1-stencil-rereads.c: exercise 6.1 with every read of the
 * stencil's window counted as memory traffic (the neighbours come from the
 * cache: memory sees x once).
 * expect: FAIL: stencil: each x\[j\] is read by 2r \+ 1 outputs */
#include "intensity.h"

counts count_triad(int elem_bytes) { return (counts){ 2, 3.0 * elem_bytes }; }
counts count_dot(int elem_bytes) { return (counts){ 2, 2.0 * elem_bytes }; }
counts count_stencil(int radius, int elem_bytes) { return (counts){ 2.0 * radius + 1, (2.0 * radius + 2) * elem_bytes }; }

counts count_gemm(long m, long n, long k, int elem_bytes)
{
    double M = (double)m, N = (double)n, K = (double)k;
    return (counts){ 2 * M * N * K, elem_bytes * (M * K + K * N + 2 * M * N) };
}

double roofline_bound(counts c, double peak_gflops, double bandwidth_gbs)
{
    double memory = c.flops / c.bytes * bandwidth_gbs;
    return memory < peak_gflops ? memory : peak_gflops;
}
