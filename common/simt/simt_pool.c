/* common/simt/simt_pool.c: the OS threads that run a launch's blocks beside
 * the device thread, kept from one launch to the next.
 *
 * Making them per launch (pthread_create, a worker, 256 fibers with their
 * stack mappings, then all of it freed) cost about 0.45 ms a launch: 1000
 * launches of 4 blocks took 0.56 s on 2 workers against 0.12 s on 1. Kept,
 * each thread keeps its worker and fibers, as the device thread does, and
 * waits for the next launch. A cooperative launch still makes one thread
 * per block (simt_launch.c): it needs every block alive at once.
 *
 * Calls simt_state.c only; simt_launch.c calls it. */
#define _GNU_SOURCE
#include "simt_state.h"

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_go = PTHREAD_COND_INITIALIZER;     /* a launch to run, or the end */
static pthread_cond_t pool_done = PTHREAD_COND_INITIALIZER;   /* the last helper finished it */
static pthread_t pool_tid[256];
static int pool_n;                /* threads made */
static unsigned long pool_gen;    /* launches handed out */
static int pool_want, pool_finished;
static void (*pool_fn)(launch *L);
static launch *pool_launch;
static void (*pool_end)(void);    /* set: the threads end (each calls it first) */

static void *pool_main(void *arg)
{
    int me = (int)(intptr_t)arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool_lock);
    for (;;) {
        while (pool_gen == seen && !pool_end) pthread_cond_wait(&pool_go, &pool_lock);
        if (pool_end) break;
        seen = pool_gen;
        if (me >= pool_want) continue;   /* this launch needs fewer helpers */
        void (*fn)(launch *L) = pool_fn;
        launch *L = pool_launch;
        pthread_mutex_unlock(&pool_lock);
        fn(L);
        pthread_mutex_lock(&pool_lock);
        if (++pool_finished == pool_want) pthread_cond_signal(&pool_done);
    }
    void (*end)(void) = pool_end;
    pthread_mutex_unlock(&pool_lock);
    end();
    return NULL;
}

/* fn(L) on n helper threads (made when first needed, at most 256), while
 * the caller runs its own share; simt_pool_wait waits for them. */
void simt_pool_start(int n, void (*fn)(launch *L), launch *L)
{
    if (n > 256) n = 256;
    pthread_mutex_lock(&pool_lock);
    while (pool_n < n) {
        PW_CHECK_PTHREAD(pthread_create(&pool_tid[pool_n], NULL, pool_main, (void *)(intptr_t)pool_n));
        pool_n++;
    }
    pool_fn = fn;
    pool_launch = L;
    pool_want = n;
    pool_finished = 0;
    pool_gen++;
    pthread_cond_broadcast(&pool_go);
    pthread_mutex_unlock(&pool_lock);
}

void simt_pool_wait(void)
{
    pthread_mutex_lock(&pool_lock);
    while (pool_finished < pool_want) pthread_cond_wait(&pool_done, &pool_lock);
    pool_want = 0;
    pthread_mutex_unlock(&pool_lock);
}

/* The device thread ends: so do the helpers, each calling end() (its worker freed). */
void simt_pool_stop(void (*end)(void))
{
    pthread_mutex_lock(&pool_lock);
    int n = pool_n;
    pool_end = end;
    pthread_cond_broadcast(&pool_go);
    pthread_mutex_unlock(&pool_lock);
    for (int i = 0; i < n; i++) PW_CHECK_PTHREAD(pthread_join(pool_tid[i], NULL));
    pthread_mutex_lock(&pool_lock);
    pool_n = 0;
    pool_end = NULL;
    pthread_mutex_unlock(&pool_lock);
}
