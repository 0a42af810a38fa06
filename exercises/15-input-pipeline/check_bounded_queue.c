/* exercises/15-input-pipeline/check_bounded_queue.c: the checker of exercise 15.2.
 *
 * Built with your exercises/15-input-pipeline/bounded_queue.c by
 * `make ex-15.2`, or with the solution by `make solution-15.2`. What it tries,
 * each property one that holds by construction for a right queue, so no
 * verdict depends on how busy the machine is:
 *   1. one thread: items come out in the order they went in, across many
 *      wraps of the ring (capacities 1, 2, 3, 7);
 *   2. blocking: a producer putting capacity + 5 items with nobody getting
 *      must stop after exactly `capacity` (it is given up to 5 s to get
 *      there, then 0.1 s more to show it would not go on); a getter on an
 *      empty queue must wait, and return the item put later;
 *   3. 3 producers and 2 consumers, 30000 items, capacities 1, 2, 7: every
 *      item taken exactly once, each producer's items in the order it put
 *      them, and never more than capacity held (read with the lock held).
 * Throughout, a watchdog fails the run when no put or get returns for 5 s
 * (a lost wake-up: no signal, or the wrong one), well before the grader's
 * own time limit.
 * Last line "PASS: ..." and exit 0, or exit 1.
 */
#define _POSIX_C_SOURCE 200809L   /* nanosleep under -std=c11 */
#include "bounded_queue.h"
#include "errcheck.h"
#include "exercise.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GUARD 8
#define SENTINEL 0x5eed

/* The checker's own deadline comes before the grader's (tools/grade.sh
 * stops a checker after PW_GRADE_TIMEOUT s, 20 by default), so a student
 * whose thread waits for a wake-up that never comes reads why, not a bare
 * timeout. It watches progress, not the clock: with a right queue puts and
 * gets return all the time (the whole check, 90000 items in part 3, took
 * 3.9 s on a 2-core machine, and 4.2 s under TSan), and the longest pause
 * the checker makes on purpose is 0.1 s (part 2). No put or get
 * returning for STALL_S = 5 s is a stall; the first one ends the run, so a
 * stuck answer is told in about 5 s plus the parts before it. */
#define STALL_S 5.0
static atomic_long moved;                  /* puts and gets that returned */
static _Atomic(const char *) now_testing = "starting";

static void put(bqueue *q, int item) { bq_put(q, item); atomic_fetch_add(&moved, 1); }
static int get(bqueue *q) { int v = bq_get(q); atomic_fetch_add(&moved, 1); return v; }

static void nap(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    nanosleep(&ts, NULL);
}

static void *watchdog(void *arg)
{
    (void)arg;
    long last = -1;
    int still = 0;                         /* 10 ms ticks without progress */
    for (;;) {
        long m = atomic_load(&moved);
        still = m == last ? still + 1 : 0;
        last = m;
        if (still >= (int)(STALL_S * 100)) break;
        nap(0.01);
    }
    pw_ex_fail("%s: no bq_put or bq_get returned for %.0f s: a thread waits for a wake-up that never comes",
               atomic_load(&now_testing), STALL_S);
    printf("  wait in a `while` loop on the condition, and signal not_empty after every put, not_full after every get\n");
    fflush(stdout);
    _exit(1);
}

static int *new_storage(int cap)
{
    int *s = malloc((size_t)(cap + GUARD) * sizeof(int));
    PW_CHECK_ALLOC(s, (size_t)(cap + GUARD) * sizeof(int));
    for (int i = 0; i < cap + GUARD; i++) s[i] = SENTINEL;
    return s;
}

static int guards_intact(const int *s, int cap)
{
    for (int i = cap; i < cap + GUARD; i++)
        if (s[i] != SENTINEL) {
            pw_ex_fail("capacity %d: the queue wrote past its storage (items[%d])", cap, i);
            return 0;
        }
    return 1;
}

static int test_order(int cap)
{
    printf("  one thread, capacity %d: order across wraps  ", cap);
    atomic_store(&now_testing, "one thread, in order");
    int *st = new_storage(cap);
    bqueue q;
    bq_init(&q, st, cap);
    int next_in = 0, next_out = 0, bad = 0;
    for (int round = 0; round < 50 && !bad; round++) {
        int fill = 1 + round % cap;
        for (int i = 0; i < fill; i++) put(&q, next_in++);
        for (int i = 0; i < fill && !bad; i++) {
            int got = get(&q);
            if (got != next_out) {
                pw_ex_fail("capacity %d: got item %d, want %d (the oldest): a queue is first in, first out", cap, got, next_out);
                bad = 1;
            }
            next_out++;
        }
    }
    bad = bad || !guards_intact(st, cap);
    bq_destroy(&q);
    free(st);
    if (!bad) printf("ok\n");
    return bad;
}

typedef struct { bqueue *q; int n, base; atomic_int done; } producer_arg;

static void *produce(void *arg)
{
    producer_arg *a = arg;
    for (int i = 0; i < a->n; i++) {
        put(a->q, a->base + i);
        atomic_fetch_add(&a->done, 1);
    }
    return NULL;
}

static void *get_one(void *arg)
{
    producer_arg *a = arg;
    a->base = get(a->q);
    atomic_store(&a->done, 1);
    return NULL;
}

static int test_blocking(int cap)
{
    printf("  capacity %d: a full queue holds the producer back, an empty one the consumer  ", cap);
    atomic_store(&now_testing, "a full queue, then an empty one");
    int *st = new_storage(cap);
    bqueue q;
    bq_init(&q, st, cap);
    producer_arg a = { &q, cap + 5, 0, 0 };
    pthread_t t;
    PW_CHECK_PTHREAD(pthread_create(&t, NULL, produce, &a));
    for (int i = 0; i < 500 && atomic_load(&a.done) < cap; i++) nap(0.01);
    nap(0.1);
    int done = atomic_load(&a.done);
    PW_CHECK_PTHREAD(pthread_mutex_lock(&q.lock));
    int held = q.count;
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&q.lock));
    int bad = 0;
    if (done > cap || held > cap) {
        pw_ex_fail("capacity %d, nobody getting: bq_put returned %d times and the queue holds %d items: a put must wait "
                   "while the queue is full", cap, done, held);
        bad = 1;
    }
    for (int i = 0; i < cap + 5; i++) {
        int got = get(&q);
        if (!bad && got != i) {
            pw_ex_fail("capacity %d: got item %d, want %d: an item was overwritten or taken out of order", cap, got, i);
            bad = 1;
        }
    }
    PW_CHECK_PTHREAD(pthread_join(t, NULL));
    producer_arg g = { &q, 0, -1, 0 };
    PW_CHECK_PTHREAD(pthread_create(&t, NULL, get_one, &g));
    nap(0.1);
    if (!bad && atomic_load(&g.done)) {
        pw_ex_fail("capacity %d: bq_get on an empty queue returned %d instead of waiting", cap, g.base);
        bad = 1;
    }
    put(&q, 4242);
    PW_CHECK_PTHREAD(pthread_join(t, NULL));
    if (!bad && g.base != 4242) {
        pw_ex_fail("capacity %d: the waiting bq_get returned %d, not the item put (4242)", cap, g.base);
        bad = 1;
    }
    bad = bad || !guards_intact(st, cap);
    bq_destroy(&q);
    free(st);
    if (!bad) printf("ok\n");
    return bad;
}

#define NPROD 3
#define NCONS 2
#define PER_PROD 10000

typedef struct {
    bqueue *q;
    int n;                      /* items to take */
    int *seen;                  /* NPROD * PER_PROD counters (each consumer its own) */
    int bad_order, over;        /* first failure found, as a code */
    int last[NPROD];
} consumer_arg;

static void *consume(void *arg)
{
    consumer_arg *c = arg;
    for (int p = 0; p < NPROD; p++) c->last[p] = -1;
    for (int i = 0; i < c->n; i++) {
        int item = get(c->q);
        PW_CHECK_PTHREAD(pthread_mutex_lock(&c->q->lock));
        if (c->q->count > c->q->capacity || c->q->count < 0) c->over = c->q->count + 1;
        PW_CHECK_PTHREAD(pthread_mutex_unlock(&c->q->lock));
        int p = item / PER_PROD, k = item % PER_PROD;
        if (item < 0 || p >= NPROD) { c->bad_order = 1; continue; }
        if (k <= c->last[p]) c->bad_order = 1;
        c->last[p] = k;
        c->seen[item]++;
    }
    return NULL;
}

static int test_many(int cap)
{
    printf("  capacity %d: %d producers, %d consumers, %d items  ", cap, NPROD, NCONS, NPROD * PER_PROD);
    atomic_store(&now_testing, "3 producers, 2 consumers");
    int *st = new_storage(cap);
    bqueue q;
    bq_init(&q, st, cap);
    pthread_t tp[NPROD], tc[NCONS];
    producer_arg pa[NPROD];
    consumer_arg ca[NCONS];
    int total = NPROD * PER_PROD;
    for (int c = 0; c < NCONS; c++) {
        ca[c] = (consumer_arg){ &q, total / NCONS + (c < total % NCONS), calloc((size_t)total, sizeof(int)), 0, 0, { 0 } };
        PW_CHECK_ALLOC(ca[c].seen, (size_t)total * sizeof(int));
        PW_CHECK_PTHREAD(pthread_create(&tc[c], NULL, consume, &ca[c]));
    }
    for (int p = 0; p < NPROD; p++) {
        pa[p] = (producer_arg){ &q, PER_PROD, p * PER_PROD, 0 };
        PW_CHECK_PTHREAD(pthread_create(&tp[p], NULL, produce, &pa[p]));
    }
    for (int p = 0; p < NPROD; p++) PW_CHECK_PTHREAD(pthread_join(tp[p], NULL));
    for (int c = 0; c < NCONS; c++) PW_CHECK_PTHREAD(pthread_join(tc[c], NULL));
    int bad = 0;
    for (int c = 0; c < NCONS && !bad; c++) {
        if (ca[c].over) {
            pw_ex_fail("capacity %d: the queue held %d items at once", cap, ca[c].over - 1);
            bad = 1;
        } else if (ca[c].bad_order) {
            pw_ex_fail("capacity %d: consumer %d got a producer's items out of the order they were put", cap, c);
            bad = 1;
        }
    }
    for (int i = 0; i < total && !bad; i++) {
        int n = 0;
        for (int c = 0; c < NCONS; c++) n += ca[c].seen[i];
        if (n != 1) {
            pw_ex_fail("capacity %d: item %d (producer %d's number %d) was taken %d times, not once: %s", cap, i,
                       i / PER_PROD, i % PER_PROD, n, n ? "an item was repeated" : "an item was lost");
            bad = 1;
        }
    }
    for (int c = 0; c < NCONS; c++) free(ca[c].seen);
    bad = bad || !guards_intact(st, cap);
    bq_destroy(&q);
    free(st);
    if (!bad) printf("ok\n");
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pthread_t dog;
    PW_CHECK_PTHREAD(pthread_create(&dog, NULL, watchdog, NULL));
    PW_CHECK_PTHREAD(pthread_detach(dog));
    printf("1. order\n");
    int caps[] = { 1, 2, 3, 7 };
    for (int i = 0; i < 4; i++) if (test_order(caps[i])) return 1;
    printf("2. blocking\n");
    for (int i = 0; i < 4; i += 3) if (test_blocking(caps[i])) return 1;
    printf("3. many threads\n");
    int many[] = { 1, 2, 7 };
    for (int i = 0; i < 3; i++) if (test_many(many[i])) return 1;
    return pw_ex_pass("nothing lost or repeated, first in first out, never more than capacity, waits when full or empty");
}
