/* common/barrier.c: the generation-counting barrier. */
#include "barrier.h"
#include "errcheck.h"

void pw_barrier_init(pw_barrier *b, int count)
{
    PW_CHECK_PTHREAD(pthread_mutex_init(&b->lock, NULL));
    PW_CHECK_PTHREAD(pthread_cond_init(&b->all_here, NULL));
    b->count = count;
    b->waiting = 0;
    b->round = 0;
}

void pw_barrier_wait(pw_barrier *b)
{
    PW_CHECK_PTHREAD(pthread_mutex_lock(&b->lock));
    unsigned my_round = b->round;
    if (++b->waiting == b->count) {
        b->waiting = 0;
        b->round++;
        PW_CHECK_PTHREAD(pthread_cond_broadcast(&b->all_here));
    } else {
        /* Loop: condition variables may wake spuriously. */
        while (my_round == b->round)
            PW_CHECK_PTHREAD(pthread_cond_wait(&b->all_here, &b->lock));
    }
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&b->lock));
}

void pw_barrier_destroy(pw_barrier *b)
{
    PW_CHECK_PTHREAD(pthread_cond_destroy(&b->all_here));
    PW_CHECK_PTHREAD(pthread_mutex_destroy(&b->lock));
}
