/* chapters/03-threads/false_sharing.c: threads that share nothing can still
 * share a cache line, and pay for it.
 *
 * T threads each add 1 to their OWN counter, `per` times (kernels/threads.h):
 *   packed   the counters 8 bytes apart: up to 8 of them in one 64-byte line
 *   padded   each counter alone in its 64-byte line (alignas(64))
 * No counter is touched by two threads, so there is no race and both are
 * exact. But a core must own a whole line to write any byte of it: in packed,
 * every store makes the line move to the writing core and be taken back by
 * the other, tens of nanoseconds each time. Padded keeps each line in its
 * core's L1, where a store costs a cycle or so.
 *
 * The flags matter: the counters are updated through `volatile`, so that
 * every increment is a real load and store. With plain `long long`, -O3 keeps
 * the counter in a register and stores it once at the end, and the two
 * layouts run at the same speed: the compiler, not the padding, would have
 * removed the false sharing. (No extra compiler flag is needed, see
 * chapters/03-threads/chapter.mk.)
 *
 *   ./build/ch03/false_sharing               10M updates per thread, threads 1, 2, ... cores, 2x cores
 *   ./build/ch03/false_sharing -u 50M -t 2
 *
 * Expect on 2 cores: the same time at 1 thread; packed several times slower
 * than padded at 2 threads.
 */
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

typedef void (*tally_fn)(long long per, int T, long long *out);

static const struct {
    const char *name;
    tally_fn run;
    const char *layout;
} variants[] = {
    { "packed", tally_packed, "8 B apart" },
    { "padded", tally_padded, "64 B apart" },
};

/* Every thread's counter ends at exactly `per`, both layouts, odd T too. */
static int verify(long long per, const pw_list *threads)
{
    long long pers[] = { 1, 7, 1001, per };
    int odd_t[PW_MAX_LIST + 4] = { 1, 2, 3, 7 }, nt = 4;
    for (int k = 0; k < threads->n; k++) odd_t[nt++] = (int)threads->v[k];
    long long out[PW_MAX_THREADS];
    int bad = 0;
    char what[96];
    for (int v = 0; v < 2; v++)
        for (size_t i = 0; i < sizeof pers / sizeof pers[0]; i++)
            for (int k = 0; k < nt; k++) {
                variants[v].run(pers[i], odd_t[k], out);
                for (int t = 0; t < odd_t[k]; t++) {
                    snprintf(what, sizeof what, "tally_%s per=%lld threads=%d thread %d", variants[v].name,
                             pers[i], odd_t[k], t);
                    if (pw_check_scalar(what, (double)out[t], (double)pers[i], 0, 0)) { bad = 1; break; }
                }
            }
    return bad;
}

typedef struct { tally_fn run; long long per; int threads; pw_overlap ov; long long out[PW_MAX_THREADS]; } fs_ctx;
/* Each call also measures whether its threads ran at the same time: a line
 * bounces between cores only if two cores write it in the same stretch. */
static void run_tally(void *p)
{
    fs_ctx *c = p;
    pw_overlap_mark m = pw_overlap_begin();
    c->run(c->per, c->threads, c->out);
    pw_overlap_end(&c->ov, m);
}

int main(int argc, char **argv)
{
    long long per = 10000000;
    pw_list threads = { .n = 0 };
    pw_opt opts[] = {
        { "-u", "--updates", PW_OPT_INT, &per, "N", "increments per thread, each to its own counter (default 10M)", 1, 1LL << 40 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1, 2, ... cores, 2x cores; or THREADS=)", 1, PW_MAX_THREADS },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "false sharing: per-thread counters in one cache line vs one line each",
                     opts, 2, &common);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (common.tiny) per = 20001;
    int cores = pw_cores();

    if (verify(per, &threads)) {
        fprintf(stderr, "%s: a counter came out wrong; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the reference: every thread's counter is exact in both layouts\n\n");

    static fs_ctx ctx[2];   /* static: out[] holds PW_MAX_THREADS counts */
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    printf("%lld updates per thread; ns/update = median time / updates per thread\n", per);
    double slowdown[PW_MAX_LIST], packed_share[PW_MAX_LIST];
    printf("%8s %12s %12s %7s %12s %7s %10s\n", "threads", "packed ms", "ns/update", "IQR", "padded ms", "IQR",
           "slowdown");
    for (int k = 0; k < threads.n; k++) {
        /* packed and padded are sampled in turns (pw_bench_sweep), not one
         * after the other: this virtual machine's speed drifts by about 10%
         * over seconds (one thread took 60 ms in one run, 67 ms in the next),
         * which would land on one side of the slowdown. */
        static pw_bench_stats st[2];   /* static: 8 kB each */
        for (int v = 0; v < 2; v++) {
            ctx[v].run = variants[v].run;
            ctx[v].per = per;
            ctx[v].threads = (int)threads.v[k];
            ctx[v].ov = (pw_overlap){ 0, 0, 0 };
        }
        pw_bench_sweep(&cfg, (const pw_work_fn[]){ run_tally, run_tally }, (void *const[]){ &ctx[0], &ctx[1] }, 2, st);
        double ov[2];
        for (int v = 0; v < 2; v++) {
            ov[v] = pw_overlap_share(&ctx[v].ov, ctx[v].threads, cores);
            pw_csv_summary_overlap(csv, variants[v].name, per, ctx[v].threads, variants[v].layout, &st[v], 0, 0, ov[v]);
        }
        slowdown[k] = st[0].median / st[1].median;
        packed_share[k] = ov[0];
        printf("%8lld %12.3f %12.2f %6.1f%% %12.3f %6.1f%% %9.2fx%s", threads.v[k], st[0].median * 1e3,
               st[0].median * 1e9 / (double)per, 100 * (st[0].q3 - st[0].q1) / st[0].median, st[1].median * 1e3,
               100 * (st[1].q3 - st[1].q1) / st[1].median, slowdown[k],
               threads.v[k] > cores ? "   oversubscribed" : "");
        if (ov[0] < PW_OVERLAP_SUSPECT) printf("   suspect: together %.0f%%", 100 * ov[0]);
        printf("\n");
    }
    int ts[PW_MAX_LIST];
    for (int k = 0; k < threads.n; k++) ts[k] = (int)threads.v[k];
    pw_overlap_warn_sweep(stdout, "packed (a line bounces only between cores that write it at once)", ts,
                          packed_share, threads.n, cores);

    /* The conclusions, from this run's slowdowns. 1.3x: well outside the
     * spread two identical layouts show on a noisy machine (0.94x here). */
    printf("\nslowdown = packed / padded: the price of counters that share a cache line across cores.\n");
    for (int k = 0; k < threads.n; k++) {
        if (threads.v[k] == 1)
            printf("1 thread: %.2fx: %s\n", slowdown[k], slowdown[k] < 1.3 && slowdown[k] > 1 / 1.3
                   ? "both layouts alike, as they must be with no other core to take the line away"
                   : "the layouts differ with one thread, which false sharing cannot cause: a noisy run");
        else if (threads.v[k] <= cores) {
            bool sus = packed_share[k] < PW_OVERLAP_SUSPECT;
            printf("%lld threads: packed took %.2fx as long as padded: ", threads.v[k], slowdown[k]);
            if (slowdown[k] >= 1.3 && !sus)
                printf("the shared line moving between the cores on every store\n");
            else if (slowdown[k] >= 1.3)
                printf("slower, though the threads mostly took turns (the line still moves at each switch)\n");
            else if (sus)
                printf("no clear cost, because the threads got too little CPU to run side by side: no other "
                       "core wanted the line at the same moment; this run cannot show false sharing\n");
            else
                printf("no clear cost although the threads ran together: this CPU hides it well, or the run "
                       "was too noisy\n");
        }
    }
    /* The answer to step 3's prediction: the slowdown at the most threads
     * that fit on the cores, as the table rounds it. */
    int at = -1;
    for (int k = 0; k < threads.n; k++)
        if (threads.v[k] > 1 && threads.v[k] <= cores && (at < 0 || threads.v[k] > threads.v[at])) at = k;
    if (at < 0)
        printf("answer: not shown on this run: %s\n", cores < 2 ? "this machine has one core, so no two cores fight for a line"
               : "no thread count between 2 and the cores was run");
    else if (packed_share[at] < PW_OVERLAP_SUSPECT)
        printf("answer: not shown on this run: at %lld threads packed took %.2fx as long as padded, but the threads got "
               "too little CPU to run side by side\n", threads.v[at], slowdown[at]);
    else
        printf("answer: at %lld threads packed took %.2fx as long as padded\n", threads.v[at], slowdown[at]);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
