/* common/cluster.c: the virtual cluster's scheduler, messages and clocks.
 * The model is described in cluster.h; this file is the machinery.
 *
 * One OS thread runs every rank as a fiber. The scheduler (the OS thread's
 * own context) keeps a FIFO of runnable ranks and switches to the first; the
 * rank runs until it waits for a message that has not been sent, or returns.
 * A send to a rank that is waiting for exactly that message copies straight
 * into its buffer and makes it runnable; otherwise the message is queued at
 * the receiver. When the FIFO is empty and ranks are still waiting: deadlock. */
#include "cluster.h"
#include "errcheck.h"
#include "fiber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct msg {
    struct msg *next;
    int src;
    size_t bytes;
    double sent;            /* sender's clock when the send began */
    double cost;            /* alpha + bytes * beta of the link it crosses */
    void *data;             /* a copy of the payload; NULL for a phantom */
} msg;

struct pw_rank {
    pw_cluster *c;
    int id;
    pw_fiber *fiber;
    double clock;           /* modelled seconds */
    double in_free;         /* when the incoming link finished its last message */
    double slow;            /* compute slow factor */
    msg *head, *tail;       /* queued messages to this rank, in arrival order */
    /* while waiting in pw_recv: */
    bool waiting;
    int want_src;
    void *want_buf;
    size_t want_bytes;
    double posted;          /* clock when the recv was posted */
};

struct pw_cluster {
    pw_cluster_config cfg;
    double *slow;           /* own copy of cfg.slow, or NULL */
    pw_rank *ranks;
    int *runq;              /* circular FIFO of runnable rank ids */
    int rq_head, rq_count;
    pw_fiber *sched;        /* the OS thread's own context */
    pw_rank_fn fn;
    void *arg;
    pw_trace_event *trace;
    size_t ntrace, cap_trace;
    long long messages;
    double bytes;
    char *report;
};

/* ---- configuration ----------------------------------------------------------- */

pw_cluster_config pw_cluster_defaults(int ranks)
{
    pw_cluster_config cfg = {
        .ranks = ranks,
        .ranks_per_node = ranks > 0 && ranks <= PW_CLUSTER_RANKS_PER_NODE ? ranks : PW_CLUSTER_RANKS_PER_NODE,
        .intra_alpha = PW_CLUSTER_INTRA_ALPHA,
        .intra_gbs = PW_CLUSTER_INTRA_GBS,
        .inter_alpha = PW_CLUSTER_INTER_ALPHA,
        .inter_gbs = PW_CLUSTER_INTER_GBS,
        .device_gflops = PW_CLUSTER_DEVICE_GFLOPS,
        .slow = NULL,
        .trace = false,
    };
    return cfg;
}

/* isfinite and > 0: NaN fails both comparisons, so it is refused too. */
static bool positive(double x) { return x > 0 && isfinite(x); }

int pw_cluster_validate(const pw_cluster_config *cfg, char *why, size_t len)
{
#define BAD(...) do { snprintf(why, len, __VA_ARGS__); return 1; } while (0)
    if (cfg->ranks < 1) BAD("a cluster needs at least 1 rank, not %d", cfg->ranks);
    if (cfg->ranks > PW_CLUSTER_MAX_RANKS) BAD("%d ranks is more than the %d the virtual cluster allows", cfg->ranks, PW_CLUSTER_MAX_RANKS);
    if (cfg->ranks_per_node < 1) BAD("ranks per node must be at least 1, not %d", cfg->ranks_per_node);
    if (cfg->ranks % cfg->ranks_per_node != 0)
        BAD("%d ranks do not fill nodes of %d ranks each (%d nodes and %d left over): choose a multiple",
            cfg->ranks, cfg->ranks_per_node, cfg->ranks / cfg->ranks_per_node, cfg->ranks % cfg->ranks_per_node);
    if (!positive(cfg->intra_gbs)) BAD("intra-node bandwidth must be positive, not %g GB/s", cfg->intra_gbs);
    if (!positive(cfg->inter_gbs)) BAD("inter-node bandwidth must be positive, not %g GB/s", cfg->inter_gbs);
    if (!(cfg->intra_alpha >= 0) || !isfinite(cfg->intra_alpha)) BAD("intra-node latency must be 0 or more, not %g s", cfg->intra_alpha);
    if (!(cfg->inter_alpha >= 0) || !isfinite(cfg->inter_alpha)) BAD("inter-node latency must be 0 or more, not %g s", cfg->inter_alpha);
    if (!positive(cfg->device_gflops)) BAD("device rate must be positive, not %g GFLOP/s", cfg->device_gflops);
    if (cfg->slow)
        for (int r = 0; r < cfg->ranks; r++)
            if (!positive(cfg->slow[r])) BAD("slow factor of rank %d must be positive, not %g", r, cfg->slow[r]);
    return 0;
#undef BAD
}

void pw_cluster_check_or_exit(const char *prog, const pw_cluster_config *cfg)
{
    char why[256];
    if (pw_cluster_validate(cfg, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", prog, why);
        exit(2);
    }
}

pw_cluster *pw_cluster_create(const pw_cluster_config *cfg)
{
    char why[256];
    if (pw_cluster_validate(cfg, why, sizeof why)) {
        fprintf(stderr, "pw_cluster_create: %s\n", why);
        abort();                      /* programs validate first: this is a bug */
    }
    pw_cluster *c = calloc(1, sizeof *c);
    PW_CHECK_ALLOC(c, sizeof *c);
    c->cfg = *cfg;
    int p = cfg->ranks;
    if (cfg->slow) {
        c->slow = malloc((size_t)p * sizeof *c->slow);
        PW_CHECK_ALLOC(c->slow, (size_t)p * sizeof *c->slow);
        memcpy(c->slow, cfg->slow, (size_t)p * sizeof *c->slow);
        c->cfg.slow = c->slow;
    }
    c->ranks = calloc((size_t)p, sizeof *c->ranks);
    PW_CHECK_ALLOC(c->ranks, (size_t)p * sizeof *c->ranks);
    c->runq = malloc((size_t)p * sizeof *c->runq);
    PW_CHECK_ALLOC(c->runq, (size_t)p * sizeof *c->runq);
    return c;
}

static void free_messages(pw_rank *r)
{
    for (msg *m = r->head, *next; m; m = next) {
        next = m->next;
        free(m->data);
        free(m);
    }
    r->head = r->tail = NULL;
}

void pw_cluster_destroy(pw_cluster *c)
{
    if (!c) return;
    for (int i = 0; i < c->cfg.ranks; i++) {
        free_messages(&c->ranks[i]);
        pw_fiber_destroy(c->ranks[i].fiber);
    }
    free(c->ranks);
    free(c->runq);
    free(c->slow);
    free(c->trace);
    free(c->report);
    free(c);
}

/* ---- links ------------------------------------------------------------------- */

static bool same_node(const pw_cluster *c, int a, int b)
{
    return a / c->cfg.ranks_per_node == b / c->cfg.ranks_per_node;
}

double pw_cluster_alpha(const pw_cluster *c, int a, int b)
{
    if (a == b) return 0;
    return same_node(c, a, b) ? c->cfg.intra_alpha : c->cfg.inter_alpha;
}

double pw_cluster_beta(const pw_cluster *c, int a, int b)
{
    if (a == b) return 0;
    return 1.0 / ((same_node(c, a, b) ? c->cfg.intra_gbs : c->cfg.inter_gbs) * 1e9);
}

/* ---- trace --------------------------------------------------------------------- */

static void record(pw_cluster *c, int rank, const char *kind, double start, double end,
                   double bytes, int peer)
{
    if (!c->cfg.trace) return;
    if (c->ntrace == c->cap_trace) {
        c->cap_trace = c->cap_trace ? 2 * c->cap_trace : 1024;
        pw_trace_event *t = realloc(c->trace, c->cap_trace * sizeof *t);
        PW_CHECK_ALLOC(t, c->cap_trace * sizeof *t);
        c->trace = t;
    }
    c->trace[c->ntrace++] = (pw_trace_event){ rank, kind, start, end, bytes, peer };
}

void pw_rank_trace(pw_rank *r, const char *kind, double start, double end, double bytes, int peer)
{
    record(r->c, r->id, kind, start, end, bytes, peer);
}

const pw_trace_event *pw_cluster_trace(const pw_cluster *c, size_t *count)
{
    *count = c->ntrace;
    return c->trace;
}

/* ---- scheduling ------------------------------------------------------------------ */

static void make_runnable(pw_cluster *c, int id)
{
    int p = c->cfg.ranks;
    c->runq[(c->rq_head + c->rq_count) % p] = id;
    c->rq_count++;
}

static void rank_main(void *arg)
{
    pw_rank *r = arg;
    r->c->fn(r, r->c->arg);
}

/* What rank r waits for, as one line of the deadlock report. */
static int describe_wait(const pw_cluster *c, const pw_rank *r, char *buf, size_t len)
{
    int queued = 0;
    for (const msg *m = r->head; m; m = m->next) queued++;
    return snprintf(buf, len, "  rank %d (clock %.6g s): recv from rank %d (%zu bytes); %s\n",
                    r->id, r->clock, r->want_src, r->want_bytes,
                    queued ? "the messages queued here are from other ranks" :
                    c->ranks[r->want_src].waiting ? "that rank is itself waiting" :
                    "that rank finished without sending it");
}

static void build_report(pw_cluster *c)
{
    int p = c->cfg.ranks, waiting = 0;
    for (int i = 0; i < p; i++) waiting += c->ranks[i].waiting;
    size_t cap = 160 + (size_t)waiting * 160, used = 0;
    c->report = malloc(cap);
    PW_CHECK_ALLOC(c->report, cap);
    used += (size_t)snprintf(c->report, cap, "deadlock: %d of %d ranks wait for a message that no running rank will send:\n",
                             waiting, p);
    for (int i = 0; i < p && used < cap; i++)
        if (c->ranks[i].waiting)
            used += (size_t)describe_wait(c, &c->ranks[i], c->report + used, cap - used);
}

int pw_cluster_run(pw_cluster *c, pw_rank_fn fn, void *arg)
{
    int p = c->cfg.ranks;
    c->fn = fn;
    c->arg = arg;
    c->sched = pw_fiber_self();
    c->ntrace = 0;
    c->messages = 0;
    c->bytes = 0;
    free(c->report);
    c->report = NULL;
    c->rq_head = c->rq_count = 0;
    for (int i = 0; i < p; i++) {
        pw_rank *r = &c->ranks[i];
        free_messages(r);
        pw_fiber_destroy(r->fiber);      /* a fiber left over from a deadlocked run */
        *r = (pw_rank){ .c = c, .id = i, .slow = c->slow ? c->slow[i] : 1.0 };
        r->fiber = pw_fiber_create(rank_main, r, 0);
        make_runnable(c, i);
    }
    while (c->rq_count > 0) {
        int id = c->runq[c->rq_head];
        c->rq_head = (c->rq_head + 1) % p;
        c->rq_count--;
        pw_fiber_switch(c->sched, c->ranks[id].fiber);
        if (pw_fiber_done(c->ranks[id].fiber)) {
            pw_fiber_destroy(c->ranks[id].fiber);
            c->ranks[id].fiber = NULL;
        }
    }
    for (int i = 0; i < p; i++)
        if (c->ranks[i].waiting) { build_report(c); return PW_CLUSTER_DEADLOCK; }
    return PW_CLUSTER_OK;
}

double pw_cluster_time(const pw_cluster *c)
{
    double t = 0;
    for (int i = 0; i < c->cfg.ranks; i++)
        if (c->ranks[i].clock > t) t = c->ranks[i].clock;
    return t;
}

double pw_cluster_clock(const pw_cluster *c, int rank) { return c->ranks[rank].clock; }
const char *pw_cluster_report(const pw_cluster *c) { return c->report ? c->report : ""; }

void pw_cluster_traffic(const pw_cluster *c, long long *messages, double *bytes)
{
    *messages = c->messages;
    *bytes = c->bytes;
}

/* ---- inside a rank ------------------------------------------------------------------ */

int pw_rank_id(const pw_rank *r) { return r->id; }
int pw_rank_size(const pw_rank *r) { return r->c->cfg.ranks; }
double pw_rank_now(const pw_rank *r) { return r->clock; }
void pw_rank_set_now(pw_rank *r, double t) { r->clock = t; }

void pw_compute_seconds(pw_rank *r, double seconds, const char *kind)
{
    double start = r->clock;
    r->clock += seconds * r->slow;
    record(r->c, r->id, kind ? kind : "compute", start, r->clock, 0, -1);
}

void pw_compute(pw_rank *r, double flops, const char *kind)
{
    pw_compute_seconds(r, flops / (r->c->cfg.device_gflops * 1e9), kind);
}

static void check_rank(const pw_rank *r, int other, const char *what)
{
    if (other < 0 || other >= r->c->cfg.ranks) {
        fprintf(stderr, "virtual cluster: rank %d: %s rank %d, but ranks are 0..%d\n",
                r->id, what, other, r->c->cfg.ranks - 1);
        abort();
    }
}

/* The receiving side of a matched message: the arrival under the link model
 * (cluster.h), the clock, the trace. */
static void complete_recv(pw_rank *r, int src, size_t bytes, double sent, double cost)
{
    double arrival = fmax(sent + cost, r->in_free + cost);
    r->in_free = arrival;
    r->clock = fmax(r->posted, arrival);
    record(r->c, r->id, "recv", r->posted, r->clock, (double)bytes, src);
}

static void size_mismatch(const pw_rank *r, int src, size_t want, size_t got)
{
    fprintf(stderr, "virtual cluster: rank %d receives %zu bytes from rank %d, but rank %d sent %zu\n",
            r->id, want, src, src, got);
    abort();
}

void pw_send(pw_rank *r, int dst, const void *buf, size_t bytes)
{
    check_rank(r, dst, "send to");
    pw_cluster *c = r->c;
    double cost = pw_cluster_alpha(c, r->id, dst) + (double)bytes * pw_cluster_beta(c, r->id, dst);
    double sent = r->clock;
    r->clock += cost;
    record(c, r->id, "send", sent, r->clock, (double)bytes, dst);
    c->messages++;
    c->bytes += (double)bytes;

    pw_rank *d = &c->ranks[dst];
    if (d->waiting && d->want_src == r->id) {
        /* it waits for exactly this (FIFO: nothing older from us is queued) */
        if (d->want_bytes != bytes) size_mismatch(d, r->id, d->want_bytes, bytes);
        if (d->want_buf && buf) memcpy(d->want_buf, buf, bytes);
        d->waiting = false;
        complete_recv(d, r->id, bytes, sent, cost);
        make_runnable(c, dst);
        return;
    }
    msg *m = malloc(sizeof *m);
    PW_CHECK_ALLOC(m, sizeof *m);
    *m = (msg){ NULL, r->id, bytes, sent, cost, NULL };
    if (buf) {
        m->data = malloc(bytes ? bytes : 1);
        PW_CHECK_ALLOC(m->data, bytes);
        memcpy(m->data, buf, bytes);
    }
    if (d->tail) d->tail->next = m; else d->head = m;
    d->tail = m;
}

void pw_recv(pw_rank *r, int src, void *buf, size_t bytes)
{
    check_rank(r, src, "recv from");
    r->posted = r->clock;
    msg *prev = NULL;
    for (msg *m = r->head; m; prev = m, m = m->next) {
        if (m->src != src) continue;
        if (m->bytes != bytes) size_mismatch(r, src, bytes, m->bytes);
        if (buf && m->data) memcpy(buf, m->data, bytes);
        if (prev) prev->next = m->next; else r->head = m->next;
        if (r->tail == m) r->tail = prev;
        complete_recv(r, src, bytes, m->sent, m->cost);
        free(m->data);
        free(m);
        return;
    }
    /* Not sent yet: wait. The sender completes the receive and wakes us. */
    r->waiting = true;
    r->want_src = src;
    r->want_buf = buf;
    r->want_bytes = bytes;
    pw_fiber_switch(r->fiber, r->c->sched);
}
