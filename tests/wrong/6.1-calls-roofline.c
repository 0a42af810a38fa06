/* tests/wrong/6.1-calls-roofline.c: exercise 6.1's bound taken from the
 * workbook's own roofline (common/roofline.h), which the exercise is about.
 * expect: FAIL: 6.1-calls-roofline.c calls pw_roof_bound\(\) */
#include "intensity.h"
#include "roofline.h"

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
    pw_roofs r = { .threads = 1, .peak_gflops = peak_gflops, .dram_gbs = bandwidth_gbs };
    return pw_roof_bound(&r, c.flops / c.bytes);
}
