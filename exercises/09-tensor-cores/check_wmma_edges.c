/* exercises/09-tensor-cores/check_wmma_edges.c: the checker of exercise 9.3.
 *
 * For each size m x k x n (1, 15, 17, 33, 100, two non-square ones, and
 * 64: no ragged edge at all) it rounds A and B to fp16 (to nearest even, as
 * __float2half) and gives your kernel buffers of exactly m x k, k x n and
 * m x n elements: no padding, so a tile that hangs over an edge must be
 * zero-filled in shared memory, and a store past the edge of C is an
 * out-of-bounds access. Every element of C is compared with a double-
 * precision product of the same rounded inputs, within gamma_k sum |a b|,
 * u = 2^-23 (gemm_check.h: exact fp16 products, fp32 sums that may
 * truncate; the zeros add nothing). Then the Tensor Core work: exactly
 * ceil(m/16) ceil(n/16) ceil(k/16) mma_sync calls, one per tile of C per
 * 16-wide step of k. Everything runs twice: with the emulator's fixed
 * fragment layout, then with a scrambled one.
 */
#include "exercise.h"
#include "report_hint.h"
#include "gemm_check.h"
#include "util.h"
#include "wmma_edges.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int sizes[][3] = {   /* m, k, n */
    { 1, 1, 1 }, { 15, 15, 15 }, { 17, 17, 17 }, { 33, 33, 33 }, { 64, 64, 64 }, { 100, 100, 100 }, { 33, 100, 17 },
    { 100, 17, 33 },
};

static int tiles(int x) { return (x + 15) / 16; }

/* rows x cols random floats in [-1, 1), rounded to fp16: bits for the
 * device, doubles for the reference. */
static void make_half(int rows, int cols, uint64_t seed, ex09_half *bits, double *val)
{
    size_t count = (size_t)rows * cols;
    float *f = pw_alloc_floats(count);
    pw_fill_random(f, count, seed, -1.0f, 1.0f);
    for (size_t x = 0; x < count; x++) {
        bits[x] = ex09_float_to_half(f[x]);
        val[x] = ex09_half_to_double(bits[x]);
    }
    pw_free(f);
}

/* Launch on the device copies and judge: 0, or 1 after explaining. */
static int run_case(const double *A, const double *B, float *got, ex09_half *dA, ex09_half *dB, float *dC, int m,
                    int n, int k, uint64_t seed)
{
    pw_simt_counters_reset();
    long reports_before = pw_simt_report_count();
    wmma_edges_launch(dA, dB, dC, m, n, k);
    if (cudaGetLastError() != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        pw_ex_explain_error(pw_simt_last_error_message(),
                            "an access past the end of a matrix: a tile that hangs over an edge is read element by\n"
                            "  element with a test (0 past the edge) and written back only where row < m and column < n");
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        printf("wrong\nFAIL: the emulator's checks found a problem: %s\n", pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    const pw_simt_counters *c = pw_simt_total_counters();
    long long want_mma = (long long)tiles(m) * tiles(n) * tiles(k);
    if (c->mma_ops != want_mma) {
        printf("wrong\nFAIL: %lld mma_sync calls, want %lld: %d x %d tiles of C, each ceil(k/16) = %d steps of the "
               "k loop\n", c->mma_ops, want_mma, tiles(m), tiles(n), tiles(k));
        if (c->mma_ops < want_mma && c->mma_ops == (long long)tiles(m) * tiles(n) * (k / 16))
            printf("  the last, partial step of k is missing: loop while p < k, and fill the columns past k with 0\n");
        return 1;
    }
    cudaMemcpy(got, dC, (size_t)m * n * sizeof(float), cudaMemcpyDeviceToHost);
    int i, j;
    if (ex09_compare(A, k, B, n, got, n, m, n, k, EX09_U_TC, &i, &j)) {
        if (isnan(got[(size_t)i * n + j]))
            printf(": never written, or a staging element nothing stored (NaN) reached the product\n");
        else printf("\n");
        if (seed)
            printf("  it was right with the emulator's fixed layout, wrong with a scrambled one: the kernel reads or\n"
                   "  writes a fragment's x[] by an assumed position; only load/store_matrix_sync know the layout\n");
        else
            printf("  is element e of a staging tile row e / 16, column e %% 16 of the tile, at (row, p) for A and\n"
                   "  (p, col) for B, each past the edge a 0, and C[row + r][col + c] = cs[r * 16 + c]?\n");
        return 1;
    }
    /* Each mma_sync is 16^3 multiply-adds; m n k of all of them are of real elements, the rest of zero fill. */
    printf("ok (%lld mma_sync, %.3g%% of their products on real elements)\n", c->mma_ops,
           100.0 * m * n * k / (4096.0 * (double)c->mma_ops));
    return 0;
}

static int try_one(int m, int k, int n, uint64_t seed)
{
    printf("  %3d x %3d x %-3d (m x k x n)  ", m, k, n);
    ex09_half *A = pw_alloc_bytes((size_t)m * k * sizeof *A), *B = pw_alloc_bytes((size_t)k * n * sizeof *B);
    double *Ad = pw_alloc_doubles((size_t)m * k), *Bd = pw_alloc_doubles((size_t)k * n);
    float *got = pw_alloc_floats((size_t)m * n);
    make_half(m, k, ex09_seed(m, k), A, Ad);
    make_half(k, n, ex09_seed(k, n), B, Bd);
    ex09_half *dA, *dB;
    float *dC;
    cudaMalloc((void **)&dA, (size_t)m * k * sizeof *dA);   /* exactly the matrices: no padding */
    cudaMalloc((void **)&dB, (size_t)k * n * sizeof *dB);
    cudaMalloc((void **)&dC, (size_t)m * n * sizeof *dC);
    cudaMemcpy(dA, A, (size_t)m * k * sizeof *dA, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, (size_t)k * n * sizeof *dB, cudaMemcpyHostToDevice);
    cudaMemset(dC, 0xFF, (size_t)m * n * sizeof *dC);   /* NaN: an element never written shows */
    int bad = run_case(Ad, Bd, got, dA, dB, dC, m, n, k, seed);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    pw_free(A);
    pw_free(B);
    pw_free(Ad);
    pw_free(Bd);
    pw_free(got);
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    int bad = ex09_both_layouts("9.3", "a WMMA GEMM on any size, unpadded", sizes, sizeof sizes / sizeof *sizes, try_one);
    if (bad) {
        printf("exercise 9.3 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every product within the fp16-input bound on unpadded odd sizes, any fragment layout");
}
