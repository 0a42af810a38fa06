/* chapters/13-3d-parallelism/scaling.c: more devices, same global batch:
 * where does the step stop getting faster, and where does it get slower?
 *
 *   ./build/ch13/scaling                   GPT-3 XL (1.3B), batch 512 and 4 x 512, 8 .. 131072 devices
 *   ./build/ch13/scaling --max-devices 4096   a shorter sweep
 *
 * The model: GPT-3 XL (Brown et al. 2020, table 2.1: 24 layers, d_model
 * 2048, 16 heads, batch 1M tokens = 512 sequences of 2048), on the
 * planner's default device (H100 SXM nodes, kernels/plan3d.c). A 175B model
 * shows the same curve at larger device counts.
 *
 * For each device count N (powers of two, nodes of 8) the planner
 * (kernels/parallel3d.c, p3_plan_all) picks the fastest configuration that
 * fits; its modelled step is the point. Strong scaling: the global batch is
 * fixed, so past some N the replicas run out of micro-batches (m small: the
 * bubble (p - 1)/(m + p - 1) grows), tensor groups grow past a node, and
 * the DP ring's latency term 2 (d - 1) alpha grows with d; the step time
 * has a minimum and then rises. A 4x larger batch (Gustafson: scale the
 * problem with the machine) moves that point to more devices.
 * The sweep goes through common/scaling.h: speedup against one ideal device
 * (the step's model flops 6 P tokens at the sustained rate, a device
 * without a memory limit: the baseline no real device can run),
 * efficiency, Karp-Flatt and the Amdahl fit (plots/speedup.gp).
 *
 * CSV: modelled rows per point (variant b512, b2048; threads = N; value =
 * the modelled step in seconds, no median or spread) and the amdahl lines; metadata fastest_small,
 * fastest_big (the N of the fastest step) and slower_after_small, _big (the
 * N after which adding devices first made the step slower, 0 if never).
 */
#include "options.h"
#include "parallel3d.h"
#include "plan3d.h"
#include "results.h"
#include "scaling.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One strong-scaling sweep; returns the first N whose step is slower than
 * the one before (0 if none), and the fastest N in *fastest. */
static long long sweep(pw_csv *csv, const char *variant, const p3_model *md, long long max_n, long long *fastest)
{
    p3_cluster cl;
    char err[256];
    if (p3_device_cluster("h100-sxm", 1, &cl, NULL, err, sizeof err)) {   /* the planner's default device */
        fprintf(stderr, "scaling: %s\n", err);
        exit(PW_EXIT_USAGE);
    }
    double rate = cl.peak_tflops * 1e12 * cl.matmul_eff;
    double tokens = (double)md->batch * md->seq, model_flops = 6 * p3_params(md) * tokens;
    pw_scaling_point pts[PW_MAX_LIST];
    p3_plan best[PW_MAX_LIST];
    int n = 0;
    for (long long N = 8; N <= max_n && n < PW_MAX_LIST; N *= 2) {
        cl.nodes = (int)(N / cl.per_node);
        p3_plan pl;
        if (p3_plan_all(md, &cl, P3_ORDER_TDP, &pl, 1) == 0) continue;   /* fits nowhere yet */
        best[n] = pl;
        memset(&pts[n], 0, sizeof pts[n]);
        pts[n].threads = (int)N;
        pw_bench_stats *st = &pts[n].st;
        st->reps = 1;
        st->inner = 1;
        st->cold = st->median = st->min = st->max = st->mean = st->q1 = st->q3 = st->samples[0] = pl.time.total;
        n++;
    }
    printf("\n%s, batch %lld sequences: the fastest plan that fits at each device count\n", md->name, md->batch);
    printf("%8s %5s %4s %4s %3s %6s %9s %6s\n", "devices", "d", "t", "p", "b", "m", "step s", "MFU");
    long long slower = 0;
    *fastest = pts[0].threads;
    double tbest = pts[0].st.median;
    for (int i = 0; i < n; i++) {
        printf("%8d %5d %4d %4d %3d %6lld %9.3f %5.1f%%\n", pts[i].threads, best[i].cf.d, best[i].cf.t, best[i].cf.p,
               best[i].cf.b, best[i].cf.m, pts[i].st.median, 100 * best[i].mfu);
        if (pts[i].st.median < tbest) { tbest = pts[i].st.median; *fastest = pts[i].threads; }
        if (!slower && i > 0 && pts[i].st.median > pts[i - 1].st.median) slower = pts[i].threads;
    }
    printf("\n");
    /* cores: every device is real here, no oversubscription */
    pw_scaling_report_modelled(csv, variant, md->batch, "", "devices", model_flops / rate, pts, n, model_flops, 0,
                               (int)max_n);
    return slower;
}

int main(int argc, char **argv)
{
    long long max_n = -1, factor = 4;
    pw_opt opts[] = {
        { NULL, "--max-devices", PW_OPT_INT, &max_n, "N", "sweep 8, 16, ... up to N devices (default 131072)", 8, 1 << 24 },
        { NULL, "--batch-factor", PW_OPT_INT, &factor, "K", "the second sweep's batch is K times the first (default 4)", 2, 64 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "strong scaling of a 3D-parallel step: where more devices make it slower", opts,
                     (int)(sizeof opts / sizeof opts[0]), &common);
    if (max_n < 0) max_n = 131072;   /* closed forms: the whole sweep takes milliseconds, --tiny too */
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    p3_model md = { "gpt3-1.3b", 24, 2048, 16, 2048, 50257, 512 };
    long long f1, f2;
    char name[32];
    snprintf(name, sizeof name, "b%lld", md.batch);
    long long s1 = sweep(csv, name, &md, max_n, &f1);
    p3_model big = md;
    big.batch *= factor;
    snprintf(name, sizeof name, "b%lld", big.batch);
    long long s2 = sweep(csv, name, &big, max_n, &f2);
    pw_csv_meta(csv, "slower_after_small", "%lld", s1 ? s1 / 2 : 0);
    pw_csv_meta(csv, "slower_after_big", "%lld", s2 ? s2 / 2 : 0);
    pw_csv_meta(csv, "fastest_small", "%lld", f1);
    pw_csv_meta(csv, "fastest_big", "%lld", f2);
    pw_csv_meta(csv, "variants", "b%lld b%lld", md.batch, big.batch);
    printf("\nbatch %lld: the step is fastest at %lld devices; ", md.batch, f1);
    if (s1) printf("going from %lld to %lld devices first makes it slower\n", s1 / 2, s1);
    else printf("it never got slower up to %lld devices\n", max_n);
    printf("batch %lld: fastest at %lld devices; ", big.batch, f2);
    if (s2) printf("going from %lld to %lld devices first makes it slower\n", s2 / 2, s2);
    else printf("it never got slower up to %lld devices\n", max_n);
    if (f2 > f1) printf("the larger batch moves the fastest point from %lld to %lld devices (Gustafson)\n", f1, f2);
    else printf("the larger batch did not move the fastest point in this range (%lld, %lld)\n", f1, f2);
    /* The answer to the question asked before the run, from the two sweeps. */
    printf("\nanswer: batch %lld: ", md.batch);
    if (s1) printf("the step stops getting faster at %lld devices", f1);
    else printf("the step still got faster at %lld devices, the most tried", f1);
    printf("; batch %lld (%lldx): ", big.batch, factor);
    if (s2) printf("at %lld devices\n", f2);
    else printf("still faster at %lld, the most tried\n", f2);
    return pw_csv_close(csv);
}
