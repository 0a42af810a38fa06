/* exercises/07-gemm-cpu/check_blocked.c: the checker of exercise 7.2.
 *
 * Built with your exercises/07-gemm-cpu/blocked.c by `make ex-7.2`, or with
 * the solution by `make solution-7.2`. First correctness: C = A*B at odd
 * sizes (1, 7, 33, a non-square 45 x 130 x 67, one past a multiple of 64),
 * with C filled with NaN first (every element must be written), against a
 * double-precision reference with the rounding bound of a k-term float sum.
 * Then speed: your ex_gemm and the naive i, j, k loops (the skeleton's) at
 * n = 256, their samples taken in turns in this run, so a busy machine
 * slows both alike. Yours must be at least 3x faster: the loop order alone
 * gives 10-40x where the compiler vectorises (measured: 34x with AVX-512,
 * gcc 12), and still well over 3x with SSE or under a sanitizer.
 * (Not judged under a sanitizer, whose checks dominate the time.)
 * Each failure says why; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include "blocked.h"
#include "gemm.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

#define NEED 3.0

/* Under ASan or TSan every load is checked, the compiler vectorises less,
 * and the speed measures the sanitizer: 1.2x here for the solution. The
 * speed is then reported, not judged. */
static int failures;

/* The slow loops the exercise starts from (the checker's own copy). */
static void naive(int m, int n, int k, const float *A, const float *B, float *C)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = 0;
            for (int p = 0; p < k; p++) sum += A[(long)i * k + p] * B[(long)p * n + j];
            C[(long)i * n + j] = sum;
        }
}

static void try_size(int m, int k, int n)
{
    if (failures) return;
    printf("  m x k x n = %3d x %3d x %3d   ", m, k, n);
    float *A = pw_alloc_floats((size_t)m * k), *B = pw_alloc_floats((size_t)k * n);
    float *C = pw_alloc_floats((size_t)m * n), *R = pw_alloc_floats((size_t)m * n), *Ab = pw_alloc_floats((size_t)m * n);
    pw_fill_random(A, (size_t)m * k, 11 + (uint64_t)m, -1, 1);
    pw_fill_random(B, (size_t)k * n, 12 + (uint64_t)n, -1, 1);
    gemm_ref(m, n, k, A, B, R, Ab);
    for (size_t x = 0; x < (size_t)m * n; x++) C[x] = NAN;
    ex_gemm(m, n, k, A, B, C);
    if (gemm_check("ex_gemm", m, n, k, C, R, Ab)) {
        printf("wrong\nFAIL: C is wrong at m x k x n = %d x %d x %d (first bad element above): %s\n", m, k, n,
               m % 16 || n % 16 ? "check the edges, where a block is cut short" : "is C zeroed before the sums?");
        failures++;
    } else printf("ok\n");
    pw_free(A); pw_free(B); pw_free(C); pw_free(R); pw_free(Ab);
}

typedef struct { void (*fn)(int, int, int, const float *, const float *, float *); int n; const float *A, *B; float *C; } job;
static void run(void *arg) { job *j = arg; j->fn(j->n, j->n, j->n, j->A, j->B, j->C); }

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    printf("exercise 7.2: ex_gemm, right at odd sizes, then at least %.0fx the naive loops\n", NEED);
    try_size(1, 1, 1);
    try_size(7, 7, 7);
    try_size(33, 33, 33);
    try_size(45, 130, 67);
    try_size(65, 65, 129);
    try_size(200, 97, 131);
    if (failures) return 1;

    int n = 256;
    float *A = pw_alloc_floats((size_t)n * n), *B = pw_alloc_floats((size_t)n * n), *C = pw_alloc_floats((size_t)n * n);
    pw_fill_random(A, (size_t)n * n, 1, -1, 1);
    pw_fill_random(B, (size_t)n * n, 2, -1, 1);
    job mine = { ex_gemm, n, A, B, C }, slow = { naive, n, A, B, C };
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_sample_s = 0;
    pw_bench_stats st[2];
    pw_bench_sweep(&cfg, (const pw_work_fn[]){ run, run }, (void *const[]){ &mine, &slow }, 2, st);
    double speedup = st[1].median / st[0].median;
    printf("  n = %d: yours %.2f ms, naive %.2f ms: %.1fx   %s\n", n, st[0].median * 1e3, st[1].median * 1e3, speedup,
           speedup >= NEED ? "ok" : "too slow");
    pw_free(A); pw_free(B); pw_free(C);
#ifdef UNDER_SANITIZER
    printf("  the speed: not judged under a sanitizer (its checks dominate the time)\n");
    return pw_ex_pass("right at odd sizes (speed not judged under a sanitizer)");
#endif
    if (speedup < NEED) {
        printf("FAIL: %.1fx the naive loops, %.0fx wanted: is the innermost loop along a row (j), with C zeroed first?\n",
               speedup, NEED);
        return 1;
    }
    return pw_ex_pass("right at odd sizes, and %.1fx the naive loops at n = %d", speedup, n);
}
