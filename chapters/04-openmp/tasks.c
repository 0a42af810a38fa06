/* chapters/04-openmp/tasks.c: OpenMP tasks for an irregular problem, a walk
 * over an unbalanced tree (kernels/omp_tree.h), with a cut-off.
 *
 * Two sweeps:
 *   1. the cut-off depth on as many threads as cores: 0 (no tasks: one
 *      thread walks the whole tree), a few levels (tens of tasks), and a
 *      task at every node. Too few tasks: an idle thread; too many: the
 *      bookkeeping costs more than the nodes.
 *   2. threads, at the default cut-off, with the Amdahl fit.
 *
 *   ./build/ch04/tasks                      a tree of 200000 nodes, cut-off 8
 *   ./build/ch04/tasks -n 1M -c 12 -t 1,2
 *
 * What to expect: cut-off 0 no faster than the sequential walk; a cut-off of
 * a few levels near 2x on 2 cores; a task per node clearly slower than that.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "omp_info.h"
#include "omp_tree.h"
#include "options.h"
#include "overlap.h"
#include "results.h"
#include "scaling.h"
#include "timing.h"
#include "util.h"

#include <stdio.h>
#include <string.h>
#include <math.h>
#include <stdbool.h>

typedef struct {
    const tree *t;
    int cutoff;
    uint64_t sum;
    pw_overlap ov;     /* whether the team's threads ran at the same time */
} tree_ctx;

static void run_seq(void *p) { tree_ctx *c = p; c->sum = tree_sum_seq(c->t); }
static void run_tasks(void *p)
{
    tree_ctx *c = p;
    pw_overlap_mark m = pw_overlap_begin();
    c->sum = tree_sum_tasks(c->t, c->cutoff);
    pw_overlap_end(&c->ov, m);
}

/* The sum is an integer modulo 2^64, the same in any order: exact match.
 * Checked as two 32-bit halves, each exact in a double. */
static int check_sum(const char *what, uint64_t got, uint64_t want)
{
    return pw_check_scalar(what, (double)(got >> 32), (double)(want >> 32), 0, 0) |
           pw_check_scalar(what, (double)(got & 0xffffffffu), (double)(want & 0xffffffffu), 0, 0);
}

static int verify(int n, const pw_list *threads, const pw_list *cutoffs)
{
    tree t = tree_make(n, 99);
    uint64_t want = tree_sum_seq(&t);
    int bad = 0;
    for (int i = 0; i < threads->n; i++) {
        pw_omp_set_threads((int)threads->v[i]);
        for (int c = 0; c < cutoffs->n; c++) {
            char what[80];
            snprintf(what, sizeof what, "tree_tasks n=%d threads=%lld cutoff=%lld", n, threads->v[i], cutoffs->v[c]);
            bad |= check_sum(what, tree_sum_tasks(&t, (int)cutoffs->v[c]), want);
        }
    }
    tree_free(&t);
    return bad;
}

/* The answers to the README's predictions, from the cut-off table: which
 * cut-off was fastest (only among rows whose threads ran together, and only
 * with two threads or more: on one they take turns), and how a task at every
 * node (the last cut-off) compares with the sequential walk, which holds on
 * any core count since it is the cost of the tasks themselves. */
static void answer_cutoffs(const pw_list *cutoffs, const double *med, const double *share, double seq_s,
                           long long nodes, int threads, int cores)
{
    int best = -1, tasked = 0;   /* tasked: rows with tasks whose threads ran together */
    for (int c = 0; c < cutoffs->n; c++) {
        if (share[c] < PW_OVERLAP_SUSPECT) continue;
        tasked += cutoffs->v[c] > 0;
        if (best < 0 || med[c] < med[best]) best = c;
    }
    if (threads < 2 || cores < 2)
        printf("answer: not shown on this run: the cut-off sweep ran on one thread (%d core%s), so no cut-off can "
               "run faster than the walk\n", cores, cores == 1 ? "" : "s");
    else if (!tasked)
        printf("answer: not shown on this run: no cut-off row ran with its threads together: rerun on an idle "
               "machine\n");
    else {
        printf("answer: the fastest cut-off was %lld: %.2fx the sequential walk on %d threads", cutoffs->v[best],
               seq_s / med[best], threads);
        /* a tie: rows within the noise of the fastest (suspect rows left out) */
        int tie[PW_MAX_LIST], nt = pw_ties(med, cutoffs->n, best, PW_TIE_SHARE, tie), said = 0;
        for (int k = 0; k < nt; k++) {
            if (share[tie[k]] < PW_OVERLAP_SUSPECT) continue;
            printf("%s%lld", said++ ? ", " : "; a tie, within 5%, with ", cutoffs->v[tie[k]]);
        }
        printf("\n");
    }
    int all = cutoffs->n - 1;   /* the last row: a task at every node */
    printf("answer: a task at every node took %.2fx the sequential walk's time (%.0f ns per node against %.0f)%s\n",
           med[all] / seq_s, med[all] * 1e9 / (double)nodes, seq_s * 1e9 / (double)nodes,
           share[all] < PW_OVERLAP_SUSPECT ? "; its threads did not run together, so this includes the machine's load"
                                           : "");
}

int main(int argc, char **argv)
{
    long long n = 200000, cutoff = 8;
    pw_list threads = { .n = 0 };
    pw_opt opts[] = {
        { "-n", "--nodes", PW_OPT_INT, &n, "N", "tree nodes (default 200000)", 1, 1 << 28 },
        { "-c", "--cutoff", PW_OPT_INT, &cutoff, "D", "make tasks down to depth D (default 8)", 0, 1 << 20 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1,2,..,cores, 2x cores)",
          1, PW_MAX_THREADS },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "OpenMP tasks walking an irregular tree, with a cut-off", opts, 3, &common);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (common.tiny) n = 3001;
    pw_require_memory(common.prog, "-n", n, sizeof(tree_node), 1);
    int cores = pw_cores();

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_omp_report(stdout, csv);
    if (!pw_omp_enabled()) threads = (pw_list)PW_LIST(1);

    tree t = tree_make((int)n, 99);
    /* The cut-off sweep: none, a few levels, and past the deepest leaf (a
     * task at every node). */
    pw_list cutoffs = PW_LIST(0, 1, 2, 4, 6, 8, 12, 16, 24);
    if (cutoff > 24) cutoffs.v[cutoffs.n++] = cutoff;
    cutoffs.v[cutoffs.n++] = t.depth + 1;

    pw_list check_threads = PW_LIST(1, 2, 3, 7);
    int bad = verify(1, &check_threads, &cutoffs) | verify(2, &check_threads, &cutoffs) |
              verify(17, &check_threads, &cutoffs) | verify(1001, &check_threads, &cutoffs) |
              verify((int)n, &threads, &cutoffs);
    if (bad) {
        fprintf(stderr, "%s: a walk gave a wrong sum; nothing was timed\n", common.prog);
        pw_csv_close(csv);
        tree_free(&t);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the references (the exact sum: trees of 1, 2, 17, 1001 nodes on 1, 2, 3, 7 "
           "threads, and %lld, at every cut-off swept)\n\n", n);

    /* Per node: TREE_NODE_ROUNDS multiplies, xors and shifts; no flops. One
     * node record read (16 bytes). */
    double bytes = (double)sizeof(tree_node) * (double)n;
    pw_bench_config cfg = pw_bench_from_opts(&common);
    tree_ctx ctx = { &t, 0, 0, { 0, 0, 0 } };
    pw_bench_stats seq;
    pw_bench(&cfg, run_seq, &ctx, &seq);
    printf("tree_seq: %.4g ms for %lld nodes (depth %d), %.0f ns per node\n\n", seq.median * 1e3, n, t.depth,
           seq.median * 1e9 / (double)n);
    pw_csv_summary(csv, "tree_seq", n, 1, "", &seq, 0, bytes);

    int tcores = 1;
    for (int i = 0; i < threads.n; i++)
        if (threads.v[i] <= cores && threads.v[i] > tcores) tcores = (int)threads.v[i];
    pw_omp_set_threads(tcores);
    double cut_share[PW_MAX_LIST], cut_med[PW_MAX_LIST];
    int cut_t[PW_MAX_LIST];
    printf("the cut-off, on %d threads:\n%8s %10s %12s %7s %9s %12s\n", tcores, "cut-off", "tasks", "median", "IQR",
           "speedup", "per task");
    for (int c = 0; c < cutoffs.n; c++) {
        ctx.cutoff = (int)cutoffs.v[c];
        ctx.ov = (pw_overlap){ 0, 0, 0 };
        pw_bench_stats st;
        pw_bench(&cfg, run_tasks, &ctx, &st);
        /* Cut-off 0 makes no tasks: one thread works, by design, so its
         * overlap is recorded but not judged. */
        double ov = pw_overlap_share(&ctx.ov, tcores, cores);
        bool sus = ctx.cutoff > 0 && ov < PW_OVERLAP_SUSPECT;
        cut_share[c] = ctx.cutoff > 0 ? ov : NAN;
        cut_t[c] = tcores;
        cut_med[c] = st.median;
        long long tasks = tree_tasks_created(&t, ctx.cutoff);
        char param[32];
        snprintf(param, sizeof param, "cutoff=%d", ctx.cutoff);
        printf("%8d %10lld %9.4g ms %6.1f%% %8.2fx", ctx.cutoff, tasks, st.median * 1e3,
               100 * (st.q3 - st.q1) / st.median, seq.median / st.median);
        if (tasks) printf(" %9.0f ns", st.median * 1e9 / (double)tasks);
        printf("%s", ctx.cutoff > t.depth ? "   a task at every node" : ctx.cutoff == 0 ? "   no tasks" : "");
        if (sus) printf("   suspect: together %.0f%%", 100 * ov);
        printf("\n");
        /* For these rows n is the number of tasks made (the x axis of
         * plots/04-openmp/tasks_cutoff.gp); param names the cut-off. */
        pw_csv_summary_overlap(csv, "cutoff", tasks, tcores, param, &st, 0, bytes, ov);
    }
    /* One line for the suspect rows: their cut-offs, all on tcores threads. */
    char sus[256] = "";
    double least = 1;
    for (int c = 0; c < cutoffs.n; c++) {
        if (isnan(cut_share[c]) || cut_share[c] >= PW_OVERLAP_SUSPECT) continue;
        size_t used = strlen(sus);
        snprintf(sus + used, sizeof sus - used, "%s%lld", used ? ", " : "", cutoffs.v[c]);
        if (cut_share[c] < least) least = cut_share[c];
    }
    if (sus[0])
        printf("suspect, the cut-off rows: at cut-off %s the %d threads got too little CPU to have run at the same time for "
               "most of the run (perhaps only %.0f%% of it together): %s\n", sus, cut_t[0], 100 * least,
               pw_cpus_allowed() < (tcores < cores ? tcores : cores) ? "this process may run on fewer CPUs (taskset?)"
                                                                      : "rerun on an idle machine");
    printf("per task: the time divided by the tasks made, a ceiling on what one task may cost.\n");
    answer_cutoffs(&cutoffs, cut_med, cut_share, seq.median, n, tcores, cores);
    printf("\n");

    pw_scaling_point pts[PW_MAX_LIST];
    pw_overlap ovs[PW_MAX_LIST];
    ctx.cutoff = (int)cutoff;
    for (int i = 0; i < threads.n; i++) {
        pts[i].threads = (int)threads.v[i];
        pw_omp_set_threads(pts[i].threads);
        ctx.ov = (pw_overlap){ 0, 0, 0 };
        pw_bench(&cfg, run_tasks, &ctx, &pts[i].st);
        ovs[i] = ctx.ov;
    }
    char param[32];
    snprintf(param, sizeof param, "cutoff=%lld", cutoff);
    pw_scaling_report_overlap(csv, "tree_tasks", n, param, seq.median, pts, threads.n, 0, bytes, cores, ovs);

    tree_free(&t);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
