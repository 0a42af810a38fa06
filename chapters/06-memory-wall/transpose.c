/* chapters/06-memory-wall/transpose.c: blocking. A transpose does no
 * arithmetic at all, so its speed is the memory system's alone; the same
 * copies in another order move many times fewer bytes.
 *
 * out = in^T for a rows x cols matrix of floats, naive (row by row of in:
 * the writes go down columns of out, one cache line per float) against
 * cache-blocked (tile by tile) with the block size swept. Rates count the
 * compulsory traffic only: each element read once and written once, 2 x 4
 * bytes; the naive loop really moves more, which is what its low GB/s says.
 *
 *   ./build/ch06/transpose                    6000 x 6000 (137 MiB each: past the caches)
 *   ./build/ch06/transpose -n 3000,5000 -b 8,16,32,64
 *
 * What to expect: the naive loop well below the machine's bandwidth; blocks
 * of 1-8 floats little better (a 64-byte line holds 16 floats, and a tile
 * narrower than that still throws most of each written line away); a best
 * block around 16-64, whose tile (in and out lines) fits in L1; a falling
 * rate past it, when the tile no longer does.
 */
#include "check.h"
#include "options.h"
#include "probe.h"
#include "results.h"
#include "timing.h"
#include "transpose.h"
#include "util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOCKS 32

typedef struct {
    const float *in;
    float *out;
    size_t rows, cols, block;   /* block 0: the naive loop */
} tp_ctx;

static void run_transpose(void *p)
{
    tp_ctx *c = p;
    if (c->block == 0) transpose_naive(c->in, c->out, c->rows, c->cols);
    else transpose_blocked(c->in, c->out, c->rows, c->cols, c->block);
}

/* PW_CH06_BREAK=naive (or blocked) spoils that variant's last element in
 * the checks: how tests/ch06_more.sh sees a wrong result caught. */
static bool broken(const char *name)
{
    const char *b = getenv("PW_CH06_BREAK");
    return b && !strcmp(b, name);
}

/* One variant on one shape, exactly (a transpose only copies: any
 * difference is a bug). Prints the first bad element as (row, column) of out. */
static int verify_one(float *in, float *out, size_t rows, size_t cols, size_t block)
{
    for (size_t i = 0; i < rows * cols; i++) out[i] = -1.0f;   /* a value in never holds */
    tp_ctx c = { in, out, rows, cols, block };
    run_transpose(&c);
    if (broken(block ? "blocked" : "naive")) out[rows * cols - 1] += 1.0f;
    size_t bad = transpose_first_mismatch(in, out, rows, cols);
    if (bad == (size_t)-1) return 0;
    size_t orow = bad / rows, ocol = bad % rows;
    fprintf(stderr, "transpose %s (block %zu) on %zu x %zu: first bad element out[%zu][%zu] = %g, want in[%zu][%zu] = %g\n",
            block ? "blocked" : "naive", block, rows, cols, orow, ocol, out[bad], ocol, orow, in[ocol * cols + orow]);
    return 1;
}

/* Every variant on awkward shapes (1, 7, 33, 257, non-square, and edges
 * that are no multiple of any block) and on the timed shape. */
static int verify_all(size_t rows, size_t cols, const size_t *blocks, int nb, float *in, float *out)
{
    static const size_t shapes[][2] = { { 1, 1 }, { 7, 7 }, { 33, 33 }, { 257, 257 }, { 1, 33 }, { 33, 1 },
                                        { 7, 257 }, { 257, 33 }, { 100, 37 } };
    int bad = 0;
    for (size_t s = 0; s <= sizeof shapes / sizeof shapes[0] && !bad; s++) {
        size_t r = s < sizeof shapes / sizeof shapes[0] ? shapes[s][0] : rows;
        size_t c = s < sizeof shapes / sizeof shapes[0] ? shapes[s][1] : cols;
        pw_fill_random(in, r * c, 1000 + s, -1.0f, 1.0f);
        bad |= verify_one(in, out, r, c, 0);
        for (int b = 0; b < nb && !bad; b++) bad |= verify_one(in, out, r, c, blocks[b]);
    }
    return bad;
}

/* Lines of 64 bytes that one block x block tile touches: block rows of in
 * and block rows of out, each ceil(4 block / 64) lines long. */
static double tile_bytes(size_t block)
{
    return 2.0 * (double)block * (double)pw_ceil_div(4 * block, 64) * 64.0;
}

static void findings(const size_t *blocks, int nb, const double *gbs, double naive_gbs, const pw_hw *hw,
                     size_t rows, size_t cols)
{
    int best = 0;
    for (int b = 1; b < nb; b++) if (gbs[b] > gbs[best]) best = b;
    char l1[32], tb[32];
    printf("\nWhat this run shows (%zu x %zu):\n", rows, cols);
    /* The answer to the README's prediction (which block, how much faster). */
    printf("answer: %sthe best block was %zu: %.1f GB/s, %.1fx the naive loop's %.1f GB/s.",
           gbs[best] < 1.2 * naive_gbs ? "not shown on this run: " : "", blocks[best], gbs[best],
           gbs[best] / naive_gbs, naive_gbs);
    int tie[64], nt = pw_ties(gbs, nb < 64 ? nb : 64, best, PW_TIE_SHARE, tie);
    for (int k = 0; k < nt; k++) printf("%s%zu", k ? ", " : " A tie, within 5%, with ", blocks[tie[k]]);
    printf("%s\n", nt ? "." : "");
    if (gbs[best] < 1.2 * naive_gbs) {
        printf("- blocking gained less than 1.2x here: this run cannot show the effect (a matrix that fits\n"
               "  in the caches, -n %zu,%zu? or a busy machine).\n", rows, cols);
        return;
    }
    /* Why the naive loop is slow: between two writes to the same line of
     * out it writes one line in each of the other `cols` rows of out. */
    char ws[32], l2[32];
    printf("- naive: a line of out is written again only after %zu other lines (one per column of in):\n"
           "  %s, ", cols, pw_fmt_bytes(64.0 * (double)cols, ws, sizeof ws));
    if (hw->l2 > 0 && 64.0 * (double)cols > (double)hw->l2 / 2)
        printf("more than half the probe's L2 (%s): lines are evicted before they are full.\n",
               pw_fmt_bytes((double)hw->l2, l2, sizeof l2));
    else if (hw->l1d > 0 && 64.0 * (double)cols > (double)hw->l1d)
        printf("more than L1 (%s) holds: each line comes back from L2.\n", pw_fmt_bytes((double)hw->l1d, l1, sizeof l1));
    else
        printf("less than L1 holds.\n");
    /* Why that block, from the line size and the probe's L1. */
    printf("- a cache line is 64 bytes = 16 floats; a tile of %zu x %zu touches %s of lines (in and out);\n",
           blocks[best], blocks[best], pw_fmt_bytes(tile_bytes(blocks[best]), tb, sizeof tb));
    if (hw->l1d > 0) {
        bool fits = tile_bytes(blocks[best]) <= (double)hw->l1d;
        printf("  the probe's L1d is %s: the tile %s.\n", pw_fmt_bytes((double)hw->l1d, l1, sizeof l1),
               fits ? "fits in it, so each line is fetched once" : "does not fit in it, L2 holds its lines");
        if (!fits)
            printf("  Larger tiles than L1 holds still won here. Theory: each row of a tile lies on its own 4 KiB\n"
                   "  page of memory, and the CPU's page-translation cache (the TLB) holds only so many; a\n"
                   "  %zu x %zu tile translates %zu pages for %zu elements, a 16 x 16 one 32 for 256.\n",
                   blocks[best], blocks[best], 2 * blocks[best], blocks[best] * blocks[best]);
    }
    for (int b = 0; b < nb; b++)
        if (blocks[b] < 16 && gbs[b] < 0.8 * gbs[best])
            printf("  block %zu (%.1f GB/s) uses %zu of the 16 floats of each line of out before moving on.\n",
                   blocks[b], gbs[b], blocks[b]);
    for (int b = nb - 1; b >= 0; b--)
        if (blocks[b] > blocks[best] && gbs[b] < 0.8 * gbs[best] && hw->l1d > 0 && tile_bytes(blocks[b]) > (double)hw->l1d) {
            printf("  block %zu (%.1f GB/s): its tile, %s, is more than L1 holds.\n", blocks[b], gbs[b],
                   pw_fmt_bytes(tile_bytes(blocks[b]), tb, sizeof tb));
            break;
        }
}

int main(int argc, char **argv)
{
    pw_list shape = PW_LIST(6000);
    pw_list blist = PW_LIST(4, 8, 16, 32, 64, 128, 256);
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &shape, "ROWS[,COLS]", "matrix shape (default 6000: 6000 x 6000)", 1, PW_SIZE_MAX },
        { "-b", "--blocks", PW_OPT_SIZES, &blist, "B[,B...]", "block sizes to sweep (default 4,8,16,32,64,128,256)", 1, 1 << 16 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "matrix transpose: naive against cache-blocked, block size swept", opts, 2, &common);
    if (shape.n > 2) {
        fprintf(stderr, "%s: -n takes ROWS or ROWS,COLS\n", common.prog);
        return PW_EXIT_USAGE;
    }
    if (common.tiny) { shape = (pw_list)PW_LIST(67, 45); blist = (pw_list)PW_LIST(4, 16); }
    size_t rows = (size_t)shape.v[0], cols = (size_t)(shape.n == 2 ? shape.v[1] : shape.v[0]);
    if (blist.n > MAX_BLOCKS) {
        fprintf(stderr, "%s: -b takes at most %d block sizes\n", common.prog, MAX_BLOCKS);
        return PW_EXIT_USAGE;
    }
    /* rows x cols must not overflow before the memory check sees it. */
    if (rows > (size_t)PW_SIZE_MAX / cols) {
        fprintf(stderr, "%s: -n %zu,%zu is too large: past this machine's memory\n", common.prog, rows, cols);
        return PW_EXIT_USAGE;
    }
    size_t n = rows * cols, cap = n > 257 * 257 ? n : 257 * 257;
    pw_require_memory(common.prog, "-n", (long long)cap, sizeof(float), 2);
    size_t blocks[MAX_BLOCKS];
    for (int b = 0; b < blist.n; b++) blocks[b] = (size_t)blist.v[b];
    int nb = blist.n;

    float *in = pw_alloc_floats(cap), *out = pw_alloc_floats(cap);
    if (verify_all(rows, cols, blocks, nb, in, out)) {
        fprintf(stderr, "%s: a variant gave a wrong result; nothing was timed\n", common.prog);
        pw_free(in); pw_free(out);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the reference exactly (1x1, 7x7, 33x33, 257x257, 1x33, 33x1, 7x257, 257x33,\n"
           "100x37 and %zu x %zu, every block size)\n", rows, cols);

    pw_hw hw;
    pw_probe_static(&hw);
    pw_fill_random(in, n, 7, -1.0f, 1.0f);
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "rows", "%zu", rows);
    pw_csv_meta(csv, "cols", "%zu", cols);
    pw_csv_meta(csv, "l1d_bytes", "%ld", hw.l1d);
    pw_csv_meta(csv, "param", "block size (floats per tile edge); naive: none");
    pw_csv_meta(csv, "bytes", "2 x 4 per element: read once, written once (compulsory; write-allocate not counted)");

    /* All points in turns (pw_bench_sweep), so drift slows them alike. */
    pw_bench_config cfg = pw_bench_from_opts(&common);
    tp_ctx ctx[MAX_BLOCKS + 1];
    pw_work_fn fns[MAX_BLOCKS + 1];
    void *ctxs[MAX_BLOCKS + 1];
    for (int i = 0; i <= nb; i++) {
        ctx[i] = (tp_ctx){ in, out, rows, cols, i == 0 ? 0 : blocks[i - 1] };
        fns[i] = run_transpose;
        ctxs[i] = &ctx[i];
    }
    static pw_bench_stats st[MAX_BLOCKS + 1];
    pw_bench_sweep(&cfg, fns, ctxs, nb + 1, st);

    double bytes = 8.0 * (double)n, gbs[MAX_BLOCKS];
    char mib[32];
    printf("\ntranspose %zu x %zu floats (%s per matrix); GB/s from 8 bytes per element\n", rows, cols,
           pw_fmt_bytes(4.0 * (double)n, mib, sizeof mib));
    printf("%-8s %6s %11s %9s %8s %9s\n", "variant", "block", "median ms", "IQR ms", "GB/s", "x naive");
    double naive = pw_gbs(bytes, st[0].median);
    for (int i = 0; i <= nb; i++) {
        double g = pw_gbs(bytes, st[i].median);
        if (i > 0) gbs[i - 1] = g;
        char blk[16] = "-";
        if (i > 0) snprintf(blk, sizeof blk, "%zu", blocks[i - 1]);
        printf("%-8s %6s %11.3f %9.3f %8.2f %8.2fx\n", i ? "blocked" : "naive", blk, st[i].median * 1e3,
               (st[i].q3 - st[i].q1) * 1e3, g, g / naive);
        pw_csv_summary(csv, i ? "blocked" : "naive", (long long)n, 1, i ? blk : "", &st[i], 0, bytes);
    }
    findings(blocks, nb, gbs, naive, &hw, rows, cols);
    pw_free(in);
    pw_free(out);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
