/* tests/wrong/3.3-fee-lock-inside.c: exercise 3.3 with the fee account's lock
 * taken, but sender first, then receiver, then the fee account: the order of
 * the locks now depends on the transfer, and two opposite transfers can each
 * hold one account and wait for the other. Rarely hangs in a plain run.
 * expect: FAIL: the account locks are not always taken in the same order */
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

    (void)first, (void)second;
    account_lock(b, tr->from);
    account_lock(b, tr->to);
    account_lock(b, FEE_ACCOUNT);
    account_add(b, tr->from, -(tr->cents + fee));
    account_add(b, tr->to, tr->cents);
    account_add(b, FEE_ACCOUNT, fee);
    account_unlock(b, FEE_ACCOUNT);
    account_unlock(b, tr->to);
    account_unlock(b, tr->from);
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
