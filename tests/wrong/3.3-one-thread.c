/* tests/wrong/3.3-one-thread.c: exercise 3.3 "fixed" by dropping the threads:
 * the fee account's lock is taken, but every transfer runs on the calling
 * thread, so there is nothing left to race with, or to gain.
 * expect: FAIL: 3 accounts, n = 7, asked for 2 threads: the transfers ran on 1 thread */
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
    account_lock(b, FEE_ACCOUNT);
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
    (void)block, (void)extra, (void)lo, (void)tid;
    jobs[0] = (batch_job){ b, t, 0, n };
    run_block(&jobs[0]);
}
