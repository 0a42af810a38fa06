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
 * own, so that no two threads' counters share a line. The struct, and the
 * memory it lives in, are yours; count_above_threads() below is given and
 * stays as it is.
 *
 * The interface (tally.h): slots_new(threads) returns `threads` slots
 * (threads >= 1), every counter 0, each counter in a 64-byte line that no
 * other slot's counter touches; slots_free() releases what slots_new
 * allocated, the matching way; slot_counter(s, t) is thread t's counter
 * (given). A type with a stricter alignment needs memory that honours it:
 * malloc and calloc promise only 16 bytes, and UndefinedBehaviorSanitizer
 * catches a misaligned slot (make SAN=asan BUILD=build/asan ex-3.2).
 *
 * What the checker tries (check_tally.c): the layout of slots_new(T) for
 * T = 1, 2, 3, 7 and 16 (every counter starts at 0, holds what is written
 * without disturbing the others, and lies alone in its 64-byte line: the
 * false sharing itself, seen in the addresses, so the verdict does not
 * depend on how busy the machine is). With it, the memory: it reads this
 * file as the compiler does (cc -E), and a struct slot with alignas (or
 * aligned) of more than 16 bytes allocated in slots_new by calloc, malloc
 * or realloc alone fails by name; slot 0 must start at a multiple of that
 * alignment; under a sanitizer every counter must lie inside the block
 * slots_new allocated. Then slots_new(T) is called again after slots_free:
 * the block it gets back most likely holds the checker's 1000 + t, so
 * counters not set to 0 show. Then count_above_threads() on n = 0, 1, 7,
 * 1001 and 65537 on 1, 2, 3 and 7 threads against a sequential count;
 * last, for information only, the time of 4M elements on 1 and 2 threads.
 *
 *   make ex-3.2      grade this file (each failure is explained)
 *   make hint-3.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/03-threads/tally.c: try first.
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
    /* TODO: a cache line of its own (see the top of the file). */
};

slot *slots_new(int threads)
{
    /* TODO: `threads` slots, as tally.h and the top of this file ask,
     * every count 0. Then delete the line below. */
    PW_NOT_YET_IMPLEMENTED();
    slot *s = calloc((size_t)threads, sizeof *s);
    PW_CHECK_ALLOC(s, (size_t)threads * sizeof *s);
    return s;
}

void slots_free(slot *s)
{
    /* TODO: free the way slots_new allocated. */
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
