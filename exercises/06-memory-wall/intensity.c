/* exercises/06-memory-wall/intensity.c: exercise 6.1, arithmetic intensity
 * and the roofline's bound.
 *
 * What it teaches: before you optimise a loop, count. A triad does 2 flops
 * for every 12 bytes of floats it moves (1/6 flop per byte); a core that can
 * do 100 GFLOP/s, fed at 30 GB/s, runs it at 5 GFLOP/s at best, whatever the
 * code looks like. GEMM does 2mnk flops on 4(mk + kn + 2mn) bytes: at n =
 * 1024 that is about 170 flops per byte, far right of the ridge, and the
 * peak is the limit. The checker tries your counts on many sizes, then
 * measures triad, dot and a stencil here and sets your predicted bound
 * beside the rate each reached.
 *
 * Check your work:  make ex-6.1
 * Hints, one level more each time (3 levels, the last near the code):
 *   make hint-6.1
 * The answer is in solutions/06-memory-wall/intensity.c: try first.
 */
#include "exercise.h"
#include "intensity.h"

counts count_triad(int elem_bytes)
{
    /* TODO: a[i] = b[i] + s * c[i]: how many flops? which arrays are read,
     * which written? Then delete the lines below. */
    (void)elem_bytes;
    PW_NOT_YET_IMPLEMENTED();
    return (counts){ 0, 0 };
}

counts count_dot(int elem_bytes)
{
    /* TODO: sum += x[i] * y[i]; the sum lives in a register. */
    (void)elem_bytes;
    PW_NOT_YET_IMPLEMENTED();
    return (counts){ 0, 0 };
}

counts count_stencil(int radius, int elem_bytes)
{
    /* TODO: 2r + 1 elements summed (how many adds?), one multiply. Each x[j]
     * is read by 2r + 1 outputs in a row: how many times does it come from
     * memory? */
    (void)radius;
    (void)elem_bytes;
    PW_NOT_YET_IMPLEMENTED();
    return (counts){ 0, 0 };
}

counts count_gemm(long m, long n, long k, int elem_bytes)
{
    /* TODO: a multiply and an add per (i, j, p); A, B read once, C read and
     * written once. Use doubles: m n k overflows an int quickly. */
    (void)m;
    (void)n;
    (void)k;
    (void)elem_bytes;
    PW_NOT_YET_IMPLEMENTED();
    return (counts){ 0, 0 };
}

double roofline_bound(counts c, double peak_gflops, double bandwidth_gbs)
{
    /* TODO: the smaller of the two roofs. Then delete the lines below. */
    (void)c;
    (void)peak_gflops;
    (void)bandwidth_gbs;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
