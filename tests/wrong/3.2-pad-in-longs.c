/* tests/wrong/3.2-pad-in-longs.c: exercise 3.2 with padding counted in the
 * wrong unit: 64 / sizeof(long long) = 8 bytes of pad, so each slot is 16
 * bytes and four slots still share one cache line.
 * expect: FAIL: slots_new\(2\): the counters of threads 0 and 1 are 16 bytes apart, in the same 64-byte cache line */
#include "errcheck.h"
#include "tally.h"
#include "threads.h"
#include "util.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>

struct slot {
    volatile long long count;
    char pad[THREADS_LINE / sizeof(long long)];
};

slot *slots_new(int threads)
{
    slot *s = pw_alloc_bytes((size_t)threads * sizeof *s);
    for (int t = 0; t < threads; t++) s[t].count = 0;
    return s;
}

void slots_free(slot *s) { pw_free(s); }

volatile long long *slot_counter(slot *s, int t) { return &s[t].count; }

/* ---- given: the program whose layout you fix ------------------------------ */

typedef struct {
    const float *x;
    size_t lo, hi;                 /* this thread's block */
    float threshold;
    volatile long long *counter;   /* this thread's slot */
} count_job;

static void *count_block(void *arg)
{
    count_job *j = arg;
    for (size_t i = j->lo; i < j->hi; i++)
        if (j->x[i] > j->threshold) *j->counter = *j->counter + 1;
    return NULL;
}

long long count_above_threads(const float *x, size_t n, float threshold, int threads)
{
    slot *s = slots_new(threads);
    count_job *jobs = malloc((size_t)threads * sizeof *jobs);
    pthread_t *tid = malloc((size_t)threads * sizeof *tid);
    PW_CHECK_ALLOC(jobs, (size_t)threads * sizeof *jobs);
    PW_CHECK_ALLOC(tid, (size_t)threads * sizeof *tid);
    size_t block = n / (size_t)threads, extra = n % (size_t)threads;
    for (int t = 0; t < threads; t++) {
        size_t ut = (size_t)t;
        jobs[t] = (count_job){ x, ut * block + (ut < extra ? ut : extra), 0, threshold, slot_counter(s, t) };
        jobs[t].hi = jobs[t].lo + block + (ut < extra ? 1 : 0);
        PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, count_block, &jobs[t]));
    }
    long long total = 0;
    for (int t = 0; t < threads; t++) {
        PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));
        total += *slot_counter(s, t);
    }
    free(tid);
    free(jobs);
    slots_free(s);
    return total;
}
