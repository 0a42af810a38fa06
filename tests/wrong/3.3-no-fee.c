/* tests/wrong/3.3-no-fee.c: exercise 3.3 "fixed" by deleting the line that
 * raced: no race left, but the sender still pays the fee and the bank never
 * receives it.
 * expect: FAIL: 3 accounts, n = 1 on 1 thread: account 0 holds 0 cents */
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
