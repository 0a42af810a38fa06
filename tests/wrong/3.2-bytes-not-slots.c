/* tests/wrong/3.2-bytes-not-slots.c: exercise 3.2 with the layout right but
 * the allocation counted in bytes, not slots (pw_alloc_bytes(threads), as
 * if it were pw_alloc_floats): every slot after the first 64 bytes lies
 * past the end of the block, in memory that belongs to someone else.
 * (Under SAN=asan, AddressSanitizer stops the write past the block first.)
 * expect: FAIL: slots_new\(2\): thread 1's counter lies past the end of the memory slots_new allocated|FAIL: AddressSanitizer: heap-buffer-overflow in slots_new\(\)
 * hint: sizeof \*s|heap-buffer-overflow */
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
    slot *s = pw_alloc_bytes((size_t)threads);     /* the bug: threads bytes, not threads slots */
    for (int t = 0; t < threads; t++) s[t].count = 0;
    return s;
}

void slots_free(slot *s)
{
    pw_free(s);
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
