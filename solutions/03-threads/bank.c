/* solutions/03-threads/bank.c: exercise 3.3 with its bug fixed.
 *
 * The bug: the fee was paid into FEE_ACCOUNT while holding the locks of the
 * sender and the receiver, but not the fee account's own. Every transfer
 * changes the fee account, and two threads moving money between four
 * different customers hold four different locks: nothing kept them from
 * doing `balance += fee` on account 0 at the same moment, and then one fee
 * is lost (a load, an add and a store each; chapter 03's racy counter). It
 * looked protected, since it sat between lock and unlock; but a lock
 * protects only the data that every thread touches while holding THAT lock.
 *
 * The fix: pay the fee under the fee account's lock, in a short critical
 * section of its own after the transfer's (so a thread never holds more
 * than two locks, and the lowest-first order cannot be broken). Taking the
 * fee account's lock as a third lock inside the transfer is also right
 * (account 0 first, as the lowest), but then every transfer holds the one
 * lock they all share for its whole length. Faster still (fewer lock
 * operations on the one account every thread wants): each thread adds up
 * its fees in a local variable and pays the sum once, after its block.
 * The checker's copy of the bank library checks the lock on every change,
 * so the old version fails on the first fee, whatever the timing.
 *
 * The rest of the program was right, and is unchanged:
 *
 * A payments batch: many transfers between customer accounts, applied by
 * several threads at once. Each transfer moves money from one account to
 * another and charges the sender a fee, paid into the bank's own account.
 * Every account has its own lock (bank.h), so transfers between different
 * accounts run side by side, and two transfers that touch the same account
 * take turns. Both locks of a transfer are taken lowest account first, so
 * that two threads never wait for each other in a circle.
 */
#include "bank.h"
#include "errcheck.h"

#include <pthread.h>
#include <stdlib.h>

/* One thread's share of the batch. */
typedef struct {
    bank *b;
    const transfer *t;
    size_t lo, hi;                 /* this thread's transfers: t[lo .. hi-1] */
} batch_job;

/* One transfer: both accounts locked, lower number first. */
static void apply(bank *b, const transfer *tr)
{
    int first = tr->from < tr->to ? tr->from : tr->to;
    int second = tr->from < tr->to ? tr->to : tr->from;
    long long fee = fee_of(tr->cents);

    account_lock(b, first);
    account_lock(b, second);
    account_add(b, tr->from, -(tr->cents + fee));
    account_add(b, tr->to, tr->cents);
    account_unlock(b, second);
    account_unlock(b, first);

    account_lock(b, FEE_ACCOUNT);   /* the fix: the fee account's own lock */
    account_add(b, FEE_ACCOUNT, fee);
    account_unlock(b, FEE_ACCOUNT);
}

static void *run_block(void *arg)
{
    batch_job *job = arg;
    for (size_t i = job->lo; i < job->hi; i++) apply(job->b, &job->t[i]);
    return NULL;
}

void run_transfers(bank *b, const transfer *t, size_t n, int threads)
{
    batch_job jobs[BANK_MAX_THREADS];
    pthread_t tid[BANK_MAX_THREADS];
    size_t block = n / (size_t)threads, extra = n % (size_t)threads, lo = 0;
    for (int k = 0; k < threads; k++) {
        size_t len = block + ((size_t)k < extra);
        jobs[k] = (batch_job){ b, t, lo, lo + len };
        lo += len;
        PW_CHECK_PTHREAD(pthread_create(&tid[k], NULL, run_block, &jobs[k]));
    }
    for (int k = 0; k < threads; k++) PW_CHECK_PTHREAD(pthread_join(tid[k], NULL));
}
