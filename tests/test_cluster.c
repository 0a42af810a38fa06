/* tests/test_cluster.c: the virtual cluster (common/cluster/cluster.h) and the
 * collectives written on it (kernels/collectives.h).
 *
 * Checks: every collective gives the right sum on 1, 2, 3, 5, 8 and 64
 * ranks and on lengths that the rank count does not divide, with every rank
 * bitwise identical; modelled times equal the closed forms (relative error
 * below 1e-9); phantom messages cost what real ones cost; a deadlock is
 * reported with what each rank waits for; a straggler delays the all-reduce
 * by exactly its extra compute; bad configurations are refused with a reason;
 * two runs give the same trace. The link serves messages in the order they
 * reach it, not the order the receives are posted: skewed senders with
 * hand-derived times (two senders; a tree and a naive all-reduce with a
 * straggler). A message sent and never received fails the run with a list;
 * more ranks than vm.max_map_count allows are refused; a rank that
 * overflows its stack is named in one line. */
#include "cluster.h"
#include "collectives.h"
#include "util.h"
#include "unit.h"

#include "fiber.h"

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- a job: every rank runs one collective on its own buffer -------------- */

enum { OP_ALLREDUCE, OP_BCAST, OP_REDUCE, OP_RS, OP_AG };

typedef struct {
    int op;
    coll_allreduce_fn allreduce;
    float **buf;            /* buf[rank]: n floats, or NULL pointers for phantoms */
    size_t n;
    int root;
    double flops;           /* compute before the collective */
} job;

static void run_job(pw_rank *r, void *arg)
{
    job *j = arg;
    pw_comm comm = coll_comm_cluster(r);
    float *b = j->buf[pw_rank_id(r)];
    if (j->flops > 0) pw_compute(r, j->flops, NULL);
    switch (j->op) {
    case OP_ALLREDUCE: j->allreduce(&comm, b, j->n); break;
    case OP_BCAST: coll_broadcast(&comm, b, j->n, j->root); break;
    case OP_REDUCE: coll_reduce(&comm, b, j->n, j->root); break;
    case OP_RS: coll_reduce_scatter_ring(&comm, b, j->n); break;
    case OP_AG: coll_allgather_ring(&comm, b, j->n); break;
    }
}

static float **alloc_bufs(int p, size_t n, bool phantom)
{
    float **b = calloc((size_t)p, sizeof *b);
    for (int r = 0; r < p && !phantom; r++) b[r] = pw_alloc_floats(n);
    return b;
}

static void free_bufs(float **b, int p)
{
    for (int r = 0; r < p; r++) pw_free(b[r]);
    free(b);
}

/* Whole-number data: every partial sum is an exact float, so any summation
 * order gives the same answer and the check can be exact. */
static float whole(int r, size_t i) { return (float)((int)((i * 7 + (size_t)r * 13) % 17) - 8); }

/* Run one job on p ranks (one node: uniform links) and return the modelled time. */
static double run_on(int p, int rpn, job *j, int *rc)
{
    pw_cluster_config cfg = pw_cluster_defaults(p);
    cfg.ranks_per_node = rpn;
    pw_cluster *c = pw_cluster_create(&cfg);
    *rc = pw_cluster_run(c, run_job, j);
    double t = pw_cluster_time(c);
    pw_cluster_destroy(c);
    return t;
}

static const int rank_counts[] = { 1, 2, 3, 5, 8, 64 };
static const size_t lengths[] = { 1, 7, 64, 1001, 4099 };
#define NP (int)(sizeof rank_counts / sizeof rank_counts[0])
#define NL (int)(sizeof lengths / sizeof lengths[0])

static void test_allreduce_correct(void)
{
    for (int a = 0; a < coll_allreduce_nalgos; a++)
        for (int pi = 0; pi < NP; pi++)
            for (int li = 0; li < NL; li++) {
                int p = rank_counts[pi], rc;
                size_t n = lengths[li];
                float **b = alloc_bufs(p, n, false);
                for (int r = 0; r < p; r++)
                    for (size_t i = 0; i < n; i++) b[r][i] = whole(r, i);
                job j = { OP_ALLREDUCE, coll_allreduce_algos[a].fn, b, n, 0, 0 };
                run_on(p, p <= 8 ? p : 8, &j, &rc);
                int bad = rc != 0;
                for (size_t i = 0; i < n && !bad; i++) {
                    float want = 0;
                    for (int r = 0; r < p; r++) want += whole(r, i);
                    for (int r = 0; r < p; r++)
                        if (b[r][i] != want) {
                            EXPECT(0, "%s p=%d n=%zu: rank %d element %zu is %g, want %g",
                                   coll_allreduce_algos[a].name, p, n, r, i, b[r][i], want);
                            bad = 1;
                            break;
                        }
                }
                EXPECT(rc == 0, "%s p=%d n=%zu ran without deadlock", coll_allreduce_algos[a].name, p, n);
                free_bufs(b, p);
            }
}

/* Random reals: sums round differently in each algorithm, but within a run
 * every rank must hold the very same bits. */
static void test_allreduce_bitwise_identical(void)
{
    for (int a = 0; a < coll_allreduce_nalgos; a++)
        for (int pi = 0; pi < NP; pi++) {
            int p = rank_counts[pi], rc;
            size_t n = 1001;
            float **b = alloc_bufs(p, n, false);
            for (int r = 0; r < p; r++) pw_fill_random(b[r], n, 100 + (uint64_t)r, -1, 1);
            double *ref = calloc(n, sizeof *ref);
            for (int r = 0; r < p; r++)
                for (size_t i = 0; i < n; i++) ref[i] += b[r][i];
            job j = { OP_ALLREDUCE, coll_allreduce_algos[a].fn, b, n, 0, 0 };
            run_on(p, p <= 8 ? p : 8, &j, &rc);
            int same = 1, close = 1;
            for (int r = 1; r < p; r++) same &= memcmp(b[r], b[0], n * sizeof(float)) == 0;
            /* p-1 float additions, each rounding by at most 2^-24 of a partial
             * sum no bigger than p: |err| <= p^2 * 6e-8, plus the double ref. */
            for (size_t i = 0; i < n; i++) close &= fabs(b[0][i] - ref[i]) <= (double)p * p * 6e-8 + 1e-6;
            EXPECT(same, "%s p=%d: every rank holds identical bits", coll_allreduce_algos[a].name, p);
            EXPECT(close, "%s p=%d: within rounding of the double-precision sum", coll_allreduce_algos[a].name, p);
            free(ref);
            free_bufs(b, p);
        }
}

static void test_other_collectives(void)
{
    for (int pi = 0; pi < NP; pi++)
        for (int li = 0; li < NL; li++) {
            int p = rank_counts[pi], rc;
            size_t n = lengths[li];
            int root = p / 2;
            float **b = alloc_bufs(p, n, false);

            for (int r = 0; r < p; r++)
                for (size_t i = 0; i < n; i++) b[r][i] = r == root ? whole(r, i) : -99;
            job j = { OP_BCAST, NULL, b, n, root, 0 };
            run_on(p, p <= 8 ? p : 8, &j, &rc);
            int ok = rc == 0;
            for (int r = 0; r < p; r++)
                for (size_t i = 0; i < n; i++) ok &= b[r][i] == whole(root, i);
            EXPECT(ok, "broadcast p=%d n=%zu root=%d", p, n, root);

            for (int r = 0; r < p; r++)
                for (size_t i = 0; i < n; i++) b[r][i] = whole(r, i);
            j = (job){ OP_REDUCE, NULL, b, n, root, 0 };
            run_on(p, p <= 8 ? p : 8, &j, &rc);
            ok = rc == 0;
            for (size_t i = 0; i < n; i++) {
                float want = 0;
                for (int r = 0; r < p; r++) want += whole(r, i);
                ok &= b[root][i] == want;
            }
            EXPECT(ok, "reduce p=%d n=%zu root=%d", p, n, root);

            for (int r = 0; r < p; r++)
                for (size_t i = 0; i < n; i++) b[r][i] = whole(r, i);
            j = (job){ OP_RS, NULL, b, n, 0, 0 };
            run_on(p, p <= 8 ? p : 8, &j, &rc);
            ok = rc == 0;
            for (int r = 0; r < p; r++) {
                int k = coll_rs_owned_chunk(r, p);
                for (size_t i = coll_chunk_begin(n, p, k); i < coll_chunk_begin(n, p, k + 1); i++) {
                    float want = 0;
                    for (int q = 0; q < p; q++) want += whole(q, i);
                    ok &= b[r][i] == want;
                }
            }
            EXPECT(ok, "reduce-scatter p=%d n=%zu: each rank owns the sum of its chunk", p, n);

            for (int r = 0; r < p; r++)
                for (size_t i = 0; i < n; i++) b[r][i] = -99;
            for (int r = 0; r < p; r++) {
                int k = coll_rs_owned_chunk(r, p);
                for (size_t i = coll_chunk_begin(n, p, k); i < coll_chunk_begin(n, p, k + 1); i++)
                    b[r][i] = whole(0, i);
            }
            j = (job){ OP_AG, NULL, b, n, 0, 0 };
            run_on(p, p <= 8 ? p : 8, &j, &rc);
            ok = rc == 0;
            for (int r = 0; r < p; r++)
                for (size_t i = 0; i < n; i++) ok &= b[r][i] == whole(0, i);
            EXPECT(ok, "all-gather p=%d n=%zu", p, n);
            free_bufs(b, p);
        }
}

/* ---- modelled time against the closed forms ---------------------------------- */

static double rel_err(double got, double want) { return fabs(got - want) / fabs(want); }

static void test_closed_forms(void)
{
    const int ps[] = { 2, 3, 4, 5, 8, 16, 64 };
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        int p = ps[k], rc;
        size_t n = (size_t)p * 1000;           /* divisible: the ring's chunks are equal */
        pw_cluster_config cfg = pw_cluster_defaults(p);
        cfg.ranks_per_node = p;                /* one node: one kind of link */
        double alpha = cfg.intra_alpha, beta = 1.0 / (cfg.intra_gbs * 1e9);
        for (int a = 0; a < coll_allreduce_nalgos; a++) {
            float **b = alloc_bufs(p, n, false);
            for (int r = 0; r < p; r++) memset(b[r], 0, n * sizeof(float));
            job j = { OP_ALLREDUCE, coll_allreduce_algos[a].fn, b, n, 0, 0 };
            double t = run_on(p, p, &j, &rc);
            const char *name = coll_allreduce_algos[a].name;
            double want = !strcmp(name, "ring") ? coll_model_ring(p, n, 4, alpha, beta)
                        : !strcmp(name, "tree") ? coll_model_tree(p, n, 4, alpha, beta)
                        : coll_model_naive(p, n, 4, alpha, beta);
            bool pow2 = (p & (p - 1)) == 0;
            if (strcmp(name, "tree") || pow2)
                EXPECT(rel_err(t, want) < 1e-9, "%s p=%d: modelled %.12g s = closed form %.12g s (rel err %.2g)",
                       name, p, t, want, rel_err(t, want));
            else   /* not a power of two: some rounds have no partner, so at most the formula */
                EXPECT(t <= want * (1 + 1e-9), "tree p=%d: %.12g s <= %.12g s", p, t, want);

            /* the same with phantom messages: the clocks do not look at the data */
            float **ph = alloc_bufs(p, n, true);
            j.buf = ph;
            double tp = run_on(p, p, &j, &rc);
            EXPECT(tp == t, "%s p=%d phantom %.12g s == real %.12g s", name, p, tp, t);
            free_bufs(ph, p);
            free_bufs(b, p);
        }
        (void)cfg;
    }
    /* Several nodes: every ring step waits for the slowest link, so the ring
     * takes the inter-node alpha and beta. */
    int rc, p = 64;
    float **ph = alloc_bufs(p, 0, true);
    size_t n = 64 * 4096;
    job j = { OP_ALLREDUCE, coll_allreduce_ring, ph, n, 0, 0 };
    double t = run_on(p, 8, &j, &rc);
    double want = coll_model_ring(p, n, 4, PW_CLUSTER_INTER_ALPHA, 1 / (PW_CLUSTER_INTER_GBS * 1e9));
    EXPECT(rel_err(t, want) < 1e-9, "ring on 8 nodes of 8: %.12g s = inter-node closed form %.12g s", t, want);
    /* Lengths the ranks do not divide: between the formulas for the smaller and larger chunk. */
    n = 64 * 4096 + 37;
    j.n = n;
    t = run_on(p, 8, &j, &rc);
    double hi = coll_model_ring(p, n, 4, PW_CLUSTER_INTER_ALPHA, 1 / (PW_CLUSTER_INTER_GBS * 1e9));
    double lo = coll_model_ring(p, n - 37, 4, PW_CLUSTER_INTER_ALPHA, 1 / (PW_CLUSTER_INTER_GBS * 1e9));
    EXPECT(t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9), "ring, odd length: %.9g within [%.9g, %.9g]", t, lo, hi);
    free_bufs(ph, p);
}

/* A straggler: rank 2 computes 1.5x slower. The ring cannot finish before
 * its slowest member started, so the job takes 1.5 x compute + the ring. */
static void test_straggler(void)
{
    int p = 8, rc;
    double slow[8] = { 1, 1, 1.5, 1, 1, 1, 1, 1 };
    pw_cluster_config cfg = pw_cluster_defaults(p);
    cfg.slow = slow;
    cfg.trace = true;
    pw_cluster *c = pw_cluster_create(&cfg);
    size_t n = 8 * 10000;
    float **ph = alloc_bufs(p, n, true);
    double flops = 1e9;                      /* 10 us at 100 TFLOP/s */
    job j = { OP_ALLREDUCE, coll_allreduce_ring, ph, n, 0, flops };
    rc = pw_cluster_run(c, run_job, &j);
    double compute = flops / (cfg.device_gflops * 1e9);
    double want = 1.5 * compute + coll_model_ring(p, n, 4, cfg.intra_alpha, 1 / (cfg.intra_gbs * 1e9));
    double t = pw_cluster_time(c);
    EXPECT(rc == 0 && rel_err(t, want) < 1e-9, "straggler: %.12g s = 1.5 x compute + ring = %.12g s", t, want);
    for (int r = 0; r < p; r++)
        EXPECT(rel_err(pw_cluster_clock(c, r), want) < 0.1, "rank %d is held up too: %.6g s", r, pw_cluster_clock(c, r));
    /* the others' first receive waits: the trace shows it */
    size_t ne;
    const pw_trace_event *ev = pw_cluster_trace(c, &ne);
    double waited = 0;
    for (size_t i = 0; i < ne; i++)
        if (ev[i].rank == 3 && !strcmp(ev[i].kind, "recv")) waited += ev[i].end - ev[i].start;
    EXPECT(waited >= 0.5 * compute * 0.99, "rank 3, right of the straggler, waited %.3g s (its lag %.3g s)", waited, 0.5 * compute);
    pw_cluster_destroy(c);
    free_bufs(ph, p);
}

/* ---- skewed senders: the link serves messages in the order they arrive -------- */

typedef struct { size_t bytes; double late; int first; } two_senders;

/* Rank 1 sends at 0, rank 2 at `late`; rank 0 receives from `first` first. */
static void two_senders_job(pw_rank *r, void *arg)
{
    two_senders *t = arg;
    int me = pw_rank_id(r);
    if (me == 0) {
        pw_recv(r, t->first, NULL, t->bytes);
        pw_recv(r, 3 - t->first, NULL, t->bytes);
        return;
    }
    if (me == 2) pw_compute_seconds(r, t->late, NULL);
    pw_send(r, 0, NULL, t->bytes);
}

static double two_senders_time(size_t bytes, double late, int first, double *c)
{
    pw_cluster_config cfg = pw_cluster_defaults(3);
    pw_cluster *cl = pw_cluster_create(&cfg);
    *c = pw_cluster_alpha(cl, 1, 0) + (double)bytes * pw_cluster_beta(cl, 1, 0);
    two_senders t = { bytes, late, first };
    int rc = pw_cluster_run(cl, two_senders_job, &t);
    double got = rc == 0 ? pw_cluster_clock(cl, 0) : -1;
    pw_cluster_destroy(cl);
    return got;
}

static void test_skewed_senders(void)
{
    /* c = 1 us + 1050000 B / 450 GB/s = 3.333 us. Rank 1's message arrives
     * at c, rank 2's (sent at 100 us) at 100 us + c = 103.33 us: rank 0 has
     * both then, whichever it asks for first. Receives served in the order
     * they are posted would charge 106.67 us when rank 0 asks for rank 2's
     * first (rank 1's message, long there, queued behind it). */
    double c;
    for (int first = 1; first <= 2; first++) {
        double t = two_senders_time(1050000, 100e-6, first, &c);
        EXPECT(rel_err(t, 100e-6 + c) < 1e-12, "receiving from rank %d first: rank 0 done at %.6f us, want 100 + c = %.6f us",
               first, t * 1e6, (100e-6 + c) * 1e6);
    }
    /* Contention still counts: rank 2 sends at c/2, while rank 1's message
     * holds the link until c; its own ends at 2c, not 1.5c. */
    double c0;
    two_senders_time(1050000, 0, 1, &c0);
    for (int first = 1; first <= 2; first++) {
        double t = two_senders_time(1050000, c0 / 2, first, &c);
        EXPECT(rel_err(t, 2 * c) < 1e-12, "overlapping senders, rank %d first: %.6f us, want 2c = %.6f us",
               first, t * 1e6, 2 * c * 1e6);
    }
    /* Both at 0: one after the other, 2c. */
    double t = two_senders_time(1050000, 0, 2, &c);
    EXPECT(rel_err(t, 2 * c) < 1e-12, "simultaneous senders: %.6f us, want 2c = %.6f us", t * 1e6, 2 * c * 1e6);
}

/* A straggler at rank 1 (1.5x) before a tree all-reduce on 8 ranks, compute
 * C = 10 us each, c = alpha + 4000 B beta = 1.0089 us. Reduce: rank 0 takes
 * rank 1's sum (sent at 1.5C, arrives 1.5C + c), rank 2's (sent at C + c,
 * arrived C + 2c) and rank 4's (sent at C + 2c, arrived C + 3c). 0.5C > 3c,
 * so the latter two were in long before: rank 0 has the sum at 1.5C + c.
 * Broadcast: 3 rounds of c. Total 1.5C + 4c. (Serving receives in the
 * order rank 0 posts them put rank 2's and rank 4's messages behind rank
 * 1's: 1.5C + 6c.) The naive all-reduce on 4 ranks: rank 0 has all three
 * at 1.5C + c (ranks 2 and 3 arrived at C + c and C + 2c), then sends three:
 * 1.5C + 4c as well (not 1.5C + 6c). */
static void test_straggler_skew(void)
{
    struct { const char *name; coll_allreduce_fn fn; int p; } cases[] = {
        { "tree", coll_allreduce_tree, 8 }, { "naive", coll_allreduce_naive, 4 },
    };
    for (int k = 0; k < 2; k++) {
        int p = cases[k].p;
        double slow[8] = { 1, 1.5, 1, 1, 1, 1, 1, 1 };
        pw_cluster_config cfg = pw_cluster_defaults(p);
        cfg.slow = slow;
        pw_cluster *cl = pw_cluster_create(&cfg);
        size_t n = 1000;
        float **b = alloc_bufs(p, n, false);
        for (int r = 0; r < p; r++)
            for (size_t i = 0; i < n; i++) b[r][i] = (float)r;
        job j = { OP_ALLREDUCE, cases[k].fn, b, n, 0, 1e9 };
        int rc = pw_cluster_run(cl, run_job, &j);
        double C = 1e9 / (cfg.device_gflops * 1e9);
        double c = cfg.intra_alpha + 4.0 * (double)n / (cfg.intra_gbs * 1e9);
        double want = 1.5 * C + 4 * c, t = pw_cluster_time(cl);
        EXPECT(rc == 0 && rel_err(t, want) < 1e-12, "%s, straggler at rank 1: %.6f us, want 1.5C + 4c = %.6f us (1.5C + 6c = %.6f us is the queue-by-receive answer)",
               cases[k].name, t * 1e6, want * 1e6, (1.5 * C + 6 * c) * 1e6);
        EXPECT(b[p - 1][7] == (float)(p * (p - 1) / 2), "%s: the sum is still right (%g)", cases[k].name, b[p - 1][7]);
        free_bufs(b, p);
        pw_cluster_destroy(cl);
    }
}

/* ---- a message sent and never received -------------------------------------------- */

static void one_too_many(pw_rank *r, void *arg)
{
    (void)arg;
    float x[3] = { 1, 2, 3 };
    if (pw_rank_id(r) == 1) {
        pw_send(r, 0, x, sizeof x);
        pw_send(r, 0, x, sizeof x);      /* rank 0 takes only one */
        pw_send(r, 2, NULL, 1024);       /* and rank 2 none */
    } else if (pw_rank_id(r) == 0) {
        pw_recv(r, 1, x, sizeof x);
    }
}

static void test_unreceived(void)
{
    pw_cluster_config cfg = pw_cluster_defaults(4);
    pw_cluster *c = pw_cluster_create(&cfg);
    int rc = pw_cluster_run(c, one_too_many, NULL);
    const char *rep = pw_cluster_report(c);
    EXPECT(rc == PW_CLUSTER_UNRECEIVED, "messages left over fail the run (rc %d, want %d)", rc, PW_CLUSTER_UNRECEIVED);
    EXPECT(strstr(rep, "2 messages were sent but never received") && strstr(rep, "rank 1 -> rank 0: 12 bytes")
           && strstr(rep, "rank 1 -> rank 2: 1024 bytes (phantom)"),
           "the report says who sent what to whom:\n%s", rep);
    float **b = alloc_bufs(4, 10, false);
    for (int r = 0; r < 4; r++) for (int i = 0; i < 10; i++) b[r][i] = 1;
    job j = { OP_ALLREDUCE, coll_allreduce_ring, b, 10, 0, 0 };
    rc = pw_cluster_run(c, run_job, &j);
    EXPECT(rc == 0 && b[3][9] == 4 && pw_cluster_report(c)[0] == 0, "then a correct run works (rc %d, %g)", rc, b[3][9]);
    free_bufs(b, 4);
    pw_cluster_destroy(c);
}

/* ---- the machine's limit on ranks: vm.max_map_count ---------------------------------- */

static void pass_right(pw_rank *r, void *arg)
{
    (void)arg;
    int p = pw_rank_size(r), me = pw_rank_id(r);
    float x = (float)me;
    pw_send(r, (me + 1) % p, &x, sizeof x);
    pw_recv(r, (me + p - 1) % p, &x, sizeof x);
    if (x != (float)((me + p - 1) % p)) abort();
}

static void test_too_many_ranks(void)
{
    long room = pw_fiber_room();
    if (room < 0) SKIP("vm.max_map_count cannot be read here (not Linux)");
    if (room >= PW_CLUSTER_MAX_RANKS) {
        printf("  vm.max_map_count = %ld allows all %d ranks: only the hard limit is refused\n",
               pw_fiber_map_limit(), PW_CLUSTER_MAX_RANKS);
        return;
    }
    char why[512];
    int over = (int)(room / 8 + 1) * 8;
    pw_cluster_config cfg = pw_cluster_defaults(over);
    int rc = pw_cluster_validate(&cfg, why, sizeof why);
    EXPECT(rc == 1 && strstr(why, "vm.max_map_count") && strstr(why, "ranks need"),
           "%d ranks (room for %ld) are refused in one line naming vm.max_map_count: '%s'", over, room, why);
    /* The most that fit do run (a message round the ring each). */
    int fit = (int)(room / 8) * 8;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    if (fit > 4096) fit = 4096;       /* sanitizers' shadow memory makes 30 000 stacks slow; the refusal above is the point */
#endif
    cfg = pw_cluster_defaults(fit);
    rc = pw_cluster_validate(&cfg, why, sizeof why);
    EXPECT(rc == 0, "%d ranks fit: %s", fit, why);
    if (rc == 0) {
        pw_cluster *c = pw_cluster_create(&cfg);
        rc = pw_cluster_run(c, pass_right, NULL);
        EXPECT(rc == 0, "%d ranks pass a message round the ring (rc %d)", fit, rc);
        pw_cluster_destroy(c);
    }
}

/* ---- a rank that overflows its stack ------------------------------------------------ */

/* The big frame lives in its own function: clang sets up a function's whole
 * frame on entry, so with the array in big_locals itself every rank would
 * move its stack pointer 512 KiB down before asking for its id, and rank 0
 * would be the one to fault. */
static __attribute__((noinline)) void touch_big_frame(pw_rank *r)
{
    volatile char big[512 << 10];        /* 512 KiB of locals on a 16 KiB stack */
    for (long i = (long)sizeof big - 1; i >= 0; i -= 256) big[i] = 1;   /* from the top down: into the guard */
    pw_compute(r, big[0], NULL);
}

static void big_locals(pw_rank *r, void *arg)
{
    (void)arg;
    if (pw_rank_id(r) == 2) touch_big_frame(r);
}

/* Run big_locals on 4 ranks with 16 KiB stacks in a child process; return
 * its wait status, its stderr in err. */
static int overflow_child(char *err, size_t len)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        pw_cluster_config cfg = pw_cluster_defaults(4);
        cfg.stack_bytes = 16 << 10;
        pw_cluster *c = pw_cluster_create(&cfg);
        pw_cluster_run(c, big_locals, NULL);
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t k;
    while (got + 1 < len && (k = read(fd[0], err + got, len - 1 - got)) > 0) got += (size_t)k;
    err[got] = 0;
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    return status;
}

static void test_stack_overflow(void)
{
/* Under ASan the report works too (ASan's alternate signal stack serves
     * our handler, which runs first); ThreadSanitizer defers signals, so the
     * child would not die of the fault the way the test expects. */
#if defined(__SANITIZE_THREAD__)
    SKIP("under ThreadSanitizer, which defers signals (the plain build runs this test)");
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
    SKIP("under ThreadSanitizer, which defers signals (the plain build runs this test)");
#endif
#endif
    char err[2048];
    int status = overflow_child(err, sizeof err);
    EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "the process still dies of the fault (status %#x)", status);
    EXPECT(strstr(err, "virtual cluster: rank 2: stack overflow") && strstr(err, "its 16 KiB stack")
           && strstr(err, "PW_CLUSTER_STACK") && strchr(err, '\n') == strrchr(err, '\n'),
           "one line naming rank 2 and its 16 KiB stack, got:\n%s", err);
    /* the same rank with a stack big enough runs */
    char why[256];
    pw_cluster_config cfg = pw_cluster_defaults(4);
    cfg.stack_bytes = 1 << 20;
    EXPECT(pw_cluster_validate(&cfg, why, sizeof why) == 0, "1 MiB stacks are valid: %s", why);
    pw_cluster *c = pw_cluster_create(&cfg);
    EXPECT(pw_cluster_run(c, big_locals, NULL) == 0, "with 1 MiB stacks rank 2's 512 KiB of locals fit");
    pw_cluster_destroy(c);
}

/* ---- deadlock ------------------------------------------------------------------ */

static void everyone_receives_first(pw_rank *r, void *arg)
{
    (void)arg;
    int p = pw_rank_size(r), me = pw_rank_id(r);
    float x = 1;
    pw_recv(r, (me + 1) % p, &x, sizeof x);     /* all wait: nobody sends */
    pw_send(r, (me + p - 1) % p, &x, sizeof x);
}

static void rank1_forgets(pw_rank *r, void *arg)
{
    (void)arg;
    float x = 0;
    if (pw_rank_id(r) == 0) pw_recv(r, 1, &x, sizeof x);
}

static void test_deadlock(void)
{
    pw_cluster_config cfg = pw_cluster_defaults(4);
    pw_cluster *c = pw_cluster_create(&cfg);
    int rc = pw_cluster_run(c, everyone_receives_first, NULL);
    const char *rep = pw_cluster_report(c);
    EXPECT(rc == PW_CLUSTER_DEADLOCK, "a cycle of receives is a deadlock (rc %d)", rc);
    EXPECT(strstr(rep, "4 of 4 ranks") && strstr(rep, "rank 0 (clock 0 s): recv from rank 1")
           && strstr(rep, "rank 3 (clock 0 s): recv from rank 0") && strstr(rep, "itself waiting"),
           "the report names each rank and whom it waits for:\n%s", rep);

    rc = pw_cluster_run(c, rank1_forgets, NULL);
    rep = pw_cluster_report(c);
    EXPECT(rc == PW_CLUSTER_DEADLOCK && strstr(rep, "1 of 4") && strstr(rep, "finished without sending"),
           "a rank waiting for one that returned:\n%s", rep);

    /* the same cluster runs a correct job afterwards */
    float **b = alloc_bufs(4, 10, false);
    for (int r = 0; r < 4; r++) for (int i = 0; i < 10; i++) b[r][i] = 1;
    job j = { OP_ALLREDUCE, coll_allreduce_ring, b, 10, 0, 0 };
    rc = pw_cluster_run(c, run_job, &j);
    EXPECT(rc == 0 && b[3][9] == 4, "after a deadlock, a correct run works (rc %d, %g)", rc, b[3][9]);
    free_bufs(b, 4);
    pw_cluster_destroy(c);
}

/* ---- configuration -------------------------------------------------------------- */

static void test_bad_configs(void)
{
    char why[256];
    pw_cluster_config cfg = pw_cluster_defaults(64);
    EXPECT(pw_cluster_validate(&cfg, why, sizeof why) == 0, "defaults are valid: %s", why);
    EXPECT(cfg.ranks_per_node == 8 && pw_cluster_defaults(5).ranks_per_node == 5, "8 per node, or one node");

    struct { const char *what; pw_cluster_config cfg; const char *says; } bad[] = {
        { "0 ranks", pw_cluster_defaults(0), "at least 1 rank" },
        { "negative ranks", pw_cluster_defaults(-3), "at least 1 rank" },
        { "too many", pw_cluster_defaults(PW_CLUSTER_MAX_RANKS + 1), "allows" },
        { "12 on nodes of 8", pw_cluster_defaults(12), "do not fill nodes" },
        { "negative bandwidth", pw_cluster_defaults(16), "bandwidth must be positive" },
        { "NaN bandwidth", pw_cluster_defaults(16), "bandwidth must be positive" },
        { "negative latency", pw_cluster_defaults(16), "latency" },
        { "zero device rate", pw_cluster_defaults(16), "device rate" },
        { "zero slow factor", pw_cluster_defaults(2), "slow factor of rank 1" },
        { "a 4 KiB stack", pw_cluster_defaults(2), "a rank's stack must be" },
    };
    bad[9].cfg.stack_bytes = 4096;
    bad[4].cfg.inter_gbs = -50;
    bad[5].cfg.intra_gbs = NAN;
    bad[6].cfg.intra_alpha = -1e-6;
    bad[7].cfg.device_gflops = 0;
    static const double slow[2] = { 1, 0 };
    bad[8].cfg.slow = slow;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        int rc = pw_cluster_validate(&bad[i].cfg, why, sizeof why);
        EXPECT(rc == 1 && strstr(why, bad[i].says), "%s is refused saying '%s': got rc %d '%s'",
               bad[i].what, bad[i].says, rc, why);
    }
}

/* ---- determinism, many ranks ------------------------------------------------------- */

static void test_deterministic_trace(void)
{
    pw_cluster_config cfg = pw_cluster_defaults(16);
    cfg.trace = true;
    size_t n = 999, ne[2];
    pw_trace_event *copy[2];
    for (int run = 0; run < 2; run++) {
        pw_cluster *c = pw_cluster_create(&cfg);
        float **b = alloc_bufs(16, n, false);
        for (int r = 0; r < 16; r++) pw_fill_random(b[r], n, (uint64_t)r, -1, 1);
        job j = { OP_ALLREDUCE, coll_allreduce_tree, b, n, 0, 1e6 };
        pw_cluster_run(c, run_job, &j);
        const pw_trace_event *ev = pw_cluster_trace(c, &ne[run]);
        copy[run] = malloc(ne[run] * sizeof *ev);
        memcpy(copy[run], ev, ne[run] * sizeof *ev);
        free_bufs(b, 16);
        pw_cluster_destroy(c);
    }
    int same = ne[0] == ne[1] && ne[0] > 0;
    for (size_t i = 0; same && i < ne[0]; i++) {      /* field by field: the struct has padding */
        const pw_trace_event *a = &copy[0][i], *b = &copy[1][i];
        same = a->rank == b->rank && !strcmp(a->kind, b->kind) && a->start == b->start
            && a->end == b->end && a->bytes == b->bytes && a->peer == b->peer;
    }
    EXPECT(same,
           "two runs give the same trace (%zu and %zu events)", ne[0], ne[1]);
    /* a tree all-reduce on 16 ranks: 15 sends up, 15 down, as many receives, 16 computes */
    EXPECT(ne[0] == 15 * 4 + 16, "trace has %zu events, want 76", ne[0]);
    free(copy[0]);
    free(copy[1]);
}

static void test_many_ranks(void)
{
    int p = 1024, rc;
    size_t n = 1024 * 3 + 5;
    float **b = alloc_bufs(p, n, false);
    for (int r = 0; r < p; r++)
        for (size_t i = 0; i < n; i++) b[r][i] = (float)(i % 3);
    job j = { OP_ALLREDUCE, coll_allreduce_ring, b, n, 0, 0 };
    run_on(p, 8, &j, &rc);
    int ok = rc == 0;
    for (int r = 0; r < p; r += 97)
        for (size_t i = 0; i < n; i++) ok &= b[r][i] == (float)(1024 * (i % 3));
    EXPECT(ok, "ring all-reduce on 1024 ranks, n = 3077");
    free_bufs(b, p);
}

int main(void)
{
    RUN(test_allreduce_correct);
    RUN(test_allreduce_bitwise_identical);
    RUN(test_other_collectives);
    RUN(test_closed_forms);
    RUN(test_straggler);
    RUN(test_skewed_senders);
    RUN(test_straggler_skew);
    RUN(test_deadlock);
    RUN(test_unreceived);
    RUN(test_too_many_ranks);
    RUN(test_stack_overflow);
    RUN(test_bad_configs);
    RUN(test_deterministic_trace);
    RUN(test_many_ranks);
    return UNIT_RESULT();
}
