/* chapters/12-pipeline-parallel/unbalanced.c: one stage 1.5x heavier than
 * the others, and the whole pipe runs at its pace; a balanced layer split
 * wins most of it back.
 *
 *   ./build/ch12/unbalanced               p = 4, m = 8, layers of equal cost
 *   ./build/ch12/unbalanced -p 6 -m 24
 *
 * Three splits of a stack of equal layers (each costs t: forward t, backward 2t):
 *   balanced     4p layers, 4 a stage
 *   one_heavy    4p + 2 layers, 4 a stage but 6 on stage p/2: 1.5x heavier
 *   rebalanced   the same 4p + 2 layers split by pipe_split_balanced:
 *                contiguous stages, the heaviest as light as possible (5)
 * each run with GPipe and 1F1B on free links (as in schedules.c), gradients
 * checked against the unsplit model.
 *
 * The pace: a pipe is a flow line. With stage s taking c_s = F_s + B_s per
 * micro-batch, GPipe's F phase ends after sum_s F_s + (m-1) max_s F_s (the
 * first micro-batch crosses every stage, the others follow one slowest
 * stage apart) and its B phase the same with B, so with B = 2F
 *     span = sum_s c_s + (m-1) max_s c_s.
 * (The flow-shop makespan of identical jobs; for uniform stages it is
 * (m + p - 1) c, the bubble formula's denominator.) The program checks
 * GPipe's span against it to 1e-9. 1F1B mixes F and B, so the heavy
 * stage h need not finish all its F before its first B; its span is
 * measured, and checked against what no order can beat: h's own work
 * m c_h, plus the first micro-batch's forwards before h and the last
 * one's backwards after it, sum_{s<h} (F_s + B_s).
 *
 * CSV: kind=quantity rows "span" and "formula" (n = m, threads = p, param =
 * split/schedule), in units of t.
 */
#include "cluster.h"
#include "options.h"
#include "pipeline.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 8

int main(int argc, char **argv)
{
    long long p = -1, m = -1, batch = 2;   /* -1: not given; the defaults below */
    pw_opt opts[] = {
        { "-p", "--stages", PW_OPT_INT, &p, "P", "ranks, one stage each (default 4; --tiny 3)", 2, 16 },
        { "-m", "--micro-batches", PW_OPT_INT, &m, "M", "micro-batches (default 8; --tiny 4)", 1, 64 },
        { "-b", "--batch", PW_OPT_INT, &batch, "B", "samples per micro-batch (default 2)", 1, 64 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "unbalanced pipeline stages: the slowest stage sets the pace; a balanced split",
                     opts, (int)(sizeof opts / sizeof opts[0]), &common);
    /* --tiny picks smaller defaults; flags given win */
    if (p < 0) p = common.tiny ? 3 : 4;
    if (m < 0) m = common.tiny ? 4 : 8;
    int P = (int)p, heavy = P / 2;
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);

    /* the three splits, as first-layer lists */
    int firsts[3][17 + 1], Ls[3] = { 4 * P, 4 * P + 2, 4 * P + 2 };
    const char *names[3] = { "balanced", "one_heavy", "rebalanced" };
    pipe_split_even(Ls[0], P, firsts[0]);
    for (int s = 0, l = 0; s <= P; s++) { firsts[1][s] = l; l += s == heavy ? 6 : 4; }
    double *cost = malloc((size_t)Ls[2] * sizeof *cost);
    for (int l = 0; l < Ls[2]; l++) cost[l] = 1;
    double worst = pipe_split_balanced(cost, Ls[2], P, firsts[2]);
    free(cost);

    double span[3][2], formula[3], bound[3];
    int maxl[3];
    for (int k = 0; k < 3; k++) {
        /* c_s in units of t: 3 per layer (F t, B 2t) */
        double sum = 0, mx = 0;
        for (int s = 0; s < P; s++) {
            double c = 3.0 * (firsts[k][s + 1] - firsts[k][s]);
            sum += c;
            mx = fmax(mx, c);
        }
        maxl[k] = (int)(mx / 3);
        bound[k] = (double)m * mx;
        for (int s = 0; 3.0 * (firsts[k][s + 1] - firsts[k][s]) < mx; s++) bound[k] += 3.0 * (firsts[k][s + 1] - firsts[k][s]);
        formula[k] = sum + (double)(m - 1) * mx;
        for (int si = 0; si < 2; si++) {
            const pipe_schedule *s = &pipe_schedules[si];   /* gpipe, 1f1b */
            pipe_case pc;
            pipe_case_init(&pc, Ls[k], NULL, WIDTH, (int)batch, (int)m);
            pipe_job job = pipe_case_job(&pc, P, 1, firsts[k], false);
            pw_cluster_config cfg = pw_cluster_defaults(P);
            cfg.ranks_per_node = P;
            cfg.intra_alpha = cfg.inter_alpha = 0;         /* free links: compute only (schedules.c) */
            cfg.intra_gbs = cfg.inter_gbs = 1e30;
            pipe_result res;
            char why[4096];
            bool bitwise;
            if (pipe_simulate(s, NULL, &job, &cfg, false, &res, why, sizeof why)
                || pipe_case_check(&pc, &bitwise, why, sizeof why)) {
                fprintf(stderr, "%s: %s, %s: %s\n", common.prog, names[k], s->name, why);
                return PW_EXIT_WRONG;
            }
            double t = pipe_layer_flops(&pc.md, 0) / (cfg.device_gflops * 1e9);
            span[k][si] = res.span / t;
            pipe_case_free(&pc);
        }
        if (span[k][1] < bound[k] * (1 - 1e-9)) {
            fprintf(stderr, "%s: %s: 1F1B's span %.12g t beats the bound %.12g t\n", common.prog, names[k], span[k][1], bound[k]);
            return PW_EXIT_WRONG;
        }
        if (!(fabs(span[k][0] - formula[k]) <= 1e-9 * formula[k])) {
            fprintf(stderr, "%s: %s: GPipe's span %.12g t, the flow-line formula %.12g t\n", common.prog, names[k],
                    span[k][0], formula[k]);
            return PW_EXIT_WRONG;
        }
    }
    printf("all variants match: gradients equal the unsplit model's; GPipe's span = sum c_s + (m-1) max c_s to 1e-9;\n"
           "  1F1B's span >= m c_max + sum of (F + B) before the heaviest stage\n\n");
    printf("p = %d stages, m = %lld micro-batches, layers of equal cost t (forward t, backward 2t), free links:\n\n", P, m);
    printf("%-11s %-22s %9s %12s %12s %12s %12s %10s\n", "split", "layers per stage", "heaviest", "GPipe span", "formula",
           "1F1B span", "1F1B bound", "vs balanced");
    for (int k = 0; k < 3; k++) {
        char lay[96] = "", *o = lay;
        for (int s = 0; s < P; s++) o += snprintf(o, (size_t)(lay + sizeof lay - o), "%s%d", s ? " " : "", firsts[k][s + 1] - firsts[k][s]);
        printf("%-11s %-22s %8.2fx %10.1f t %10.1f t %10.1f t %10.1f t %9.3fx\n", names[k], lay, maxl[k] / 4.0, span[k][0],
               formula[k], span[k][1], bound[k], span[k][1] / span[0][1]);
        pw_csv_quantity(csv, "span", m, P, names[k], span[k][0]);
        pw_csv_quantity(csv, "formula", m, P, names[k], formula[k]);
        pw_csv_quantity(csv, "span_1f1b", m, P, names[k], span[k][1]);
    }
    /* the answer from this run's numbers */
    double extra_work = (double)Ls[1] / Ls[0];
    printf("\nanswer: stage %d holds %d layers where the others hold 4: the step takes %.3fx the balanced one\n"
           "  (1F1B), although the model has only %.3fx the work: every stage waits for the slow one, m - 1 times.\n",
           heavy, maxl[1], span[1][1] / span[0][1], extra_work);
    printf("  Rebalanced (heaviest %g layers), the same model takes %.3fx: %.1f%% of the heavy split's time saved.\n",
           worst, span[2][1] / span[0][1], 100 * (1 - span[2][1] / span[1][1]));
    return pw_csv_close(csv);
}
