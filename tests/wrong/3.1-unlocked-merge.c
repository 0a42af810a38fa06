/* tests/wrong/3.1-unlocked-merge.c: exercise 3.1 with private histograms,
 * but each thread adds its own into the shared bins[] itself, without a
 * lock: 256 racy adds per thread, which almost never collide in a plain run
 * (it passed 4 of 4).
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
    unsigned long long mine[HIST_BINS] = { 0 };
    for (size_t i = job->lo; i < job->hi; i++) mine[job->data[i]]++;
    for (int b = 0; b < HIST_BINS; b++) job->bins[b] += mine[b];   /* the race: no lock */
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
