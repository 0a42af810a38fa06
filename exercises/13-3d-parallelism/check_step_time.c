/* exercises/13-3d-parallelism/check_step_time.c: the checker of exercise 13.2.
 *
 * Built with your exercises/13-3d-parallelism/step_time.c by `make ex-13.2`,
 * or with the solution by `make solution-13.2`.
 *   1. The planner's numbers: GPT-3 175B and Llama-2-70B on 1024 devices,
 *      configurations with t of 1 to 16 (16: a tensor group of two nodes),
 *      p of 1 to 32, both mappings (tensor-first and pipeline-first), the
 *      work from p3_transformer_work. Yours must equal p3_time_model's
 *      total to 1e-9 relative.
 *   2. The composed run: d x t x p of 2x2x2, 1x4x2, 2x2x4 (pipeline hops
 *      inside and across nodes), 4x2x2 pipeline-first and 1x8x8, GPipe,
 *      real data (kernels/parallel3d.c's p3_rank, gradients checked against
 *      the unsplit model), modelled time from the virtual cluster: your
 *      formula must predict it to 1e-9 relative.
 * A miss is explained by the usual mistakes it matches. Last line PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cluster.h"
#include "parallel3d.h"
#include "step_time.h"
#include "util.h"

static bool close_to(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fabs(want);
}

static void explain(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate, double got)
{
    p3_time tm;
    p3_time_model(w, cl, cf, rate, &tm);
    printf("  the formula's parts: compute %.6g s, TP %.6g s, PP %.6g s, DP %.6g s, bubble %.6g s = %.6g s\n", tm.compute,
           tm.tp, tm.pp, tm.dp, tm.bubble, tm.total);
    if (cf->p > 1 && close_to(got, tm.total - tm.bubble))
        printf("  yours has no bubble: the pipeline fills and drains over p - 1 slots of t_F + t_B\n");
    if (cf->d > 1 && close_to(got, tm.total - tm.dp))
        printf("  yours has no data-parallel all-reduce of the gradients at the end\n");
    p3_cluster fast = *cl;
    fast.inter_alpha = cl->intra_alpha;
    fast.inter_gbs = cl->intra_gbs;
    p3_time all_intra;
    p3_time_model(w, &fast, cf, rate, &all_intra);
    if (close_to(got, all_intra.total))
        printf("  yours prices every link as NVLink\n");
    if (p3_group_crosses(cf, cl->per_node, 't'))
        printf("  this tensor group spans nodes (rank / per_node differs within it): its all-reduces cross the network\n");
}

static void rank_main(pw_rank *r, void *arg)
{
    pw_comm world = coll_comm_cluster(r);
    p3_rank(&world, arg);
}

/* The composed GPipe run; returns its modelled step, or -1. */
static double composed(const p3_config *cf, const pw_cluster_config *cc, p3_job *job)
{
    int L = job->layers, H = job->h, F = job->f;
    size_t count = (size_t)cf->d * (size_t)cf->m * job->b, nw = p3_nweights(L, H, F);
    float *w = pw_alloc_floats(nw), *x = pw_alloc_floats(count * H), *y = pw_alloc_floats(count * H);
    float *grad = pw_alloc_floats(nw), *ref = pw_alloc_floats(nw);
    double *loss = calloc((size_t)cf->d, sizeof *loss);
    pw_fill_random(w, nw, 21, -0.25f, 0.25f);
    pw_fill_random(x, count * H, 22, -1, 1);
    pw_fill_random(y, count * H, 23, -1, 1);
    memset(grad, 0, nw * sizeof *grad);
    job->w = w; job->x = x; job->y = y; job->grad = grad; job->loss = loss;
    pw_cluster *c = pw_cluster_create(cc);
    double t = -1;
    if (pw_cluster_run(c, rank_main, job) == PW_CLUSTER_OK) {
        p3_reference(L, H, F, w, x, y, count, ref);
        float scale = 0;
        for (size_t i = 0; i < nw; i++) scale = fabsf(ref[i]) > scale ? fabsf(ref[i]) : scale;
        if (pw_check_floats("composed gradients", grad, ref, nw, 1e-5 * scale, 1e-4) == 0) t = pw_cluster_time(c);
    } else {
        printf("  checker: the composed run failed: %s\n", pw_cluster_report(c));
    }
    pw_cluster_destroy(c);
    pw_free(w); pw_free(x); pw_free(y); pw_free(grad); pw_free(ref);
    free(loss);
    return t;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    printf("exercise 13.2: step_time() against the planner's formula, then against composed runs\n");
    p3_model models[2] = { p3_gpt3_175b(), p3_llama2_70b() };
    static const int cfgs[][3] = { { 1024, 1, 1 }, { 16, 8, 8 }, { 32, 8, 4 }, { 8, 4, 32 }, { 4, 16, 16 }, { 64, 2, 8 }, { 128, 8, 1 } };
    p3_cluster cl = p3_cluster_default(128);
    double rate = cl.peak_tflops * 1e12 * cl.matmul_eff;
    int n = 0;
    for (int k = 0; k < 2; k++)
        for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++)
            for (int o = 0; o < 2; o++) {
                const p3_model *md = &models[k];
                int d = cfgs[c][0], t = cfgs[c][1], p = cfgs[c][2];
                if (md->heads % t || md->layers % p || md->batch % d) continue;
                p3_config cf = { d, t, p, 1, md->batch / d, false, false, (p3_order)o };
                p3_work w;
                p3_transformer_work(md, &cf, &w);
                p3_time tm;
                p3_time_model(&w, &cl, &cf, rate, &tm);
                double got = step_time(&w, &cl, &cf, rate);
                n++;
                printf("  %-10s d %4d t %2d p %2d %s: ", md->name, d, t, p, p3_order_name(cf.order));
                if (!close_to(got, tm.total)) {
                    printf("wrong\nFAIL: %s, d %d x t %d x p %d placed %s: yours %.6g s, the formula's %.6g s\n", md->name, d,
                           t, p, p3_order_name(cf.order), got, tm.total);
                    explain(&w, &cl, &cf, rate, got);
                    return 1;
                }
                printf("%.4f s: ok\n", got);
            }
    static const int runs[][4] = { { 2, 2, 2, 0 }, { 1, 4, 2, 0 }, { 2, 2, 4, 0 }, { 4, 2, 2, 1 }, { 1, 8, 8, 0 } };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        p3_config cf = { runs[k][0], runs[k][1], runs[k][2], 3, 5, false, false, (p3_order)runs[k][3] };
        int R = cf.d * cf.t * cf.p;
        pw_cluster_config cc = pw_cluster_defaults(R);
        cc.device_gflops = 1;   /* slow devices: compute of the order of the messages */
        p3_job job = { 2 * cf.p, 8, 24, 3, cf, true, NULL, NULL, NULL, NULL, NULL, P3_FAULT_NONE };
        double run = composed(&cf, &cc, &job);
        if (run < 0) {
            printf("FAIL: the checker's composed run failed (a bug in the checker, not in your file)\n");
            return 1;
        }
        p3_cluster c2 = { R / cc.ranks_per_node, cc.ranks_per_node, cc.intra_alpha, cc.intra_gbs, cc.inter_alpha, cc.inter_gbs, 1, 1, 1, 0, 0 };
        p3_work w;
        p3_mlp_work(&job, &w);
        double got = step_time(&w, &c2, &cf, cc.device_gflops * 1e9);
        printf("  composed %dx%dx%d %s, GPipe, m = 5, real data: run %.3f us, yours ", cf.d, cf.t, cf.p,
               p3_order_name(cf.order), run * 1e6);
        if (!close_to(got, run)) {
            printf("%.3f us: wrong\nFAIL: composed %dx%dx%d %s: your formula says %.6g s, the virtual cluster ran %.6g s\n",
                   got * 1e6, cf.d, cf.t, cf.p, p3_order_name(cf.order), got, run);
            explain(&w, &c2, &cf, cc.device_gflops * 1e9, got);
            return 1;
        }
        printf("%.3f us: ok\n", got * 1e6);
    }
    return pw_ex_pass("%d planner configurations and 5 composed runs: your step time is the formula and predicts the cluster", n);
}
