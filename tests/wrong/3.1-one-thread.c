/* tests/wrong/3.1-one-thread.c: exercise 3.1 "fixed" by ignoring the
 * threads asked for: one thread counts everything, so nothing can race,
 * and nothing runs in parallel either. Exact on every case.
 * expect: FAIL: n = 2000003 on 2 threads: the data was read by 1 thread
 * hint: each of the threads asked for counts one block */
#include "errcheck.h"
#include "histogram.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *data;
    size_t lo, hi;                          /* this thread's block: data[lo .. hi-1] */
    unsigned long long mine[HIST_BINS];
} hist_job;

static void *count_block(void *arg)
{
    hist_job *job = arg;
    unsigned long long mine[HIST_BINS] = { 0 };
    for (size_t i = job->lo; i < job->hi; i++) mine[job->data[i]]++;
    memcpy(job->mine, mine, sizeof mine);
    return NULL;
}

void histogram_threads(const unsigned char *data, size_t n, int threads,
                       unsigned long long bins[HIST_BINS])
{
    threads = 1;                                   /* the "fix": no second thread, no race */
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
        PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, count_block, &jobs[t]));
    }
    for (int t = 0; t < threads; t++) PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));

    for (int t = 0; t < threads; t++)
        for (int b = 0; b < HIST_BINS; b++) bins[b] += jobs[t].mine[b];

    free(tid);
    free(jobs);
}
