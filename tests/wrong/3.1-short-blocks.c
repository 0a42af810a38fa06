/* tests/wrong/3.1-short-blocks.c: exercise 3.1 with the race fixed (private
 * histograms) but the skeleton's blocks kept: n / threads rounds down, so
 * the last n % threads elements belong to no thread.
 * expect: FAIL: n = 1 on 2 threads: the last 1 element \(n % threads\) was not counted
 * hint: give the first n % threads blocks one more element */
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
    memset(bins, 0, HIST_BINS * sizeof bins[0]);
    hist_job *jobs = malloc((size_t)threads * sizeof *jobs);
    pthread_t *tid = malloc((size_t)threads * sizeof *tid);
    PW_CHECK_ALLOC(jobs, (size_t)threads * sizeof *jobs);
    PW_CHECK_ALLOC(tid, (size_t)threads * sizeof *tid);

    size_t block = n / (size_t)threads;
    for (int t = 0; t < threads; t++) {
        jobs[t].data = data;
        jobs[t].lo = (size_t)t * block;
        jobs[t].hi = jobs[t].lo + block;           /* the bug: n / threads rounds down */
        PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, count_block, &jobs[t]));
    }
    for (int t = 0; t < threads; t++) PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));

    for (int t = 0; t < threads; t++)
        for (int b = 0; b < HIST_BINS; b++) bins[b] += jobs[t].mine[b];

    free(tid);
    free(jobs);
}
