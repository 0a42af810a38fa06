/* tests/wrong/15.2-no-full-wait.c: exercise 15.2 whose put never waits: on a
 * full queue it writes over the oldest item and the count passes capacity,
 * as a loader pool without a bound would run a whole epoch ahead.
 * expect: FAIL: capacity 1, nobody getting: bq_put returned 6 times
 * hint: a put must wait while the queue is full */
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
