/* exercises/08-cuda-warps/check_zip.c: the checker of puzzle 8.6, zip.
 *
 * Runs your zip on the SIMT emulator: n = 8 with the access picture (and
 * PW_PICTURE=FILE or PW_PICTURE_DIR writes it as CSV for the gallery), then
 * n = 1, 5, 31, 97, 1024, each in the one block of n threads the given
 * launch makes. a[i] is a small whole number from -9 to 9 and b[i] a whole
 * hundred from 100 to 700, so every sum is exact and a wrong one tells which
 * terms it added (a + a, b alone, a neighbour's b...). The budget, counted by
 * the emulator for every thread: 2 global reads (a[i], b[i]) and 1 global
 * write (out[i]).
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "puzzle.h"
#include "zip.h"

static const int sizes[] = { 8, 1, 5, 31, 97, 1024 };
#define MAXN 1024
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;
static float h_a[MAXN], h_b[MAXN];

/* What a wrong out[i] is, in words, when it is a sum the inputs explain. */
static void explain_value(int i, int n, float got)
{
    int bits;
    memcpy(&bits, &got, sizeof bits);
    if (bits == UNWRITTEN) printf(": never written (does every thread store its own element?)");
    else if (got == h_a[i] + h_a[i]) printf(": that is a[%d] + a[%d]: is b read at all?", i, i);
    else if (got == h_a[i]) printf(": that is a[%d] alone, b[%d] is missing", i, i);
    else if (got == h_b[i]) printf(": that is b[%d] alone, a[%d] is missing", i, i);
    else if (i + 1 < n && got == h_a[i] + h_b[i + 1]) printf(": that is a[%d] + b[%d], the next b", i, i + 1);
    else if (i + 1 < n && got == h_a[i + 1] + h_b[i + 1]) printf(": that is the next element's sum, a[%d] + b[%d]", i + 1, i + 1);
    else if (i > 0 && got == h_a[i - 1] + h_b[i - 1]) printf(": that is the sum of the element before");
    printf("\n");
}

static int try_one(const float *d_a, const float *d_b, float *d_out, int n, int draw)
{
    static float got[MAXN];
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(float));
    printf("  n = %-5d ", n);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "b", d_b, sizeof(float), n },
                      { "out", d_out, sizeof(float), n } };
    pz_begin(&pic, "8.6 zip", bufs, 3);
    long reports = pw_simt_report_count();
    zip_launch(d_a, d_b, d_out, n);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    for (long t = 0; t < n; t++) {           /* thread t reads a[t] and b[t], writes out[t] */
        pz_expect(&pic, t, 0, t, PZ_READ);
        pz_expect(&pic, t, 1, t, PZ_READ);
        pz_expect(&pic, t, 2, t, PZ_WRITE);
    }
    if (err != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        if (strstr(pw_simt_last_error_message(), "out of bounds"))
            printf("  a thread touched an element past the end: thread i's element is i, and there are n threads\n");
        if (n <= 32) pz_print(&pic);
        return 1;
    }
    if (pw_simt_report_count() > reports) {
        printf("wrong\nFAIL: the emulator's checks found a problem: %s\n", pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    const pw_simt_counters *c = pw_simt_last_counters();
    if (c->blocks != 1 || c->threads_per_block != n) {
        printf("wrong\nFAIL: the launch ran %lld block%s of %lld threads; the given launch is 1 block of n = %d: "
               "put it back\n", c->blocks, c->blocks == 1 ? "" : "s", c->threads_per_block, n);
        return 1;
    }
    cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        float want = h_a[i] + h_b[i];       /* exact: whole numbers below 710 */
        if (got[i] == want) continue;
        printf("wrong\nFAIL: out[%d] = %g, want a[%d] + b[%d] = %g", i, (double)got[i], i, i, (double)want);
        explain_value(i, n, got[i]);
        if (n <= 32) pz_print(&pic);
        return 1;
    }
    if (pz_limits(&pic, 2, 1, -1, -1) || pz_totals(2L * n, n)) {
        printf("  each thread reads a[i] and b[i] once and stores their sum once: add in a register, not in out[i]\n");
        if (n <= 32) pz_print(&pic);
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
    for (int i = 0; i < MAXN; i++) {
        h_a[i] = (float)((i * 37) % 19 - 9);
        h_b[i] = (float)(100 * (1 + (i * 5) % 7));
    }
    float *d_a, *d_b, *d_out;
    cudaMalloc((void **)&d_a, sizeof h_a);
    cudaMalloc((void **)&d_b, sizeof h_b);
    cudaMalloc((void **)&d_out, sizeof h_a);
    cudaMemcpy(d_a, h_a, sizeof h_a, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, sizeof h_b, cudaMemcpyHostToDevice);
    printf("puzzle 8.6 zip: out[i] = a[i] + b[i], one thread per element, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++) bad = try_one(d_a, d_b, d_out, sizes[s], s == 0);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_out);
    if (bad) {
        printf("puzzle 8.6 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every out[i] = a[i] + b[i], 2 reads and 1 write per thread");
}
