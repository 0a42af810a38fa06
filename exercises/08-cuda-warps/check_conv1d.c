/* exercises/08-cuda-warps/check_conv1d.c: the checker of puzzle 8.14, conv1d.
 *
 * Runs your conv1d on the SIMT emulator: n = 12, k = 3 in blocks of 8 with
 * the access picture (PW_PICTURE=FILE or PW_PICTURE_DIR writes it as CSV
 * for the gallery), then sizes chosen for their edges: n = 1; k past the
 * end of a (5, 3 and 7, 8); k equal to the block (8, 8, 8 and 300, 64, 64:
 * the halo is k - 1 = B - 1, nearly a second tile); a partial last block in
 * every size but (8, 8, 8); k = 1 (no halo at all). a is allocated with
 * exactly n elements, so a load past a[n - 1] is memcheck's error, not a
 * lucky 0. a[i] is from -9 to 9 and b[j] from -2 to 2: every sum is a whole
 * number below 9 x 2 x 64 = 1152 in size, exact in float in any order,
 * tolerance 0. The budget, counted by the emulator: at most 3 global reads
 * per thread (tile, halo, weight) and 1 write, and in all at most n + nb
 * (k - 1) + nb k reads (nb blocks: each loads its tile, its halo and the
 * weights once).
 */
#include "exercise.h"
#include "check.h"
#include "util.h"
#include "puzzle_checks.h"
#include "conv1d.h"

static const struct { int n, k, block; } sizes[] = {
    { 12, 3, 8 }, { 1, 1, 8 }, { 5, 3, 8 }, { 7, 8, 8 }, { 8, 8, 8 }, { 30, 5, 8 },
    { 100, 7, 32 }, { 200, 32, 32 }, { 1000, 16, 32 }, { 1001, 1, 64 }, { 300, 64, 64 },
};
#define MAXN 1001
#define MAXK 64
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;

/* out[i] with the weights paired as `reversed` says, and only the terms
 * whose a[] lies below `limit` (n, or the end of the block's tile). */
static double conv_at(const float *a, const float *b, int n, int k, int i, int limit, int reversed)
{
    double sum = 0;
    for (int j = 0; j < k; j++)
        if (i + j < n && i + j < limit) sum += (double)a[i + j] * b[reversed ? k - 1 - j : j];
    return sum;
}

static void expect_picture(int n, int k, int B)
{
    int nb = (n + B - 1) / B;
    for (int blk = 0; blk < nb; blk++)
        for (int t = 0; t < B; t++) {
            long row = (long)blk * B + t;
            int i = blk * B + t, h = blk * B + B + t;
            if (i < n) pz_expect(&pic, row, 0, i, PZ_READ);
            pz_expect(&pic, row, 3, t, PZ_WRITE);
            if (t < k - 1) {
                if (h < n) pz_expect(&pic, row, 0, h, PZ_READ);
                pz_expect(&pic, row, 3, B + t, PZ_WRITE);
            }
            if (t < k) {
                pz_expect(&pic, row, 1, t, PZ_READ);
                pz_expect(&pic, row, 3, B + k - 1 + t, PZ_WRITE);
            }
            if (i >= n) continue;
            for (int j = 0; j < k; j++) {
                pz_expect(&pic, row, 3, t + j, PZ_READ);
                pz_expect(&pic, row, 3, B + k - 1 + j, PZ_READ);
            }
            pz_expect(&pic, row, 2, i, PZ_WRITE);
        }
}

/* Why out[i] is wrong, when it is one of the usual mistakes. */
static void explain_value(const float *a, const float *b, float got, int n, int k, int B, int i)
{
    int bits;
    memcpy(&bits, &got, sizeof bits);
    int tile_end = (i / B + 1) * B;
    if (bits == UNWRITTEN) printf(": never written (is the block's first output blockIdx.x * blockDim.x?)\n");
    else if (i + k > tile_end && tile_end < n && got == (float)conv_at(a, b, n, k, i, tile_end, 0))
        printf(": that leaves out a[%d ..], which lie past this block's tile: the halo, the k - 1 = %d elements\n"
               "  after the tile, must be loaded into shared memory too\n", tile_end, k - 1);
    else if (k > 1 && got == (float)conv_at(a, b, n, k, i, n, 1))
        printf(": that is with b reversed (a[i + j] b[k - 1 - j]); the puzzle pairs a[i + j] with b[j]\n");
    else if (i + k > n) printf(": the terms past a[%d] are 0 (and a[n] and beyond must not be read)\n", n - 1);
    else printf("\n");
}

static int try_one(const float *h_a, const float *h_b, int n, int k, int B, int draw)
{
    static float got[MAXN];
    float *d_a, *d_b, *d_out;                 /* exactly n and k: an access past the end is an error */
    cudaMalloc((void **)&d_a, (size_t)n * sizeof(float));
    cudaMalloc((void **)&d_b, (size_t)k * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)n * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, (size_t)k * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(float));
    int nb = (n + B - 1) / B;
    printf("  n = %-5d k = %-3d block = %-3d ", n, k, B);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "b", d_b, sizeof(float), k },
                      { "out", d_out, sizeof(float), n }, { "s", NULL, sizeof(float), B + 2 * k - 1 } };
    pz_begin(&pic, "8.14 conv1d", bufs, 4);
    long reports = pw_simt_report_count();
    conv1d_launch(d_a, d_b, d_out, n, k, B);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(n, k, B);
    int tiny = nb * B <= 32;
    int bad = pz_run_failed(&pic, err, reports, tiny);
    char given[96];
    snprintf(given, sizeof given, "ceil(n / block) = %d block%s of %d threads", nb, nb == 1 ? "" : "s", B);
    if (!bad) bad = pz_launch_failed(nb, B, given);
    if (!bad) {
        cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n && !bad; i++) {
            double want = conv_at(h_a, h_b, n, k, i, n, 0);   /* exact: whole numbers below 2^24 */
            if (got[i] == (float)want) continue;
            printf("wrong\nFAIL: out[%d] = %g, want the sum of a[%d + j] b[j] over j < %d = %g", i, (double)got[i], i,
                   k, want);
            explain_value(h_a, h_b, got[i], n, k, B, i);
            if (tiny) pz_print(&pic);
            bad = 1;
        }
    }
    long most_reads = (long)n + (long)nb * (k - 1) + (long)nb * k;
    if (!bad && !pz_log_complete(&pic)) {
        printf("(the access log is full: the budget is counted on the other sizes) ");
    } else if (!bad && pz_limits(&pic, 3, 1, most_reads, -1)) {
        printf("  each block loads its tile of a once (1 read per thread), the k - 1 = %d elements after it\n"
               "  (threads t < k - 1, one more read each) and the k = %d weights (threads t < k, one each);\n"
               "  then every sum reads shared memory only: at most 3 global reads per thread\n", k - 1, k);
        if (tiny) pz_print(&pic);
        bad = 1;
    }
    if (!bad) {
        printf("ok (global reads in all: %lld)\n", pw_simt_last_counters()->global_loads);
        if (draw) {
            pz_print(&pic);
            bad = pz_write_picture(&pic);
        }
    }
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_out);
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    static float h_a[MAXN], h_b[MAXK];
    for (int i = 0; i < MAXN; i++) h_a[i] = (float)((i * 37) % 19 - 9);
    for (int j = 0; j < MAXK; j++) h_b[j] = (float)((j * 7 + 1) % 5 - 2);
    printf("puzzle 8.14 conv1d: out[i] = sum of a[i+j] b[j] over j < k, tiles and halos, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++)
        bad = try_one(h_a, h_b, sizes[s].n, sizes[s].k, sizes[s].block, s == 0);
    if (bad) {
        printf("puzzle 8.14 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every output is exact, at most 3 global reads and 1 write per thread");
}
