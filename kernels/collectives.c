/* kernels/collectives.c: the collectives of collectives.h on send/recv.
 *
 * Every algorithm sends before it receives within a step, which is safe when
 * sends do not wait for the receiver: the virtual cluster's sends are eager,
 * and the MPI adapter uses buffered sends (MPI_Bsend) for the same reason. */
#include "collectives.h"
#include "cluster.h"
#include "errcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t coll_chunk_begin(size_t n, int p, int k)
{
    /* floor(k*n/p) without overflow: n = q*p + m, so k*n/p = k*q + k*m/p
     * with k*m < p^2, small. */
    size_t q = n / (size_t)p, m = n % (size_t)p;
    return (size_t)k * q + (size_t)k * m / (size_t)p;
}

int coll_rs_owned_chunk(int r, int p) { return (r + 1) % p; }

int coll_log2_ceil(int p)
{
    int k = 0;
    while ((1 << k) < p) k++;
    return k;
}

_Static_assert(COLL_TAG_SPACE == PW_CLUSTER_TAG_SPACE, "one tag layout for groups and the cluster's reports");

static void check_peer(const pw_comm *c, int peer, int tag, const char *what)
{
    if (peer < 0 || peer >= c->size || tag < 0 || tag > COLL_TAG_COLLECTIVE) {
        fprintf(stderr, "pw_comm: rank %d of %d (world rank %d): %s rank %d with tag %d: ranks are 0..%d, tags 0..%d\n",
                c->rank, c->size, c->world_rank, what, peer, tag, c->size - 1, COLL_TAG_MAX);
        abort();
    }
}

int coll_world_rank(const pw_comm *c, int r) { return c->world ? c->world[r] : r; }

void coll_send(pw_comm *c, int dst, int tag, const void *buf, size_t bytes)
{
    check_peer(c, dst, tag, "send to");
    c->send(c, coll_world_rank(c, dst), c->context * COLL_TAG_SPACE + tag, buf, bytes);
}

void coll_recv(pw_comm *c, int src, int tag, void *buf, size_t bytes)
{
    check_peer(c, src, tag, "recv from");
    c->recv(c, coll_world_rank(c, src), c->context * COLL_TAG_SPACE + tag, buf, bytes);
}

void coll_compute(pw_comm *c, double flops, const char *kind) { if (c->compute) c->compute(c, flops, kind); }
double coll_now(pw_comm *c) { return c->now ? c->now(c) : 0; }

static void send_floats(pw_comm *c, int dst, const float *buf, size_t n)
{
    coll_send(c, dst, COLL_TAG_COLLECTIVE, buf, n * sizeof(float));
}

static void recv_floats(pw_comm *c, int src, float *buf, size_t n)
{
    coll_recv(c, src, COLL_TAG_COLLECTIVE, buf, n * sizeof(float));
}

/* ---- groups ---------------------------------------------------------------------------
 * Every rank's (colour, key, contexts seen) goes to parent rank 0, which
 * sends the whole table back: then every rank computes the same groups and
 * contexts. p messages in and p out at rank 0: fine for set-up, which is
 * untimed (quiet) on the cluster. */

typedef struct { int colour, key, seen, rank; } split_entry;

static int by_colour_key(const void *a, const void *b)
{
    const split_entry *x = a, *y = b;
    if (x->colour != y->colour) return x->colour < y->colour ? -1 : 1;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

int coll_comm_split(pw_comm *parent, int colour, int key, pw_comm *out)
{
    int p = parent->size, me = parent->rank;
    if (colour < 0) colour = COLL_UNDEFINED;
    split_entry *all = malloc((size_t)p * sizeof *all);
    PW_CHECK_ALLOC(all, (size_t)p * sizeof *all);
    split_entry mine = { colour, key, *parent->contexts_seen, me };
    if (parent->quiet) parent->quiet(parent, 1);
    if (me == 0) {
        all[0] = mine;
        for (int i = 1; i < p; i++) coll_recv(parent, i, COLL_TAG_COLLECTIVE, &all[i], sizeof *all);
        for (int i = 1; i < p; i++) coll_send(parent, i, COLL_TAG_COLLECTIVE, all, (size_t)p * sizeof *all);
    } else {
        coll_send(parent, 0, COLL_TAG_COLLECTIVE, &mine, sizeof mine);
        coll_recv(parent, 0, COLL_TAG_COLLECTIVE, all, (size_t)p * sizeof *all);
    }
    if (parent->quiet) parent->quiet(parent, 0);

    int base = 0;
    for (int i = 0; i < p; i++) if (all[i].seen > base) base = all[i].seen;
    base++;
    qsort(all, (size_t)p, sizeof *all, by_colour_key);
    /* contexts base, base+1, ... for the colours in increasing order */
    int ncolours = 0, my_context = 0, first = -1, n = 0;
    for (int i = 0; i < p; i++) {
        if (all[i].colour == COLL_UNDEFINED) continue;
        if (i == 0 || all[i].colour != all[i - 1].colour) ncolours++;
        if (all[i].colour == colour) {
            if (first < 0) first = i;
            n++;
            my_context = base + ncolours - 1;
        }
    }
    if (ncolours) *parent->contexts_seen = base + ncolours - 1;

    *out = *parent;
    out->world = NULL;
    if (colour == COLL_UNDEFINED) {
        out->rank = -1;
        out->size = 0;
        out->context = -1;
        free(all);
        return 0;
    }
    out->world = malloc((size_t)n * sizeof *out->world);
    PW_CHECK_ALLOC(out->world, (size_t)n * sizeof *out->world);
    for (int i = 0; i < n; i++) {
        out->world[i] = coll_world_rank(parent, all[first + i].rank);
        if (all[first + i].rank == me) out->rank = i;
    }
    out->size = n;
    out->context = my_context;
    free(all);
    return 0;
}

void coll_comm_free(pw_comm *c)
{
    free(c->world);
    c->world = NULL;
    c->size = 0;
}

/* acc[i] += x[i]: 1 flop and 12 bytes per element. Skipped for phantoms. */
static void add_into(float *acc, const float *x, size_t n)
{
    if (!acc || !x) return;
    for (size_t i = 0; i < n; i++) acc[i] += x[i];
}

/* Scratch for one incoming message, or NULL for phantoms. */
static float *scratch(const float *buf, size_t n)
{
    if (!buf) return NULL;
    float *s = malloc((n ? n : 1) * sizeof *s);
    PW_CHECK_ALLOC(s, n * sizeof *s);
    return s;
}

/* ---- binomial trees ---------------------------------------------------------------
 * Ranks are renumbered so the root is 0 (v = rank - root mod p). In the
 * reduce, round k pairs v with v + 2^k for v a multiple of 2^(k+1): the
 * higher one sends its partial sum and drops out. The broadcast is the same
 * tree run backwards. ceil(log2 p) rounds either way. */

void coll_reduce(pw_comm *c, float *buf, size_t n, int root)
{
    int p = c->size, v = (c->rank - root + p) % p;
    float *tmp = scratch(buf, n);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (v & mask) {
            send_floats(c, (v - mask + root) % p, buf, n);
            break;
        }
        if (v + mask < p) {
            recv_floats(c, (v + mask + root) % p, tmp, n);
            add_into(buf, tmp, n);
        }
    }
    free(tmp);
}

void coll_broadcast(pw_comm *c, float *buf, size_t n, int root)
{
    int p = c->size, v = (c->rank - root + p) % p;
    int mask = 1;
    while (mask < p) {
        if (v & mask) {
            recv_floats(c, (v - mask + root) % p, buf, n);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < p) send_floats(c, (v + mask + root) % p, buf, n);
}

void coll_allreduce_tree(pw_comm *c, float *buf, size_t n)
{
    coll_reduce(c, buf, n, 0);
    coll_broadcast(c, buf, n, 0);
}

/* ---- naive: everything through rank 0 ---------------------------------------------- */

void coll_allreduce_naive(pw_comm *c, float *buf, size_t n)
{
    int p = c->size;
    if (c->rank != 0) {
        send_floats(c, 0, buf, n);
        recv_floats(c, 0, buf, n);
        return;
    }
    float *tmp = scratch(buf, n);
    for (int src = 1; src < p; src++) {      /* one message after another into one link */
        recv_floats(c, src, tmp, n);
        add_into(buf, tmp, n);
    }
    free(tmp);
    for (int dst = 1; dst < p; dst++) send_floats(c, dst, buf, n);
}

/* ---- ring ----------------------------------------------------------------------------
 * Step s of the reduce-scatter: send chunk (r - s) to the right, receive
 * chunk (r - s - 1) from the left and add it in. After p-1 steps chunk r+1
 * has passed through every rank once and holds the full sum. */

static float *chunk_ptr(float *buf, size_t n, int p, int k)
{
    return buf ? buf + coll_chunk_begin(n, p, k) : NULL;
}

static size_t chunk_len(size_t n, int p, int k)
{
    return coll_chunk_begin(n, p, k + 1) - coll_chunk_begin(n, p, k);
}

void coll_reduce_scatter_ring(pw_comm *c, float *buf, size_t n)
{
    int p = c->size, r = c->rank;
    if (p == 1) return;
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    float *tmp = scratch(buf, n / (size_t)p + 1);
    for (int s = 0; s < p - 1; s++) {
        int out = ((r - s) % p + p) % p, in = ((r - s - 1) % p + p) % p;
        send_floats(c, right, chunk_ptr(buf, n, p, out), chunk_len(n, p, out));
        recv_floats(c, left, tmp, chunk_len(n, p, in));
        add_into(chunk_ptr(buf, n, p, in), tmp, chunk_len(n, p, in));
    }
    free(tmp);
}

/* Step s of the all-gather: pass on the chunk that arrived last step (at
 * step 0, the one we own), receive the next one straight into place. */
void coll_allgather_ring(pw_comm *c, float *buf, size_t n)
{
    int p = c->size, r = c->rank;
    if (p == 1) return;
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    for (int s = 0; s < p - 1; s++) {
        int out = ((r + 1 - s) % p + p) % p, in = ((r - s) % p + p) % p;
        send_floats(c, right, chunk_ptr(buf, n, p, out), chunk_len(n, p, out));
        recv_floats(c, left, chunk_ptr(buf, n, p, in), chunk_len(n, p, in));
    }
}

void coll_allreduce_ring(pw_comm *c, float *buf, size_t n)
{
    coll_reduce_scatter_ring(c, buf, n);
    coll_allgather_ring(c, buf, n);
}

const coll_allreduce_algo coll_allreduce_algos[] = {
    { "naive", coll_allreduce_naive },
    { "tree", coll_allreduce_tree },
    { "ring", coll_allreduce_ring },
};
const int coll_allreduce_nalgos = 3;

/* ---- closed forms --------------------------------------------------------------------- */

double coll_model_ring(int p, size_t n_elems, size_t elem_bytes, double alpha, double beta)
{
    if (p == 1) return 0;
    double chunk = (double)((n_elems + (size_t)p - 1) / (size_t)p) * (double)elem_bytes;
    return 2.0 * (p - 1) * (alpha + chunk * beta);
}

double coll_model_tree(int p, size_t n_elems, size_t elem_bytes, double alpha, double beta)
{
    return 2.0 * coll_log2_ceil(p) * (alpha + (double)(n_elems * elem_bytes) * beta);
}

double coll_model_naive(int p, size_t n_elems, size_t elem_bytes, double alpha, double beta)
{
    return 2.0 * (p - 1) * (alpha + (double)(n_elems * elem_bytes) * beta);
}

/* ---- the virtual cluster as a transport ----------------------------------------------- */

static void cluster_send(pw_comm *c, int dst, int tag, const void *buf, size_t bytes) { pw_send_tag(c->ctx, dst, tag, buf, bytes); }
static void cluster_recv(pw_comm *c, int src, int tag, void *buf, size_t bytes) { pw_recv_tag(c->ctx, src, tag, buf, bytes); }
static void cluster_compute(pw_comm *c, double flops, const char *kind) { pw_compute(c->ctx, flops, kind); }
static double cluster_now(pw_comm *c) { return pw_rank_now(c->ctx); }
static void cluster_quiet(pw_comm *c, int on) { pw_rank_set_quiet(c->ctx, on != 0); }

pw_comm coll_comm_cluster(struct pw_rank *r)
{
    return (pw_comm){ .rank = pw_rank_id(r), .size = pw_rank_size(r), .ctx = r,
                      .send = cluster_send, .recv = cluster_recv, .compute = cluster_compute,
                      .now = cluster_now, .quiet = cluster_quiet, .contexts_seen = pw_rank_comm_contexts(r),
                      .world = NULL, .context = 0, .world_rank = pw_rank_id(r), .world_size = pw_rank_size(r) };
}
