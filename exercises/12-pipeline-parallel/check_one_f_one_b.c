/* exercises/12-pipeline-parallel/check_one_f_one_b.c: the checker of exercise 12.1.
 *
 * Built with your exercises/12-pipeline-parallel/one_f_one_b.c by
 * `make ex-12.1`, or with the solution by `make solution-12.1`. For p = 1..8
 * ranks and m = 1, 2, 3, 4, 5, 7, 8, 12 micro-batches (m < p included):
 *   1. every rank's order is read: 2m steps, each micro-batch's F once and
 *      its B once, F before B (pipe_validate says what is wrong, and where);
 *   2. all p orders run at once on the virtual cluster with the chapter's
 *      executor (kernels/pipeline.c) on a stack of p layers, real data, links
 *      free (compute only): a deadlock is reported with who waits for what
 *      (tag 1 activations, tag 2 gradients) and explained;
 *   3. the gradients and loss must equal the unsplit model's (a rank that
 *      takes micro-batches in another order than its neighbour pairs one
 *      micro-batch's activations with another's gradient);
 *   4. the bubble measured from the trace must equal 1F1B's, (p-1)/(m+p-1),
 *      to 1e-9 (a short warm-up leaves ranks waiting for gradients);
 *   5. rank r must store at most min(p - r, m) micro-batches at once (all
 *      forwards first is GPipe: m; a longer warm-up than needed stores more).
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "one_f_one_b.h"
#include "pipeline.h"

#define WIDTH 6

/* forwards before the first backward (1F1B: the warm-up's p - r - 1 and
 * the steady state's first), for the hints */
static int warm_up(const pipe_step *o, int n)
{
    int k = 0;
    while (k < n && o[k].kind == PIPE_F) k++;
    return k;
}

static int want_warm(int r, int p, int m) { return p - r < m ? p - r : m; }

/* 0 when p, m pass; else 1 after explaining */
static int check_case(int p, int m)
{
    int n = 2 * m, cap = 8 * m + 64;
    pipe_step *orders = calloc((size_t)p * cap, sizeof *orders);
    char why[8192];
    for (int r = 0; r < p; r++) {
        pipe_step *o = orders + (size_t)r * cap;
        int got = one_f_one_b(r, p, m, o);
        if (got < 0 || got > cap) {
            printf("wrong\nFAIL: p = %d, m = %d: rank %d returned %d steps; 2m = %d are wanted\n", p, m, r, got, n);
            free(orders);
            return 1;
        }
        if (pipe_validate(o, got, p, m, 1, false, why, sizeof why)) {
            printf("wrong\nFAIL: p = %d, m = %d: rank %d's order: %s\n", p, m, r, why);
            if (strstr(why, "does not exist") && m < p)
                printf("  with fewer micro-batches than ranks, the warm-up p - rank - 1 is more than m: cap it at m\n");
            else if (strstr(why, "before its"))
                printf("  a backward needs its micro-batch's forward on this rank first (its activations)\n");
            free(orders);
            return 1;
        }
    }
    /* the executor takes orders p x n: pack them */
    pipe_step *packed = malloc((size_t)p * n * sizeof *packed);
    for (int r = 0; r < p; r++) memcpy(packed + (size_t)r * n, orders + (size_t)r * cap, (size_t)n * sizeof *packed);
    pipe_case pc;
    int first[PIPE_MAX_RANKS + 1];
    pipe_case_init(&pc, p, NULL, WIDTH, 2, m);
    pipe_split_even(p, p, first);
    pipe_job job = pipe_case_job(&pc, p, 1, first, false);
    pw_cluster_config cfg = pw_cluster_defaults(p);
    cfg.ranks_per_node = p;
    cfg.intra_alpha = cfg.inter_alpha = 0;   /* free links: the bubble formula counts compute only */
    cfg.intra_gbs = cfg.inter_gbs = 1e30;
    pipe_result res;
    int rc = pipe_simulate(pipe_schedule_named("1f1b"), packed, &job, &cfg, true, &res, why, sizeof why), bad = 1;
    bool bitwise;
    if (rc == PW_CLUSTER_DEADLOCK) {
        printf("wrong\n%s", why);
        printf("FAIL: p = %d, m = %d: deadlock: the ranks wait for each other (report above)\n", p, m);
        for (int r = 0; r < p; r++) {
            int w = warm_up(orders + (size_t)r * cap, n);
            if (w < want_warm(r, p, m)) {
                printf("  rank %d asks for the gradient of micro-batch 0 after %d forward%s, but the ranks after it\n"
                       "  wait for more forwards from it first: rank r's warm-up is p - r - 1 forwards\n",
                       r, w, w == 1 ? "" : "s");
                break;
            }
        }
    } else if (rc != 0) {
        printf("wrong\n%s", why);
        printf("FAIL: p = %d, m = %d: the run failed (report above)\n", p, m);
    } else if (pipe_case_check(&pc, &bitwise, why, sizeof why)) {
        printf("wrong\nFAIL: p = %d, m = %d: %s\n", p, m, why);
        printf("  messages between two ranks arrive in the order they were sent: every rank must take the\n"
               "  micro-batches in the same order (0, 1, ...), forwards and backwards alike\n");
    } else {
        double f = (p - 1.0) / (m + p - 1.0);
        bad = 0;
        if (!(fabs(res.bubble - f) <= 1e-9)) {
            bad = 1;
            printf("wrong\nFAIL: p = %d, m = %d: the pipe stands idle %.4f of the time; 1F1B's is (p-1)/(m+p-1) = %.4f\n",
                   p, m, res.bubble, f);
            for (int r = 0; r < p; r++) {
                int w = warm_up(orders + (size_t)r * cap, n);
                if (w != want_warm(r, p, m)) {
                    printf("  rank %d runs %d forward%s before its first backward; 1F1B runs min(p - r, m) = %d\n"
                           "  (a warm-up of p - r - 1, then the steady state's first): %s\n", r, w, w == 1 ? "" : "s", want_warm(r, p, m),
                           w < want_warm(r, p, m) ? "with fewer it waits for a gradient while it could be computing"
                                                  : "the order of the steady state is off");
                    break;
                }
            }
        }
        for (int r = 0; r < p && !bad; r++) {
            int peak = pipe_trace_peak(res.trace, res.ntrace, r, false), want = p - r < m ? p - r : m;
            if (peak > want) {
                bad = 1;
                printf("wrong\nFAIL: p = %d, m = %d: rank %d stores %d micro-batches at once; 1F1B stores at most min(p - r, m) = %d\n",
                       p, m, r, peak, want);
                if (peak == m)
                    printf("  every forward before any backward is GPipe's order: its memory grows with m\n");
                else
                    printf("  a warm-up of %d forwards is more than the p - r - 1 = %d rank %d needs\n",
                           warm_up(orders + (size_t)r * cap, n), p - r - 1, r);
            }
        }
    }
    free(res.trace);
    free(res.orders);
    pipe_case_free(&pc);
    free(packed);
    free(orders);
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    static const int ms[] = { 1, 2, 3, 4, 5, 7, 8, 12 };
    int nm = (int)(sizeof ms / sizeof ms[0]);
    printf("exercise 12.1: one_f_one_b() on p = 1..8 ranks, m = 1..12 micro-batches, run by the chapter's executor\n");
    for (int p = 1; p <= 8; p++) {
        printf("  p = %d, m =", p);
        for (int i = 0; i < nm; i++) {
            printf(" %d", ms[i]);
            if (check_case(p, ms[i])) return 1;
        }
        printf(": ok\n");
    }
    return pw_ex_pass("every order runs without deadlock, gradients equal the unsplit model's, bubble (p-1)/(m+p-1), at most min(p - r, m) stored");
}
