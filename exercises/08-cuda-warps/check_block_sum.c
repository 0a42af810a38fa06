/* exercises/08-cuda-warps/check_block_sum.c: the checker of exercise 8.1.
 *
 * Built with your block_sum.cu by `make ex-8.1` (or the solution's by
 * `make solution-8.1`) and run on the SIMT emulator, which reports a
 * barrier that not every thread reaches instead of hanging. It tries sizes
 * 1 .. 100003 (odd ones leave a partial last block) with blocks of 32 ..
 * 1024 threads. The inputs are whole numbers from -8 to 8, so every partial
 * sum is exact in any order: tolerance 0. Then it counts your global loads:
 * n, each element once. Failures are explained; the last line is the verdict.
 */
#include "block_sum.h"
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int sizes[] = { 1, 31, 32, 33, 1000, 4099, 100003 };
static const int blocks[] = { 32, 64, 128, 256, 512, 1024 };
#define MAXN 100003

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
    block_sum_launch(d_in, d_partial, n, block);
    if (cudaGetLastError() != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        if (strstr(pw_simt_last_error_message(), "exited"))
            printf("  a thread with i >= n must not return before the barrier: let it store 0 into shared memory\n");
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
        printf("wrong\nFAIL: %lld loads from global memory for %d elements: read each element once (LOAD it into "
               "shared memory, add there)\n", c->global_loads, n);
        return 1;
    }
    printf("ok (%lld barriers)\n", c->barriers);
    return 0;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
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
    printf("PASS: every partial sum is exact for every size and block, each element read once\n");
    return PW_EXIT_PASS;
}
