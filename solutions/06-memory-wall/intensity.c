/* solutions/06-memory-wall/intensity.c: a solution of exercise 6.1.
 *
 * Added to the skeleton: the counts and the bound. The stencil is the one to
 * think about: each x[j] is read by 2r + 1 neighbouring outputs, but the
 * second to last of those reads hit the cache line the first one brought,
 * so memory sees x once: elem_bytes in, elem_bytes out, whatever r. Its
 * intensity grows with r (2r + 1 flops on the same 8 bytes of floats),
 * which is why wide stencils are faster per flop than narrow ones.
 * Graded by: make solution-6.1
 */
#include "intensity.h"

counts count_triad(int elem_bytes)
{
    return (counts){ 2, 3.0 * elem_bytes };                          /* added: *, +; read b, c; write a */
}

counts count_dot(int elem_bytes)
{
    return (counts){ 2, 2.0 * elem_bytes };                          /* added: *, +; read x, y */
}

counts count_stencil(int radius, int elem_bytes)
{
    return (counts){ 2.0 * radius + 1, 2.0 * elem_bytes };           /* added: 2r adds, 1 multiply; x once, y once */
}

counts count_gemm(long m, long n, long k, int elem_bytes)
{
    double M = (double)m, N = (double)n, K = (double)k;              /* added */
    return (counts){ 2 * M * N * K, elem_bytes * (M * K + K * N + 2 * M * N) };
}

double roofline_bound(counts c, double peak_gflops, double bandwidth_gbs)
{
    double memory = c.flops / c.bytes * bandwidth_gbs;               /* added */
    return memory < peak_gflops ? memory : peak_gflops;
}
