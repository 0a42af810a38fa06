/* common/barrier.h: a reusable thread barrier from a mutex and a condition
 * variable. POSIX barriers (pthread_barrier_t) are optional and missing on
 * macOS, so the workbook carries this small one instead. */
#ifndef PW_BARRIER_H
#define PW_BARRIER_H

#include <pthread.h>

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t all_here;
    int count;          /* threads that must arrive */
    int waiting;        /* threads arrived in this round */
    unsigned round;     /* bumped when a round completes, so late wakers can tell */
} pw_barrier;

void pw_barrier_init(pw_barrier *b, int count);
void pw_barrier_wait(pw_barrier *b);
void pw_barrier_destroy(pw_barrier *b);

#endif
