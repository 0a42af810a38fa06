/* chapters/13-3d-parallelism/planner.c: which data x tensor x pipeline
 * split should a large model use on a given cluster?
 *
 *   ./build/ch13/planner                        GPT-3 175B on 128 nodes of 8 (1024 devices)
 *   ./build/ch13/planner --model llama2-70b     Llama-2-70B
 *   ./build/ch13/planner --nodes 16 --layers 48 --hidden 6144 --heads 48   a model of your own
 *
 * 1. Every d x t x p (t divides the heads, p the layers, d the batch) with
 *    micro-batches of b = 1, 2, 4, 8 sequences (m = B / (d b) per replica),
 *    ZeRO-1 off and on, full recomputation off and on, is tried; those whose
 *    memory (kernels/parallel3d.c, p3_memory_of) fits the device are ranked
 *    by modelled step time (p3_time_model, the formula chapters/
 *    13-3d-parallelism/validate.c checks against the composed run), and the
 *    best few printed with their time split and MFU.
 * 2. The wrong mapping: the best configuration with ranks placed pipeline
 *    first (tensor groups across nodes) against Megatron's tensor first.
 * 3. ZeRO's anchor: the paper's 7.5B-parameter example, 16 bytes/param.
 *
 * MFU: 6 P tokens / (step x devices x peak) (Chowdhery et al. 2022, without
 * their attention term): recomputation's extra forward is work the model
 * did not need, so it lowers MFU.
 * Bad input (a size of 0, heads not dividing hidden, a model that fits
 * nowhere): one line, exit 2.
 * CSV: quantity rows "step_s", "mfu", "memory_gb" per plan (param d.t.p.b.z.r,
 * n = devices, threads = its rank in the list); "wrong_step_s".
 */
#include "options.h"
#include "parallel3d.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXTOP 64

static void plan_name(const p3_plan *pl, char *buf, size_t len)
{
    snprintf(buf, len, "d%d.t%d.p%d.b%d.%s.%s", pl->cf.d, pl->cf.t, pl->cf.p, pl->cf.b, pl->cf.zero1 ? "zero1" : "nozero",
             pl->cf.recompute ? "recomp" : "norecomp");
}

static void print_header(void)
{
    printf("%4s %4s %4s %3s %5s %5s %6s %8s | %9s %8s %8s %8s %8s %8s | %5s\n", "d", "t", "p", "b", "m", "zero1", "recomp",
           "mem GB", "step s", "compute", "TP", "PP", "DP", "bubble", "MFU");
}

static void print_plan(const p3_plan *pl)
{
    const p3_time *t = &pl->time;
    printf("%4d %4d %4d %3d %5lld %5s %6s %8.1f | %9.3f %8.3f %8.3f %8.3f %8.3f %8.3f | %4.1f%%\n", pl->cf.d, pl->cf.t,
           pl->cf.p, pl->cf.b, pl->cf.m, pl->cf.zero1 ? "yes" : "no", pl->cf.recompute ? "yes" : "no", pl->mem.total / 1e9,
           t->total, t->compute, t->tp, t->pp, t->dp, t->bubble, 100 * pl->mfu);
}

int main(int argc, char **argv)
{
    const char *model = "gpt3-175b";
    long long layers = -1, hidden = -1, heads = -1, seq = -1, vocab = -1, batch = -1, nodes = 128, per_node = 8, top = 5;
    double peak = 989, eff = 0.6, mem = 80, intra_gbs = 450, inter_gbs = 50, intra_us = 1, inter_us = 5;
    pw_opt opts[] = {
        { NULL, "--model", PW_OPT_STRING, &model, "NAME", "gpt3-175b (default) or llama2-70b; the flags below change its fields", 0, 0 },
        { NULL, "--layers", PW_OPT_INT, &layers, "L", "transformer layers", 1, 100000 },
        { NULL, "--hidden", PW_OPT_INT, &hidden, "H", "hidden size", 1, 1 << 20 },
        { NULL, "--heads", PW_OPT_INT, &heads, "A", "attention heads (divide the hidden size)", 1, 1 << 16 },
        { NULL, "--seq", PW_OPT_INT, &seq, "S", "tokens per sequence", 1, 1 << 24 },
        { NULL, "--vocab", PW_OPT_INT, &vocab, "V", "vocabulary", 1, 1 << 24 },
        { "-B", "--batch", PW_OPT_INT, &batch, "B", "sequences per global batch", 1, 1LL << 32 },
        { NULL, "--nodes", PW_OPT_INT, &nodes, "N", "nodes (default 128)", 1, 1 << 20 },
        { NULL, "--per-node", PW_OPT_INT, &per_node, "G", "devices per node (default 8)", 1, 1024 },
        { NULL, "--peak-tflops", PW_OPT_DOUBLE, &peak, "T", "device peak, dense 16-bit (default 989: H100 SXM)", 0, 1e9 },
        { NULL, "--matmul-eff", PW_OPT_DOUBLE, &eff, "E", "share of peak the matmuls sustain (default 0.6, an assumption)", 0, 1 },
        { NULL, "--mem-gb", PW_OPT_DOUBLE, &mem, "GB", "device memory (default 80)", 0, 1e9 },
        { NULL, "--intra-gbs", PW_OPT_DOUBLE, &intra_gbs, "GB/S", "NVLink per direction (default 450)", 0, 1e9 },
        { NULL, "--inter-gbs", PW_OPT_DOUBLE, &inter_gbs, "GB/S", "network per device per direction (default 50)", 0, 1e9 },
        { NULL, "--intra-alpha", PW_OPT_DOUBLE, &intra_us, "US", "NVLink latency (default 1)", 0, 1e9 },
        { NULL, "--inter-alpha", PW_OPT_DOUBLE, &inter_us, "US", "network latency (default 5)", 0, 1e9 },
        { NULL, "--top", PW_OPT_INT, &top, "K", "plans to print (default 5)", 1, MAXTOP },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the best data x tensor x pipeline split of a transformer on a modelled cluster", opts,
                     (int)(sizeof opts / sizeof opts[0]), &common);
    p3_model md;
    if (!strcmp(model, "gpt3-175b")) md = p3_gpt3_175b();
    else if (!strcmp(model, "llama2-70b")) md = p3_llama2_70b();
    else {
        fprintf(stderr, "%s: --model: unknown model '%s' (gpt3-175b or llama2-70b)\n", common.prog, model);
        return PW_EXIT_USAGE;
    }
    if (layers > 0) md.layers = (int)layers;
    if (hidden > 0) md.hidden = (int)hidden;
    if (heads > 0) md.heads = (int)heads;
    if (seq > 0) md.seq = (int)seq;
    if (vocab > 0) md.vocab = (int)vocab;
    if (batch > 0) md.batch = batch;
    if (layers > 0 || hidden > 0 || heads > 0 || seq > 0 || vocab > 0 || batch > 0) md.name = "custom";
    p3_cluster cl = { (int)nodes, (int)per_node, intra_us * 1e-6, intra_gbs, inter_us * 1e-6, inter_gbs, peak, eff, mem };
    char why[256];
    if (p3_model_check(&md, why, sizeof why) || p3_cluster_check(&cl, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", common.prog, why);
        return PW_EXIT_USAGE;
    }
    int N = cl.nodes * cl.per_node;
    double P = p3_params(&md);
    p3_plan plans[MAXTOP];
    int fit = p3_plan_all(&md, &cl, P3_ORDER_TDP, plans, (int)top);
    if (fit == 0) {
        fprintf(stderr, "%s: %s (%.1fB parameters, %.0f GB of model state at 16 bytes/param) fits nowhere on %d devices of %g GB\n",
                common.prog, md.name, P / 1e9, 16 * P / 1e9, N, mem);
        return PW_EXIT_USAGE;
    }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    printf("%s: %d layers, h %d, %d heads, s %d, V %d, batch %lld sequences (%.2fM tokens): %.1fB parameters\n", md.name,
           md.layers, md.hidden, md.heads, md.seq, md.vocab, md.batch, md.batch * (double)md.seq / 1e6, P / 1e9);
    printf("cluster: %d nodes x %d devices = %d; NVLink %g GB/s %g us, network %g GB/s %g us;\n"
           "device %g TFLOP/s peak, matmuls at %.0f%% of it, %g GB\n", cl.nodes, cl.per_node, N, intra_gbs, intra_us,
           inter_gbs, inter_us, peak, 100 * eff, mem);
    printf("model states: 16 bytes/param unsharded = %.0f GB (%.1f devices' memory for the states alone)\n\n", 16 * P / 1e9,
           16 * P / (mem * 1e9));
    printf("%d configurations fit (d x t x p x b, ZeRO-1 off/on, recomputation off/on); the fastest %d\n"
           "(ranks tensor-first, then data, then pipeline; times in seconds per step):\n\n", fit, fit < top ? fit : (int)top);
    print_header();
    int shown = fit < top ? fit : (int)top;
    for (int i = 0; i < shown; i++) {
        print_plan(&plans[i]);
        char name[96];
        plan_name(&plans[i], name, sizeof name);
        pw_csv_quantity(csv, "step_s", N, i + 1, name, plans[i].time.total);
        pw_csv_quantity(csv, "mfu", N, i + 1, name, plans[i].mfu);
        pw_csv_quantity(csv, "memory_gb", N, i + 1, name, plans[i].mem.total / 1e9);
    }
    const p3_plan *best = &plans[0];
    printf("\nbest mapping for %s on %d devices: d %d x t %d x p %d, micro-batch %d (m = %lld), ZeRO-1 %s, recomputation %s:\n"
           "  step %.2f s, %.1f GB a device, MFU %.1f%% (%.0f TFLOP/s of model flops a device)\n", md.name, N, best->cf.d,
           best->cf.t, best->cf.p, best->cf.b, best->cf.m, best->cf.zero1 ? "on" : "off", best->cf.recompute ? "on" : "off",
           best->time.total, best->mem.total / 1e9, 100 * best->mfu, best->mfu * peak);
    printf("  where the time goes: compute %.0f%%, TP %.0f%%, PP %.0f%%, DP %.0f%%, bubble %.0f%%\n",
           100 * best->time.compute / best->time.total, 100 * best->time.tp / best->time.total,
           100 * best->time.pp / best->time.total, 100 * best->time.dp / best->time.total,
           100 * best->time.bubble / best->time.total);

    /* 2. the wrong mapping: the same split, placed pipeline-first */
    p3_config wrong_cf = best->cf;
    wrong_cf.order = P3_ORDER_PDT;
    p3_plan wrong;
    p3_plan_one(&md, &cl, &wrong_cf, &wrong);
    printf("\nThe same split placed pipeline-first (rank = (tt d + dd) p + pp): tensor groups %s nodes, pipeline hops %s\n",
           p3_group_crosses(&wrong_cf, cl.per_node, 't') ? "across" : "inside",
           p3_group_crosses(&wrong_cf, cl.per_node, 'p') ? "across nodes" : "inside a node");
    print_header();
    print_plan(best);
    print_plan(&wrong);
    printf("wrong mapping: %.2fx slower (TP %.3f s instead of %.3f s: each of its all-reduces now crosses the %g GB/s network)\n",
           wrong.time.total / best->time.total, wrong.time.tp, best->time.tp, inter_gbs);
    pw_csv_quantity(csv, "wrong_step_s", N, 0, "pp-dp-tp", wrong.time.total);
    pw_csv_quantity(csv, "right_step_s", N, 0, "tp-dp-pp", best->time.total);

    /* 3. ZeRO's anchor: Rajbhandari et al. 2020, figure 1: 7.5B parameters, 64 replicas */
    double zp = 7.5e9;
    printf("\nZeRO's arithmetic (Rajbhandari et al. 2020, fig. 1: 7.5B parameters, mixed-precision Adam, 64 replicas):\n"
           "  unsharded 16 bytes/param = %.1f GB; ZeRO-1 (optimizer state over 64) 4 + 12/64 bytes/param = %.1f GB\n",
           zp * p3_state_bytes_per_param(false, 64) / 1e9, zp * p3_state_bytes_per_param(true, 64) / 1e9);

    /* The answer to the question asked before the run, from this run's
     * numbers: devices for the states alone (16 bytes a parameter, rounded
     * up to whole devices), the best plan's t against a node's size, its MFU. */
    double states_gb = 16 * P / 1e9;
    int state_devices = (int)ceil(states_gb / mem);
    printf("\nanswer: the model state alone, %.0f GB, needs %d devices of %g GB; the best plan on %d devices uses t = %d\n"
           "  (%s), and reaches MFU %.1f%%\n",
           states_gb, state_devices, mem, N, best->cf.t,
           best->cf.t == cl.per_node ? "exactly a node: every tensor all-reduce stays on NVLink"
           : best->cf.t < cl.per_node ? "less than a node: its tensor groups stay on NVLink"
                                      : "more than a node: its tensor groups cross the network",
           100 * best->mfu);
    return pw_csv_close(csv);
}
