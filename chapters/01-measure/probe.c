/* chapters/01-measure/probe.c: what this machine can do, measured.
 *
 * Prints the cores, the SIMD ISA, the caches, then measures:
 *   - the FMA loop on 1..16 independent accumulators for each ISA: one
 *     accumulator is latency-bound (one FMA per ~4 cycles), enough of them
 *     reach the throughput limit (the FMA units full every cycle);
 *   - the same loop in hand-written assembly, as a yardstick: the compiled
 *     probe should be within a few percent of it;
 *   - the peak on all cores, and the DRAM bandwidth (triad) on one and all.
 * These two numbers, peak FLOP/s and bandwidth, are what every later rate
 * is compared with.
 *
 *   ./build/ch01/probe            about 3 s
 *   ./build/ch01/probe --csv probe.csv
 */
#include "options.h"
#include "probe.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    pw_opt opts[] = { { NULL, NULL, PW_OPT_FLAG, NULL, NULL, NULL, 0, 0 } };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "measure this machine's FP32 FMA peak and memory bandwidth",
                     opts, 0, &common);
    /* Seconds per FMA configuration: short runs are enough, a loop this
     * regular reaches its steady rate within microseconds. */
    double each = common.tiny ? 0.002 : (common.min_time > 0 ? common.min_time : 0.05);

    pw_hw hw;
    pw_probe_static(&hw);
    char l1[16], l2[16], l3[16];
    printf("cpu:     %s, %d logical cores\n", pw_cpu_model(), hw.logical_cores);
    printf("SIMD:    %s, %d fp32 lanes per register; FMA %s; bf16 %s\n", pw_isa_name(hw.isa), hw.lanes,
           hw.fma ? "yes" : "no", hw.bf16 ? "yes" : "no");
    printf("caches:  L1d %s, L2 %s, L3 %s\n\n", pw_fmt_bytes((double)hw.l1d, l1, sizeof l1),
           pw_fmt_bytes((double)hw.l2, l2, sizeof l2), pw_fmt_bytes((double)hw.l3, l3, sizeof l3));

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "isa", "%s", pw_isa_name(hw.isa));
    pw_csv_meta(csv, "note", "fma rows: a call is one second of the loop, so gflops is the rate");

    /* The accumulator sweep: GFLOP/s per ISA (columns) and count (rows). */
    printf("FMA loop, one core, GFLOP/s (2 flops per lane per FMA):\n%-13s", "accumulators");
    for (int isa = PW_ISA_SCALAR; isa <= (int)hw.isa; isa++) printf(" %9s", pw_isa_name((pw_isa)isa));
    printf("\n");
    for (int i = 0; i < pw_fma_accumulator_count_n; i++) {
        int k = pw_fma_accumulator_counts[i];
        printf("%-13d", k);
        for (int isa = PW_ISA_SCALAR; isa <= (int)hw.isa; isa++) {
            double g = pw_fma_loop_gflops((pw_isa)isa, k, each);
            printf(" %9.1f", g);
            char variant[32], param[16];
            snprintf(variant, sizeof variant, "fma_%s", pw_isa_name((pw_isa)isa));
            snprintf(param, sizeof param, "%d", k);
            if (g > 0) pw_csv_value(csv, variant, k, 1, param, 1.0, g * 1e9, 0);
        }
        printf("\n");
    }

    pw_probe_measure(&hw, true);
    printf("\npeak (best accumulator count, %d): %.1f GFLOP/s on one core, %.1f on all %d\n",
           hw.peak_accumulators, hw.peak_gflops_1core, hw.peak_gflops_all, hw.logical_cores);
    pw_csv_value(csv, "peak_1core", 0, 1, pw_isa_name(hw.isa), 1.0, hw.peak_gflops_1core * 1e9, 0);
    pw_csv_value(csv, "peak_all", 0, hw.logical_cores, pw_isa_name(hw.isa), 1.0, hw.peak_gflops_all * 1e9, 0);

    double yard = pw_fma_asm_gflops(hw.isa, common.tiny ? 0.01 : 0.2);
    if (yard > 0) {
        printf("yardstick: the assembly loop (12 accumulators, %s) reaches %.1f GFLOP/s: the probe is %.1f%% of it\n",
               pw_isa_name(hw.isa), yard, 100 * hw.peak_gflops_1core / yard);
        pw_csv_value(csv, "asm_yardstick", 12, 1, pw_isa_name(hw.isa), 1.0, yard * 1e9, 0);
    } else {
        printf("yardstick: no assembly loop for %s on this CPU\n", pw_isa_name(hw.isa));
    }

    char arr[16];
    printf("memory:  triad a = b + s*c over 3 arrays of %s: %.1f GB/s on one core, %.1f on all %d\n"
           "         (12 bytes counted per element; the write-allocate read of a[] is real but uncounted)\n",
           pw_fmt_bytes((double)hw.bw_array_bytes, arr, sizeof arr), hw.bw_gbs_1core, hw.bw_gbs_all,
           hw.logical_cores);
    pw_csv_value(csv, "triad_1core", hw.bw_array_bytes / 4, 1, "", 1.0, 0, hw.bw_gbs_1core * 1e9);
    pw_csv_value(csv, "triad_all", hw.bw_array_bytes / 4, hw.logical_cores, "", 1.0, 0, hw.bw_gbs_all * 1e9);

    /* The machine balance: flops the core can do per byte DRAM delivers. */
    printf("balance: %.1f flops per byte (one core): a kernel doing fewer flops per byte than this\n"
           "         waits on memory, not arithmetic (chapter 06's roofline)\n",
           hw.peak_gflops_1core / hw.bw_gbs_1core);
    printf("probe took %.1f s\n", hw.probe_seconds);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
