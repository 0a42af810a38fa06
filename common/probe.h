/* common/probe.h: what this machine can do, measured rather than looked up.
 *
 * pw_probe_static() reads what the system says (cores, SIMD ISA, caches) at
 * no cost. pw_probe_measure() adds the two numbers every rate in the workbook
 * is compared with:
 *   - the FP32 FMA peak, on one core and on all cores: a loop of fused
 *     multiply-adds on `accumulators` independent vector registers. One
 *     accumulator is bound by the FMA latency (about 4 cycles); the peak needs
 *     latency x FMA units independent chains (about 8) in flight, so the probe
 *     tries several counts and keeps the best;
 *   - the memory bandwidth: a STREAM-style triad a[i] = b[i] + s*c[i] over
 *     arrays four times the last-level cache (so they come from DRAM),
 *     counting 12 bytes per element as STREAM does (the write-allocate read
 *     of a[] is real traffic but not counted); best of 10 trials, each from
 *     the first thread's start to the last one's end, the threads released
 *     by a spinning barrier as STREAM's OpenMP threads are (probe.c says
 *     why, with the numbers; chapter 06 compares it with STREAM itself).
 * Peaks are the best of several tries (the capacity the machine showed);
 * ordinary timings in the workbook report medians.
 */
#ifndef PW_PROBE_H
#define PW_PROBE_H

#include <stdbool.h>
#include <stdio.h>

typedef enum { PW_ISA_SCALAR, PW_ISA_SSE, PW_ISA_AVX2, PW_ISA_AVX512, PW_ISA_NEON } pw_isa;

typedef struct {
    int logical_cores;          /* online logical CPUs */
    pw_isa isa;                 /* widest FP32 vector ISA this build can use
                                   here: the CPU's, capped by the build's
                                   flags (a -march=x86-64-v3 build on an
                                   AVX-512 CPU reports AVX2) */
    pw_isa cpu_isa;             /* widest the CPU has, whatever the build */
    pw_isa build_isa;           /* widest the build's flags allow */
    int lanes;                  /* FP32 lanes per register of `isa` */
    int vector_registers;       /* architectural vector registers a loop of
                                   `isa` can name: 16 on x86-64 (xmm/ymm0-15),
                                   32 with AVX-512 (also xmm/ymm16-31 through
                                   AVX-512VL) and on AArch64 */
    bool fma;                   /* fused multiply-add, usable by this build */
    bool bf16;                  /* AVX-512 BF16 (or ARM BF16), usable by this build */
    long l1d, l2, l3;           /* cache sizes in bytes per instance, 0 if unknown */

    /* Filled by pw_probe_measure: */
    double peak_gflops_1core;   /* FP32 FMA peak, one thread */
    double peak_gflops_all;     /* FP32 FMA peak, one thread per logical core */
    int peak_accumulators;      /* accumulator count that reached the 1-core peak */
    double bw_gbs_1core;        /* triad bandwidth, one thread */
    double bw_gbs_all;          /* triad bandwidth, one thread per logical core */
    long bw_array_bytes;        /* size of each triad array */
    double probe_seconds;       /* time the measurement took */
    double peak_spread;         /* (best - worst) / best of 4 tries of the best count */
    double bw_spread;           /* (best - worst) / best of the 10 one-core triads */
    double probed_at;           /* when it was measured (seconds since 1970) */
    bool from_cache;            /* read from PW_PROBE_CACHE: this run's one probe */
} pw_hw;

const char *pw_isa_name(pw_isa isa);
int pw_isa_lanes(pw_isa isa);

/* Cores, ISA, caches: no measurement. The ISA is what the CPU has AND the
 * build may use: tests and programs ask this, never /proc/cpuinfo. */
void pw_probe_static(pw_hw *hw);

/* Measure peak and bandwidth; quick uses smaller arrays and shorter runs
 * (about 1 s in all on two cores). Calls pw_probe_static first. With
 * PW_PROBE_CACHE=FILE set (make chapters, chapters/lib.sh: one file per
 * run), the first call of a run measures and writes FILE and every later
 * one, in any program, reads it back (from_cache): one peak and one
 * bandwidth per run and machine, with their spread. */
void pw_probe_measure(pw_hw *hw, bool quick);

/* Whether the all-core peak can be used as one: more than one core, and
 * not below one core's (a busy machine can make it so; then it is not a
 * peak, and the chapters say so instead of dividing by it). */
bool pw_probe_all_core_usable(const pw_hw *hw);

/* One or two lines on out: where the numbers come from (this program, or
 * this run's probe) and the peaks and bandwidths with their spread; an
 * all-core peak below one core's is named and said to be unused. */
void pw_probe_note(FILE *out, const pw_hw *hw);

/* The building blocks, for programs that show the steps: */

/* GFLOP/s of one thread running the FMA loop with `accumulators` independent
 * registers of `isa` for about `seconds`. Returns 0 if isa or the count is
 * not available here. Counts 2 flops per lane per FMA. */
double pw_fma_loop_gflops(pw_isa isa, int accumulators, double seconds);

/* The accumulator counts pw_fma_loop_gflops accepts. */
extern const int pw_fma_accumulator_counts[];
extern const int pw_fma_accumulator_count_n;

/* The same loop written in assembly (x86-64 AVX-512 or AVX2+FMA with 12
 * accumulators, AArch64 NEON with 16), the independent yardstick that the
 * compiled probe is checked against. Returns 0 where no such loop exists. */
double pw_fma_asm_gflops(pw_isa isa, double seconds);

/* Triad GB/s with `threads` threads over arrays of n floats; best of reps
 * trials (the probe uses 10). */
double pw_triad_gbs(long n, int threads, int reps);

#endif
