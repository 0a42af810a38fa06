/* exercises/16-sharded-data-parallel/check_bucket_hook.c: the checker of exercise 16.2.
 *
 * Built with your exercises/16-sharded-data-parallel/bucket_hook.c by
 * `make ex-16.2`, or with the solution by `make solution-16.2`. It runs one
 * backward pass on every rank of the virtual cluster (common/cluster/cluster.h):
 * for each tensor, last layer first, the compute stream works 1e7 flops per
 * gradient element (100 ns each at the default 100 TFLOP/s), then calls your
 * bucket_ready(); after the last, your bucket_flush(). bucket_launch() (this
 * file) models the second stream as chapter 10's overlap.c does: the
 * bucket's ring all-reduce starts when both the compute stream has reached
 * the call and the communication stream has finished the bucket before; the
 * compute clock is put back, so the backward pass goes on meanwhile. The
 * step ends when both streams are done. The models are small (thousands of
 * floats, so that the run takes milliseconds) and the links slowed to match
 * (0.1 GB/s in a node, 0.05 across): the bytes of a bucket then cost about
 * ten times its latency, as a 25 MB bucket's do on real links, and a bucket
 * takes about as long as the backward pass of its tensors.
 * Models (tensor sizes in floats, first layer first; 4 ranks on one node):
 *   equal     six tensors of 256, bucket_bytes 2048: two tensors fill a
 *             bucket exactly;
 *   mixed     weights and biases, 1000/10 x 3 and 500/5, 4096 bytes;
 *   big       3000, 100, 100 with 1024 bytes: a tensor larger than a bucket;
 *   one       the mixed model with 1 MiB: everything in one bucket;
 *   tiny      the mixed model with 16 bytes: one bucket per tensor;
 *   two nodes the mixed model on 16 ranks, 8 a node, 4096 bytes.
 * Checks, in this order, each failure explained:
 *   1. the gradients: rank r's element i is r + 1 + 16 (i mod 7) before, so
 *      every sum is a whole number far below 2^24, exact in any order: each
 *      rank must end with exactly the sum (a tensor left out is its own
 *      value still; one in two buckets, summed twice);
 *   2. the buckets launched (rank 0's; every rank must launch the same): no
 *      bucket over bucket_bytes unless it is one tensor;
 *   3. the buckets and their moments against the checker's own bucketing by
 *      the rule in bucket_hook.h: the same ranges, in the same order, each
 *      launched right after the same tensor (as soon as it is full);
 *   4. exposed communication (the step's end less the backward pass's) no
 *      more than the rule's, to 1e-9: the overlap the rule buys, printed
 *      beside one all-reduce of everything after the backward pass.
 * Last line "PASS: ..." and exit 0, or exit 1.
 */
#include "exercise.h"
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bucket_hook.h"
#include "cluster.h"
#include "collectives.h"

#define MAXT 16
#define MAXB 64
#define MAXP 16
#define FLOPS_PER_ELEM 1e7

typedef struct { size_t off, len; int after; double start, end; } launch;   /* after: tensors seen (ntensors = flush) */

typedef struct {
    pw_rank *rank;
    double comm_free;
    int seen;
    launch l[MAXB];
    int nl;
    bool bad;                       /* a launch out of range, empty, or too many */
    size_t bad_off, bad_len;
} record;

typedef struct {
    const char *name;
    int ntensors;
    size_t sizes[MAXT];             /* first layer first */
    size_t bucket_bytes;
    int p, per_node;
} model;

typedef struct {
    const model *m;
    size_t offs[MAXT], n;
    float *grads[MAXP];
    record rec[MAXP];
    double compute_end[MAXP], step_end[MAXP];
    bool reference;                 /* the checker's own bucketing */
    bool all_at_end;                /* no buckets: one all-reduce after the backward pass */
} job;

void bucket_launch(bucket_hook *h, size_t offset, size_t len)
{
    record *R = h->caller;
    if (len == 0 || offset > h->n || len > h->n - offset || R->nl == MAXB) {
        if (!R->bad) { R->bad = true; R->bad_off = offset; R->bad_len = len; }
        return;
    }
    double now = pw_rank_now(R->rank), start = fmax(now, R->comm_free);
    pw_rank_set_now(R->rank, start);                  /* the communication stream picks up the bucket */
    coll_allreduce_ring(h->comm, h->grads + offset, len);
    R->comm_free = pw_rank_now(R->rank);
    pw_rank_set_now(R->rank, now);                    /* back on the compute stream */
    R->l[R->nl++] = (launch){ offset, len, R->seen, start, R->comm_free };
}

/* The checker's bucketing, written from the rule with byte counts. */
static void ref_ready(bucket_hook *h, size_t offset, size_t len)
{
    size_t bytes = len * sizeof(float);
    if (h->open_len && (h->open_len * sizeof(float)) + bytes > h->bucket_bytes) {
        bucket_launch(h, h->open_offset, h->open_len);
        h->open_len = 0;
    }
    h->open_offset = offset;
    h->open_len += len;
    if (h->open_len * sizeof(float) >= h->bucket_bytes) {
        bucket_launch(h, h->open_offset, h->open_len);
        h->open_len = 0;
    }
}
static void ref_flush(bucket_hook *h)
{
    if (h->open_len) bucket_launch(h, h->open_offset, h->open_len);
    h->open_len = 0;
}

static void on_abort(int sig)
{
    static const char msg[] =
        "FAIL: the virtual cluster stopped the run (the line above says why): every rank must launch the same\n"
        "  buckets (offset and length) in the same order\n";
    (void)sig;
    ssize_t w = write(STDOUT_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
}

static void run_rank(pw_rank *r, void *arg)
{
    job *j = arg;
    int me = pw_rank_id(r);
    pw_comm c = coll_comm_cluster(r);
    record *R = &j->rec[me];
    memset(R, 0, sizeof *R);
    R->rank = r;
    bucket_hook h = { &c, j->grads[me], j->n, j->m->bucket_bytes, 0, 0, R };
    for (int t = j->m->ntensors - 1; t >= 0; t--) {
        pw_compute(r, FLOPS_PER_ELEM * (double)j->m->sizes[t], "backward");
        R->seen++;
        if (j->all_at_end) continue;
        if (j->reference) ref_ready(&h, j->offs[t], j->m->sizes[t]);
        else bucket_ready(&h, j->offs[t], j->m->sizes[t]);
    }
    j->compute_end[me] = pw_rank_now(r);
    if (j->all_at_end) coll_allreduce_ring(&c, j->grads[me], j->n);
    else if (j->reference) ref_flush(&h);
    else bucket_flush(&h);
    j->step_end[me] = fmax(pw_rank_now(r), R->comm_free);
}

static float before(int r, size_t i) { return (float)(r + 1 + 16 * (int)(i % 7)); }

/* Run the model with your hook (or the reference's, or no buckets); false
 * (explained) when the cluster stops. exposed: the step's end less the
 * backward pass's, the largest over ranks. */
static bool run(job *j, double *exposed)
{
    const model *m = j->m;
    j->n = 0;
    for (int t = 0; t < m->ntensors; t++) { j->offs[t] = j->n; j->n += m->sizes[t]; }
    for (int r = 0; r < m->p; r++) {
        j->grads[r] = malloc(j->n * sizeof(float));
        if (!j->grads[r]) { fprintf(stderr, "out of memory\n"); exit(2); }
        for (size_t i = 0; i < j->n; i++) j->grads[r][i] = before(r, i);
    }
    pw_cluster_config cfg = pw_cluster_defaults(m->p);
    cfg.ranks_per_node = m->per_node;
    cfg.intra_gbs = 0.1;                              /* see the top of this file */
    cfg.inter_gbs = 0.05;
    pw_cluster *c = pw_cluster_create(&cfg);
    if (pw_cluster_run(c, run_rank, j) != PW_CLUSTER_OK) {
        printf("wrong\n%s", pw_cluster_report(c));
        printf("FAIL: %s: the ranks did not finish (report above): every rank must launch the same buckets in\n"
               "  the same order, and bucket_flush must launch the one still open\n", m->name);
        pw_cluster_destroy(c);
        return false;
    }
    pw_cluster_destroy(c);
    *exposed = 0;
    for (int r = 0; r < m->p; r++) *exposed = fmax(*exposed, j->step_end[r] - j->compute_end[r]);
    return true;
}

static void free_job(job *j)
{
    for (int r = 0; r < j->m->p; r++) { free(j->grads[r]); j->grads[r] = NULL; }
}

/* Which tensors [off, off + len) spans, as "t..u" (first layer = tensor 0). */
static void tensors_of(const job *j, size_t off, size_t len, int *lo, int *hi)
{
    *lo = *hi = -1;
    for (int t = 0; t < j->m->ntensors; t++) {
        if (j->offs[t] < off + len && j->offs[t] + j->m->sizes[t] > off) {
            if (*lo < 0) *lo = t;
            *hi = t;
        }
    }
}

static void print_launches(const char *who, const job *j)
{
    const record *R = &j->rec[0];
    printf("  %s:", who);
    for (int b = 0; b < R->nl && b < 12; b++) {
        int lo, hi;
        tensors_of(j, R->l[b].off, R->l[b].len, &lo, &hi);
        printf(" [%d..%d]@%s%d", lo, hi, R->l[b].after == j->m->ntensors ? "flush" : "", 
               R->l[b].after == j->m->ntensors ? 0 : j->m->ntensors - R->l[b].after);
    }
    printf("%s\n", R->nl > 12 ? " ..." : "");
}

static bool check_model(const model *m)
{
    /* static: a skeleton (or an answer) may exit from inside a rank, on the
     * rank's own stack, and the buffers must still be reachable then, or
     * LeakSanitizer calls them leaked under make sanitize */
    static job mine, ref, plain;
    mine = (job){ .m = m };
    ref = (job){ .m = m };
    plain = (job){ .m = m };
    double ex_mine, ex_ref, ex_plain;
    printf("  %-9s %d ranks, %d tensors, bucket_bytes %-7zu ", m->name, m->p, m->ntensors, m->bucket_bytes);
    ref.reference = true;
    plain.all_at_end = true;
    if (!run(&ref, &ex_ref) || !run(&plain, &ex_plain)) { printf("FAIL: the checker's own run failed\n"); exit(1); }
    if (!run(&mine, &ex_mine)) { free_job(&ref); free_job(&plain); return false; }
    bool ok = true;
    size_t n = mine.n;
    const record *R = &mine.rec[0], *Q = &ref.rec[0];
    /* 0. launches that make no sense */
    for (int r = 0; r < m->p && ok; r++)
        if (mine.rec[r].bad) {
            printf("wrong\nFAIL: %s: rank %d called bucket_launch(h, %zu, %zu): a bucket is a non-empty range inside the\n"
                   "  n = %zu gradients (at most %d buckets)\n", m->name, r, mine.rec[r].bad_off, mine.rec[r].bad_len, n, MAXB);
            ok = false;
        }
    /* 1. the gradients */
    for (int r = 0; r < m->p && ok; r++)
        for (size_t i = 0; i < n; i++) {
            float want = 0;
            for (int q = 0; q < m->p; q++) want += before(q, i);
            float got = mine.grads[r][i];
            if (got == want) continue;
            int t, lo;
            tensors_of(&mine, i, 1, &t, &lo);
            printf("wrong\nFAIL: %s: rank %d's gradient %zu (tensor %d of %d, first layer 0) is %.0f after the step, want %.0f\n",
                   m->name, r, i, t, m->ntensors, (double)got, (double)want);
            if (got == before(r, i)) {
                bool first_only = true;
                for (size_t k = i; k < n; k++)
                    if (mine.grads[r][k] == before(r, k) && k >= mine.offs[m->ntensors - 1]) first_only = false;
                printf("  it was never all-reduced%s\n",
                       first_only && R->nl ? ": the last tensors the backward pass reaches (the first layers) were left in\n"
                                             "  the open bucket: bucket_flush must launch it" :
                                             ": every tensor must be in exactly one bucket");
            } else {
                printf("  it was all-reduced more than once, or another range was: every tensor in exactly one bucket,\n"
                       "  and a bucket is [open_offset, open_offset + open_len)\n");
            }
            ok = false;
            break;
        }
    /* every rank launches what rank 0 does (else the sums above would be off, or the run stuck) */
    /* 2. bucket sizes */
    for (int b = 0; b < R->nl && ok; b++) {
        int lo, hi;
        tensors_of(&mine, R->l[b].off, R->l[b].len, &lo, &hi);
        if (R->l[b].len * sizeof(float) > m->bucket_bytes && lo != hi) {
            printf("wrong\nFAIL: %s: bucket %d holds tensors %d..%d, %zu bytes, more than bucket_bytes = %zu\n",
                   m->name, b, lo, hi, R->l[b].len * sizeof(float), m->bucket_bytes);
            printf("  a tensor that would take the open bucket past bucket_bytes launches the open bucket first;\n"
                   "  only a single tensor larger than bucket_bytes may travel alone in a bigger one\n");
            if (R->nl == 1 && R->l[0].after == m->ntensors)
                printf("  (one bucket for everything, at the end: nothing overlaps the backward pass)\n");
            if (R->l[b].len <= m->bucket_bytes)
                printf("  it holds %zu floats, fewer than bucket_bytes: bucket_bytes is in bytes, a float is 4\n", R->l[b].len);
            ok = false;
        }
    }
    /* 3. the rule's buckets, order and moments */
    for (int b = 0; b < R->nl + 1 && b < Q->nl + 1 && ok; b++) {
        if (b == R->nl && b == Q->nl) break;
        bool same = b < R->nl && b < Q->nl && R->l[b].off == Q->l[b].off && R->l[b].len == Q->l[b].len
                    && R->l[b].after == Q->l[b].after;
        if (same) continue;
        printf("wrong\nFAIL: %s: your buckets are not the rule's (bucket %d differs): in launch order, each bucket\n"
               "  as its tensors (first layer 0) @ the tensors left in the backward pass when it was launched:\n", m->name, b);
        print_launches("yours ", &mine);
        print_launches("rule's", &ref);
        bool one_each = R->nl == m->ntensors, one_end = R->nl == 1 && R->l[0].after == m->ntensors;
        if (one_end && Q->nl > 1)
            printf("  one bucket for everything, at the end: nothing overlaps the backward pass; launch each bucket\n"
                   "  as soon as it is full, in bucket_ready\n");
        else if (b < R->nl && b < Q->nl && R->l[b].off + R->l[b].len == Q->l[b].off + Q->l[b].len
                 && R->l[b].len < Q->l[b].len) {
            printf("  bucket %d was launched before it was full: it had room for the next tensor (%zu bytes of %zu\n"
                   "  used, the rule's holds %zu). A bucket is full when the next tensor would take it PAST bucket_bytes,\n"
                   "  or when it holds bucket_bytes exactly\n",
                   b, R->l[b].len * sizeof(float), m->bucket_bytes, Q->l[b].len * sizeof(float));
            if (one_each)
                printf("  one bucket per tensor: bucket_bytes ignored? (each all-reduce costs 2(p-1) alpha of latency)\n");
        }
        else if (one_each && Q->nl < m->ntensors)
            printf("  one bucket per tensor: bucket_bytes ignored? Tensors join the open bucket until the next would\n"
                   "  take it past bucket_bytes (each all-reduce costs 2(p-1) alpha of latency, however small)\n");
        else if (b < R->nl && b < Q->nl && R->l[b].off == Q->l[b].off && R->l[b].len == Q->l[b].len)
            printf("  the right tensors, launched %s: a bucket starts as soon as it is full, in the bucket_ready call\n"
                   "  that fills it (or that finds the next tensor does not fit)\n",
                   R->l[b].after > Q->l[b].after ? "later than the rule" : "earlier than the rule");
        else if (b < R->nl && b < Q->nl && R->l[b].len < Q->l[b].len)
            printf("  bucket %d was launched before it was full: it had room for the next tensor (%zu bytes of %zu\n"
                   "  used, the rule's holds %zu). A bucket is full when the next tensor would take it PAST bucket_bytes\n"
                   "  (bytes, not floats), or when it holds bucket_bytes exactly\n",
                   b, R->l[b].len * sizeof(float), m->bucket_bytes, Q->l[b].len * sizeof(float));
        else if (b < R->nl && b < Q->nl && R->l[b].len > Q->l[b].len)
            printf("  bucket %d holds more than the rule's (%zu bytes against %zu): bucket_bytes is in bytes, a float\n"
                   "  is 4; and a bucket is launched before a tensor that would not fit joins it\n",
                   b, R->l[b].len * sizeof(float), Q->l[b].len * sizeof(float));
        ok = false;
    }
    /* 4. exposed communication */
    if (ok && ex_mine > ex_ref * (1 + 1e-9) + 1e-15) {
        printf("wrong\nFAIL: %s: %.3f us of communication exposed after the backward pass, the rule's bucketing leaves\n"
               "  %.3f us (one all-reduce after the backward pass: %.3f us)\n", m->name, ex_mine * 1e6, ex_ref * 1e6,
               ex_plain * 1e6);
        ok = false;
    }
    if (ok) printf("%2d buckets, exposed %7.3f us (all at the end: %7.3f us)\n", R->nl, ex_mine * 1e6, ex_plain * 1e6);
    free_job(&mine);
    free_job(&ref);
    free_job(&plain);
    return ok;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    signal(SIGABRT, on_abort);
    static const model models[] = {
        { "equal", 6, { 256, 256, 256, 256, 256, 256 }, 2048, 4, 4 },
        { "mixed", 8, { 1000, 10, 1000, 10, 1000, 10, 500, 5 }, 4096, 4, 4 },
        { "big", 3, { 3000, 100, 100 }, 1024, 4, 4 },
        { "one", 8, { 1000, 10, 1000, 10, 1000, 10, 500, 5 }, 1 << 20, 4, 4 },
        { "tiny", 8, { 1000, 10, 1000, 10, 1000, 10, 500, 5 }, 16, 4, 4 },
        { "two nodes", 8, { 1000, 10, 1000, 10, 1000, 10, 500, 5 }, 4096, 16, 8 },
    };
    printf("exercise 16.2: bucket_ready() and bucket_flush(), gradient buckets beside the backward pass\n");
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
        if (!check_model(&models[k])) return 1;
    return pw_ex_pass("the buckets are the rule's, fire in backward order as soon as they are full, and leave no\n"
                      "  more communication exposed than the rule's; every gradient is all-reduced once");
}
