/* exercises/08-cuda-warps/check_bank_conflicts.c: the checker of puzzle 8.19, bank conflicts.
 *
 * Runs your transpose_tiled on the SIMT emulator, in the launch given (one
 * block of 32 x 8 threads per 32 x 32 tile), on rows x cols = 32 x 32 with
 * the bank picture of warp 0's first tile requests (PW_PICTURE=FILE or
 * PW_PICTURE_DIR writes it as CSV for the gallery), then 1 x 1, 5 x 7,
 * 33 x 65, 100 x 37, 64 x 96 and 129 x 70: partial tiles on the right and
 * bottom edges, and tiles of one row or one column. in[i] = i + 1, whole
 * numbers below 2^24, exact in a float, and each tells where it came from:
 * the check is exact.
 *
 * Then the counts, against bounds derived here:
 *   - every element once at each stage: n global loads, n shared stores,
 *     n shared loads, n global stores (the tile is the point: a transpose
 *     without it has nothing to conflict, and writes `out` uncoalesced).
 *   - global requests coalesced: a warp's active lanes touch at most 32
 *     consecutive floats of one row of in (or of out), 128 bytes, which
 *     cover at most 5 sectors of 32 bytes (4, plus 1 when the run starts
 *     mid-sector, as rows of 37 floats do): sectors <= 5 x requests, whole
 *     numbers, exact. Lanes a row apart (writing out by columns) touch one
 *     sector each: up to 32.
 *   - shared wavefronts at most 1.0x the ideal: the emulator counts, per
 *     warp request, the most different words any one bank serves (the
 *     wavefronts), and the ideal, 1 for a request of at most 32 distinct
 *     words (shared_ideal_wavefronts). A conflict-free tile meets the ideal
 *     exactly on every request, partial tiles too (fewer lanes cannot
 *     conflict more), so the test is shared_wavefronts <= ideal, exact.
 * The given tile[32][32]'s wavefronts are printed beside yours: computed
 * here from its addresses (lane l of a load: word 32 l + j, all on bank j).
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "puzzle.h"
#include "bank_conflicts.h"

#include <math.h>

static const int shapes[][2] = { { 32, 32 }, { 1, 1 }, { 5, 7 }, { 33, 65 }, { 100, 37 }, { 64, 96 }, { 129, 70 } };
#define MAXN (129 * 70)
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */
#define STEPS 64

typedef struct { long long requests, wavefronts; } wave_count;

/* The given kernel's shared requests and wavefronts on rows x cols: per
 * block (bx, by), warp ty (a warp is a row of 32 x 8 threads) and pass k,
 * a store of the lanes whose element exists (1 wavefront: a row of the
 * tile, 32 banks), then a load of those whose output exists, all in bank
 * ty + k with different words: as many wavefronts as lanes. */
static wave_count given_counts(int rows, int cols)
{
    wave_count w = { 0, 0 };
    for (int by = 0; by * BC_TILE < rows; by++)
        for (int bx = 0; bx * BC_TILE < cols; bx++)
            for (int ty = 0; ty < BC_ROWS; ty++)
                for (int k = 0; k < BC_TILE; k += BC_ROWS) {
                    int lanes_in = cols - bx * BC_TILE, lanes_out = rows - by * BC_TILE;
                    lanes_in = lanes_in < 32 ? lanes_in : 32;
                    lanes_out = lanes_out < 32 ? lanes_out : 32;
                    if (by * BC_TILE + ty + k < rows) w.requests++, w.wavefronts++;
                    if (bx * BC_TILE + ty + k < cols) w.requests++, w.wavefronts += lanes_out;
                }
    return w;
}

static double per(long long a, long long b) { return b ? (double)a / (double)b : 0; }

/* The request a tile[32][33] makes first (warp 0 of block 0, pass 0): the
 * store of row 0 (lane l: word l) or the load of column 0 (lane l: word
 * 33 l), for the lanes whose element exists; given: the tile[32][32] load (word 32 l). */
static pw_simt_step model_step(int rows, int cols, int store, int width)
{
    pw_simt_step s;
    memset(&s, 0, sizeof s);
    s.shared = 1;
    s.store = store;
    s.bytes = sizeof(float);
    int lanes = store ? (cols < 32 ? cols : 32) : (rows < 32 ? rows : 32);
    for (int l = 0; l < lanes; l++) {
        s.mask |= 1u << l;
        s.addr[l] = (uint64_t)(store ? l : width * l) * sizeof(float);
    }
    return s;
}

/* The bank picture for the gallery (plots/08-cuda-warps/puzzle_bank_conflicts.gp):
 * a row per lane per panel, and per panel a title row (lane -1). */
static int banks_csv(const char *const titles[], const pw_simt_step *const steps[], int panels)
{
    char path[4096];
    if (!pz_picture_path("8.19 bank_conflicts", path, sizeof path)) return 0;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    pz_csv_header(f, "8.19 bank_conflicts");
    fprintf(f, "# warp 0's first tile load in puzzle 8.19 (bank_conflicts): which bank and word each lane touched\n");
    fprintf(f, "# source: counted (the SIMT emulator's record of warp 0 of block 0); the given tile[32][32]'s\n"
               "# request is built from its addresses. word w is in bank w %% 32, bank row w / 32\n");
    fprintf(f, "panel,lane,bank,row,ways,title\n");
    for (int p = 0; p < panels; p++) {
        int ways = steps[p] ? pz_step_ways(steps[p]) : 0;
        if (ways == 1) fprintf(f, "%d,-1,15.5,-1,%d,%s: no conflict\n", p, ways, titles[p]);
        else fprintf(f, "%d,-1,15.5,-1,%d,%s: %d-way conflict\n", p, ways, titles[p], ways);
        for (int l = 0; l < 32 && steps[p]; l++)
            if (steps[p]->mask >> l & 1u)
                fprintf(f, "%d,%d,%llu,%llu,%d,.\n", p, l, (unsigned long long)((steps[p]->addr[l] >> 2) & 31),
                        (unsigned long long)(steps[p]->addr[l] >> 7), ways);
    }
    return fclose(f) ? 1 : 0;
}

/* Where a wrong value came from, in words. out[o] is out's row orow
 * (in's column) and column oc (in's row). */
static void explain_value(float v, int rows, int cols, int orow, int oc)
{
    int bits;
    memcpy(&bits, &v, sizeof bits);
    long j = (long)v - 1;
    if (bits == UNWRITTEN) {
        printf(": never written (every element of every tile, partial tiles too, goes out once)\n");
    } else if (isnan(v)) {
        printf(": NaN, the poison of shared memory nothing wrote: the tile was read where it was not\n"
               "  written, or before it was written (is the __syncthreads() between the two loops still there?)\n");
    } else if (v == (float)(j + 1) && j >= 0 && j < (long)rows * cols) {
        long jr = j / cols, jc = j % cols;
        printf(": that is in[%ld][%ld]", jr, jc);
        if (jr / BC_TILE == oc / BC_TILE && jc / BC_TILE == orow / BC_TILE)
            printf(", another element of the same tile: the tile is read at a different place than it was\n"
                   "  written. Padding or a swizzle must be the same on both sides: element (r, c) is stored\n"
                   "  and loaded at one place\n");
        else printf(": another tile's element (which block takes which tile is given: blockIdx.x is in's columns)\n");
    } else {
        printf("\n");
    }
}

static int check_one(const float *h_in, const float *d_in, float *d_out, float *got, pw_simt_step *steps, int rows,
                     int cols, int draw)
{
    int n = rows * cols;
    printf("  %3d x %-3d ", rows, cols);
    long reports = pw_simt_report_count();
    pw_simt_trace_warp(0, steps, STEPS);
    transpose_tiled_launch(d_in, d_out, rows, cols);
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess) err = cudaGetLastError();
    int nsteps = pw_simt_trace_count();
    pw_simt_trace_warp(0, NULL, 0);
    wave_count given = given_counts(rows, cols);
    if (err != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        if (strstr(pw_simt_last_error_message(), "out of bounds") && strstr(pw_simt_last_error_message(), "shared"))
            printf("  past the end of the tile: with a padded tile, every index must stay inside its declared size\n");
        else if (strstr(pw_simt_last_error_message(), "out of bounds"))
            printf("  an element past the end of in or out: the partial tiles on the right and bottom edges keep\n"
                   "  the guards r < rows, c < cols (and orow < cols, oc < rows)\n");
        return 1;
    }
    if (pw_simt_report_count() > reports) {
        printf("wrong\nFAIL: the emulator's checks found a problem (the result may look right by luck): %s\n",
               pw_simt_last_report());
        /* Not report_hint.h's "same warp: __syncwarp()": the first hazard found may be inside one warp, but
         * a column of the tile is written by all 8 warps of the block. */
        if (strstr(pw_simt_last_report(), "racecheck"))
            printf("  a lane reads a tile element another thread wrote, with nothing ordering the two: a column of\n"
                   "  the tile is written by all %d warps of the block, so __syncthreads() between the loop that\n"
                   "  fills the tile and the one that reads it (a __syncwarp() orders one warp only)\n", BC_ROWS);
        else pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    const pw_simt_counters *c = pw_simt_last_counters();
    long long gx = (cols + BC_TILE - 1) / BC_TILE, gy = (rows + BC_TILE - 1) / BC_TILE;
    if (c->blocks != gx * gy || c->threads_per_block != BC_TILE * BC_ROWS) {
        printf("wrong\nFAIL: the launch ran %lld blocks of %lld threads; the given launch is one block of 32 x 8 per "
               "tile, %lld x %lld = %lld blocks of 256: put it back\n", c->blocks, c->threads_per_block, gx, gy,
               gx * gy);
        return 1;
    }
    cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int orow = 0; orow < cols; orow++)
        for (int oc = 0; oc < rows; oc++) {
            float want = h_in[(long)oc * cols + orow], v = got[(long)orow * rows + oc];
            if (v == want) continue;
            printf("wrong\nFAIL: out[%d][%d] = %g, want in[%d][%d] = %g", orow, oc, (double)v, oc, orow, (double)want);
            explain_value(v, rows, cols, orow, oc);
            return 1;
        }
    if (c->global_loads != n || c->global_stores != n || c->shared_stores != n || c->shared_loads != n) {
        printf("wrong\nFAIL: for %d elements, %lld global loads, %lld shared stores, %lld shared loads, %lld global "
               "stores: each element goes through the tile once, %d of each\n", n, c->global_loads, c->shared_stores,
               c->shared_loads, c->global_stores, n);
        if (c->shared_stores == 0)
            printf("  without the tile, one side of a transpose is uncoalesced (a warp writing a column of out\n"
                   "  touches 32 sectors): the tile is what lets both sides go by rows\n");
        return 1;
    }
    const char *side[2] = { "load", "store" };
    long long req[2] = { c->global_load_requests, c->global_store_requests };
    long long sec[2] = { c->global_load_sectors, c->global_store_sectors };
    for (int k = 0; k < 2; k++) {
        if (sec[k] <= 5 * req[k]) continue;
        printf("wrong\nFAIL: %.2f sectors per global %s request (%lld in %lld): a warp's 32 floats of one row take at "
               "most 5\n", per(sec[k], req[k]), side[k], sec[k], req[k]);
        printf("  the lanes of a warp should touch consecutive floats of %s: read in by rows, put the tile's\n"
               "  column into out's row, so that both sides are rows and the column walk happens in the tile\n",
               k ? "out" : "in");
        return 1;
    }
    const pw_simt_step *ld = pz_first_step(steps, nsteps, 1, 0), *st = pz_first_step(steps, nsteps, 1, 1);
    if (c->shared_wavefronts > c->shared_ideal_wavefronts) {
        printf("wrong\nFAIL: %.2f wavefronts per shared request (%lld for %lld requests, the worst %lld-way), the "
               "ideal is %.2f: %.2fx it (the given tile: %.2f)\n", per(c->shared_wavefronts, c->shared_requests),
               c->shared_wavefronts, c->shared_requests, c->shared_max_ways,
               per(c->shared_ideal_wavefronts, c->shared_requests),
               per(c->shared_wavefronts, c->shared_ideal_wavefronts), per(given.wavefronts, given.requests));
        int store_worse = st && (!ld || pz_step_ways(st) > pz_step_ways(ld));
        pw_simt_step want = model_step(rows, cols, store_worse, BC_TILE + 1);
        const char *titles[2] = { store_worse ? "yours: first tile store" : "yours: first tile load",
                                  store_worse ? "tile[32][33]: first store" : "tile[32][33]: first load" };
        const pw_simt_step *shown[2] = { store_worse ? st : ld, &want };
        if (c->shared_max_ways == 2)
            printf("  2-way: a column of the tile is words a row length apart; an even length such as 34 puts\n"
                   "  lanes l and l + 16 on one bank (16 x 34 is a multiple of 32). An odd length shares no factor\n"
                   "  with 32, so 32 lanes land on 32 banks\n");
        else
            printf("  a column of the tile is words a row length apart; when that length is a multiple of 32\n"
                   "  (32, 64: padding by 32 changes nothing), the whole column is on one bank\n");
        pz_print_banks(titles, shown, 2);
        return 1;
    }
    printf("ok (%lld shared requests of %.2f wavefronts, the ideal; the given tile: %.2f)\n", c->shared_requests,
           per(c->shared_wavefronts, c->shared_requests), per(given.wavefronts, given.requests));
    if (draw) {
        pw_simt_step given_ld = model_step(rows, cols, 0, BC_TILE);
        const char *titles[2] = { "given tile[32][32]: first load", "yours: first tile load" };
        const pw_simt_step *shown[2] = { &given_ld, ld };
        pz_print_banks(titles, shown, 2);
        if (banks_csv(titles, shown, 2)) return 1;
    }
    return 0;
}

static int try_one(const float *h_in, int rows, int cols, int draw)
{
    static float got[MAXN];
    static pw_simt_step steps[STEPS];
    int n = rows * cols;
    /* Arrays of exactly n floats, so an index past the end is out of bounds (memcheck), not luck. */
    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, (size_t)n * sizeof(float));
    cudaMalloc((void **)&d_out, (size_t)n * sizeof(float));
    cudaMemcpy(d_in, h_in, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0x7F, (size_t)n * sizeof(float));
    int bad = check_one(h_in, d_in, d_out, got, steps, rows, cols, draw);
    cudaFree(d_in);
    cudaFree(d_out);
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    static float h_in[MAXN];
    for (int i = 0; i < MAXN; i++) h_in[i] = (float)(i + 1);
    printf("puzzle 8.19 bank conflicts: a transpose through a shared tile with no bank conflict, on the emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes && !bad; s++)
        bad = try_one(h_in, shapes[s][0], shapes[s][1], s == 0);
    if (bad) {
        printf("puzzle 8.19 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every element transposed exactly, every shared request 1 wavefront (1.0x the ideal)");
}
