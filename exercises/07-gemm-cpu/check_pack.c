/* exercises/07-gemm-cpu/check_pack.c: the checker of exercise 7.1.
 *
 * Built with your exercises/07-gemm-cpu/pack.c by `make ex-7.1`, or with the
 * solution by `make solution-7.1`. For odd sizes (a single row, one short of
 * a sliver, one past it, a depth of 1, leading dimensions wider than the
 * block) and every tile shape the workbook's micro-kernels use, it fills the
 * output with NaN plus a guard zone past the end, calls your routine, and
 * compares every float with the layout pack.h describes (the padding must
 * be zeros, the guard untouched). Then it runs the chapter's packed GEMM
 * (kernels/gemm.c, rung 4) with your two routines on odd shapes and checks C
 * against a double-precision reference.
 * Each failure says where and what; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include "gemm.h"
#include "pack.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GUARD 64

static int failures;

/* The expected value of packed element x of A's slivers (or B's: the same
 * rule with the roles of rows and columns swapped by the caller). */
static float want_a(const float *A, int lda, int mc, int mr, int kc, size_t x)
{
    size_t s = x / ((size_t)kc * mr), rem = x % ((size_t)kc * mr);
    int p = (int)(rem / mr), i = (int)(rem % mr);
    int row = (int)s * mr + i;
    return row < mc ? A[(size_t)row * lda + p] : 0.0f;
}

static float want_b(const float *B, int ldb, int nc, int nr, int kc, size_t x)
{
    size_t s = x / ((size_t)kc * nr), rem = x % ((size_t)kc * nr);
    int p = (int)(rem / nr), j = (int)(rem % nr);
    int col = (int)s * nr + j;
    return col < nc ? B[(size_t)p * ldb + col] : 0.0f;
}

/* One case: pack A (is_a) or B with block rows x cols of a ld-wide matrix. */
static void try_case(int is_a, int outer, int kc, int ld, int tile)
{
    if (failures) return;
    int rows = is_a ? outer : kc;   /* of the source matrix; its row is ld floats */
    size_t slivers = ((size_t)outer + tile - 1) / tile, len = slivers * kc * tile;
    float *X = pw_alloc_floats((size_t)rows * ld);
    float *P = pw_alloc_floats(len + GUARD);
    pw_fill_random(X, (size_t)rows * ld, 71 + (uint64_t)outer, 1.0f, 2.0f);   /* never 0: padding is visible */
    for (size_t x = 0; x < len + GUARD; x++) P[x] = NAN;
    printf("  pack_%c: %s %4d, depth %3d, ld %4d, %s %2d   ", is_a ? 'a' : 'b', is_a ? "rows" : "cols", outer, kc,
           ld, is_a ? "mr" : "nr", tile);
    if (is_a) ex_pack_a(outer, kc, X, ld, tile, P);
    else ex_pack_b(kc, outer, X, ld, tile, P);
    for (size_t x = 0; x < len; x++) {
        float w = is_a ? want_a(X, ld, outer, tile, kc, x) : want_b(X, ld, outer, tile, kc, x);
        if (P[x] == w) continue;   /* NaN never equals: an element left unwritten fails */
        size_t s = x / ((size_t)kc * tile), rem = x % ((size_t)kc * tile);
        int p = (int)(rem / tile), e = (int)(rem % tile);
        printf("wrong\n");
        printf("FAIL: packed[%zu] (sliver %zu, depth %d, %s %d) is %g, want %g%s\n", x, s, p, is_a ? "row" : "column",
               e, P[x], w, w == 0.0f ? ": the padding past the edge must be zeros" : isnan(P[x]) ? ": never written" : "");
        failures++;
        break;
    }
    for (size_t x = len; x < len + GUARD && !failures; x++)
        if (!isnan(P[x])) {
            printf("wrong\nFAIL: wrote packed[%zu], past the %zu floats of ceil(%d/%d) slivers: out of bounds\n", x, len,
                   outer, tile);
            failures++;
        }
    if (!failures) printf("ok\n");
    pw_free(X);
    pw_free(P);
}

static void pack_a_adapter(int mc, int kc, const float *A, int lda, int mr, float *Ap) { ex_pack_a(mc, kc, A, lda, mr, Ap); }
static void pack_b_adapter(int kc, int nc, const float *B, int ldb, int nr, float *Bp) { ex_pack_b(kc, nc, B, ldb, nr, Bp); }

static void try_gemm(int m, int n, int k)
{
    if (failures) return;
    printf("  GEMM with your packing, m x k x n = %d x %d x %d   ", m, k, n);
    float *A = pw_alloc_floats((size_t)m * k), *B = pw_alloc_floats((size_t)k * n);
    float *C = pw_alloc_floats((size_t)m * n), *R = pw_alloc_floats((size_t)m * n), *Ab = pw_alloc_floats((size_t)m * n);
    pw_fill_random(A, (size_t)m * k, 5, -1, 1);
    pw_fill_random(B, (size_t)k * n, 6, -1, 1);
    gemm_ref(m, n, k, A, B, R, Ab);
    for (size_t x = 0; x < (size_t)m * n; x++) C[x] = NAN;
    gemm_simd_with(m, n, k, A, B, C, pack_a_adapter, pack_b_adapter);
    if (gemm_check("GEMM with your packing", m, n, k, C, R, Ab)) {
        printf("wrong\nFAIL: C = A*B is wrong with your packing (the first bad element is above)\n");
        failures++;
    } else printf("ok\n");
    pw_free(A); pw_free(B); pw_free(C); pw_free(R); pw_free(Ab);
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    gemm_blocking bl = gemm_get_blocking();
    printf("exercise 7.1: ex_pack_a and ex_pack_b against the layout of pack.h (the micro-kernel here: %d x %d)\n",
           bl.mr, bl.nr);
    static const int tiles[] = { 4, 6, 8, 14, 16, 32, 48, 64 };
    static const int outers[] = { 1, 5, 13, 14, 15, 29, 100 };
    static const int depths[] = { 1, 7, 64 };
    for (int t = 0; t < 8; t++)
        for (int o = 0; o < 7; o++)
            for (int d = 0; d < 3; d++) {
                int ld_a = depths[d] + 3 * o, ld_b = outers[o] + 5;   /* wider than the block */
                try_case(1, outers[o], depths[d], ld_a, tiles[t]);
                try_case(0, outers[o], depths[d], ld_b, tiles[t]);
            }
    /* Shapes past every blocking factor (KC, MC) and off every tile edge. */
    try_gemm(1, 1, 1);
    try_gemm(7, 9, 5);
    try_gemm(bl.mr + 1, bl.nr + 3, 33);
    try_gemm(bl.mc + 5, 2 * bl.nr + 1, bl.kc + 7);
    if (failures) return 1;
    return pw_ex_pass("every sliver laid out as pack.h says (padding zeros, nothing past the end), and the GEMM "
                      "built on them is right");
}
