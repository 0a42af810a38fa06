/* exercises/08-cuda-warps/check_quantize.c: the checker of exercise 8.4, a
 * bug hunt.
 *
 * Built with quantize.cu by `make ex-8.4` (or the solution's by `make
 * solution-8.4`) and run on the SIMT emulator, whose checks are
 * deterministic: a barrier some threads never reach, a shared-memory race or
 * a read of memory nobody wrote is found on every run, whatever the thread
 * order and however busy the machine, even when the numbers come out right.
 * Because this is a bug hunt, the checker says WHAT went wrong, in words,
 * and on which sizes, but never where in the file: the emulator's own
 * report (which names the line) is kept to itself.
 *
 * Sizes 1 .. 100003 with blocks of 32 .. 1024 threads; the whole multiples
 * of the block come first. Inputs: random reals in [-8, 8), with elements
 * 2048 .. 4095 set to 0 (whole blocks of zeros for every block size: their
 * scale must be 0, not a division by zero). Checked for every block:
 *   scale   max |x| / 127 over the block, to 1e-6 relative (the maximum is
 *           exact in any order; the division may be written another way);
 *   codes   q[i] >= -127 (the largest magnitude is +-127), and
 *           |q[i] scale - x[i]| <= scale / 2, the
 *           promise of rounding to nearest (+ 1e-5 relative for the
 *           division's rounding), and q[i] = 0 in a block of zeros.
 * Then the emulator's counters: n loads of x (each element once), and a
 * tree (log2(B) barriers per block, the comparisons spread over the
 * threads), so removing the cooperation is not a fix.
 */
#include "exercise.h"
#include "quantize.h"
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int sizes[] = { 1024, 4096, 1, 31, 33, 1000, 4099, 100003 };
static const int blocks[] = { 32, 64, 128, 256, 512, 1024 };
#define MAXN 100003
#define ZERO_FROM 2048        /* x[2048 .. 4095] = 0: a whole block of zeros for any B <= 1024 */
#define ZERO_TO 4096
#define POISON_Q 0x55         /* 85: a code the kernel never wrote shows as 85 (where 85 is wrong) */

/* What the emulator stopped the kernel for, in words and without the
 * source line it names: this is a bug hunt. */
static void explain_error(const char *msg, int n, int block)
{
    if (strstr(msg, "exited without reaching"))
        pw_ex_fail("n = %d, block = %d: some threads of a block left the kernel while the others waited for "
                   "them at a __syncthreads()\n  (the emulator stops there; on a GPU that is undefined: garbage, or "
                   "a hang)", n, block);
    else if (strstr(msg, "different barriers"))
        pw_ex_fail("n = %d, block = %d: the threads of one block waited at different __syncthreads() calls",
                   n, block);
    else if (strstr(msg, "synccheck"))
        pw_ex_fail("n = %d, block = %d: the threads of a block (or a warp) did not all reach the same "
                   "synchronisation", n, block);
    else if (strstr(msg, "memcheck") || strstr(msg, "out of bounds"))
        pw_ex_fail("n = %d, block = %d: an access outside an array (x, q, scale, or the B floats of shared "
                   "memory)", n, block);
    else
        pw_ex_fail("n = %d, block = %d: the kernel stopped with an error (the emulator's %s check)", n, block,
                   strstr(msg, "racecheck") ? "racecheck" : strstr(msg, "initcheck") ? "initcheck" : "");
}

/* A report that did not stop the kernel, in words (no line numbers). */
static void explain_report(const char *rep, int n, int block)
{
    if (strstr(rep, "racecheck"))
        pw_ex_fail("n = %d, block = %d: two threads of a block used the same shared memory, one writing, with no "
                   "__syncthreads() between them\n  (what the reader sees depends on timing: the result may look "
                   "right by luck)", n, block);
    else if (strstr(rep, "initcheck"))
        pw_ex_fail("n = %d, block = %d: a thread read shared (or device) memory that nothing had written", n,
                   block);
    else
        pw_ex_fail("n = %d, block = %d: the emulator's checks found a problem (memcheck)", n, block);
}

/* The counters of a tree: log2(B) halving steps each ended by a barrier,
 * and the comparisons spread over the threads. With B = 1024 the solution
 * makes 11 barriers and about 170 warp requests to shared memory per block
 * (32 stores, 3 per active warp per step, 32 reads of the maximum); one
 * thread scanning the block makes 2 barriers and over a thousand requests.
 * 0, or 1 after explaining. */
static int tree_counts(const pw_simt_counters *c, int nb, int block)
{
    int steps = 0;
    while ((1 << steps) < block) steps++;
    if (c->barriers < (long long)nb * steps) {
        pw_ex_fail("block = %d: %.1f barriers per block, where a tree over %d threads takes log2(%d) = %d "
                   "halving steps, each ended by __syncthreads()\n  the values are right, but the block's threads "
                   "no longer share the search for the maximum", block, (double)c->barriers / nb, block, block,
                   steps);
        return 1;
    }
    long long limit = (long long)nb * (block + 8 * steps);
    if (c->shared_requests > limit) {
        pw_ex_fail("block = %d: %.0f warp requests to shared memory per block, a tree needs about %d: is the "
                   "maximum found by a few threads, one element after another?", block,
                   (double)c->shared_requests / nb, 3 * block / 32 + 3 * steps + block / 32);
        return 1;
    }
    return 0;
}

/* The expected scale of block b, and 0 or 1 after explaining a wrong value. */
static int check_block(const float *x, const signed char *q, const float *scale, int n, int block, int b)
{
    int lo = b * block, hi = lo + block < n ? lo + block : n;
    float amax = 0;
    for (int i = lo; i < hi; i++) amax = fmaxf(amax, fabsf(x[i]));
    float want = amax / 127.0f;
    if (isnan(scale[b]) || fabsf(scale[b] - want) > 1e-6f * want) {
        pw_ex_fail("n = %d, block = %d: scale[%d] = %g, want max |x| / 127 = %g%s", n, block, b, (double)scale[b],
                   (double)want, isnan(scale[b]) ? " (never written)" : "");
        return 1;
    }
    for (int i = lo; i < hi; i++) {
        float err = want > 0 ? fabsf(q[i] * want - x[i]) : 0;
        bool ok = q[i] >= -127 && (want > 0 ? err <= 0.5f * want * (1 + 1e-5f) : q[i] == 0);
        if (ok) continue;
        pw_ex_fail("n = %d, block = %d: q[%d] = %d for x = %g with scale %g: want %s%s", n, block, i, q[i],
                   (double)x[i], (double)want, want > 0 ? "the nearest whole number to x / scale" : "0",
                   q[i] == POISON_Q ? " (it looks never written)" : "");
        return 1;
    }
    return 0;
}

static int try_one(const float *h_x, const float *d_x, signed char *d_q, float *d_scale, signed char *q,
                   float *scale, int n, int block)
{
    int nb = (n + block - 1) / block;
    cudaMemset(d_q, POISON_Q, (size_t)n);
    cudaMemset(d_scale, 0xFF, (size_t)nb * sizeof(float));      /* NaN: a scale never written shows */
    printf("  n = %-6d block = %-4d ", n, block);
    pw_simt_counters_reset();
    long reports_before = pw_simt_report_count();
    quantize_launch(d_x, d_q, d_scale, n, block);
    if (cudaGetLastError() != cudaSuccess) {
        explain_error(pw_simt_last_error_message(), n, block);
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        explain_report(pw_simt_last_report(), n, block);
        return 1;
    }
    const pw_simt_counters *c = pw_simt_total_counters();
    if (c->blocks != nb) {
        pw_ex_fail("n = %d, block = %d: %lld blocks ran, but n = %d in blocks of %d needs %d (ceil(n / block))", n,
                   block, c->blocks, n, block, nb);
        return 1;
    }
    cudaMemcpy(q, d_q, (size_t)n, cudaMemcpyDeviceToHost);
    cudaMemcpy(scale, d_scale, (size_t)nb * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < nb; b++)
        if (check_block(h_x, q, scale, n, block, b)) return 1;
    if (c->global_loads != n) {
        pw_ex_fail("n = %d, block = %d: %lld loads from global memory for %d elements: read each element of x "
                   "once", n, block, c->global_loads, n);
        return 1;
    }
    if (tree_counts(c, nb, block)) return 1;
    printf("ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);     /* the emulator's reports name lines: the checker says what, not where */
    float *h_x = pw_alloc_floats(MAXN), *scale = pw_alloc_floats(MAXN);
    signed char *q = malloc(MAXN);
    if (!q) { fprintf(stderr, "out of memory\n"); return 2; }
    pw_fill_random(h_x, MAXN, 8, -8.0f, 8.0f);
    for (int i = ZERO_FROM; i < ZERO_TO; i++) h_x[i] = 0;
    float *d_x, *d_scale;
    signed char *d_q;
    cudaMalloc((void **)&d_x, MAXN * sizeof(float));
    cudaMalloc((void **)&d_q, MAXN);
    cudaMalloc((void **)&d_scale, MAXN * sizeof(float));
    cudaMemcpy(d_x, h_x, MAXN * sizeof(float), cudaMemcpyHostToDevice);
    printf("exercise 8.4 (bug hunt): block-wise int8 quantisation on the emulator, %zu sizes x %zu block sizes\n",
           sizeof sizes / sizeof *sizes, sizeof blocks / sizeof *blocks);
    int bad = 0;
    for (size_t b = 0; b < sizeof blocks / sizeof *blocks && !bad; b++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++)
            bad = try_one(h_x, d_x, d_q, d_scale, q, scale, sizes[s], blocks[b]);
    pw_free(h_x);
    pw_free(scale);
    free(q);
    cudaFree(d_x);
    cudaFree(d_q);
    cudaFree(d_scale);
    if (bad) {
        printf("exercise 8.4 is not fixed yet: the program has one bug; the FAIL above is its symptom\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("scales and codes are right for every size and block, each element read once, the "
                      "maximum found by a tree");
}
