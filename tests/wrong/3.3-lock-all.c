/* tests/wrong/3.3-lock-all.c: exercise 3.3 "fixed" by locking every account,
 * in order, for each transfer: no race and no deadlock, but every transfer
 * waits for every other, which the locks per account were there to avoid.
 * expect: FAIL: a thread held more than 3 account locks at once */
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

    int accounts = bank_accounts(b);
    (void)first, (void)second;
    for (int a = 0; a < accounts; a++) account_lock(b, a);
    account_add(b, tr->from, -(tr->cents + fee));
    account_add(b, tr->to, tr->cents);
    account_add(b, FEE_ACCOUNT, fee);
    for (int a = accounts - 1; a >= 0; a--) account_unlock(b, a);
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
