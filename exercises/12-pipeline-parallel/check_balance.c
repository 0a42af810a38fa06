/* exercises/12-pipeline-parallel/check_balance.c: the checker of exercise 12.2.
 *
 * Built with your exercises/12-pipeline-parallel/balance.c by `make ex-12.2`,
 * or with the solution by `make solution-12.2`. Nine models, each a stack
 * of layers of given widths; layer l costs d_l d_{l+1} (its flops per
 * sample, halved), the costs your balance_layers() gets:
 *   equal layers; a wide block in the middle; widths growing 4..16; one
 *   huge layer; two random stacks (fixed seed); as many stages as layers;
 *   one stage; a heavy last layer (costs 1 1 1 1 10 on 3 stages). One of
 *   the random stacks is where filling each stage up to the average cost
 *   leaves the last stage heavy; the heavy last layer is where a greedy
 *   walk up to the best bound uses 2 stages, [0..3] [4], and giving the
 *   third stage one layer taken from the end empties one (0 4 4 5).
 * For each:
 *   1. first[] must be a split: first[0] = 0, first[S] = L, increasing
 *      (no empty stage: a rank with nothing to do);
 *   2. its heaviest stage must cost exactly what the best split's does
 *      (costs are whole numbers, so sums are exact in double);
 *   3. then GPipe runs the model with your split on the virtual cluster
 *      (m = 8, free links, gradients checked against the unsplit model) and
 *      its modelled step must equal the best split's: sum c + (m-1) max c,
 *      the same total work, the same heaviest stage.
 * Then a sweep, checks 1 and 2 only (no GPipe run): L = 1..16 layers on
 * every S = 1..L, with costs of four kinds: random whole numbers 1..9
 * (fixed seed), growing 1..L, shrinking L..1, and all 1 but one layer of
 * cost 2L, put at each position in turn (at the end it is the case above,
 * at any size; near the start it catches the mirror mistake). Whole-number
 * costs keep every sum exact in double, so "as light as the best" is ==.
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "balance.h"
#include "cluster.h"
#include "pipeline.h"

#define MAXL 64
#define M 8

typedef struct {
    const char *name;
    int L, S;
    int dims[MAXL + 1];
} model;

static double stage_cost(const double *cost, const int *first, int s)
{
    double c = 0;
    for (int l = first[s]; l < first[s + 1]; l++) c += cost[l];
    return c;
}

static int heaviest(const double *cost, const int *first, int S)
{
    int h = 0;
    for (int s = 1; s < S; s++)
        if (stage_cost(cost, first, s) > stage_cost(cost, first, h)) h = s;
    return h;
}

static void print_split(const char *label, const double *cost, const int *first, int S)
{
    printf("  %s:", label);
    for (int s = 0; s < S; s++) printf(" [%d..%d] %.0f", first[s], first[s + 1] - 1, stage_cost(cost, first, s));
    printf("\n");
}

/* GPipe's modelled span with this split, in seconds; -1 if the run failed */
static double gpipe_span(const model *md, const int *first)
{
    pipe_case pc;
    pipe_case_init(&pc, md->L, md->dims, 0, 1, M);
    pipe_job job = pipe_case_job(&pc, md->S, 1, first, false);
    pw_cluster_config cfg = pw_cluster_defaults(md->S);
    cfg.ranks_per_node = md->S;
    cfg.intra_alpha = cfg.inter_alpha = 0;
    cfg.intra_gbs = cfg.inter_gbs = 1e30;
    pipe_result res;
    char why[4096];
    bool bitwise;
    double t = -1;
    if (pipe_simulate(pipe_schedule_named("gpipe"), NULL, &job, &cfg, false, &res, why, sizeof why) == 0
        && pipe_case_check(&pc, &bitwise, why, sizeof why) == 0)
        t = res.span;
    else
        printf("\n  checker: the GPipe run failed: %s\n", why);
    pipe_case_free(&pc);
    return t;
}

/* Checks 1 and 2 on one split: prints "wrong" and the FAIL lines and
 * returns 1, or returns 0 with the heaviest stage's cost in *heavy. */
static int check_split(const char *name, const double *cost, int L, int S, const int *first, int *best, double *heavy)
{
    if (first[0] != 0 || first[S] != L) {
        printf("wrong\nFAIL: %s: first[0] = %d and first[S] = %d; a split starts at layer 0 and ends at L = %d\n",
               name, first[0], first[S], L);
        return 1;
    }
    for (int s = 0; s < S; s++)
        if (first[s + 1] <= first[s]) {
            printf("wrong\nFAIL: %s: stage %d is empty (first[%d] = %d, first[%d] = %d): a rank with nothing to do,\n"
                   "  and the others carry its share; every stage needs at least one layer\n",
                   name, s, s, first[s], s + 1, first[s + 1]);
            printf("  yours: first =");
            for (int k = 0; k <= S; k++) printf(" %d", first[k]);
            printf("\n");
            return 1;
        }
    double want = pipe_split_balanced(cost, L, S, best);
    int h = heaviest(cost, first, S);
    double got = stage_cost(cost, first, h);
    if (got != want) {
        printf("wrong\nFAIL: %s: your heaviest stage (stage %d, layers %d..%d) costs %.0f; the best split's costs %.0f\n",
               name, h, first[h], first[h + 1] - 1, got, want);
        print_split("yours", cost, first, S);
        print_split("best ", cost, best, S);
        bool even = true;
        for (int s = 0; s <= S; s++) even &= first[s] == (int)((long long)s * L / S);
        if (even)
            printf("  equal numbers of layers are not equal work: these layers differ in width\n");
        else
            printf("  the pipe runs at its heaviest stage's pace: GPipe's step is sum c + (m-1) max c\n");
        return 1;
    }
    *heavy = got;
    return 0;
}

static int check_model(const model *md)
{
    int L = md->L, S = md->S, first[MAXL + 2], best[MAXL + 2];
    double cost[MAXL], got;
    for (int l = 0; l < L; l++) cost[l] = (double)md->dims[l] * md->dims[l + 1];
    printf("  %-40s L = %2d, S = %d: ", md->name, L, S);
    for (int s = 0; s <= S + 1; s++) first[s] = -7;   /* unwritten entries show */
    balance_layers(cost, L, S, first);
    if (check_split(md->name, cost, L, S, first, best, &got)) return 1;
    double mine = gpipe_span(md, first), theirs = gpipe_span(md, best);
    if (mine < 0 || theirs < 0 || fabs(mine - theirs) > 1e-9 * theirs) {
        printf("wrong\nFAIL: %s: GPipe's modelled step with your split %.6g s, with the best %.6g s\n", md->name, mine, theirs);
        return 1;
    }
    printf("heaviest %.0f, GPipe step (m = %d) as the best split's: ok\n", got, M);
    return 0;
}

/* The sweep: every L = 1..SWEEP_L and S = 1..L, four kinds of costs (see
 * the top). Returns 1 after a FAIL. */
#define SWEEP_L 16
static int sweep(void)
{
    int n = 0;
    unsigned x = 3;
    printf("  %-40s ", "sweep: L = 1..16, every S, 4 kinds");
    fflush(stdout);
    for (int L = 1; L <= SWEEP_L; L++)
        for (int S = 1; S <= L; S++)
            for (int kind = 0; kind < 3 + L; kind++) {   /* 0 random, 1 growing, 2 shrinking, 3 + q: heavy layer at q */
                double cost[SWEEP_L];
                int first[SWEEP_L + 2], best[SWEEP_L + 2];
                for (int l = 0; l < L; l++) {
                    x = x * 1103515245u + 12345u;
                    cost[l] = kind == 0 ? 1 + (double)((x >> 16) % 9) : kind == 1 ? l + 1 : kind == 2 ? L - l : l == kind - 3 ? 2.0 * L : 1;
                }
                char name[160];
                int len = snprintf(name, sizeof name, "layer costs");
                for (int l = 0; l < L; l++) len += snprintf(name + len, sizeof name - (size_t)len, " %.0f", cost[l]);
                snprintf(name + len, sizeof name - (size_t)len, ", S = %d", S);
                for (int s = 0; s <= S + 1; s++) first[s] = -7;
                balance_layers(cost, L, S, first);
                double got;
                if (check_split(name, cost, L, S, first, best, &got)) return 1;
                n++;
            }
    printf("%d splits as light as the best: ok\n", n);
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    model ms[9];
    memset(ms, 0, sizeof ms);
    ms[0] = (model){ "equal layers", 12, 4, { 0 } };
    for (int l = 0; l <= 12; l++) ms[0].dims[l] = 8;
    ms[1] = (model){ "a wide block in the middle", 12, 4, { 8, 8, 8, 8, 16, 16, 16, 8, 8, 8, 8, 8, 8 } };
    ms[2] = (model){ "widths growing 4..16", 12, 3, { 0 } };
    for (int l = 0; l <= 12; l++) ms[2].dims[l] = 4 + l;
    ms[3] = (model){ "one huge layer", 10, 4, { 8, 8, 8, 40, 40, 8, 8, 8, 8, 8, 8 } };
    ms[4] = (model){ "random widths 3..14 (seed 1)", 29, 6, { 0 } };
    ms[5] = (model){ "random widths 3..14 (seed 2)", 17, 5, { 0 } };
    unsigned x = 1;
    for (int l = 0; l <= 29; l++) { x = x * 1103515245u + 12345u; ms[4].dims[l] = 3 + (int)((x >> 16) % 12); }
    x = 2;
    for (int l = 0; l <= 17; l++) { x = x * 1103515245u + 12345u; ms[5].dims[l] = 3 + (int)((x >> 16) % 12); }
    ms[6] = (model){ "as many stages as layers", 5, 5, { 6, 9, 7, 5, 8, 6 } };
    ms[7] = (model){ "one stage", 7, 1, { 5, 6, 7, 8, 7, 6, 5, 4 } };
    /* costs 1 1 1 1 10: the best is [0..1] [2..3] [4], heaviest 10 */
    ms[8] = (model){ "a heavy last layer (costs 1 1 1 1 10)", 5, 3, { 1, 1, 1, 1, 1, 10 } };
    printf("exercise 12.2: balance_layers() against the best split, then GPipe on the virtual cluster\n");
    for (int k = 0; k < 9; k++)
        if (check_model(&ms[k])) return 1;
    if (sweep()) return 1;
    return pw_ex_pass("every split is as light as the best, and GPipe's modelled step equals the best split's");
}
