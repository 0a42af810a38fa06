/* common/cluster/cluster.c: the virtual cluster's scheduler, messages and clocks.
 * The model is described in cluster.h; this file is the machinery.
 *
 * One OS thread runs every rank as a fiber. The scheduler (the OS thread's
 * own context) keeps the runnable ranks in a heap ordered by modelled time
 * and switches to the earliest; the rank runs until it waits for a message,
 * or returns. A send queues the message at the receiver, in the order the
 * messages were sent (the order they reach its link), and wakes the
 * receiver if it waits for that sender.
 *
 * Why a time-ordered heap: a link serves messages in the order they reach
 * it, so the arrival of a message sent at time t is known only once every
 * message sent to the same rank before t has been sent. Ranks run one at a
 * time in simulation order, not in modelled time, so a receive that finds
 * its message sent at t yields while some runnable rank is still earlier
 * than t (it might yet send something earlier to us); it goes on when it is
 * the earliest. Every later send then starts at t or after (clocks only move
 * forward between a rank's sends), so the link's schedule up to t is final.
 *
 * When the heap is empty and ranks still wait: deadlock. When all ranks have
 * returned and messages are still queued: sent but never received. */
#include "cluster.h"
#include "errcheck.h"
#include "fiber.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct msg {
    struct msg *prev, *next;    /* the receiver's queue, ordered by (sent, seq) */
    int src;
    int tag;                /* the sender's tag: a receive matches (src, tag) */
    bool quiet;             /* set-up traffic (pw_rank_set_quiet): no time, no link */
    size_t bytes;
    double sent;            /* sender's clock when the send began */
    double cost;            /* alpha + bytes * beta of the link it crosses */
    double arrival;         /* when its last byte is in, once `placed` */
    long long seq;          /* global send order: ties, and FIFO per sender */
    bool placed;            /* its slot on the receiver's link is final */
    bool delivered;         /* the payload is already in the receiver's buffer */
    void *data;             /* a copy of the payload; NULL for a phantom or delivered */
} msg;

typedef struct { double key; long long seq; int id; } runnable;

struct pw_rank {
    pw_cluster *c;
    int id;
    pw_fiber *fiber;
    double clock;           /* modelled seconds */
    double in_free;         /* when the incoming link finished its last placed message */
    double slow;            /* compute slow factor */
    msg *head, *tail;       /* queued messages to this rank, in the order they were sent */
    msg *unplaced;          /* the first queued message whose arrival is not final (all before it are) */
    /* while waiting in pw_recv: */
    bool waiting;
    int want_src;
    int want_tag;
    void *want_buf;
    size_t want_bytes;
    double posted;          /* clock when the recv was posted */
    bool quiet;             /* pw_rank_set_quiet: messages cost nothing and are not traced */
    int comm_contexts;      /* pw_rank_comm_contexts: the highest group context seen */
};

struct pw_cluster {
    pw_cluster_config cfg;
    double *slow;           /* own copy of cfg.slow, or NULL */
    pw_rank *ranks;
    runnable *heap;         /* runnable ranks, earliest (key, seq) on top */
    int nheap;
    long long seq;          /* counter for heap ties and message order */
    pw_fiber *sched;        /* the OS thread's own context */
    pw_rank_fn fn;
    void *arg;
    pw_trace_event *trace;
    size_t ntrace, cap_trace;
    long long messages;
    double bytes;
    char *report;
    bool stopped;           /* a rank made a bad call (bad_call): the run ends, report set */
    struct { int tag; const char *name; } tag_names[PW_CLUSTER_TAG_NAMES];
    int ntag_names;
};

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
    c->heap = malloc((size_t)p * sizeof *c->heap);
    PW_CHECK_ALLOC(c->heap, (size_t)p * sizeof *c->heap);
    return c;
}

static void free_messages(pw_rank *r)
{
    for (msg *m = r->head, *next; m; m = next) {
        next = m->next;
        free(m->data);
        free(m);
    }
    r->head = r->tail = r->unplaced = NULL;
}

void pw_cluster_destroy(pw_cluster *c)
{
    if (!c) return;
    for (int i = 0; i < c->cfg.ranks; i++) {
        free_messages(&c->ranks[i]);
        pw_fiber_destroy(c->ranks[i].fiber);
    }
    free(c->ranks);
    free(c->heap);
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

/* ---- scheduling ------------------------------------------------------------------
 * A binary heap of runnable ranks keyed by (modelled time, order of entry):
 * the earliest runs first; equal times run in the order they became runnable,
 * so a run is deterministic. */

static bool before(const runnable *a, const runnable *b)
{
    return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void make_runnable(pw_cluster *c, int id, double key)
{
    int i = c->nheap++;
    runnable x = { key, c->seq++, id };
    while (i > 0 && before(&x, &c->heap[(i - 1) / 2])) {
        c->heap[i] = c->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    c->heap[i] = x;
}

static int next_runnable(pw_cluster *c)
{
    int id = c->heap[0].id, n = --c->nheap, i = 0;
    runnable last = c->heap[n];
    for (;;) {
        int k = 2 * i + 1;
        if (k >= n) break;
        if (k + 1 < n && before(&c->heap[k + 1], &c->heap[k])) k++;
        if (!before(&c->heap[k], &last)) break;
        c->heap[i] = c->heap[k];
        i = k;
    }
    if (n > 0) c->heap[i] = last;
    return id;
}

static void rank_main(void *arg)
{
    pw_rank *r = arg;
    r->c->fn(r, r->c->arg);
}

/* ", tag 2 (gradients)", ", tag 1 (activations) in group context 3", or ""
 * for tag 0 of the world (pw_send's). */
static void describe_tag(const pw_cluster *c, int wire, char *buf, size_t len)
{
    buf[0] = 0;
    if (wire == 0) return;
    int tag = wire % PW_CLUSTER_TAG_SPACE, context = wire / PW_CLUSTER_TAG_SPACE;
    const char *name = pw_cluster_tag_name(c, tag);
    int n = snprintf(buf, len, ", tag %d", tag);
    if (name && n > 0 && (size_t)n < len) n += snprintf(buf + n, len - (size_t)n, " (%s)", name);
    if (context && n > 0 && (size_t)n < len) snprintf(buf + n, len - (size_t)n, " in group context %d", context);
}

/* Why a waiting rank's message will never come, from what is queued at it
 * and what its peer is doing. */
enum { WAIT_OTHER_TAG, WAIT_OTHERS_QUEUED, WAIT_PEER_WAITING, WAIT_PEER_DONE, WAIT_KINDS };

static int wait_kind(const pw_cluster *c, const pw_rank *r, const msg **other_tag)
{
    int queued = 0;
    *other_tag = NULL;               /* from the rank it waits for, but with another tag */
    for (const msg *m = r->head; m; m = m->next) {
        queued++;
        if (m->src == r->want_src && !*other_tag) *other_tag = m;
    }
    return *other_tag ? WAIT_OTHER_TAG : queued ? WAIT_OTHERS_QUEUED
         : c->ranks[r->want_src].waiting ? WAIT_PEER_WAITING : WAIT_PEER_DONE;
}

/* What rank r waits for, as one line of the deadlock report. */
static int describe_wait(const pw_cluster *c, const pw_rank *r, char *buf, size_t len)
{
    const msg *other_tag;
    int kind = wait_kind(c, r, &other_tag);
    char tag[96], why[160];
    describe_tag(c, r->want_tag, tag, sizeof tag);
    if (other_tag) {
        char got[96];
        describe_tag(c, other_tag->tag, got, sizeof got);
        snprintf(why, sizeof why, "rank %d's message queued here has another tag%s", r->want_src,
                 got[0] ? got : ", tag 0");
    }
    return snprintf(buf, len, "  rank %d (clock %.6g s): recv from rank %d (%zu bytes%s); %s\n",
                    r->id, r->clock, r->want_src, r->want_bytes, tag,
                    kind == WAIT_OTHER_TAG ? why :
                    kind == WAIT_OTHERS_QUEUED ? "the messages queued here are from other ranks" :
                    kind == WAIT_PEER_WAITING ? "that rank is itself waiting" :
                    "that rank finished without sending it");
}

/* The deadlock report: one line per waiting rank for the first
 * PW_CLUSTER_REPORT_MAX (a screenful), then the rest counted by what they
 * wait for: 32 000 ranks in a cycle of receives would otherwise print 32 000
 * lines that say the same thing. A group is the kind of wait (wait_kind),
 * the size and the tag; the first and last rank of each are named, so a
 * lone odd one (the rank whose peer returned early) can be found. */
#define PW_CLUSTER_REPORT_MAX 20
#define PW_CLUSTER_REPORT_GROUPS 8

typedef struct { int kind, tag, count, first, last; size_t bytes; } wait_group;

static const char *const wait_kind_text[WAIT_KINDS] = {
    "a message from that rank with another tag is queued here",
    "the messages queued here are from other ranks",
    "that rank is itself waiting",
    "that rank finished without sending it",
};

static void build_report(pw_cluster *c)
{
    int p = c->cfg.ranks, waiting = 0;
    for (int i = 0; i < p; i++) waiting += c->ranks[i].waiting;
    size_t cap = 200 + PW_CLUSTER_REPORT_MAX * 420 + (PW_CLUSTER_REPORT_GROUPS + 2) * 320, used = 0;
    c->report = malloc(cap);
    PW_CHECK_ALLOC(c->report, cap);
    used += (size_t)snprintf(c->report, cap, "deadlock: %d of %d ranks wait for a message that no running rank will send:\n",
                             waiting, p);
    wait_group g[PW_CLUSTER_REPORT_GROUPS];
    int ngroups = 0, listed = 0, ungrouped = 0;
    for (int i = 0; i < p; i++) {
        const pw_rank *r = &c->ranks[i];
        if (!r->waiting) continue;
        if (listed < PW_CLUSTER_REPORT_MAX) {
            listed++;
            if (used < cap) used += (size_t)describe_wait(c, r, c->report + used, cap - used);
            continue;
        }
        const msg *other_tag;
        int kind = wait_kind(c, r, &other_tag), k = 0;
        while (k < ngroups && !(g[k].kind == kind && g[k].tag == r->want_tag && g[k].bytes == r->want_bytes)) k++;
        if (k == ngroups) {
            if (ngroups == PW_CLUSTER_REPORT_GROUPS) { ungrouped++; continue; }
            g[ngroups++] = (wait_group){ kind, r->want_tag, 0, i, i, r->want_bytes };
        }
        g[k].count++;
        g[k].last = i;
    }
    if (waiting > listed && used < cap)
        used += (size_t)snprintf(c->report + used, cap - used, "  ... and %d more ranks waiting, by what they wait for:\n",
                                 waiting - listed);
    for (int k = 0; k < ngroups && used < cap; k++) {
        char tag[96], who[64];
        describe_tag(c, g[k].tag, tag, sizeof tag);
        if (g[k].count == 1) snprintf(who, sizeof who, "rank %d", g[k].first);
        else snprintf(who, sizeof who, "ranks %d to %d", g[k].first, g[k].last);
        used += (size_t)snprintf(c->report + used, cap - used, "    %d (%s): recv (%zu bytes%s); %s\n",
                                 g[k].count, who, g[k].bytes, tag, wait_kind_text[g[k].kind]);
    }
    if (ungrouped && used < cap)
        snprintf(c->report + used, cap - used, "    %d more waiting in other ways (other sizes or tags)\n", ungrouped);
}

/* Every rank returned, and messages are still queued: a send without its
 * receive (a wrong peer, one step too many) is a bug like a deadlock, and
 * the run fails with the list: who sent how many bytes to whom, and when.
 * The first PW_CLUSTER_REPORT_MAX are listed, then the count of the rest. */
static void build_unreceived_report(pw_cluster *c, long long count)
{
    size_t cap = 200 + PW_CLUSTER_REPORT_MAX * 260, used = 0;
    c->report = malloc(cap);
    PW_CHECK_ALLOC(c->report, cap);
    used += (size_t)snprintf(c->report, cap, "unreceived: %lld message%s sent but never received (every rank returned):\n",
                             count, count == 1 ? " was" : "s were");
    long long listed = 0;
    for (int i = 0; i < c->cfg.ranks; i++)
        for (const msg *m = c->ranks[i].head; m; m = m->next) {
            if (listed++ >= PW_CLUSTER_REPORT_MAX || used >= cap) continue;
            char tag[96];
            describe_tag(c, m->tag, tag, sizeof tag);
            used += (size_t)snprintf(c->report + used, cap - used,
                                     "  rank %d -> rank %d: %zu bytes%s%s, sent at clock %.6g s; rank %d never called pw_recv for it\n",
                                     m->src, i, m->bytes, m->data || !m->bytes ? "" : " (phantom)", tag, m->sent, i);
        }
    if (listed > PW_CLUSTER_REPORT_MAX && used < cap)
        snprintf(c->report + used, cap - used, "  ... and %lld more\n", listed - PW_CLUSTER_REPORT_MAX);
}

static const char stack_hint[] = "give ranks more with PW_CLUSTER_STACK=1M or cfg.stack_bytes, or put big arrays on the heap";

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
    c->nheap = 0;
    c->seq = 0;
    for (int i = 0; i < p; i++) {
        pw_rank *r = &c->ranks[i];
        free_messages(r);
        pw_fiber_destroy(r->fiber);      /* a fiber left over from a deadlocked run */
        *r = (pw_rank){ .c = c, .id = i, .slow = c->slow ? c->slow[i] : 1.0 };
    }
    for (int i = 0; i < p; i++) {
        pw_rank *r = &c->ranks[i];
        r->fiber = pw_fiber_create(rank_main, r, c->cfg.stack_bytes);
        char who[48];
        snprintf(who, sizeof who, "virtual cluster: rank %d", i);
        pw_fiber_set_label(r->fiber, who, stack_hint);
        make_runnable(c, i, 0);
    }
    c->stopped = false;
    while (c->nheap > 0 && !c->stopped) {
        int id = next_runnable(c);
        pw_fiber_switch(c->sched, c->ranks[id].fiber);
        if (pw_fiber_done(c->ranks[id].fiber)) {
            pw_fiber_destroy(c->ranks[id].fiber);
            c->ranks[id].fiber = NULL;
        }
    }
    if (c->stopped) return PW_CLUSTER_BAD_CALL;
    for (int i = 0; i < p; i++)
        if (c->ranks[i].waiting) { build_report(c); return PW_CLUSTER_DEADLOCK; }
    long long left = 0;
    for (int i = 0; i < p; i++)
        for (const msg *m = c->ranks[i].head; m; m = m->next) left++;
    if (left) { build_unreceived_report(c, left); return PW_CLUSTER_UNRECEIVED; }
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

/* Every call a rank makes checks its stack (pw_fiber_check_stack): a frame
 * that jumped past the guard is reported for this rank now, not for the one
 * that later runs into unmapped memory. A rank asks for its id first. */
int pw_rank_id(const pw_rank *r) { pw_fiber_check_stack(); return r->id; }
int pw_rank_size(const pw_rank *r) { pw_fiber_check_stack(); return r->c->cfg.ranks; }
double pw_rank_now(const pw_rank *r) { return r->clock; }
void pw_rank_set_quiet(pw_rank *r, bool quiet) { r->quiet = quiet; }
int *pw_rank_comm_contexts(pw_rank *r) { return &r->comm_contexts; }

void pw_cluster_name_tag(pw_cluster *c, int tag, const char *name)
{
    if (tag < 0 || tag >= PW_CLUSTER_TAG_SPACE) return;
    for (int i = 0; i < c->ntag_names; i++)
        if (c->tag_names[i].tag == tag) { c->tag_names[i].name = name; return; }
    if (c->ntag_names < PW_CLUSTER_TAG_NAMES) {
        c->tag_names[c->ntag_names].tag = tag;
        c->tag_names[c->ntag_names++].name = name;
    }
}

const char *pw_cluster_tag_name(const pw_cluster *c, int tag)
{
    for (int i = 0; i < c->ntag_names; i++)
        if (c->tag_names[i].tag == tag) return c->tag_names[i].name;
    return NULL;
}
void pw_rank_set_now(pw_rank *r, double t) { r->clock = t; }

void pw_compute_seconds(pw_rank *r, double seconds, const char *kind)
{
    pw_fiber_check_stack();
    double start = r->clock;
    r->clock += seconds * r->slow;
    record(r->c, r->id, kind ? kind : "compute", start, r->clock, 0, -1);
}

void pw_compute(pw_rank *r, double flops, const char *kind)
{
    pw_compute_seconds(r, flops / (r->c->cfg.device_gflops * 1e9), kind);
}

/* ---- a bad call: the run stops ----------------------------------------------------
 * A rank that sends to or receives from a rank that does not exist, uses a
 * negative tag, or receives a message of another size than was sent has a
 * bug, like a deadlock: the run stops there and pw_cluster_run returns
 * PW_CLUSTER_BAD_CALL with one line in the report naming both ranks, which
 * the program prints before it exits 1. The rank never resumes (its receive
 * cannot return: the buffer was not filled), as a deadlocked rank never does. */
static void bad_call(pw_rank *r, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void bad_call(pw_rank *r, const char *fmt, ...)
{
    pw_cluster *c = r->c;
    size_t cap = 512;
    free(c->report);
    c->report = malloc(cap);
    PW_CHECK_ALLOC(c->report, cap);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->report, cap, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < cap) snprintf(c->report + n, cap - (size_t)n, "; the run stopped there\n");
    c->stopped = true;
    pw_fiber_switch(r->fiber, c->sched);
    abort();                         /* never resumed: pw_cluster_run has returned */
}

static void check_rank(pw_rank *r, int other, const char *what)
{
    if (other < 0 || other >= r->c->cfg.ranks)
        bad_call(r, "bad peer: rank %d %s rank %d, but the ranks are 0..%d", r->id, what, other, r->c->cfg.ranks - 1);
}

/* ---- the incoming link ---------------------------------------------------------------
 * Rank d's queue holds the messages sent to it and not yet received, ordered
 * by (sent, seq): the order they reach d's link. Placing a message fixes its
 * arrival: the link takes one message at a time, in that order, each for its
 * whole cost: arrival = max(sent + cost, previous arrival + cost). A message
 * to oneself does not use the link. The placed messages are a prefix of the
 * queue; `unplaced` points past it. */

static void place(pw_rank *d, msg *m)
{
    if (m->quiet) m->arrival = -INFINITY;        /* the receiver's clock stays where it is */
    else if (m->src == d->id) m->arrival = m->sent;
    else {
        m->arrival = fmax(m->sent + m->cost, d->in_free + m->cost);
        d->in_free = m->arrival;
    }
    m->placed = true;
}

/* Place every queued message up to and including m. */
static void place_through(pw_rank *d, msg *m)
{
    while (!m->placed) {
        msg *x = d->unplaced;
        place(d, x);
        d->unplaced = x->next;
    }
}

static void enqueue(pw_rank *d, msg *m)
{
    msg *after = d->tail;                        /* usually the last: sends come in time order */
    while (after && (after->sent > m->sent)) after = after->prev;
    m->prev = after;
    m->next = after ? after->next : d->head;
    if (m->next) m->next->prev = m; else d->tail = m;
    if (after) after->next = m; else d->head = m;
    if (m->next && m->next->placed) {
        /* Sent before a message whose arrival is already final: only a rank
         * that set its clock back (pw_rank_set_now) can do that. The link
         * cannot serve the past: it takes this one next. */
        place(d, m);
    } else if (!after || after->placed) {
        d->unplaced = m;                         /* the first one not placed */
    }
}

static void unlink_msg(pw_rank *d, msg *m)
{
    if (m->prev) m->prev->next = m->next; else d->head = m->next;
    if (m->next) m->next->prev = m->prev; else d->tail = m->prev;
    if (d->unplaced == m) d->unplaced = m->next;
}

/* The oldest queued message from src with this tag (FIFO per sender and
 * tag), or NULL. */
static msg *oldest_from(const pw_rank *r, int src, int tag)
{
    msg *best = NULL;
    for (msg *m = r->head; m; m = m->next)
        if (m->src == src && m->tag == tag && (!best || m->seq < best->seq)) best = m;
    return best;
}

/* A receive of `want` bytes from src met a message of `got`: rank r is the
 * one that stops (the receiver, or the sender delivering to it). */
static void size_mismatch(pw_rank *r, int recver, int src, int tag, size_t want, size_t got)
{
    char t[96];
    describe_tag(r->c, tag, t, sizeof t);
    bad_call(r, "wrong size: rank %d receives %zu bytes from rank %d%s, but rank %d sent %zu bytes (a pw_recv and "
             "its pw_send must agree on the size)", recver, want, src, t, src, got);
}

static void check_tag(pw_rank *r, int tag, int peer, const char *what)
{
    if (tag < 0) bad_call(r, "bad tag: rank %d %s rank %d with tag %d, but tags are 0 or more", r->id, what, peer, tag);
}

void pw_send(pw_rank *r, int dst, const void *buf, size_t bytes) { pw_send_tag(r, dst, 0, buf, bytes); }
void pw_recv(pw_rank *r, int src, void *buf, size_t bytes) { pw_recv_tag(r, src, 0, buf, bytes); }

void pw_send_tag(pw_rank *r, int dst, int tag, const void *buf, size_t bytes)
{
    pw_fiber_check_stack();
    check_rank(r, dst, "sends to");
    check_tag(r, tag, dst, "sends to");
    pw_cluster *c = r->c;
    pw_rank *d = &c->ranks[dst];
    bool wanted = d->waiting && d->want_src == r->id && d->want_tag == tag;   /* then it is the oldest such: FIFO */
    if (wanted && d->want_bytes != bytes) size_mismatch(r, dst, r->id, tag, d->want_bytes, bytes);
    double cost = r->quiet ? 0 : pw_cluster_alpha(c, r->id, dst) + (double)bytes * pw_cluster_beta(c, r->id, dst);
    double sent = r->clock;
    if (!r->quiet) {
        r->clock += cost;
        record(c, r->id, "send", sent, r->clock, (double)bytes, dst);
        c->messages++;
        c->bytes += (double)bytes;
    }

    msg *m = malloc(sizeof *m);
    PW_CHECK_ALLOC(m, sizeof *m);
    *m = (msg){ .src = r->id, .tag = tag, .quiet = r->quiet, .bytes = bytes, .sent = sent, .cost = cost, .seq = c->seq++ };
    if (wanted) {
        /* straight into the waiting receiver's buffer: no copy kept */
        if (buf && d->want_buf) memcpy(d->want_buf, buf, bytes);
        m->delivered = true;
    } else if (buf) {
        m->data = malloc(bytes ? bytes : 1);
        PW_CHECK_ALLOC(m->data, bytes);
        memcpy(m->data, buf, bytes);
    }
    enqueue(d, m);
    if (wanted) {
        d->waiting = false;
        make_runnable(c, dst, sent);         /* it places the message when it is the earliest */
    }
}

void pw_recv_tag(pw_rank *r, int src, int tag, void *buf, size_t bytes)
{
    pw_fiber_check_stack();
    check_rank(r, src, "receives from");
    check_tag(r, tag, src, "receives from");
    pw_cluster *c = r->c;
    r->posted = r->clock;
    msg *m;
    for (;;) {
        m = oldest_from(r, src, tag);
        if (m && (m->placed || c->nheap == 0 || c->heap[0].key >= m->sent)) break;
        if (m) make_runnable(c, r->id, m->sent);     /* an earlier rank may still send to us: let it */
        else { r->waiting = true; r->want_src = src; r->want_tag = tag; r->want_buf = buf; r->want_bytes = bytes; }
        pw_fiber_switch(r->fiber, c->sched);
    }
    if (m->bytes != bytes) size_mismatch(r, r->id, src, tag, bytes, m->bytes);
    place_through(r, m);
    if (buf && m->data && !m->delivered) memcpy(buf, m->data, bytes);
    unlink_msg(r, m);
    r->clock = fmax(r->posted, m->arrival);
    if (!m->quiet) record(c, r->id, "recv", r->posted, r->clock, (double)bytes, src);
    free(m->data);
    free(m);
}
