/* tests/wrong/6.1-write-allocate.c: exercise 6.1 with the write-allocate
 * read of a[] counted in the triad (real traffic, but not how STREAM and the
 * workbook count: the bound would not match the probe's bandwidth).
 * expect: FAIL: triad: you counted the write-allocate read */
#include "intensity.h"

counts count_triad(int elem_bytes) { return (counts){ 2, 4.0 * elem_bytes }; }
counts count_dot(int elem_bytes) { return (counts){ 2, 2.0 * elem_bytes }; }
counts count_stencil(int radius, int elem_bytes) { return (counts){ 2.0 * radius + 1, 2.0 * elem_bytes }; }

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
