/* common/results.h: every program writes the same tidy CSV.
 *
 * The file starts with metadata lines, each "# key: value", then one header
 * line, then one row per observation. Comment lines are skipped by gnuplot,
 * by pandas (read_csv(f, comment='#')) and by R (comment.char = '#').
 *
 *   # program: loops
 *   # date: 2026-11-30T03:12:00Z          (UTC, ISO 8601)
 *   # cpu: AMD EPYC                        (model name; + logical cores)
 *   # cores: 2
 *   # compiler: gcc 12.2.0
 *   # cflags: -O3 -march=native ...
 *   # omp: OMP_NUM_THREADS=unset OMP_PROC_BIND=unset OMP_PLACES=unset
 *   # git: 1a2b3c4 (or 1a2b3c4-dirty)
 *   # command: loops -n 1024,4096 --csv results/01-measure/loops.csv
 *   program,variant,kind,rep,n,threads,param,reps,median_s,min_s,q1_s,q3_s,max_s,mean_s,flops,bytes,gflops,gbs,overlap,value
 *
 * Columns:
 *   program   the program that measured (its binary name)
 *   variant   what was run, the name the program prints (plots read names
 *             from here, never retype them)
 *   kind      "summary": statistics over the samples of one configuration;
 *             "sample": one sample (rep 0 is the cold first call);
 *             "quantity": a number that is not a time (a modelled or derived
 *             speedup, a count): in `value`, the time columns empty;
 *             "modelled": a modelled time in seconds (one point of a
 *             modelled sweep): in `value`, the time columns empty, since a
 *             model has no median and no spread;
 *             "event": an interval on a (real or modelled) clock, a bar of a
 *             Gantt chart: min_s = q1_s = start, max_s = q3_s = end,
 *             median_s = mean_s = its length
 *   rep       sample index for kind=sample, 0 for summaries
 *   n         problem size (elements, unless the program's --help says otherwise)
 *   threads   the parallel setting: threads, ranks or devices (1 = sequential)
 *   param     a further setting of the variant (schedule, block size, ...), or empty
 *   reps      number of samples behind a summary (1 for a sample)
 *   median_s, min_s, q1_s, q3_s, max_s, mean_s
 *             seconds per call; for a sample all six are that sample
 *   flops     floating-point operations per call, as counted next to the kernel
 *   bytes     bytes moved per call (compulsory traffic, counted the same way)
 *   gflops    flops / median_s / 1e9 (empty when flops is 0)
 *   gbs       bytes / median_s / 1e9 (empty when bytes is 0)
 *   overlap   for a run of several threads: the share of the run (0..1) that
 *             the threads that could run at once really ran at the same time
 *             (common/overlap.h); below 0.5 the point is suspect: the threads
 *             mostly took turns on one core (a busy machine, taskset), and
 *             the figures draw it apart. Empty where not measured (one
 *             thread, sequential code, modelled rows). It comes before
 *             `value` so that `value` stays the last column.
 *   value     the number of a "quantity" row (what it is: the variant, the
 *             param, and the program's --help); empty otherwise
 *
 * Only verified results are written: a variant that fails its check is never
 * a row. The file is written to FILE.tmp.PID and renamed over FILE by
 * pw_csv_close, so a run that is killed leaves the previous FILE as it was.
 */
#ifndef PW_RESULTS_H
#define PW_RESULTS_H

#include "options.h"
#include "timing.h"

typedef struct pw_csv pw_csv;

/* Opens path's temporary twin and records the metadata. path NULL means "no
 * CSV wanted": returns NULL, and every other call accepts NULL and does
 * nothing. An unwritable path is a usage error: one line, exit 2. */
pw_csv *pw_csv_open(const char *path, int argc, char **argv);

/* An extra "# key: value" metadata line. Before the first row it joins the
 * header block; after, it is a comment line between rows, which every reader
 * above skips (a thread sweep records its Amdahl fit this way, once the
 * rows it was fitted to are written). */
void pw_csv_meta(pw_csv *f, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* One summary row from a benchmark's statistics. */
void pw_csv_summary(pw_csv *f, const char *variant, long long n, int threads,
                    const char *param, const pw_bench_stats *st, double flops, double bytes);

/* The same, for a run of `threads` threads whose overlap was measured
 * (common/overlap.h: pw_overlap_share; NaN leaves the column empty). */
void pw_csv_summary_overlap(pw_csv *f, const char *variant, long long n, int threads, const char *param,
                            const pw_bench_stats *st, double flops, double bytes, double overlap);

/* One row per sample: rep 0 is the cold call, 1..reps the timed samples. */
void pw_csv_samples(pw_csv *f, const char *variant, long long n, int threads,
                    const char *param, const pw_bench_stats *st, double flops, double bytes);

/* One row for a single measured value (a probe figure, a modelled time). */
void pw_csv_value(pw_csv *f, const char *variant, long long n, int threads,
                  const char *param, double seconds, double flops, double bytes);

/* One "event" row: something that ran from start_s to end_s (a Gantt bar);
 * threads says who (thread, rank), n and param what (the caller documents). */
void pw_csv_event(pw_csv *f, const char *variant, long long n, int threads, const char *param,
                  double start_s, double end_s, double bytes);

/* One "quantity" row: a number that is not a time, e.g. a modelled speedup
 * or a counter; the variant and param say what it is. */
void pw_csv_quantity(pw_csv *f, const char *variant, long long n, int threads, const char *param,
                     double value);

/* One "modelled" row: a time a model predicts (seconds, in `value`), with
 * the flops and bytes it stands for; no median, no spread. */
void pw_csv_modelled(pw_csv *f, const char *variant, long long n, int threads, const char *param,
                     double seconds, double flops, double bytes);

/* Flush, fsync and rename over the final path. Returns 0, or 1 on an I/O
 * error (reported on stderr). Frees f. */
int pw_csv_close(pw_csv *f);

/* Reading a CSV of this schema back (a GPU run reads the emulator's counts):
 * calls fn(param, value, ctx) for each "quantity" row whose variant is
 * `variant`, whose n is n and whose param starts with `prefix`. Returns how
 * many rows it passed on, or -1 when the file cannot be read. */
int pw_csv_read_quantities(const char *path, const char *variant, long long n, const char *prefix,
                           void (*fn)(const char *param, double value, void *ctx), void *ctx);

/* Facts about this machine and build, shared with the probe. */
const char *pw_cpu_model(void);  /* "AMD EPYC", or "unknown" */
const char *pw_compiler(void);   /* "gcc 12.2.0" */
const char *pw_cflags(void);     /* the flags this build used */
const char *pw_git_rev(void);    /* the revision this build came from */

#endif
