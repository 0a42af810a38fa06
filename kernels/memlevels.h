/* kernels/memlevels.h: the memory hierarchy, level by level: how fast data
 * comes from a working set of a given size (bandwidth), and how long one
 * access waits when the next address depends on it (latency).
 *
 * Bandwidth: a read-only sum over the working set, again and again. Why
 * reads only: a store first reads its line (write-allocate) and later
 * writes it back, so a triad's bytes at one level depend on the others; a
 * read is one transfer, counted once, and it is what a load-bound kernel on
 * the roofline asks of each level. 32 independent partial sums (4 AVX-512
 * or 8 AVX2 registers of doubles), so no add waits for the last: the loads,
 * not the adder's 3-4 cycle latency, set the pace. 8 bytes per element.
 *
 * Latency: pointer chasing. One pointer per 64-byte cache line; the lines
 * are linked into one random cycle (Sattolo's algorithm), so every step
 * visits a new line and the hardware prefetcher cannot guess the next: each
 * step waits for the previous load. Time per step = one access's latency at
 * the level the working set fits in (plus, past the TLB's reach, a page walk).
 */
#ifndef PW_MEMLEVELS_H
#define PW_MEMLEVELS_H

#include <stddef.h>
#include <stdint.h>

#define MEMLEVELS_LINE 64    /* bytes per cache line the chase uses (x86-64, most ARM) */

/* Sum of x[0..n-1], as 32 partial sums; the reference is memlevels_sum_ref. */
double memlevels_sum(const double *x, long n);
double memlevels_sum_ref(const double *x, long n);   /* one accumulator, in order */

/* Aggregate read bandwidth (GB/s) of `threads` threads (OpenMP; one without
 * it), each summing its own `bytes`-sized buffer, first touched by itself:
 * with bytes below a core's L1 or L2 this is the L1 or L2 roof of that many
 * cores. Best of several samples (a capacity, as the probe's peaks are).
 * Returns 0 for bytes < 64 or threads < 1. Without OpenMP one thread runs,
 * and the rate is one thread's. */
double memlevels_bw_gbs(long bytes, int threads);

/* Link `lines` cache lines of buf (lines * MEMLEVELS_LINE bytes) into one
 * random cycle: the first word of each line holds the index of the next.
 * Fixed seed: the same cycle on every machine. */
void memlevels_chase_build(size_t *buf, size_t lines, uint64_t seed);

/* Follow the cycle from line `start` for `steps` steps; returns where it
 * ended (the caller keeps it, so the loads are not optimised away). */
size_t memlevels_chase(const size_t *buf, size_t start, long steps);

/* The length of the cycle through line 0 (a check: it must be all lines). */
size_t memlevels_cycle_length(const size_t *buf, size_t lines);

/* The core clock in GHz, measured: a chain of dependent integer adds, one
 * cycle each on every x86-64 and AArch64 core, timed for about `seconds`.
 * (A virtual machine's or a laptop's clock moves: this is the clock now.) */
double memlevels_clock_ghz(double seconds);

#endif
