/* exercises/06-memory-wall/check_transpose.c: the checker of exercise 6.2.
 *
 * Built with your exercises/06-memory-wall/transpose.c by `make ex-6.2`, or
 * with solutions/06-memory-wall/transpose.c by `make solution-6.2`. It tries:
 *   1. shapes 1x1, 1x33, 33x1, 7x7, 33x33, 257x257, 7x257, 257x33, 100x37,
 *      each with tiles 1, 3, 16, 32 and 300 (larger than the matrix), on
 *      distinct values: a transpose only copies, so every element must be
 *      exactly right; out starts filled with a value in never holds, so an
 *      element left unwritten (a skipped edge tile) is told apart from one
 *      copied from the wrong place;
 *   2. the speed with tiles 16, 32 and 64 against the naive loop, in turns
 *      (so a busy moment slows all alike), on 6000 x 6000 floats (137 MiB
 *      each: past the caches), where the naive loop writes one cache line
 *      per float. The best of the three is judged: which tile wins depends
 *      on the machine's caches (on a Zen 4 here tile 32 was no faster than
 *      the naive loop, 1.0x, while tile 64 was 3.5x; elsewhere 32 gave
 *      2.8x). Below 1.5x the naive loop's speed with every one of them, the
 *      tiles are not doing their job. (Not judged under a sanitizer, whose
 *      checks dominate the time.)
 */
#include <stdbool.h>
#include <stdio.h>

#include "exercise.h"
#include "timing.h"
#include "transpose.h"
#include "util.h"

#define UNWRITTEN -7.5f         /* out's fill: in holds whole numbers 0..rows*cols-1 only */
#define SPEED_ROWS 6000
#define SPEED_COLS 6000
#define MIN_SPEEDUP 1.5

#if !defined(UNDER_SANITIZER)
/* The plain loop, the yardstick (noinline: timed as a call, like yours). */
__attribute__((noinline)) static void naive_transpose(const float *in, float *out, size_t rows, size_t cols)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) out[c * rows + r] = in[r * cols + c];
}
#endif

static int check_shape(float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    for (size_t i = 0; i < rows * cols; i++) { in[i] = (float)i; out[i] = UNWRITTEN; }
    printf("  %4zu x %-4zu tile %-4zu", rows, cols, tile);
    transpose_tiles(in, out, rows, cols, tile);
    for (size_t c = 0; c < cols; c++)
        for (size_t r = 0; r < rows; r++) {
            float got = out[c * rows + r], want = in[r * cols + c];
            if (got == want) continue;
            bool edge = (rows % tile && r >= rows - rows % tile) || (cols % tile && c >= cols - cols % tile);
            if (got == UNWRITTEN)
                pw_ex_fail("out[%zu][%zu] (= in[%zu][%zu]) was never written%s", c, r, r, c,
                           edge ? ": it is in an edge tile (rows or cols not a multiple of the tile):\n"
                                  "  cut the last tiles short with a min instead of skipping them" : "");
            else if (got >= 0 && got < (float)(rows * cols) && got == (float)(size_t)got)
                pw_ex_fail("out[%zu][%zu] = in[%zu][%zu], want in[%zu][%zu]: an index is wrong (out is cols x rows:\n"
                           "  out[c*rows + r] = in[r*cols + c])%s", c, r, (size_t)got / cols, (size_t)got % cols, r, c,
                           edge ? "; it is in an edge tile" : "");
            else
                pw_ex_fail("out[%zu][%zu] = %g, want in[%zu][%zu] = %g", c, r, got, r, c, want);
            return 1;
        }
    printf("ok\n");
    return 0;
}

#if !defined(UNDER_SANITIZER)
typedef struct { size_t tile; const float *in; float *out; } speed_ctx;     /* tile 0: the naive loop */
static void run_speed(void *p)
{
    speed_ctx *c = p;
    if (!c->tile) naive_transpose(c->in, c->out, SPEED_ROWS, SPEED_COLS);
    else transpose_tiles(c->in, c->out, SPEED_ROWS, SPEED_COLS, c->tile);
}

/* The naive loop's median over the best tile's. */
static double speedup(float *in, float *out)
{
    pw_fill_random(in, (size_t)SPEED_ROWS * SPEED_COLS, 5, -1.0f, 1.0f);
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_reps = 5;
    cfg.min_time_s = 0.2;
    speed_ctx c[4] = { { 0, in, out }, { 16, in, out }, { 32, in, out }, { 64, in, out } };
    pw_bench_stats st[4];
    pw_bench_sweep(&cfg, (const pw_work_fn[]){ run_speed, run_speed, run_speed, run_speed },
                   (void *const[]){ &c[0], &c[1], &c[2], &c[3] }, 4, st);
    double bytes = 8.0 * SPEED_ROWS * SPEED_COLS;
    int best = 1;
    printf("  %d x %d: naive %.1f ms (%.1f GB/s); yours:", SPEED_ROWS, SPEED_COLS, st[0].median * 1e3, pw_gbs(bytes, st[0].median));
    for (int i = 1; i < 4; i++) {
        printf(" tile %zu %.1f ms (%.1fx)%s", c[i].tile, st[i].median * 1e3, st[0].median / st[i].median, i < 3 ? "," : "\n");
        if (st[i].median < st[best].median) best = i;
    }
    printf("  best: tile %zu, %.1f GB/s, %.1fx the naive loop\n", c[best].tile, pw_gbs(bytes, st[best].median),
           st[0].median / st[best].median);
    return st[0].median / st[best].median;
}
#endif

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    static const size_t shapes[][2] = { { 1, 1 }, { 1, 33 }, { 33, 1 }, { 7, 7 }, { 33, 33 }, { 257, 257 },
                                        { 7, 257 }, { 257, 33 }, { 100, 37 } };
    static const size_t tiles[] = { 1, 3, 16, 32, 300 };
    size_t big = (size_t)SPEED_ROWS * SPEED_COLS;
    float *in = pw_alloc_floats(big), *out = pw_alloc_floats(big);
    printf("exercise 6.2: transpose_tiles() on 9 shapes x 5 tiles, exactly, then its speed\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] && !bad; s++)
        for (size_t t = 0; t < sizeof tiles / sizeof tiles[0] && !bad; t++)
            bad = check_shape(in, out, shapes[s][0], shapes[s][1], tiles[t]);
    double s = 0;
#if defined(UNDER_SANITIZER)
    if (!bad) printf("  (under a sanitizer the speed is not judged: its checks dominate the time)\n");
#else
    if (!bad) {
        s = speedup(in, out);
        if (s < MIN_SPEEDUP) {
            printf("FAIL: transpose_tiles is right but only %.1fx the naive loop with its best tile (want %.1fx):\n"
                   "  the tiles are not doing their job. Loop over tiles outside, over the rows and columns of one\n"
                   "  tile inside.\n", s, MIN_SPEEDUP);
            bad = 1;
        }
    }
#endif
    pw_free(in);
    pw_free(out);
    if (bad) {
        printf("exercise 6.2 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    if (s > 0) return pw_ex_pass("transpose_tiles() is exact on every shape and tile, and %.1fx the naive loop", s);
    return pw_ex_pass("transpose_tiles() is exact on every shape and tile, edge tiles included");
}
