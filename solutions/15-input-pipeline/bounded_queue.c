/* solutions/15-input-pipeline/bounded_queue.c: exercise 15.2, solved.
 *
 * Added: the two loops `while (full) wait(not_full)` and `while (empty)
 * wait(not_empty)`, the ring arithmetic, and one signal each. With several
 * producers and consumers waiting on the same two conditions, a signal wakes
 * one waiter of the right kind (not_empty wakes a getter, not_full a putter),
 * which is all a change of one item allows to proceed. */
#include "bounded_queue.h"
#include "errcheck.h"

void bq_init(bqueue *q, int *storage, int capacity)
{
    q->items = storage;
    q->capacity = capacity;
    q->head = 0;
    q->count = 0;
    PW_CHECK_PTHREAD(pthread_mutex_init(&q->lock, NULL));
    PW_CHECK_PTHREAD(pthread_cond_init(&q->not_full, NULL));
    PW_CHECK_PTHREAD(pthread_cond_init(&q->not_empty, NULL));
}

void bq_destroy(bqueue *q)
{
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->not_full);
    pthread_cond_destroy(&q->not_empty);
}

void bq_put(bqueue *q, int item)
{
    PW_CHECK_PTHREAD(pthread_mutex_lock(&q->lock));
    while (q->count == q->capacity) PW_CHECK_PTHREAD(pthread_cond_wait(&q->not_full, &q->lock));
    q->items[(q->head + q->count) % q->capacity] = item;
    q->count++;
    PW_CHECK_PTHREAD(pthread_cond_signal(&q->not_empty));
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&q->lock));
}

int bq_get(bqueue *q)
{
    PW_CHECK_PTHREAD(pthread_mutex_lock(&q->lock));
    while (q->count == 0) PW_CHECK_PTHREAD(pthread_cond_wait(&q->not_empty, &q->lock));
    int item = q->items[q->head];
    q->head = (q->head + 1) % q->capacity;
    q->count--;
    PW_CHECK_PTHREAD(pthread_cond_signal(&q->not_full));
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&q->lock));
    return item;
}
