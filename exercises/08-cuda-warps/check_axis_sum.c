/* exercises/08-cuda-warps/check_axis_sum.c: the checker of puzzle 8.16, axis sum.
 *
 * Runs your axis_sum on the SIMT emulator: 3 x 5 with the access picture
 * (PW_PICTURE=FILE or PW_PICTURE_DIR writes it as CSV for the gallery),
 * then rows x cols = 1 x 1 (a block of one thread), 1 x 7, 5 x 1, 7 x 33
 * (one past a power of two: 31 idle threads of 64), 4 x 100, 9 x 200 and
 * 2 x 700 (blocks of 1024), each on the given launch: a 1 x rows grid of
 * blocks of B threads, B the smallest power of two >= cols. a is allocated
 * with exactly rows x cols elements (a load past the end is memcheck's
 * error). a[i] is from -9 to 9, so a row's sum is a whole number below
 * 9 x 700 in size: exact in float in any order, tolerance 0. The budget,
 * counted by the emulator: 1 global read and 1 global write per thread,
 * rows writes in all, and at most 3 log2(B) + 2 shared-memory reads per
 * thread (a tree reads 2 cells a step and 1 at the end, 2 log2(B) + 1:
 * the limit leaves a read a step to spare; one thread adding a row of 33
 * one element at a time reads 33, against 20 allowed).
 */
#include "exercise.h"
#include "check.h"
#include "util.h"
#include "puzzle_checks.h"
#include "axis_sum.h"

static const struct { int rows, cols; } sizes[] = {
    { 3, 5 }, { 1, 1 }, { 1, 7 }, { 5, 1 }, { 7, 33 }, { 4, 100 }, { 9, 200 }, { 2, 700 },
};
#define MAXE 2000              /* the largest rows x cols above: 9 x 200 = 1800, 2 x 700 = 1400 */
#define MAXR 9
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;

static int log2_of(int b)
{
    int steps = 0;
    while ((1 << steps) < b) steps++;
    return steps;
}

/* The expected picture: the solution's tree on B cells (half = B/2, ..., 1). */
static void expect_picture(int rows, int cols, int B)
{
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < B; c++) {
            long row = (long)r * B + c;
            if (c < cols) pz_expect(&pic, row, 0, (long)r * cols + c, PZ_READ);
            pz_expect(&pic, row, 2, c, PZ_WRITE);
            for (int half = B / 2; half > 0; half /= 2)
                if (c < half) {
                    pz_expect(&pic, row, 2, c, PZ_READ | PZ_WRITE);
                    pz_expect(&pic, row, 2, c + half, PZ_READ);
                }
        }
        pz_expect(&pic, (long)r * B, 2, 0, PZ_READ);
        pz_expect(&pic, (long)r * B, 1, r, PZ_WRITE);
    }
}

/* Why out[r] is wrong, when it is one of the usual sums. */
static void explain_value(const float *a, const float *got, int rows, int cols, int B, int r)
{
    int bits;
    memcpy(&bits, &got[r], sizeof bits);
    double row0 = 0, past = 0;
    for (int c = 0; c < cols; c++) row0 += a[c];
    for (int c = 0; c < B && (long)r * cols + c < (long)rows * cols; c++) past += a[(long)r * cols + c];
    if (bits == UNWRITTEN) {
        printf(": never written. The grid is 1 x rows: is the row blockIdx.y? (blockIdx.x is 0 in every block)\n");
    } else if (r > 0 && got[r] == (float)row0) {
        printf(": that is row 0's sum. The grid is 1 x rows: the row is blockIdx.y, not blockIdx.x\n");
    } else if (B > cols && got[r] == (float)past) {
        printf(": that adds a[%d][%d ..], past the end of the row (the next row's first elements): the\n"
               "  threads c >= cols = %d load 0, not a[row * cols + c]\n", r, cols, cols);
    } else {
        printf(": is every step of the tree separated from the next by __syncthreads()?\n");
    }
}

static int try_one(const float *h_a, int rows, int cols, int draw)
{
    static float got[MAXR];
    int B = axis_sum_block(cols);
    long elems = (long)rows * cols;
    float *d_a, *d_out;                       /* exactly rows x cols and rows: an access past the end is an error */
    cudaMalloc((void **)&d_a, (size_t)elems * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)rows * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)elems * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)rows * sizeof(float));
    printf("  %d x %-5d block = %-4d ", rows, cols, B);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), elems }, { "out", d_out, sizeof(float), rows },
                      { "s", NULL, sizeof(float), B } };
    pz_begin(&pic, "8.16 axis_sum", bufs, 3);
    long reports = pw_simt_report_count();
    axis_sum_launch(d_a, d_out, rows, cols);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(rows, cols, B);
    int tiny = rows * B <= 32;
    int bad = pz_run_failed(&pic, err, reports, tiny);
    char given[96];
    snprintf(given, sizeof given, "1 x %d blocks (one per row) of %d threads", rows, B);
    if (!bad) bad = pz_launch_failed(rows, B, given);
    if (!bad) {
        cudaMemcpy(got, d_out, (size_t)rows * sizeof(float), cudaMemcpyDeviceToHost);
        for (int r = 0; r < rows && !bad; r++) {
            double want = 0;
            for (int c = 0; c < cols; c++) want += h_a[(long)r * cols + c];   /* exact: whole numbers */
            if (got[r] == (float)want) continue;
            printf("wrong\nFAIL: out[%d] = %g, want the sum of row %d = %g", r, (double)got[r], r, want);
            explain_value(h_a, got, rows, cols, B, r);
            if (tiny) pz_print(&pic);
            bad = 1;
        }
    }
    int steps = log2_of(B);
    long shared_limit = 3L * steps + 2, who = 0;
    if (!bad && !pz_log_complete(&pic)) {
        printf("(the access log is full: the budget is counted on the other sizes) ");
    } else if (!bad && pz_limits(&pic, 1, 1, -1, rows)) {
        printf("  each thread reads its one element, once, into shared memory; one thread per row writes\n"
               "  the row's sum, once, when the tree is done\n");
        if (tiny) pz_print(&pic);
        bad = 1;
    } else if (!bad) {
        long most = pz_most_shared_reads(&pic, &who);
        if (most > shared_limit) {
            printf("wrong\nFAIL: thread %ld of block %ld makes %ld shared-memory reads; a tree over B = %d takes "
                   "log2(%d) = %d steps and reads 2 cells a step (%ld allowed: 3 log2(B) + 2)\n  is one thread adding the row one "
                   "element at a time? At each step half of the threads still adding add one pair each, all at once\n",
                   who % B, who / B, most, B, B, steps, shared_limit);
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
    static float h_a[MAXE];
    for (int i = 0; i < MAXE; i++) h_a[i] = (float)((i * 37) % 19 - 9);
    printf("puzzle 8.16 axis sum: out[r] = the sum of row r, one block per row, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++)
        bad = try_one(h_a, sizes[s].rows, sizes[s].cols, s == 0);
    if (bad) {
        printf("puzzle 8.16 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every row's sum is exact: 1 global read per thread, 1 write per row, a tree in shared memory");
}
