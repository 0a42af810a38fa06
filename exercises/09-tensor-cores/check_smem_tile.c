/* exercises/09-tensor-cores/check_smem_tile.c: the checker of exercise 9.1.
 *
 * Runs your smem_tile on the SIMT emulator on sizes m x k x n of 1, 15, 17,
 * 33, 100 and two non-square ones (partial tiles on every edge, of every
 * matrix), with buffers of exactly the matrices' size (a load past an edge
 * is an out-of-bounds access, not a lucky read of the next row). Every
 * element is compared with a double-precision reference. The tolerance:
 * an fp32 dot product of length k, in any order, with or without FMA, is
 * within gamma_k * sum_p |A[i][p] B[p][j]| of the exact one, gamma_k =
 * k u / (1 - k u), u = 2^-24 (gemm_check.h). At k = 100 that is 6e-6 of
 * sum |a b|; one product left out or added twice is off by about 1/k of it
 * (1%), some 1700 times more.
 *
 * Then the counters. Loads: with T x T tiles a block loads its T rows of A
 * once per column of blocks and its T columns of B once per row of blocks,
 * k elements each, so the whole grid loads
 *     k (m ceil(n/T) + n ceil(m/T))          (edges guarded: no load past them)
 * elements of A and B, about 2k/T per output; the naive kernel loads 2k per
 * output. The bound is that count for T = 8 (any tile of 8 x 8 or more
 * passes): at 100^3 it is 26 loads per output where the naive kernel needs
 * 200 and 16 x 16 tiles 14. (At 1 x 1 x 1 the two coincide: that size tests
 * edges only.) And the tiles must go through shared memory: a kernel that
 * reads none was not tiled that way.
 */
#include "exercise.h"
#include "report_hint.h"
#include "gemm_check.h"
#include "smem_tile.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int sizes[][3] = {   /* m, k, n */
    { 1, 1, 1 }, { 15, 15, 15 }, { 17, 17, 17 }, { 33, 33, 33 }, { 100, 100, 100 }, { 33, 100, 17 }, { 100, 17, 33 },
};
#define BOUND_TILE 8   /* the smallest tile side the load bound accepts */

/* Loads of A and B a tiling with tile side t makes (see the top of the file). */
static double tiled_loads(int m, int n, int k, int t)
{
    return (double)k * ((double)m * ((n + t - 1) / t) + (double)n * ((m + t - 1) / t));
}

/* Compare got with the reference: 0, or 1 after explaining the first bad element. */
static int compare(const float *A, const float *B, const float *got, int m, int n, int k)
{
    double *dA = pw_alloc_doubles((size_t)m * k), *dB = pw_alloc_doubles((size_t)k * n);
    for (size_t x = 0; x < (size_t)m * k; x++) dA[x] = A[x];
    for (size_t x = 0; x < (size_t)k * n; x++) dB[x] = B[x];
    int i, j, bad = ex09_compare(dA, k, dB, n, got, n, m, n, k, EX09_U_FP32, &i, &j);
    if (bad && isnan(got[(size_t)i * n + j]))
        printf(": never written, or it read a tile element nothing stored (NaN)\n");
    else if (bad)
        printf(": are the tiles complete (a barrier after the loads, one before the next overwrite), the\n"
               "  loads past the edges of A and B zeros, and each product As[ty][q] * Bs[q][tx]?\n");
    pw_free(dA);
    pw_free(dB);
    return bad;
}

/* Launch on the device copies and judge: 0, or 1 after explaining. */
static int run_case(const float *A, const float *B, float *got, float *dA, float *dB, float *dC, int m, int n, int k)
{
    pw_simt_counters_reset();
    long reports_before = pw_simt_report_count();
    smem_tile_launch(dA, dB, dC, m, n, k);
    if (cudaGetLastError() != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        pw_ex_explain_error(pw_simt_last_error_message(), "a load past the end of A or B: on the ragged last tiles guard every load\n"
                            "  (row < m && p0 + tx < k for A, p0 + ty < k && col < n for B) and load 0 instead");
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        printf("wrong\nFAIL: the emulator's checks found a problem (the result may look right by luck): %s\n",
               pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    cudaMemcpy(got, dC, (size_t)m * n * sizeof(float), cudaMemcpyDeviceToHost);
    if (compare(A, B, got, m, n, k)) return 1;
    const pw_simt_counters *c = pw_simt_total_counters();
    double outputs = (double)m * n, per = c->global_loads / outputs;
    double bound = tiled_loads(m, n, k, BOUND_TILE);
    if (c->global_loads > bound) {
        printf("wrong\nFAIL: %lld global loads for %d x %d outputs: %.1f per output, more than the %.1f of %d x %d tiles "
               "(k (ceil(n/8)/n + ceil(m/8)/m))\n", c->global_loads, m, n, per, bound / outputs, BOUND_TILE, BOUND_TILE);
        if (per >= 1.9 * k)
            printf("  that is 2k = %d: each thread reads its row of A and column of B from global memory. Load a\n"
                   "  tile of each into shared memory once per block, then read the products from there\n", 2 * k);
        else
            printf("  is each tile element loaded by one thread only, and are both A and B tiled?\n");
        return 1;
    }
    /* At 1 x 1 x 1 every kernel makes 2 loads: tiles cannot show there, so they are asked for where they can. */
    if (c->shared_loads == 0 && bound < 2.0 * k * outputs) {
        printf("wrong\nFAIL: the right product with %.1f global loads per output, but no shared memory read: the\n"
               "  exercise is tiles staged through __shared__ arrays, shared by the block's threads\n", per);
        return 1;
    }
    printf("ok (%.1f global loads per output; untiled: %d, 8 x 8 tiles: %.1f)\n", per, 2 * k, bound / outputs);
    return 0;
}

static int try_one(int m, int k, int n)
{
    printf("  %3d x %3d x %-3d (m x k x n)  ", m, k, n);
    float *A = pw_alloc_floats((size_t)m * k), *B = pw_alloc_floats((size_t)k * n), *got = pw_alloc_floats((size_t)m * n);
    pw_fill_random(A, (size_t)m * k, ex09_seed(m, k), -1.0f, 1.0f);
    pw_fill_random(B, (size_t)k * n, ex09_seed(k, n), -1.0f, 1.0f);
    float *dA, *dB, *dC;
    cudaMalloc((void **)&dA, (size_t)m * k * sizeof(float));   /* exactly the matrices: a load past one is caught */
    cudaMalloc((void **)&dB, (size_t)k * n * sizeof(float));
    cudaMalloc((void **)&dC, (size_t)m * n * sizeof(float));
    cudaMemcpy(dA, A, (size_t)m * k * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, (size_t)k * n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(dC, 0xFF, (size_t)m * n * sizeof(float));   /* NaN: an element never written shows */
    int bad = run_case(A, B, got, dA, dB, dC, m, n, k);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    pw_free(A);
    pw_free(B);
    pw_free(got);
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    printf("exercise 9.1: a shared-memory tiled GEMM on the emulator, %zu sizes\n", sizeof sizes / sizeof *sizes);
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++)
        bad = try_one(sizes[s][0], sizes[s][1], sizes[s][2]);
    if (bad) {
        printf("exercise 9.1 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every product within the fp32 bound, global loads within what 8 x 8 tiles make");
}
