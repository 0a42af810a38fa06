/* tests/wrong/3.2-calloc-aligned.c: exercise 3.2 with alignas(64) on the
 * slot but the memory from calloc, which promises 16-byte alignment only:
 * a 64-byte aligned type in memory that is not (undefined behaviour; the
 * counters are 64 bytes apart either way, so the lines look right).
 * expect: FAIL: slots_new\(1\): struct slot asks for 64-byte alignment, but slots_new allocates it with calloc, which promises 16
 * hint: Allocate with pw_alloc_bytes */
#include "errcheck.h"
#include "tally.h"
#include "threads.h"
#include "util.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>

/* One thread's counter, alone in its cache line. volatile: every update is a
 * real store, as in the skeleton. */
struct slot {
    alignas(THREADS_LINE) volatile long long count;
};

slot *slots_new(int threads)
{
    slot *s = calloc((size_t)threads, sizeof *s);  /* the bug: calloc promises 16 bytes, slot wants 64 */
    PW_CHECK_ALLOC(s, (size_t)threads * sizeof *s);
    return s;
}

void slots_free(slot *s)
{
    free(s);
}

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
