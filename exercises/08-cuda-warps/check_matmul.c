/* exercises/08-cuda-warps/check_matmul.c: the checker of puzzle 8.17, matmul.
 *
 * Runs your matmul on the SIMT emulator: n = 3 in 2 x 2 tiles with the
 * access picture (PW_PICTURE=FILE or PW_PICTURE_DIR writes it as CSV for
 * the gallery: 4 blocks of 4 threads, 35 columns), then (n, T) = (1, 4),
 * (4, 4) (one whole tile), (5, 4) and (7, 4) (edge tiles mostly empty and
 * mostly full), (17, 8), (31, 8), (33, 16), (64, 16), on the given launch.
 * A and B are allocated with exactly n x n elements (a load past the end
 * is memcheck's error). A's elements are from -4 to 4 and B's from -3 to
 * 3, so every partial sum is a whole number below 4 x 3 x 64 = 768 in
 * size: exact in float in any order, tolerance 0. The budget, counted by
 * the emulator for every thread: at most 2 ceil(n / T) global reads (one
 * element of A's tile and one of B's per step along k) and 1 global write.
 * The naive kernel, right values and all, makes 2n reads: 6 at n = 3,
 * T = 2, against 4. The access log keeps up to 2^20 accesses, so the
 * budget is counted at n = 64 too (the tiled kernel makes about 600000).
 */
#define PZ_LOG_CAP (1L << 20)
#include "exercise.h"
#include "check.h"
#include "util.h"
#include "puzzle_checks.h"
#include "matmul.h"

static const struct { int n, tile; } sizes[] = {
    { 3, 2 }, { 1, 4 }, { 4, 4 }, { 5, 4 }, { 7, 4 }, { 17, 8 }, { 31, 8 }, { 33, 16 }, { 64, 16 },
};
#define MAXN 64
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_C, 0x7F, ...) leaves, read as an int */

static pz_picture pic;

/* sum over k < kmax of A[r][k] B[k][c], with B read as B[c][k] when `bt`. */
static double dot_rc(const float *A, const float *B, int n, int r, int c, int kmax, int bt)
{
    double s = 0;
    for (int k = 0; k < kmax && k < n; k++) s += (double)A[r * n + k] * (bt ? B[c * n + k] : B[k * n + c]);
    return s;
}

/* The expected picture: the solution's tiles, ta = s[0 .. T T - 1], tb after it. */
static void expect_picture(int n, int T)
{
    int tiles = (n + T - 1) / T;
    for (int by = 0; by < tiles; by++)
        for (int bx = 0; bx < tiles; bx++)
            for (int y = 0; y < T; y++)
                for (int x = 0; x < T; x++) {
                    long row_of_pic = ((long)by * tiles + bx) * T * T + (long)y * T + x;
                    int r = by * T + y, c = bx * T + x;
                    for (int k0 = 0; k0 < n; k0 += T) {
                        if (r < n && k0 + x < n) pz_expect(&pic, row_of_pic, 0, (long)r * n + k0 + x, PZ_READ);
                        if (k0 + y < n && c < n) pz_expect(&pic, row_of_pic, 1, (long)(k0 + y) * n + c, PZ_READ);
                        pz_expect(&pic, row_of_pic, 3, (long)y * T + x, PZ_WRITE);
                        pz_expect(&pic, row_of_pic, 3, (long)T * T + y * T + x, PZ_WRITE);
                        for (int k = 0; k < T; k++) {
                            pz_expect(&pic, row_of_pic, 3, (long)y * T + k, PZ_READ);
                            pz_expect(&pic, row_of_pic, 3, (long)T * T + k * T + x, PZ_READ);
                        }
                    }
                    if (r < n && c < n) pz_expect(&pic, row_of_pic, 2, (long)r * n + c, PZ_WRITE);
                }
}

/* Why C[r][c] is wrong, when it is one of the usual mistakes. */
static void explain_value(const float *A, const float *B, float got, int n, int T, int r, int c)
{
    int bits;
    memcpy(&bits, &got, sizeof bits);
    if (bits == UNWRITTEN)
        printf(": never written (row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x)\n");
    else if (n > T && got == (float)dot_rc(A, B, n, r, c, T, 0))
        printf(": that is the first tile's %d products only: the loop over the tiles along k runs ceil(n / T) = "
               "%d times\n", T, (n + T - 1) / T);
    else if (r != c && got == (float)dot_rc(A, B, n, c, r, n, 0))
        printf(": that is C[%d][%d], row and column swapped: the row comes from y, the column from x\n", c, r);
    else if (got == (float)dot_rc(A, B, n, r, c, n, 1))
        printf(": that is A times B transposed (B[col][k] in place of B[k][col]): check how B's tile is loaded and "
               "read\n");
    else if ((r / T + 1) * T > n || (c / T + 1) * T > n)
        printf(": an edge tile: the parts of a tile outside the matrix must be 0 (and never loaded)\n");
    else printf(": are the tiles loaded, then a barrier, then read, then a barrier before the next load?\n");
}

static int try_one(const float *h_A, const float *h_B, int n, int T, int draw)
{
    static float got[MAXN * MAXN];
    long nn = (long)n * n;
    float *d_A, *d_B, *d_C;                   /* exactly n x n: an access past the end is an error */
    cudaMalloc((void **)&d_A, (size_t)nn * sizeof(float));
    cudaMalloc((void **)&d_B, (size_t)nn * sizeof(float));
    cudaMalloc((void **)&d_C, (size_t)nn * sizeof(float));
    cudaMemcpy(d_A, h_A, (size_t)nn * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, (size_t)nn * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_C, 0x7F, (size_t)nn * sizeof(float));
    int tiles = (n + T - 1) / T;
    printf("  n = %-3d tile = %-3d ", n, T);
    pz_buf bufs[] = { { "A", d_A, sizeof(float), nn }, { "B", d_B, sizeof(float), nn },
                      { "C", d_C, sizeof(float), nn }, { "s", NULL, sizeof(float), 2L * T * T } };
    pz_begin(&pic, "8.17 matmul", bufs, 4);
    long reports = pw_simt_report_count();
    matmul_launch(d_A, d_B, d_C, n, T);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(n, T);
    int tiny = tiles * tiles * T * T <= 16;
    int bad = pz_run_failed(&pic, err, reports, tiny);
    char given[96];
    snprintf(given, sizeof given, "%d x %d blocks of %d x %d threads", tiles, tiles, T, T);
    if (!bad) bad = pz_launch_failed((long long)tiles * tiles, (long long)T * T, given);
    if (!bad) {
        cudaMemcpy(got, d_C, (size_t)nn * sizeof(float), cudaMemcpyDeviceToHost);
        for (long e = 0; e < nn && !bad; e++) {
            int r = (int)(e / n), c = (int)(e % n);
            double want = dot_rc(h_A, h_B, n, r, c, n, 0);   /* exact: whole numbers below 2^24 */
            if (got[e] == (float)want) continue;
            printf("wrong\nFAIL: C[%d][%d] = %g, want the sum of A[%d][k] B[k][%d] = %g", r, c, (double)got[e], r, c,
                   want);
            explain_value(h_A, h_B, got[e], n, T, r, c);
            if (tiny) pz_print(&pic);
            bad = 1;
        }
    }
    long budget = 2L * tiles;
    if (!bad && !pz_log_complete(&pic)) {
        printf("(the access log is full: the budget is counted on the other sizes) ");
    } else if (!bad && pz_limits(&pic, budget, 1, -1, -1)) {
        printf("  every C[r][c] is right, but C[r][c] needs row r of A and column c of B, 2n = %d elements,\n"
               "  and reading them all from global memory in every thread is the naive kernel. With %d x %d\n"
               "  tiles each thread loads one element of A and one of B per step along k into shared memory,\n"
               "  and the block shares them: 2 ceil(n / T) = %ld reads per thread\n", 2 * n, T, T, budget);
        if (tiny) pz_print(&pic);
        bad = 1;
    }
    if (!bad) {
        long most = 0;                        /* the threads the picture counts (the first PZ_MAX_THREADS) */
        for (long t = 0; t < pic.threads; t++) most = pic.reads[t] > most ? pic.reads[t] : most;
        printf("ok (at most %ld global reads by a thread, budget %ld, the naive kernel's %d; %lld in all)\n", most,
               budget, 2 * n, pw_simt_last_counters()->global_loads);
        if (draw) {
            pz_print(&pic);
            bad = pz_write_picture(&pic);
        }
    }
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    static float h_A[MAXN * MAXN], h_B[MAXN * MAXN];
    for (int i = 0; i < MAXN * MAXN; i++) {
        h_A[i] = (float)((i * 37 + 5) % 9 - 4);
        h_B[i] = (float)((i * 53 + 2) % 7 - 3);
    }
    printf("puzzle 8.17 matmul: C = A B in shared-memory tiles, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++)
        bad = try_one(h_A, h_B, sizes[s].n, sizes[s].tile, s == 0);
    if (bad) {
        printf("puzzle 8.17 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every C[r][c] is exact, 2 ceil(n / T) global reads and 1 write per thread");
}
