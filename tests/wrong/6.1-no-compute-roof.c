/* tests/wrong/6.1-no-compute-roof.c: exercise 6.1 with a bound that forgets
 * the compute roof (right of the ridge, I x bandwidth passes the peak).
 * expect: FAIL: right of the ridge the compute roof is lower */
#include "intensity.h"

counts count_triad(int elem_bytes) { return (counts){ 2, 3.0 * elem_bytes }; }
counts count_dot(int elem_bytes) { return (counts){ 2, 2.0 * elem_bytes }; }
counts count_stencil(int radius, int elem_bytes) { return (counts){ 2.0 * radius + 1, 2.0 * elem_bytes }; }

counts count_gemm(long m, long n, long k, int elem_bytes)
{
    double M = (double)m, N = (double)n, K = (double)k;
    return (counts){ 2 * M * N * K, elem_bytes * (M * K + K * N + 2 * M * N) };
}

double roofline_bound(counts c, double peak_gflops, double bandwidth_gbs)
{
    (void)peak_gflops;
    return c.flops / c.bytes * bandwidth_gbs;
}
