/* exercises/08-cuda-warps/check_shared.c: the checker of puzzle 8.11, shared.
 *
 * Runs your shared_pairs on the SIMT emulator, in the given launch of
 * ceil(n / 8) blocks of 8 threads: n = 11 with the access picture (2
 * blocks; the last has 5 spare threads and element 10 has no partner), then
 * n = 1, 2, 8, 9, 97, 1000. The picture has the block's shared array as
 * its own columns (s, the same 8 slots in every block: a row's block is
 * row / 8). The arrays are cudaMalloc'd with exactly n elements, so memcheck
 * stops a thread past the end that loads a[i]. The emulator's racecheck
 * reports a partner's slot read with no barrier after the store, and its
 * initcheck a slot nobody stored, even when the values come out right. Values:
 * a[i] + a[i ^ 1] (0 for a missing partner), small whole numbers: exact. The
 * budget, counted by the emulator: 1 global read and 1 global write per
 * thread, n of each in all; and the means: shared memory stored by every
 * element's thread, and at least one __syncthreads() per block.
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "puzzle.h"
#include "shared.h"

static const int sizes[] = { 11, 1, 2, 8, 9, 97, 1000 };
#define MAXN 1000
#define MAXLEN (MAXN + SHARED_TPB)   /* the padded run: n + a block */
#define UNWRITTEN 0x7F7F7F7F         /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;
static float h_a[MAXLEN];

static float partner(int i, int n) { return (i ^ 1) < n ? h_a[i ^ 1] : 0.0f; }

static void expect_picture(int n)
{
    int nb = (n + SHARED_TPB - 1) / SHARED_TPB;
    for (long row = 0; row < (long)nb * SHARED_TPB; row++) {
        long t = row % SHARED_TPB, i = row;  /* thread t of block row / 8 has element i = row */
        pz_expect(&pic, row, 1, t, PZ_WRITE);             /* every thread stores its slot (0 past the end) */
        if (i >= n) continue;
        pz_expect(&pic, row, 0, i, PZ_READ);
        pz_expect(&pic, row, 1, t ^ 1, PZ_READ);
        pz_expect(&pic, row, 2, i, PZ_WRITE);
    }
}

static void print_layout(void)
{
    printf("  (s is the block's __shared__ array: row r is thread r %% %d of block r / %d, and each block has "
           "its own s)\n", SHARED_TPB, SHARED_TPB);
}

/* The emulator stopped the kernel at an access outside the n elements: run
 * it again on padded arrays, with the log on, and say who ran off. */
static void explain_overrun(int n, const char *msg)
{
    long len = n + SHARED_TPB + 1;
    float *d_a, *d_out;
    cudaMalloc((void **)&d_a, (size_t)len * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)len * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)len * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)len * sizeof(float));
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "s", NULL, sizeof(float), SHARED_TPB },
                      { "out", d_out, sizeof(float), n } };
    pz_begin(&pic, "8.11 shared", bufs, 3);
    shared_launch(d_a, d_out, n);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(n);
    pz_past ra = pz_past_end(&pic, 0, n, len - n), wo = pz_past_end(&pic, 2, n, len - n);
    printf("wrong\n");
    if (err == cudaSuccess && ra.accesses && ra.first_thread >= n && !wo.accesses)
        printf("FAIL: the threads past the end (i = %ld to %ld) load a[i]: a thread with i >= n loads nothing and "
               "stores 0 into its slot (s[t] = i < n ? a[i] : 0), then still reaches the barrier\n",
               ra.first_thread, ra.last_thread);
    else if (err == cudaSuccess && (ra.accesses || wo.accesses))
        printf("FAIL: thread %ld touches %s[%ld], past the end of the %d elements: is its partner i ^ 1 read from "
               "a, past the end, where the shared array has it (0)?\n",
               ra.accesses ? ra.first_thread : wo.first_thread, ra.accesses ? "a" : "out",
               ra.accesses ? ra.first_index : wo.first_index, n);
    else printf("FAIL: the kernel stopped with an error: %s\n", msg);
    printf("  the emulator stopped the kernel at the first of them (arrays of exactly n elements): %s\n", msg);
    if (n <= 16) {
        printf("  the kernel run again on longer arrays (the accesses past the end fall outside the picture):\n");
        pz_print(&pic);
        print_layout();
    }
    cudaFree(d_a);
    cudaFree(d_out);
}

/* A report of racecheck or initcheck, in this puzzle's words. */
static void explain_report(const char *report)
{
    if (strstr(report, "racecheck"))
        printf("  a thread reads its partner's slot s[t ^ 1] while (or before) the partner stores it: nothing\n"
               "  orders the store before the load. Put __syncthreads() after every thread's store and before\n"
               "  any thread reads another's slot (lucky timing is why the values may still be right). The\n"
               "  emulator says __syncwarp() because partners share a warp here; the puzzle asks for the block's\n"
               "  barrier, which covers any block size\n");
    else if (strstr(report, "initcheck"))
        printf("  a thread read a slot of s that no thread of its block stored: the partner of the last element\n"
               "  is past the end, and its thread must still store 0 into its slot (not return early)\n");
    else pw_ex_explain_report(report);
}

static int try_one(int n, int draw)
{
    static float got[MAXN];
    int nb = (n + SHARED_TPB - 1) / SHARED_TPB;
    float *d_a, *d_out;                      /* exactly n elements: one past the end is caught */
    cudaMalloc((void **)&d_a, (size_t)n * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)n * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(float));
    printf("  n = %-5d (%3d block%s of %d) ", n, nb, nb == 1 ? " " : "s", SHARED_TPB);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "s", NULL, sizeof(float), SHARED_TPB },
                      { "out", d_out, sizeof(float), n } };
    pz_begin(&pic, "8.11 shared", bufs, 3);
    long reports = pw_simt_report_count();
    shared_launch(d_a, d_out, n);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(n);
    cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_a);
    cudaFree(d_out);
    if (err != cudaSuccess) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", pw_simt_last_error_message());
        if (strstr(msg, "out of bounds") && !strstr(msg, "shared address")) explain_overrun(n, msg);
        else {
            printf("wrong\nFAIL: the kernel stopped with an error: %s\n", msg);
            if (strstr(msg, "exited"))
                printf("  the threads past the end returned before the barrier: every thread of the block must reach\n"
                       "  __syncthreads(); let a thread with i >= n store 0 and skip only the final store\n");
            else if (strstr(msg, "shared address"))
                printf("  the shared array has SHARED_TPB = %d slots, s[0] to s[%d]: index it by threadIdx.x, not by i\n",
                       SHARED_TPB, SHARED_TPB - 1);
        }
        return 1;
    }
    if (pw_simt_report_count() > reports) {
        printf("wrong\nFAIL: the emulator's checks found a problem (the values may look right by luck): %s\n",
               pw_simt_last_report());
        explain_report(pw_simt_last_report());
        if (n <= 16) {
            pz_print(&pic);
            print_layout();
        }
        return 1;
    }
    const pw_simt_counters *c = pw_simt_last_counters();
    if (c->blocks != nb || c->threads_per_block != SHARED_TPB) {
        printf("wrong\nFAIL: the launch ran %lld blocks of %lld threads; the given launch is %d blocks of %d: put "
               "it back\n", c->blocks, c->threads_per_block, nb, SHARED_TPB);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        float want = h_a[i] + partner(i, n);     /* exact: small whole numbers */
        if (got[i] == want) continue;
        int bits;
        memcpy(&bits, &got[i], sizeof bits);
        printf("wrong\nFAIL: out[%d] = %g, want a[%d] + %s = %g", i, (double)got[i], i,
               (i ^ 1) < n ? "its partner's" : "0 (no partner)", (double)want);
        if (bits == UNWRITTEN) printf(": never written");
        else if (got[i] == h_a[i]) printf(": that is a[%d] alone", i);
        else if (got[i] == h_a[i] + h_a[i]) printf(": that is a[%d] twice: s[t], not s[t ^ 1]?", i);
        else if (i + 1 < n && got[i] == h_a[i] + h_a[i + 1]) printf(": that is a[%d] + a[%d], the next one (i + 1 where "
                                                                    "i ^ 1 was meant)", i, i + 1);
        printf("\n");
        if (n <= 16) {
            pz_print(&pic);
            print_layout();
        }
        return 1;
    }
    if (pz_limits(&pic, 1, 1, n, n) || pz_totals(n, n)) {
        printf("  each element is read from global memory once, by its own thread; its partner gets it from the\n"
               "  block's shared array, s[t ^ 1], after the barrier\n");
        if (n <= 16) {
            pz_print(&pic);
            print_layout();
        }
        return 1;
    }
    if (c->shared_stores < n) {
        printf("wrong\nFAIL: %lld stores to shared memory for %d elements: the puzzle passes every element to its "
               "partner through the block's __shared__ array (a warp shuffle works in a block of one warp, and is "
               "8.2's lesson)\n", c->shared_stores, n);
        return 1;
    }
    if (c->barriers < nb) {
        printf("wrong\nFAIL: %lld __syncthreads() in %d blocks: the block waits for every store before any partner "
               "reads (__syncwarp() orders one warp only: right here because a block of %d is one warp, wrong for a "
               "block of 64)\n", c->barriers, nb, SHARED_TPB);
        return 1;
    }
    printf("ok\n");
    if (draw) {
        pz_print(&pic);
        print_layout();
        if (pz_write_picture(&pic)) return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    for (int i = 0; i < MAXLEN; i++) h_a[i] = (float)((i * 37) % 19 - 9);
    printf("puzzle 8.11 shared: out[i] = a[i] + a[i ^ 1] through shared memory, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++) bad = try_one(sizes[s], s == 0);
    if (bad) {
        printf("puzzle 8.11 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every out[i] = a[i] + a[i ^ 1], 1 global read per element, the partner's through shared memory");
}
