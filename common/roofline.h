/* common/roofline.h: the roofline model, and the one way every chapter puts
 * a kernel on it.
 *
 * A kernel that does F flops while moving B bytes between memory and the
 * core has an arithmetic intensity I = F / B (flop per byte). The machine
 * can do at most `peak` GFLOP/s, and memory can feed at most `bw` GB/s, so
 * the kernel can reach at most
 *
 *     bound(I) = min(peak, I * bw)          GFLOP/s
 *
 * On log-log axes that is a slanted line (memory roof) that meets a flat
 * one (compute roof) at the ridge point I = peak / bw. Left of the ridge a
 * kernel is memory-bound: more flops per byte would make it faster, faster
 * arithmetic would not. Right of it, compute-bound. Example from chapter 01's
 * probe on a 2-core Zen 5 (AVX-512): peak 225 GFLOP/s on one core, triad
 * 35 GB/s: ridge 6.4 flop/byte. A triad (2 flops per 12 bytes, I = 0.17)
 * can then reach at most 0.17 * 35 = 5.8 GFLOP/s, 2.6% of the peak,
 * however it is written.
 *
 * The roofs are the probe's measurements (common/probe.h), never a data
 * sheet's. Cache roofs (L1, L2) are drawn where a program measured them
 * (chapter 06's staircase): a kernel whose data stays in L2 is bound by the
 * L2 roof instead, which is how a blocked kernel gets past the DRAM roof.
 *
 *   pw_hw hw; pw_probe_measure(&hw, true);
 *   pw_roofs r; pw_roofs_from_probe(&hw, 1, &r);
 *   pw_roofline_csv_roofs(csv, &r);
 *   ... time the kernel into st ...
 *   pw_roofline_print_header();
 *   pw_roofline_print(&r, "triad", flops, bytes, st.median);
 *   pw_roofline_csv_point(csv, "triad", n, 1, &st, flops, bytes);
 *
 * plots/roofline.gp draws the roofs and every point of any number of CSVs.
 */
#ifndef PW_ROOFLINE_H
#define PW_ROOFLINE_H

#include "probe.h"
#include "results.h"
#include "timing.h"

typedef struct {
    int threads;          /* the thread count these roofs hold for */
    double peak_gflops;   /* compute roof: the probe's FP32 FMA peak */
    double dram_gbs;      /* memory roof: the probe's triad bandwidth */
    double l2_gbs;        /* cache roofs, 0 where not measured */
    double l1_gbs;
} pw_roofs;

/* The roofs of a measured probe (pw_probe_measure) for `threads` threads:
 * the one-core figures for 1, the all-core figures for more. Cache roofs
 * are left 0 (set them from a measurement). */
void pw_roofs_from_probe(const pw_hw *hw, int threads, pw_roofs *r);

/* Flop per byte where the memory roof meets the compute roof. */
double pw_roof_ridge(const pw_roofs *r);

/* min(peak, intensity * dram), GFLOP/s: what the kernel can reach at most
 * when its bytes come from DRAM. NaN for an intensity <= 0 or roofs unknown. */
double pw_roof_bound(const pw_roofs *r, double intensity);

/* The same bound under another memory roof (an L2 bandwidth, say). */
double pw_roof_bound_bw(const pw_roofs *r, double intensity, double gbs);

/* "memory" left of the ridge, "compute" at or right of it. */
const char *pw_roof_limit(const pw_roofs *r, double intensity);

/* The roofs as "quantity" rows: roof_compute (GFLOP/s), roof_dram,
 * roof_l2, roof_l1 (GB/s; cache roofs only where measured), each with
 * threads = r->threads. Call once per thread count. */
void pw_roofline_csv_roofs(pw_csv *f, const pw_roofs *r);

/* One point: a summary row (the kernel's timing) whose param is
 * "roofline", which is how plots/roofline.gp finds it in any CSV. */
void pw_roofline_csv_point(pw_csv *f, const char *label, long long n, int threads,
                           const pw_bench_stats *st, double flops, double bytes);

/* A table line: label, threads, flop/byte, bound, measured GFLOP/s, % of
 * the bound, memory/compute. The header line goes first, once. */
void pw_roofline_print_header(void);
void pw_roofline_print(const pw_roofs *r, const char *label, double flops, double bytes, double seconds);

#endif
