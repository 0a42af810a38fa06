/* chapters/12-pipeline-parallel/schedules.c: four pipeline schedules run by
 * one executor on the virtual cluster: who works when, how long the pipe
 * stands idle (the bubble), how many micro-batches each stage stores.
 *
 *   ./build/ch12/schedules                 p = 4 ranks, m = 8 micro-batches, v = 2
 *   ./build/ch12/schedules -p 8 -m 16      another pipe
 *   ./build/ch12/schedules --tiny          a smaller check sweep (tests)
 *
 * A stack of fully connected layers (kernels/pipeline.h), one layer per
 * stage, is cut into p stages (p v for the interleaved schedule); the batch
 * into m micro-batches. Every run moves real activations and gradients
 * between the ranks and is checked against the unsplit model.
 *
 * 1. Check: every schedule, every p = 1..8 and m = 1..32 (interleaved: m a
 *    multiple of p): gradients equal the unsplit model's, the bubble
 *    measured from the trace equals its formula to 1e-9, the stored
 *    micro-batches counted by the executor equal those counted from the
 *    trace and the schedule's rule (GPipe m; 1F1B min(p - r, m) on rank r;
 *    ZB-H1 the same between F and B). Links cost nothing here (latency 0,
 *    bandwidth 1e30 GB/s: a message costs under 1e-34 s, below the last bit
 *    of any clock), so the formulas, which count compute only, hold exactly.
 * 2. The table at p, m, the same stack of p v layers for every schedule (v
 *    a stage, one a chunk when interleaved): bubble measured and by
 *    formula, idle over useful time, the span in T_F (a stage's forward of
 *    one micro-batch), stored micro-batches per rank.
 * 3. A terminal Gantt chart per schedule: one row per rank, one column per
 *    layer forward, F/B/W, lower case for odd micro-batches so neighbours
 *    stand apart, '.' idle.
 *
 * CSV (common/results.h): kind=event rows, one per step of the p, m run
 * with free links (variant F/B/W, n = micro-batch, threads = rank, param =
 * schedule, min_s/max_s its start and end); kind=quantity rows "bubble" and
 * "formula" for m = 1..max-m at p (n = m, threads = p, param = schedule),
 * the curves of the bubble plot.
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

#define WIDTH 8            /* layer width of the check sweep: real math, small */

static pw_cluster_config free_links(int p)
{
    pw_cluster_config cfg = pw_cluster_defaults(p);
    cfg.ranks_per_node = p;
    cfg.intra_alpha = cfg.inter_alpha = 0;
    cfg.intra_gbs = cfg.inter_gbs = 1e30;
    return cfg;
}

static int v_of(const pipe_schedule *s, int v) { return s->interleaved ? v : 1; }

/* The stored micro-batches the schedule's rule promises on rank r, or -1
 * where there is no rule to hold it to (interleaved: measured, printed). */
static int promised_peak(const pipe_schedule *s, int r, int p, int m)
{
    if (!strcmp(s->name, "gpipe")) return m;
    if (!strcmp(s->name, "1f1b") || !strcmp(s->name, "zbh1")) return p - r < m ? p - r : m;
    return -1;
}

/* Run s at p, m, v on the check model; 0 if everything holds, else 1 with why. */
static int check_one(const pipe_schedule *s, int p, int m, int v, int batch, char *why, size_t len)
{
    int S = p * v, first[PIPE_MAX_RANKS * 4 + 1];
    pipe_case pc;
    pipe_case_init(&pc, S, NULL, WIDTH, batch, m);
    pipe_split_even(S, S, first);
    pipe_job job = pipe_case_job(&pc, p, v, first, s->split);
    pw_cluster_config cfg = free_links(p);
    pipe_result res;
    int rc = pipe_simulate(s, NULL, &job, &cfg, true, &res, why, len), bad = rc != 0;
    bool bitwise;
    char w[256];
    if (!bad && pipe_case_check(&pc, &bitwise, w, sizeof w)) { snprintf(why, len, "%s", w); bad = 1; }
    double f = pipe_bubble_formula(s->name, p, m, v);
    if (!bad && !(fabs(res.bubble - f) <= 1e-9)) {
        snprintf(why, len, "bubble %.12f from the trace, formula %.12f", res.bubble, f);
        bad = 1;
    }
    for (int r = 0; r < p && !bad; r++) {
        /* between F and B (the trace read as if B ended each micro-batch) */
        int f2b = pipe_trace_peak(res.trace, res.ntrace, r, false), want = promised_peak(s, r, p, m);
        if (res.peak_held[r] != res.peak_trace[r]) {
            snprintf(why, len, "rank %d: the executor stored %d micro-batches at most, the trace says %d", r,
                     res.peak_held[r], res.peak_trace[r]);
            bad = 1;
        } else if (want >= 0 && f2b != want) {
            snprintf(why, len, "rank %d: %d micro-batches between F and B at most, the rule says %d", r, f2b, want);
            bad = 1;
        }
    }
    free(res.trace);
    free(res.orders);
    pipe_case_free(&pc);
    return bad;
}

/* One row per rank: the step running at each column's middle. */
static void gantt(const pipe_result *res, int p, double unit)
{
    int cols = (int)lround(res->span / unit);
    char *row = malloc((size_t)cols + 1);
    for (int r = 0; r < p; r++) {
        memset(row, '.', (size_t)cols);
        row[cols] = 0;
        for (size_t i = 0, k = 0; i < res->ntrace; i++) {
            const pw_trace_event *e = &res->trace[i];
            if (e->rank != r || strlen(e->kind) != 1 || !strchr("FBW", e->kind[0])) continue;
            /* the rank's k-th work event is the k-th step of its order */
            const pipe_step *st = &res->orders[(size_t)r * res->nsteps + k++];
            for (int c = 0; c < cols; c++) {
                double mid = (c + 0.5) * unit;
                if (mid > e->start && mid < e->end) row[c] = (char)(st->mb % 2 ? e->kind[0] + 32 : e->kind[0]);
            }
        }
        printf("  rank %d |%s|\n", r, row);
    }
    free(row);
}

int main(int argc, char **argv)
{
    long long p = 4, m = 8, v = 2, max_p = -1, max_m = -1, batch = 2;   /* -1: --tiny decides */
    pw_opt opts[6] = {
        { "-p", "--stages", PW_OPT_INT, &p, "P", "ranks (pipeline stages) of the table and Gantt charts (default 4)", 1, 8 },
        { "-m", "--micro-batches", PW_OPT_INT, &m, "M", "micro-batches of the table and Gantt charts (default 8)", 1, 32 },
        { "-v", "--virtual", PW_OPT_INT, &v, "V", "chunks per rank of the interleaved schedule (default 2)", 1, 4 },
        { NULL, "--max-p", PW_OPT_INT, &max_p, "P", "check every p up to this (default 8; --tiny 4)", 1, 8 },
        { NULL, "--max-m", PW_OPT_INT, &max_m, "M", "check every m up to this, and the bubble curve (default 32; --tiny 8)", 1, 32 },
        { "-b", "--batch", PW_OPT_INT, &batch, "B", "samples per micro-batch (default 2)", 1, 64 },
    };
    pw_common_opts common;
    int nopts = 6;
    pw_parse_or_exit(argc, argv, "pipeline schedules: GPipe, 1F1B, interleaved 1F1B, ZB-H1; bubble, memory, Gantt",
                     opts, nopts, &common);
    if (max_p < 0) max_p = common.tiny ? 4 : 8;
    if (max_m < 0) max_m = common.tiny ? 8 : 32;
    const pipe_schedule *inter = pipe_schedule_named("interleaved");
    const char *no = pipe_refuses(inter, (int)p, (int)m, (int)v);
    if (no) { fprintf(stderr, "%s: -p %lld -m %lld: %s\n", common.prog, p, m, no); return PW_EXIT_USAGE; }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);

    /* 1. the check sweep */
    int runs = 0;
    for (int si = 0; si < pipe_nschedules; si++) {
        const pipe_schedule *s = &pipe_schedules[si];
        for (int pp = 1; pp <= max_p; pp++)
            for (int mm = 1; mm <= max_m; mm++) {
                int vv = v_of(s, (int)v);
                if (pipe_refuses(s, pp, mm, vv)) continue;
                char why[4096];
                if (check_one(s, pp, mm, vv, (int)batch, why, sizeof why)) {
                    fprintf(stderr, "%s: %s, p = %d, m = %d%s: %s\n", common.prog, s->name, pp, mm,
                            s->interleaved ? ", v chunks" : "", why);
                    return PW_EXIT_WRONG;
                }
                runs++;
            }
    }
    printf("all variants match: %d runs (4 schedules, p = 1..%lld, m = 1..%lld; interleaved with v = %lld and m a multiple of p):\n"
           "  gradients equal the unsplit model's, the bubble from the trace equals its formula to 1e-9,\n"
           "  stored micro-batches: GPipe m, 1F1B and ZB-H1 min(p - r, m) between F and B on rank r\n\n",
           runs, max_p, max_m, v);

    /* 2. the table at p, m: the same model of p v layers for every schedule,
     * v layers a stage (one a chunk when interleaved) */
    int L = (int)(p * v);
    printf("p = %lld ranks, m = %lld micro-batches, %d layers of %d x %d: %lld per stage, one per chunk when interleaved (v = %lld)\n",
           p, m, L, WIDTH, WIDTH, v, v);
    printf("measured bubble of each schedule (idle time / (p x span), from the trace) against its formula;\n"
           "span in T_F, one stage's forward of one micro-batch (T_B = 2 T_F; split: T_B = T_W = T_F):\n\n");
    printf("%-12s %9s %9s %12s %12s %8s  %s\n", "schedule", "bubble", "formula", "idle/useful", "rate formula", "span",
           "stored per rank (micro-batches of a stage)");
    pipe_result keep[8];
    double unit = 0;
    for (int si = 0; si < pipe_nschedules; si++) {
        const pipe_schedule *s = &pipe_schedules[si];
        int vv = v_of(s, (int)v), S = (int)p * vv, first[PIPE_MAX_RANKS * 4 + 1];
        pipe_case pc;
        pipe_case_init(&pc, L, NULL, WIDTH, (int)batch, (int)m);
        pipe_split_even(L, S, first);
        pipe_job job = pipe_case_job(&pc, (int)p, vv, first, s->split);
        char why[4096];
        pw_cluster_config cfg = free_links((int)p);
        bool bitwise;
        if (pipe_simulate(s, NULL, &job, &cfg, true, &keep[si], why, sizeof why)
            || pipe_case_check(&pc, &bitwise, why, sizeof why)) {
            fprintf(stderr, "%s: %s: %s\n", common.prog, s->name, why);
            return PW_EXIT_WRONG;
        }
        pipe_result *r = &keep[si];
        unit = pipe_layer_flops(&pc.md, 0) / (cfg.device_gflops * 1e9);   /* one layer's F: a Gantt column */
        double f = pipe_bubble_formula(s->name, (int)p, (int)m, vv), tf = unit * (double)v;
        char stored[96] = "", *o = stored;
        /* a chunk holds 1/v of a stage's layers: count it as 1/v */
        for (int k = 0; k < p; k++)
            o += snprintf(o, (size_t)(stored + sizeof stored - o), "%s%g", k ? " " : "",
                          pipe_trace_peak(r->trace, r->ntrace, k, false) / (double)vv);
        printf("%-12s %9.4f %9.4f %12.4f %12.4f %8.2f  %s%s\n", s->name, r->bubble, f, r->bubble / (1 - r->bubble),
               f / (1 - f), r->span / tf, stored, s->split ? "  (F to B)" : "");
        if (s->split) {
            o = stored;
            for (int k = 0; k < p; k++) o += snprintf(o, (size_t)(stored + sizeof stored - o), "%s%d", k ? " " : "", r->peak_held[k]);
            printf("%-12s %9s %9s %12s %12s %8s  %s  (F to W: each layer's input and dz wait for W)\n", "", "", "", "", "", "", stored);
        }
        pipe_case_free(&pc);
    }
    const pipe_result *g = &keep[0], *z = &keep[3];
    printf("\nanswer: with p = %lld and m = %lld the pipe stands idle %.1f%% of the time under GPipe, %.1f%% under 1F1B, "
           "%.1f%% interleaved (v = %lld), %.1f%% under ZB-H1;\n"
           "  1F1B stores at most %d micro-batches on a rank where GPipe stores %d\n",
           p, m, 100 * g->bubble, 100 * keep[1].bubble, 100 * keep[2].bubble, v, 100 * z->bubble, keep[1].peak_held[0],
           g->peak_held[0]);

    /* 3. Gantt charts */
    for (int si = 0; si < pipe_nschedules; si++) {
        const pipe_schedule *s = &pipe_schedules[si];
        printf("\n%s (p = %lld, m = %lld%s): bubble %.1f%%\n", s->name, p, m,
               s->interleaved ? ", 2 chunks a rank" : "", 100 * keep[si].bubble);
        gantt(&keep[si], (int)p, unit);
    }
    printf("\n  one column: one layer's forward; F forward, B backward (zbh1: input gradient only), W weight gradient;\n"
           "  '.' idle; lower case: odd micro-batches, so neighbours stand apart\n");

    /* CSV */
    pw_csv_meta(csv, "ranks", "%lld", p);
    pw_csv_meta(csv, "micro_batches", "%lld", m);
    pw_csv_meta(csv, "virtual", "%lld", v);
    for (int si = 0; si < pipe_nschedules; si++) {
        const pipe_schedule *s = &pipe_schedules[si];
        const pipe_result *r = &keep[si];
        int *k = calloc((size_t)p, sizeof *k);
        for (size_t i = 0; i < r->ntrace; i++) {
            const pw_trace_event *e = &r->trace[i];
            if (strlen(e->kind) != 1 || !strchr("FBW", e->kind[0])) continue;
            const pipe_step *st = &r->orders[(size_t)e->rank * r->nsteps + k[e->rank]++];
            pw_csv_event(csv, e->kind, st->mb, e->rank, s->name, e->start, e->end, 0);
        }
        free(k);
    }
    for (int si = 0; si < pipe_nschedules; si++) {
        const pipe_schedule *s = &pipe_schedules[si];
        int vv = v_of(s, (int)v);
        for (int mm = 1; mm <= max_m; mm++) {
            if (pipe_refuses(s, (int)p, mm, vv)) continue;
            int S = (int)p * vv, first[PIPE_MAX_RANKS * 4 + 1];
            pipe_case pc;
            pipe_case_init(&pc, S, NULL, WIDTH, 1, mm);
            pipe_split_even(S, S, first);
            pipe_job job = pipe_case_job(&pc, (int)p, vv, first, s->split);
            pw_cluster_config cfg = free_links((int)p);
            pipe_result r;
            char why[4096];
            bool bitwise;
            if (pipe_simulate(s, NULL, &job, &cfg, false, &r, why, sizeof why) || pipe_case_check(&pc, &bitwise, why, sizeof why)) {
                fprintf(stderr, "%s: %s, m = %d: %s\n", common.prog, s->name, mm, why);
                return PW_EXIT_WRONG;
            }
            pw_csv_quantity(csv, "bubble", mm, (int)p, s->name, r.bubble);
            pw_csv_quantity(csv, "formula", mm, (int)p, s->name, pipe_bubble_formula(s->name, (int)p, mm, vv));
            pipe_case_free(&pc);
        }
    }
    for (int si = 0; si < pipe_nschedules; si++) { free(keep[si].trace); free(keep[si].orders); }
    return pw_csv_close(csv);
}
