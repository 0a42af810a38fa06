/* tests/wrong/15.2-no-signal.c: exercise 15.2 whose put never signals
 * not_empty: a consumer that found the queue empty sleeps on and on, though
 * an item is waiting (a lost wake-up). The checker's watchdog says so after
 * 5 s without progress, before the grader's 20 s limit.
 * expect: FAIL: a full queue, then an empty one: no bq_put or bq_get returned for 5 s
 * hint: signal not_empty after every put */
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
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&q->lock));   /* no signal: a waiting get sleeps on */
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
