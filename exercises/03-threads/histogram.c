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
 * The interface (histogram.h): histogram_threads(data, n, threads, bins)
 * sets bins[v] to the number of bytes equal to v in data[0..n-1], exactly,
 * for any n >= 0 and any threads >= 1 (more threads than bytes included).
 *
 * What the checker tries (check_histogram.c): uniform random bytes, n = 0,
 * 1, 7, 1001 and 65537 on 1, 2, 3 and 7 threads, and 7 bytes on 16 threads;
 * 2000003 bytes all of one value on 2, 3 and 7 threads, three times each
 * (every thread hits the same bin: a race loses counts on any two-core
 * machine); 2000003 uniform bytes on 2 and on 7 threads, watching who reads
 * the data (its pages are protected, and the first read of each page names
 * its thread): fewer than T first readers, as with threads = 1 or all the
 * work on the calling thread, fails. Before each case bins[] holds 12345 in
 * every bin (it must be overwritten, not added to), the stacks of 4 finished
 * threads are filled with 0xa5 bytes (a private histogram never zeroed
 * starts from garbage), and a fence just past bins[255] must stay as it is.
 * Each against a sequential count, and each failure says which mistake it
 * looks like. For a second opinion, grade under ThreadSanitizer:
 * make SAN=tsan BUILD=build/tsan ex-3.1
 *
 *   make ex-3.1      grade this file (each failure is explained)
 *   make hint-3.1    one more hint level each time (3 levels, the last near the code)
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
    /* TODO: whatever else a thread needs to count without sharing. */
} hist_job;

/* Count one block. */
static void *count_block(void *arg)
{
    hist_job *job = arg;
    /* TODO: as written, this is a data race: bins[] is shared by every thread. */
    for (size_t i = job->lo; i < job->hi; i++) job->bins[job->data[i]]++;
    return NULL;
}

void histogram_threads(const unsigned char *data, size_t n, int threads,
                       unsigned long long bins[HIST_BINS])
{
    /* TODO: first delete the line below and run `make ex-3.1` to see the
     * bugs the checker finds in the code that follows; then fix them:
     *  1. the race (see count_block);
     *  2. the blocks: with n = 1001 and 2 threads, which element does
     *     nobody count? */
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
