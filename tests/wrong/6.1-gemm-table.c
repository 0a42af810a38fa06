/* tests/wrong/6.1-gemm-table.c: exercise 6.1 with GEMM counted for square
 * matrices only (n^3 and n^2 terms from m alone): right on 1 x 1 x 1 and
 * 8192^3, wrong on the checker's non-square shapes.
 * expect: FAIL: gemm: */
#include "intensity.h"

counts count_triad(int elem_bytes) { return (counts){ 2, 3.0 * elem_bytes }; }
counts count_dot(int elem_bytes) { return (counts){ 2, 2.0 * elem_bytes }; }
counts count_stencil(int radius, int elem_bytes) { return (counts){ 2.0 * radius + 1, 2.0 * elem_bytes }; }

counts count_gemm(long m, long n, long k, int elem_bytes)
{
    (void)n; (void)k;
    double M = (double)m;
    return (counts){ 2 * M * M * M, elem_bytes * 4 * M * M };
}

double roofline_bound(counts c, double peak_gflops, double bandwidth_gbs)
{
    double memory = c.flops / c.bytes * bandwidth_gbs;
    return memory < peak_gflops ? memory : peak_gflops;
}
