/* exercises/03-threads/histogram.c: exercise 3.1, fix a racy histogram.
 *
 * What it teaches: code that is right on one thread can be wrong on two,
 * and differently wrong each run. The histogram below splits the data into
 * one block per thread, and every thread adds its counts straight into the
 * one shared bins[] array. With one thread it is exact. With two, two threads
 * sometimes read the same bin at the same moment, both add one, both write
 * back, and one count is lost (chapter 03's racy counter, 256 times over).
 * And there is a second bug, which only shows when n is not a multiple of
 * the number of threads.
 *
 * Fix both, so that histogram_threads() (see histogram.h) is exact for
 * every n and every thread count. The fix the chapter recommends: each
 * thread counts its block into a PRIVATE histogram (no sharing, no locks,
 * full speed), and the main thread adds the private histograms into bins[]
 * once, after pthread_join. (A mutex or an atomic per increment would also
 * be right, but far slower: see race.c's cost per update.)
 *
 * Check your work:  make ex-3.1     (the checker tries 1, 2, 3 and 7 threads
 * on odd sizes, uniform data and data that is all one value, and explains
 * what went wrong). For a second opinion, grade under ThreadSanitizer:
 *   make SAN=tsan BUILD=build/tsan ex-3.1
 * The answer is in solutions/03-threads/histogram.c: try first.
 */
#include "errcheck.h"
#include "exercise.h"
#include "histogram.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One thread's job: its block of the data, and where it counts. */
typedef struct {
    const unsigned char *data;
    size_t lo, hi;                 /* this thread's block: data[lo .. hi-1] */
    unsigned long long *bins;      /* the ONE histogram every thread shares */
    /* TODO: a private histogram for this thread, e.g.
     *   unsigned long long mine[HIST_BINS];                                 */
} hist_job;

/* Count one block. */
static void *count_block(void *arg)
{
    hist_job *job = arg;
    /* TODO: count into a private histogram instead: a local array
     * unsigned long long mine[HIST_BINS] = { 0 } on this thread's stack is
     * the fastest (nobody else touches it), copied into the job at the end.
     * As written, this is a data race: bins[] is shared. */
    for (size_t i = job->lo; i < job->hi; i++) job->bins[job->data[i]]++;
    return NULL;
}

void histogram_threads(const unsigned char *data, size_t n, int threads,
                       unsigned long long bins[HIST_BINS])
{
    /* TODO: first delete the line below and run `make ex-3.1` to see the
     * bugs the checker finds in the code that follows; then fix them:
     *  1. the race: count privately (see count_block), then add the private
     *     histograms into bins[] here, after the join loop;
     *  2. the blocks: with n = 1001 and 2 threads, which element does
     *     nobody count? Give the first n % threads blocks one element more
     *     (or let the last block run to n). */
    PW_NOT_YET_IMPLEMENTED();

    memset(bins, 0, HIST_BINS * sizeof bins[0]);
    hist_job *jobs = malloc((size_t)threads * sizeof *jobs);
    pthread_t *tid = malloc((size_t)threads * sizeof *tid);
    PW_CHECK_ALLOC(jobs, (size_t)threads * sizeof *jobs);
    PW_CHECK_ALLOC(tid, (size_t)threads * sizeof *tid);

    size_t block = n / (size_t)threads;
    for (int t = 0; t < threads; t++) {
        jobs[t].data = data;
        jobs[t].lo = (size_t)t * block;
        jobs[t].hi = jobs[t].lo + block;
        jobs[t].bins = bins;
        PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, count_block, &jobs[t]));
    }
    for (int t = 0; t < threads; t++) PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));

    free(tid);
    free(jobs);
}
