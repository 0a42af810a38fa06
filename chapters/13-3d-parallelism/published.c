/* chapters/13-3d-parallelism/published.c: the planner held to published
 * training runs.
 *
 *   ./build/ch13/published                 SC21 Tables 1 and 2 modelled beside the paper (BLOOM-176B: CSV only)
 *   ./build/ch13/published --csv F         quantity rows (paper and model TFLOP/s per GPU, ratio), and the
 *                                          comparison as published-runs.csv beside F, columns
 *                                          source,row,paper_tflops_per_gpu,model_tflops_per_gpu,ratio,...
 *   ./build/ch13/published --published-csv G   that comparison to G instead
 *
 * For each run the paper's own mapping is pinned (d, t, p, micro-batch,
 * recomputation, ZeRO as the paper says) and the full step model
 * (kernels/plan3d.c) predicts the step; its TFLOP/s per GPU are counted by
 * Megatron-LM 2021's formula (SC21 eq. 3), the one the paper's table uses,
 * and printed beside the paper's with the ratio. Then the planner's free
 * choice on the same GPUs and batch, and what it changes.
 *
 * The runs:
 *   sc21-table1: D. Narayanan et al., "Efficient Large-Scale Language Model
 *     Training on GPU Clusters Using Megatron-LM", SC 2021 (arXiv:2104.04473),
 *     Table 1 ("Weak-scaling throughput for GPT models ranging from 1 billion
 *     to 1 trillion parameters"): 10 models on 32 to 3072 A100 80GB GPUs of
 *     Selene, sequence 2048, vocabulary 51200 (section 5.1), activation
 *     recomputation on, micro-batch 1, no sequence parallelism (it came in
 *     2022), no ZeRO (Megatron's distributed optimizer came later).
 *   sc21-table2: the same paper, Table 2 (section 5.2): PTD-P against
 *     ZeRO-3 for the 175B and 530B models (the rows are in table2[] below).
 *   bloom-176b: BigScience, "BLOOM: A 176B-Parameter Open-Access
 *     Multilingual Language Model", 2022 (arXiv:2211.05100), section 3.4:
 *     70 layers, hidden 14336, 112 heads, sequence 2048, vocabulary 250880,
 *     on 384 A100 80GB (48 nodes of 8 on Jean Zay, 4 x 100 Gb/s Omni-Path a
 *     node: 6.25 GB/s a GPU), tensor 4, pipeline 12, data 8, ZeRO-1,
 *     global batch 2048, micro-batch 2, activation checkpointing; "156
 *     TFLOPs" per GPU in its fastest configuration. 70 layers on 12 stages:
 *     the model splits them 6 and 5. In the CSV only: a check that the model
 *     was not fitted to one table.
 * Everything printed here is modelled except the papers' columns.
 */
#include "options.h"
#include "plan3d.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct {
    const char *label;
    int heads, hidden, layers, t, p, gpus;
    long long batch;
    double paper_tflops;
    int b, zero;            /* micro-batch (0: 1) and ZeRO stage */
} sc21_row;

/* SC21 Table 1, as printed: parameters (billion), attention heads, hidden
 * size, layers, tensor-parallel size, pipeline-parallel size, GPUs, batch
 * size, achieved teraFLOP/s per GPU. */
static const sc21_row table1[] = {
    { "1.7B", 24, 2304, 24, 1, 1, 32, 512, 137, 1, 0 },
    { "3.6B", 32, 3072, 30, 2, 1, 64, 512, 138, 1, 0 },
    { "7.5B", 32, 4096, 36, 4, 1, 128, 512, 142, 1, 0 },
    { "18B", 48, 6144, 40, 8, 1, 256, 1024, 135, 1, 0 },
    { "39B", 64, 8192, 48, 8, 2, 512, 1536, 138, 1, 0 },
    { "76B", 80, 10240, 60, 8, 4, 1024, 1792, 140, 1, 0 },
    { "145B", 96, 12288, 80, 8, 8, 1536, 2304, 148, 1, 0 },
    { "310B", 128, 16384, 96, 8, 16, 1920, 2160, 155, 1, 0 },
    { "530B", 128, 20480, 105, 8, 35, 2520, 2520, 163, 1, 0 },
    { "1T", 160, 25600, 128, 8, 64, 3072, 3072, 163, 1, 0 },
};
#define NROWS ((int)(sizeof table1 / sizeof table1[0]))

/* SC21 Table 2 (section 5.2, "Comparison to ZeRO-3"): GPT-3 175B (96
 * layers, hidden 12288, 96 heads) and the 530B model of Table 1, each at
 * three GPU counts with the batch held, by PTD-P (model-parallel size 96 =
 * t 8 x p 12, and 280 = 8 x 35; micro-batch 1) and by DeepSpeed's ZeRO-3
 * without model parallelism (micro-batch 4, 2, 1 as the GPUs double; the
 * 530B model needed 640 GPUs and batch 2560 at micro-batch 4). Achieved
 * teraFLOP/s per GPU as printed (the paper's figures were cross-read against
 * two public transcriptions of the table). */
static const sc21_row table2[] = {
    { "175B PTD-P", 96, 12288, 96, 8, 12, 384, 1536, 153, 1, 0 },
    { "175B PTD-P", 96, 12288, 96, 8, 12, 768, 1536, 149, 1, 0 },
    { "175B PTD-P", 96, 12288, 96, 8, 12, 1536, 1536, 141, 1, 0 },
    { "530B PTD-P", 128, 20480, 105, 8, 35, 560, 2240, 171, 1, 0 },
    { "530B PTD-P", 128, 20480, 105, 8, 35, 1120, 2240, 167, 1, 0 },
    { "530B PTD-P", 128, 20480, 105, 8, 35, 2240, 2240, 159, 1, 0 },
    { "175B ZeRO-3", 96, 12288, 96, 1, 1, 384, 1536, 144, 4, 3 },
    { "175B ZeRO-3", 96, 12288, 96, 1, 1, 768, 1536, 88, 2, 3 },
    { "175B ZeRO-3", 96, 12288, 96, 1, 1, 1536, 1536, 44, 1, 3 },
    { "530B ZeRO-3", 128, 20480, 105, 1, 1, 640, 2560, 138, 4, 3 },
    { "530B ZeRO-3", 128, 20480, 105, 1, 1, 1120, 2240, 98, 2, 3 },
    { "530B ZeRO-3", 128, 20480, 105, 1, 1, 2240, 2240, 48, 1, 3 },
};
#define NROWS2 ((int)(sizeof table2 / sizeof table2[0]))

static void mapping(const p3_plan *pl, char *buf, size_t len)
{
    static const char *rc[] = { "none", "selective", "full" };
    int r = pl->cf.recompute ? 2 : pl->ch.selective ? 1 : 0;
    snprintf(buf, len, "d%d t%d p%d b%d v%d rc:%s sp:%s z%d", pl->cf.d, pl->cf.t, pl->cf.p, pl->cf.b,
             pl->ch.v > 1 ? pl->ch.v : 1, rc[r], pl->ch.no_sp || pl->cf.t == 1 ? "off" : "on",
             pl->ch.zero ? pl->ch.zero : pl->cf.zero1);
}

/* The biggest term the run's step leaves out of the matmuls, in words. */
static void where(const p3_plan *pl, char *buf, size_t len)
{
    const p3_step *s = &pl->step;
    snprintf(buf, len, "matmul %.0f%%, memory-bound %.0f%%, logits %.0f%%, TP %.0f%%, PP %.0f%%, bubble %.0f%%, DP %.0f%%, "
             "Adam %.0f%%", 100 * s->gemm / s->total, 100 * s->memops / s->total, 100 * s->logits / s->total,
             100 * s->tp / s->total, 100 * s->pp / s->total, 100 * s->bubble / s->total, 100 * s->dp_exposed / s->total,
             100 * s->optimizer / s->total);
}

/* Why the free choice beats the paper's mapping, by the model: the two terms of the
 * step that shrink the most. */
static void reason(const p3_plan *paper, const p3_plan *free)
{
    const p3_step *a = &paper->step, *b = &free->step;
    const char *names[] = { "matmuls", "memory-bound work", "logits", "TP", "PP", "bubble", "DP", "Adam" };
    double gain[] = { a->gemm - b->gemm, a->memops - b->memops, a->logits - b->logits, a->tp - b->tp, a->pp - b->pp,
                      a->bubble - b->bubble, a->dp_exposed - b->dp_exposed, a->optimizer - b->optimizer };
    int first = 0, second = 1;
    for (int i = 0; i < 8; i++) if (gain[i] > gain[first]) first = i;
    if (second == first) second = 0;
    for (int i = 0; i < 8; i++) if (i != first && gain[i] > gain[second]) second = i;
    printf("       the free choice is %.0f%% faster by the model: %s %+.2f s, %s %+.2f s of %.2f s\n",
           100 * (a->total / b->total - 1), names[first], -gain[first], names[second], -gain[second], a->total);
}

/* One published row: the paper's mapping pinned (full recomputation, no SP,
 * as in 2021), and the free choice with 2021's options. */
typedef struct {
    p3_plan pinned, free;
    p3_cluster cl;
    int fits;
    double ratio;
} row_result;

static int run_row(const char *prog, const sc21_row *r, row_result *o)
{
    p3_model md = { r->label, r->layers, r->hidden, r->heads, 2048, 51200, r->batch };
    char err[256];
    if (p3_device_cluster("a100-80gb", r->gpus / 8, &o->cl, NULL, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return -1;
    }
    int d = r->gpus / (r->t * r->p);
    p3_config cf = { d, r->t, r->p, r->b, r->batch / d / r->b, false, true, P3_ORDER_TDP };
    p3_choices ch = { 1, false, true, r->zero, false, false };
    p3_plan_with(&md, &o->cl, &cf, &ch, &o->pinned);
    /* The free choice with 2021's software: full recomputation, no sequence parallelism,
     * no ZeRO (what SC21's Megatron runs had); t, p, d, b and v searched. Its TFLOP/s by
     * the same formula as the paper's, which assumes full recomputation. */
    p3_pins pins = p3_pins_free();
    pins.zero = 0;
    pins.recompute = 2;
    pins.sp = 0;
    pins.overlap_dp = 0;
    o->fits = p3_plan_search(&md, &o->cl, &pins, &o->free, 1);
    o->ratio = o->pinned.tflops_sc21 / r->paper_tflops;
    return 0;
}

/* The comparison file: written to FILE.tmp, renamed over FILE at the end. */
static FILE *open_published(const char *path, char *tmp, size_t len)
{
    if (!path) return NULL;
    snprintf(tmp, len, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return NULL;
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "# program: published (the comparison)\n# date: %s\n# cpu: %s (the model runs anywhere: nothing here "
               "is measured on it)\n# git: %s\n", date, pw_cpu_model(), pw_git_rev());
    fprintf(f, "# chapter 13 published: the full step model (modelled) beside published training runs (measured by\n"
               "# their authors); sources: chapters/13-3d-parallelism/published.c\n"
               "source,row,paper_tflops_per_gpu,model_tflops_per_gpu,ratio,mapping,free_mapping,free_tflops_per_gpu\n");
    return f;
}

int main(int argc, char **argv)
{
    const char *published_csv = NULL;
    pw_opt opts[] = {
        { NULL, "--published-csv", PW_OPT_STRING, &published_csv, "FILE",
          "the comparison, one row a run (default: published-runs.csv beside --csv)", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the planner beside published training runs (Megatron-LM SC21 Table 1, BLOOM-176B)",
                     opts, 1, &common);
    if (published_csv && !pw_output_writable(common.prog, "--published-csv", published_csv)) return PW_EXIT_USAGE;
    char beside[1024], tmp[1040];
    if (!published_csv && common.csv) {
        const char *slash = strrchr(common.csv, '/');
        snprintf(beside, sizeof beside, "%.*spublished-runs.csv", slash ? (int)(slash - common.csv + 1) : 0, common.csv);
        published_csv = beside;
    }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "kind", "modelled (the paper rows are published measurements)");
    FILE *pub = open_published(published_csv, tmp, sizeof tmp);
    if (published_csv && !pub) {
        fprintf(stderr, "%s: --published-csv %s: cannot write there\n", common.prog, published_csv);
        return PW_EXIT_USAGE;
    }
    printf("SC21 Table 1 (Narayanan et al. 2021, arXiv:2104.04473): the paper's mapping pinned, A100 80GB on Selene\n"
           "(micro-batch 1, full recomputation, no SP, no ZeRO); TFLOP/s per GPU by the paper's own formula (eq. 3).\n"
           "Modelled: the step is the full model's (kernels/plan3d.c), not a measurement.\n\n");
    printf("%6s %5s %4s %3s %5s %6s | %7s %7s %6s | %-38s %7s\n", "model", "GPUs", "t", "p", "d", "batch", "paper",
           "model", "ratio", "free choice with 2021's options", "TFLOP/s");
    double ratios[NROWS], missing[NROWS], eff_needed[NROWS];
    row_result res[NROWS];
    int within = 0, same_tp = 0;
    for (int i = 0; i < NROWS; i++) {
        const sc21_row *r = &table1[i];
        if (run_row(common.prog, r, &res[i])) return PW_EXIT_USAGE;
        const p3_plan pl = res[i].pinned, fr = res[i].free;
        const p3_cluster cl = res[i].cl;
        int d = pl.cf.d, fits = res[i].fits;
        ratios[i] = res[i].ratio;
        /* The paper's step is the model's x the ratio: the time the model lacks (or has too
         * much of), and the matmul rate that would account for it all. */
        missing[i] = pl.step.total * (ratios[i] - 1);
        eff_needed[i] = cl.matmul_eff * pl.step.gemm / (pl.step.gemm + missing[i]);
        within += fabs(ratios[i] - 1) <= 0.10;
        char fm[96] = "fits nowhere";
        if (fits) mapping(&fr, fm, sizeof fm);
        bool same = fits && fr.cf.t == r->t && fr.cf.p == r->p;
        same_tp += same || (fits && fr.tflops_sc21 <= pl.tflops_sc21 * 1.03);
        printf("%6s %5d %4d %3d %5d %6lld | %7.0f %7.1f %6.2f | %-38s %7.1f%s\n", r->label, r->gpus, r->t, r->p, d,
               r->batch, r->paper_tflops, pl.tflops_sc21, ratios[i], fm, fits ? fr.tflops_sc21 : 0.0,
               same ? " (the paper's t, p)" : "");
        if (fits && !same && fr.tflops_sc21 > pl.tflops_sc21 * 1.03) reason(&pl, &fr);
        if (pl.mem.total > cl.mem_gb * 1e9)
            printf("       (the pinned plan needs %.1f GB a device, over the %g GB: the model's memory is off here)\n",
                   pl.mem.total / 1e9, cl.mem_gb);
        char pm[96];
        mapping(&pl, pm, sizeof pm);
        if (pub)
            fprintf(pub, "sc21-table1,%s,%.1f,%.2f,%.4f,%s,%s,%.2f\n", r->label, r->paper_tflops, pl.tflops_sc21,
                    ratios[i], pm, fm, fits ? fr.tflops_sc21 : 0.0);
        pw_csv_quantity(csv, "paper_tflops_per_gpu", r->gpus, 0, r->label, r->paper_tflops);
        pw_csv_quantity(csv, "model_tflops_per_gpu", r->gpus, 0, r->label, pl.tflops_sc21);
        pw_csv_quantity(csv, "ratio", r->gpus, 0, r->label, ratios[i]);
    }
    printf("\nwithin 10%% of the paper: %d of %d rows; ratio from %.2f (1.7B) to %.2f (1T): the paper rises %.0f -> %.0f,\n"
           "the model %s. The free search picks the paper's t and p, or a plan no more than 3%% faster by its own\n"
           "count, on %d of %d rows.\n", within, NROWS, ratios[0], ratios[NROWS - 1], table1[0].paper_tflops,
           table1[NROWS - 1].paper_tflops,
           ratios[NROWS - 1] * table1[NROWS - 1].paper_tflops > ratios[0] * table1[0].paper_tflops ? "rises too"
                                                                                                      : "does not",
           same_tp, NROWS);

    /* Which term is missing: the rows beyond 10% against the rows within, by what they
     * have in common. The shortfall is computed per micro-batch slot of the pipeline and
     * beside the model's own pipeline terms (bubble, messages), so the reader can see
     * whether it grows with them. */
    double r_flat = 0, r_pipe = 0;
    int n_flat = 0, n_pipe = 0;
    for (int i = 0; i < NROWS; i++) {
        if (table1[i].p > 1) r_pipe += ratios[i], n_pipe++;
        else r_flat += ratios[i], n_flat++;
    }
    /* the pipeline is named as the gap's cause only when the two means differ by more than
     * the 10% the rows are held to */
    if (n_flat && n_pipe)
        printf("  the model is %.0f%% high on average where there is a pipeline (p > 1, %d rows), %.0f%% where there is\n"
               "  none (%d rows): %s.\n",
               100 * (r_pipe / n_pipe - 1), n_pipe, 100 * (r_flat / n_flat - 1), n_flat,
               r_pipe / n_pipe - r_flat / n_flat > 0.10 ? "the gap comes with the pipeline"
                                                        : "the pipeline does not set these rows apart");
    for (int i = 0; i < NROWS; i++)
        if (fabs(ratios[i] - 1) > 0.10) {
            const p3_step *st = &res[i].pinned.step;
            const p3_config *c = &res[i].pinned.cf;
            double work = st->gemm + st->memops + st->logits + st->tp;   /* the slowest stage's, m micro-batches */
            printf("  %s: the paper's step is %.0f%% %s than the model's %.2f s (%+.2f s): a term %s here.\n",
                   table1[i].label, 100 * fabs(ratios[i] - 1), ratios[i] > 1 ? "longer" : "shorter",
                   st->total, missing[i], ratios[i] > 1 ? "missing" : "overstated");
            /* A gap larger than the bubble and the messages together cannot be either of them
             * underestimated, even twofold; a smaller one could be. */
            if (c->p > 1)
                printf("    per micro-batch slot (m + p - 1 = %lld): %+.1f ms, %.0f%% of a micro-batch's work on a stage;\n"
                       "    the model's bubble is %.0f%% of its step and its messages %.1f%%: %s\n",
                       c->m + c->p - 1, 1e3 * missing[i] / (double)(c->m + c->p - 1), 100 * missing[i] / work,
                       100 * st->bubble / st->total, 100 * st->pp / st->total,
                       fabs(missing[i]) > st->bubble + st->pp ? "the gap is neither"
                                                              : "the gap is no larger than they are: either could be it");
            printf("    (were it all in the matmuls, they ran at %.0f%% of peak, not the %.1f%% MAMF measured in 2023)\n",
                   100 * eff_needed[i], 100 * res[i].cl.matmul_eff);
        }
    /* where the time goes, smallest and largest */
    for (int k = 0; k < 2; k++) {
        const sc21_row *r = &table1[k ? NROWS - 1 : 0];
        p3_model md = { r->label, r->layers, r->hidden, r->heads, 2048, 51200, r->batch };
        p3_cluster cl;
        char err[256], w[256];
        p3_device_cluster("a100-80gb", r->gpus / 8, &cl, NULL, err, sizeof err);
        int d = r->gpus / (r->t * r->p);
        p3_config cf = { d, r->t, r->p, 1, r->batch / d, false, true, P3_ORDER_TDP };
        p3_choices ch = { 1, false, true, 0, false, false };
        p3_plan pl;
        p3_plan_with(&md, &cl, &cf, &ch, &pl);
        where(&pl, w, sizeof w);
        printf("  %s step %.2f s: %s\n", r->label, pl.step.total, w);
    }

    /* SC21 Table 2, the same way: PTD-P and ZeRO-3 at three GPU counts each */
    printf("\nSC21 Table 2 (section 5.2): GPT-3 175B and the 530B model, PTD-P against ZeRO-3 without model\n"
           "parallelism, the batch held as the GPUs double. ZeRO-3 here is the model's: weights gathered for\n"
           "the forward and the backward over the d replicas (1.5x the gradients' bytes), not overlapped.\n\n");
    printf("%-12s %5s %4s %3s %5s %2s %5s | %7s %7s %6s | %-38s %7s\n", "run", "GPUs", "t", "p", "d", "b", "batch",
           "paper", "model", "ratio", "free choice with 2021's options", "TFLOP/s");
    int within2 = 0, within2_ptdp = 0, n_ptdp = 0;
    double lo_ptdp = INFINITY, hi_ptdp = 0;
    for (int i = 0; i < NROWS2; i++) {
        const sc21_row *r = &table2[i];
        row_result o;
        if (run_row(common.prog, r, &o)) return PW_EXIT_USAGE;
        char fm[96] = "fits nowhere", pm[96];
        if (o.fits) mapping(&o.free, fm, sizeof fm);
        mapping(&o.pinned, pm, sizeof pm);
        printf("%-12s %5d %4d %3d %5d %2d %5lld | %7.0f %7.1f %6.2f | %-38s %7.1f\n", r->label, r->gpus, r->t, r->p,
               o.pinned.cf.d, r->b, r->batch, r->paper_tflops, o.pinned.tflops_sc21, o.ratio, fm,
               o.fits ? o.free.tflops_sc21 : 0.0);
        if (o.pinned.mem.total > o.cl.mem_gb * 1e9)
            printf("       (the pinned plan needs %.1f GB a device by the model, over the %g GB)\n", o.pinned.mem.total / 1e9,
                   o.cl.mem_gb);
        within2 += fabs(o.ratio - 1) <= 0.10;
        if (r->zero == 0) {
            n_ptdp++, within2_ptdp += fabs(o.ratio - 1) <= 0.10;
            lo_ptdp = fmin(lo_ptdp, o.ratio), hi_ptdp = fmax(hi_ptdp, o.ratio);
        }
        char row_name[48];
        snprintf(row_name, sizeof row_name, "%s %d GPUs", r->label, r->gpus);
        if (pub)
            fprintf(pub, "sc21-table2,%s,%.1f,%.2f,%.4f,%s,%s,%.2f\n", row_name, r->paper_tflops, o.pinned.tflops_sc21,
                    o.ratio, pm, fm, o.fits ? o.free.tflops_sc21 : 0.0);
        pw_csv_quantity(csv, "paper_tflops_per_gpu", r->gpus, 0, row_name, r->paper_tflops);
        pw_csv_quantity(csv, "model_tflops_per_gpu", r->gpus, 0, row_name, o.pinned.tflops_sc21);
        pw_csv_quantity(csv, "ratio", r->gpus, 0, row_name, o.ratio);
    }
    printf("\nwithin 10%% of the paper: %d of %d rows (PTD-P %d of %d, ZeRO-3 %d of %d).\n", within2, NROWS2,
           within2_ptdp, n_ptdp, within2 - within2_ptdp, NROWS2 - n_ptdp);
    if (n_ptdp)
        printf("The PTD-P rows all have a pipeline (p 12 and 35): ratios %.2f to %.2f, the gap of Table 1's pipelined rows.\n",
               lo_ptdp, hi_ptdp);

    /* BLOOM-176B: CSV only beside the table, printed in one line */
    p3_model bloom = { "bloom-176b", 70, 14336, 112, 2048, 250880, 2048 };
    p3_cluster jz;
    char err[256];
    p3_device_cluster("a100-80gb", 48, &jz, NULL, err, sizeof err);
    jz.inter_gbs = 4 * 100 / 8.0 / 8;   /* 4 x 100 Gb/s a node, 8 GPUs: 6.25 GB/s a GPU */
    p3_config bcf = { 8, 4, 12, 2, 2048 / 8 / 2, true, true, P3_ORDER_TDP };
    p3_choices bch = { 1, false, true, 1, false, false };
    p3_plan bp;
    p3_plan_with(&bloom, &jz, &bcf, &bch, &bp);
    double bratio = bp.tflops_sc21 / 156;
    /* in the CSV only (see the top): not shown beside the table it might have been fitted to */
    int bad = 0;
    if (pub) {
        char pm[96];
        mapping(&bp, pm, sizeof pm);
        fprintf(pub, "bloom-176b,176B,156.0,%.2f,%.4f,%s,,\n", bp.tflops_sc21, bratio, pm);
        bad |= fclose(pub) != 0 || rename(tmp, published_csv) != 0;
        if (bad) fprintf(stderr, "%s: cannot write %s\n", common.prog, published_csv);
    }
    bad |= pw_csv_close(csv);
    return bad ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
