/* exercises/08-cuda-warps/check_pool.c: the checker of puzzle 8.12, pool.
 *
 * Runs your pool on the SIMT emulator: n = 8 with the access picture (and
 * PW_PICTURE=FILE or PW_PICTURE_DIR writes it as CSV for the gallery), then
 * n = 1, 2, 3 (windows cut short by the start of the array), 5, 32, 33 (a
 * warp and one more thread) and 1000, each in the one block of n threads
 * with n floats of shared memory that the given launch makes. The inputs
 * are whole numbers from -9 to 9, so every sum of 3 is exact in any order:
 * tolerance 0. The budget, counted by the emulator for every thread: 1
 * global read (a[i], into shared memory) and 1 global write (out[i]); the
 * window's other two terms come from shared memory. racecheck and initcheck
 * watch every shared access: a missing __syncthreads() is reported even
 * when the values come out right.
 */
#include "exercise.h"
#include "check.h"
#include "util.h"
#include "puzzle_checks.h"
#include "pool.h"

static const int sizes[] = { 8, 1, 2, 3, 5, 32, 33, 1000 };
#define MAXN 1000
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;

static float at(const float *a, int i) { return i >= 0 ? a[i] : 0.0f; }

/* Why out[i] is wrong, when it is one of the usual windows. */
static void explain_value(const float *a, const float *got, int i, int n)
{
    int bits;
    memcpy(&bits, &got[i], sizeof bits);
    if (bits == UNWRITTEN) printf(": never written (does every thread store its own out[i]?)\n");
    else if (i + 1 < n && got[i] == at(a, i - 1) + a[i] + a[i + 1])
        printf(": that is a[i - 1] + a[i] + a[i + 1], a window centred on i; the puzzle's ends at i\n");
    else if (got[i] == a[i]) printf(": that is a[%d] alone; the two elements before it are missing\n", i);
    else if (i >= 1 && got[i] == a[i - 1] + a[i]) printf(": that is a[%d] + a[%d], a window of 2\n", i - 1, i);
    else if (i < 2) printf(": the terms before a[0] count as 0, so out[0] = a[0] and out[1] = a[0] + a[1]\n");
    else printf("\n");
}

static int try_one(const float *h_a, int n, int draw)
{
    static float got[MAXN];
    float *d_a, *d_out;                       /* exactly n elements: a read past the end is an error */
    cudaMalloc((void **)&d_a, (size_t)n * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)n * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(float));
    printf("  n = %-5d ", n);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "out", d_out, sizeof(float), n },
                      { "s", NULL, sizeof(float), n } };
    pz_begin(&pic, "8.12 pool", bufs, 3);
    long reports = pw_simt_report_count();
    pool_launch(d_a, d_out, n);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    for (long t = 0; t < n; t++) {            /* thread t: a[t] into s[t], then s[t-2..t] into out[t] */
        pz_expect(&pic, t, 0, t, PZ_READ);
        pz_expect(&pic, t, 2, t, PZ_READ | PZ_WRITE);
        for (long j = t - 2; j < t; j++) pz_expect(&pic, t, 2, j, PZ_READ);
        pz_expect(&pic, t, 1, t, PZ_WRITE);
    }
    int bad = pz_run_failed(&pic, err, reports, n <= 32);
    char given[64];
    snprintf(given, sizeof given, "1 block of n = %d threads", n);
    if (!bad) bad = pz_launch_failed(1, n, given);
    if (!bad) {
        cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n && !bad; i++) {
            float want = at(h_a, i - 2) + at(h_a, i - 1) + h_a[i];   /* exact: small whole numbers */
            if (got[i] == want) continue;
            char terms[64];                                            /* the window's terms, in words */
            if (i == 0) snprintf(terms, sizeof terms, "a[0]");
            else if (i == 1) snprintf(terms, sizeof terms, "a[0] + a[1]");
            else snprintf(terms, sizeof terms, "a[%d] + a[%d] + a[%d]", i - 2, i - 1, i);
            printf("wrong\nFAIL: out[%d] = %g, want %s = %g", i, (double)got[i], terms, (double)want);
            explain_value(h_a, got, i, n);
            if (n <= 32) pz_print(&pic);
            bad = 1;
        }
    }
    if (!bad && pz_limits(&pic, 1, 1, -1, -1)) {
        printf("  every element is wanted by 3 threads: read it from global memory once, into shared memory,\n"
               "  and let the 3 threads read it there (after a __syncthreads())\n");
        if (n <= 32) pz_print(&pic);
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
    cudaFree(d_out);
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    static float h_a[MAXN];
    for (int i = 0; i < MAXN; i++) h_a[i] = (float)((i * 37) % 19 - 9);
    printf("puzzle 8.12 pool: out[i] = a[i-2] + a[i-1] + a[i], one block, shared memory, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++) bad = try_one(h_a, sizes[s], s == 0);
    if (bad) {
        printf("puzzle 8.12 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every window of 3 is right, 1 global read and 1 global write per thread");
}
