/* exercises/08-cuda-warps/check_map.c: the checker of puzzle 8.5, map.
 *
 * Runs your map on the SIMT emulator: n = 8 with the access picture (and
 * PW_PICTURE=FILE or PW_PICTURE_DIR writes it as CSV for the gallery), then n = 1, 5, 32,
 * 1000, each in the one block of n threads the given launch makes. Values
 * are a[i] + 10 with a[i] small whole numbers, so the check is exact. The
 * budget, counted by the emulator for every thread: 1 global read (a[i])
 * and 1 global write (out[i]).
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "puzzle.h"
#include "map.h"

static const int sizes[] = { 8, 1, 5, 32, 1000 };
#define MAXN 1000
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;

static int try_one(const float *h_a, const float *d_a, float *d_out, int n, int draw)
{
    static float got[MAXN];
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(float));
    printf("  n = %-5d ", n);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), n }, { "out", d_out, sizeof(float), n } };
    pz_begin(&pic, "8.5 map", bufs, 2);
    long reports = pw_simt_report_count();
    map_launch(d_a, d_out, n);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    for (long t = 0; t < n; t++) {           /* thread t reads a[t] and writes out[t] */
        pz_expect(&pic, t, 0, t, PZ_READ);
        pz_expect(&pic, t, 1, t, PZ_WRITE);
    }
    if (err != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        if (strstr(pw_simt_last_error_message(), "out of bounds") || strstr(pw_simt_last_error_message(), "outside"))
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
        printf("wrong\nFAIL: the launch ran %lld blocks of %lld threads; the given launch is 1 block of n = %d: "
               "put it back\n", c->blocks, c->threads_per_block, n);
        return 1;
    }
    cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        float want = h_a[i] + 10.0f;        /* exact: small whole numbers */
        if (got[i] == want) continue;
        int bits;
        memcpy(&bits, &got[i], sizeof bits);
        printf("wrong\nFAIL: out[%d] = %g, want a[%d] + 10 = %g", i, (double)got[i], i, (double)want);
        if (bits == UNWRITTEN) printf(": never written (does every thread store its own element?)");
        else if (i + 1 < n && got[i] == h_a[i + 1] + 10.0f) printf(": that is a[%d] + 10, the next element's", i + 1);
        else if (i > 0 && got[i] == h_a[i - 1] + 10.0f) printf(": that is a[%d] + 10, the element before", i - 1);
        printf("\n");
        if (n <= 32) pz_print(&pic);
        return 1;
    }
    if (pz_limits(&pic, 1, 1, -1, -1) || pz_totals(n, n)) {   /* totals: every thread, past the 256 drawn */
        printf("  each thread reads its one element and writes its one result: n threads, n reads, n writes\n");
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
    static float h_a[MAXN];
    for (int i = 0; i < MAXN; i++) h_a[i] = (float)((i * 37) % 19 - 9);
    float *d_a, *d_out;
    cudaMalloc((void **)&d_a, sizeof h_a);
    cudaMalloc((void **)&d_out, sizeof h_a);
    cudaMemcpy(d_a, h_a, sizeof h_a, cudaMemcpyHostToDevice);
    printf("puzzle 8.5 map: out[i] = a[i] + 10, one thread per element, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !bad; s++) bad = try_one(h_a, d_a, d_out, sizes[s], s == 0);
    cudaFree(d_a);
    cudaFree(d_out);
    if (bad) {
        printf("puzzle 8.5 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every out[i] = a[i] + 10, 1 read and 1 write per thread");
}
