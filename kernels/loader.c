/* kernels/loader.c: decode + augment, the loader pool with its bounded
 * queue, and the training loop fed by either (see loader.h). */
#include "loader.h"
#include "errcheck.h"
#include "timing.h"
#include "util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64's finaliser (Steele, Lea, Flood 2014): one round of mixing. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The key of word j of record i: `rounds` mixing rounds, each dependent on the
 * last, so the work cannot be skipped or vectorised away. */
static uint32_t key_word(uint64_t seed, size_t i, size_t j, int rounds)
{
    uint64_t z = seed ^ ((uint64_t)i << 20) ^ (uint64_t)j;
    for (int r = 0; r < rounds; r++) z = mix(z + 0x9e3779b97f4a7c15ULL);
    return (uint32_t)z;
}

/* FNV-1a over 32-bit words (Fowler, Noll, Vo 1991). */
static uint64_t fnv_words(uint64_t h, const uint32_t *w, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t v = w[j];
        for (int b = 0; b < 4; b++) { h ^= (v >> (8 * b)) & 0xffu; h *= 0x100000001b3ULL; }
    }
    return h;
}
#define FNV_BASIS 0xcbf29ce484222325ULL

void ld_dataset_init(ld_dataset *ds, const ld_config *c)
{
    ds->c = *c;
    mlp_shape s = c->s;
    size_t count = c->batch * (size_t)c->batches;
    ds->words = (size_t)(s.d + s.o);
    float *x = pw_alloc_floats(count * (size_t)s.d), *y = pw_alloc_floats(count * (size_t)s.o);
    mlp_make_data(s, count, c->seed, x, y);
    ds->rec = pw_alloc_bytes(count * ds->words * sizeof(uint32_t));
    ds->sum = pw_alloc_bytes(count * sizeof(uint32_t));
    for (size_t i = 0; i < count; i++) {
        uint32_t *r = ds->rec + i * ds->words;
        memcpy(r, x + i * (size_t)s.d, (size_t)s.d * sizeof(float));
        memcpy(r + s.d, y + i * (size_t)s.o, (size_t)s.o * sizeof(float));
        ds->sum[i] = (uint32_t)fnv_words(FNV_BASIS, r, ds->words);
        for (size_t j = 0; j < ds->words; j++) r[j] ^= key_word(c->seed, i, j, c->rounds);
    }
    pw_free(x);
    pw_free(y);
}

void ld_dataset_free(ld_dataset *ds)
{
    pw_free(ds->rec);
    pw_free(ds->sum);
    memset(ds, 0, sizeof *ds);
}

/* One sample: decode record i into plain words, check it, augment. */
static int make_sample(const ld_dataset *ds, size_t i, float *x, float *y, uint32_t *plain)
{
    const ld_config *c = &ds->c;
    const uint32_t *r = ds->rec + i * ds->words;
    for (size_t j = 0; j < ds->words; j++) plain[j] = r[j] ^ key_word(c->seed, i, j, c->rounds);
    if ((uint32_t)fnv_words(FNV_BASIS, plain, ds->words) != ds->sum[i]) return 1;
    memcpy(x, plain, (size_t)c->s.d * sizeof(float));
    memcpy(y, plain + c->s.d, (size_t)c->s.o * sizeof(float));
    /* Augmentation from an RNG seeded by the sample alone: the same noise
     * whichever loader makes the sample, and whenever. */
    uint64_t z = mix(c->seed ^ 0xa5a5a5a5ULL ^ ((uint64_t)i * 0x9e3779b97f4a7c15ULL));
    for (int j = 0; j < c->s.d; j++) {
        z = mix(z + 0x9e3779b97f4a7c15ULL);
        float u = (float)(z >> 40) * (1.0f / 16777216.0f);   /* [0, 1), 24 bits */
        x[j] += c->noise * (u - 0.5f);
    }
    return 0;
}

int ld_make_batch(const ld_dataset *ds, int k, float *x, float *y)
{
    mlp_shape s = ds->c.s;
    uint32_t plain[ds->words];   /* d + o words: small (the shapes here are tens) */
    int bad = 0;
    for (size_t n = 0; n < ds->c.batch; n++) {
        size_t i = (size_t)k * ds->c.batch + n;
        bad |= make_sample(ds, i, x + n * (size_t)s.d, y + n * (size_t)s.o, plain);
    }
    return bad;
}

uint64_t ld_batch_fingerprint(const float *x, const float *y, size_t batch, mlp_shape s)
{
    uint64_t h = fnv_words(FNV_BASIS, (const uint32_t *)(const void *)x, batch * (size_t)s.d);
    return fnv_words(h, (const uint32_t *)(const void *)y, batch * (size_t)s.o);
}

/* ---- the pool ----------------------------------------------------------------- */

typedef struct {
    ld_batch b;
    int ready;              /* 1 once b.index is made and not yet taken */
} slot;

struct ld_pool {
    const ld_dataset *ds;
    int loaders, capacity;
    slot *slots;            /* capacity slots; batch k lives in slot k % capacity */
    pthread_mutex_t lock;
    pthread_cond_t space;   /* a slot was released: loaders waiting for their turn */
    pthread_cond_t filled;  /* a batch was made: the training thread */
    int next_get;           /* the batch the training thread takes next */
    int released;           /* batches handed back: batch k may start when k < released + capacity */
    int held;               /* made and not yet released (the bound: <= capacity) */
    ld_pool_stats st;
    double t0;              /* pw_now() at start */
    pthread_t *tid;
    struct loader_arg { ld_pool *p; int t; } *args;
};

double ld_pool_clock(const ld_pool *p) { return pw_now() - p->t0; }

static void *loader_main(void *arg)
{
    struct loader_arg *a = arg;
    ld_pool *p = a->p;
    int batches = p->ds->c.batches;
    for (int k = a->t; k < batches; k += p->loaders) {
        PW_CHECK_PTHREAD(pthread_mutex_lock(&p->lock));
        while (k >= p->released + p->capacity) PW_CHECK_PTHREAD(pthread_cond_wait(&p->space, &p->lock));
        PW_CHECK_PTHREAD(pthread_mutex_unlock(&p->lock));
        /* Slot k % capacity is this loader's alone now: the batch that held it
         * (k - capacity) was released, and the next to want it (k + capacity)
         * must wait for k's release. So the decode runs without the lock. */
        slot *sl = &p->slots[k % p->capacity];
        double t_start = ld_pool_clock(p);
        int bad = ld_make_batch(p->ds, k, sl->b.x, sl->b.y);
        double t_end = ld_pool_clock(p);
        PW_CHECK_PTHREAD(pthread_mutex_lock(&p->lock));
        sl->b.index = k;
        sl->ready = 1;
        p->st.bad += bad;
        p->st.produced++;
        p->st.made_by[k] = a->t;
        p->st.start[k] = t_start;
        p->st.end[k] = t_end;
        p->st.busy[a->t] += t_end - t_start;
        if (++p->held > p->st.max_held) p->st.max_held = p->held;
        PW_CHECK_PTHREAD(pthread_cond_broadcast(&p->filled));
        PW_CHECK_PTHREAD(pthread_mutex_unlock(&p->lock));
    }
    return NULL;
}

ld_pool *ld_pool_start(const ld_dataset *ds, int loaders, int capacity)
{
    if (loaders < 1 || capacity < 1) return NULL;
    ld_pool *p = calloc(1, sizeof *p);
    PW_CHECK_ALLOC(p, sizeof *p);
    p->ds = ds;
    p->loaders = loaders;
    p->capacity = capacity;
    size_t nb = (size_t)ds->c.batches;
    p->slots = calloc((size_t)capacity, sizeof *p->slots);
    p->st.made_by = calloc(nb, sizeof(int));
    p->st.start = calloc(nb, sizeof(double));
    p->st.end = calloc(nb, sizeof(double));
    p->st.busy = calloc((size_t)loaders, sizeof(double));
    p->tid = calloc((size_t)loaders, sizeof *p->tid);
    p->args = calloc((size_t)loaders, sizeof *p->args);
    PW_CHECK_ALLOC(p->slots && p->st.made_by && p->st.start && p->st.end && p->st.busy && p->tid && p->args, nb);
    for (int i = 0; i < capacity; i++) {
        p->slots[i].b.x = pw_alloc_floats(ds->c.batch * (size_t)ds->c.s.d);
        p->slots[i].b.y = pw_alloc_floats(ds->c.batch * (size_t)ds->c.s.o);
        p->slots[i].b.index = -1;
    }
    PW_CHECK_PTHREAD(pthread_mutex_init(&p->lock, NULL));
    PW_CHECK_PTHREAD(pthread_cond_init(&p->space, NULL));
    PW_CHECK_PTHREAD(pthread_cond_init(&p->filled, NULL));
    p->t0 = pw_now();
    for (int t = 0; t < loaders; t++) {
        p->args[t] = (struct loader_arg){ p, t };
        PW_CHECK_PTHREAD(pthread_create(&p->tid[t], NULL, loader_main, &p->args[t]));
    }
    return p;
}

const ld_batch *ld_pool_get(ld_pool *p)
{
    if (p->next_get >= p->ds->c.batches) return NULL;
    slot *sl = &p->slots[p->next_get % p->capacity];
    PW_CHECK_PTHREAD(pthread_mutex_lock(&p->lock));
    while (!sl->ready) PW_CHECK_PTHREAD(pthread_cond_wait(&p->filled, &p->lock));
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&p->lock));
    return &sl->b;
}

void ld_pool_release(ld_pool *p)
{
    slot *sl = &p->slots[p->next_get % p->capacity];
    PW_CHECK_PTHREAD(pthread_mutex_lock(&p->lock));
    sl->ready = 0;
    p->held--;
    p->released++;
    p->st.consumed++;
    p->next_get++;
    PW_CHECK_PTHREAD(pthread_cond_broadcast(&p->space));
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&p->lock));
}

void ld_pool_finish(ld_pool *p, ld_pool_stats *st)
{
    /* Unblock loaders still waiting for space (a caller that stopped early). */
    PW_CHECK_PTHREAD(pthread_mutex_lock(&p->lock));
    p->released = p->ds->c.batches;
    PW_CHECK_PTHREAD(pthread_cond_broadcast(&p->space));
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&p->lock));
    for (int t = 0; t < p->loaders; t++) PW_CHECK_PTHREAD(pthread_join(p->tid[t], NULL));
    *st = p->st;
    for (int i = 0; i < p->capacity; i++) {
        pw_free(p->slots[i].b.x);
        pw_free(p->slots[i].b.y);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->space);
    pthread_cond_destroy(&p->filled);
    free(p->slots);
    free(p->tid);
    free(p->args);
    free(p);
}

void ld_pool_stats_free(ld_pool_stats *st)
{
    free(st->made_by);
    free(st->start);
    free(st->end);
    free(st->busy);
    memset(st, 0, sizeof *st);
}

/* ---- the training loop ---------------------------------------------------------- */

int ld_train(const ld_dataset *ds, int loaders, int capacity, float *w, float lr, ld_trace *tr)
{
    mlp_shape s = ds->c.s;
    size_t np = mlp_nparams(s), b = ds->c.batch;
    float *grad = pw_alloc_floats(np), *scratch = pw_alloc_floats((size_t)(s.k + s.o));
    float *x = pw_alloc_floats(b * (size_t)s.d), *y = pw_alloc_floats(b * (size_t)s.o);
    ld_pool *pool = loaders > 0 ? ld_pool_start(ds, loaders, capacity) : NULL;
    int bad = (loaders > 0 && !pool) || loaders < 0;
    double t0 = pw_now();
    for (int k = 0; k < ds->c.batches && !bad; k++) {
        double ts = pw_now();
        const float *bx = x, *by = y;
        if (pool) {
            const ld_batch *bt = ld_pool_get(pool);
            if (!bt || bt->index != k) { bad = 1; break; }   /* out of order: the queue is broken */
            bx = bt->x;
            by = bt->y;
        } else {
            bad |= ld_make_batch(ds, k, x, y);
        }
        double tl = pw_now();
        if (tr && tr->fingerprint) tr->fingerprint[k] = ld_batch_fingerprint(bx, by, b, s);
        double loss = mlp_grad_sum(s, w, bx, by, b, grad, scratch);
        mlp_sgd(w, grad, np, lr, b);
        if (pool) ld_pool_release(pool);
        double tc = pw_now();
        if (tr && tr->loss) tr->loss[k] = loss / (double)b;
        if (tr && tr->steps) tr->steps[k] = (ld_step){ tl - ts, tc - tl, ts - t0 };
    }
    if (pool) {
        ld_pool_stats st;
        ld_pool_finish(pool, &st);
        /* What holds by construction, checked anyway: every batch made once
         * and taken once, none corrupt, never more than `capacity` at once. */
        bad |= st.bad != 0 || st.max_held > capacity;
        bad |= !bad && (st.produced != ds->c.batches || st.consumed != ds->c.batches);
        if (tr) tr->pool = st;
        else ld_pool_stats_free(&st);
    }
    pw_free(grad);
    pw_free(scratch);
    pw_free(x);
    pw_free(y);
    return bad;
}
