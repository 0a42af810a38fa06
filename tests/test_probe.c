/* tests/test_probe.c: the probe's facts are plausible and its measured peak
 * agrees with the hand-written assembly loop. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, CLOCK_THREAD_CPUTIME_ID */
#include "probe.h"
#include "timing.h"
#include "unit.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

static void test_static_facts(void)
{
    pw_hw hw;
    pw_probe_static(&hw);
    EXPECT(hw.logical_cores >= 1, "at least one core, got %d", hw.logical_cores);
    EXPECT(hw.lanes == pw_isa_lanes(hw.isa), "lanes follow the ISA");
#if defined(__x86_64__)
    EXPECT(hw.isa >= PW_ISA_SSE, "every x86-64 CPU has SSE2");
#endif
    if (access("/sys/devices/system/cpu/cpu0/cache/index0/size", R_OK) == 0) {
        EXPECT(hw.l1d >= 4096 && hw.l1d <= (1 << 22), "L1d between 4 KiB and 4 MiB, got %ld", hw.l1d);
        EXPECT(hw.l2 == 0 || hw.l2 > hw.l1d, "L2 is larger than L1d");
        EXPECT(hw.l3 == 0 || hw.l3 >= hw.l2, "L3 is at least L2");
    }
}

/* The ISA is what the build can use on this CPU: the CPU's, capped by the
 * flags this file (like common/probe.c) was compiled with. A
 * -march=x86-64-v3 build on an AVX-512 CPU must say AVX2 and refuse to run
 * AVX-512 loops, so that it behaves as it would on an AVX2 machine. */
static void test_isa_is_the_builds(void)
{
    pw_hw hw;
    pw_probe_static(&hw);
    pw_isa build =
#if defined(__AVX512F__)
        PW_ISA_AVX512;
#elif defined(__AVX2__) && defined(__FMA__)
        PW_ISA_AVX2;
#elif defined(__SSE2__)
        PW_ISA_SSE;
#elif defined(__ARM_NEON)
        PW_ISA_NEON;
#else
        PW_ISA_SCALAR;
#endif
    EXPECT(hw.build_isa == build, "build ISA %s is what the compile-time macros say (%s)",
           pw_isa_name(hw.build_isa), pw_isa_name(build));
    pw_isa want = hw.build_isa < hw.cpu_isa ? hw.build_isa : hw.cpu_isa;
    EXPECT(hw.isa == want, "usable ISA %s = the narrower of build %s and CPU %s", pw_isa_name(hw.isa),
           pw_isa_name(hw.build_isa), pw_isa_name(hw.cpu_isa));
#if defined(__x86_64__)
    EXPECT(!hw.fma || hw.isa >= PW_ISA_AVX2, "FMA only where the build has AVX2+FMA");
    EXPECT(!hw.bf16 || hw.isa == PW_ISA_AVX512, "bf16 only with AVX-512");
    EXPECT(hw.vector_registers == (hw.isa == PW_ISA_AVX512 ? 32 : 16),
           "%d vector registers for %s (16 below AVX-512, 32 with it)", hw.vector_registers, pw_isa_name(hw.isa));
    /* Nothing wider than the build's ISA runs, even where the CPU has it. */
    for (int isa = hw.isa + 1; isa <= PW_ISA_AVX512; isa++) {
        EXPECT(pw_fma_loop_gflops((pw_isa)isa, 8, 0.001) == 0, "no %s FMA loop in a %s build",
               pw_isa_name((pw_isa)isa), pw_isa_name(hw.isa));
        EXPECT(pw_fma_asm_gflops((pw_isa)isa, 0.001) == 0, "no %s yardstick in a %s build",
               pw_isa_name((pw_isa)isa), pw_isa_name(hw.isa));
    }
#elif defined(__aarch64__)
    EXPECT(hw.vector_registers == 32, "AArch64 has 32 vector registers, got %d", hw.vector_registers);
#endif
}

static void test_latency_vs_throughput(void)
{
    pw_hw hw;
    pw_probe_static(&hw);
    /* One accumulator waits for each FMA; eight keep the units busy. On every
     * CPU we know the FMA latency is at least 3 cycles, so 8 chains must be
     * well over twice as fast as 1. */
    double one = pw_fma_loop_gflops(hw.isa, 1, 0.02), eight = pw_fma_loop_gflops(hw.isa, 8, 0.02);
    EXPECT(one > 0 && eight > 2 * one, "8 accumulators beat 1 by over 2x: %.1f vs %.1f GFLOP/s", eight, one);
    EXPECT(pw_fma_loop_gflops(hw.isa, 3, 0.01) == 0, "an unsupported accumulator count is refused");
}

/* Seconds of CPU this thread has had. */
static double thread_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_peak_matches_assembly(void)
{
    pw_hw hw;
    pw_probe_static(&hw);
    if (pw_fma_asm_gflops(hw.isa, 0.01) == 0) SKIP("no assembly yardstick for this ISA");
    /* The compiled loop must be within 10% of the assembly loop, compared
     * like with like: the same ISA and the same 12 accumulators, sampled in
     * turns. A turn counts only if this thread had the core for at least
     * 95% of it (its CPU time over the wall time): on a machine where other
     * work takes the core away, neither number is the loop's. Both are
     * peaks, so keep the best of each over the clean turns. */
    double best_probe = 0, best_yard = 0, ratio = 0;
    int clean = 0;
    for (int turn = 0; turn < 12 && (clean < 2 || fabs(ratio - 1) > 0.10); turn++) {
        double c0 = thread_cpu(), w0 = pw_now();
        double p = pw_fma_loop_gflops(hw.isa, 12, 0.03), y = pw_fma_asm_gflops(hw.isa, 0.03);
        if (thread_cpu() - c0 < 0.95 * (pw_now() - w0)) continue;   /* the core was taken away */
        clean++;
        if (p > best_probe) best_probe = p;
        if (y > best_yard) best_yard = y;
        ratio = best_probe / best_yard;
    }
    if (clean == 0) SKIP("the machine was too busy: this thread never had the core for a whole turn");
    EXPECT(fabs(ratio - 1) <= 0.10, "compiled loop %.1f vs assembly %.1f GFLOP/s, 12 accumulators (ratio %.3f, "
           "%d clean turns)", best_probe, best_yard, ratio, clean);
    pw_probe_measure(&hw, true);
    /* Only check the threaded measurement works: on a shared machine the
     * other cores may be busy, so all cores need not beat one. */
    EXPECT(hw.peak_gflops_all > 0 && isfinite(hw.peak_gflops_all), "all cores: %.1f GFLOP/s (one core %.1f)",
           hw.peak_gflops_all, hw.peak_gflops_1core);
    EXPECT(hw.bw_gbs_1core > 0.1 && hw.bw_gbs_all > 0.1 && isfinite(hw.bw_gbs_all), "bandwidth measured");
}

static void test_triad_small(void)
{
    double gbs = pw_triad_gbs(100003, 2, 3);   /* odd size split over two threads */
    EXPECT(gbs > 0 && isfinite(gbs), "triad on two threads gives a rate, got %g", gbs);
}

int main(void)
{
    RUN(test_static_facts);
    RUN(test_isa_is_the_builds);
    RUN(test_latency_vs_throughput);
    RUN(test_peak_matches_assembly);
    RUN(test_triad_small);
    return UNIT_RESULT();
}
