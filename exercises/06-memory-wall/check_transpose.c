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
 *      2.8x). Beside them, in the same turns, the checker's own tiles (32
 *      and 64): their best, G times the naive loop, is what tiling is
 *      worth on this machine now, and yours must reach sqrt(G), halfway
 *      on a log scale (a fixed 1.5x failed the solution itself at 1.4x on
 *      a busy machine, where memory shared with other work compresses
 *      every ratio alike). Where G < 1.5 the speed is not judged, and the
 *      checker says so. (Nor under a sanitizer, whose checks dominate the
 *      time.)
 *   3. (run before 2) the order of the accesses, with the tile the checker
 *      asks for: does the walk go tile x tile square by square? Exact and
 *      fast is not enough: an answer with its own fixed tile (32, say) is
 *      both, on a machine where 32 suits the caches, and ignores the
 *      argument. No clock is used, so the verdict cannot depend on a busy
 *      moment: the memory of in and out is protected page by page
 *      (mprotect), and only one page of each may be open at a time; each
 *      access to another page faults, and the checker's handler opens that
 *      page, closes the one open before and counts. The shape makes a page
 *      one band of tiles: with 4 KiB pages (1024 floats) and tile T, in is
 *      N x N with N = 1024/T, so a page of in is T whole rows of it, and a
 *      page of out is T whole rows of out, T columns of in. A tile then
 *      touches one page of in and one of out, and a walk that finishes each
 *      tile before the next changes page at most once per tile in each:
 *      at most (N/T)^2 faults of each, whatever the order of the tiles or of
 *      the two loops inside a tile (the solution: exactly (N/T)^2 for out,
 *      N/T for in). Any other walk changes more often. Counted at tile 4,
 *      256 x 256, where the bound is 4096: the naive loop 16384 for out
 *      (it changes out's page every T elements: N^2/T), a fixed tile of 32
 *      16384 for out, a tile raised to at least 8 16384 for out and 2048 for
 *      in, a strip of T columns walked down all the rows for each column
 *      16384 for in. Tiles 4 (256 x 256) and 8 (128 x 128) are traced, so an
 *      answer with any one fixed tile fails at least one of them, and the
 *      message says which. (Strips of T rows walked one column at a time
 *      make exactly the accesses of tiles with the column loop outside, in
 *      the same order: they pass, rightly.) With larger pages the tiles
 *      grow with them (16 KiB: 8 and 16; 64 KiB: 32 and 64), so the matrix
 *      is 256 x 256 and 128 x 128 whatever the page; the trace is cheap (at
 *      most 2 N^2 = 128 Ki faults for a walk that reads and writes each
 *      element once, about 0.2 s here; the solution's 4432 in all, a few
 *      ms). The count
 *      stops at 4 N^2 faults (every page is then opened, and the walk
 *      reported as not tiled), so an access that spans two pages cannot
 *      fault forever. It runs before the timing: it takes milliseconds, and
 *      timing a walk that is not tiled is the slowest part of the checker
 *      (the naive loop: 4 points x 8 calls of 0.5-0.7 s went past the
 *      checker's 16 s on a busy machine; 6 calls a point now). The trace works under ASan too (its handler lets a
 *      program install its own for SIGSEGV).
 */
#define _DEFAULT_SOURCE            /* mmap's MAP_ANONYMOUS, sigaction under -std=c11 */
#define _DARWIN_C_SOURCE
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exercise.h"
#include "timing.h"
#include "transpose.h"
#include "util.h"

#define UNWRITTEN -7.5f         /* out's fill: in holds whole numbers 0..rows*cols-1 only */
#define SPEED_ROWS 6000
#define SPEED_COLS 6000
#define MIN_GAP 1.5     /* the checker's own tiles under this: the speed is not judged */

#if !defined(UNDER_SANITIZER)
/* The plain loop, the yardstick (noinline: timed as a call, like yours). */
__attribute__((noinline)) static void naive_transpose(const float *in, float *out, size_t rows, size_t cols)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) out[c * rows + r] = in[r * cols + c];
}

/* Tiles as the exercise asks, written here: the measure of what tiling is
 * worth on this machine, now. */
__attribute__((noinline)) static void tiled_reference(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    for (size_t r0 = 0; r0 < rows; r0 += tile)
        for (size_t c0 = 0; c0 < cols; c0 += tile) {
            size_t r1 = r0 + tile < rows ? r0 + tile : rows, c1 = c0 + tile < cols ? c0 + tile : cols;
            for (size_t r = r0; r < r1; r++)
                for (size_t c = c0; c < c1; c++) out[c * rows + r] = in[r * cols + c];
        }
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
/* tile 0: the naive loop; ref: the checker's own tiles */
typedef struct { size_t tile; bool ref; const float *in; float *out; } speed_ctx;
static void run_speed(void *p)
{
    speed_ctx *c = p;
    if (!c->tile) naive_transpose(c->in, c->out, SPEED_ROWS, SPEED_COLS);
    else if (c->ref) tiled_reference(c->in, c->out, SPEED_ROWS, SPEED_COLS, c->tile);
    else transpose_tiles(c->in, c->out, SPEED_ROWS, SPEED_COLS, c->tile);
}

/* The naive loop, yours with tiles 16, 32, 64 and the checker's own with
 * 32 and 64, in turns. Returns the naive loop's median over your best
 * tile's; *gap gets it over the checker's best tile's. */
static double speedup(float *in, float *out, double *gap)
{
    pw_fill_random(in, (size_t)SPEED_ROWS * SPEED_COLS, 5, -1.0f, 1.0f);
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_reps = 5;
    cfg.min_time_s = 0;
    cfg.warmup = 1;   /* each call is 0.1-0.7 s and the cold call (not sampled) has touched every page: 6 calls a point */
    enum { NP = 6 };
    speed_ctx c[NP] = { { 0, false, in, out }, { 16, false, in, out }, { 32, false, in, out }, { 64, false, in, out },
                        { 32, true, in, out }, { 64, true, in, out } };
    pw_bench_stats st[NP];
    pw_work_fn fns[NP];
    void *args[NP];
    for (int i = 0; i < NP; i++) { fns[i] = run_speed; args[i] = &c[i]; }
    pw_bench_sweep(&cfg, fns, args, NP, st);
    double bytes = 8.0 * SPEED_ROWS * SPEED_COLS;
    int best = 1, ref = 4;
    printf("  %d x %d: naive %.1f ms (%.1f GB/s); yours:", SPEED_ROWS, SPEED_COLS, st[0].median * 1e3, pw_gbs(bytes, st[0].median));
    for (int i = 1; i < 4; i++) {
        printf(" tile %zu %.1f ms (%.1fx)%s", c[i].tile, st[i].median * 1e3, st[0].median / st[i].median, i < 3 ? "," : "\n");
        if (st[i].median < st[best].median) best = i;
    }
    if (st[5].median < st[4].median) ref = 5;
    printf("  the checker's own tiles: 32 %.1f ms (%.1fx), 64 %.1f ms (%.1fx)\n", st[4].median * 1e3,
           st[0].median / st[4].median, st[5].median * 1e3, st[0].median / st[5].median);
    *gap = st[0].median / st[ref].median;
    printf("  best: yours tile %zu, %.1f GB/s, %.1fx the naive loop; the checker's %.1fx, so the bar is %.1fx (halfway)\n",
           c[best].tile, pw_gbs(bytes, st[best].median), st[0].median / st[best].median, *gap, sqrt(*gap));
    return st[0].median / st[best].median;
}
#endif

/* ---- 3. the order of the accesses: a page-fault trace ----------------------- */

typedef struct {
    char *base;            /* page-aligned, len bytes */
    size_t len;
    int open_prot;         /* what an open page allows: read (in) or read and write (out) */
    volatile long open;    /* the page now open, or -1 */
    volatile long faults;  /* page changes (faults) so far */
} traced;

static traced tr_in, tr_out;
static size_t tr_page;
static volatile long tr_cap;           /* faults allowed in all; then every page is opened */
static volatile int tr_capped;
static struct sigaction tr_old_segv, tr_old_bus;

static void tr_open_all(void)
{
    mprotect(tr_in.base, tr_in.len, PROT_READ | PROT_WRITE);   /* (a write to in, const, must not fault forever) */
    mprotect(tr_out.base, tr_out.len, PROT_READ | PROT_WRITE);
    tr_in.open = tr_out.open = -1;
}

/* A fault in in or out: open that page, close the one open before, count.
 * (mprotect is a plain system call: safe here in practice, as in every
 * garbage collector's write barrier.) A fault anywhere else is a real one:
 * the old handler is put back and the access is retried, to crash as it
 * would have. */
static void tr_handler(int sig, siginfo_t *info, void *uc)
{
    (void)sig;
    (void)uc;
    char *a = info->si_addr;
    traced *t = a >= tr_in.base && a < tr_in.base + tr_in.len ? &tr_in
              : a >= tr_out.base && a < tr_out.base + tr_out.len ? &tr_out : NULL;
    if (!t || tr_capped) {
        if (t) return;                                  /* capped: already all open */
        sigaction(SIGSEGV, &tr_old_segv, NULL);
        sigaction(SIGBUS, &tr_old_bus, NULL);
        return;
    }
    if (tr_in.faults + tr_out.faults >= tr_cap) {
        tr_capped = 1;
        tr_open_all();
        return;
    }
    long page = (long)((size_t)(a - t->base) / tr_page);
    if (t->open >= 0) mprotect(t->base + (size_t)t->open * tr_page, tr_page, PROT_NONE);
    mprotect(t->base + (size_t)page * tr_page, tr_page, t->open_prot);
    t->open = page;
    t->faults++;
}

typedef struct { long in_faults, out_faults, tiles; int capped, wrong; } trace_result;

/* transpose_tiles on an n x n matrix with tile t, the pages of in and out
 * protected; in and out are page-aligned mappings of n*n floats. */
static trace_result trace_walk(float *in, float *out, size_t n, size_t t)
{
    trace_result res = { 0, 0, (long)((n / t) * (n / t)), 0, 0 };
    size_t len = n * n * sizeof(float);
    for (size_t i = 0; i < n * n; i++) { in[i] = (float)i; out[i] = UNWRITTEN; }
    tr_in = (traced){ (char *)in, len, PROT_READ, -1, 0 };
    tr_out = (traced){ (char *)out, len, PROT_READ | PROT_WRITE, -1, 0 };
    tr_cap = 4 * (long)(n * n);
    tr_capped = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = tr_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &tr_old_segv);
    sigaction(SIGBUS, &sa, &tr_old_bus);     /* macOS reports a protection fault as SIGBUS */
    mprotect(in, len, PROT_NONE);
    mprotect(out, len, PROT_NONE);
    transpose_tiles(in, out, n, n, t);
    tr_capped = 1;
    tr_open_all();
    sigaction(SIGSEGV, &tr_old_segv, NULL);
    sigaction(SIGBUS, &tr_old_bus, NULL);
    res.in_faults = tr_in.faults;
    res.out_faults = tr_out.faults;
    res.capped = tr_capped && tr_in.faults + tr_out.faults >= tr_cap;
    for (size_t i = 0; i < n * n && !res.wrong; i++) res.wrong = out[(i % n) * n + i / n] != in[i];
    return res;
}

static bool tiled(const trace_result *r) { return !r->capped && r->in_faults <= r->tiles && r->out_faults <= r->tiles; }

/* Returns 1 (and says why) if the walk is not tile by tile for one of the
 * two tiles; 0 if it is, or if the trace cannot be made here. */
static int check_order(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    if (ps <= 0 || ps % 1024 || ps / 4 < 1024 || ps / 4 > 16384) {
        printf("  (the access order was not traced: pages of %ld bytes here, the trace is made for 4, 16 or 64 KiB)\n", ps);
        return 0;
    }
    tr_page = (size_t)ps;
    size_t floats = tr_page / sizeof(float);
    size_t ta = floats / 512 > 4 ? floats / 512 : 4, tb = 2 * ta;   /* 4 and 8 with 4 KiB pages */
    size_t tiles[2] = { ta, tb };
    size_t na = floats / ta;                                           /* the larger matrix: 256 */
    size_t len = na * na * sizeof(float);
    float *in = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    float *out = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (in == MAP_FAILED || out == MAP_FAILED) {
        printf("  (the access order was not traced: mmap failed)\n");
        return 0;
    }
    trace_result r[2];
    for (int i = 0; i < 2; i++) {
        size_t t = tiles[i], n = floats / t;
        printf("  access order: %zu x %zu, tile %-3zu", n, n, t);
        r[i] = trace_walk(in, out, n, t);
        if (r[i].wrong) {
            printf("wrong\n");
            pw_ex_fail("transpose_tiles(in, out, %zu, %zu, tile %zu) gave a wrong out when in and out were read and\n"
                       "  written one page at a time (the shapes above were right): does it keep state between calls?",
                       n, n, t);
            munmap(in, len); munmap(out, len);
            return 1;
        }
        printf("%s (page changes: in %ld, out %ld; a tile-by-tile walk makes at most %ld each)\n",
               tiled(&r[i]) ? "ok" : "not tile by tile", r[i].in_faults, r[i].out_faults, r[i].tiles);
    }
    munmap(in, len);
    munmap(out, len);
    for (int i = 0; i < 2; i++) {
        if (tiled(&r[i])) continue;
        size_t t = tiles[i], n = floats / t, other = tiles[1 - i];
        bool worse_in = r[i].in_faults > r[i].tiles;
        pw_ex_fail("transpose_tiles(in, out, %zu, %zu, tile %zu) does not walk in in %zu x %zu tiles: it moved between\n"
                   "  bands of %zu rows of in %ld times and between bands of %zu columns (rows of out) %ld times%s; a walk\n"
                   "  that finishes each tile before starting the next moves at most once per tile, %ld times, in each.",
                   n, n, t, t, t, t, r[i].in_faults, t, r[i].out_faults,
                   r[i].capped ? " (the count was stopped there)" : "", r[i].tiles);
        if (tiled(&r[1 - i]))
            printf("  With tile %zu it does walk tile by tile: the tile size is fixed or bounded in your code, not\n"
                   "  the one given. Use the tile the caller gives (any size from 1 up, even past the matrix).\n",
                   other);
        else if (worse_in && r[i].out_faults <= r[i].tiles)
            printf("  out is written in order, but in is read down whole columns (or strips): finish a tile x tile\n"
                   "  square before the next, so that its lines of in are used while they are in the cache.\n");
        else
            printf("  Not with tile %zu either: the loops do not use the tile they are given (a fixed tile, or\n"
                   "  none?). Loop over tiles of that size outside, over the rows and columns of one tile inside.\n",
                   other);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    static const size_t shapes[][2] = { { 1, 1 }, { 1, 33 }, { 33, 1 }, { 7, 7 }, { 33, 33 }, { 257, 257 },
                                        { 7, 257 }, { 257, 33 }, { 100, 37 } };
    static const size_t tiles[] = { 1, 3, 16, 32, 300 };
    size_t big = (size_t)SPEED_ROWS * SPEED_COLS;
    float *in = pw_alloc_floats(big), *out = pw_alloc_floats(big);
    printf("exercise 6.2: transpose_tiles() on 9 shapes x 5 tiles, exactly, then the order of its accesses\n"
           "(page by page: no clock), then its speed\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] && !bad; s++)
        for (size_t t = 0; t < sizeof tiles / sizeof tiles[0] && !bad; t++)
            bad = check_shape(in, out, shapes[s][0], shapes[s][1], tiles[t]);
    /* The order before the speed: it is exact and takes milliseconds, where
     * timing a walk that is not tiled takes the longest (the naive loop,
     * 0.5-0.7 s a call here, 30 calls: 16 s on this busy 2-core machine). */
    if (!bad) bad = check_order();
    double s = 0;
#if defined(UNDER_SANITIZER)
    if (!bad) printf("  (under a sanitizer the speed is not judged: its checks dominate the time)\n");
#else
    if (!bad) {
        double gap;
        s = speedup(in, out, &gap);
        if (gap < MIN_GAP)
            printf("  (the checker's own tiles are only %.1fx the naive loop in this run, under %.1fx: the speed cannot\n"
                   "  tell tiles from no tiles here, and is not judged; the order of the accesses was)\n", gap, MIN_GAP);
        else if (s < sqrt(gap)) {
            printf("FAIL: transpose_tiles walks tile by tile but is only %.1fx the naive loop with its best tile, where\n"
                   "  the checker's own tiles ran %.1fx (want %.1fx, halfway): something inside the tile loop costs more\n"
                   "  than the copy (a division or a call per element?). Loop over tiles outside, over the rows and\n"
                   "  columns of one tile inside, with the bounds computed once per tile.\n", s, gap, sqrt(gap));
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
    if (s > 0)
        return pw_ex_pass("transpose_tiles() is exact on every shape and tile, %.1fx the naive loop, and walks tile by tile", s);
    return pw_ex_pass("transpose_tiles() is exact on every shape and tile, edge tiles included, and walks tile by tile");
}
