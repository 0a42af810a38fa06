/* tests/wrong/15.2-lifo.c: exercise 15.2 that takes the newest item, not the
 * oldest: a stack. Every item still comes out once, but the training loop
 * would see the batches out of order.
 * expect: FAIL: capacity 2: got item 2, want 1
 * hint: first in, first out */
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
    int item = q->items[(q->head + q->count - 1) % q->capacity];   /* the newest */
    q->count--;
    PW_CHECK_PTHREAD(pthread_cond_signal(&q->not_full));
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&q->lock));
    return item;
}
