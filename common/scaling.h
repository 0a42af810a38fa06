/* common/scaling.h: one way to report a sweep over the parallel setting.
 *
 * A chapter that runs the same work on 1, 2, ... threads (or ranks) hands the
 * timings to pw_scaling_report(), which prints the table every such chapter
 * shows and records it for the plots:
 *
 *   threads   median      IQR   speedup  efficiency  Karp-Flatt
 *         1   12.31 ms    1.2%     1.00      100.0%           -
 *         2    6.40 ms    2.0%     1.92       96.2%      0.0396
 *         4    6.51 ms    3.1%     1.89       47.3%      0.0582   oversubscribed (e with N = 2)
 *   Amdahl fit over 1..2 threads: p = 0.9604 (serial 4.0%), ceiling 25.3x, rms 0.00
 *
 * speedup = baseline / median (the baseline is the one-thread time, or the
 * sequential reference's: the caller says which); efficiency = speedup / T.
 * Karp-Flatt e = the serial fraction that would explain the speedup on the
 * N = min(T, cores) processors that could run at once (4 threads on 2 cores
 * are 2 processors, not 4): a constant e is a real serial part, a rising e
 * is overhead that grows with N. e < 0 (faster than N processors allow) and
 * e > 1 (slower than one thread) fit no serial fraction: the report says so
 * in words.
 * p is fitted (models.h) to the points with T <= the cores whose threads
 * really ran at the same time: more threads than cores interleave rather
 * than run in parallel, which Amdahl does not model, and a point whose
 * threads took turns on one core (common/overlap.h) measured the machine's
 * load, not the program. A fit that finds no parallel part (p = 0) says the
 * run showed no speedup instead of printing a ceiling of 1x.
 *
 * The overlap of each point (pass an array of pw_overlap; NULL: not
 * measured), raised to what the point's own speedup proves
 * (pw_overlap_share_with_speedup), marks suspect rows in the table ("suspect: together 12%"),
 * leaves them out of the fit, prints the one line of common/overlap.h, and
 * goes to the CSV's `overlap` column.
 *
 * The CSV gets one summary row per point, and a metadata line the plot
 * template plots/speedup.gp reads for the curve and its key:
 *   # amdahl_pi_pthreads: p=0.960400 rms=0.0012 cores=2 baseline_s=0.01231 karp_flatt=2:0.040,4:0.058 suspect=none
 * (p=nan when nothing could be fitted; suspect= the thread counts left out).
 */
#ifndef PW_SCALING_H
#define PW_SCALING_H

#include "options.h"
#include "overlap.h"
#include "results.h"
#include "timing.h"

/* The most threads a -t option should accept: beyond this a thread count is
 * a typo, not an experiment (1000000 threads would exhaust memory for stacks). */
#define PW_MAX_THREADS 1024

typedef struct {
    int threads;            /* the parallel setting: threads, ranks, devices */
    pw_bench_stats st;      /* the timings at that setting */
} pw_scaling_point;

typedef struct {
    double p;                          /* fitted parallel fraction, NaN if no point had N > 1 */
    double rms;                        /* fit error, in speedup units */
    double speedup[PW_MAX_LIST];       /* per point, in the caller's order */
    double efficiency[PW_MAX_LIST];
    double karp_flatt[PW_MAX_LIST];    /* with N = min(T, cores); NaN at N = 1 */
    double overlap[PW_MAX_LIST];       /* pw_overlap_share per point; NaN if not measured or T = 1 */
    int suspect;                       /* points whose threads did not run at the same time */
    int fitted;                        /* points with T > 1 the fit used */
} pw_scaling_fit;

/* Print the table for `variant`, write its rows and the fit line to csv (NULL
 * is fine), and return the numbers. count <= PW_MAX_LIST. */
pw_scaling_fit pw_scaling_report(pw_csv *csv, const char *variant, long long n, const char *param,
                                 double baseline_s, const pw_scaling_point *pts, int count,
                                 double flops, double bytes, int cores);

/* A modelled sweep (no repeats, no spread): the table says "modelled" in
 * place of median and IQR, its first column is `unit` ("devices"); the CSV
 * rows are the same. */
pw_scaling_fit pw_scaling_report_modelled(pw_csv *csv, const char *variant, long long n, const char *param,
                                          const char *unit, double baseline_s, const pw_scaling_point *pts,
                                          int count, double flops, double bytes, int cores);

/* The same, with the measured overlap of each point: ov[i] belongs to
 * pts[i] (ov NULL: not measured, as pw_scaling_report). */
pw_scaling_fit pw_scaling_report_overlap(pw_csv *csv, const char *variant, long long n, const char *param,
                                         double baseline_s, const pw_scaling_point *pts, int count,
                                         double flops, double bytes, int cores, const pw_overlap *ov);

/* The `answer:` line a sweep's prediction asks for, from this run's table:
 * the speedup of `what` on the most threads that fit on the cores (only a
 * point whose threads ran at the same time counts), and what the most
 * threads past the cores gave. On one core, or with no such point, it says
 * the run cannot show it ("answer: not shown on this run: ..."). */
void pw_scaling_answer(const char *what, const pw_scaling_point *pts, int count, const pw_scaling_fit *fit, int cores);

/* Karp-Flatt at T threads on `cores` processors: pw_karp_flatt with N =
 * min(T, cores), the threads that could run at once. NaN for N = 1. */
double pw_scaling_karp_flatt(double speedup, int threads, int cores);

/* The default thread sweep: 1, 2, ... up to the logical cores, then twice the
 * cores (oversubscribed), e.g. 1,2,4 on two cores. THREADS=... in the
 * environment (make chapter-N THREADS=1,2,4) overrides it; a bad THREADS is
 * a usage error (one line, exit 2). */
void pw_default_threads(pw_list *threads, const char *prog);

#endif
