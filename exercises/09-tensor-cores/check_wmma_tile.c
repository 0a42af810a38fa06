/* exercises/09-tensor-cores/check_wmma_tile.c: the checker of exercise 9.2.
 *
 * For each size m x k x n (1, 15, 17, 33, 100, two non-square ones, and
 * 64: no padding at all) it does what a caller of a Tensor Core kernel
 * without edge handling must: rounds A and B to fp16 (to nearest even, as
 * __float2half), pads them with zeros to M x K and K x N, multiples of 16,
 * and gives your kernel a C of M x N. Every element of C is compared with a
 * double-precision product of the same rounded inputs (the padding's rows
 * and columns of C must be 0), within gamma_K sum |a b|, u = 2^-23
 * (gemm_check.h: exact fp16 products, fp32 sums that may truncate). Then
 * the Tensor Core work: exactly (M/16)(N/16)(K/16) mma_sync calls, one per
 * tile of C per 16-wide step of K.
 * Everything runs twice: with the emulator's fixed fragment layout, then
 * with a scrambled one (pw_simt_set_wmma_scramble), which only a kernel
 * that reads or writes x[] by an assumed position notices.
 */
#include "exercise.h"
#include "report_hint.h"
#include "gemm_check.h"
#include "util.h"
#include "wmma_tile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int sizes[][3] = {   /* m, k, n */
    { 1, 1, 1 }, { 15, 15, 15 }, { 17, 17, 17 }, { 33, 33, 33 }, { 64, 64, 64 }, { 100, 100, 100 }, { 33, 100, 17 },
    { 100, 17, 33 },
};

static int up16(int x) { return (x + 15) / 16 * 16; }

/* rows x cols random floats in [-1, 1), rounded to fp16, into a zeroed
 * R x Cc matrix (the padding): bits for the device, doubles for the reference. */
static void make_padded(int rows, int cols, int R, int Cc, uint64_t seed, ex09_half *bits, double *val)
{
    float *f = pw_alloc_floats((size_t)rows * cols);
    pw_fill_random(f, (size_t)rows * cols, seed, -1.0f, 1.0f);
    memset(bits, 0, (size_t)R * Cc * sizeof *bits);
    memset(val, 0, (size_t)R * Cc * sizeof *val);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            bits[(size_t)r * Cc + c] = ex09_float_to_half(f[(size_t)r * cols + c]);
            val[(size_t)r * Cc + c] = ex09_half_to_double(bits[(size_t)r * Cc + c]);
        }
    pw_free(f);
}

/* Launch on the padded device copies and judge: 0, or 1 after explaining. */
static int run_case(const double *A, const double *B, float *got, ex09_half *dA, ex09_half *dB, float *dC,
                    int M, int N, int K, int m, int n, uint64_t seed)
{
    pw_simt_counters_reset();
    long reports_before = pw_simt_report_count();
    wmma_tile_launch(dA, dB, dC, M, N, K);
    if (cudaGetLastError() != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        pw_ex_explain_error(pw_simt_last_error_message(), "past the end of a padded matrix, where no tile crosses an edge: is each ldm\n"
                            "  the row length of its matrix (A: K, B: N, C: N), and the k loop p < K?");
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        printf("wrong\nFAIL: the emulator's checks found a problem: %s\n", pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    const pw_simt_counters *c = pw_simt_total_counters();
    long long want_mma = (long long)(M / 16) * (N / 16) * (K / 16);
    if (c->mma_ops != want_mma) {
        printf("wrong\nFAIL: %lld mma_sync calls, want %lld: %d x %d tiles of C, each K/16 = %d steps of the k loop\n",
               c->mma_ops, want_mma, M / 16, N / 16, K / 16);
        if (c->mma_ops == want_mma - (long long)(M / 16) * (N / 16))
            printf("  one step short per tile: the loop is for (p = 0; p < K; p += 16), the last tile starts at K - 16\n");
        else if (c->mma_ops == 0)
            printf("  the k loop has no wmma::mma_sync(acc, a, b, acc) yet\n");
        return 1;
    }
    cudaMemcpy(got, dC, (size_t)M * N * sizeof(float), cudaMemcpyDeviceToHost);
    int i, j;
    if (ex09_compare(A, K, B, N, got, N, M, N, K, EX09_U_TC, &i, &j)) {
        if (isnan(got[(size_t)i * N + j])) printf(": never written (the poison, NaN): is every tile of C stored?\n");
        else if (i >= m || j >= n) printf(": in the padding, where A's rows or B's columns are 0\n");
        else printf("\n");
        if (seed)
            printf("  it was right with the emulator's fixed layout, wrong with a scrambled one: the kernel reads or\n"
                   "  writes a fragment's x[] by an assumed position; only load/store_matrix_sync know the layout\n");
        else
            printf("  is each ldm the row length of its matrix (A: K, B: N, C: N), each tile's address its first\n"
                   "  element (A + row * K + p, B + p * N + col), and no x[] indexed by position?\n");
        return 1;
    }
    printf("ok (%lld mma_sync, %.1f global load sectors per mma)\n", c->mma_ops,
           (double)c->global_load_sectors / (double)c->mma_ops);
    return 0;
}

static int try_one(int m, int k, int n, uint64_t seed)
{
    int M = up16(m), N = up16(n), K = up16(k);
    printf("  %3d x %3d x %-3d padded to %3d x %3d x %-3d  ", m, k, n, M, K, N);
    ex09_half *A = pw_alloc_bytes((size_t)M * K * sizeof *A), *B = pw_alloc_bytes((size_t)K * N * sizeof *B);
    double *Ad = pw_alloc_doubles((size_t)M * K), *Bd = pw_alloc_doubles((size_t)K * N);
    float *got = pw_alloc_floats((size_t)M * N);
    make_padded(m, k, M, K, ex09_seed(m, k), A, Ad);
    make_padded(k, n, K, N, ex09_seed(k, n), B, Bd);
    ex09_half *dA, *dB;
    float *dC;
    cudaMalloc((void **)&dA, (size_t)M * K * sizeof *dA);   /* exactly the padded matrices */
    cudaMalloc((void **)&dB, (size_t)K * N * sizeof *dB);
    cudaMalloc((void **)&dC, (size_t)M * N * sizeof *dC);
    cudaMemcpy(dA, A, (size_t)M * K * sizeof *dA, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, (size_t)K * N * sizeof *dB, cudaMemcpyHostToDevice);
    cudaMemset(dC, 0xFF, (size_t)M * N * sizeof *dC);   /* NaN: a tile never stored shows */
    int bad = run_case(Ad, Bd, got, dA, dB, dC, M, N, K, m, n, seed);
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
    int bad = ex09_both_layouts("9.2", "a WMMA GEMM on padded sizes", sizes, sizeof sizes / sizeof *sizes, try_one);
    if (bad) {
        printf("exercise 9.2 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every product within the fp16-input bound, one mma_sync per tile and step, any fragment layout");
}
