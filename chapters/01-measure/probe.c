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
 *   ./build/ch01/probe --static   cores, ISA, registers, caches; no measurement
 *   ./build/ch01/probe --csv probe.csv
 */
#include "options.h"
#include "probe.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

/* The cores, the ISA this build can use (and the CPU's, where they differ),
 * the registers and the caches: what --static prints, and the head of the
 * full run. tests/ch01.sh and tests/ch02.sh read the "SIMD:" line. */
static void print_static(const pw_hw *hw)
{
    char l1[16], l2[16], l3[16];
    printf("cpu:     %s, %d logical cores\n", pw_cpu_model(), hw->logical_cores);
    printf("SIMD:    %s, %d fp32 lanes per register, %d vector registers; FMA %s; bf16 %s\n",
           pw_isa_name(hw->isa), hw->lanes, hw->vector_registers, hw->fma ? "yes" : "no", hw->bf16 ? "yes" : "no");
    if (hw->cpu_isa != hw->isa)
        printf("         the CPU has %s, but this build's flags (%s) stop at %s:\n"
               "         the programs run as they would on an %s machine (rebuild without ARCH= for all of it)\n",
               pw_isa_name(hw->cpu_isa), pw_cflags(), pw_isa_name(hw->build_isa), pw_isa_name(hw->isa));
    printf("caches:  L1d %s, L2 %s, L3 %s\n", pw_fmt_bytes((double)hw->l1d, l1, sizeof l1),
           pw_fmt_bytes((double)hw->l2, l2, sizeof l2), pw_fmt_bytes((double)hw->l3, l3, sizeof l3));
}

#define NK 7   /* pw_fma_accumulator_count_n */

/* The ISAs this build can run, in table order: x86's nest (scalar, SSE,
 * AVX2, AVX-512 up to the build's), AArch64 has scalar and NEON. */
static bool listed(int isa, const pw_hw *hw)
{
    if (hw->isa == PW_ISA_NEON) return isa == PW_ISA_SCALAR || isa == PW_ISA_NEON;
    return isa <= (int)hw->isa;
}

/* What the accumulator sweep shows, per vector ISA, from its own numbers:
 * how many FMAs one chain leaves idle, where the rate stops growing, and a
 * drop past the register file (more accumulators than registers: the
 * compiler keeps some in memory, a "spill", and every FMA then waits on a
 * store and a load). Scalar is left out: the compiler may pack its
 * independent chains into vectors by itself (chapter 02). */
static void explain_sweep(const pw_hw *hw, double g[][NK])
{
    printf("\nWhat the sweep shows (this run's numbers):\n");
    for (int isa = PW_ISA_SSE; isa <= PW_ISA_NEON; isa++) {
        const double *r = g[isa];
        if (!listed(isa, hw) || r[0] <= 0) continue;
        int best = 0;
        for (int i = 1; i < NK; i++) if (r[i] > r[best]) best = i;
        printf("- %s: one accumulator %.1f GFLOP/s; the best, %d accumulators, %.1f (%.1fx): one chain\n"
               "  used about 1/%.0f of what the core can do, the rest waited on the chain's latency.\n",
               pw_isa_name((pw_isa)isa), r[0], pw_fma_accumulator_counts[best], r[best], r[best] / r[0],
               r[best] / r[0]);
        for (int i = best + 1; i < NK; i++) {
            int k = pw_fma_accumulator_counts[i];
            if (r[i] >= 0.8 * r[best]) continue;
            if (k + 2 > hw->vector_registers)
                printf("  %d accumulators fell to %.1f (%.0f%% of the best): %d accumulators + a + b need %d\n"
                       "  registers and this build has %d, so the compiler keeps some in memory (spills).\n",
                       k, r[i], 100 * r[i] / r[best], k, k + 2, hw->vector_registers);
            else
                printf("  %d accumulators fell to %.1f (%.0f%% of the best) with registers to spare: this run cannot say why (a busy machine?)\n",
                       k, r[i], 100 * r[i] / r[best]);
            break;
        }
    }
    if (hw->vector_registers && 16 + 2 > hw->vector_registers)
        printf("  (theory: with AVX-512, 32 registers hold 16 accumulators and their operands with room left)\n");
}

/* The answer to the README's prediction for step 1: how many accumulators
 * the widest ISA of this build needed to come within 10% of its best rate,
 * and what share of that best one accumulator got. 90% rather than 100%:
 * past the knee the rows differ by run-to-run noise (117.4 vs 118.2). */
static void answer_sweep(const pw_hw *hw, double g[][NK])
{
    const double *r = g[hw->isa];
    int best = 0, enough = 0;
    for (int i = 1; i < NK; i++) if (r[i] > r[best]) best = i;
    if (r[best] <= 0) {
        printf("\nanswer: not shown on this run: the %s loop did not run\n", pw_isa_name(hw->isa));
        return;
    }
    while (r[enough] < 0.9 * r[best]) enough++;
    printf("\nanswer: %s needed %d accumulators to reach 90%% of its best rate (%.1f GFLOP/s with %d);\n"
           "  one accumulator got %.0f%% of the best (%.1f GFLOP/s)\n",
           pw_isa_name(hw->isa), pw_fma_accumulator_counts[enough], r[best], pw_fma_accumulator_counts[best],
           100 * r[0] / r[best], r[0]);
}

int main(int argc, char **argv)
{
    bool static_only = false;
    pw_opt opts[] = {
        { NULL, "--static", PW_OPT_FLAG, &static_only, NULL, "print cores, ISA and caches only (no measurement)", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "measure this machine's FP32 FMA peak and memory bandwidth",
                     opts, 1, &common);
    /* Seconds per FMA configuration: short runs are enough, a loop this
     * regular reaches its steady rate within microseconds. */
    double each = common.tiny ? 0.002 : (common.min_time > 0 ? common.min_time : 0.05);

    pw_hw hw;
    pw_probe_static(&hw);
    print_static(&hw);
    if (static_only) return PW_EXIT_PASS;
    printf("\n");

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "isa", "%s", pw_isa_name(hw.isa));
    pw_csv_meta(csv, "cpu_isa", "%s", pw_isa_name(hw.cpu_isa));
    pw_csv_meta(csv, "vector_registers", "%d", hw.vector_registers);
    pw_csv_meta(csv, "note", "fma rows: a call is one second of the loop, so gflops is the rate");

    /* The accumulator sweep: GFLOP/s per ISA (columns) and count (rows). */
    double g[PW_ISA_NEON + 1][NK] = { { 0 } };
    printf("FMA loop, one core, GFLOP/s (2 flops per lane per FMA):\n%-13s", "accumulators");
    for (int isa = PW_ISA_SCALAR; isa <= PW_ISA_NEON; isa++)
        if (listed(isa, &hw)) printf(" %9s", pw_isa_name((pw_isa)isa));
    printf("\n");
    for (int i = 0; i < pw_fma_accumulator_count_n && i < NK; i++) {
        int k = pw_fma_accumulator_counts[i];
        printf("%-13d", k);
        for (int isa = PW_ISA_SCALAR; isa <= PW_ISA_NEON; isa++) {
            if (!listed(isa, &hw)) continue;
            g[isa][i] = pw_fma_loop_gflops((pw_isa)isa, k, each);
            printf(" %9.1f", g[isa][i]);
            char variant[32], param[16];
            snprintf(variant, sizeof variant, "fma_%s", pw_isa_name((pw_isa)isa));
            snprintf(param, sizeof param, "%d", k);
            if (g[isa][i] > 0) pw_csv_value(csv, variant, k, 1, param, 1.0, g[isa][i] * 1e9, 0);
        }
        printf("\n");
    }
    explain_sweep(&hw, g);
    answer_sweep(&hw, g);

    pw_probe_measure(&hw, true);
    printf("\n");
    pw_probe_note(stdout, &hw);
    printf("peak (best accumulator count, %d): %.1f GFLOP/s on one core, %.1f on all %d\n",
           hw.peak_accumulators, hw.peak_gflops_1core, hw.peak_gflops_all, hw.logical_cores);
    /* The sweep above and the run's peak measure the same loop: say when
     * they disagree by more than the peak's own spread (at least 5%). */
    int sb = 0;
    for (int i = 1; i < pw_fma_accumulator_count_n && i < NK; i++) if (g[hw.isa][i] > g[hw.isa][sb]) sb = i;
    double sweep_best = g[hw.isa][sb], gap = (sweep_best - hw.peak_gflops_1core) / hw.peak_gflops_1core;
    double allow = hw.peak_spread > 0.05 ? hw.peak_spread : 0.05;
    if (sweep_best > 0 && fabs(gap) > allow)
        printf("         the sweep above peaked at %.1f GFLOP/s (%d accumulators), %+.0f%% from the run's peak: more than\n"
               "         the peak's own spread (%.1f%%), so one of the two was slowed (a busy moment); every chapter of\n"
               "         this run uses the run's peak, %.1f\n", sweep_best, pw_fma_accumulator_counts[sb], 100 * gap,
               100 * hw.peak_spread, hw.peak_gflops_1core);
    else if (sweep_best > 0)
        printf("         the sweep above peaked at %.1f GFLOP/s (%d accumulators), within %.0f%% of it: the same machine\n",
               sweep_best, pw_fma_accumulator_counts[sb], 100 * allow);
    pw_csv_value(csv, "peak_1core", 0, 1, pw_isa_name(hw.isa), 1.0, hw.peak_gflops_1core * 1e9, 0);
    pw_csv_value(csv, "peak_all", 0, hw.logical_cores, pw_isa_name(hw.isa), 1.0, hw.peak_gflops_all * 1e9, 0);
    if (hw.logical_cores > 1) {
        double scale = hw.peak_gflops_all / hw.peak_gflops_1core;
        if (!pw_probe_all_core_usable(&hw))
            printf("         all cores gave %.2fx one core, less than one: no chapter of this run uses it as a peak\n", scale);
        else if (scale >= 0.9 * hw.logical_cores)
            printf("         all cores gave %.2fx one core: this work shares nothing, and scaled with the cores\n", scale);
        else
            printf("         all cores gave only %.2fx one core: this run cannot show the scaling (busy cores, or hyper-threads)\n",
                   scale);
    }

    double yard = pw_fma_asm_gflops(hw.isa, common.tiny ? 0.01 : 0.2);
    if (yard > 0) {
        double pct = 100 * hw.peak_gflops_1core / yard;
        printf("yardstick: the assembly loop (12 accumulators, %s) reaches %.1f GFLOP/s: the probe is %.1f%% of it%s\n",
               pw_isa_name(hw.isa), yard, pct,
               fabs(pct - 100) > 10 ? " (over 10% apart: a busy machine?)" : "");
        pw_csv_value(csv, "asm_yardstick", 12, 1, pw_isa_name(hw.isa), 1.0, yard * 1e9, 0);
    } else {
        printf("yardstick: no assembly loop for %s in this build\n", pw_isa_name(hw.isa));
    }

    char arr[16];
    printf("memory:  triad a = b + s*c over 3 arrays of %s: %.1f GB/s on one core, %.1f on all %d\n"
           "         (12 bytes counted per element; the write-allocate read of a[] is real but uncounted)\n",
           pw_fmt_bytes((double)hw.bw_array_bytes, arr, sizeof arr), hw.bw_gbs_1core, hw.bw_gbs_all,
           hw.logical_cores);
    pw_csv_value(csv, "triad_1core", hw.bw_array_bytes / 4, 1, "", 1.0, 0, hw.bw_gbs_1core * 1e9);
    pw_csv_value(csv, "triad_all", hw.bw_array_bytes / 4, hw.logical_cores, "", 1.0, 0, hw.bw_gbs_all * 1e9);

    /* The machine balance: flops the core can do per byte DRAM delivers. */
    printf("balance: %.1f flops per byte (one core). Theory: a kernel doing fewer flops per byte than\n"
           "         this waits on memory, not arithmetic (chapter 06's roofline)\n",
           hw.peak_gflops_1core / hw.bw_gbs_1core);
    printf("probe took %.1f s\n", hw.probe_seconds);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
