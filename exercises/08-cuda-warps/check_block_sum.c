/* exercises/08-cuda-warps/check_block_sum.c: the checker of exercise 8.1.
 *
 * Built with your block_sum.cu by `make ex-8.1` (or the solution's by
 * `make solution-8.1`) and run on the SIMT emulator, which reports a
 * barrier that not every thread reaches instead of hanging. It tries sizes
 * 1 .. 100003 (odd ones leave a partial last block) with blocks of 32 ..
 * 1024 threads. The inputs are whole numbers from -8 to 8, so every partial
 * sum is exact in any order: tolerance 0. Then the emulator's counters:
 * n global loads (each element once), and the shape of a tree in shared
 * memory (log2(B) barriers per block, every element stored in shared
 * memory, the additions spread over the threads: see tree_counts). Failures are explained; the last line is the verdict.
 */
#include "exercise.h"
#include "report_hint.h"
#include "block_sum.h"
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int sizes[] = { 1, 31, 32, 33, 1000, 4099, 100003 };
static const int blocks[] = { 32, 64, 128, 256, 512, 1024 };
#define MAXN 100003

/* The emulator's error, explained for this exercise: which thread left a
 * barrier behind tells the two usual mistakes apart. */
static void explain_error(const char *msg, int n, int block)
{
    const char *ex = strstr(msg, "exited");
    const char *but = strstr(msg, "but thread");
    if (ex && but) {
        but += strlen("but thread");
        if (*but == 's') but++;
        int first = atoi(but);   /* the first thread that did not reach the barrier */
        if (first == block / 2)
            printf("  the threads from blockDim.x / 2 on never reached that __syncthreads(): is it inside\n"
                   "  if (t < step)? Every thread must pass every barrier: put it after the if, in the loop\n");
        else if (first == n % block)
            printf("  the threads with i >= n left early: a thread past the end must not return before the\n"
                   "  barrier; let it store 0 into shared memory and take part\n");
        else
            printf("  every thread of the block must reach every __syncthreads(): no barrier inside an if that\n"
                   "  some threads skip, and no return before the last barrier\n");
    } else if (strstr(msg, "dynamic shared memory")) {
        printf("  is that access to s[], the dynamic shared array? It has as many bytes as the launch's third\n"
               "  argument says: block * sizeof(float) in block_sum<<<blocks, block, bytes>>>(...);\n"
               "  with 0 there is no shared memory at all\n");
    } else if (strstr(msg, "out of bounds")) {
        printf("  an index past the end of in[] (test i < n before loading) or of s[] (blockDim.x floats)?\n");
    }
}

/* The counts of a tree in shared memory: log2(B) steps, each ended by a
 * barrier, every element stored into shared memory, and the additions
 * spread over the threads. With B = 1024 the solution makes 11 barriers
 * and about 141 warp requests to shared memory per block (32 for the
 * stores, then 3 per active warp per step); thread 0 adding the block's
 * elements one after another needs no barrier, or with its elements in
 * shared memory over a thousand requests. 0, or 1 after explaining. */
static int tree_counts(const pw_simt_counters *c, int nb, int block)
{
    int steps = 0;
    while ((1 << steps) < block) steps++;
    if (c->barriers < (long long)nb * steps) {
        printf("wrong\nFAIL: %lld barriers in %d block%s (%.1f each): a tree over %d threads takes log2(%d) = %d "
               "halving steps, each ended by __syncthreads()\n", c->barriers, nb, nb > 1 ? "s" : "",
               (double)c->barriers / nb, block, block, steps);
        printf("  the sums are right, but one thread adding the block's elements one after another takes %d\n"
               "  steps where the tree takes %d: the exercise is the tree in shared memory\n", block - 1, steps);
        return 1;
    }
    if (c->shared_stores < (long long)nb * block) {
        printf("wrong\nFAIL: %lld stores to shared memory in %d blocks of %d threads: every thread stores its\n"
               "  element into s[threadIdx.x] first, then the tree adds there\n", c->shared_stores, nb, block);
        return 1;
    }
    long long limit = (long long)nb * (3 * block / 4 + 8 * steps);
    if (c->shared_requests > limit) {
        printf("wrong\nFAIL: %.0f warp requests to shared memory per block of %d, a tree needs about 3 x %d / 32 "
               "+ 3 x %d: are the additions done by a few threads, one after another?\n",
               (double)c->shared_requests / nb, block, block, steps);
        printf("  at each step every thread t < step adds one pair, all at once\n");
        return 1;
    }
    return 0;
}

static int try_one(const float *h_in, float *d_in, float *d_partial, float *got, float *want, int n, int block)
{
    int nb = (n + block - 1) / block;
    for (int b = 0; b < nb; b++) {
        double s = 0;
        for (int i = b * block; i < n && i < (b + 1) * block; i++) s += h_in[i];
        want[b] = (float)s;
    }
    cudaMemset(d_partial, 0xFF, (size_t)nb * sizeof(float));     /* NaN: a partial never written shows */
    printf("  n = %-6d block = %-4d ", n, block);
    pw_simt_counters_reset();
    long reports_before = pw_simt_report_count();
    block_sum_launch(d_in, d_partial, n, block);
    if (cudaGetLastError() != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        explain_error(pw_simt_last_error_message(), n, block);
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        printf("wrong\nFAIL: the emulator's checks found a problem (the result may look right by luck): %s\n",
               pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    const pw_simt_counters *c = pw_simt_total_counters();
    if (c->blocks != nb) {
        printf("wrong\nFAIL: %lld blocks ran, but n = %d in blocks of %d needs %d (ceil(n / block))\n", c->blocks,
               n, block, nb);
        return 1;
    }
    cudaMemcpy(got, d_partial, (size_t)nb * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < nb; b++) {
        if (got[b] == want[b]) continue;
        printf("wrong\nFAIL: partial[%d] = %g, want %g", b, (double)got[b], (double)want[b]);
        if (isnan(got[b])) printf(": never written, or it added the poison of unwritten shared memory (NaN)\n");
        else if (b == nb - 1 && nb > 1 && n % block) printf(": the last block is partial; load 0 for i >= n\n");
        else if (b > 0 && got[0] == want[0]) printf(": block 0 is right; does the kernel use blockIdx.x?\n");
        else printf(": are all the additions separated by __syncthreads()?\n");
        return 1;
    }
    if (c->global_loads != n) {
        printf("wrong\nFAIL: %lld loads from global memory for %d elements: read each element once (load it into "
               "shared memory, add there)\n", c->global_loads, n);
        return 1;
    }
    if (tree_counts(c, nb, block)) return 1;
    printf("ok (%.0f barriers, %.0f shared-memory warp requests per block)\n", (double)c->barriers / nb,
           (double)c->shared_requests / nb);
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    float *h_in = pw_alloc_floats(MAXN), *got = pw_alloc_floats(MAXN), *want = pw_alloc_floats(MAXN);
    pw_fill_random(h_in, MAXN, 3, -8.0f, 9.0f);
    for (int i = 0; i < MAXN; i++) h_in[i] = floorf(h_in[i]);
    float *d_in, *d_partial;
    cudaMalloc((void **)&d_in, MAXN * sizeof(float));
    cudaMalloc((void **)&d_partial, MAXN * sizeof(float));
    cudaMemcpy(d_in, h_in, MAXN * sizeof(float), cudaMemcpyHostToDevice);
    printf("exercise 8.1: block sums on the emulator, %zu sizes x %zu block sizes\n", sizeof sizes / sizeof *sizes,
           sizeof blocks / sizeof *blocks);
    int bad = 0;
    for (size_t b = 0; b < sizeof blocks / sizeof *blocks && !bad; b++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++)
            bad = try_one(h_in, d_in, d_partial, got, want, sizes[s], blocks[b]);
    pw_free(h_in);
    pw_free(got);
    pw_free(want);
    cudaFree(d_in);
    cudaFree(d_partial);
    if (bad) {
        printf("exercise 8.1 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every partial sum is exact for every size and block, each element read once");
}
