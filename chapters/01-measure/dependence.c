/* chapters/01-measure/dependence.c: work that was always parallel, and work
 * that was not.
 *
 * square: y[i] = x[i]^2. No iteration needs another: the core keeps many in
 *   flight, and the compiler does 16 per AVX-512 instruction.
 * running_sum: y[i] = y[i-1] + x[i]. Each add must wait for the previous add
 *   to finish (its latency, about 3-4 cycles), whatever the hardware.
 * sum: s += x[i]. Looks like a reduction, but in strict float arithmetic the
 *   order is fixed, so it is the same chain as running_sum.
 * sum_split8: the same sum as 8 partial sums: 8 chains in flight. The
 *   answer may differ in the last bits (another order of rounding), which is
 *   the price of parallelism in floating point.
 *
 * All four do one flop per element over data that fits in L2, so the memory
 * is not the limit: the difference is purely dependence.
 *
 *   ./build/ch01/dependence                 65536 elements (256 KiB)
 *   ./build/ch01/dependence -n 4096
 */
#include "check.h"
#include "elementwise.h"
#include "options.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

typedef struct { const float *x; float *y; size_t n; float s; } dep_ctx;
static void run_square(void *p) { dep_ctx *c = p; square_loop(c->x, c->y, c->n); }
static void run_running(void *p) { dep_ctx *c = p; running_sum(c->x, c->y, c->n); }
static void run_sum(void *p) { dep_ctx *c = p; c->s = sum_loop(c->x, c->n); }
static void run_split(void *p) { dep_ctx *c = p; c->s = sum_split8(c->x, c->n); }

static const struct {
    const char *name;
    pw_work_fn run;
    const char *shape;
} variants[] = {
    { "square",      run_square,  "independent" },
    { "running_sum", run_running, "one chain" },
    { "sum",         run_sum,     "one chain" },
    { "sum_split8",  run_split,   "8 chains" },
};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])

/* Whole numbers in [-8, 8] make every order of summation exact (partial sums
 * stay far below 2^24), so all sums must agree exactly. */
static int verify(float *x, float *y, float *want, size_t n)
{
    char what[48];
    int bad = 0;
    pw_fill_random(x, n, 11, -1.0f, 1.0f);
    square_loop(x, y, n);
    square_ref(x, want, n);
    snprintf(what, sizeof what, "square n=%zu", n);
    bad |= pw_check_floats(what, y, want, n, 0, 0);
    for (size_t i = 0; i < n; i++) x[i] = floorf(x[i] * 8.5f);
    running_sum(x, y, n);
    running_sum_ref(x, want, n);
    snprintf(what, sizeof what, "running_sum n=%zu", n);
    bad |= pw_check_floats(what, y, want, n, 0, 0);
    snprintf(what, sizeof what, "sum n=%zu", n);
    bad |= pw_check_scalar(what, sum_loop(x, n), sum_ref(x, n), 0, 0);
    snprintf(what, sizeof what, "sum_split8 n=%zu", n);
    bad |= pw_check_scalar(what, sum_split8(x, n), sum_ref(x, n), 0, 0);
    return bad;
}

/* What this size's table shows, from its own medians (variants: 0 square,
 * 1 running_sum, 2 sum, 3 sum_split8). A ratio within 20% of 1 counts as
 * "the same"; the theory is said as theory. */
static void findings(const pw_bench_stats *st, size_t n)
{
    double ns[NVARIANTS];
    for (int v = 0; v < NVARIANTS; v++) ns[v] = st[v].median * 1e9 / (double)n;
    double sum_vs_chain = ns[2] / ns[1], split = ns[2] / ns[3], square = ns[1] / ns[0];
    printf("what this run shows (n = %zu):\n", n);
    if (sum_vs_chain > 0.8 && sum_vs_chain < 1.25)
        printf("- sum ran at the chain's speed (%.3f vs %.3f ns/element): C's fixed order of float adds\n"
               "  makes it one chain too\n", ns[2], ns[1]);
    else
        printf("- sum and running_sum differ by %.2fx: this run cannot show they are the same chain (a busy machine?)\n",
               sum_vs_chain);
    if (split >= 1.5)
        printf("- 8 chains ran %.1fx faster than one: independent adds overlap. Theory: the ceiling is\n"
               "  adders x add latency (2 x 3 = 6 on many cores); more chains than that cannot help\n", split);
    else
        printf("- 8 chains ran only %.2fx faster than one: this run cannot show the overlap (n = %zu, or a busy machine)\n",
               split, n);
    if (square >= 1.5)
        printf("- square, with no chain at all, ran %.1fx faster than the chain\n", square);
    else
        printf("- square ran only %.2fx the chain's speed: this run cannot show the gap (too small or busy)\n",
               square);
    /* The answer to step 2's prediction: sum's speed against the chain's
     * (running_sum), and what 8 partial sums gained over sum. */
    if (split >= 1.5)
        printf("answer: sum ran at %.2fx the chain's speed; 8 partial sums ran %.2fx faster than sum (n = %zu)\n\n",
               1 / sum_vs_chain, split, n);
    else
        printf("answer: not shown on this run: 8 partial sums ran only %.2fx faster than sum (n = %zu; a busy machine?);"
               " sum ran at %.2fx the chain's speed\n\n", split, n, 1 / sum_vs_chain);
}

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(65536);
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N[,N...]", "elements (default 65536: 256 KiB, inside L2)", 1, PW_SIZE_MAX },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "dependent vs independent iterations: latency vs throughput",
                     opts, 1, &common);
    if (common.tiny) sizes = (pw_list)PW_LIST(1001);
    size_t nmax = (size_t)pw_list_max(&sizes);
    pw_require_memory(common.prog, "-n", (long long)nmax, sizeof(float), 3);
    float *x = pw_alloc_floats(nmax), *y = pw_alloc_floats(nmax), *want = pw_alloc_floats(nmax);

    static const size_t awkward[] = { 1, 7, 8, 9, 1001 };
    int bad = 0;
    for (size_t i = 0; i < sizeof awkward / sizeof awkward[0]; i++)
        if (awkward[i] <= nmax) bad |= verify(x, y, want, awkward[i]);
    for (int s = 0; s < sizes.n; s++) bad |= verify(x, y, want, (size_t)sizes.v[s]);
    if (bad) {
        fprintf(stderr, "%s: a kernel gave a wrong result; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the references (whole-number data: every order of summation is exact)\n\n");

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    for (int s = 0; s < sizes.n; s++) {
        size_t n = (size_t)sizes.v[s];
        pw_fill_random(x, n, 5, -1.0f, 1.0f);
        printf("n = %zu\n%-12s %-12s %12s %12s %10s\n", n, "variant", "iterations", "ns/element",
               "elements/ns", "vs chain");
        pw_bench_stats st[NVARIANTS];
        for (int v = 0; v < NVARIANTS; v++) {
            dep_ctx ctx = { x, y, n, 0 };
            pw_bench(&cfg, variants[v].run, &ctx, &st[v]);
            pw_sink += ctx.s;
            pw_csv_summary(csv, variants[v].name, (long long)n, 1, variants[v].shape, &st[v],
                           (double)n, (v < 2 ? 8.0 : 4.0) * (double)n);
        }
        double chain_ns = st[1].median * 1e9 / (double)n;   /* running_sum: the chain */
        for (int v = 0; v < NVARIANTS; v++) {
            double ns = st[v].median * 1e9 / (double)n;
            printf("%-12s %-12s %12.3f %12.2f %9.1fx\n", variants[v].name, variants[v].shape,
                   ns, 1 / ns, chain_ns / ns);
        }
        /* Real-valued data: the two orders of summation round differently. */
        double exact = sum_ref(x, n);
        float one = sum_loop(x, n), eight = sum_split8(x, n);
        printf("on random reals: sum = %.7g, sum_split8 = %.7g, double-precision sum = %.7g\n"
               "  (8 chains change the order of rounding; |difference| = %.2g, %.1f float ulps of the result)\n\n",
               one, eight, exact, fabs((double)one - eight),
               fabs((double)one - eight) / (nextafterf(fabsf(one), INFINITY) - fabsf(one)));
        findings(st, n);
    }
    pw_free(x); pw_free(y); pw_free(want);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
