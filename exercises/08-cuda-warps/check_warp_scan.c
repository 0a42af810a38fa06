/* exercises/08-cuda-warps/check_warp_scan.c: the checker of exercise 8.2.
 *
 * Runs your warp_scan on the SIMT emulator for sizes 1 .. 10007 (a partial
 * last warp) with blocks of 32 .. 1024 threads; integer inputs, so the
 * answer is exact. Then the launch (blocks of the `block` threads asked
 * for: a launch that ignores it would leave the block sizes untested) and
 * the counts: each input loaded once, no shared memory, 5 shuffles per
 * warp. Failures are explained; the last line is the verdict.
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "warp_scan.h"

#include <stdio.h>
#include <string.h>

static const int sizes[] = { 1, 5, 32, 33, 1000, 10007 };
static const int blocks[] = { 32, 64, 96, 256, 1024 };
#define MAXN 10007
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves in an int */

static int try_one(const int *h_in, int *d_in, int *d_out, int *got, int n, int block)
{
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(int));
    printf("  n = %-6d block = %-4d ", n, block);
    pw_simt_counters_reset();
    long reports_before = pw_simt_report_count();
    warp_scan_launch(d_in, d_out, n, block);
    if (cudaGetLastError() != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        if (strstr(pw_simt_last_error_message(), "exited"))
            printf("  a lane with i >= n must still join the shuffles (use v = 0), not return first\n");
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        printf("wrong\nFAIL: the emulator's checks found a problem (the result may look right by luck): %s\n",
               pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    cudaMemcpy(got, d_out, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
    int run = 0;
    for (int i = 0; i < n; i++) {
        run = (i % 32 == 0 ? 0 : run) + h_in[i];
        if (got[i] == run) continue;
        printf("wrong\nFAIL: out[%d] = %d, want %d (the sum of in[%d..%d])", i, got[i], run, i / 32 * 32, i);
        if (got[i] == UNWRITTEN)
            printf(": never written (it still holds the checker's fill, 0x7F7F7F7F): does the launch have\n"
                   "  enough blocks, (n + block - 1) / block, and does every lane with i < n store?\n");
        else if (i % 32 == 0) printf(": lane 0's result is its own value\n");
        else if (got[i] == h_in[i]) printf(": nothing was added: are the shuffles there?\n");
        else printf(": at step d only lanes >= d add what __shfl_up_sync returned\n");
        return 1;
    }
    const pw_simt_counters *c = pw_simt_total_counters();
    long long warps = c->threads / 32;
    if (c->threads_per_block != block) {
        printf("wrong\nFAIL: the launch used blocks of %lld threads where %d were asked for: launch with the\n"
               "  `block` argument (the checker's block sizes are what it tests)\n", c->threads_per_block, block);
        return 1;
    }
    if (c->global_loads != n) {
        printf("wrong\nFAIL: %lld global loads for %d elements: load each one once, into a register\n",
               c->global_loads, n);
        return 1;
    }
    if (c->shared_loads + c->shared_stores) {
        printf("wrong\nFAIL: the scan used shared memory (%lld accesses): the lanes of a warp can exchange values "
               "with __shfl_up_sync alone\n", c->shared_loads + c->shared_stores);
        return 1;
    }
    if (c->collectives != 5 * warps) {
        printf("wrong\nFAIL: %lld shuffles for %lld warps: a scan of 32 lanes needs 5 steps (d = 1, 2, 4, 8, 16)\n",
               c->collectives, warps);
        return 1;
    }
    printf("ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    static int h_in[MAXN], got[MAXN];
    for (int i = 0; i < MAXN; i++) h_in[i] = (i * 7919) % 23 - 11;
    int *d_in, *d_out;
    cudaMalloc((void **)&d_in, sizeof h_in);
    cudaMalloc((void **)&d_out, sizeof got);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    printf("exercise 8.2: warp scans on the emulator, %zu sizes x %zu block sizes\n", sizeof sizes / sizeof *sizes,
           sizeof blocks / sizeof *blocks);
    int bad = 0;
    for (size_t b = 0; b < sizeof blocks / sizeof *blocks && !bad; b++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++)
            bad = try_one(h_in, d_in, d_out, got, sizes[s], blocks[b]);
    cudaFree(d_in);
    cudaFree(d_out);
    if (bad) {
        printf("exercise 8.2 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every warp's prefix sums are exact, 5 shuffles per warp, no shared memory");
}
