/* chapters/04-openmp/pi.c: the pi integral with one OpenMP pragma, swept
 * over threads.
 *
 * The loop of kernels/omp_pi.c is the sequential one plus
 *     #pragma omp parallel for reduction(+:s) schedule(static)
 * and that line does what chapter 03 wrote by hand with pthreads: start the
 * threads, give each a slice of the steps, give each a private partial sum,
 * add the partial sums at the end, join the threads.
 *
 *   ./build/ch04/pi                       20M steps on 1, 2, ..., cores, 2x cores threads
 *   ./build/ch04/pi -s 100M -t 1,2 --csv pi.csv
 *   OMP_PROC_BIND=close OMP_PLACES=cores ./build/ch04/pi   (pinned threads)
 *
 * What to expect: nearly twice as fast on two cores (each step is a divide
 * and a few adds on numbers in registers: no memory traffic, nothing shared
 * but the final sum), no gain past the core count. The fitted parallel
 * fraction p is close to 1.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "omp_info.h"
#include "omp_pi.h"
#include "options.h"
#include "overlap.h"
#include "results.h"
#include "scaling.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    long long n;
    double result;
    pw_overlap ov;     /* whether the team's threads ran at the same time */
} pi_ctx;

static void run_seq(void *p) { pi_ctx *c = p; c->result = pi_seq(c->n); }
static void run_omp(void *p)
{
    pi_ctx *c = p;
    pw_overlap_mark m = pw_overlap_begin();
    c->result = pi_integral_omp(c->n);
    pw_overlap_end(&c->ov, m);
}

/* Check both loops against PI_EXACT at size n, and the OpenMP one on each thread
 * count. The tolerance is the midpoint rule's error plus rounding (see
 * kernels/omp_pi.h): 1/(3 n^2) + 16 n 2^-53, e.g. 3.6e-8 at n = 20M. */
static int verify(long long n, const pw_list *threads)
{
    char what[80];
    double tol = pi_tolerance(n);
    snprintf(what, sizeof what, "pi_seq n=%lld", n);
    int bad = pw_check_scalar(what, pi_seq(n), PI_EXACT, tol, 0);
    for (int i = 0; i < threads->n; i++) {
        pw_omp_set_threads((int)threads->v[i]);
        snprintf(what, sizeof what, "pi_openmp n=%lld threads=%lld", n, threads->v[i]);
        bad |= pw_check_scalar(what, pi_integral_omp(n), PI_EXACT, tol, 0);
    }
    return bad;
}

int main(int argc, char **argv)
{
    long long n = 20000000;
    pw_list threads = { .n = 0 };
    pw_opt opts[] = {
        { "-s", "--steps", PW_OPT_INT, &n, "N", "integration steps (default 20M; no memory needed)", 1, 1LL << 40 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1,2,..,cores, 2x cores)",
          1, PW_MAX_THREADS },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "pi as an integral: one OpenMP pragma, swept over threads", opts, 2, &common);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (common.tiny) n = 200001;
    int cores = pw_cores();

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_omp_report(stdout, csv);
    if (!pw_omp_enabled()) threads = (pw_list)PW_LIST(1);

    /* Odd and tiny step counts first (n = 1, 2, 3 give the few-step
     * midpoint sums, far from pi but within their own bound), 1, 2, 3 and
     * 7 threads (more threads than steps leaves some with nothing to do). */
    static const long long awkward[] = { 1, 2, 3, 7, 1001, 65537 };
    pw_list check_threads = PW_LIST(1, 2, 3, 7);
    int bad = 0;
    for (size_t i = 0; i < sizeof awkward / sizeof awkward[0]; i++) bad |= verify(awkward[i], &check_threads);
    bad |= verify(n, &threads);
    if (bad) {
        fprintf(stderr, "%s: a variant gave a wrong result; nothing was timed\n", common.prog);
        pw_csv_close(csv);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the references (pi within the midpoint rule's error bound; "
           "n = 1, 2, 3, 7, 1001, 65537 on 1, 2, 3, 7 threads, and n = %lld)\n\n", n);

    pw_bench_config cfg = pw_bench_from_opts(&common);
    double flops = (double)PI_FLOPS_PER_STEP * (double)n;
    pi_ctx ctx = { n, 0, { 0, 0, 0 } };
    pw_bench_stats seq;
    pw_bench(&cfg, run_seq, &ctx, &seq);
    printf("pi_seq: %.4g ms for %lld steps, %.2f GFLOP/s; pi = %.15f, error %.1e\n\n", seq.median * 1e3, n,
           pw_gflops(flops, seq.median), ctx.result, ctx.result - PI_EXACT);
    pw_csv_summary(csv, "pi_seq", n, 1, "", &seq, flops, 0);

    pw_scaling_point pts[PW_MAX_LIST];
    pw_overlap ovs[PW_MAX_LIST];
    for (int i = 0; i < threads.n; i++) {
        pts[i].threads = (int)threads.v[i];
        pw_omp_set_threads(pts[i].threads);
        ctx.ov = (pw_overlap){ 0, 0, 0 };
        pw_bench(&cfg, run_omp, &ctx, &pts[i].st);
        ovs[i] = ctx.ov;
    }
    pw_scaling_fit fit = pw_scaling_report_overlap(csv, "pi_openmp", n, "", seq.median, pts, threads.n, flops, 0,
                                                   cores, ovs);
    printf("\nspeedup against the sequential loop (pi_seq), not the 1-thread OpenMP run.\n");
    pw_scaling_answer("pi", pts, threads.n, &fit, cores);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
