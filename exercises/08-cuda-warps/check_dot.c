/* exercises/08-cuda-warps/check_dot.c: the checker of puzzle 8.13, dot.
 *
 * Runs your dot on the SIMT emulator: n = 8 with the access picture (and
 * PW_PICTURE=FILE or PW_PICTURE_DIR writes it as CSV for the gallery), then
 * n = 1, 2, 3, 7 (a tree over sizes that are not powers of two), 32, 33,
 * 100, 1000, each in the one block of n threads with n floats of shared
 * memory that the given launch makes. a[i] is from -9 to 9 and b[i] from
 * -5 to 5, so every partial sum is a whole number below 9 x 5 x 1000 =
 * 45000 < 2^24 in size: exact in float in any order, tolerance 0. The
 * budget, counted by the emulator: at most 2 global reads per thread (a[i]
 * and b[i]) and 1 global write in all (out[0]); no atomics (they are the
 * way around the puzzle: n read-modify-writes of out[0], one after another).
 */
#include "exercise.h"
#include "check.h"
#include "util.h"
#include "puzzle_checks.h"
#include "dot.h"

static const int sizes[] = { 8, 1, 2, 3, 7, 32, 33, 100, 1000 };
#define MAXN 1000
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;

/* The expected picture: the tree of the solution (half = ceil(width / 2)). */
static void expect_tree(int n)
{
    for (long t = 0; t < n; t++) {
        pz_expect(&pic, t, 0, t, PZ_READ);
        pz_expect(&pic, t, 1, t, PZ_READ);
        pz_expect(&pic, t, 3, t, PZ_WRITE);
    }
    for (int width = n; width > 1;) {
        int half = (width + 1) / 2;
        for (long t = 0; t < width - half; t++) {
            pz_expect(&pic, t, 3, t, PZ_READ | PZ_WRITE);
            pz_expect(&pic, t, 3, t + half, PZ_READ);
        }
        width = half;
    }
    pz_expect(&pic, 0, 3, 0, PZ_READ);
    pz_expect(&pic, 0, 2, 0, PZ_WRITE);
}

/* Why out[0] is wrong, when it is one of the usual partial sums. */
static void explain_value(const float *a, const float *b, float got, int n)
{
    int bits;
    memcpy(&bits, &got, sizeof bits);
    int pow2 = 1;
    while (pow2 * 2 <= n) pow2 *= 2;
    double first = 0;
    for (int i = 0; i < pow2; i++) first += (double)a[i] * b[i];
    if (bits == UNWRITTEN) printf(": never written (one thread, thread 0 say, stores the sum)\n");
    else if (pow2 < n && got == (float)first)
        printf(": that is the sum of the first %d products only. n = %d is not a power of two: a step that\n"
               "  halves the width must keep the odd product out for the next step (round the half up)\n", pow2, n);
    else if (n > 1 && got == a[0] * b[0]) printf(": that is a[0] b[0] alone: were the other products added?\n");
    else if ((n & (n - 1)) != 0)
        printf(": n = %d is not a power of two: does every product take part in the tree?\n", n);
    else printf(": is every step of the additions separated from the next by __syncthreads()?\n");
}

static int try_one(const float *h_a, const float *h_b, int n, int draw)
{
    float *d_a, *d_b, *d_out;                 /* exactly n elements (and 1): an access past the end is an error */
    cudaMalloc((void **)&d_a, (size_t)n * sizeof(float));
    cudaMalloc((void **)&d_b, (size_t)n * sizeof(float));
    cudaMalloc((void **)&d_out, sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, sizeof(float));
    printf("  n = %-5d ", n);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "b", d_b, sizeof(float), n },
                      { "out", d_out, sizeof(float), 1 }, { "s", NULL, sizeof(float), n } };
    pz_begin(&pic, "8.13 dot", bufs, 4);
    long reports = pw_simt_report_count();
    dot_launch(d_a, d_b, d_out, n);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_tree(n);
    int bad = pz_run_failed(&pic, err, reports, n <= 32);
    char given[64];
    snprintf(given, sizeof given, "1 block of n = %d threads", n);
    if (!bad) bad = pz_launch_failed(1, n, given);
    const pw_simt_counters *c = pw_simt_last_counters();
    if (!bad && c->atomics > 0) {
        printf("wrong\nFAIL: the kernel uses atomic operations (atomicAdd): the puzzle adds the products with plain "
               "loads and stores in shared memory and writes out[0] once\n  (an atomicAdd per thread makes n "
               "read-modify-writes of one address, one after another; into out[0] it also adds to whatever out[0] "
               "held before)\n");
        bad = 1;
    }
    if (!bad) {
        float got;
        cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost);
        double want = 0;
        for (int i = 0; i < n; i++) want += (double)h_a[i] * h_b[i];   /* exact: whole numbers below 2^24 */
        if (got != (float)want) {
            printf("wrong\nFAIL: out[0] = %g, want the sum of a[i] b[i] = %g", (double)got, want);
            explain_value(h_a, h_b, got, n);
            if (n <= 32) pz_print(&pic);
            bad = 1;
        }
    }
    if (!bad && pz_limits(&pic, 2, 1, -1, 1)) {
        if (pic.total_writes > 1)
            printf("  one thread writes the result, once, when the sum is complete: the others' writes of out[0]\n"
                   "  overwrite each other (which one lands last is up to the GPU)\n");
        else
            printf("  each thread reads its own a[i] and b[i], once; the products meet in shared memory, and\n"
                   "  the additions read them there\n");
        if (n <= 32) pz_print(&pic);
        bad = 1;
    }
    if (!bad) {
        printf("ok (barriers: %lld)\n", pw_simt_last_counters()->barriers);
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
    static float h_a[MAXN], h_b[MAXN];
    for (int i = 0; i < MAXN; i++) {
        h_a[i] = (float)((i * 37) % 19 - 9);
        h_b[i] = (float)((i * 53 + 3) % 11 - 5);
    }
    printf("puzzle 8.13 dot: out[0] = sum of a[i] b[i], one block, shared memory, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++) bad = try_one(h_a, h_b, sizes[s], s == 0);
    if (bad) {
        printf("puzzle 8.13 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every dot product is exact, 2 global reads per thread and 1 global write in all");
}
