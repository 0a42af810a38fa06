/* exercises/08-cuda-warps/check_guards.c: the checker of puzzle 8.7, guards.
 *
 * Runs your guards on the SIMT emulator: n = 5 with the access picture (and
 * PW_PICTURE=FILE or PW_PICTURE_DIR writes it as CSV for the gallery), then
 * n = 1, 31, 32, 33, 97, 1000, each in the given launch of one block of n
 * rounded up to whole warps (32, 32, 32, 32, 64, 128, 1024 threads: 32 has
 * no spare thread, 33 has 31). The arrays are cudaMalloc'd with exactly n
 * elements, so the emulator's memcheck stops a kernel at its first access
 * past the end. The checker then runs the kernel once more on arrays padded
 * past the end, with the access log on, to see every thread that ran off
 * the end, and names the mistake from who they are: all the spare threads
 * (no guard), thread n alone (i <= n), or reads with no write (the read
 * before the guard). Values are a[i] + 10, small whole numbers: exact. The
 * budget: 1 global read and 1 write per thread, n of each in all (a thread
 * with no element touches nothing: clamping its index to n - 1 passes every
 * value and still fails here).
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "puzzle.h"
#include "guards.h"

static const int sizes[] = { 5, 1, 31, 32, 33, 97, 1000 };
#define MAXN 1000
#define MAXLEN (MAXN + 1024)   /* the padded arrays: n + the launch's threads */
#define SHOWN_PAST 3           /* columns drawn past the end in the picture of a run off the end */
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;
static float h_a[MAXLEN];

static void expect_picture(int n)
{
    for (long t = 0; t < n; t++) {           /* thread t < n reads a[t], writes out[t]; the rest nothing */
        pz_expect(&pic, t, 0, t, PZ_READ);
        pz_expect(&pic, t, 1, t, PZ_WRITE);
    }
}

/* The emulator stopped the kernel at an access outside the n elements: run
 * it again on arrays padded past the end (nothing to stop it there), with
 * the log on, and name the mistake from the threads that ran off the end.
 * Prints the FAIL line. */
static void explain_overrun(int n, const char *msg)
{
    int threads = GUARDS_THREADS(n);
    long len = n + threads;                 /* thread i reaches a[i + 1] at most in any likely slip */
    float *d_a, *d_out;
    cudaMalloc((void **)&d_a, (size_t)len * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)len * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)len * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)len * sizeof(float));
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n + SHOWN_PAST }, { "out", d_out, sizeof(float), n + SHOWN_PAST } };
    pz_begin(&pic, "8.7 guards", bufs, 2);     /* not folded: a row may touch columns not drawn */
    guards_launch(d_a, d_out, n);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(n);
    pz_past ra = pz_past_end(&pic, 0, n, len - n), wo = pz_past_end(&pic, 1, n, len - n);
    long first = ra.first_thread, last = ra.last_thread;
    if (first < 0 || (wo.first_thread >= 0 && wo.first_thread < first)) first = wo.first_thread;
    if (wo.last_thread > last) last = wo.last_thread;
    printf("wrong\n");
    if (err != cudaSuccess || first < 0)
        printf("FAIL: the kernel stopped with an error: %s\n", msg);
    else if (first >= n && ra.reads && !wo.writes)
        printf("FAIL: threads %ld to %ld read a[%ld..%ld], past the end, and then write nothing: the read comes "
               "before the guard, and a thread with i >= n must not read either\n", first, last, ra.first_index,
               ra.last_index);
    else if (first == n && last == n)
        printf("FAIL: the guard lets thread %d (i == n) through: it touches a[%d]/out[%d], one past the last element "
               "a[%d]: the test is i < n, not i <= n\n", n, n, n, n - 1);
    else if (first == n && last == threads - 1)
        printf("FAIL: no guard: threads %d to %d have no element (n = %d) but read a[%d..%d] and write out[%d..%d], "
               "past the end\n", n, threads - 1, n, n, threads - 1, n, threads - 1);
    else {
        const pz_past *w = ra.first_thread == first ? &ra : &wo;
        const char *what = w == &ra ? "a" : "out";
        if (first < n)
            printf("FAIL: thread %ld has an element (i < n) but touches %s[%ld], past the end: is an index off by "
                   "one (i + 1)?\n", first, what, w->first_index);
        else
            printf("FAIL: threads %ld to %ld have no element (n = %d) but touch %s[%ld] and on, past the end: a "
                   "thread with i >= n must do nothing\n", first, last, n, what, w->first_index);
    }
    printf("  the emulator stopped the kernel at the first of them (arrays of exactly n elements): %s\n", msg);
    if (first >= n)
        printf("  %d threads for %d elements: threads %d to %d have none, and must neither read nor write: "
               "if (i < n) around both\n", threads, n, n, threads - 1);
    if (threads <= 32) {
        printf("  the kernel run again on longer arrays: a[%d..%d] and out[%d..%d] are past the end (drawn), and "
               "the\n  accesses further on fall outside the picture\n", n, n + SHOWN_PAST - 1, n, n + SHOWN_PAST - 1);
        pz_print(&pic);
    }
    cudaFree(d_a);
    cudaFree(d_out);
}

static int try_one(int n, int draw)
{
    static float got[MAXN];
    int threads = GUARDS_THREADS(n);
    float *d_a, *d_out;                      /* exactly n elements: one past the end is caught */
    cudaMalloc((void **)&d_a, (size_t)n * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)n * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(float));
    printf("  n = %-5d (%4d threads) ", n, threads);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "out", d_out, sizeof(float), n } };
    pz_begin(&pic, "8.7 guards", bufs, 2);
    pz_fold_idle(&pic);
    long reports = pw_simt_report_count();
    guards_launch(d_a, d_out, n);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(n);
    cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_a);
    cudaFree(d_out);
    if (err != cudaSuccess) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", pw_simt_last_error_message());
        if (strstr(msg, "out of bounds")) explain_overrun(n, msg);
        else printf("wrong\nFAIL: the kernel stopped with an error: %s\n", msg);
        return 1;
    }
    if (pw_simt_report_count() > reports) {
        printf("wrong\nFAIL: the emulator's checks found a problem: %s\n", pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    const pw_simt_counters *c = pw_simt_last_counters();
    if (c->blocks != 1 || c->threads_per_block != threads) {
        printf("wrong\nFAIL: the launch ran %lld block%s of %lld threads; the given launch is 1 block of %d (n = %d "
               "rounded up to whole warps): put it back, the spare threads are the puzzle\n", c->blocks,
               c->blocks == 1 ? "" : "s", c->threads_per_block, threads, n);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        float want = h_a[i] + 10.0f;        /* exact: small whole numbers */
        if (got[i] == want) continue;
        int bits;
        memcpy(&bits, &got[i], sizeof bits);
        printf("wrong\nFAIL: out[%d] = %g, want a[%d] + 10 = %g", i, (double)got[i], i, (double)want);
        if (bits == UNWRITTEN && i == n - 1) printf(": never written: the guard stops thread n - 1 too (i < n, not i < n - 1)");
        else if (bits == UNWRITTEN) printf(": never written (does every thread with i < n store its element?)");
        printf("\n");
        if (threads <= 32) pz_print(&pic);
        return 1;
    }
    if (pz_limits(&pic, 1, 1, n, n) || pz_totals(n, n)) {
        printf("  the %d threads past the last element must do nothing: a thread with i >= n reads and writes "
               "nothing (not a copy of element n - 1)\n", threads - n);
        if (threads <= 32) pz_print(&pic);
        return 1;
    }
    printf("ok\n");
    if (draw) {
        pz_print(&pic);
        if (pz_write_picture(&pic)) return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    for (int i = 0; i < MAXLEN; i++) h_a[i] = (float)((i * 37) % 19 - 9);
    printf("puzzle 8.7 guards: out[i] = a[i] + 10 with more threads than elements, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++) bad = try_one(sizes[s], s == 0);
    if (bad) {
        printf("puzzle 8.7 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every out[i] = a[i] + 10, and the threads past n touched nothing");
}
