/* tests/test_barrier.c: no thread passes the barrier before all arrive, round
 * after round. Run under ThreadSanitizer by `make sanitize`. */
#include "barrier.h"
#include "errcheck.h"
#include "unit.h"

#include <pthread.h>

enum { THREADS = 4, ROUNDS = 500 };
static pw_barrier bar;
static int progress[THREADS];        /* rounds each thread has finished */
static int violations[THREADS];      /* times a thread saw another lagging */

static void *worker(void *arg)
{
    int me = (int)(size_t)arg;
    for (int r = 0; r < ROUNDS; r++) {
        progress[me] = r + 1;
        pw_barrier_wait(&bar);
        /* Past the barrier every thread must have finished round r. */
        for (int t = 0; t < THREADS; t++)
            if (progress[t] < r + 1) violations[me]++;
        pw_barrier_wait(&bar);       /* nobody starts r+1 until all have looked */
    }
    return NULL;
}

static void test_barrier_rounds(void)
{
    pthread_t tid[THREADS];
    pw_barrier_init(&bar, THREADS);
    for (int t = 0; t < THREADS; t++) PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, worker, (void *)(size_t)t));
    for (int t = 0; t < THREADS; t++) PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));
    pw_barrier_destroy(&bar);
    int total = 0;
    for (int t = 0; t < THREADS; t++) total += violations[t];
    EXPECT(total == 0, "no thread ran ahead of the barrier (%d violations)", total);
    for (int t = 0; t < THREADS; t++) EXPECT(progress[t] == ROUNDS, "thread %d finished all rounds", t);
}

int main(void)
{
    RUN(test_barrier_rounds);
    return UNIT_RESULT();
}
