/* exercises/03-threads/tally.c: exercise 3.2, remove false sharing.
 *
 * What it teaches: threads that never touch each other's data can still
 * slow each other down, because a core owns memory a whole cache line (64
 * bytes) at a time. count_above_threads() below is right, and shares nothing:
 * thread t only ever adds to slot t. But the slots are 8 bytes each, so eight
 * of them sit in one cache line, and every time one core writes its counter
 * the line is taken away from the other core (chapter 03's false_sharing.c
 * measures what that costs).
 *
 * Change the layout, not the program: give every slot a cache line of its
 * own, so that no two threads' counters share a line.
 *   1. struct slot: pad it to 64 bytes. C11 can say so directly:
 *        alignas(64) on the member (from <stdalign.h>) makes the struct
 *        64-byte aligned AND 64 bytes long (a size is a multiple of the
 *        alignment). A char array after the counter works too.
 *   2. slots_new(): memory for an aligned type must be aligned. malloc and
 *      calloc promise only 16 bytes; use pw_alloc_bytes() from util.h (64-byte
 *      aligned, freed with pw_free) or C11 aligned_alloc(64, size) with size a
 *      multiple of 64. UndefinedBehaviorSanitizer catches a misaligned slot:
 *        make SAN=asan BUILD=build/asan ex-3.2
 *   3. slots_free() to match.
 *
 * Check your work:  make ex-3.2     (the checker looks at where each
 * thread's counter lies for 1, 2, 3, 7 and 16 threads, then counts odd
 * sizes on 1, 2, 3 and 7 threads). The answer is in
 * solutions/03-threads/tally.c: try first.
 */
#include "errcheck.h"
#include "exercise.h"
#include "tally.h"

#include <pthread.h>
#include <stdlib.h>

/* One thread's counter. volatile: every update is a real store to memory, as
 * it must be if anyone may look at the counter while the count runs (and so
 * the compiler cannot keep it in a register, which would hide the sharing). */
struct slot {
    volatile long long count;
    /* TODO: make the slot fill a cache line (see step 1 above). */
};

slot *slots_new(int threads)
{
    /* TODO: allocate `threads` slots, aligned to 64 bytes (step 2 above),
     * and set every count to 0. Then delete the line below. */
    PW_NOT_YET_IMPLEMENTED();
    slot *s = calloc((size_t)threads, sizeof *s);
    PW_CHECK_ALLOC(s, (size_t)threads * sizeof *s);
    return s;
}

void slots_free(slot *s)
{
    /* TODO: free the way slots_new allocated (pw_free for pw_alloc_bytes). */
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
