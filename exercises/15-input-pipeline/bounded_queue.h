/* exercises/15-input-pipeline/bounded_queue.h: what exercise 15.2 asks you to
 * write. Your exercises/15-input-pipeline/bounded_queue.c implements bq_put
 * and bq_get; bq_init and bq_destroy there are given. The checker and the
 * solution include this same header. */
#ifndef PW_EX_BOUNDED_QUEUE_H
#define PW_EX_BOUNDED_QUEUE_H

#include <pthread.h>

/* A first-in first-out queue of at most `capacity` ints, for any number of
 * threads putting and getting at once. The items live in a ring: the oldest
 * at items[head], the next at items[(head + 1) % capacity], ...; count of
 * them. Every field is read and written only with `lock` held. */
typedef struct {
    int *items;                 /* capacity ints (the caller's storage) */
    int capacity;               /* >= 1 */
    int head;                   /* index of the oldest item */
    int count;                  /* items held: 0..capacity */
    pthread_mutex_t lock;
    pthread_cond_t not_full;    /* signalled when an item was taken */
    pthread_cond_t not_empty;   /* signalled when an item was added */
} bqueue;

void bq_init(bqueue *q, int *storage, int capacity);
void bq_destroy(bqueue *q);

/* Add item at the tail; while the queue is full, wait (never drop, never
 * overwrite, never hold more than capacity). */
void bq_put(bqueue *q, int item);

/* Take the oldest item; while the queue is empty, wait. */
int bq_get(bqueue *q);

#endif
