/* tests/test_roofline.c: the roofline's arithmetic, on made-up roofs whose
 * answers can be worked out by hand. */
#include "roofline.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* 100 GFLOP/s and 25 GB/s: the ridge is at 4 flop/byte. */
static const pw_roofs demo = { .threads = 1, .peak_gflops = 100, .dram_gbs = 25 };

static void test_ridge_and_bound(void)
{
    EXPECT(pw_roof_ridge(&demo) == 4.0, "ridge 100/25 = 4, got %g", pw_roof_ridge(&demo));
    /* A triad: 2 flops per 12 bytes. Bound 25 * 2/12 = 4.1667 GFLOP/s. */
    double triad = 2.0 / 12.0;
    EXPECT(fabs(pw_roof_bound(&demo, triad) - 25.0 / 6.0) < 1e-12, "triad bound 4.1667, got %g",
           pw_roof_bound(&demo, triad));
    EXPECT(strcmp(pw_roof_limit(&demo, triad), "memory") == 0, "a triad is memory-bound");
    /* Right of the ridge the flat roof holds, whatever the intensity. */
    EXPECT(pw_roof_bound(&demo, 4.0) == 100.0, "at the ridge both roofs meet: 100");
    EXPECT(pw_roof_bound(&demo, 512.0) == 100.0, "a GEMM-like 512 flop/byte: 100");
    EXPECT(strcmp(pw_roof_limit(&demo, 512.0), "compute") == 0, "512 flop/byte is compute-bound");
    /* The bound never decreases with intensity (no kernel loses by reuse). */
    double prev = 0;
    for (double ai = 1.0 / 64; ai < 1024; ai *= 1.5) {
        double b = pw_roof_bound(&demo, ai);
        EXPECT(b >= prev && b <= 100.0, "bound at %g = %g after %g", ai, b, prev);
        prev = b;
    }
}

static void test_cache_roof(void)
{
    /* The same kernel fed from a 200 GB/s L2 reaches 8x further up the
     * slope, until the compute roof. */
    EXPECT(fabs(pw_roof_bound_bw(&demo, 0.25, 200) - 50.0) < 1e-12, "0.25 x 200 = 50, got %g",
           pw_roof_bound_bw(&demo, 0.25, 200));
    EXPECT(pw_roof_bound_bw(&demo, 1.0, 200) == 100.0, "capped by the peak");
}

static void test_bad_input(void)
{
    EXPECT(isnan(pw_roof_bound(&demo, 0)), "no bytes or no flops: no bound");
    EXPECT(isnan(pw_roof_bound(&demo, -1)), "negative intensity: no bound");
    pw_roofs none = { 0 };
    EXPECT(isnan(pw_roof_ridge(&none)), "unmeasured roofs: no ridge");
    EXPECT(isnan(pw_roof_bound(&none, 1)), "unmeasured roofs: no bound");
}

static void test_from_probe(void)
{
    pw_hw hw = { .peak_gflops_1core = 120, .peak_gflops_all = 230, .bw_gbs_1core = 30, .bw_gbs_all = 50 };
    pw_roofs one, all;
    pw_roofs_from_probe(&hw, 1, &one);
    pw_roofs_from_probe(&hw, 2, &all);
    EXPECT(one.peak_gflops == 120 && one.dram_gbs == 30 && one.threads == 1, "one core: the 1-core figures");
    EXPECT(all.peak_gflops == 230 && all.dram_gbs == 50 && all.threads == 2, "all cores: the all-core figures");
    EXPECT(one.l1_gbs == 0 && one.l2_gbs == 0, "cache roofs unmeasured");
}

int main(void)
{
    RUN(test_ridge_and_bound);
    RUN(test_cache_roof);
    RUN(test_bad_input);
    RUN(test_from_probe);
    return unit_failed_tests != 0;
}
