/* chapters/06-memory-wall/staircase.c: the memory hierarchy as a staircase.
 *
 * For working sets from 4 KiB up (doubling), on one core:
 *   - read bandwidth: a read-only sum over the set, again and again
 *     (kernels/memlevels.h says why reads only);
 *   - latency: pointer chasing over a random cycle of the set's cache lines,
 *     in ns and in cycles of a clock measured here (a dependent-add chain).
 * Each time the set outgrows a cache (the probe's L1d, L2, L3 sizes, marked
 * in the table, the CSV and the figures), bandwidth steps down and latency up.
 * Then the L1 and L2 read bandwidth of one core and of all cores: the cache
 * roofs chapter 06's roofline draws.
 *
 * The sweep stops at 4x the last-level cache, or at 256 MiB unless --max says
 * more: a virtual machine may report an L3 far larger than the cache it has
 * (this one says 508 MiB; the chip's L3 is 32 MiB), and 4x that is gigabytes
 * of pointer chasing at DRAM latency.
 *
 *   ./build/ch06/staircase                 4 KiB .. min(4x LLC, 256 MiB)
 *   ./build/ch06/staircase --max 2G --csv staircase.csv
 */
#include "check.h"
#include "memlevels.h"
#include "omp_info.h"
#include "options.h"
#include "overlap.h"
#include "probe.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#define QUICK_CAP (256L << 20)
#define MIN_SET 4096L
#define CHASE_STEPS 4096     /* steps per timed call: pw_bench batches calls to 200 us */

typedef struct { const double *x; long n; double s; } sum_ctx;
static void run_sum(void *p) { sum_ctx *c = p; c->s += memlevels_sum(c->x, c->n); }

typedef struct { const size_t *buf; size_t at; } chase_ctx;
static void run_chase(void *p) { chase_ctx *c = p; c->at = memlevels_chase(c->buf, c->at, CHASE_STEPS); }

typedef struct {
    long bytes;
    pw_bench_stats bw, lat;
    double gbs, ns, cycles;
} point;

/* The level a working set fits in, by the sizes the system reports. */
static const char *level_of(long bytes, const pw_hw *hw)
{
    if (hw->l1d && bytes <= hw->l1d) return "L1";
    if (hw->l2 && bytes <= hw->l2) return "L2";
    if (hw->l3 && bytes <= hw->l3) return "L3";
    return "DRAM";
}

/* Before timing: the 32-way sum against one accumulator (integers: exact in
 * any order), and each size's chase must be one cycle through every line. */
static bool verify_sum(double *x)
{
    static const long sizes[] = { 1, 7, 33, 257, 1001 };
    for (int i = 0; i < 5; i++) {
        for (long k = 0; k < sizes[i]; k++) x[k] = (double)(k % 13);
        char what[48];
        snprintf(what, sizeof what, "memlevels_sum n=%ld", sizes[i]);
        if (pw_check_scalar(what, memlevels_sum(x, sizes[i]), memlevels_sum_ref(x, sizes[i]), 0, 0)) return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    long long max_opt = 0;
    pw_opt opts[] = {
        { NULL, "--max", PW_OPT_INT, &max_opt, "BYTES", "largest working set (default 4x the last-level cache, at most 256M)",
          MIN_SET, PW_SIZE_MAX },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "bandwidth and latency against working-set size: the cache staircase", opts, 1, &common);
    pw_hw hw;
    pw_probe_static(&hw);
    long llc = hw.l3 ? hw.l3 : hw.l2 ? hw.l2 : 8L << 20;
    long max = max_opt ? (long)max_opt : 4 * llc < QUICK_CAP ? 4 * llc : QUICK_CAP;
    if (common.tiny && !max_opt) max = 256L << 10;
    pw_require_memory(common.prog, "--max", max, 1, 2);      /* the set, and the shuffle's order */

    char b1[32], b2[32], b3[32], b4[32];
    printf("caches the system reports: L1d %s, L2 %s, L3 %s (per instance)\n",
           pw_fmt_bytes((double)hw.l1d, b1, sizeof b1), pw_fmt_bytes((double)hw.l2, b2, sizeof b2),
           hw.l3 ? pw_fmt_bytes((double)hw.l3, b3, sizeof b3) : "none");
    printf("sweep: 4 KiB to %s", pw_fmt_bytes((double)max, b4, sizeof b4));
    if (max < 4 * llc)
        printf(" (stops short of 4x the last-level cache, %s: --max %ld goes there;\n"
               "  a virtual machine may report a bigger L3 than it has, and DRAM shows long before)",
               pw_fmt_bytes(4.0 * (double)llc, b1, sizeof b1), 4 * llc);
    printf("\n");

    double *x = pw_alloc_bytes((size_t)max);
    if (!verify_sum(x)) {
        fprintf(stderr, "%s: the 32-way sum is wrong; nothing was timed\n", common.prog);
        pw_free(x);
        return PW_EXIT_WRONG;
    }
    double ghz = memlevels_clock_ghz(common.tiny ? 0.01 : 0.1);
    printf("clock, measured by a chain of dependent adds (1 cycle each): %.2f GHz\n\n", ghz);

    int count = 0;
    for (long b = MIN_SET; b <= max; b *= 2) count++;
    point *pts = calloc((size_t)count, sizeof *pts);
    if (!pts) { fprintf(stderr, "%s: out of memory\n", common.prog); return PW_EXIT_WRONG; }
    pw_bench_config cfg = pw_bench_from_opts(&common);
    printf("%12s %-5s %11s %6s %12s %8s\n", "working set", "level", "read GB/s", "IQR", "latency ns", "cycles");
    int i = 0;
    for (long b = MIN_SET; b <= max; b *= 2, i++) {
        point *p = &pts[i];
        p->bytes = b;
        long n = b / (long)sizeof(double);
        for (long k = 0; k < n; k++) x[k] = 1.0;
        sum_ctx sc = { x, n, 0 };
        pw_bench(&cfg, run_sum, &sc, &p->bw);
        pw_sink += sc.s;
        size_t lines = (size_t)b / MEMLEVELS_LINE;
        size_t *buf = (size_t *)x;
        memlevels_chase_build(buf, lines, 42);
        if (memlevels_cycle_length(buf, lines) != lines) {
            fprintf(stderr, "%s: the chase over %zu lines is not one cycle through them all; nothing more is timed\n",
                    common.prog, lines);
            pw_free(x);
            free(pts);
            return PW_EXIT_WRONG;
        }
        chase_ctx cc = { buf, 0 };
        pw_bench(&cfg, run_chase, &cc, &p->lat);
        pw_sink += (double)cc.at;
        p->gbs = (double)b / p->bw.median * 1e-9;
        p->ns = p->lat.median / CHASE_STEPS * 1e9;
        p->cycles = p->ns * ghz;
        printf("%12s %-5s %11.1f %5.1f%% %12.2f %8.1f\n", pw_fmt_bytes((double)b, b1, sizeof b1), level_of(b, &hw),
               p->gbs, 100 * (p->bw.q3 - p->bw.q1) / p->bw.median, p->ns, p->cycles);
    }
    pw_free(x);

    /* ---- the levels the measurements show: knees in the latency ----
     * A new level starts where the chase's latency reaches 1.8x the first
     * latency of the level it is in: one level costs 2-4x the one before
     * (about 1, 3-4, 10-15 and 80-120 ns for L1, L2, L3 and DRAM), while a
     * doubling inside a level moves it far less, and a transition spread over
     * two doublings still crosses 1.8x on the second. A virtual machine may
     * report cache sizes it does not have: the knees are what this run saw. */
    int *plateau = calloc((size_t)count, sizeof *plateau);
    long knee[32] = { MIN_SET };
    int nlevels = 1;
    if (!plateau) { fprintf(stderr, "%s: out of memory\n", common.prog); free(pts); return PW_EXIT_WRONG; }
    double base = pts[0].ns;
    for (int k = 1; k < count; k++) {
        if (pts[k].ns > 1.8 * base && nlevels < 32) { knee[nlevels++] = pts[k].bytes; base = pts[k].ns; }
        plateau[k] = nlevels - 1;
    }
    printf("\nlevels the latency shows (a new one where it reaches 1.8x the level's first): %d", nlevels);
    for (int l = 1; l < nlevels; l++) printf("%s%s", l == 1 ? ", starting at " : ", ", pw_fmt_bytes((double)knee[l], b1, sizeof b1));
    printf("\n");
    /* The reported L3 against the measurements: a set past the reported L2
     * and well inside the reported L3 whose latency is 8x L2's or more is memory,
     * not L3 (an L3 costs 2.5-5x an L2 hit, DRAM 20x and more): this
     * machine's L3, or its share of it, is smaller than reported. */
    double l2_ns = 0;
    for (int k = 0; k < count; k++) if (hw.l2 > 0 && pts[k].bytes <= hw.l2 / 2) l2_ns = pts[k].ns;
    long mem_knee = 0;   /* the first set past L2, within half the reported L3, that waits like memory */
    for (int k = 0; k < count && l2_ns > 0 && hw.l3 > 0 && !mem_knee; k++)
        if (pts[k].bytes > hw.l2 && pts[k].bytes <= hw.l3 / 2 && pts[k].ns >= 8 * l2_ns) mem_knee = pts[k].bytes;
    bool llc_contradicted = mem_knee > 0;
    if (llc_contradicted)
        printf("  the latency reaches memory's at %s (8x an L2 hit's %.1f ns or more), inside the %s L3 the system\n"
               "  reports: this machine's L3 (or its share of it) is smaller than reported, and larger sets come from memory\n",
               pw_fmt_bytes((double)mem_knee, b1, sizeof b1), l2_ns, pw_fmt_bytes((double)hw.l3, b2, sizeof b2));

    /* ---- per level: the largest set that fits in half of it ---- */
    long bounds[4] = { hw.l1d, hw.l2, hw.l3, 0 };
    const char *names[4] = { "L1", "L2", "L3", "DRAM" };
    point *lvl[4] = { NULL, NULL, NULL, NULL };
    long prev = 0;
    for (int l = 0; l < 3; l++) {
        if (bounds[l] <= 0) continue;
        for (int k = 0; k < count; k++)
            if (pts[k].bytes <= bounds[l] / 2 && pts[k].bytes > prev) lvl[l] = &pts[k];
        prev = bounds[l];
    }
    if (pts[count - 1].bytes >= 4 * llc) lvl[3] = &pts[count - 1];
    printf("\nper level, by the sizes the system reports (the largest working set within half of each)%s:\n",
           llc_contradicted ? "; the knees above say where the levels really end" : "");
    for (int l = 0; l < 4; l++) {
        if (!lvl[l]) {
            if (l == 3) printf("  %-4s not reached: the sweep stopped at %s, under 4x the reported last-level cache\n",
                               names[l], pw_fmt_bytes((double)max, b1, sizeof b1));
            continue;
        }
        printf("  %-4s %10s: %7.1f GB/s, %7.2f ns = %6.1f cycles\n", names[l],
               pw_fmt_bytes((double)lvl[l]->bytes, b1, sizeof b1), lvl[l]->gbs, lvl[l]->ns, lvl[l]->cycles);
    }

    /* ---- the cache roofs ---- */
    /* Without OpenMP there is one thread: the all-core roofs are not measured. */
    int cores = pw_omp_enabled() ? hw.logical_cores : 1;
    double roof[2][2] = { { 0, 0 }, { 0, 0 } };   /* [L1, L2][1 core, all] */
    long roof_set[2] = { hw.l1d / 2, hw.l2 / 2 };
    pw_overlap ov = { 0, 0, 0 };      /* did the cores' threads run at the same time? */
    for (int l = 0; l < 2; l++) {
        if (roof_set[l] < 1024) continue;
        roof[l][0] = memlevels_bw_gbs(roof_set[l], 1);
        pw_overlap_mark m = pw_overlap_begin();
        roof[l][1] = cores > 1 ? memlevels_bw_gbs(roof_set[l], cores) : roof[l][0];
        pw_overlap_end(&ov, m);
    }
    printf("\ncache roofs (read bandwidth, each core its own set of half the level): ");
    for (int l = 0; l < 2; l++)
        printf("%s%s %.0f GB/s on 1 core, %.0f on %d", l ? "; " : "", names[l], roof[l][0], roof[l][1], cores);
    printf("\n");
    if (cores > 1) pw_overlap_warn(stdout, "the all-core cache roofs", &ov, cores, cores);

    /* ---- what this run shows ---- */
    point *first = lvl[0] ? lvl[0] : &pts[0], *last = &pts[count - 1];
    printf("\nWhat this run shows:\n");
    /* The answers to the README's two predictions start with "answer:". A
     * sweep that stayed inside L2 (--tiny, a small --max) cannot show DRAM. */
    bool in_l2 = !hw.l2 || last->bytes <= hw.l2;
    const char *none = in_l2 ? "not shown on this run (the largest set is inside L2, far from DRAM): " : "";
    char where_last[96];
    if (llc_contradicted && strcmp(level_of(last->bytes, &hw), "DRAM"))   /* the reported level is not the one it waited for */
        snprintf(where_last, sizeof where_last, "reported %s, measured: memory", level_of(last->bytes, &hw));
    else
        snprintf(where_last, sizeof where_last, "%s", level_of(last->bytes, &hw));
    printf("answer: %san access to %s (%s) waited %.1f ns (%.0f cycles), %.1fx an L1 hit's %.2f ns (%.1f cycles)%s\n",
           none, pw_fmt_bytes((double)last->bytes, b1, sizeof b1), where_last, last->ns, last->cycles,
           last->ns / first->ns, first->ns, first->cycles,
           lvl[3] ? "" : ";\n  the sweep did not reach 4x the reported last-level cache, so this is a lower bound for DRAM");
    printf("answer: %sread bandwidth fell from %.1f GB/s (%s) to %.1f (%s): %.1fx; latency rose %.1fx.\n"
           "  Bandwidth falls less than latency rises: sequential reads are prefetched and many are in flight at once,\n"
           "  while a chase has one miss in flight and pays every nanosecond of it.\n",
           none, first->gbs, pw_fmt_bytes((double)first->bytes, b1, sizeof b1), last->gbs,
           pw_fmt_bytes((double)last->bytes, b2, sizeof b2), first->gbs / last->gbs,
           last->ns / first->ns);
    int jump = 1;
    for (int k = 2; k < count; k++)
        if (pts[k].ns / pts[k - 1].ns > pts[jump].ns / pts[jump - 1].ns) jump = k;
    if (count > 1)
        printf("- the biggest step in latency: %s -> %s (%.1fx): the working set left a cache there%s\n",
               pw_fmt_bytes((double)pts[jump - 1].bytes, b1, sizeof b1), pw_fmt_bytes((double)pts[jump].bytes, b2, sizeof b2),
               pts[jump].ns / pts[jump - 1].ns,
               hw.l3 && pts[jump - 1].bytes >= hw.l2 && pts[jump].bytes <= hw.l3 / 2
                   ? "; it lies inside the L3 the system reports, so the real L3 (or a slice of it) is smaller"
                   : "");

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "l1d_bytes", "%ld", hw.l1d);
    pw_csv_meta(csv, "l2_bytes", "%ld", hw.l2);
    pw_csv_meta(csv, "l3_bytes", "%ld", hw.l3);
    pw_csv_meta(csv, "clock_ghz", "%.3f", ghz);
    pw_csv_meta(csv, "n", "working-set bytes");
    for (int k = 0; k < count; k++) {
        point *p = &pts[k];
        pw_csv_summary(csv, "read_bw", p->bytes, 1, level_of(p->bytes, &hw), &p->bw, (double)p->bytes / 8, (double)p->bytes);
        pw_csv_summary(csv, "chase", p->bytes, 1, level_of(p->bytes, &hw), &p->lat, 0, 0);
        pw_csv_quantity(csv, "latency_ns", p->bytes, 1, level_of(p->bytes, &hw), p->ns);
        pw_csv_quantity(csv, "latency_cycles", p->bytes, 1, level_of(p->bytes, &hw), p->cycles);
    }
    for (int l = 0; l < 2; l++) {
        if (roof[l][0] <= 0) continue;
        pw_csv_quantity(csv, l ? "roof_l2" : "roof_l1", roof_set[l], 1, "GB/s", roof[l][0]);
        if (cores > 1 && !pw_overlap_suspect(&ov, cores, cores))   /* a suspect all-core roof is no roof */
            pw_csv_quantity(csv, l ? "roof_l2" : "roof_l1", roof_set[l], cores, "GB/s", roof[l][1]);
    }
    for (int l = 1; l < nlevels; l++) pw_csv_quantity(csv, "latency_knee", knee[l], 1, "bytes", (double)knee[l]);
    pw_csv_meta(csv, "measured_levels", "%d%s", nlevels, llc_contradicted ? " (the reported L3 is contradicted)" : "");
    free(plateau);
    free(pts);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
