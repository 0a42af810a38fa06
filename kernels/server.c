/* kernels/server.c: chapter 14's inference server (see server.h). */
#define _POSIX_C_SOURCE 200809L   /* clock_nanosleep, pthread_condattr_setclock */
#include "server.h"

#include "gemm.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the model ----------------------------------------------------------- */

int srv_model_init(srv_model *m, int d, int layers, uint64_t seed)
{
    m->d = d;
    m->layers = layers;
    m->W = pw_alloc_floats((size_t)layers * d * d);
    if (!m->W) return -1;
    float a = sqrtf(3.0f / (float)d);
    pw_fill_random(m->W, (size_t)layers * d * d, seed, -a, a);
    return 0;
}

void srv_model_free(srv_model *m) { pw_free(m->W); m->W = NULL; }

void srv_forward(const srv_model *m, int b, const float *X, float *Y, float *scratch)
{
    size_t dd = (size_t)m->d * m->d, n = (size_t)b * m->d;
    /* Alternate between Y and scratch so the last layer lands in Y. */
    const float *in = X;
    for (int l = 0; l < m->layers; l++) {
        float *out = (m->layers - l) % 2 ? Y : scratch;
        gemm_simd(b, m->d, m->d, in, m->W + l * dd, out);
        for (size_t i = 0; i < n; i++) out[i] = tanhf(out[i]);
        in = out;
    }
}

double srv_forward_flops(const srv_model *m, int b) { return 2.0 * b * m->d * (double)m->d * m->layers; }
double srv_forward_bytes(const srv_model *m, int b)
{
    return 4.0 * m->layers * (double)m->d * m->d + 8.0 * b * m->d;
}

/* ---- decision rules ---------------------------------------------------------- */

static int imin(int a, int b) { return a < b ? a : b; }

int srv_decide_none(const srv_batch_view *v, double *wake) { (void)v; (void)wake; return 1; }
int srv_decide_greedy(const srv_batch_view *v, double *wake) { (void)wake; return imin(v->queued, v->max_batch); }

/* Dispatch a full batch at once; otherwise hold the oldest request until
 * its slack runs out: it must leave by arrival + budget - service to be
 * answered within the budget, so wake then (and on every arrival). */
int srv_decide_budget(const srv_batch_view *v, double *wake)
{
    if (v->queued >= v->max_batch) return v->max_batch;
    double leave_by = v->oldest + v->budget - v->service;
    if (v->now >= leave_by) return v->queued;
    *wake = leave_by;
    return 0;
}

static const char *policy_names[SRV_POLICIES] = { "none", "greedy", "budget" };
static const srv_decide_fn policy_fns[SRV_POLICIES] = { srv_decide_none, srv_decide_greedy, srv_decide_budget };
const char *srv_policy_name(int p) { return p >= 0 && p < SRV_POLICIES ? policy_names[p] : "?"; }
srv_decide_fn srv_policy_fn(int p) { return p >= 0 && p < SRV_POLICIES ? policy_fns[p] : NULL; }
const char *srv_reject_reason(int r) { return r == SRV_REJ_QUEUE_FULL ? "queue full" : "?"; }

/* ---- clock and waits ------------------------------------------------------------ */

static struct timespec to_timespec(double t)
{
    struct timespec ts;
    if (t < 0) t = 0;
    ts.tv_sec = (time_t)t;
    ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
    return ts;
}

/* Condition variables on CLOCK_MONOTONIC, the clock pw_now reads. */
static void cond_init(pthread_cond_t *c)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(c, &a);
    pthread_condattr_destroy(&a);
}

static void sleep_until(double t)
{
    struct timespec ts = to_timespec(t);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) { }
}

double srv_poisson_gap(uint64_t *s, double rate)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    double u = ((double)(z >> 11) + 0.5) * (1.0 / 9007199254740992.0);   /* (0, 1) */
    return -log(u) / rate;
}

/* ---- the server ----------------------------------------------------------------- */

typedef struct {
    const srv_model *m;
    const srv_config *c;
    double t0;                   /* CLOCK_MONOTONIC at the start */
    pthread_mutex_t mu;
    pthread_cond_t arrived;      /* generator -> batcher */
    pthread_cond_t freed;        /* worker -> batcher: a worker is free */
    pthread_cond_t work;         /* batcher -> workers */
    int *queue, qhead, qlen;     /* ring of request ids, capacity queue_cap */
    int gen_done, batcher_done;
    int free_workers;
    int *bat_ids, *bat_len;      /* handoff ring: workers slots of max_batch ids */
    int bhead, blen;
    float *in, *out;             /* requests x d */
    srv_record *rec;
    int max_queue, batches, forced;
    long batched;
    double max_hold, last_done;
} server;

static double since(const server *s) { return pw_now() - s->t0; }

static void *generator(void *arg)
{
    server *s = arg;
    uint64_t rng = s->c->seed ^ 0xA5A5A5A5ull;
    double t = 0;
    for (int i = 0; i < s->c->requests; i++) {
        t += srv_poisson_gap(&rng, s->c->rate);
        sleep_until(s->t0 + t);
        pthread_mutex_lock(&s->mu);
        s->rec[i].arrive = since(s);
        if (s->qlen == s->c->queue_cap) {
            s->rec[i].rejected = 1 + SRV_REJ_QUEUE_FULL;   /* back-pressure: say no now */
        } else {
            s->queue[(s->qhead + s->qlen) % s->c->queue_cap] = i;
            s->qlen++;
            if (s->qlen > s->max_queue) s->max_queue = s->qlen;
            pthread_cond_signal(&s->arrived);
        }
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_lock(&s->mu);
    s->gen_done = 1;
    pthread_cond_signal(&s->arrived);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* How many to take now: the rule's answer, clamped; waits (unlocking) while
 * the rule says wait. Called with the lock held and the queue non-empty. */
static int decide(server *s)
{
    const srv_config *c = s->c;
    for (;;) {
        srv_batch_view v = { since(s), s->qlen, s->rec[s->queue[s->qhead]].arrive, c->max_batch, c->budget, c->service };
        double wake = v.now;
        int k = c->decide(&v, &wake);
        int most = imin(s->qlen, c->max_batch);
        if (k > 0) return imin(k, most);
        /* A rule that never lets go would hang the server: past 4 budgets
         * + 0.5 s the server takes the batch itself and counts it. */
        double limit = v.oldest + 4 * c->budget + 0.5;
        if (v.now >= limit) { s->forced++; return most; }
        if (!(wake > v.now)) wake = v.now + 1e-4;   /* a wake in the past: poll, do not spin */
        if (wake > limit) wake = limit;
        struct timespec ts = to_timespec(s->t0 + wake);
        pthread_cond_timedwait(&s->arrived, &s->mu, &ts);
    }
}

static void *batcher(void *arg)
{
    server *s = arg;
    const srv_config *c = s->c;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (s->free_workers == 0) pthread_cond_wait(&s->freed, &s->mu);
        double worker_free = since(s);
        while (s->qlen == 0 && !s->gen_done) pthread_cond_wait(&s->arrived, &s->mu);
        if (s->qlen == 0) break;
        int k = decide(s);
        double now = since(s), oldest = s->rec[s->queue[s->qhead]].arrive;
        double hold = now - (oldest > worker_free ? oldest : worker_free);
        if (hold > s->max_hold) s->max_hold = hold;
        int slot = (s->bhead + s->blen) % c->workers;
        for (int j = 0; j < k; j++) {
            int id = s->queue[s->qhead];
            s->qhead = (s->qhead + 1) % c->queue_cap;
            s->qlen--;
            s->bat_ids[slot * c->max_batch + j] = id;
            s->rec[id].dispatch = now;
            s->rec[id].batch = k;
        }
        s->bat_len[slot] = k;
        s->blen++;
        s->free_workers--;
        s->batches++;
        s->batched += k;
        pthread_cond_signal(&s->work);
    }
    s->batcher_done = 1;
    pthread_cond_broadcast(&s->work);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static void *worker(void *arg)
{
    server *s = arg;
    const srv_config *c = s->c;
    int d = s->m->d, B = c->max_batch;
    float *X = pw_alloc_floats((size_t)B * d), *Y = pw_alloc_floats((size_t)B * d), *T = pw_alloc_floats((size_t)B * d);
    int *ids = malloc(sizeof(int) * (size_t)B);
    for (;;) {
        pthread_mutex_lock(&s->mu);
        while (s->blen == 0 && !s->batcher_done) pthread_cond_wait(&s->work, &s->mu);
        if (s->blen == 0) { pthread_mutex_unlock(&s->mu); break; }
        int slot = s->bhead, b = s->bat_len[slot];
        memcpy(ids, s->bat_ids + slot * B, sizeof(int) * (size_t)b);
        s->bhead = (s->bhead + 1) % c->workers;
        s->blen--;
        pthread_mutex_unlock(&s->mu);

        for (int j = 0; j < b; j++) memcpy(X + (size_t)j * d, s->in + (size_t)ids[j] * d, sizeof(float) * (size_t)d);
        srv_forward(s->m, b, X, Y, T);   /* one pass over the weights for all b */
        for (int j = 0; j < b; j++) memcpy(s->out + (size_t)ids[j] * d, Y + (size_t)j * d, sizeof(float) * (size_t)d);

        pthread_mutex_lock(&s->mu);
        double now = since(s);
        for (int j = 0; j < b; j++) { s->rec[ids[j]].done = now; s->rec[ids[j]].answers++; }
        if (now > s->last_done) s->last_done = now;
        s->free_workers++;
        pthread_cond_signal(&s->freed);
        pthread_mutex_unlock(&s->mu);
    }
    pw_free(X); pw_free(Y); pw_free(T); free(ids);
    gemm_release_buffers();
    return NULL;
}

/* Counts, latencies and the check of every answer against the request run alone. */
static void summarize(server *s, srv_result *r)
{
    const srv_config *c = s->c;
    int n = c->requests, d = s->m->d;
    r->sent = n;
    double *lat = malloc(sizeof(double) * (size_t)n + 1);
    float *ref = pw_alloc_floats((size_t)d), *tmp = pw_alloc_floats((size_t)d);
    for (int i = 0; i < n; i++) {
        srv_record *q = &s->rec[i];
        if (q->rejected) { r->rejected++; r->rejected_by[q->rejected - 1]++; }
        if (q->answers > 1) r->duplicates++;
        if (q->answers == 0 && !q->rejected) r->lost++;
        if (q->answers == 1 && !q->rejected) {
            lat[r->answered++] = q->done - q->arrive;
            srv_forward(s->m, 1, s->in + (size_t)i * d, ref, tmp);
            /* The same kernel on the same row: expected equal bit for bit;
             * 1e-5 relative leaves room for a micro-kernel that handles an
             * edge tile in another order, nothing more. */
            int bad = 0;
            for (int j = 0; j < d; j++) {
                float e = fabsf(s->out[(size_t)i * d + j] - ref[j]);
                if (e > r->max_err) r->max_err = e;
                if (!(e <= 1e-5f * (1 + fabsf(ref[j])))) bad = 1;
            }
            r->wrong += bad;
        }
    }
    r->max_queue = s->max_queue;
    r->batches = s->batches;
    r->forced = s->forced;
    r->mean_batch = s->batches ? (double)s->batched / s->batches : 0;
    r->max_hold = s->max_hold;
    r->wall = s->last_done > 0 ? s->last_done : 1e-9;
    r->throughput = r->answered / r->wall;
    r->p50 = r->answered ? pw_quantile(lat, r->answered, 0.5) : 0;
    r->p99 = r->answered ? pw_quantile(lat, r->answered, 0.99) : 0;
    free(lat);
    pw_free(ref); pw_free(tmp);
    gemm_release_buffers();
}

int srv_run(const srv_model *m, const srv_config *c, srv_result *r)
{
    memset(r, 0, sizeof *r);
    server s;
    memset(&s, 0, sizeof s);
    s.m = m;
    s.c = c;
    int n = c->requests, d = m->d;
    s.queue = malloc(sizeof(int) * (size_t)c->queue_cap);
    s.bat_ids = malloc(sizeof(int) * (size_t)c->workers * (size_t)c->max_batch);
    s.bat_len = malloc(sizeof(int) * (size_t)c->workers);
    s.in = pw_alloc_floats((size_t)n * d);
    s.out = pw_alloc_floats((size_t)n * d);
    s.rec = calloc((size_t)n, sizeof(srv_record));
    pthread_t *th = malloc(sizeof(pthread_t) * (size_t)(c->workers + 2));
    if (!s.queue || !s.bat_ids || !s.bat_len || !s.in || !s.out || !s.rec || !th) return -1;
    pw_fill_random(s.in, (size_t)n * d, c->seed, -1, 1);
    memset(s.out, 0, sizeof(float) * (size_t)n * d);
    (void)gemm_isa();   /* the GEMM's one-time setup, before threads share it */
    pthread_mutex_init(&s.mu, NULL);
    cond_init(&s.arrived); cond_init(&s.freed); cond_init(&s.work);
    s.free_workers = c->workers;
    s.t0 = pw_now();
    int started = 0, err = 0;
    for (int w = 0; w < c->workers && !err; w++) err = pthread_create(&th[started], NULL, worker, &s) != 0, started += !err;
    if (!err) err = pthread_create(&th[started], NULL, batcher, &s) != 0, started += !err;
    if (!err) err = pthread_create(&th[started], NULL, generator, &s) != 0, started += !err;
    if (err) {   /* let the ones that started finish */
        pthread_mutex_lock(&s.mu);
        s.gen_done = 1; s.batcher_done = 1;
        pthread_cond_broadcast(&s.work); pthread_cond_broadcast(&s.arrived);
        pthread_mutex_unlock(&s.mu);
    }
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    if (!err) summarize(&s, r);
    r->rec = s.rec;
    pthread_mutex_destroy(&s.mu);
    pthread_cond_destroy(&s.arrived); pthread_cond_destroy(&s.freed); pthread_cond_destroy(&s.work);
    free(s.queue); free(s.bat_ids); free(s.bat_len); free(th);
    pw_free(s.in); pw_free(s.out);
    return err ? -1 : 0;
}

void srv_result_free(srv_result *r) { free(r->rec); r->rec = NULL; }

/* ---- autoregressive decoding -------------------------------------------------------- */

int srv_admit_static(int *slot, int max_batch, const int *waiting, int nwaiting)
{
    for (int s = 0; s < max_batch; s++)
        if (slot[s] >= 0) return 0;    /* the batch is still running: nobody joins */
    int take = imin(max_batch, nwaiting);
    for (int s = 0; s < take; s++) slot[s] = waiting[s];
    return take;
}

int srv_admit_continuous(int *slot, int max_batch, const int *waiting, int nwaiting)
{
    int taken = 0;
    for (int s = 0; s < max_batch && taken < nwaiting; s++)
        if (slot[s] < 0) slot[s] = waiting[taken++];
    return taken;
}

typedef struct {
    const srv_decode_config *c;
    double t0;
    pthread_mutex_t mu;
    pthread_cond_t arrived;
    int *queue, qhead, qlen;     /* capacity: requests (decode rejects nothing) */
    int gen_done;
    double *arrive;
} decoder;

static void *decode_generator(void *arg)
{
    decoder *s = arg;
    uint64_t rng = s->c->seed ^ 0x5A5A5A5Aull;
    double t = 0;
    for (int i = 0; i < s->c->requests; i++) {
        t += srv_poisson_gap(&rng, s->c->rate);
        sleep_until(s->t0 + t);
        pthread_mutex_lock(&s->mu);
        s->arrive[i] = pw_now() - s->t0;
        s->queue[s->qlen++] = i;
        pthread_cond_signal(&s->arrived);
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_lock(&s->mu);
    s->gen_done = 1;
    pthread_cond_signal(&s->arrived);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

int srv_decode_run(const srv_model *m, const srv_decode_config *c, srv_decode_result *r)
{
    memset(r, 0, sizeof *r);
    int n = c->requests, d = m->d, B = c->max_batch;
    decoder s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.queue = malloc(sizeof(int) * (size_t)n);
    s.arrive = calloc((size_t)n, sizeof(double));
    int *len = malloc(sizeof(int) * (size_t)n), *left = malloc(sizeof(int) * (size_t)n);
    double *first = malloc(sizeof(double) * (size_t)n), *last = malloc(sizeof(double) * (size_t)n);
    double *ttft = malloc(sizeof(double) * (size_t)n), *total = malloc(sizeof(double) * (size_t)n);
    float *st = pw_alloc_floats((size_t)n * d), *X = pw_alloc_floats((size_t)B * d);
    float *Y = pw_alloc_floats((size_t)B * d), *T = pw_alloc_floats((size_t)B * d);
    int *slot = malloc(sizeof(int) * (size_t)B), *before = malloc(sizeof(int) * (size_t)B);
    int *waiting = malloc(sizeof(int) * (size_t)B), *rows = malloc(sizeof(int) * (size_t)B);
    r->admitted = malloc(sizeof(int) * (size_t)n);
    if (!s.queue || !s.arrive || !len || !left || !first || !last || !ttft || !total || !st || !X || !Y || !T
        || !slot || !before || !waiting || !rows || !r->admitted) return -1;
    uint64_t rng = c->seed;
    for (int i = 0; i < n; i++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;   /* Knuth's MMIX LCG */
        len[i] = left[i] = 1 + (int)((rng >> 33) % (uint64_t)c->max_len);
    }
    pw_fill_random(st, (size_t)n * d, c->seed + 1, -1, 1);
    float *start = pw_alloc_floats((size_t)n * d);
    if (!start) return -1;
    memcpy(start, st, sizeof(float) * (size_t)n * d);
    for (int j = 0; j < B; j++) slot[j] = -1;
    (void)gemm_isa();
    pthread_mutex_init(&s.mu, NULL);
    cond_init(&s.arrived);
    pthread_t gen;
    int have_gen = 0;
    s.t0 = pw_now();
    if (c->rate > 0) {
        if (pthread_create(&gen, NULL, decode_generator, &s) != 0) return -1;
        have_gen = 1;
    } else {   /* a closed burst: everyone is waiting at time 0 */
        for (int i = 0; i < n; i++) s.queue[i] = i;
        s.qlen = n;
        s.gen_done = 1;
    }
    int done = 0, active = 0, nadmitted = 0;
    long rows_sum = 0;
    while (done < n) {
        pthread_mutex_lock(&s.mu);
        while (active == 0 && s.qhead == s.qlen && !s.gen_done) pthread_cond_wait(&s.arrived, &s.mu);
        int nw = imin(B, s.qlen - s.qhead);
        memcpy(waiting, s.queue + s.qhead, sizeof(int) * (size_t)nw);
        memcpy(before, slot, sizeof(int) * (size_t)B);
        int taken = c->admit(slot, B, waiting, nw);
        if (taken < 0 || taken > nw) { r->order_errors++; taken = taken < 0 ? 0 : nw; }
        s.qhead += taken;
        int drained = s.qhead == s.qlen && s.gen_done;   /* read under the lock: the generator writes both */
        pthread_mutex_unlock(&s.mu);
        /* The slots must change exactly by waiting[0..taken) placed in free
         * slots, each once, and nothing else. */
        int placed = 0;
        for (int j = 0; j < B; j++) {
            if (slot[j] == before[j]) continue;
            if (before[j] >= 0) { r->order_errors++; slot[j] = before[j]; continue; }   /* overwrote a running request */
            int ok = 0;
            for (int t = 0; t < taken; t++) if (waiting[t] == slot[j]) ok = 1;
            for (int t = 0; t < j; t++) if (slot[t] == slot[j] && before[t] != slot[t]) ok = 0;   /* placed twice */
            if (!ok) { r->order_errors++; slot[j] = -1; continue; }
            placed++;
        }
        if (placed != taken) r->order_errors++;
        for (int t = 0; t < taken; t++) if (nadmitted < n) r->admitted[nadmitted++] = waiting[t];
        active = 0;
        for (int j = 0; j < B; j++) if (slot[j] >= 0) rows[active++] = j;
        if (active == 0) {
            if (drained) break;   /* nothing left to admit */
            if (taken == 0 && nw > 0) { r->order_errors++; break; }
            continue;
        }
        /* One iteration: every occupied slot's state through the model, one token each. */
        for (int k = 0; k < active; k++) memcpy(X + (size_t)k * d, st + (size_t)slot[rows[k]] * d, sizeof(float) * (size_t)d);
        srv_forward(m, active, X, Y, T);
        double now = pw_now() - s.t0;
        r->iterations++;
        rows_sum += active;
        for (int k = 0; k < active; k++) {
            int q = slot[rows[k]];
            memcpy(st + (size_t)q * d, Y + (size_t)k * d, sizeof(float) * (size_t)d);
            if (left[q] == len[q]) first[q] = now;
            r->tokens++;
            if (--left[q] == 0) { last[q] = now; slot[rows[k]] = -1; done++; }
        }
    }
    if (have_gen) pthread_join(gen, NULL);
    r->requests = n;
    r->wall = pw_now() - s.t0;
    r->tokens_per_s = r->tokens / r->wall;
    r->mean_rows = r->iterations ? (double)rows_sum / r->iterations : 0;
    for (int i = 0; i < nadmitted; i++) if (r->admitted[i] != i) { r->order_errors++; break; }   /* FIFO */
    int finished = 0;
    for (int i = 0; i < n; i++) {
        if (left[i] != 0) continue;
        ttft[finished] = first[i] - s.arrive[i];
        total[finished++] = last[i] - s.arrive[i];
    }
    if (finished < n) r->wrong += n - finished;   /* never finished: a lost request */
    r->ttft_p50 = finished ? pw_quantile(ttft, finished, 0.5) : 0;
    r->ttft_p99 = finished ? pw_quantile(ttft, finished, 0.99) : 0;
    r->done_p50 = finished ? pw_quantile(total, finished, 0.5) : 0;
    /* Each request alone: len forwards of its own state, against the batched run. */
    for (int i = 0; i < n; i++) {
        if (left[i] != 0) continue;
        memcpy(X, start + (size_t)i * d, sizeof(float) * (size_t)d);
        for (int t = 0; t < len[i]; t++) { srv_forward(m, 1, X, Y, T); memcpy(X, Y, sizeof(float) * (size_t)d); }
        for (int j = 0; j < d; j++)
            if (!(fabsf(X[j] - st[(size_t)i * d + j]) <= 1e-5f * (1 + fabsf(X[j])))) { r->wrong++; break; }
    }
    pthread_mutex_destroy(&s.mu);
    pthread_cond_destroy(&s.arrived);
    free(s.queue); free(s.arrive); free(len); free(left); free(first); free(last); free(ttft); free(total);
    pw_free(st); pw_free(start); pw_free(X); pw_free(Y); pw_free(T);
    free(slot); free(before); free(waiting); free(rows);
    gemm_release_buffers();
    return 0;
}

void srv_decode_free(srv_decode_result *r) { free(r->admitted); r->admitted = NULL; }
