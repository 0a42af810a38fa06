/* chapters/03-threads/deadlock.c: two locks taken in opposite order hang
 * forever; this program notices, says so, and shows the fix.
 *
 * Two bank accounts, each with its own mutex. A transfer locks both accounts,
 * moves the money, and unlocks. Thread A moves money from account 0 to 1,
 * thread B from 1 to 0:
 *   opposite  each locks its "from" account first. A holds 0 and waits for 1;
 *             B holds 1 and waits for 0. Neither can go on: a deadlock. A
 *             real program would hang here. This one takes the second lock
 *             with a trylock loop and a deadline (pthread_mutex_timedlock
 *             would do, but macOS lacks it), so a thread that waited too long
 *             reports the deadlock, lets go of its first lock and gives up.
 *   ordered   every thread locks the account with the lower number first.
 *             Whoever gets account 0 first also gets account 1; the other
 *             waits for account 0 while holding nothing, so no cycle of
 *             waiting can form. That global lock order is the fix.
 *
 * Three runs:
 *   1. forced: both threads start together, take their first lock, then
 *      pause 50 ms (work between the two locks), so that each surely holds
 *      its first lock when it asks for the second. opposite deadlocks every
 *      time (detected after --timeout ms); ordered finishes.
 *   2. free-running opposite order: `transfers` each, no pause. Whether and
 *      when it deadlocks is up to timing; the detector reports it.
 *   3. ordered, free-running: every transfer done, the balances checked
 *      against the arithmetic, then timed.
 *
 *   ./build/ch03/deadlock                     timeout 250 ms, 200000 transfers per thread
 *   ./build/ch03/deadlock --variant ordered   only the ordered runs (ThreadSanitizer: clean)
 *
 * Exit status 0 when the deadlock was detected and the ordered version was
 * right: the deadlock is the lesson. 1 if the ordered version went wrong.
 */
#define _POSIX_C_SOURCE 200809L   /* nanosleep, strtok_r, sched_yield */
#include "barrier.h"
#include "check.h"
#include "errcheck.h"
#include "options.h"
#include "overlap.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAUSE_S 0.05          /* the forced run's work between the two locks */
#define START_BALANCE 1000000000LL

typedef struct {
    pthread_mutex_t lock;
    long long balance;
} account;

static account acct[2];

/* Sleep s seconds (POSIX nanosleep: usleep is gone from POSIX 2008). */
static void pause_s(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    nanosleep(&ts, NULL);
}

/* Lock m, or give up at `deadline` (pw_now seconds): 0 on success, 1 on
 * timeout. A trylock loop works everywhere; sched_yield lets the holder run
 * when both threads share a core. */
static int lock_by(pthread_mutex_t *m, double deadline)
{
    for (;;) {
        int rc = pthread_mutex_trylock(m);
        if (rc == 0) return 0;
        if (rc != EBUSY) PW_CHECK_PTHREAD(rc);
        if (pw_now() > deadline) return 1;
        sched_yield();
    }
}

/* One thread's task and what happened to it. */
typedef struct {
    int from, to;            /* move money from account `from` to `to` */
    bool ordered;            /* lock the lower-numbered account first */
    long long transfers;     /* how many */
    double pause;            /* seconds between first and second lock (forced run) */
    double timeout;          /* seconds to wait for the second lock */
    pw_barrier *start;       /* both threads begin together */
    atomic_bool *stop;       /* set by whoever detects a deadlock */
    long long done;          /* out: transfers completed */
    bool deadlocked;         /* out: gave up waiting for the second lock */
    int held, wanted;        /* out: the locks at the time */
    double waited;           /* out: how long it waited (s) */
} task;

/* Transfer amount i (1..7, so the sums are easy to check) `transfers` times.
 * Returns when done, when it detects a deadlock, or when the other did. */
static void *transfer_worker(void *p)
{
    task *t = p;
    int first = t->ordered && t->to < t->from ? t->to : t->from;
    int second = first == t->from ? t->to : t->from;
    pw_barrier_wait(t->start);
    for (long long i = 0; i < t->transfers && !atomic_load(t->stop); i++) {
        PW_CHECK_PTHREAD(pthread_mutex_lock(&acct[first].lock));
        if (t->pause > 0) pause_s(t->pause);
        double asked = pw_now();
        if (lock_by(&acct[second].lock, asked + t->timeout)) {
            /* Deadlock: the other thread holds `second` and waits for
             * `first`, which we hold. Let go (so it can finish) and report. */
            t->deadlocked = true;
            t->held = first;
            t->wanted = second;
            t->waited = pw_now() - asked;
            atomic_store(t->stop, true);
            PW_CHECK_PTHREAD(pthread_mutex_unlock(&acct[first].lock));
            break;
        }
        long long amount = i % 7 + 1;
        acct[t->from].balance -= amount;
        acct[t->to].balance += amount;
        t->done++;
        PW_CHECK_PTHREAD(pthread_mutex_unlock(&acct[second].lock));
        PW_CHECK_PTHREAD(pthread_mutex_unlock(&acct[first].lock));
    }
    return NULL;
}

/* Thread A: 0 -> 1, thread B: 1 -> 0, with the given lock order. */
static void run_pair(task *tk, bool ordered, long long transfers, double pause, double timeout)
{
    static pw_barrier start;
    static atomic_bool stop;
    pw_barrier_init(&start, 2);
    atomic_store(&stop, false);
    pthread_t tid[2];
    for (int k = 0; k < 2; k++) {
        tk[k] = (task){ .from = k, .to = 1 - k, .ordered = ordered, .transfers = transfers, .pause = pause,
                        .timeout = timeout, .start = &start, .stop = &stop };
        PW_CHECK_PTHREAD(pthread_create(&tid[k], NULL, transfer_worker, &tk[k]));
    }
    for (int k = 0; k < 2; k++) PW_CHECK_PTHREAD(pthread_join(tid[k], NULL));
    pw_barrier_destroy(&start);
}

static void reset_accounts(void)
{
    for (int a = 0; a < 2; a++) acct[a].balance = START_BALANCE;
}

/* What thread k's completed transfers moved: amounts 1..7 cycling. */
static long long moved(long long done)
{
    long long whole = done / 7, rest = done % 7;
    return whole * 28 + rest * (rest + 1) / 2;
}

/* The balances against the arithmetic of what each thread completed, and
 * the total against what it started as. 0 if right. */
static int check_balances(const char *what, const task *tk)
{
    char label[96];
    long long a_to_b = moved(tk[0].done), b_to_a = moved(tk[1].done);
    int bad = 0;
    snprintf(label, sizeof label, "%s: account 0", what);
    bad |= pw_check_scalar(label, (double)acct[0].balance, (double)(START_BALANCE - a_to_b + b_to_a), 0, 0);
    snprintf(label, sizeof label, "%s: account 1", what);
    bad |= pw_check_scalar(label, (double)acct[1].balance, (double)(START_BALANCE + a_to_b - b_to_a), 0, 0);
    return bad;
}

static void report_pair(const char *name, const task *tk)
{
    for (int k = 0; k < 2; k++) {
        const task *t = &tk[k];
        if (t->deadlocked)
            printf("  %s thread %c: DEADLOCK detected: it held account %d and waited %.0f ms for account %d "
                   "(held by the other thread, which waits for account %d); it let go and gave up after %lld transfers\n",
                   name, 'A' + k, t->held, t->waited * 1e3, t->wanted, t->held, t->done);
        else if (t->done < t->transfers)
            printf("  %s thread %c: stopped after %lld transfer%s, when the other thread reported the deadlock\n", name,
                   'A' + k, t->done, t->done == 1 ? "" : "s");
        else
            printf("  %s thread %c: finished, %lld transfer%s\n", name, 'A' + k, t->done, t->done == 1 ? "" : "s");
    }
}

typedef struct { long long transfers; task tk[2]; } stress_ctx;

/* A row of the CSV, kept until the run is known to be right. */
typedef struct { const char *variant; long long n; const char *param; double s; double overlap; } csv_row;
static void run_ordered(void *p)
{
    stress_ctx *c = p;
    reset_accounts();
    run_pair(c->tk, true, c->transfers, 0, 60);
}

int main(int argc, char **argv)
{
    long long timeout_ms = 250, transfers = 200000;
    const char *variant_list = NULL;
    pw_opt opts[] = {
        { NULL, "--timeout", PW_OPT_INT, &timeout_ms, "MS", "wait this long for a second lock before calling it a deadlock (default 250)", 1, 60000 },
        { NULL, "--transfers", PW_OPT_INT, &transfers, "N", "transfers per thread in the free-running runs (default 200000)", 1, 1LL << 40 },
        { NULL, "--variant", PW_OPT_STRING, &variant_list, "V[,V...]", "run only these: opposite, ordered (default both)", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "a deadlock from two locks in opposite order, detected with a timeout; fixed by a lock order",
                     opts, 3, &common);
    bool run_opposite = variant_list == NULL, run_ord = variant_list == NULL;
    if (variant_list) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", variant_list);
        for (char *save = NULL, *v = strtok_r(buf, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
            if (!strcmp(v, "opposite")) run_opposite = true;
            else if (!strcmp(v, "ordered")) run_ord = true;
            else {
                fprintf(stderr, "%s: --variant: unknown variant '%s' (opposite, ordered)\n", common.prog, v);
                return PW_EXIT_USAGE;
            }
        }
    }
    if (common.tiny) transfers = 2001;
    double timeout = (double)timeout_ms / 1e3;
    for (int a = 0; a < 2; a++) PW_CHECK_PTHREAD(pthread_mutex_init(&acct[a].lock, NULL));
    task tk[2];
    int bad = 0;

    /* The ordered version must be right before anything is timed. */
    if (run_ord) {
        reset_accounts();
        run_pair(tk, true, 1, PAUSE_S, 60);
        bad |= tk[0].deadlocked || tk[1].deadlocked || check_balances("ordered, forced", tk);
        reset_accounts();
        run_pair(tk, true, transfers, 0, 60);
        bad |= tk[0].deadlocked || tk[1].deadlocked || check_balances("ordered, free-running", tk);
        if (bad) {
            fprintf(stderr, "%s: the ordered transfers went wrong; nothing was timed\n", common.prog);
            return PW_EXIT_WRONG;
        }
        printf("all variants match the reference: ordered locking completed every transfer, balances exact\n");
    }

    /* Rows are kept until the end: a run that went wrong writes no CSV. */
    csv_row rows[3];
    int nrows = 0;
    /* The free-running opposite run, for the answer line. */
    bool free_caught = false, free_suspect = false;
    long long free_done[2] = { 0, 0 };
    pw_bench_stats st;
    if (run_opposite) {
        printf("\n1. forced: A moves 0 -> 1 and B moves 1 -> 0, each pausing %.0f ms between its two locks\n",
               PAUSE_S * 1e3);
        reset_accounts();
        double t0 = pw_now();
        run_pair(tk, false, 1, PAUSE_S, timeout);
        double took = pw_now() - t0;
        report_pair("opposite", tk);
        bool caught = tk[0].deadlocked || tk[1].deadlocked;
        if (caught)
            printf("  deadlock detected after %.0f ms (timeout %lld ms): without the timeout this program would hang here\n",
                   took * 1e3, timeout_ms);
        else
            printf("  no deadlock this time: one thread got both locks before the other took its first "
                   "(a heavily loaded machine can delay a thread by more than the pause)\n");
        /* The rollback kept the money right: the check holds either way. */
        bad |= check_balances("opposite, forced", tk);
        rows[nrows++] = (csv_row){ "opposite_forced", 1, caught ? "deadlock detected" : "no deadlock", took, NAN };
    }
    if (run_ord) {
        reset_accounts();
        double t0 = pw_now();
        run_pair(tk, true, 1, PAUSE_S, timeout);
        double took = pw_now() - t0;
        printf("\n1. forced, ordered: both lock account 0 first\n");
        report_pair("ordered", tk);
        bool stuck = tk[0].deadlocked || tk[1].deadlocked;
        bad |= stuck || check_balances("ordered, forced", tk);
        if (stuck)
            printf("  a deadlock with ordered locks: that cannot happen, this program is wrong\n");
        else
            printf("  no deadlock: the second thread waited for account 0 holding nothing, then went; %.0f ms in all "
                   "(%s)\n", took * 1e3, took >= 1.8 * PAUSE_S ? "two pauses, one after the other"
                                                              : "less than two pauses: a thread was delayed");
        rows[nrows++] = (csv_row){ "ordered_forced", 1, stuck ? "deadlock" : "finished", took, NAN };
    }

    if (run_opposite) {
        printf("\n2. free-running, opposite order: %lld transfers per thread, no pause\n", transfers);
        reset_accounts();
        pw_overlap ov = { 0, 0, 0 };
        pw_overlap_mark m = pw_overlap_begin();
        double t0 = pw_now();
        run_pair(tk, false, transfers, 0, timeout);
        double took = pw_now() - t0;
        pw_overlap_end(&ov, m);
        report_pair("opposite", tk);
        bool caught = tk[0].deadlocked || tk[1].deadlocked;
        free_caught = caught;
        free_suspect = !caught && pw_overlap_suspect(&ov, 2, pw_cores());
        free_done[0] = tk[0].done;
        free_done[1] = tk[1].done;
        /* Judged only when nothing deadlocked: the detector's wait spins
         * (trylock and yield) and would count as running together. */
        if (caught)
            printf("  deadlocked after %lld + %lld transfers: rare per transfer, but (in theory) certain given "
                   "enough of them\n", tk[0].done, tk[1].done);
        else if (pw_overlap_suspect(&ov, 2, pw_cores()))
            printf("  no deadlock in this run, and the two threads hardly ran at the same time (together %.0f%%): "
                   "on one core the bad interleaving needs a thread switch between the two locks, which is rare\n",
                   100 * pw_overlap_share(&ov, 2, pw_cores()));
        else
            printf("  no deadlock in this run: the bad interleaving is a matter of timing, and this time it did not come\n");
        if (!caught) pw_overlap_warn(stdout, "opposite, free-running", &ov, 2, pw_cores());
        bad |= check_balances("opposite, free-running", tk);
        rows[nrows++] = (csv_row){ "opposite_free", transfers, caught ? "deadlock detected" : "no deadlock", took,
                                   caught ? NAN : pw_overlap_share(&ov, 2, pw_cores()) };
    }

    if (run_ord) {
        printf("\n3. free-running, ordered: %lld transfers per thread\n", transfers);
        pw_bench_config cfg = pw_bench_from_opts(&common);
        static stress_ctx ctx;
        ctx.transfers = transfers;
        pw_bench(&cfg, run_ordered, &ctx, &st);
        bad |= check_balances("ordered, timed", ctx.tk);
        printf("  every transfer done: %.1f ms (IQR %.1f%%), %.0f ns per transfer, balances exact\n",
               st.median * 1e3, 100 * (st.q3 - st.q1) / st.median, st.median * 1e9 / (2.0 * (double)transfers));
    }
    for (int a = 0; a < 2; a++) PW_CHECK_PTHREAD(pthread_mutex_destroy(&acct[a].lock));
    if (bad) {
        fprintf(stderr, "%s: the balances went wrong\n", common.prog);
        return PW_EXIT_WRONG;
    }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    for (int r = 0; r < nrows; r++) {
        /* One timing each; the free-running run also carries its overlap. */
        static pw_bench_stats one;
        one.reps = 1;
        one.median = one.min = one.q1 = one.q3 = one.max = one.mean = rows[r].s;
        pw_csv_summary_overlap(csv, rows[r].variant, rows[r].n, 2, rows[r].param, &one, 0, 0, rows[r].overlap);
    }
    if (run_ord) pw_csv_summary(csv, "ordered", transfers, 2, "lower account first", &st, 0, 0);
    if (run_ord)
        printf("\nordered: no deadlock and exact balances in every run. The fix is an order (theory: take locks in one "
               "global order, here by account number, and no cycle of waiting can form).\n");
    /* The answer to step 4's prediction, from the free-running runs. */
    if (run_opposite || run_ord) {
        printf("\nanswer: ");
        if (!run_opposite) printf("the opposite order was not run");
        else if (free_caught)
            printf("the opposite order deadlocked after %lld + %lld of 2 x %lld transfers", free_done[0], free_done[1],
                   transfers);
        else
            printf("not shown on this run: no deadlock in 2 x %lld opposite-order transfers%s", transfers,
                   free_suspect ? ", and the threads hardly ran at the same time" : " (a matter of timing: rerun)");
        if (run_ord) printf("; the global order finished all %lld with no deadlock", 2 * transfers);
        printf("\n");
    }
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
