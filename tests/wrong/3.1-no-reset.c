/* tests/wrong/3.1-no-reset.c: exercise 3.1 with private histograms added
 * into bins[] without zeroing bins[] first: the counts land on top of
 * whatever the caller's array held (histogram.h: bins is overwritten).
 * expect: FAIL: n = 0 on 1 thread: bins\[\] was added to, not overwritten: every bin is 12345 more than the count
 * hint: set bins\[\] to 0 */
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
