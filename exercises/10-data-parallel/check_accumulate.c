/* exercises/10-data-parallel/check_accumulate.c: the checker of exercise 10.3.
 *
 * Built with your exercises/10-data-parallel/accumulate.c by `make ex-10.3`,
 * or with the solution by `make solution-10.3`. It trains a 8-16-3 MLP
 * (kernels/mlp.h) for 6 SGD steps on batches of 101 samples (fixed seeds):
 * once on one device, the whole batch at a time (the reference), then with
 * your accumulate_step() on R replicas of the virtual cluster with k
 * micro-batches: (R, k) = (1, 1), (1, 4), (3, 1), (3, 4), (4, 5), (5, 3).
 * 101 is prime, so the shards and micro-batches are uneven. It checks:
 *   1. every replica holds bitwise the same weights (one all-reduce makes
 *      one sum, copied to all: replicas must not drift);
 *   2. after the FIRST step, every weight within the bound float rounding
 *      gives (first_step_tol below: 1e-8 to 2e-7 here): both start from
 *      the same weights and add the same per-sample gradients, only grouped
 *      differently, so the gap is bounded by the count of roundings a sum
 *      goes through. This catches a single sample lost or counted twice
 *      (over 1000 times the bound), which the 6-step check below may not;
 *   3. the weights after 6 steps equal the reference within 1e-6 + 1e-4 |w|
 *      (looser: from the second step on the weights differ by rounding, so
 *      the gradients are no longer made of the same terms). Why not
 *      exactly: the replicas add the same per-sample gradients in another
 *      order (micro-batch sums, then shard sums, then the ring), and float
 *      addition is not associative. Each gradient element is a sum of 101
 *      terms; another order moves it by at most 101 x 2^-24 (6e-6) of the
 *      sum of the terms' magnitudes, typically sqrt(101) x 2^-24 (6e-7); the
 *      step scales that by the learning rate, and 6 steps add up 6 such
 *      changes: far below 1e-4. A wrong shard, a micro-batch left out, or
 *      a mean taken twice moves the weights by percents, and is caught
 *      (the same argument as chapters/10-data-parallel/dataparallel.c);
 *   4. one all-reduce per step, not one per micro-batch: the ring on R ranks
 *      sends 2R(R-1) messages, so 6 steps send 12R(R-1).
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate.h"
#include "cluster.h"
#include "mlp.h"
#include "util.h"

#define STEPS 6
#define BATCH 101
#define LR 0.05f
#define ATOL 1e-6
#define RTOL 1e-4

typedef struct {
    mlp_shape s;
    const float *x, *y;     /* STEPS * BATCH samples */
    const float *w0;        /* the initial weights */
    float **w;              /* per replica */
    float *first;           /* rank 0's weights after the first step */
    int micro;
} job;

/* What main and try_case allocate. A skeleton exits from inside a rank (a
 * fiber with its own stack), where LeakSanitizer does not see their locals
 * and would call them leaked: an exit handler frees them. */
static struct { float *x, *y, *w0, *ref, *ref_first; double *abs_sum, *g_sum; job *j; int R; } live;

static void free_job(job *j, int R)
{
    for (int r = 0; r < R; r++) pw_free(j->w[r]);
    free(j->w);
    pw_free(j->first);
}

static void free_live(void)
{
    if (live.j) free_job(live.j, live.R);
    pw_free(live.x);
    pw_free(live.y);
    pw_free(live.w0);
    pw_free(live.ref);
    pw_free(live.ref_first);
    free(live.abs_sum);
    free(live.g_sum);
    memset(&live, 0, sizeof live);
}

static void replica(pw_rank *r, void *arg)
{
    job *j = arg;
    int me = pw_rank_id(r);
    size_t np = mlp_nparams(j->s);
    float *w = j->w[me];
    memcpy(w, j->w0, np * sizeof *w);
    for (int st = 0; st < STEPS; st++) {
        size_t base = (size_t)st * BATCH;
        accumulate_step(r, j->s, w, j->x + base * (size_t)j->s.d, j->y + base * (size_t)j->s.o, BATCH, j->micro, LR);
        if (st == 0 && me == 0) memcpy(j->first, w, np * sizeof *w);
    }
}

/* One device, the whole batch each step; *first gets the weights after step 1. */
static void reference(mlp_shape s, const float *x, const float *y, const float *w0, float *w, float *first)
{
    size_t np = mlp_nparams(s);
    float *g = pw_alloc_floats(np), *scratch = pw_alloc_floats((size_t)(s.k + s.o));
    memcpy(w, w0, np * sizeof *w);
    for (int st = 0; st < STEPS; st++) {
        size_t base = (size_t)st * BATCH;
        mlp_grad_sum(s, w, x + base * (size_t)s.d, y + base * (size_t)s.o, BATCH, g, scratch);
        mlp_sgd(w, g, np, LR, BATCH);
        if (st == 0) memcpy(first, w, np * sizeof *w);
    }
    pw_free(g);
    pw_free(scratch);
}

/* For the first step's tolerance: per weight i, the sum over the batch of
 * |sample s's gradient term| (each sample alone, mlp_grad_sum with m = 1),
 * and the batch's gradient sum, both at the initial weights. */
static void first_step_terms(mlp_shape s, const float *x, const float *y, const float *w0, double *abs_sum,
                             double *g_sum)
{
    size_t np = mlp_nparams(s);
    float *g = pw_alloc_floats(np), *scratch = pw_alloc_floats((size_t)(s.k + s.o));
    for (size_t i = 0; i < np; i++) abs_sum[i] = 0;
    for (size_t n = 0; n < BATCH; n++) {
        mlp_grad_sum(s, w0, x + n * (size_t)s.d, y + n * (size_t)s.o, 1, g, scratch);
        for (size_t i = 0; i < np; i++) abs_sum[i] += fabs((double)g[i]);
    }
    mlp_grad_sum(s, w0, x, y, BATCH, g, scratch);
    for (size_t i = 0; i < np; i++) g_sum[i] = g[i];
    pw_free(g);
    pw_free(scratch);
}

/* How far weight i may be from the one-device weight after the FIRST step,
 * where both start from w0 and add the very same per-sample gradient terms
 * x_s (the same code on the same weights and samples), only grouped
 * differently. A float sum whose every term passes through at most N
 * roundings is within gamma_N sum |x_s| of the exact sum, gamma_N =
 * N u / (1 - N u), u = 2^-24 (Higham, Accuracy and Stability of Numerical
 * Algorithms, 4.2). One device: N = BATCH. A replica: its micro-batch, then
 * k - 1 additions of micro-batch sums, then R - 1 in the ring, fewer than
 * BATCH + k + R: so the two sums are within 2 gamma_N sum |x_s| of each
 * other with N = BATCH + k + R (|x_s| <= |its float| (1 + u)). mlp_sgd then
 * subtracts scale x sum (scale = lr / BATCH): the difference scaled, plus
 * the rounding of the product (u scale |sum| each) and of the new weight
 * (u |w| each). With these data that is 1e-8 to 2e-7 a weight; the
 * solution stays within 4% of it, and one sample left out (scale |x_s|)
 * moves some weight by over 1000 times it. */
static double first_step_tol(double abs_sum, double g_sum, double w, int R, int micro)
{
    const double u = 0x1p-24, scale = (double)(LR / (float)BATCH);
    double N = BATCH + micro + R, gamma = N * u / (1 - N * u);
    return scale * (2 * gamma * abs_sum * (1 + u) + 2 * u * fabs(g_sum)) + 2 * u * fabs(w);
}

/* How the first update compares with the reference's: the projection of
 * (w - w0) on (ref - w0), as a multiple of (ref - w0). 1 is right. */
static double update_ratio(const float *w, const float *ref, const float *w0, size_t np)
{
    double dot = 0, nn = 0;
    for (size_t i = 0; i < np; i++) {
        double a = (double)w[i] - w0[i], b = (double)ref[i] - w0[i];
        dot += a * b;
        nn += b * b;
    }
    return nn > 0 ? dot / nn : 0;
}

/* Within 15%: keeping only one of k uneven micro-batches gives about 1/k,
 * not exactly (at k = 4, 0.27). */
static bool near_ratio(double x, double want) { return fabs(x - want) <= 0.15 * want; }

static bool try_case(int R, int micro, mlp_shape s, const float *x, const float *y, const float *w0,
                     const float *ref, const float *ref_first, const double *abs_sum, const double *g_sum)
{
    size_t np = mlp_nparams(s);
    printf("  R = %d, k = %d: ", R, micro);
    job j = { s, x, y, w0, calloc((size_t)R, sizeof(float *)), pw_alloc_floats(np), micro };
    for (int r = 0; r < R; r++) j.w[r] = pw_alloc_floats(np);
    live.j = &j;
    live.R = R;
    pw_cluster_config cfg = pw_cluster_defaults(R);
    pw_cluster *c = pw_cluster_create(&cfg);
    int rc = pw_cluster_run(c, replica, &j);
    long long msgs = 0;
    double bytes = 0;
    pw_cluster_traffic(c, &msgs, &bytes);
    bool ok = true;
    if (rc != PW_CLUSTER_OK) {
        printf("wrong\n%sFAIL: R = %d, k = %d: deadlock (above): do all replicas call the all-reduce the same number of\n"
               "  times? Once per step, after every micro-batch\n", pw_cluster_report(c), R, micro);
        exit(1);
    }
    long long want_msgs = (long long)STEPS * 2 * R * (R - 1);
    size_t bad = np;
    double worst = 0;
    for (size_t i = 0; i < np; i++) {
        double d = fabs((double)j.w[0][i] - ref[i]);
        if (d > ATOL + RTOL * fabs(ref[i]) && bad == np) bad = i;
        if (d > worst) worst = d;
    }
    int drift = -1;
    for (int r = 1; r < R && drift < 0; r++)
        if (memcmp(j.w[r], j.w[0], np * sizeof(float))) drift = r;
    size_t bad1 = np;                     /* the first weight off after the first step */
    double tol1 = 0;
    for (size_t i = 0; i < np && bad1 == np; i++) {
        double t = first_step_tol(abs_sum[i], g_sum[i], ref_first[i], R, micro);
        if (!(fabs((double)j.first[i] - ref_first[i]) <= t)) { bad1 = i; tol1 = t; }
    }
    double ratio = update_ratio(j.first, ref_first, w0, np);
    if (drift >= 0) {
        printf("wrong\nFAIL: R = %d, k = %d: replica %d's weights differ from replica 0's: every replica must apply the same\n"
               "  update, from one all-reduced sum (coll_allreduce_ring gives every rank the same bits), divided\n"
               "  by the same global batch (mlp_sgd's last argument is %d, not the shard's size)\n", R, micro, drift, BATCH);
        ok = false;
    } else if (bad1 < np || bad < np) {
        if (bad1 < np)
            printf("wrong\nFAIL: R = %d, k = %d: weight %zu is %.9g after the first step, one device on the whole batch\n"
                   "  gives %.9g: %.2g apart, where adding the same gradients in another order moves it by at most %.2g\n",
                   R, micro, bad1, (double)j.first[bad1], (double)ref_first[bad1],
                   fabs((double)j.first[bad1] - ref_first[bad1]), tol1);
        else
            printf("wrong\nFAIL: R = %d, k = %d: weight %zu is %.7g after %d steps, one device on the whole batch gives %.7g\n",
                   R, micro, bad, (double)j.w[0][bad], STEPS, (double)ref[bad]);
        printf("  your first update is %.3g times the one-device update", ratio);
        if (bad1 == np)
            printf(", within rounding: the first step is right, a later\n"
                   "  one is not. Does the gradient sum start from 0 at every step (not a buffer kept from call to call)?\n");
        else if (near_ratio(ratio, 1.0 / micro) && micro > 1)
            printf(" (about 1/k): only one micro-batch's gradient\n"
                   "  kept, or each divided by k? mlp_grad_sum overwrites its output: sum each micro-batch's gradient\n"
                   "  into a separate buffer; the micro-batches' sums add up to the shard's, with no division (mlp_sgd\n"
                   "  divides by the global batch, once)\n");
        else if (near_ratio(ratio, 1.0 / R) && R > 1)
            printf(" (about 1/R): the gradients were not all-reduced, or\n"
                   "  divided by R: the all-reduce SUMS, and mlp_sgd divides by the global batch once\n");
        else if (near_ratio(ratio, (double)R) && R > 1)
            printf(" (about R): is each replica's shard the whole batch?\n"
                   "  replica r takes samples [coll_chunk_begin(batch, R, r), coll_chunk_begin(batch, R, r + 1))\n");
        else if (near_ratio(ratio, (double)micro) && micro > 1)
            printf(" (about k): is every micro-batch the whole shard?\n");
        else if (ratio < 0.05)
            printf(": the update is (nearly) lost\n");
        else if (fabs(ratio - 1) < 0.15)
            printf(" (close to 1): a few samples lost or counted\n"
                   "  twice? The micro-batches must cover the shard exactly: micro-batch m is samples\n"
                   "  [lo + coll_chunk_begin(hi - lo, k, m), lo + coll_chunk_begin(hi - lo, k, m + 1)), sizes that\n"
                   "  differ by one when k does not divide the shard\n");
        else
            printf(": are the micro-batches and shards the right samples, and is\n  mlp_sgd given the global batch (%d)?\n", BATCH);
        ok = false;
    } else if (msgs != want_msgs) {
        printf("wrong\nFAIL: R = %d, k = %d: %lld messages in %d steps, one ring all-reduce per step sends %lld\n",
               R, micro, msgs, STEPS, want_msgs);
        if (micro > 1 && msgs == micro * want_msgs)
            printf("  that is k all-reduces a step: accumulate the k micro-batches first, then all-reduce once\n");
        ok = false;
    } else {
        printf("replicas identical, max |w - w_one_device| = %.2g, %lld messages ok\n", worst, msgs);
    }
    pw_cluster_destroy(c);
    free_job(&j, R);
    live.j = NULL;
    return ok;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    atexit(free_live);
    mlp_shape s = { 8, 16, 3 };
    size_t np = mlp_nparams(s), samples = (size_t)STEPS * BATCH;
    float *x = live.x = pw_alloc_floats(samples * (size_t)s.d), *y = live.y = pw_alloc_floats(samples * (size_t)s.o);
    float *w0 = live.w0 = pw_alloc_floats(np), *ref = live.ref = pw_alloc_floats(np);
    float *ref_first = live.ref_first = pw_alloc_floats(np);
    mlp_make_data(s, samples, 2024, x, y);
    mlp_init(s, w0, 7);
    reference(s, x, y, w0, ref, ref_first);
    double *abs_sum = live.abs_sum = calloc(np, sizeof *abs_sum), *g_sum = live.g_sum = calloc(np, sizeof *g_sum);
    if (!abs_sum || !g_sum) { fprintf(stderr, "out of memory\n"); return 2; }
    first_step_terms(s, x, y, w0, abs_sum, g_sum);

    static const int cases[][2] = { { 1, 1 }, { 1, 4 }, { 3, 1 }, { 3, 4 }, { 4, 5 }, { 5, 3 } };
    int ncases = (int)(sizeof cases / sizeof cases[0]), failures = 0;
    printf("exercise 10.3: accumulate_step() against one-device SGD (%d steps, batch %d, MLP %d-%d-%d)\n",
           STEPS, BATCH, s.d, s.k, s.o);
    for (int i = 0; i < ncases && !failures; i++)
        failures += !try_case(cases[i][0], cases[i][1], s, x, y, w0, ref, ref_first, abs_sum, g_sum);
    free_live();
    if (failures) return 1;
    return pw_ex_pass("k micro-batches and one all-reduce a step learn the one-device weights (within 1e-6 + 1e-4 |w|)");
}
