/* exercises/08-cuda-warps/check_broadcast.c: the checker of puzzle 8.9,
 * broadcast.
 *
 * Runs your broadcast on the SIMT emulator over 8.8's shapes, each in the
 * given launch of one bx x by block (bx >= cols, by >= rows): 2 x 5 in
 * 6 x 3 with the access picture (PW_PICTURE=FILE or PW_PICTURE_DIR writes
 * it as CSV for the gallery), then 1 x 1 in 4 x 4, 5 x 2 in 3 x 6, 7 x 7 in
 * 8 x 8, 3 x 30 in 32 x 4, 30 x 3 in 4 x 32, 31 x 31 in 32 x 32. a, b and
 * out are cudaMalloc'd with exactly rows, cols and rows x cols elements, so
 * memcheck stops a kernel at its first access past the end of any of them
 * (a[c] for a[r] on 2 x 5 reads a[2] of a 2-element a); the checker then
 * runs it again on padded arrays with the access log on and names the
 * mistake from the first thread that ran off: a thread with a cell that
 * indexed a by the column or b by the row (swapped), or a by the matrix
 * index r * cols + c (8.8's habit); or threads with no cell (which side of
 * the guard is missing, as in 8.8). The values: a[r] is a whole hundred
 * from 100 to 700 and b[c] a whole number from -9 to 9, so out is exact and
 * a wrong one tells which terms it added (a[c] + b[r] on a square matrix).
 * The budget: 2 global reads and 1 write per thread, 2 rows cols reads
 * and rows cols writes in all.
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "puzzle.h"
#include "broadcast.h"

typedef struct { int rows, cols, bx, by; } shape;
static const shape shapes[] = { { 2, 5, 6, 3 }, { 1, 1, 4, 4 }, { 5, 2, 3, 6 }, { 7, 7, 8, 8 },
                                { 3, 30, 32, 4 }, { 30, 3, 4, 32 }, { 31, 31, 32, 32 } };
#define MAXLEN (3 * 1024 + 31 * 32)  /* the padded arrays: rows x cols + 2 bx by + bx cols at most */
#define UNWRITTEN 0x7F7F7F7F         /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */

static pz_picture pic;
static float h_a[MAXLEN], h_b[MAXLEN];

static void expect_picture(const shape *s)
{
    for (int y = 0; y < s->rows; y++)        /* thread (x, y) reads a[y] and b[x], writes out(y, x) */
        for (int x = 0; x < s->cols; x++) {
            long t = x + (long)s->bx * y;
            pz_expect(&pic, t, 0, y, PZ_READ);
            pz_expect(&pic, t, 1, x, PZ_READ);
            pz_expect(&pic, t, 2, (long)y * s->cols + x, PZ_WRITE);
        }
}

static void print_layout(const shape *s)
{
    printf("  (a is a column of %d, b a row of %d, out %d x %d row by row: out[r * %d + c] is row r, column c)\n",
           s->rows, s->cols, s->rows, s->cols, s->cols);
}

/* The emulator stopped the kernel at an access past the end of a, b or out:
 * run it again on padded arrays, with the log on, and name the mistake from
 * the threads that ran off. Prints the FAIL line. */
static void explain_overrun(const shape *s, const char *msg)
{
    long cells = (long)s->rows * s->cols, pad = 2L * s->bx * s->by + (long)s->bx * s->cols;
    long have[3] = { s->rows, s->cols, cells };             /* elements of a, b, out */
    const char *names[3] = { "a", "b", "out" };
    float *d[3];
    for (int k = 0; k < 3; k++) cudaMalloc((void **)&d[k], (size_t)(have[k] + pad) * sizeof(float));
    cudaMemcpy(d[0], h_a, (size_t)(have[0] + pad) * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d[1], h_b, (size_t)(have[1] + pad) * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d[2], 0x7F, (size_t)(have[2] + pad) * sizeof(float));
    pz_buf bufs[] = { { "a", d[0], sizeof(float), have[0] }, { "b", d[1], sizeof(float), have[1] },
                      { "out", d[2], sizeof(float), have[2] } };
    pz_begin(&pic, "8.9 broadcast", bufs, 3);
    pz_threads_2d(&pic, s->bx);
    broadcast_launch(d[0], d[1], d[2], s->rows, s->cols, s->bx, s->by);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(s);
    /* every access past the end, by the side of the guard its thread is on */
    long x_out = 0, y_out = 0, inside = 0, in_x = -1, in_y = -1, in_index = -1;
    long as_swapped = 0, as_matrix = 0;     /* of the threads with a cell: accesses each slip explains */
    int in_array = 0;
    long kept = pic.logged < PZ_LOG_CAP ? pic.logged : PZ_LOG_CAP;
    for (long i = 0; i < kept; i++) {
        const pw_simt_access *e = &pz_log[i];
        if (e->shared) continue;
        for (int k = 0; k < 3; k++) {
            uint64_t base = (uint64_t)(uintptr_t)d[k];
            if (e->addr < base + (uint64_t)have[k] * sizeof(float) ||
                e->addr >= base + (uint64_t)(have[k] + pad) * sizeof(float)) continue;
            long x = (long)e->thread % s->bx, y = (long)e->thread / s->bx;
            if (x >= s->cols) x_out++;
            if (y >= s->rows) y_out++;
            if (x >= s->cols || y >= s->rows) continue;
            long index = (long)((e->addr - base) / sizeof(float));
            if (inside++ == 0) in_x = x, in_y = y, in_array = k, in_index = index;
            if ((k == 0 && index == x) || (k == 1 && index == y)) as_swapped++;
            if (k < 2 && index == y * s->cols + x) as_matrix++;
        }
    }
    printf("wrong\n");
    if (err != cudaSuccess || x_out + y_out + inside == 0)
        printf("FAIL: the kernel stopped with an error: %s\n", msg);
    else if (inside) {
        printf("FAIL: thread (%ld,%ld), which has cell (r %ld, c %ld), reads %s[%ld], past the end of %s's %ld "
               "elements", in_x, in_y, in_y, in_x, names[in_array], in_index, names[in_array], have[in_array]);
        if (as_swapped == inside && as_matrix < inside)
            printf(": %s is indexed by the %s; a[r] + b[c], not a[c] + b[r]\n", names[in_array],
                   in_array == 0 ? "column" : "row");
        else if (as_matrix == inside)
            printf(": %s is a vector, one number per %s: %s, not the matrix's index r * cols + c\n", names[in_array],
                   in_array == 0 ? "row" : "column", in_array == 0 ? "a[r]" : "b[c]");
        else printf("\n");
    } else if (x_out && y_out)
        printf("FAIL: no guard: threads with threadIdx.x >= cols = %d and threads with threadIdx.y >= rows = %d "
               "have no cell but run off the end\n", s->cols, s->rows);
    else if (y_out)
        printf("FAIL: the row is not guarded: threads with threadIdx.y >= rows = %d have no cell but run off the end: "
               "the guard needs r < rows as well as c < cols\n", s->rows);
    else
        printf("FAIL: the column is not guarded: threads with threadIdx.x >= cols = %d have no cell but run off the "
               "end of b: the guard needs c < cols as well as r < rows\n", s->cols);
    printf("  the emulator stopped the kernel at the first of them (arrays of exactly %d, %d and %ld elements): %s\n",
           s->rows, s->cols, cells, msg);
    if ((long)s->bx * s->by <= 32) {
        printf("  the kernel run again on longer arrays (what it did inside them; the accesses past the end fall "
               "outside the picture):\n");
        pz_print(&pic);
        print_layout(s);
    }
    for (int k = 0; k < 3; k++) cudaFree(d[k]);
}

/* What a wrong out(r, c) is, when the inputs explain it. */
static void explain_value(const shape *s, int r, int c, float got)
{
    int bits;
    memcpy(&bits, &got, sizeof bits);
    if (bits == UNWRITTEN && c >= s->by)
        printf(": never written: with c = threadIdx.y no thread has column %d (blockDim.y = %d): threadIdx.x is "
               "the column", c, s->by);
    else if (bits == UNWRITTEN) printf(": never written (does every thread with a cell store out[r * cols + c]?)");
    else if (c < s->rows && r < s->cols && got == h_a[c] + h_b[r])
        printf(": that is a[%d] + b[%d], a[c] + b[r]: a goes with the row, b with the column", c, r);
    else if (got == h_a[r] + h_a[r]) printf(": that is a[%d] + a[%d]: is b read?", r, r);
    else if (got == h_a[r]) printf(": that is a[%d] alone", r);
    else if (got == h_b[c]) printf(": that is b[%d] alone", c);
}

static int try_one(const shape *s, int draw)
{
    static float got[MAXLEN];
    long cells = (long)s->rows * s->cols, threads = (long)s->bx * s->by;
    float *d_a, *d_b, *d_out;                /* exactly rows, cols and rows x cols: one past the end is caught */
    cudaMalloc((void **)&d_a, (size_t)s->rows * sizeof(float));
    cudaMalloc((void **)&d_b, (size_t)s->cols * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)cells * sizeof(float));
    cudaMemcpy(d_a, h_a, (size_t)s->rows * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, (size_t)s->cols * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)cells * sizeof(float));
    printf("  %2d x %-2d in a block of %2d x %-2d ", s->rows, s->cols, s->bx, s->by);
    pz_buf bufs[] = { { "a", d_a, sizeof(float), s->rows }, { "b", d_b, sizeof(float), s->cols },
                      { "out", d_out, sizeof(float), cells } };
    pz_begin(&pic, "8.9 broadcast", bufs, 3);
    pz_threads_2d(&pic, s->bx);
    pz_fold_idle(&pic);
    long reports = pw_simt_report_count();
    broadcast_launch(d_a, d_b, d_out, s->rows, s->cols, s->bx, s->by);
    cudaError_t err = cudaGetLastError();
    pz_end(&pic);
    expect_picture(s);
    cudaMemcpy(got, d_out, (size_t)cells * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_a);
    cudaFree(d_b);
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
        int r = (int)(i / s->cols), col = (int)(i % s->cols);
        float want = h_a[r] + h_b[col];     /* exact: whole numbers below 710 */
        if (got[i] == want) continue;
        printf("wrong\nFAIL: out(%d, %d) = %g, want a[%d] + b[%d] = %g", r, col, (double)got[i], r, col,
               (double)want);
        explain_value(s, r, col, got[i]);
        printf("\n");
        if (threads <= 32) {
            pz_print(&pic);
            print_layout(s);
        }
        return 1;
    }
    if (pz_limits(&pic, 2, 1, 2 * cells, cells) || pz_totals(2 * cells, cells)) {
        printf("  a thread with a cell reads a[r] and b[c] once each and writes its cell once; the %ld threads "
               "with no cell touch nothing\n", threads - cells);
        if (threads <= 32) {
            pz_print(&pic);
            print_layout(s);
        }
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
    for (int i = 0; i < MAXLEN; i++) {
        h_a[i] = (float)(100 * (1 + (i * 3) % 7));
        h_b[i] = (float)((i * 37) % 19 - 9);
    }
    printf("puzzle 8.9 broadcast: out(r, c) = a[r] + b[c] with a 2D block larger than the matrix, on the emulator\n");
    int bad = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes && !bad; k++) bad = try_one(&shapes[k], k == 0);
    if (bad) {
        printf("puzzle 8.9 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every out(r, c) = a[r] + b[c], 2 reads and 1 write per thread with a cell");
}
