/* common/roofline.c: see roofline.h. */
#include "roofline.h"

#include <math.h>
#include <stdio.h>

void pw_roofs_from_probe(const pw_hw *hw, int threads, pw_roofs *r)
{
    bool one = threads <= 1;
    *r = (pw_roofs){
        .threads = threads < 1 ? 1 : threads,
        /* an all-core peak below one core's is no peak (a busy run): not used */
        .peak_gflops = one ? hw->peak_gflops_1core
                           : (hw->peak_gflops_all >= hw->peak_gflops_1core ? hw->peak_gflops_all : NAN),
        .dram_gbs = one ? hw->bw_gbs_1core : hw->bw_gbs_all,
    };
}

double pw_roof_ridge(const pw_roofs *r)
{
    if (!(r->peak_gflops > 0) || !(r->dram_gbs > 0)) return NAN;
    return r->peak_gflops / r->dram_gbs;
}

double pw_roof_bound_bw(const pw_roofs *r, double intensity, double gbs)
{
    if (!(intensity > 0) || !(r->peak_gflops > 0) || !(gbs > 0)) return NAN;
    double mem = intensity * gbs;          /* GB/s x flop/B = GFLOP/s */
    return mem < r->peak_gflops ? mem : r->peak_gflops;
}

double pw_roof_bound(const pw_roofs *r, double intensity)
{
    return pw_roof_bound_bw(r, intensity, r->dram_gbs);
}

const char *pw_roof_limit(const pw_roofs *r, double intensity)
{
    return intensity < pw_roof_ridge(r) ? "memory" : "compute";
}

void pw_roofline_csv_roofs(pw_csv *f, const pw_roofs *r)
{
    if (!(r->peak_gflops > 0)) return;   /* no usable roof at this thread count: none drawn */
    pw_csv_quantity(f, "roof_compute", 0, r->threads, "GFLOP/s", r->peak_gflops);
    pw_csv_quantity(f, "roof_dram", 0, r->threads, "GB/s", r->dram_gbs);
    if (r->l2_gbs > 0) pw_csv_quantity(f, "roof_l2", 0, r->threads, "GB/s", r->l2_gbs);
    if (r->l1_gbs > 0) pw_csv_quantity(f, "roof_l1", 0, r->threads, "GB/s", r->l1_gbs);
}

void pw_roofline_csv_point(pw_csv *f, const char *label, long long n, int threads,
                           const pw_bench_stats *st, double flops, double bytes)
{
    pw_csv_summary(f, label, n, threads, "roofline", st, flops, bytes);
}

void pw_roofline_print_header(void)
{
    printf("%-24s %7s %10s %12s %12s %10s  %s\n", "kernel", "threads", "flop/byte", "bound GF/s",
           "measured", "of bound", "limit");
}

void pw_roofline_print(const pw_roofs *r, const char *label, double flops, double bytes, double seconds)
{
    double ai = bytes > 0 ? flops / bytes : NAN;
    double bound = pw_roof_bound(r, ai);
    double got = seconds > 0 ? flops / seconds * 1e-9 : NAN;
    if (isnan(bound)) {   /* no usable peak at this thread count (pw_roofs_from_probe) */
        printf("%-24s %7d %10.3g %12s %12.2f %10s  %s\n", label, r->threads, ai, "-", got, "-", "no usable peak");
        return;
    }
    printf("%-24s %7d %10.3g %12.1f %12.2f %9.1f%%  %s\n", label, r->threads, ai, bound, got,
           100.0 * got / bound, isnan(ai) ? "-" : pw_roof_limit(r, ai));
}
