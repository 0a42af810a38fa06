/* exercises/15-input-pipeline/bounded_queue.c: exercise 15.2, the bounded
 * queue between loader threads and the training thread.
 *
 * What it teaches: a producer faster than its consumer must be held back, or
 * memory grows without bound (a loader pool decoding a whole data set ahead
 * of the training loop); a consumer faster than its producers must sleep, not
 * spin. A mutex and two condition variables do both:
 *   put:  lock; while full, wait on not_full; add at the tail; signal
 *         not_empty; unlock.
 *   get:  lock; while empty, wait on not_empty; take from the head; signal
 *         not_full; unlock.
 * `while`, not `if`: pthread_cond_wait may return with nothing changed (a
 * spurious wake-up, POSIX allows it), and with several consumers another one
 * may have taken the item first. Signal after changing the count, with the
 * lock held or just after releasing it: either is correct.
 *
 * Check your work:  make ex-15.2   (one thread first: order and the ring's
 * wrap; then a producer that must block on a full queue; then 3 producers
 * and 2 consumers on capacities 1, 2 and 7: no item lost or repeated, each
 * producer's items in order, never more than capacity held. Under
 * ThreadSanitizer where it works: a data race fails the exercise.)
 * Hints, one level more each time (3 levels, the last near the code):
 *   make hint-15.2
 * The answer is in solutions/15-input-pipeline/bounded_queue.c: try first.
 */
#include "bounded_queue.h"
#include "errcheck.h"
#include "exercise.h"

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
    /* TODO: put as described above. The tail is (head + count) % capacity.
     * Then delete the lines below. */
    (void)q;
    (void)item;
    PW_NOT_YET_IMPLEMENTED();
}

int bq_get(bqueue *q)
{
    /* TODO: get as described above: the oldest item is items[head]; then
     * head moves on by one, around the ring. Then delete the lines below. */
    (void)q;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
