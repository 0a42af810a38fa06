/* exercises/03-threads/check_bank.c: the checker of exercise 3.3 (a bug hunt).
 *
 * Built with your exercises/03-threads/bank.c by `make ex-3.3`, or with
 * solutions/03-threads/bank.c by `make solution-3.3`. It is also the bank's
 * library (bank.h): its account functions keep the balances and, on every
 * call, check the rules the header states, which makes the verdict
 * independent of timing and of how busy the machine is:
 *   - a balance is read or changed only by a thread that holds its lock;
 *   - no thread locks an account it already holds, or unlocks one it does not;
 *   - the locks are taken in one order: every "held a, then took b" is an
 *     edge of a graph, and a cycle in it (a then b in one thread, b then a in
 *     another) is a deadlock waiting for the wrong timing, found before any
 *     thread blocks;
 *   - a transfer holds only the few locks it needs (3 at most);
 *   - the work runs on the threads asked for.
 * The cases: 3, 17 and 64 accounts; n = 0, 1, 7, 1001, 65537 transfers (odd:
 * uneven blocks) on 1, 2, 3 and 7 threads, 7 transfers on 16 threads, and
 * 200003 transfers among 2 customers on 7 threads (every transfer contends).
 * Final balances must equal applying the transfers one by one, and no lock
 * may be left held. The first broken rule is reported as the kind of bug it
 * is, never with a place in your file. Last line "PASS: ..." and exit 0, or
 * exit 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bank.h"
#include "errcheck.h"
#include "exercise.h"
#include "util.h"

#define MAX_ACCOUNTS 64
#define MAX_HELD 8          /* per thread; a transfer needs 3 */
#define MOST_NEEDED 3       /* sender, receiver, the fee account */

struct bank {
    int accounts;
    long long balance[MAX_ACCOUNTS];
    pthread_mutex_t lock[MAX_ACCOUNTS];
};

/* Per thread: the locks it holds, and which thread of the current case it is. */
static _Thread_local int held[MAX_HELD], nheld, my_case = -1;
static int case_no;                         /* set before run_transfers starts threads */
static atomic_int threads_seen;
static atomic_uchar edge[MAX_ACCOUNTS][MAX_ACCOUNTS];  /* edge[a][b]: some thread held a, then took b */
static atomic_int failed;

/* The first broken rule: one FAIL line and why, then exit 1 at once (other
 * threads may be waiting on locks the failing thread holds). */
static void stop(const char *what, const char *why)
{
    if (atomic_exchange(&failed, 1)) for (;;) pause();   /* another thread is reporting */
    printf("wrong\nFAIL: %s\n%s\nexercise 3.3 is not right yet: start with the FAIL above\n", what, why);
    fflush(stdout);
    _exit(PW_EXIT_WRONG);
}

static void check_account(const bank *b, int a)
{
    if (a < 0 || a >= b->accounts)
        stop("an account number outside the bank was used", "  accounts are 0 .. bank_accounts(b) - 1");
}

static int holds(int a)
{
    for (int i = 0; i < nheld; i++)
        if (held[i] == a) return 1;
    return 0;
}

/* Is there a path from a to target in the lock-order graph? */
static int reaches(int a, int target, unsigned char *seen, int accounts)
{
    if (a == target) return 1;
    seen[a] = 1;
    for (int c = 0; c < accounts; c++)
        if (!seen[c] && atomic_load(&edge[a][c]) && reaches(c, target, seen, accounts)) return 1;
    return 0;
}

static void note_thread(void)
{
    if (my_case == case_no) return;
    my_case = case_no;
    nheld = 0;
    atomic_fetch_add(&threads_seen, 1);
}

void account_lock(bank *b, int a)
{
    check_account(b, a);
    note_thread();
    if (holds(a))
        stop("a thread locked an account whose lock it already held",
             "  a lock is not counted: the second account_lock waits for the first one's unlock, forever");
    if (nheld == MAX_HELD) stop("a thread held more than 8 account locks at once", "  unlock what it no longer needs");
    /* Each new "held h, then took a" is checked before this thread can block:
     * seq_cst, so of two threads adding opposite edges at once, at least one
     * sees the other's, and a real deadlock is always found first. */
    for (int i = 0; i < nheld; i++) {
        int h = held[i];
        if (atomic_load(&edge[h][a]) || atomic_exchange(&edge[h][a], 1)) continue;
        unsigned char seen[MAX_ACCOUNTS] = { 0 };
        if (reaches(a, h, seen, b->accounts))
            stop("the account locks are not always taken in the same order: a deadlock is possible",
                 "  one thread held one account and waited for a second while another thread held the\n"
                 "  second (or a chain of them led back) and waited for the first: each waits for the\n"
                 "  other forever. This run found the circle in the order the locks were taken, whether\n"
                 "  or not the timing made it hang this time.");
    }
    held[nheld++] = a;
    if (nheld > MOST_NEEDED)
        stop("a thread held more than 3 account locks at once",
             "  a transfer changes 3 accounts at most: holding other accounts' locks makes transfers\n"
             "  that share no account wait for each other, which is what the locks per account avoid");
    PW_CHECK_PTHREAD(pthread_mutex_lock(&b->lock[a]));
}

void account_unlock(bank *b, int a)
{
    check_account(b, a);
    note_thread();
    int i = 0;
    while (i < nheld && held[i] != a) i++;
    if (i == nheld) stop("a thread unlocked an account whose lock it did not hold", "  unlock only what you locked");
    held[i] = held[--nheld];
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&b->lock[a]));
}

static void check_held(const bank *b, int a)
{
    check_account(b, a);
    note_thread();
    if (!holds(a))
        stop("a balance was used by a thread that did not hold that account's lock",
             "  a data race: nothing stopped another thread from changing the same account at the same\n"
             "  moment, and then one of the two changes is lost. This copy of the bank library checks\n"
             "  the lock on every call, so the verdict does not depend on timing or on how busy the\n"
             "  machine is (a plain run loses money only now and then).");
}

long long account_balance(bank *b, int a)
{
    check_held(b, a);
    return b->balance[a];
}

void account_add(bank *b, int a, long long cents)
{
    check_held(b, a);
    b->balance[a] += cents;
}

int bank_accounts(const bank *b) { return b->accounts; }

/* ---- the cases ---------------------------------------------------------- */

#define START_BALANCE 1000000LL

static uint64_t rng = 12345;
static uint64_t next_rand(void)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return rng >> 33;
}

static void make_transfers(transfer *t, size_t n, int accounts)
{
    for (size_t i = 0; i < n; i++) {
        int from = 1 + (int)(next_rand() % (uint64_t)(accounts - 1)), to;
        do to = 1 + (int)(next_rand() % (uint64_t)(accounts - 1)); while (to == from);
        t[i] = (transfer){ from, to, 1 + (long long)(next_rand() % 100000) };
    }
}

static int try_case(const transfer *t, size_t n, int accounts, int T)
{
    static bank b;
    long long want[MAX_ACCOUNTS];
    printf("  %2d accounts  n = %-7zu threads = %-3d ", accounts, n, T);
    b.accounts = accounts;
    for (int a = 0; a < accounts; a++) {
        b.balance[a] = want[a] = a == FEE_ACCOUNT ? 0 : START_BALANCE;
        PW_CHECK_PTHREAD(pthread_mutex_init(&b.lock[a], NULL));
    }
    for (size_t i = 0; i < n; i++) {
        long long fee = fee_of(t[i].cents);
        want[t[i].from] -= t[i].cents + fee;
        want[t[i].to] += t[i].cents;
        want[FEE_ACCOUNT] += fee;
    }
    for (int a = 0; a < MAX_ACCOUNTS; a++)
        for (int c = 0; c < MAX_ACCOUNTS; c++) atomic_store(&edge[a][c], 0);
    case_no++;
    atomic_store(&threads_seen, 0);

    run_transfers(&b, t, n, T);

    for (int a = 0; a < accounts; a++) {
        if (pthread_mutex_trylock(&b.lock[a]) != 0) {
            pw_ex_fail("%d accounts, n = %zu on %d thread%s: an account was still locked when run_transfers returned",
                       accounts, n, T, T == 1 ? "" : "s");
            printf("  every account_lock needs its account_unlock\n");
            return 1;
        }
        PW_CHECK_PTHREAD(pthread_mutex_unlock(&b.lock[a]));
        PW_CHECK_PTHREAD(pthread_mutex_destroy(&b.lock[a]));
    }
    long long total = 0, want_total = 0;
    for (int a = 0; a < accounts; a++) total += b.balance[a], want_total += want[a];
    for (int a = 0; a < accounts; a++)
        if (b.balance[a] != want[a]) {
            pw_ex_fail("%d accounts, n = %zu on %d thread%s: account %d holds %lld cents, want %lld (the bank's total "
                       "is %s)", accounts, n, T, T == 1 ? "" : "s", a, b.balance[a], want[a],
                       total == want_total ? "right" : "wrong: money was made or lost");
            printf("  every transfer must be applied exactly once, with its fee\n");
            return 1;
        }
    size_t busy = (size_t)T < n ? (size_t)T : n;
    int seen = atomic_load(&threads_seen);
    if (T > 1 && (size_t)seen < busy) {
        pw_ex_fail("%d accounts, n = %zu, asked for %d threads: the transfers ran on %d thread%s", accounts, n, T, seen,
                   seen == 1 ? "" : "s");
        printf("  thread k applies the k-th block of transfers (bank.h): the batch must run on the threads asked for\n");
        return 1;
    }
    printf("ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    enum { BIG = 200003, MOST = 65537 };
    transfer *t = malloc(BIG * sizeof *t);
    if (!t) { printf("FAIL: out of memory\n"); return PW_EXIT_WRONG; }
    printf("exercise 3.3: run_transfers() against applying the transfers one by one, with every lock checked\n");
    static const size_t sizes[] = { 0, 1, 7, 1001, MOST };
    static const int threads[] = { 1, 2, 3, 7 };
    static const int accounts[] = { 3, 17, 64 };
    int bad = 0;
    for (int a = 0; a < 3 && !bad; a++) {
        make_transfers(t, MOST, accounts[a]);
        for (int k = 0; k < 4 && !bad; k++)
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !bad; i++)
                bad = try_case(t, sizes[i], accounts[a], threads[k]);
        if (!bad) bad = try_case(t, 7, accounts[a], 16);
    }
    if (!bad) {
        make_transfers(t, BIG, 3);
        bad = try_case(t, BIG, 3, 7);
    }
    free(t);
    if (bad) {
        printf("exercise 3.3 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("every balance right on 1 to 16 threads, every change made under its account's lock, "
                      "the locks always taken in one order");
}
