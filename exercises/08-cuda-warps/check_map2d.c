/* exercises/08-cuda-warps/check_map2d.c: the checker of puzzle 8.8, map2d.
 *
 * Runs your map2d on the SIMT emulator over rows x cols matrices, each in
 * the given launch of one bx x by block (bx >= cols, by >= rows): 2 x 5 in
 * 6 x 3 with the access picture (PW_PICTURE=FILE or PW_PICTURE_DIR writes
 * it as CSV for the gallery), then 1 x 1 in 4 x 4, 5 x 2 in 3 x 6, 7 x 7 in
 * 8 x 8, 3 x 30 in 32 x 4, 30 x 3 in 4 x 32, 31 x 31 in 32 x 32. The
 * shapes that are not square, in blocks that are not square either, are the
 * ones that tell a row from a column: with r = threadIdx.x in a 6 x 3 block
 * the columns 3 and 4 of a 2 x 5 matrix have no thread (by = 3). The
 * matrices are cudaMalloc'd with exactly rows x cols elements, so memcheck
 * stops a kernel at its first access past the end; the checker then runs it
 * again on padded arrays with the access log on and sorts the threads that
 * ran off the end: x >= cols (the column test missing), y >= rows (the row
 * test missing), both (no guard), or a thread with a cell (its index is
 * wrong: r * blockDim.x + c). Values are a + 10, small whole numbers: exact.
 * The budget: 1 global read and 1 write per thread, rows x cols of each in
 * all.
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "puzzle.h"
#include "map2d.h"

typedef struct { int rows, cols, bx, by; } shape;
static const shape shapes[] = { { 2, 5, 6, 3 }, { 1, 1, 4, 4 }, { 5, 2, 3, 6 }, { 7, 7, 8, 8 },
                                { 3, 30, 32, 4 }, { 30, 3, 4, 32 }, { 31, 31, 32, 32 } };
#define MAXLEN (3 * 1024 + 31 * 32)  /* the padded arrays: rows x cols + 2 bx by + bx cols at most */
#define UNWRITTEN 0x7F7F7F7F         /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;
static float h_a[MAXLEN];

static void expect_picture(const shape *s)
{
    for (int y = 0; y < s->rows; y++)        /* thread (x, y) has cell (r = y, c = x) */
        for (int x = 0; x < s->cols; x++) {
            long t = x + (long)s->bx * y, e = (long)y * s->cols + x;
            pz_expect(&pic, t, 0, e, PZ_READ);
            pz_expect(&pic, t, 1, e, PZ_WRITE);
        }
}

static void print_layout(const shape *s)
{
    printf("  (a and out are %d x %d, row by row: element r * %d + c is row r, column c)\n", s->rows, s->cols,
           s->cols);
}

/* The emulator stopped the kernel at an access past the end: run it again
 * on padded arrays, with the log on, and sort the threads that ran off by
 * which side of the guard they are on. Prints the FAIL line. */
static void explain_overrun(const shape *s, const char *msg)
{
    long cells = (long)s->rows * s->cols, len = cells + 2L * s->bx * s->by + (long)s->bx * s->cols;
    float *d_a, *d_out;
    cudaMalloc((void **)&d_a, (size_t)len * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)len * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)len * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)len * sizeof(float));
    pz_buf bufs[] = { { "a", d_a, sizeof(float), cells }, { "out", d_out, sizeof(float), cells } };
    pz_begin(&pic, "8.8 map2d", bufs, 2);
    pz_threads_2d(&pic, s->bx);
    map2d_launch(d_a, d_out, s->rows, s->cols, s->bx, s->by);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(s);
    /* every access past the end, by the side of the guard its thread is on */
    long x_out = 0, y_out = 0, both_out = 0, inside = 0, in_x = -1, in_y = -1, in_index = -1;
    const char *in_array = "a";
    long kept = pic.logged < PZ_LOG_CAP ? pic.logged : PZ_LOG_CAP;
    for (long i = 0; i < kept; i++) {
        const pw_simt_access *e = &pz_log[i];
        if (e->shared) continue;
        for (int b = 0; b < 2; b++) {
            uint64_t base = (uint64_t)(uintptr_t)(b ? d_out : d_a);
            if (e->addr < base + (uint64_t)cells * sizeof(float) || e->addr >= base + (uint64_t)len * sizeof(float)) continue;
            long x = (long)e->thread % s->bx, y = (long)e->thread / s->bx;
            if (x >= s->cols && y >= s->rows) both_out++;
            else if (x >= s->cols) x_out++;
            else if (y >= s->rows) y_out++;
            else if (inside++ == 0) in_x = x, in_y = y, in_index = (long)((e->addr - base) / sizeof(float)), in_array = b ? "out" : "a";
        }
    }
    printf("wrong\n");
    if (err != cudaSuccess || x_out + y_out + both_out + inside == 0)
        printf("FAIL: the kernel stopped with an error: %s\n", msg);
    else if (inside && in_index == in_y * s->bx + in_x)
        printf("FAIL: thread (%ld,%ld), which has cell (r %ld, c %ld), touches %s[%ld], past the end of the %ld "
               "elements: the row stride is the matrix's width, cols = %d, not blockDim.x = %d (r * cols + c)\n",
               in_x, in_y, in_y, in_x, in_array, in_index, cells, s->cols, s->bx);
    else if (inside)
        printf("FAIL: thread (%ld,%ld), which has cell (r %ld, c %ld), touches %s[%ld], past the end of the %ld "
               "elements: is element (r, c) at r * cols + c?\n", in_x, in_y, in_y, in_x, in_array, in_index, cells);
    else if (x_out && y_out)
        printf("FAIL: no guard: threads with threadIdx.x >= cols = %d and threads with threadIdx.y >= rows = %d "
               "have no cell but run off the end of the %ld elements\n", s->cols, s->rows, cells);
    else if (y_out)
        printf("FAIL: the row is not guarded: threads with threadIdx.y >= rows = %d have no cell but run off the end "
               "of the %ld elements: the guard needs r < rows as well as c < cols\n", s->rows, cells);
    else if (x_out)
        printf("FAIL: the column is not guarded: threads with threadIdx.x >= cols = %d run off the end of the last "
               "row (and in the other rows write the next row's first cells): the guard needs c < cols as well as "
               "r < rows\n", s->cols);
    else
        printf("FAIL: threads with no cell (x >= %d and y >= %d) run off the end of the %ld elements\n", s->cols,
               s->rows, cells);
    printf("  the emulator stopped the kernel at the first of them (arrays of exactly %ld elements): %s\n", cells, msg);
    if ((long)s->bx * s->by <= 32) {
        printf("  the kernel run again on longer arrays (what it did inside the matrix; the accesses past the end "
               "fall outside the picture):\n");
        pz_print(&pic);
        print_layout(s);
    }
    cudaFree(d_a);
    cudaFree(d_out);
}

/* A cell never written: which mistake leaves it without a thread? */
static void explain_unwritten(const shape *s, int r, int c)
{
    if (c >= s->by)
        printf(": never written: rows and columns swapped? With c = threadIdx.y, column %d would need "
               "blockDim.y > %d, and it is %d; x runs along a row (blockDim.x = %d >= cols = %d): c = threadIdx.x, "
               "r = threadIdx.y", c, c, s->by, s->bx, s->cols);
    else if (r >= s->bx)
        printf(": never written: rows and columns swapped? With r = threadIdx.x, row %d would need "
               "blockDim.x > %d, and it is %d; y runs down a column (blockDim.y = %d >= rows = %d): r = threadIdx.y, "
               "c = threadIdx.x", r, r, s->bx, s->by, s->rows);
    else printf(": never written (is element (r, c) at r * cols + c, and does every thread with a cell store it?)");
}

static int try_one(const shape *s, int draw)
{
    static float got[MAXLEN];
    long cells = (long)s->rows * s->cols, threads = (long)s->bx * s->by;
    float *d_a, *d_out;                      /* exactly rows x cols elements: one past the end is caught */
    cudaMalloc((void **)&d_a, (size_t)cells * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)cells * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)cells * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)cells * sizeof(float));
    printf("  %2d x %-2d in a block of %2d x %-2d ", s->rows, s->cols, s->bx, s->by);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), cells }, { "out", d_out, sizeof(float), cells } };
    pz_begin(&pic, "8.8 map2d", bufs, 2);
    pz_threads_2d(&pic, s->bx);
    pz_fold_idle(&pic);
    long reports = pw_simt_report_count();
    map2d_launch(d_a, d_out, s->rows, s->cols, s->bx, s->by);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(s);
    cudaMemcpy(got, d_out, (size_t)cells * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_a);
    cudaFree(d_out);
    if (err != cudaSuccess) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", pw_simt_last_error_message());
        if (strstr(msg, "out of bounds")) explain_overrun(s, msg);
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
        printf("wrong\nFAIL: the launch ran %lld block%s of %lld threads; the given launch is 1 block of %d x %d: "
               "put it back\n", c->blocks, c->blocks == 1 ? "" : "s", c->threads_per_block, s->bx, s->by);
        return 1;
    }
    for (long i = 0; i < cells; i++) {
        float want = h_a[i] + 10.0f;        /* exact: small whole numbers */
        if (got[i] == want) continue;
        int bits, r = (int)(i / s->cols), col = (int)(i % s->cols);
        memcpy(&bits, &got[i], sizeof bits);
        printf("wrong\nFAIL: out(%d, %d) = out[%ld] = %g, want a(%d, %d) + 10 = %g", r, col, i, (double)got[i], r,
               col, (double)want);
        if (bits == UNWRITTEN) explain_unwritten(s, r, col);
        printf("\n");
        if (threads <= 32) {
            pz_print(&pic);
            print_layout(s);
        }
        return 1;
    }
    if (pz_limits(&pic, 1, 1, cells, cells) || pz_totals(cells, cells)) {
        printf("  a thread with a cell reads it once and writes it once; the %ld threads with no cell touch "
               "nothing\n", threads - cells);
        if (threads <= 32) pz_print(&pic);
        return 1;
    }
    printf("ok\n");
    if (draw) {
        pz_print(&pic);
        print_layout(s);
        if (pz_write_picture(&pic)) return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    for (int i = 0; i < MAXLEN; i++) h_a[i] = (float)((i * 37) % 19 - 9);
    printf("puzzle 8.8 map2d: out(r, c) = a(r, c) + 10 with a 2D block larger than the matrix, on the emulator\n");
    int bad = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes && !bad; k++) bad = try_one(&shapes[k], k == 0);
    if (bad) {
        printf("puzzle 8.8 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every out(r, c) = a(r, c) + 10, and the threads with no cell touched nothing");
}
