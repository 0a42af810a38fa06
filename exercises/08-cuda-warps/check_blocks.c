/* exercises/08-cuda-warps/check_blocks.c: the checker of puzzle 8.10, blocks.
 *
 * Runs your blocks and your launch on the SIMT emulator: n = 9 in blocks of
 * 4 with the access picture (PW_PICTURE=FILE or PW_PICTURE_DIR writes it as
 * CSV for the gallery), then n = 1 (block 4), 8 (4), 31 (8), 97 (32), 1000
 * (128) and 100003 (256). 9 and 31 leave the last block partial, 8 does not
 * (where n / block + 1 launches a block too many), 100003 takes 391 blocks.
 * The launch's shape comes from the emulator's counters: threads per block
 * must be `block` and blocks ceil(n / block), the fewest that cover n. The
 * arrays are cudaMalloc'd with exactly n elements, so memcheck stops a
 * kernel at its first access past the end; the checker then runs it once
 * more on padded arrays with the access log on to say which threads ran
 * off (the last block's spare ones: no guard). Values are a[i] + 10, small
 * whole numbers: exact. The budget: 1 global read and 1 write per thread,
 * n of each in all (counted from the emulator's counters at every size).
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "puzzle.h"
#include "blocks.h"

typedef struct { int n, block; } size_pair;
static const size_pair sizes[] = { { 9, 4 }, { 1, 4 }, { 8, 4 }, { 31, 8 }, { 97, 32 }, { 1000, 128 }, { 100003, 256 } };
#define MAXN 100003
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;
static float h_a[2 * MAXN];    /* room for the padded run */

static void expect_picture(int n)
{
    for (long i = 0; i < n; i++) {           /* the thread with element i (row i) reads a[i], writes out[i] */
        pz_expect(&pic, i, 0, i, PZ_READ);
        pz_expect(&pic, i, 1, i, PZ_WRITE);
    }
}

static void print_layout(int block)
{
    printf("  (row i is thread i %% %d of block i / %d: the blocks' threads one after another)\n", block, block);
}

/* The emulator stopped the kernel at an access outside the n elements: run
 * it again on padded arrays, with the log on, and name the mistake from the
 * threads that ran off. Prints the FAIL line. */
static void explain_overrun(int n, int block, const char *msg)
{
    long threads = (long)pw_simt_last_counters()->threads;
    long len = n + threads + block;
    float *d_a, *d_out;
    cudaMalloc((void **)&d_a, (size_t)len * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)len * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)len * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)len * sizeof(float));
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "out", d_out, sizeof(float), n } };
    pz_begin(&pic, "8.10 blocks", bufs, 2);
    blocks_launch(d_a, d_out, n, block);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(n);
    threads = (long)pw_simt_last_counters()->threads;
    pz_past ra = pz_past_end(&pic, 0, n, len - n), wo = pz_past_end(&pic, 1, n, len - n);
    long first = ra.first_thread, last = ra.last_thread;
    if (first < 0 || (wo.first_thread >= 0 && wo.first_thread < first)) first = wo.first_thread;
    if (wo.last_thread > last) last = wo.last_thread;
    printf("wrong\n");
    if (err != cudaSuccess || first < 0)
        printf("FAIL: the kernel stopped with an error: %s\n", msg);
    else if (first == n && last == n && threads > n + 1)
        printf("FAIL: the guard lets the thread with i == n = %d through: it touches a[%d]/out[%d], one past the last "
               "element: the test is i < n, not i <= n\n", n, n, n);
    else if (first == n && last == threads - 1)
        printf("FAIL: no guard: the last block's threads %ld to %ld (i = %d to %ld) have no element but read and "
               "write past the end\n", first % block, last % block, n, last);
    else if (first < n)
        printf("FAIL: the thread with element %ld touches %s[%ld], past the end: is i = blockIdx.x * blockDim.x + "
               "threadIdx.x?\n", first, ra.first_thread == first ? "a" : "out",
               ra.first_thread == first ? ra.first_index : wo.first_index);
    else
        printf("FAIL: threads with i = %ld to %ld have no element (n = %d) but touch elements past the end: a thread "
               "with i >= n must do nothing\n", first, last, n);
    printf("  the emulator stopped the kernel at the first of them (arrays of exactly n elements): %s\n", msg);
    if (threads <= 32) {
        printf("  the kernel run again on longer arrays (what it did inside them; the accesses past the end fall "
               "outside the picture):\n");
        pz_print(&pic);
        print_layout(block);
    }
    cudaFree(d_a);
    cudaFree(d_out);
}

/* The launch's shape: block threads per block, ceil(n / block) blocks. */
static int check_launch(int n, int block)
{
    const pw_simt_counters *c = pw_simt_last_counters();
    long need = (n + block - 1) / block;
    long long launches = pw_simt_total_counters()->launches;   /* since the reset before blocks_launch */
    if (launches != 1) {
        printf("wrong\nFAIL: %lld kernel launches; the puzzle is one launch of the whole grid\n", launches);
        return 1;
    }
    if (c->threads_per_block != block) {
        printf("wrong\nFAIL: the launch's blocks have %lld threads; the puzzle gives block = %d (the checker tries "
               "several): blocks<<<grid, block>>>\n", c->threads_per_block, block);
        return 1;
    }
    if (c->blocks < need) {
        printf("wrong\nFAIL: the launch ran %lld blocks of %d threads for n = %d: %lld threads, so %lld element%s "
               "no thread: n / block rounds down; ceil(n / block) = (n + block - 1) / block = %ld blocks\n",
               c->blocks, block, n, c->threads, n - c->threads, n - c->threads == 1 ? " has" : "s have", need);
        return 1;
    }
    if (c->blocks > need) {
        printf("wrong\nFAIL: the launch ran %lld blocks of %d threads for n = %d, where %ld cover it: the extra "
               "block%s nothing to do (ceil(n / block) = (n + block - 1) / block, not n / block + 1)\n", c->blocks,
               block, n, need, c->blocks - need == 1 ? " has" : "s have");
        return 1;
    }
    return 0;
}

static int try_one(int n, int block, int draw)
{
    static float got[MAXN];
    float *d_a, *d_out;                      /* exactly n elements: one past the end is caught */
    cudaMalloc((void **)&d_a, (size_t)n * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)n * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(float));
    printf("  n = %-6d block = %-3d ", n, block);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "out", d_out, sizeof(float), n } };
    pz_begin(&pic, "8.10 blocks", bufs, 2);
    pz_fold_idle(&pic);
    pw_simt_counters_reset();
    long reports = pw_simt_report_count();
    blocks_launch(d_a, d_out, n, block);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(n);
    cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_a);
    cudaFree(d_out);
    long threads = (long)pw_simt_last_counters()->threads;
    if (err != cudaSuccess) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", pw_simt_last_error_message());
        if (strstr(msg, "out of bounds")) explain_overrun(n, block, msg);
        else printf("wrong\nFAIL: the kernel stopped with an error: %s\n", msg);
        return 1;
    }
    if (pw_simt_report_count() > reports) {
        printf("wrong\nFAIL: the emulator's checks found a problem: %s\n", pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    if (check_launch(n, block)) return 1;
    for (int i = 0; i < n; i++) {
        float want = h_a[i] + 10.0f;        /* exact: small whole numbers */
        if (got[i] == want) continue;
        int bits;
        memcpy(&bits, &got[i], sizeof bits);
        printf("wrong\nFAIL: out[%d] = %g, want a[%d] + 10 = %g", i, (double)got[i], i, (double)want);
        if (bits == UNWRITTEN && i >= block && i % block == 0)
            printf(": never written; out[0..%d], block 0's, are right: does i use blockIdx.x? Thread t of block b "
                   "has element b * blockDim.x + t", block - 1);
        else if (bits == UNWRITTEN) printf(": never written (does the thread with element i store it?)");
        printf("\n");
        if (threads <= 32) {
            pz_print(&pic);
            print_layout(block);
        }
        return 1;
    }
    if (pz_limits(&pic, 1, 1, n, n) || pz_totals(n, n)) {
        printf("  each element is read once and written once, by its own thread; the spare threads of the last "
               "block touch nothing\n");
        if (threads <= 32) pz_print(&pic);
        return 1;
    }
    long long nb = pw_simt_last_counters()->blocks;
    printf("ok (%lld block%s)\n", nb, nb == 1 ? "" : "s");
    if (draw) {
        pz_print(&pic);
        print_layout(block);
        if (pz_write_picture(&pic)) return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    for (int i = 0; i < 2 * MAXN; i++) h_a[i] = (float)((i * 37) % 19 - 9);
    printf("puzzle 8.10 blocks: out[i] = a[i] + 10 over a grid of blocks, your launch, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++)
        bad = try_one(sizes[s].n, sizes[s].block, s == 0);
    if (bad) {
        printf("puzzle 8.10 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every out[i] = a[i] + 10 in ceil(n / block) blocks, 1 read and 1 write per element");
}
