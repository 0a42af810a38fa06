/* tests/test_probe.c: the probe's facts are plausible and its measured peak
 * agrees with the hand-written assembly loop. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, CLOCK_THREAD_CPUTIME_ID */
#include "probe.h"
#include "roofline.h"
#include "timing.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* One probe per run: with PW_PROBE_CACHE set, the first measure writes the
 * file and the second reads it back (from_cache, the same numbers); a file
 * for another machine or build is not used; without the variable nothing is
 * read. */
#if defined(__SANITIZE_THREAD__)
#define PROBE_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PROBE_UNDER_TSAN 1
#endif
#endif

static void test_probe_cache(void)
{
#ifdef PROBE_UNDER_TSAN
    /* three more probes take a minute under ThreadSanitizer, and the cache is
     * one thread's file I/O: the plain and ASan builds test it */
    SKIP("under ThreadSanitizer (the cache is single-threaded: tested in the other builds)");
#endif
    char path[] = "/tmp/pw-probe-cache-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) SKIP("no temporary file");
    close(fd);
    remove(path);
    setenv("PW_PROBE_CACHE", path, 1);
    pw_hw a, b;
    pw_probe_measure(&a, true);
    pw_probe_measure(&b, true);
    EXPECT(!a.from_cache && b.from_cache, "the first measures (from_cache %d), the second reads (%d)", a.from_cache,
           b.from_cache);
    EXPECT(a.peak_gflops_1core == b.peak_gflops_1core && a.bw_gbs_1core == b.bw_gbs_1core &&
           a.peak_gflops_all == b.peak_gflops_all && a.peak_spread == b.peak_spread,
           "the same numbers: peak %.17g and %.17g, triad %.17g and %.17g", a.peak_gflops_1core, b.peak_gflops_1core,
           a.bw_gbs_1core, b.bw_gbs_1core);
    EXPECT(a.peak_spread >= 0 && a.peak_spread < 1 && a.bw_spread >= 0 && a.bw_spread < 1,
           "spreads are shares: %g %g", a.peak_spread, a.bw_spread);
    /* another machine's record (its key line changed): measured again */
    FILE *f = fopen(path, "r+");
    EXPECT(f != NULL, "the cache file %s exists", path);
    if (f) { fputs("key another|machine", f); fclose(f); }
    pw_hw c;
    pw_probe_measure(&c, true);
    EXPECT(!c.from_cache, "a record for another machine is not used");
    unsetenv("PW_PROBE_CACHE");
    pw_hw d;
    pw_probe_measure(&d, true);
    EXPECT(!d.from_cache, "without PW_PROBE_CACHE nothing is read");
    remove(path);
}

/* An all-core peak below one core's is no peak: not usable, and the roof
 * built from it has no compute peak (NaN) rather than a low one. */
static void test_all_core_below_one(void)
{
    pw_hw hw;
    pw_probe_static(&hw);
    hw.logical_cores = 2;
    hw.peak_gflops_1core = 200; hw.peak_gflops_all = 110; hw.bw_gbs_1core = 40; hw.bw_gbs_all = 60;
    EXPECT(!pw_probe_all_core_usable(&hw), "110 on 2 cores against 200 on one: not usable");
    pw_roofs r1, r2;
    pw_roofs_from_probe(&hw, 1, &r1);
    pw_roofs_from_probe(&hw, 2, &r2);
    EXPECT(r1.peak_gflops == 200 && isnan(r2.peak_gflops) && r2.dram_gbs == 60,
           "one core's roof 200 (got %g), the all-core roof has none (got %g), its bandwidth stays (%g)", r1.peak_gflops,
           r2.peak_gflops, r2.dram_gbs);
    hw.peak_gflops_all = 390;
    EXPECT(pw_probe_all_core_usable(&hw), "390 on 2 cores: usable");
    hw.logical_cores = 1; hw.peak_gflops_all = 200;
    EXPECT(!pw_probe_all_core_usable(&hw), "one core: there is no all-core peak to use");
}

int main(void)
{
    RUN(test_static_facts);
    RUN(test_isa_is_the_builds);
    RUN(test_latency_vs_throughput);
    RUN(test_peak_matches_assembly);
    RUN(test_triad_small);
    RUN(test_probe_cache);
    RUN(test_all_core_below_one);
    return UNIT_RESULT();
}
