/* exercises/08-cuda-warps/check_stencil.c: the checker of exercise 8.3.
 *
 * Runs your stencil on the SIMT emulator on odd shapes (1x1, 1x100, 37x53,
 * 100x67: partial tiles on both edges) with blocks of 16x16, 32x8 and 8x4.
 * The inputs are whole numbers, so sums of five are exact: tolerance 0.
 * Then the launch and the counters: the grid of bx x by blocks that
 * covers the matrix (ceil(cols / bx) x ceil(rows / by) of them), the tile
 * in dynamic shared memory (no static __shared__ array), at most 2 global
 * loads per output (a tile with its halo), where a kernel without shared
 * memory needs 5, and the fill shared by the block's lanes (a kernel whose
 * every load request has one lane is one thread filling the tile alone).
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "stencil.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int shapes[][2] = { { 1, 1 }, { 1, 100 }, { 37, 53 }, { 100, 67 } };
static const int blocks[][2] = { { 16, 16 }, { 32, 8 }, { 8, 4 } };
#define MAXN (100 * 67)

static float at(const float *a, int rows, int cols, int r, int c)
{
    return r >= 0 && r < rows && c >= 0 && c < cols ? a[r * cols + c] : 0.0f;
}

static int try_one(const float *h_in, float *d_in, float *d_out, float *got, int rows, int cols, int bx, int by)
{
    int n = rows * cols;
    cudaMemcpy(d_in, h_in, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0xFF, (size_t)n * sizeof(float));
    printf("  %3dx%-3d blocks %2dx%-2d ", rows, cols, bx, by);
    pw_simt_counters_reset();
    long reports_before = pw_simt_report_count();
    stencil_launch(d_in, d_out, rows, cols, bx, by);
    if (cudaGetLastError() != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        if (strstr(pw_simt_last_error_message(), "out of bounds"))
            printf("  halo cells outside the matrix are 0: test the row and column before loading\n");
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        printf("wrong\nFAIL: the emulator's checks found a problem (the result may look right by luck): %s\n",
               pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float want = at(h_in, rows, cols, r, c) + at(h_in, rows, cols, r - 1, c) + at(h_in, rows, cols, r + 1, c) +
                         at(h_in, rows, cols, r, c - 1) + at(h_in, rows, cols, r, c + 1);
            float g = got[r * cols + c];
            if (g == want) continue;
            printf("wrong\nFAIL: out[%d][%d] = %g, want %g", r, c, (double)g, (double)want);
            /* the "replicate" boundary of image filters: outside cells clamped to the nearest border cell */
            float clamped = 0;
            for (int d = 0; d < 5; d++) {
                int rr = r + (d == 1) - (d == 2), cc = c + (d == 3) - (d == 4);
                rr = rr < 0 ? 0 : rr >= rows ? rows - 1 : rr;
                cc = cc < 0 ? 0 : cc >= cols ? cols - 1 : cc;
                clamped += h_in[rr * cols + cc];
            }
            if (isnan(g)) printf(": never written, or it read unwritten shared memory (the poison, NaN): is the whole "
                                 "tile, halo included, filled before the barrier?\n");
            else if (g == clamped)
                printf(": on the matrix's border, a neighbour outside the matrix counts as 0, not as the nearest "
                       "border cell: fill those halo cells with 0\n");
            else if (r % by == 0 || r % by == by - 1 || c % bx == 0 || c % bx == bx - 1)
                printf(": on the edge of a tile: the halo comes from the neighbouring tiles' elements\n");
            else printf(": inside a tile: the five values are the element and its 4 neighbours\n");
            return 1;
        }
    const pw_simt_counters *ct = pw_simt_total_counters();
    /* The grid that covers the matrix with bx x by blocks, and no more: a
     * launch of another shape (16x16 where 32x8 was asked: the same 256
     * threads) shows in the count of blocks. */
    long long gx = (cols + bx - 1) / bx, gy = (rows + by - 1) / by;
    if (ct->threads_per_block != (long long)bx * by || ct->blocks != gx * gy) {
        printf("wrong\nFAIL: the launch ran %lld blocks of %lld threads; %dx%d blocks covering %dx%d are a grid of\n"
               "  (cols + bx - 1) / bx x (rows + by - 1) / by = %lld x %lld = %lld blocks of %d: launch dim3(bx, by)\n"
               "  blocks on that grid (the checker's block shapes are what it tests)\n",
               ct->blocks, ct->threads_per_block, bx, by, rows, cols, gx, gy, gx * gy, bx * by);
        return 1;
    }
    if (ct->shared_static_bytes) {
        printf("wrong\nFAIL: the kernel has a static __shared__ array of %lld bytes: the tile is dynamic shared memory,\n"
               "  extern __shared__ float tile[], sized by the launch, (bx+2)(by+2) floats = %d bytes for %dx%d blocks;\n"
               "  a fixed size is too small for a larger block and wastes memory for a smaller one\n",
               ct->shared_static_bytes, (bx + 2) * (by + 2) * (int)sizeof(float), bx, by);
        return 1;
    }
    if (ct->global_loads > 2LL * n + 2 * (bx + 2) * (by + 2)) {
        printf("wrong\nFAIL: %lld global loads for %d outputs (%.1f each): load the tile and halo into shared "
               "memory once, then read the 5 values from there\n", ct->global_loads, n, (double)ct->global_loads / n);
        return 1;
    }
    /* One lane per load request, every time, where blocks had more than one
     * cell to load: a single thread (or one per warp) filled the tile cell
     * after cell. A fill shared by the block's lanes serves up to 32 cells
     * per warp request (the solution: 16x16 blocks, 324 cells in 11). */
    if (ct->global_load_requests == ct->global_loads && ct->global_loads > ct->blocks) {
        printf("wrong\nFAIL: each of the %lld global loads was a warp request of its own, one lane each: one thread\n"
               "  fills the tile cell after cell while the others wait (%d cells a block, a memory latency each on\n"
               "  a GPU). Share the fill: thread t of the block loads cells t, t + %d, t + %d, ...\n",
               ct->global_loads, (bx + 2) * (by + 2), bx * by, 2 * bx * by);
        return 1;
    }
    printf("ok (%.2f global loads per output)\n", (double)ct->global_loads / n);
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    float *h_in = pw_alloc_floats(MAXN), *got = pw_alloc_floats(MAXN);
    pw_fill_random(h_in, MAXN, 5, -10.0f, 10.0f);
    for (int i = 0; i < MAXN; i++) h_in[i] = floorf(h_in[i]);
    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, MAXN * sizeof(float));
    cudaMalloc((void **)&d_out, MAXN * sizeof(float));
    printf("exercise 8.3: a 5-point stencil with a shared tile, on the emulator\n");
    int bad = 0;
    for (size_t b = 0; b < sizeof blocks / sizeof *blocks && !bad; b++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes && !bad; s++)
            bad = try_one(h_in, d_in, d_out, got, shapes[s][0], shapes[s][1], blocks[b][0], blocks[b][1]);
    pw_free(h_in);
    pw_free(got);
    cudaFree(d_in);
    cudaFree(d_out);
    if (bad) {
        printf("exercise 8.3 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("exact on every shape and block, each input loaded from global memory about once");
}
