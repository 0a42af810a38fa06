/* exercises/11-tensor-parallel/check_tp_mlp.c: the checker of exercise 11.1.
 *
 * Built with your exercises/11-tensor-parallel/tp_mlp.c by `make ex-11.1`,
 * or with the solution by `make solution-11.1`. It runs your tp_mlp_rank()
 * on every rank of the virtual cluster (t ranks, one node) for
 * (n, h, f, t) = (6, 8, 32, 1), (6, 8, 32, 2), (5, 12, 48, 3), (7, 8, 32, 4),
 * (3, 10, 40, 5) and (4, 6, 24, 8): odd token counts and hidden sizes, and
 * t = 3, 5 that divide nothing of a power of two. Each case:
 *   1. Y on every rank against the unsplit MLP computed in double, to 1e-4
 *      of Y's largest entry: float sums of up to f = 48 terms in any order
 *      round by about sqrt(f) 2^-24 = 4e-7 of that scale, 1e-4 leaves room
 *      for any order while a missing partial sum is off by tens of percent;
 *      every rank must hold the same bits (the ring forms each sum once);
 *   2. dB and dA, each rank's slice, and dX on every rank, the same way;
 *   3. the bytes each rank sent, from the cluster's trace, against two ring
 *      all-reduces of n h floats: 2 x 2(t-1)/t x 4 n h (t divides n h here,
 *      so the ring's chunks are equal and the count is exact).
 * A wrong result is explained: a missing all-reduce leaves a rank with its
 * own partial sum, which the checker recognises; an extra one shows in the
 * bytes. A deadlock is reported by the cluster, not a hang. The last line
 * is PASS or FAIL.
 */
#include "exercise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "collectives.h"
#include "tp_mlp.h"
#include "util.h"

#define TOL 1e-4

typedef struct {
    int n, h, f, t;
    float *x, *a, *b, *dy;        /* full A (h x f) and B (f x h) */
    float **ar, **br;             /* per rank slices */
    float **y, **dx, **da, **db;  /* per rank outputs */
    double *ry, *rdx, *rda, *rdb; /* unsplit, double */
    double *py, *pdx;             /* rank 0's partial sums (a missing all-reduce leaves these) */
} mlp_case;

static double gelu_d(double z) { return 0.5 * z * (1 + tanh(0.7978845608028654 * (z + 0.044715 * z * z * z))); }
static double gelu_grad_d(double z)
{
    double th = tanh(0.7978845608028654 * (z + 0.044715 * z * z * z));
    return 0.5 * (1 + th) + 0.5 * z * (1 - th * th) * 0.7978845608028654 * (1 + 3 * 0.044715 * z * z);
}

/* The unsplit MLP over columns [c0, c1) of A (rows of B): the whole when
 * c0 = 0, c1 = f; one rank's partial sums otherwise. */
static void reference(const mlp_case *k, int c0, int c1, double *y, double *dx, double *da, double *db)
{
    int n = k->n, h = k->h, f = k->f;
    double *z = calloc((size_t)n * f, sizeof *z), *dz = calloc((size_t)n * f, sizeof *dz);
    for (int i = 0; i < n; i++)
        for (int j = c0; j < c1; j++) {
            double s = 0;
            for (int q = 0; q < h; q++) s += (double)k->x[i * h + q] * k->a[q * f + j];
            z[i * f + j] = s;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < h; j++) {
            double s = 0;
            for (int q = c0; q < c1; q++) s += gelu_d(z[i * f + q]) * k->b[q * h + j];
            y[i * h + j] = s;
        }
    for (int i = 0; i < n; i++)
        for (int q = c0; q < c1; q++) {
            double s = 0;
            for (int j = 0; j < h; j++) s += (double)k->dy[i * h + j] * k->b[q * h + j];
            dz[i * f + q] = s * gelu_grad_d(z[i * f + q]);
        }
    if (db)
        for (int q = c0; q < c1; q++)
            for (int j = 0; j < h; j++) {
                double s = 0;
                for (int i = 0; i < n; i++) s += gelu_d(z[i * f + q]) * k->dy[i * h + j];
                db[q * h + j] = s;
            }
    if (da)
        for (int p = 0; p < h; p++)
            for (int q = c0; q < c1; q++) {
                double s = 0;
                for (int i = 0; i < n; i++) s += (double)k->x[i * h + p] * dz[i * f + q];
                da[p * f + q] = s;
            }
    for (int i = 0; i < n; i++)
        for (int p = 0; p < h; p++) {
            double s = 0;
            for (int q = c0; q < c1; q++) s += dz[i * f + q] * k->a[p * f + q];
            dx[i * h + p] = s;
        }
    free(z);
    free(dz);
}

static void rank_fn(pw_rank *r, void *arg)
{
    mlp_case *k = arg;
    pw_comm c = coll_comm_cluster(r);
    int me = c.rank;
    tp_mlp_io io = { k->n, k->h, k->f, k->x, k->ar[me], k->br[me], k->dy, k->y[me], k->dx[me], k->da[me], k->db[me] };
    tp_mlp_rank(&c, &io);
}

static double scale_of(const double *v, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) if (fabs(v[i]) > m) m = fabs(v[i]);
    return m > 0 ? m : 1;
}

/* Index of the first element off by more than TOL of the scale, or -1. */
static long long first_bad(const float *got, const double *ref, size_t n, double scale)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabs(got[i] - ref[i]) <= TOL * scale)) return (long long)i;
    return -1;
}
static bool near(const float *got, const double *ref, size_t n, double scale) { return first_bad(got, ref, n, scale) < 0; }

static void setup(mlp_case *k)
{
    int n = k->n, h = k->h, f = k->f, t = k->t, fl = f / t;
    k->x = pw_alloc_floats((size_t)n * h); k->dy = pw_alloc_floats((size_t)n * h);
    k->a = pw_alloc_floats((size_t)h * f); k->b = pw_alloc_floats((size_t)f * h);
    pw_fill_random(k->x, (size_t)n * h, 100 + (uint64_t)t, -1, 1);
    pw_fill_random(k->dy, (size_t)n * h, 200 + (uint64_t)t, -1, 1);
    pw_fill_random(k->a, (size_t)h * f, 300 + (uint64_t)t, -1.0f / sqrtf((float)h), 1.0f / sqrtf((float)h));
    pw_fill_random(k->b, (size_t)f * h, 400 + (uint64_t)t, -1.0f / sqrtf((float)f), 1.0f / sqrtf((float)f));
    k->ar = calloc((size_t)t, sizeof *k->ar); k->br = calloc((size_t)t, sizeof *k->br);
    k->y = calloc((size_t)t, sizeof *k->y); k->dx = calloc((size_t)t, sizeof *k->dx);
    k->da = calloc((size_t)t, sizeof *k->da); k->db = calloc((size_t)t, sizeof *k->db);
    for (int r = 0; r < t; r++) {
        k->ar[r] = pw_alloc_floats((size_t)h * fl);
        for (int p = 0; p < h; p++) memcpy(k->ar[r] + (size_t)p * fl, k->a + (size_t)p * f + (size_t)r * fl, (size_t)fl * sizeof(float));
        k->br[r] = pw_alloc_floats((size_t)fl * h);
        memcpy(k->br[r], k->b + (size_t)r * fl * h, (size_t)fl * h * sizeof(float));
        k->y[r] = pw_alloc_floats((size_t)n * h); k->dx[r] = pw_alloc_floats((size_t)n * h);
        k->da[r] = pw_alloc_floats((size_t)h * fl); k->db[r] = pw_alloc_floats((size_t)fl * h);
        memset(k->y[r], 0, (size_t)n * h * sizeof(float)); memset(k->dx[r], 0, (size_t)n * h * sizeof(float));
        memset(k->da[r], 0, (size_t)h * fl * sizeof(float)); memset(k->db[r], 0, (size_t)fl * h * sizeof(float));
    }
    k->ry = calloc((size_t)n * h, sizeof(double)); k->rdx = calloc((size_t)n * h, sizeof(double));
    k->rda = calloc((size_t)h * f, sizeof(double)); k->rdb = calloc((size_t)f * h, sizeof(double));
    k->py = calloc((size_t)n * h, sizeof(double)); k->pdx = calloc((size_t)n * h, sizeof(double));
    reference(k, 0, f, k->ry, k->rdx, k->rda, k->rdb);
    reference(k, 0, fl, k->py, k->pdx, NULL, NULL);     /* rank 0's partial sums */
}

static void teardown(mlp_case *k)
{
    for (int r = 0; r < k->t; r++) {
        pw_free(k->ar[r]); pw_free(k->br[r]); pw_free(k->y[r]); pw_free(k->dx[r]); pw_free(k->da[r]); pw_free(k->db[r]);
    }
    free(k->ar); free(k->br); free(k->y); free(k->dx); free(k->da); free(k->db);
    pw_free(k->x); pw_free(k->dy); pw_free(k->a); pw_free(k->b);
    free(k->ry); free(k->rdx); free(k->rda); free(k->rdb); free(k->py); free(k->pdx);
}

/* A whole-array result (Y or dX) on every rank: right, the same bits, or why not. */
static bool check_whole(mlp_case *k, float **got, const double *ref, const double *partial, const char *name,
                        const char *where)
{
    size_t nh = (size_t)k->n * k->h;
    double sc = scale_of(ref, nh);
    for (int r = 0; r < k->t; r++) {
        long long i = first_bad(got[r], ref, nh, sc);
        if (i < 0) continue;
        pw_ex_fail("%s on rank %d at (%lld, %lld) is %.6g, the unsplit MLP's is %.6g", name, r, i / k->h, i % k->h,
                   (double)got[r][i], ref[i]);
        if (r == 0 && k->t > 1 && near(got[0], partial, nh, scale_of(partial, nh)))
            printf("  it is rank 0's own partial sum: %s;\n"
                   "  each rank holds only its slice's share of %s: add them up over the ranks,\n"
                   "  coll_allreduce_ring(c, %s, n h)\n", where, name, name[0] == 'Y' ? "y" : "dx");
        else {
            double *tx = malloc(nh * sizeof *tx);
            for (size_t q = 0; q < nh; q++) tx[q] = k->t * ref[q];
            if (k->t > 1 && near(got[r], tx, nh, k->t * sc))
                printf("  it is t = %d times the answer: the sum is formed twice (an all-reduce of values every\n"
                       "  rank already holds whole adds t copies)\n", k->t);
            free(tx);
        }
        return false;
    }
    for (int r = 1; r < k->t; r++)
        if (memcmp(got[r], got[0], nh * sizeof(float))) {
            pw_ex_fail("%s differs in its last bits between rank 0 and rank %d", name, r);
            printf("  the ring all-reduce leaves the same bits everywhere; a rank that adds the pieces in its own\n"
                   "  order drifts from the others\n");
            return false;
        }
    return true;
}

/* A rank's weight-gradient slice (dA: columns, dB: rows). */
static bool check_slices(mlp_case *k)
{
    int h = k->h, f = k->f, t = k->t, fl = f / t;
    double sa = scale_of(k->rda, (size_t)h * f), sb = scale_of(k->rdb, (size_t)f * h);
    for (int r = 0; r < t; r++) {
        for (int p = 0; p < h; p++)
            for (int j = 0; j < fl; j++) {
                double want = k->rda[(size_t)p * f + (size_t)r * fl + j], got = k->da[r][(size_t)p * fl + j];
                if (fabs(got - want) <= TOL * sa) continue;
                pw_ex_fail("dA on rank %d at (%d, %d) (column %d of A) is %.6g, the unsplit MLP's is %.6g",
                           r, p, j, r * fl + j, got, want);
                double sum = 0;
                for (int q = 0; q < t; q++) sum += k->rda[(size_t)p * f + (size_t)q * fl + j];
                if (t > 1 && fabs(got - sum) <= TOL * sa * t)
                    printf("  it is the sum of every rank's slice at that place: the weight gradients were all-reduced.\n"
                           "  Each rank owns different columns of A (rows of B): its dA and dB are its own, whole\n"
                           "  already; summing them mixes different weights (and costs an all-reduce)\n");
                else
                    printf("  dA_r = X^T dZ_r, with dZ_r = (dY B_r^T) * GeLU'(Z_r) and Z_r = X A_r\n");
                return false;
            }
        for (int q = 0; q < fl; q++)
            for (int j = 0; j < h; j++) {
                double want = k->rdb[((size_t)r * fl + q) * h + j], got = k->db[r][(size_t)q * h + j];
                if (fabs(got - want) <= TOL * sb) continue;
                pw_ex_fail("dB on rank %d at (%d, %d) (row %d of B) is %.6g, the unsplit MLP's is %.6g", r, q, j, r * fl + q, got, want);
                printf("  dB_r = GeLU(Z_r)^T dY: this rank's rows, no communication\n");
                return false;
            }
    }
    return true;
}

/* The case in progress. A skeleton exits from inside a rank (a fiber with
 * its own stack), where LeakSanitizer does not see this frame's locals and
 * would call them leaked: an exit handler frees them. */
static mlp_case *live;
static void free_live(void) { if (live) teardown(live); live = NULL; }

static bool check_case(int n, int h, int f, int t)
{
    mlp_case k = { .n = n, .h = h, .f = f, .t = t };
    printf("  n = %d, h = %2d, f = %2d, t = %d: ", n, h, f, t);
    setup(&k);
    live = &k;
    pw_cluster_config cfg = pw_cluster_defaults(t);
    cfg.ranks_per_node = t;
    cfg.trace = true;
    pw_cluster *c = pw_cluster_create(&cfg);
    if (pw_cluster_run(c, rank_fn, &k) != PW_CLUSTER_OK) {
        printf("wrong\n%s", pw_cluster_report(c));
        printf("FAIL: t = %d: the ranks did not finish: every rank must call the same collectives in the same order\n", t);
        exit(1);
    }
    bool ok = check_whole(&k, k.y, k.ry, k.py, "Y",
                          "B is split by rows, so G_r B_r is a partial sum")
              && check_slices(&k)
              && check_whole(&k, k.dx, k.rdx, k.pdx, "dX",
                             "A is split by columns, so dZ_r A_r^T is a partial sum\n  (the backward of the f operator)");
    if (ok) {
        size_t nev;
        const pw_trace_event *ev = pw_cluster_trace(c, &nev);
        double *sent = calloc((size_t)t, sizeof *sent);
        for (size_t i = 0; i < nev; i++)
            if (!strcmp(ev[i].kind, "send")) sent[ev[i].rank] += ev[i].bytes;
        double one = 2.0 * (t - 1) * 4.0 * n * h / t, want = 2 * one;
        for (int r = 0; r < t && ok; r++) {
            if (sent[r] == want) continue;
            pw_ex_fail("t = %d: rank %d sent %.0f bytes; two ring all-reduces of n h = %d floats send %.0f", t, r, sent[r], n * h, want);
            double k2 = sent[r] / one;
            if (sent[r] > want && fabs(k2 - floor(k2 + 0.5)) < 1e-9)
                printf("  that is %.0f all-reduces of n h floats, %.0f more than the split needs. Forward, X needs\n"
                       "  none: every rank has the whole X (the f operator is the identity forward). Backward, dY\n"
                       "  needs none (g's backward is the identity). Only the partial sums Y_r and dX_r need one each\n",
                       k2, k2 - 2);
            else if (sent[r] > want)
                printf("  more than the split needs: an extra collective (a weight gradient? those are each rank's own)\n");
            else
                printf("  fewer than the split needs, yet the results are right: did you use another collective than\n"
                       "  coll_allreduce_ring? The formula counts the ring's 2(t-1)/t of the buffer\n");
            ok = false;
        }
        free(sent);
        if (ok) printf("Y, dX, dA, dB right; %.0f bytes sent per rank = 2 x 2(t-1)/t x 4 n h\n", want);
    }
    pw_cluster_destroy(c);
    teardown(&k);
    live = NULL;
    return ok;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    atexit(free_live);
    static const int cases[][4] = { { 6, 8, 32, 1 }, { 6, 8, 32, 2 }, { 5, 12, 48, 3 }, { 7, 8, 32, 4 }, { 3, 10, 40, 5 }, { 4, 6, 24, 8 } };
    printf("exercise 11.1: tp_mlp_rank(), the MLP split by columns then rows, on the virtual cluster\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!check_case(cases[i][0], cases[i][1], cases[i][2], cases[i][3])) return 1;
    return pw_ex_pass("Y, dX and the weight gradients equal the unsplit MLP's on t = 1 to 8, with one all-reduce\n"
                      "  forward and one backward: 2 x 2(t-1)/t x 4 n h bytes per rank");
}
