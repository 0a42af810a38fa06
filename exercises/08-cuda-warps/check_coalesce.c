/* exercises/08-cuda-warps/check_coalesce.c: the checker of puzzle 8.18, coalesce.
 *
 * Runs your coalesce on the SIMT emulator, in the launch coalesce_launch
 * gives (ceil(rows / 128) blocks of 128 threads), on rows x cols = 32 x 8
 * with the picture of warp 0's first requests (PW_PICTURE=FILE or
 * PW_PICTURE_DIR writes it as CSV for the gallery), then 1 x 1, 1 x 100,
 * 100 x 1, 37 x 53, 300 x 7, 129 x 33 and 517 x 41: one row, one column,
 * thin and odd shapes, partial warps and partial blocks. in[i] = i + 1, so
 * every value is a whole number below 2^24 (exact in a float) and tells
 * which element it was copied from: the check is exact.
 *
 * Then the counts, loads and stores apart, against bounds derived here
 * (floats are 4 bytes, sectors 32, cudaMalloc aligns to 256 bytes):
 *   - each element read once and written once: n loads, n stores.
 *   - sectors per request, the lesson's number. A request whose m active
 *     lanes touch m consecutive floats starting at a multiple of 8 floats
 *     (a sector boundary) covers 4m bytes: ceil(4m / 32) sectors, 4 for a
 *     full warp and fewer for a partial one (a short last request, idle
 *     lanes). So no request of the coalesced copy exceeds 4, and the sum
 *     obeys sectors <= 4 x requests: whole numbers, compared exactly, so
 *     partial requests are accounted for by what they are. The same 32
 *     floats starting mid-sector touch 5 (the checker says "misaligned");
 *     lanes 2 floats apart touch 8; the given kernel's lanes, a row
 *     (cols >= 8 floats) apart, touch 32 per full warp.
 *   - full requests: a request carries at most 32 floats, so n floats need
 *     at least ceil(n / 32) requests, and a warp whose share of the
 *     elements is not a multiple of 32 ends with one partial request: at
 *     most ceil(n / 32) + warps. This stops a kernel of one-lane requests
 *     (1 sector each: under 4, and 8 times the traffic) from passing.
 * The given kernel's numbers are printed beside yours: computed here from
 * the addresses it touches (thread r, step c: element r * cols + c), with
 * the emulator's rule (distinct 32-byte sectors per warp request).
 */
#include "exercise.h"
#include "report_hint.h"
#include "check.h"
#include "util.h"
#include "puzzle.h"
#include "coalesce.h"

static const int shapes[][2] = { { 32, 8 }, { 1, 1 }, { 1, 100 }, { 100, 1 }, { 37, 53 },
                                 { 300, 7 }, { 129, 33 }, { 517, 41 } };
#define MAXN (517 * 41)
#define UNWRITTEN 0x7F7F7F7F   /* what cudaMemset(d_out, 0x7F, ...) leaves, read as an int */
#define STEPS 64

typedef struct { long long requests, sectors; } sector_count;

/* The given kernel's requests and sectors (loads; its stores are the same):
 * warp w's active lanes are rows 32w .. 32w + 31 below rows, and at step c
 * lane r touches element r * cols + c. Sectors are element / 8. */
static sector_count given_counts(int rows, int cols)
{
    sector_count s = { 0, 0 };
    for (long long w = 0; 32 * w < rows; w++)
        for (int c = 0; c < cols; c++) {
            long long last = -1;
            s.requests++;
            for (long long r = 32 * w; r < 32 * w + 32 && r < rows; r++) {
                long long sector = (r * cols + c) / 8;   /* increasing with r: a change is a new sector */
                if (sector != last) s.sectors++;
                last = sector;
            }
        }
    return s;
}

static double per(long long a, long long b) { return b ? (double)a / (double)b : 0; }

/* ---- the picture: warp 0's first requests on the matrix as it lies in memory ---------------- */

#define PANELS 4
typedef struct {
    const char *title;
    signed char lane[MAXN];      /* the lane that touched each element, -1 none (tiny matrices only) */
    int sectors;
} panel;
static panel panels[PANELS];

static void panel_from_step(panel *p, const char *title, const pw_simt_step *s, const float *base, int n)
{
    p->title = title;
    memset(p->lane, -1, (size_t)n);
    p->sectors = s ? pz_step_sectors(s) : 0;
    if (!s) return;
    for (int l = 0; l < 32; l++) {
        if (!(s->mask >> l & 1u)) continue;
        uint64_t b = (uint64_t)(uintptr_t)base;
        if (s->addr[l] < b || s->addr[l] >= b + (uint64_t)n * sizeof(float)) continue;
        p->lane[(s->addr[l] - b) / sizeof(float)] = (signed char)l;
    }
}

/* The given kernel's first request (lane r: element r * cols) and the
 * expected one (lane l: element l), built from their addresses. */
static void panel_synthetic(panel *p, const char *title, int rows, int cols, int given)
{
    pw_simt_step s;
    memset(&s, 0, sizeof s);
    s.bytes = sizeof(float);
    for (int l = 0; l < 32; l++) {
        long long e = given ? (long long)l * cols : l;
        if ((given && l >= rows) || e >= (long long)rows * cols) continue;
        s.mask |= 1u << l;
        s.addr[l] = (uint64_t)e * sizeof(float);
    }
    panel_from_step(p, title, &s, NULL, rows * cols);
}

static void picture_print(int rows, int cols)
{
    printf("  picture of warp 0's first request: the %d x %d matrix as it lies in memory, a line per row\n"
           "  (%d floats = %d bytes%s), the lane that touched each element (0-9, A-V), '.' none\n",
           rows, cols, cols, 4 * cols, 4 * cols == 32 ? ": one 32-byte sector" : "");
    int w = cols > 12 ? cols : 12;
    printf("  %-7s", "");
    for (int p = 0; p < PANELS; p++) printf(" %-*s", w, panels[p].title);
    printf("\n");
    int skipped = 0;
    for (int r = 0; r < rows; r++) {
        int any = 0;
        for (int p = 0; p < PANELS; p++)
            for (int c = 0; c < cols; c++) any |= panels[p].lane[r * cols + c] >= 0;
        if (!any) {
            skipped++;
            continue;
        }
        if (skipped) printf("  (%d row%s no lane touched)\n", skipped, skipped > 1 ? "s" : "");
        skipped = 0;
        printf("  row %-3d", r);
        for (int p = 0; p < PANELS; p++) {
            char cells[MAXN + 1];
            for (int c = 0; c < cols; c++) cells[c] = pz_digit(panels[p].lane[r * cols + c]);
            cells[cols] = 0;
            printf(" %-*s", w, cells);
        }
        printf("\n");
    }
    if (skipped) printf("  (%d row%s no lane touched)\n", skipped, skipped > 1 ? "s" : "");
    printf("  %-7s", "sectors");
    for (int p = 0; p < PANELS; p++) printf(" %-*d", w, panels[p].sectors);
    printf("\n");
}

/* The CSV for plots/08-cuda-warps/puzzle_coalesce.gp: a row per element
 * per panel (lane -1: untouched), and per panel one title row (row -1). */
static int picture_csv(int rows, int cols)
{
    char path[4096];
    if (!pz_picture_path("8.18 coalesce", path, sizeof path)) return 0;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    pz_csv_header(f, "8.18 coalesce");
    fprintf(f, "# warp 0's first load and store in puzzle 8.18 (coalesce): which lane touched which element\n");
    fprintf(f, "# source: counted (the SIMT emulator's record of warp 0 of block 0); the given kernel's and the\n"
               "# expected request are built from their addresses\n");
    fprintf(f, "# matrix: %d rows x %d cols of floats, row-major; a sector is 8 floats\n", rows, cols);
    fprintf(f, "panel,row,col,lane,sector,title\n");
    for (int p = 0; p < PANELS; p++)
        fprintf(f, "%d,-1,%.1f,-1,%d,%s: %d sector%s\n", p, (cols - 1) / 2.0, panels[p].sectors, panels[p].title,
                panels[p].sectors, panels[p].sectors == 1 ? "" : "s");
    for (int p = 0; p < PANELS; p++)
        for (int i = 0; i < rows * cols; i++)
            fprintf(f, "%d,%d,%d,%d,%d,.\n", p, i / cols, i % cols, panels[p].lane[i], i / 8);
    return fclose(f) ? 1 : 0;
}

/* One request in words, for a size too big to draw: its first lanes' elements. */
static void describe_step(const char *what, const pw_simt_step *s, const float *base, int cols)
{
    if (!s) return;
    printf("  warp 0's first %s: ", what);
    int shown = 0;
    for (int l = 0; l < 32 && shown < 4; l++) {
        if (!(s->mask >> l & 1u)) continue;
        long long e = (long long)((s->addr[l] - (uint64_t)(uintptr_t)base) / sizeof(float));
        printf("lane %d element (%lld, %lld), ", l, e / cols, e % cols);
        shown++;
    }
    printf("...: %d sectors for %d lanes\n", pz_step_sectors(s), __builtin_popcount(s->mask));
}

/* ---- one size ------------------------------------------------------------------------------ */

static int check_one(const float *h_in, const float *d_in, float *d_out, float *got, pw_simt_step *steps, int rows,
                     int cols, int draw)
{
    int n = rows * cols;
    printf("  %3d x %-3d ", rows, cols);
    long reports = pw_simt_report_count();
    pw_simt_trace_warp(0, steps, STEPS);
    coalesce_launch(d_in, d_out, rows, cols);
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess) err = cudaGetLastError();
    int nsteps = pw_simt_trace_count();
    pw_simt_trace_warp(0, NULL, 0);
    const pw_simt_step *load = pz_first_step(steps, nsteps, 0, 0), *store = pz_first_step(steps, nsteps, 0, 1);
    sector_count given = given_counts(rows, cols);
    if (draw) {
        panel_synthetic(&panels[0], "given kernel", rows, cols, 1);
        panel_from_step(&panels[1], "your load", load, d_in, n);
        panel_from_step(&panels[2], "your store", store, d_out, n);
        panel_synthetic(&panels[3], "expected", rows, cols, 0);
    }
    if (err != cudaSuccess) {
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", pw_simt_last_error_message());
        if (strstr(pw_simt_last_error_message(), "out of bounds") || strstr(pw_simt_last_error_message(), "outside"))
            printf("  the matrix has n = rows x cols = %d elements (0 .. %d): there are more threads than rows\n"
                   "  (whole blocks of %d), so every index needs the guard i < n\n", n, n - 1, COALESCE_BLOCK);
        return 1;
    }
    if (pw_simt_report_count() > reports) {
        printf("wrong\nFAIL: the emulator's checks found a problem: %s\n", pw_simt_last_report());
        pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    const pw_simt_counters *c = pw_simt_last_counters();
    long long blocks = (rows + COALESCE_BLOCK - 1) / COALESCE_BLOCK;
    if (c->blocks != blocks || c->threads_per_block != COALESCE_BLOCK) {
        printf("wrong\nFAIL: the launch ran %lld blocks of %lld threads; the given launch is ceil(rows / %d) = %lld "
               "blocks of %d: put it back (the puzzle is which element each thread copies, not how many threads)\n",
               c->blocks, c->threads_per_block, COALESCE_BLOCK, blocks, COALESCE_BLOCK);
        return 1;
    }
    cudaMemcpy(got, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        if (got[i] == h_in[i]) continue;
        int bits;
        memcpy(&bits, &got[i], sizeof bits);
        printf("wrong\nFAIL: out[%d] (row %d, column %d) = %g, want in[%d] = %g", i, i / cols, i % cols,
               (double)got[i], i, (double)h_in[i]);
        /* in[j] = j + 1: which element it came from (only for a value in range: a float
         * past what a long holds, such as the unwritten 3.4e38, has no element) */
        long j = got[i] >= 1.0f && got[i] <= (float)n ? (long)got[i] - 1 : -1;
        if (bits == UNWRITTEN)
            printf(": never written (is every element of the %d copied, the last partial warp's too?)\n", n);
        else if (got[i] == (float)(j + 1) && j >= 0 && j < n)
            printf(": that is in[%ld]'s value (row %ld, column %ld): store the element you loaded\n"
                   "  (the same index on both sides: a copy moves each element to its own place)\n", j, j / cols,
                   j % cols);
        else printf("\n");
        if (draw) picture_print(rows, cols);
        return 1;
    }
    if (c->global_loads != n || c->global_stores != n) {
        printf("wrong\nFAIL: %lld global loads and %lld stores for %d elements: read each element once and write it "
               "once\n", c->global_loads, c->global_stores, n);
        return 1;
    }
    const char *side[2] = { "load", "store" };
    long long req[2] = { c->global_load_requests, c->global_store_requests };
    long long sec[2] = { c->global_load_sectors, c->global_store_sectors };
    const pw_simt_step *first[2] = { load, store };
    for (int k = 0; k < 2; k++) {
        if (sec[k] <= 4 * req[k]) continue;
        printf("wrong\nFAIL: %.2f sectors per %s request (%lld sectors in %lld requests), the puzzle allows 4 (the given "
               "kernel: %.2f)\n", per(sec[k], req[k]), side[k], sec[k], req[k], per(given.sectors, given.requests));
        double r = per(sec[k], req[k]);
        if (r > 4 && r <= 5)
            printf("  misaligned: 32 consecutive floats make 4 sectors only when they start on a sector boundary,\n"
                   "  an element that is a multiple of 8; a run that starts mid-sector touches 5. Start each\n"
                   "  warp's runs at multiples of 32 elements (a row of %d floats or a share of odd length\n"
                   "  does not end on a sector boundary)\n", cols);
        else
            printf("  the lanes of one request are not on neighbouring floats: in one step, lane l of a warp\n"
                   "  should touch the element just after lane l - 1's\n");
        if (draw) picture_print(rows, cols);
        else if (r > 5) describe_step(side[k], first[k], k ? d_out : d_in, cols);
        return 1;
    }
    long long most = (n + 31) / 32 + c->warps;
    for (int k = 0; k < 2; k++) {
        if (req[k] <= most) continue;
        printf("wrong\nFAIL: %lld %s requests for %d elements (%.1f lanes each); full requests need %d, the puzzle "
               "allows %lld\n", req[k], side[k], n, per(k ? c->global_stores : c->global_loads, req[k]), (n + 31) / 32,
               most);
        printf("  a request carries up to 32 floats, so ceil(n / 32) = %d requests suffice, plus one partial request\n"
               "  per warp (%lld warps) where a warp's share is not a multiple of 32: at most %lld\n", (n + 31) / 32,
               c->warps, most);
        printf("  few lanes per request means lanes idle while others copy (one thread alone, or a warp on one\n"
               "  short row): share the elements among all the warp's lanes in every step\n");
        if (draw) picture_print(rows, cols);
        else describe_step(side[k], first[k], k ? d_out : d_in, cols);
        return 1;
    }
    /* Requests and sectors both: with one lane a request (the given kernel on one row) a request is
     * cheap, 1 sector, but there are 32 times as many. */
    if (req[0] == req[1] && sec[0] == sec[1])
        printf("ok (loads and stores: %lld requests of %.2f sectors; the given kernel: %lld of %.2f)\n", req[0],
               per(sec[0], req[0]), given.requests, per(given.sectors, given.requests));
    else
        printf("ok (loads: %lld requests of %.2f sectors, stores: %lld of %.2f; the given kernel: %lld of %.2f)\n",
               req[0], per(sec[0], req[0]), req[1], per(sec[1], req[1]), given.requests,
               per(given.sectors, given.requests));
    if (draw) {
        picture_print(rows, cols);
        if (picture_csv(rows, cols)) return 1;
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
    printf("puzzle 8.18 coalesce: copy a rows x cols matrix, every warp request on neighbouring floats, on the "
           "emulator\n");
    int bad = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes && !bad; s++)
        bad = try_one(h_in, shapes[s][0], shapes[s][1], s == 0);
    if (bad) {
        printf("puzzle 8.18 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every element copied exactly, at most 4 sectors per request (the ideal), requests full");
}
