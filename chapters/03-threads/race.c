/* chapters/03-threads/race.c: a data race that loses updates, and three
 * ways to fix it, with what each costs per update as threads are added.
 *
 * T threads add 1 to one shared counter, `updates` times in all
 * (kernels/threads.h):
 *   racy     c = c + 1 with no protection. Two threads can both read 41 and
 *            both write 42: one increment is lost. The count comes out short,
 *            by a different amount each run. That loss is the lesson, so the
 *            program reports it and carries on (exit 0); it is never "fixed"
 *            by luck, and ThreadSanitizer reports it (make sanitize).
 *   mutex    lock, add, unlock.                         exact, slow
 *   atomic   one atomic fetch-and-add.                  exact, cheaper
 *   partial  each thread counts privately; one combine. exact, fastest
 * The three fixes are checked to give exactly `updates` (odd totals and odd
 * thread counts too) before anything is timed.
 *
 *   ./build/ch03/race                    4M updates, threads 1, 2, ... cores, 2x cores
 *   ./build/ch03/race -u 10M -t 1,2,4,8
 *   ./build/ch03/race --variant mutex,atomic   only these (tests run each fix alone under TSan)
 *
 * Expect on 2 cores: racy loses a large share of the updates with 2 threads
 * (none with 1); per update, mutex costs tens of ns once two threads contend,
 * atomic a few ns, partial well under 1 ns and cheaper with more threads.
 */
#define _POSIX_C_SOURCE 200809L   /* strtok_r */
#include "check.h"
#include "options.h"
#include "overlap.h"
#include "results.h"
#include "scaling.h"
#include "threads.h"
#include "timing.h"
#include "util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef long long (*counter_fn)(long long total, int T);

static const struct {
    const char *name;
    counter_fn run;
    const char *how;
} variants[] = {
    { "racy",    counter_racy,    "c = c + 1, unprotected (a data race)" },
    { "mutex",   counter_mutex,   "lock; c = c + 1; unlock" },
    { "atomic",  counter_atomic,  "atomic_fetch_add(&c, 1)" },
    { "partial", counter_partial, "private count per thread, one combine" },
};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])
#define RACY 0

/* --variant a,b: which variants run. Exits 2 on a name it does not know. */
static void pick_variants(const char *prog, const char *list, bool *on)
{
    for (int v = 0; v < NVARIANTS; v++) on[v] = list == NULL;
    if (!list) return;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int v = 0;
        while (v < NVARIANTS && strcmp(name, variants[v].name) != 0) v++;
        if (v == NVARIANTS) {
            fprintf(stderr, "%s: --variant: unknown variant '%s' (racy, mutex, atomic, partial)\n", prog, name);
            exit(PW_EXIT_USAGE);
        }
        on[v] = true;
    }
}

/* Every fix gives exactly `total`, for awkward totals and thread counts. */
static int verify(const bool *on, long long updates, const pw_list *threads)
{
    long long totals[] = { 1, 7, 1001, 100003, updates };
    int odd_t[PW_MAX_LIST + 4] = { 1, 2, 3, 7 }, nt = 4;
    for (int k = 0; k < threads->n; k++) odd_t[nt++] = (int)threads->v[k];
    int bad = 0;
    char what[96];
    for (int v = 0; v < NVARIANTS; v++) {
        if (!on[v] || v == RACY) continue;
        for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++)
            for (int k = 0; k < nt; k++) {
                snprintf(what, sizeof what, "counter_%s total=%lld threads=%d", variants[v].name, totals[i], odd_t[k]);
                bad |= pw_check_scalar(what, (double)variants[v].run(totals[i], odd_t[k]), (double)totals[i], 0, 0);
            }
    }
    return bad;
}

/* The racy counter, run `runs` times at T threads: the median share lost,
 * the least and most updates lost, how many runs lost any, and (into ov)
 * whether the threads ran at the same time: a race needs them to. */
static double measure_loss(long long total, int T, int runs, long long *least, long long *most, int *losing,
                           pw_overlap *ov)
{
    double share[16];
    *least = total;
    *most = 0;
    *losing = 0;
    for (int r = 0; r < runs; r++) {
        pw_overlap_mark m = pw_overlap_begin();
        long long got = counter_racy(total, T);
        pw_overlap_end(ov, m);
        long long lost = total - got;
        *losing += lost > 0;
        share[r] = (double)lost / (double)total;
        if (lost < *least) *least = lost;
        if (lost > *most) *most = lost;
    }
    return pw_median(share, runs);
}

typedef struct { counter_fn run; long long total; int threads; long long got; pw_overlap ov; } race_ctx;
static void run_counter(void *p)
{
    race_ctx *c = p;
    pw_overlap_mark m = pw_overlap_begin();
    c->got = c->run(c->total, c->threads);
    pw_overlap_end(&c->ov, m);
}

/* What the racy runs showed at T threads, in one sentence from their numbers. */
static void say_loss(int T, int runs, int losing, long long least, long long most, double share, bool suspect)
{
    if (T == 1) {
        if (most == 0) printf("1 thread: no update lost in %d runs (one thread cannot race with itself)\n", runs);
        else printf("1 thread: %lld updates lost, which one thread cannot do: a bug in this program\n", most);
    } else if (losing == runs) {
        printf("%d threads: every one of the %d runs lost updates (%lld to %lld, median %.1f%%): a race gives a "
               "random answer, not one you could correct for\n", T, runs, least, most, 100 * share);
    } else if (losing > 0) {
        printf("%d threads: %d of the %d runs lost updates (up to %lld): whether a run loses is luck, which is how "
               "races slip past tests\n", T, losing, runs, most);
    } else if (suspect) {
        printf("%d threads: no run lost an update, because the threads hardly ran at the same time: the race is "
               "still there (ThreadSanitizer reports it), this run could not show it\n", T);
    } else {
        printf("%d threads: no run lost an update although the threads ran together: the race is still there "
               "(ThreadSanitizer reports it), it did not strike in these %d runs\n", T, runs);
    }
}

int main(int argc, char **argv)
{
    long long updates = 4000000;
    pw_list threads = { .n = 0 };
    const char *variant_list = NULL;
    pw_opt opts[] = {
        { "-u", "--updates", PW_OPT_INT, &updates, "N", "increments in all, shared out over the threads (default 4M)", 1, 1LL << 40 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1, 2, ... cores, 2x cores; or THREADS=)", 1, PW_MAX_THREADS },
        { NULL, "--variant", PW_OPT_STRING, &variant_list, "V[,V...]", "run only these: racy, mutex, atomic, partial (default all)", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "a racy shared counter loses updates; mutex, atomic and partial sums fix it",
                     opts, 3, &common);
    bool on[NVARIANTS];
    pick_variants(common.prog, variant_list, on);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (common.tiny) updates = 20001;
    int cores = pw_cores();

    if (verify(on, updates, &threads)) {
        fprintf(stderr, "%s: a fixed counter did not count every update; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the reference: mutex, atomic and partial count every update exactly "
           "(totals 1 to %lld, 1 to %d threads)\n", updates, pw_list_max(&threads) > 7 ? (int)pw_list_max(&threads) : 7);

    /* The racy counter's result is not a bug of this program: it is what is
     * being measured. Five runs per thread count show how much it varies. */
    char lost_param[PW_MAX_LIST][48];
    double lost_share[PW_MAX_LIST];
    bool racy_suspect[PW_MAX_LIST] = { false };   /* for the answer line */
    if (on[RACY]) {
        printf("\nracy: %lld updates, the count each run came out short by (5 runs per thread count)\n", updates);
        printf("%8s %14s %14s %12s\n", "threads", "least lost", "most lost", "median lost");
        long long least[PW_MAX_LIST], most[PW_MAX_LIST];
        int losing[PW_MAX_LIST];
        bool suspect[PW_MAX_LIST];
        double share_of[PW_MAX_LIST];
        for (int k = 0; k < threads.n; k++) {
            pw_overlap ov = { 0, 0, 0 };
            int T = (int)threads.v[k];
            lost_share[k] = measure_loss(updates, T, 5, &least[k], &most[k], &losing[k], &ov);
            suspect[k] = racy_suspect[k] = pw_overlap_suspect(&ov, T, cores);
            share_of[k] = pw_overlap_share(&ov, T, cores);
            printf("%8d %14lld %14lld %11.1f%%", T, least[k], most[k], 100 * lost_share[k]);
            if (suspect[k]) printf("   suspect: together %.0f%%", 100 * pw_overlap_share(&ov, T, cores));
            printf("\n");
            snprintf(lost_param[k], sizeof lost_param[k], "lost %.1f%%", 100 * lost_share[k]);
        }
        for (int k = 0; k < threads.n; k++)
            say_loss((int)threads.v[k], 5, losing[k], least[k], most[k], lost_share[k], suspect[k]);
        int ts[PW_MAX_LIST];
        for (int k = 0; k < threads.n; k++) ts[k] = (int)threads.v[k];
        pw_overlap_warn_sweep(stdout, "racy (only threads running at once can collide)", ts, share_of, threads.n, cores);
    }

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    printf("\ncost per update: the median time of %lld updates / %lld\n", updates, updates);
    printf("%-8s %8s %12s %7s %12s  %s\n", "variant", "threads", "ns/update", "IQR", "vs 1 thread", "how");
    static double ns_at[NVARIANTS][PW_MAX_LIST];
    int timed_suspect = 0;
    for (int v = 0; v < NVARIANTS; v++) {
        if (!on[v]) continue;
        /* The thread counts of one variant are sampled in turns
         * (pw_bench_sweep), not one after the other: this virtual machine's
         * speed drifts by about 10% over seconds (one thread took 60 ms in one
         * run, 67 ms in the next), which would bias the "vs 1 thread" ratio. */
        static race_ctx ctxs[PW_MAX_LIST];
        static void *ctxp[PW_MAX_LIST];
        static pw_work_fn fns[PW_MAX_LIST];
        static pw_bench_stats sts[PW_MAX_LIST];
        for (int k = 0; k < threads.n; k++) {
            ctxs[k] = (race_ctx){ variants[v].run, updates, (int)threads.v[k], 0, { 0, 0, 0 } };
            ctxp[k] = &ctxs[k];
            fns[k] = run_counter;
        }
        pw_bench_sweep(&cfg, fns, ctxp, threads.n, sts);
        double one = 0;
        for (int k = 0; k < threads.n; k++) {
            const race_ctx *ctx = &ctxs[k];
            const pw_bench_stats *st = &sts[k];
            double ns = st->median * 1e9 / (double)updates;
            double ov = pw_overlap_share(&ctx->ov, ctx->threads, cores);
            if (k == 0) one = ns;
            ns_at[v][k] = ns;
            printf("%-8s %8d %12.2f %6.1f%% %11.2fx  %s", variants[v].name, ctx->threads, ns,
                   100 * (st->q3 - st->q1) / st->median, ns / one,
                   v == RACY ? lost_param[k] : variants[v].how);
            if (ov < PW_OVERLAP_SUSPECT) {
                printf("   suspect: together %.0f%%", 100 * ov);
                timed_suspect++;
            }
            printf("\n");
            /* The racy rows carry the share lost; the fixes' rows are exact. */
            pw_csv_summary_overlap(csv, variants[v].name, updates, ctx->threads, v == RACY ? lost_param[k] : "exact",
                                   st, 0, 0, ov);
        }
    }
    if (timed_suspect)
        printf("suspect: %d timed rows ran with threads that mostly took turns on one core; their costs are not "
               "what threads on separate cores pay: %s\n", timed_suspect,
               pw_cpus_allowed() < (cores < 2 ? cores : 2) ? "this process may run on only one CPU (taskset?)"
                                                          : "rerun on an idle machine");
    /* The conclusion, at the most threads that fit on the cores. */
    int at = -1;
    for (int k = 0; k < threads.n; k++)
        if (threads.v[k] > 1 && threads.v[k] <= cores && (at < 0 || threads.v[k] > threads.v[at])) at = k;
    if (at >= 0 && on[RACY])
        printf("\nracy at %lld threads: %.2f ns per update and %.1f%% of the updates lost (median): %s\n",
               threads.v[at], ns_at[RACY][at], 100 * lost_share[at],
               lost_share[at] > 0 ? "fast and wrong." : "fast, and wrong whenever its threads run at once (not in this run).");
    if (at >= 0 && on[1] && on[2] && on[3]) {
        double m = ns_at[1][at], a = ns_at[2][at], pa = ns_at[3][at];
        printf("the fixes at %lld threads, per update: mutex %.2f ns, atomic %.2f ns, partial %.2f ns", threads.v[at],
               m, a, pa);
        if (pa < a && a < m)
            printf(": the less the threads share, the cheaper an update%s.\n",
                   timed_suspect ? " (even with threads taking turns; on separate cores the gaps grow)" : "");
        else
            printf(": not the order the lesson expects (partial < atomic < mutex)%s.\n",
                   timed_suspect ? ", and the threads did not run at the same time" : "; the run may be too noisy");
    }
    /* The answer to step 2's prediction: the share lost at the most threads
     * that fit on the cores, and the cheapest fix there, rounded as the
     * tables round them. */
    if (at < 0) {
        printf("\nanswer: not shown on this run: %s\n", cores < 2 ? "this machine has one core, so no two threads can run at once"
               : "no thread count between 2 and the cores was run");
    } else {
        printf("\nanswer: at %lld threads ", threads.v[at]);
        if (!on[RACY]) printf("racy was not run");
        else if (racy_suspect[at])
            printf("racy lost %.1f%% of the updates: not shown on this run, the threads hardly ran at the same time",
                   100 * lost_share[at]);
        else printf("racy lost %.1f%% of the updates (median of 5 runs)", 100 * lost_share[at]);
        int cheapest = -1;
        for (int v = 1; v < NVARIANTS; v++)
            if (on[v] && (cheapest < 0 || ns_at[v][at] < ns_at[cheapest][at])) cheapest = v;
        if (cheapest >= 0) {
            printf("; the cheapest fix per update was %s (%.2f ns", variants[cheapest].name, ns_at[cheapest][at]);
            for (int v = 1; v < NVARIANTS; v++)
                if (on[v] && v != cheapest) printf("; %s %.2f", variants[v].name, ns_at[v][at]);
            printf(")");
        }
        printf("\n");
    }
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
