/* tests/wrong/3.1-shared-bins.c: exercise 3.1 with the blocks fixed but the
 * race left in: every thread adds into the one shared bins[]. On a busy or
 * one-core machine it can pass a plain run (it passed 6 of 14).
 * expect: FAIL: ThreadSanitizer: data race
 * skip-if: not under ThreadSanitizer */
#include "errcheck.h"
#include "histogram.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *data;
    size_t lo, hi;
    unsigned long long *bins;
} hist_job;

static void *count_block(void *arg)
{
    hist_job *job = arg;
    for (size_t i = job->lo; i < job->hi; i++) job->bins[job->data[i]]++;
    return NULL;
}

void histogram_threads(const unsigned char *data, size_t n, int threads, unsigned long long bins[HIST_BINS])
{
    memset(bins, 0, HIST_BINS * sizeof bins[0]);
    hist_job *jobs = malloc((size_t)threads * sizeof *jobs);
    pthread_t *tid = malloc((size_t)threads * sizeof *tid);
    PW_CHECK_ALLOC(jobs, (size_t)threads * sizeof *jobs);
    PW_CHECK_ALLOC(tid, (size_t)threads * sizeof *tid);
    size_t block = n / (size_t)threads, extra = n % (size_t)threads;
    for (int t = 0; t < threads; t++) {
        size_t ut = (size_t)t;
        jobs[t].data = data;
        jobs[t].lo = ut * block + (ut < extra ? ut : extra);
        jobs[t].hi = jobs[t].lo + block + (ut < extra ? 1 : 0);
        jobs[t].bins = bins;
        PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, count_block, &jobs[t]));
    }
    for (int t = 0; t < threads; t++) PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));
    free(tid);
    free(jobs);
}
