/* exercises/08-cuda-warps/check_prefix_sum.c: the checker of puzzle 8.15, prefix sum.
 *
 * Runs your prefix_sum on the SIMT emulator: n = 12 in blocks of 8 with
 * the access picture (PW_PICTURE=FILE or PW_PICTURE_DIR writes it as CSV
 * for the gallery), then (n, B) = (1, 1), (1, 8), (5, 8), (8, 8), (32, 32),
 * (33, 32), (100, 16), (777, 128), (1000, 64), (1000, 256): partial last
 * blocks, a block of one thread, a lone element past a full block. a is
 * allocated with exactly n elements (a load past the end is memcheck's
 * error). a[i] is from -9 to 9, so every prefix is a whole number below
 * 9 x 256 in size: exact in float in any order, tolerance 0. The budget,
 * counted by the emulator: 1 global read and 1 global write per thread;
 * at most 4 log2(B) + 4 shared-memory reads per thread (a scan of log2(B)
 * steps reads 2 a step, or 4 in the up-and-down form of Blelloch's; the
 * 4 more cover the load and the final read). One thread adding its prefix
 * element by element reads up to B: 32 at B = 32 against 24 allowed, the
 * first size where the two differ. racecheck reports a read of s[t - d]
 * that a write of the same step may overtake.
 */
#include "exercise.h"
#include "check.h"
#include "util.h"
#include "puzzle_checks.h"
#include "prefix_sum.h"

static const struct { int n, block; } sizes[] = {
    { 12, 8 }, { 1, 1 }, { 1, 8 }, { 5, 8 }, { 8, 8 }, { 32, 32 }, { 33, 32 },
    { 100, 16 }, { 777, 128 }, { 1000, 64 }, { 1000, 256 },
};
#define MAXN 1000
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;

static int log2_ceil(int b)
{
    int steps = 0;
    while ((1 << steps) < b) steps++;
    return steps;
}

/* The expected picture: the solution's two buffers, s[0 .. B-1] and s[B .. 2B-1]. */
static void expect_picture(int n, int B)
{
    int nb = (n + B - 1) / B;
    for (int blk = 0; blk < nb; blk++)
        for (int t = 0; t < B; t++) {
            long row = (long)blk * B + t;
            int i = blk * B + t, from = 0, to = B;
            if (i < n) pz_expect(&pic, row, 0, i, PZ_READ);
            pz_expect(&pic, row, 2, t, PZ_WRITE);
            for (int d = 1; d < B; d *= 2) {
                pz_expect(&pic, row, 2, from + t, PZ_READ);
                if (t >= d) pz_expect(&pic, row, 2, from + t - d, PZ_READ);
                pz_expect(&pic, row, 2, to + t, PZ_WRITE);
                int swap = from;
                from = to, to = swap;
            }
            if (i < n) {
                pz_expect(&pic, row, 2, from + t, PZ_READ);
                pz_expect(&pic, row, 1, i, PZ_WRITE);
            }
        }
}

/* Why out[i] is wrong, when it is one of the usual scans. */
static void explain_value(const float *a, float got, int B, int i)
{
    int bits;
    memcpy(&bits, &got, sizeof bits);
    int start = i / B * B;
    double before = 0, from0 = 0;
    for (int j = start; j < i; j++) before += a[j];
    for (int j = 0; j <= i; j++) from0 += a[j];
    if (bits == UNWRITTEN) printf(": never written (is element i = blockIdx.x * blockDim.x + threadIdx.x?)\n");
    else if (got == (float)before && (i > start || a[i] != 0))
        printf(": that is the sum before a[%d], an exclusive scan; the puzzle's includes a[i] itself\n", i);
    else if (start > 0 && got == (float)from0)
        printf(": that is the sum from a[0]; each block's scan starts again at its first element, a[%d]\n", start);
    else if (i > start) printf(": is every step's read of the value d to the left done before it is overwritten?\n");
    else printf(": the block's first output is a[%d] itself\n", i);
}

static int try_one(const float *h_a, int n, int B, int draw)
{
    static float got[MAXN];
    float *d_a, *d_out;                       /* exactly n elements: an access past the end is an error */
    cudaMalloc((void **)&d_a, (size_t)n * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)n * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(float));
    int nb = (n + B - 1) / B;
    printf("  n = %-5d block = %-4d ", n, B);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "out", d_out, sizeof(float), n },
                      { "s", NULL, sizeof(float), 2 * B } };
    pz_begin(&pic, "8.15 prefix_sum", bufs, 3);
    long reports = pw_simt_report_count();
    prefix_sum_launch(d_a, d_out, n, B);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(n, B);
    int tiny = nb * B <= 32;
    int bad = pz_run_failed(&pic, err, reports, tiny);
    char given[96];
    snprintf(given, sizeof given, "ceil(n / block) = %d block%s of %d threads", nb, nb == 1 ? "" : "s", B);
    if (!bad) bad = pz_launch_failed(nb, B, given);
    if (!bad) {
        cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
        double run = 0;
        for (int i = 0; i < n && !bad; i++) {
            if (i % B == 0) run = 0;          /* each block starts again */
            run += h_a[i];                    /* exact: whole numbers below 2^24 */
            if (got[i] == (float)run) continue;
            char terms[64];
            if (i % B == 0) snprintf(terms, sizeof terms, "a[%d]", i);
            else snprintf(terms, sizeof terms, "a[%d] + ... + a[%d]", i / B * B, i);
            printf("wrong\nFAIL: out[%d] = %g, want %s = %g", i, (double)got[i], terms, run);
            explain_value(h_a, got[i], B, i);
            if (tiny) pz_print(&pic);
            bad = 1;
        }
    }
    int steps = log2_ceil(B);
    long shared_limit = 4L * steps + 4, who = 0;
    if (!bad && !pz_log_complete(&pic)) {
        printf("(the access log is full: the budget is counted on the other sizes) ");
    } else if (!bad && pz_limits(&pic, 1, 1, -1, -1)) {
        printf("  each thread reads its own element once, into shared memory; every addition reads it there\n");
        if (tiny) pz_print(&pic);
        bad = 1;
    } else if (!bad) {
        long most = pz_most_shared_reads(&pic, &who);
        if (most > shared_limit) {
            printf("wrong\nFAIL: thread %ld makes %ld shared-memory reads; a scan of log2(%d) = %d steps needs at most "
                   "%ld (4 log2(B) + 4)\n  is a thread adding its prefix one element at a time? At each step every "
                   "thread adds one value, all at once\n", who, most, B, steps, shared_limit);
            bad = 1;
        }
    }
    if (!bad) {
        printf("ok (at most %ld shared-memory reads by a thread, %ld allowed)\n", pz_most_shared_reads(&pic, &who),
               shared_limit);
        if (draw) {
            pz_print(&pic);
            bad = pz_write_picture(&pic);
        }
    }
    cudaFree(d_a);
    cudaFree(d_out);
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    static float h_a[MAXN];
    for (int i = 0; i < MAXN; i++) h_a[i] = (float)((i * 37) % 19 - 9);
    printf("puzzle 8.15 prefix sum: an inclusive scan in each block, in shared memory, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++)
        bad = try_one(h_a, sizes[s].n, sizes[s].block, s == 0);
    if (bad) {
        printf("puzzle 8.15 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every block's scan is exact: 1 global read and 1 write per thread, log2(B) steps");
}
