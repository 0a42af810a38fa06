/* chapters/13-3d-parallelism/planner.c: which data x tensor x pipeline
 * split should a large model use on a given cluster?
 *
 *   ./build/ch13/planner                        GPT-3 175B on 128 DGX H100 nodes (1024 devices)
 *   ./build/ch13/planner --model llama2-70b     Llama-2-70B
 *   ./build/ch13/planner --nodes 16 --layers 48 --hidden 6144 --heads 48   a model of your own
 *   ./build/ch13/planner --device a100-80gb --tp 8 --pp 8 --recompute full --explain
 *                                               "what does my config give", term by term
 *   ./build/ch13/planner --device ./my.gpu --mem-gb 96 --intra-gbs 450 --inter-gbs 50 --matmul-eff 0.75
 *                                               a chip of your own (a device file; the node from flags)
 *
 * 1. Every d x t x p (t divides the heads, p at most the layers: stages may
 *    differ by one layer), micro-batches of b = 1, 2, 4, 8 sequences
 *    (m = B / (d b) per replica), 1, 2 or 4 model chunks a device
 *    (interleaved 1F1B), recomputation none/selective/full, sequence
 *    parallelism off/on and ZeRO-1 off/on is tried, unless pinned by a flag;
 *    those whose memory (the heaviest stage, kernels/plan3d.c) fits the
 *    device are ranked by the full model's step time (p3_step_full) and the
 *    best few printed with their time split and MFU. Each choice is named as
 *    pinned or searched.
 * 2. The wrong mapping: the best configuration with ranks placed pipeline
 *    first (tensor groups across nodes) against Megatron's tensor first.
 * 3. ZeRO's anchor: the paper's 7.5B-parameter example, 16 bytes/param.
 *
 * MFU: PaLM's (Chowdhery et al. 2022, appendix B): (6 N + 12 L h s) flops a
 * token, N the parameters without the embeddings, over the step x devices x
 * peak; HFU counts the recomputed flops too. Everything is modelled.
 * Bad input (a size of 0, heads not dividing hidden, a pin that breaks a
 * constraint, a model that fits nowhere): one line, exit 2.
 * CSV: quantity rows "step_s", "mfu", "hfu", "memory_gb", "tflops_per_gpu"
 * (Megatron-LM 2021's count of flops a GPU a second) per plan (param
 * d.t.p.b.v.recompute.sp.zero, n = devices, threads = its rank in the
 * list); "wrong_step_s", "right_step_s".
 */
#include "options.h"
#include "parallel3d.h"
#include "plan3d.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXTOP 64

static const char *recompute_name(const p3_plan *pl)
{
    return pl->cf.recompute ? "full" : pl->ch.selective ? "selective" : "none";
}
static int zero_of(const p3_plan *pl) { return pl->ch.zero ? pl->ch.zero : pl->cf.zero1; }
static bool sp_of(const p3_plan *pl) { return !pl->ch.no_sp && pl->cf.t > 1; }
static int v_of(const p3_plan *pl) { return pl->ch.v > 1 ? pl->ch.v : 1; }

static void plan_name(const p3_plan *pl, char *buf, size_t len)
{
    snprintf(buf, len, "d%d.t%d.p%d.b%d.v%d.%s.%s.z%d", pl->cf.d, pl->cf.t, pl->cf.p, pl->cf.b, v_of(pl),
             recompute_name(pl), sp_of(pl) ? "sp" : "nosp", zero_of(pl));
}

static void print_header(void)
{
    printf("%4s %3s %4s %3s %2s %5s %9s %3s %4s %7s | %8s %8s %7s %7s %7s %7s | %5s %5s\n", "d", "t", "p", "b", "v", "m",
           "recompute", "SP", "ZeRO", "mem GB", "step s", "compute", "TP", "PP", "DP", "bubble", "MFU", "HFU");
}

static void print_plan(const p3_plan *pl)
{
    const p3_time *t = &pl->time;
    printf("%4d %3d %4d %3d %2d %5lld %9s %3s %4d %7.1f | %8.3f %8.3f %7.3f %7.3f %7.3f %7.3f | %4.1f%% %4.1f%%\n",
           pl->cf.d, pl->cf.t, pl->cf.p, pl->cf.b, v_of(pl), pl->cf.m, recompute_name(pl), sp_of(pl) ? "on" : "off",
           zero_of(pl), pl->mem.total / 1e9, t->total, t->compute, t->tp, t->pp, t->dp, t->bubble, 100 * pl->mfu,
           100 * pl->hfu);
}

/* --explain: one plan's step and memory, term by term. */
static void explain(const p3_model *md, const p3_cluster *cl, const p3_plan *pl)
{
    const p3_step *s = &pl->step;
    const p3_memory *m = &pl->mem;
    printf("\nexplain (modelled): d %d x t %d x p %d, micro-batch %d, m = %lld, v = %d; stages of %d-%d layers "
           "(the slowest: stage %d)\n", pl->cf.d, pl->cf.t, pl->cf.p, pl->cf.b, pl->cf.m, v_of(pl), s->layers_min,
           s->layers_max, s->slowest_stage);
    printf("  step %.3f s =\n", s->total);
    printf("    %8.3f s  matmuls of the slowest stage, m x (forward, backward%s), shape by shape\n", s->gemm,
           pl->cf.recompute ? ", recomputed forward" : pl->ch.selective ? ", recomputed attention" : "");
    printf("    %8.3f s  memory-bound operations (norms, softmax, dropout, GeLU, residual adds) at %g GB/s\n", s->memops,
           cl->dram_gbs);
    printf("    %8.3f s  output layer (logits and loss) on the last stage%s\n", s->logits,
           s->slowest_stage == pl->cf.p - 1 ? "" : " (not the slowest stage: 0 here)");
    printf("    %8.3f s  tensor-parallel all-reduces (%s)\n", s->tp,
           pl->cf.t == 1 ? "t = 1: none" : p3_group_crosses(&pl->cf, cl->per_node, 't') ? "across nodes" : "on NVLink");
    printf("    %8.3f s  pipeline messages on the critical path%s\n", s->pp,
           pl->cf.p > 1 && p3_group_crosses(&pl->cf, cl->per_node, 'p') ? " (some hops cross nodes)" : "");
    printf("    %8.3f s  bubble: (sum of the stages' times - the slowest) / v\n", s->bubble);
    printf("    %8.3f s  gradient reduce over d = %d exposed (%.3f s in all%s)\n", s->dp_exposed, pl->cf.d, s->dp,
           pl->ch.overlap_dp ? ", overlapped with the last backward" : ", not overlapped");
    printf("    %8.3f s  Adam's update (28 bytes a parameter through memory)\n", s->optimizer);
    printf("  memory of the heaviest stage, %.1f GB of %g: weights %.1f, gradients %.1f, optimizer %.1f, activations %.1f\n",
           m->total / 1e9, cl->mem_gb, m->weights / 1e9, m->grads / 1e9, m->optimizer / 1e9, m->activations / 1e9);
    printf("  MFU %.1f%% (PaLM: model flops only), HFU %.1f%% (with what recomputation repeats); Megatron-LM 2021's\n"
           "  count gives %.1f TFLOP/s a GPU\n", 100 * pl->mfu, 100 * pl->hfu, pl->tflops_sc21);
    (void)md;
}

/* Parses "none|selective|full" and "on|off" pins. */
static int parse_choice(const char *prog, const char *flag, const char *value, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(value, names[i])) return i;
    fprintf(stderr, "%s: %s %s: not one of", prog, flag, value);
    for (int i = 0; i < n; i++) fprintf(stderr, " %s", names[i]);
    fprintf(stderr, "\n");
    exit(PW_EXIT_USAGE);
}

static void choice_line(const char *what, int pinned_value, const char *value)
{
    printf("  %-22s %-10s %s\n", what, value, pinned_value != P3_FREE ? "(pinned)" : "(searched)");
}

int main(int argc, char **argv)
{
    const char *model = "gpt3-175b", *device = "h100-sxm", *recompute = NULL, *sp = NULL, *overlap = NULL;
    long long layers = -1, hidden = -1, heads = -1, seq = -1, vocab = -1, batch = -1, nodes = 128, per_node = 8, top = 5;
    long long tp = -1, pp = -1, dp = -1, mb = -1, vs = -1, zero = -1;
    double peak = -1, eff = -1, mem = -1, intra_gbs = -1, inter_gbs = -1, intra_us = -1, inter_us = -1, dram = -1;
    bool want_explain = false;
    pw_opt opts[] = {
        { NULL, "--model", PW_OPT_STRING, &model, "NAME", "gpt3-175b (default) or llama2-70b; the flags below change its fields", 0, 0 },
        { NULL, "--layers", PW_OPT_INT, &layers, "L", "transformer layers", 1, 100000 },
        { NULL, "--hidden", PW_OPT_INT, &hidden, "H", "hidden size", 1, 1 << 20 },
        { NULL, "--heads", PW_OPT_INT, &heads, "A", "attention heads (divide the hidden size)", 1, 1 << 16 },
        { NULL, "--seq", PW_OPT_INT, &seq, "S", "tokens per sequence", 1, 1 << 24 },
        { NULL, "--vocab", PW_OPT_INT, &vocab, "V", "vocabulary", 1, 1 << 24 },
        { "-B", "--batch", PW_OPT_INT, &batch, "B", "sequences per global batch", 1, 1LL << 32 },
        { NULL, "--device", PW_OPT_STRING, &device, "NAME|FILE",
          "a100-80gb, h100-sxm (default) or h200-sxm, with its node's links; or a device file (common/gpus/ format), "
          "with --mem-gb, --intra-gbs, --inter-gbs and --matmul-eff", 0, 0 },
        { NULL, "--nodes", PW_OPT_INT, &nodes, "N", "nodes (default 128)", 1, 1 << 20 },
        { NULL, "--per-node", PW_OPT_INT, &per_node, "G", "devices per node (default 8)", 1, 1024 },
        { NULL, "--tp", PW_OPT_INT, &tp, "T", "pin the tensor-parallel degree", 1, 1 << 16 },
        { NULL, "--pp", PW_OPT_INT, &pp, "P", "pin the pipeline stages (need not divide the layers)", 1, 100000 },
        { NULL, "--dp", PW_OPT_INT, &dp, "D", "pin the data-parallel degree (d t p = devices)", 1, 1 << 24 },
        { NULL, "--micro-batch", PW_OPT_INT, &mb, "B", "pin the sequences per micro-batch", 1, 1 << 20 },
        { NULL, "--virtual-stages", PW_OPT_INT, &vs, "V", "pin the model chunks a device (interleaved 1F1B; 1: plain)", 1, 64 },
        { NULL, "--recompute", PW_OPT_STRING, &recompute, "HOW", "pin recomputation: none, selective or full", 0, 0 },
        { NULL, "--sequence-parallel", PW_OPT_STRING, &sp, "ON", "pin sequence parallelism: on or off", 0, 0 },
        { NULL, "--zero", PW_OPT_INT, &zero, "Z", "pin the ZeRO stage, 0-3 (searched: 0 or 1)", 0, 3 },
        { NULL, "--overlap-grad-reduce", PW_OPT_STRING, &overlap, "ON", "pin the gradient reduce overlapped: on or off", 0, 0 },
        { NULL, "--explain", PW_OPT_FLAG, &want_explain, NULL, "the best plan's step and memory, term by term", 0, 0 },
        { NULL, "--peak-tflops", PW_OPT_DOUBLE, &peak, "T", "override the device's dense 16-bit peak", 0, 1e9 },
        { NULL, "--matmul-eff", PW_OPT_DOUBLE, &eff, "E", "override the share of peak the largest matmuls reach (MAMF)", 0, 1 },
        { NULL, "--mem-gb", PW_OPT_DOUBLE, &mem, "GB", "override the device memory", 0, 1e9 },
        { NULL, "--dram-gbs", PW_OPT_DOUBLE, &dram, "GB/S", "override the memory bandwidth (0: memory-bound work free)", 0, 1e9 },
        { NULL, "--intra-gbs", PW_OPT_DOUBLE, &intra_gbs, "GB/S", "override NVLink per direction", 0, 1e9 },
        { NULL, "--inter-gbs", PW_OPT_DOUBLE, &inter_gbs, "GB/S", "override the network per device per direction", 0, 1e9 },
        { NULL, "--intra-alpha", PW_OPT_DOUBLE, &intra_us, "US", "override NVLink latency", 0, 1e9 },
        { NULL, "--inter-alpha", PW_OPT_DOUBLE, &inter_us, "US", "override network latency", 0, 1e9 },
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
    p3_cluster cl;
    const char *label = NULL;
    char why[256];
    if (p3_device_cluster(device, (int)nodes, &cl, &label, why, sizeof why)) {
        fprintf(stderr, "%s: --device: %s\n", common.prog, why);
        return PW_EXIT_USAGE;
    }
    cl.per_node = (int)per_node;
    if (peak >= 0) cl.peak_tflops = peak;
    if (eff >= 0) cl.matmul_eff = eff;
    if (mem >= 0) cl.mem_gb = mem;
    if (dram >= 0) cl.dram_gbs = dram;
    if (intra_gbs >= 0) cl.intra_gbs = intra_gbs;
    if (inter_gbs >= 0) cl.inter_gbs = inter_gbs;
    if (intra_us >= 0) cl.intra_alpha = intra_us * 1e-6;
    if (inter_us >= 0) cl.inter_alpha = inter_us * 1e-6;
    /* A device file gives the chip only: what it lacks must come from the flags. */
    char lacks[128] = "";
    if (!(cl.mem_gb > 0)) strcat(lacks, " --mem-gb");
    if (!(cl.intra_gbs > 0)) strcat(lacks, " --intra-gbs");
    if (!(cl.inter_gbs > 0)) strcat(lacks, " --inter-gbs");
    if (!(cl.matmul_eff > 0)) strcat(lacks, " --matmul-eff");
    if (lacks[0]) {
        fprintf(stderr, "%s: --device %s: a device file has no node links, memory size or measured matmul rate; give%s\n",
                common.prog, device, lacks);
        return PW_EXIT_USAGE;
    }
    if (peak >= 0 || eff >= 0 || mem >= 0 || dram >= 0 || intra_gbs >= 0 || inter_gbs >= 0 || intra_us >= 0 ||
        inter_us >= 0 || per_node != 8)
        label = "with the figures overridden by flags (below)";
    if (p3_model_check(&md, why, sizeof why) || p3_cluster_check(&cl, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", common.prog, why);
        return PW_EXIT_USAGE;
    }
    static const char *const rc_names[] = { "none", "selective", "full" }, *const onoff[] = { "off", "on" };
    p3_pins pins = p3_pins_free();
    pins.t = (int)tp; pins.p = (int)pp; pins.d = (int)dp; pins.b = (int)mb; pins.v = (int)vs; pins.zero = (int)zero;
    if (recompute) pins.recompute = parse_choice(common.prog, "--recompute", recompute, rc_names, 3);
    if (sp) pins.sp = parse_choice(common.prog, "--sequence-parallel", sp, onoff, 2);
    if (overlap) pins.overlap_dp = parse_choice(common.prog, "--overlap-grad-reduce", overlap, onoff, 2);
    if (p3_pins_check(&md, &cl, &pins, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", common.prog, why);
        return PW_EXIT_USAGE;
    }
    int N = cl.nodes * cl.per_node;
    double P = p3_params(&md);
    p3_plan plans[MAXTOP];
    int fit = p3_plan_search(&md, &cl, &pins, plans, (int)top);
    if (fit == 0) {
        bool pinned = pins.t > 0 || pins.p > 0 || pins.d > 0 || pins.b > 0 || pins.v > 0 || pins.recompute >= 0 ||
                      pins.sp >= 0 || pins.zero >= 0 || pins.overlap_dp >= 0;
        if (pinned && pins.t > 0 && pins.p > 0 && pins.b > 0) {   /* say by how much the pinned plan misses */
            p3_pins full = pins;
            if (full.v < 0) full.v = 1;
            if (full.recompute < 0) full.recompute = 0;
            if (full.sp < 0) full.sp = 0;
            if (full.zero < 0) full.zero = 0;
            if (full.overlap_dp < 0) full.overlap_dp = 0;
            p3_config cf;
            p3_choices ch;
            p3_plan one;
            if (p3_pins_config(&md, &cl, &full, &cf, &ch) == 0) {
                p3_plan_with(&md, &cl, &cf, &ch, &one);
                fprintf(stderr, "%s: the pinned plan needs %.1f GB a device, over the device's %g GB (and so does every "
                        "choice left to search)\n", common.prog, one.mem.total / 1e9, cl.mem_gb);
                return PW_EXIT_USAGE;
            }
        }
        fprintf(stderr, "%s: %s (%.1fB parameters, %.0f GB of model state at 16 bytes/param) fits nowhere on %d devices "
                "of %g GB%s\n", common.prog, md.name, P / 1e9, 16 * P / 1e9, N, cl.mem_gb,
                pinned ? " with the choices pinned" : "");
        return PW_EXIT_USAGE;
    }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    printf("%s: %d layers, h %d, %d heads, s %d, V %d, batch %lld sequences (%.2fM tokens): %.1fB parameters\n", md.name,
           md.layers, md.hidden, md.heads, md.seq, md.vocab, md.batch, md.batch * (double)md.seq / 1e6, P / 1e9);
    printf("cluster: %d nodes x %d devices = %d (%s);\n  NVLink %g GB/s %g us, network %g GB/s %g us a device;\n"
           "  device %g TFLOP/s dense 16-bit peak, the largest matmuls at %.1f%% of it (measured MAMF), memory %g GB/s,\n"
           "  %d SMs, %g GB (modelled: every time below is the model's)\n", cl.nodes, cl.per_node, N, label,
           cl.intra_gbs, cl.intra_alpha * 1e6, cl.inter_gbs, cl.inter_alpha * 1e6, cl.peak_tflops, 100 * cl.matmul_eff,
           cl.dram_gbs, cl.sms, cl.mem_gb);
    printf("model states: 16 bytes/param unsharded = %.0f GB (%.1f devices' memory for the states alone)\n\n", 16 * P / 1e9,
           16 * P / (cl.mem_gb * 1e9));
    printf("%d configurations fit (d x t x p x b x v, recomputation none/selective/full, SP off/on, ZeRO-1 off/on,\n"
           "less what is pinned); the fastest %d (ranks tensor-first, then data, then pipeline; seconds a step):\n\n",
           fit, fit < top ? fit : (int)top);
    print_header();
    int shown = fit < top ? fit : (int)top;
    for (int i = 0; i < shown; i++) {
        print_plan(&plans[i]);
        char name[96];
        plan_name(&plans[i], name, sizeof name);
        pw_csv_quantity(csv, "step_s", N, i + 1, name, plans[i].time.total);
        pw_csv_quantity(csv, "mfu", N, i + 1, name, plans[i].mfu);
        pw_csv_quantity(csv, "memory_gb", N, i + 1, name, plans[i].mem.total / 1e9);
        pw_csv_quantity(csv, "hfu", N, i + 1, name, plans[i].hfu);
        pw_csv_quantity(csv, "tflops_per_gpu", N, i + 1, name, plans[i].tflops_sc21);
    }
    const p3_plan *best = &plans[0];
    printf("\nbest mapping for %s on %d devices:\n", md.name, N);
    char val[32];
    snprintf(val, sizeof val, "%d", best->cf.t); choice_line("tensor parallel t", pins.t, val);
    snprintf(val, sizeof val, "%d", best->cf.p); choice_line("pipeline stages p", pins.p, val);
    snprintf(val, sizeof val, "%d", best->cf.d); choice_line("data parallel d", pins.d, val);
    snprintf(val, sizeof val, "%d", best->cf.b); choice_line("micro-batch b", pins.b, val);
    snprintf(val, sizeof val, "%d", v_of(best)); choice_line("model chunks v", pins.v, val);
    choice_line("recomputation", pins.recompute, recompute_name(best));
    choice_line("sequence parallel", pins.sp, sp_of(best) ? "on" : "off");
    snprintf(val, sizeof val, "%d", zero_of(best)); choice_line("ZeRO stage", pins.zero, val);
    choice_line("overlapped DP reduce", pins.overlap_dp, best->ch.overlap_dp ? "on" : "off");
    printf("  step %.2f s (m = %lld micro-batches, stages of %d-%d layers), %.1f GB a device, MFU %.1f%%, HFU %.1f%%\n"
           "  (%.0f TFLOP/s of model flops a device)\n", best->time.total, best->cf.m, best->step.layers_min,
           best->step.layers_max, best->mem.total / 1e9, 100 * best->mfu, 100 * best->hfu, best->mfu * cl.peak_tflops);
    printf("  where the time goes: compute %.0f%%, TP %.0f%%, PP %.0f%%, DP %.0f%%, bubble %.0f%%\n",
           100 * best->time.compute / best->time.total, 100 * best->time.tp / best->time.total,
           100 * best->time.pp / best->time.total, 100 * best->time.dp / best->time.total,
           100 * best->time.bubble / best->time.total);

    /* 2. the wrong mapping: the same split, placed pipeline-first */
    p3_config wrong_cf = best->cf;
    wrong_cf.order = P3_ORDER_PDT;
    p3_plan wrong;
    p3_plan_with(&md, &cl, &wrong_cf, &best->ch, &wrong);
    printf("\nThe same split placed pipeline-first (rank = (tt d + dd) p + pp): tensor groups %s nodes, pipeline hops %s\n",
           p3_group_crosses(&wrong_cf, cl.per_node, 't') ? "across" : "inside",
           p3_group_crosses(&wrong_cf, cl.per_node, 'p') ? "across nodes" : "inside a node");
    print_header();
    printf("tensor-first, rank = (pp d + dd) t + tt (Megatron's):\n");
    print_plan(best);
    printf("pipeline-first, rank = (tt d + dd) p + pp (the same d, t, p):\n");
    print_plan(&wrong);
    if (best->cf.t == 1)
        printf("wrong mapping: %.2fx (t = 1: no tensor groups to misplace; only the pipeline's and the replicas'\n"
               "  neighbours move)\n", wrong.time.total / best->time.total);
    else if (!p3_group_crosses(&wrong_cf, cl.per_node, 't'))
        printf("wrong mapping: %.2fx (its tensor groups still fit in a node here)\n", wrong.time.total / best->time.total);
    else
        printf("wrong mapping: %.2fx slower (TP %.3f s instead of %.3f s: each of its all-reduces now crosses the %g GB/s "
               "network)\n", wrong.time.total / best->time.total, wrong.time.tp, best->time.tp, cl.inter_gbs);
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
    int state_devices = (int)ceil(states_gb / cl.mem_gb);
    printf("\nanswer: the model state alone, %.0f GB, needs %d devices of %g GB; the best plan on %d devices uses t = %d\n"
           "  (%s), and reaches MFU %.1f%%\n",
           states_gb, state_devices, cl.mem_gb, N, best->cf.t,
           best->cf.t == cl.per_node ? "exactly a node: every tensor all-reduce stays on NVLink"
           : best->cf.t < cl.per_node ? "less than a node: its tensor groups stay on NVLink"
                                      : "more than a node: its tensor groups cross the network",
           100 * best->mfu);
    if (want_explain) explain(&md, &cl, best);
    return pw_csv_close(csv);
}
