/* exercises/16-sharded-data-parallel/check_shard_step.c: the checker of exercise 16.1.
 *
 * Built with your exercises/16-sharded-data-parallel/shard_step.c by
 * `make ex-16.1`, or with the solution by `make solution-16.1`. It runs your
 * shard_step() on every rank of the virtual cluster (common/cluster/cluster.h), three
 * steps in a row, and after each step compares every rank with its own
 * one-device Adam (in double precision, on the summed gradient):
 *   1. 1, 2, 3, 4, 5 and 7 ranks (odd counts too) with n = 64, 7, 1001, 3, 1
 *      (not multiples of the rank count; shorter than it), steps t = 1, 2, 3,
 *      lr 0.01, beta1 0.9, beta2 0.999, eps 1e-8;
 *   2. a run resumed from a checkpoint at t = 10, 11, 12 with non-zero m and
 *      v, on 3 and 5 ranks, lr 0.05, beta1 0.8, beta2 0.95, eps 1e-3: a step
 *      count of your own, or a hyperparameter ignored, shows here.
 * What it looks at, in this order (each failure explained):
 *   - m and v: each rank gets len floats, its chunk's length, followed by n
 *     more watched ones (and 8 before). A rank that updates all n weights, or
 *     another chunk than the one the reduce-scatter completed on it, writes
 *     past len: caught however it indexes. The 8 floats either side of w and
 *     g are watched too;
 *   - each chunk's new weights on the rank that owns it; a wrong one is
 *     matched against the usual mistakes: not updated at all, updated with
 *     the rank's own gradient instead of the sum, Adam without bias
 *     correction, bias correction with t = 1 or with a count of your own;
 *   - every other rank's copy of the chunk: the same bits as the owner's
 *     (the all-gather copies; a rank that skips it keeps a stale copy);
 *   - m and v themselves, against the reference's moments of the chunk;
 *   - the bytes sent: one reduce-scatter and one all-gather send 2(p-1) n
 *     floats in all, per step, whatever p and n.
 * Tolerances. The gradients are whole multiples of 2^-12 below 2^-6 in size,
 * so their sum over at most 7 ranks is exact in float in any order: G is the
 * same bits for you and the reference. What differs is Adam's own rounding
 * in float. Per step, m = beta1 m + (1 - beta1) G rounds a few times (4 at
 * most, counting 1 - beta1) at magnitude at most M_i = max(|G_i|, |m_i|,
 * sqrt(v_i)) of the run, each by 2^-24 relative: after s steps |m - m_ref| <= s 4 2^-24
 * M_i, checked as s 2^-20 M_i (a factor 4 of margin); v the same with M_i^2.
 * The update u = lr mhat / (sqrt(vhat) + eps) is a ratio near 1 in size
 * (|mhat| <= sqrt(vhat) for these data, within the bias corrections' factor
 * of at most 1/(1 - beta1) = 10): its float rounding is a few 2^-24 of lr,
 * and the moments' errors above move it by at most 10 s 2^-20 (relative) =
 * 1e-5 s; w - u rounds by 2^-24 |w|. The check is |w - w_ref| <= s (2^-22
 * |w| + 2^-13 lr), 2^-13 = 1.2e-4: a margin of ten over those bounds, and a
 * thousand times smaller than what the mistakes above change (a missing
 * bias correction changes u by 3x at t = 1; eps = 1e-3 against 1e-8 moves
 * it by several per cent for the small gradients here).
 * A deadlock is reported by the cluster (who waits for whom), not a hang.
 * Last line "PASS: ..." and exit 0, or exit 1.
 */
#include "exercise.h"
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "collectives.h"
#include "shard_step.h"
#include "util.h"

#define GUARD 8
#define GUARD_VALUE -12345.0f
#define STEPS 3

/* Every allocation of the case in progress, freed at its end or at exit
 * (a skeleton exits from inside a rank, where LeakSanitizer does not see
 * main's locals). */
static void *allocs[256];
static int nallocs;
static void *xalloc(size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p || nallocs == (int)(sizeof allocs / sizeof allocs[0])) { fprintf(stderr, "out of memory\n"); exit(2); }
    return allocs[nallocs++] = p;
}
static void free_all(void)
{
    while (nallocs) free(allocs[--nallocs]);
}

static void on_abort(int sig)
{
    static const char msg[] =
        "FAIL: the virtual cluster stopped the run (the line above says why): a receive must ask for exactly\n"
        "  the bytes its sender sent, and peers are 0..p-1\n";
    (void)sig;
    ssize_t w = write(STDOUT_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
}

/* A buffer of `len` floats with `after` watched floats behind it and GUARD before. */
static float *guarded(size_t len, size_t after)
{
    float *base = xalloc((GUARD + len + after) * sizeof *base);
    for (size_t i = 0; i < GUARD + len + after; i++) base[i] = GUARD_VALUE;
    return base + GUARD;
}
/* -1 if intact, else the index of the first changed watched float (relative to b). */
static long long guard_hit(const float *b, size_t len, size_t after)
{
    for (long long g = -GUARD; g < 0; g++)
        if (b[g] != GUARD_VALUE) return g;
    for (size_t i = len; i < len + after; i++)
        if (b[i] != GUARD_VALUE) return (long long)i;
    return -1;
}

typedef struct {
    int p;
    size_t n;
    long t0;
    adam_config cfg;
    float **w, **g, **m, **v;       /* per rank */
    const float *grads;             /* [STEPS][p][n] */
    float *wsnap, *msnap, *vsnap;   /* [STEPS][p][n] after each step */
} job;

static size_t chunk_b(size_t n, int p, int r) { return coll_chunk_begin(n, p, coll_rs_owned_chunk(r, p)); }
static size_t chunk_len(size_t n, int p, int r)
{
    int k = coll_rs_owned_chunk(r, p);
    return coll_chunk_begin(n, p, k + 1) - coll_chunk_begin(n, p, k);
}

static void run_rank(pw_rank *r, void *arg)
{
    job *j = arg;
    int me = pw_rank_id(r);
    pw_comm c = coll_comm_cluster(r);
    size_t n = j->n, len = chunk_len(n, j->p, me);
    for (int s = 0; s < STEPS; s++) {
        memcpy(j->g[me], j->grads + ((size_t)s * j->p + me) * n, n * sizeof(float));
        shard_step(&c, j->w[me], j->g[me], n, j->m[me], j->v[me], j->t0 + s, &j->cfg);
        size_t at = ((size_t)s * j->p + me) * n;
        memcpy(j->wsnap + at, j->w[me], n * sizeof(float));
        memcpy(j->msnap + at, j->m[me], len * sizeof(float));
        memcpy(j->vsnap + at, j->v[me], len * sizeof(float));
    }
}

static uint64_t rng;
static uint64_t next(void)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return rng >> 33;
}

/* One Adam step in double, for one weight; t is the step number used in
 * the bias correction (0: none). */
static void adam1(double *w, double *m, double *v, double G, double t, const adam_config *cf)
{
    double b1 = cf->beta1, b2 = cf->beta2;
    *m = b1 * *m + (1 - b1) * G;
    *v = b2 * *v + (1 - b2) * G * G;
    double mh = t > 0 ? *m / (1 - pow(b1, t)) : *m, vh = t > 0 ? *v / (1 - pow(b2, t)) : *v;
    *w -= (double)cf->lr * mh / (sqrt(vh) + (double)cf->eps);
}

static const char *case_name(const job *j, char *buf, size_t len)
{
    snprintf(buf, len, "p = %d, n = %zu", j->p, j->n);
    return buf;
}

static bool run_case(int p, size_t n, long t0, adam_config cfg, bool resume)
{
    char name[64];
    job j = { p, n, t0, cfg, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    case_name(&j, name, sizeof name);
    printf("  %d rank%s, n = %-5zu ", p, p == 1 ? " " : "s", n);
    rng = 0x1601 + (uint64_t)p * 1000 + n;
    j.w = xalloc((size_t)p * sizeof *j.w);
    j.g = xalloc((size_t)p * sizeof *j.g);
    j.m = xalloc((size_t)p * sizeof *j.m);
    j.v = xalloc((size_t)p * sizeof *j.v);
    float *grads = xalloc((size_t)STEPS * p * n * sizeof *grads);
    j.grads = grads;
    j.wsnap = xalloc((size_t)STEPS * p * n * sizeof(float));
    j.msnap = xalloc((size_t)STEPS * p * n * sizeof(float));
    j.vsnap = xalloc((size_t)STEPS * p * n * sizeof(float));
    /* the starting point: weights in [-1, 1), moments (resumed) as floats */
    float *w0 = xalloc(n * sizeof *w0), *m0 = xalloc(n * sizeof *m0), *v0 = xalloc(n * sizeof *v0);
    pw_fill_random(w0, n, 42 + n, -1, 1);
    for (size_t i = 0; i < n; i++) {
        if (!resume) continue;
        m0[i] = (float)((int)(next() % 129) - 64) * 0x1p-13f;
        v0[i] = (fabsf(m0[i]) + 0x1p-10f) * (fabsf(m0[i]) + 0x1p-10f);
    }
    for (size_t i = 0; i < (size_t)STEPS * p * n; i++) grads[i] = (float)((int)(next() % 129) - 64) * 0x1p-12f;
    for (int r = 0; r < p; r++) {
        size_t len = chunk_len(n, p, r), b = chunk_b(n, p, r);
        j.w[r] = guarded(n, GUARD);
        j.g[r] = guarded(n, GUARD);
        j.m[r] = guarded(len, n + GUARD);
        j.v[r] = guarded(len, n + GUARD);
        memcpy(j.w[r], w0, n * sizeof *w0);
        memcpy(j.m[r], m0 + b, len * sizeof *m0);
        memcpy(j.v[r], v0 + b, len * sizeof *v0);
    }
    /* the reference: one device, double precision; state before each step kept */
    double *rw = xalloc((STEPS + 1) * n * sizeof *rw), *rm = xalloc((STEPS + 1) * n * sizeof *rm),
           *rv = xalloc((STEPS + 1) * n * sizeof *rv), *G = xalloc(STEPS * n * sizeof *G), *M = xalloc(n * sizeof *M);
    for (size_t i = 0; i < n; i++) { rw[i] = w0[i]; rm[i] = m0[i]; rv[i] = v0[i]; M[i] = fmax(fabs(m0[i]), sqrtf(v0[i])); }
    for (int s = 0; s < STEPS; s++)
        for (size_t i = 0; i < n; i++) {
            double sum = 0;
            for (int r = 0; r < p; r++) sum += grads[((size_t)s * p + r) * n + i];
            G[s * n + i] = sum;
            double w = rw[s * n + i], m = rm[s * n + i], v = rv[s * n + i];
            adam1(&w, &m, &v, sum, (double)(t0 + s), &cfg);
            rw[(s + 1) * n + i] = w; rm[(s + 1) * n + i] = m; rv[(s + 1) * n + i] = v;
        }

    pw_cluster_config cc = pw_cluster_defaults(p);
    pw_cluster *cl = pw_cluster_create(&cc);
    if (pw_cluster_run(cl, run_rank, &j) != PW_CLUSTER_OK) {
        printf("wrong\n%s", pw_cluster_report(cl));
        printf("FAIL: %s: the ranks did not finish (report above): every rank must call the same collectives\n"
               "  in the same order (reduce-scatter, then all-gather), whatever its chunk\n", name);
        pw_cluster_destroy(cl);
        return false;
    }
    long long msgs;
    double bytes;
    pw_cluster_traffic(cl, &msgs, &bytes);
    pw_cluster_destroy(cl);

    /* 1. the watched floats */
    for (int r = 0; r < p; r++) {
        size_t len = chunk_len(n, p, r);
        const char *which[2] = { "m", "v" };
        float *st[2] = { j.m[r], j.v[r] };
        for (int q = 0; q < 2; q++) {
            long long at = guard_hit(st[q], len, n + GUARD);
            if (at < 0) continue;
            printf("wrong\nFAIL: %s: rank %d wrote %s[%lld], outside its chunk's %zu elements: m and v hold the state of\n"
                   "  this rank's chunk only (chunk coll_rs_owned_chunk(rank, p), %s[j] for weight b + j). Does every\n"
                   "  rank update all n weights, or another chunk than the one the reduce-scatter completed on it?\n",
                   name, r, which[q], at, len, which[q]);
            return false;
        }
        long long aw = guard_hit(j.w[r], n, GUARD), ag = guard_hit(j.g[r], n, GUARD);
        if (aw >= 0 || ag >= 0) {
            printf("wrong\nFAIL: %s: rank %d wrote %s[%lld], outside the buffer of n = %zu floats\n",
                   name, r, aw >= 0 ? "w" : "g", aw >= 0 ? aw : ag, n);
            return false;
        }
    }
    /* 2.-4. step by step */
    for (int s = 0; s < STEPS; s++) {
        long t = t0 + s;
        double sn = s + 1;
        const double *pw = rw + s * n, *pm = rm + s * n, *pv = rv + s * n;
        const double *nw = rw + (s + 1) * n, *nm = rm + (s + 1) * n, *nv = rv + (s + 1) * n;
        for (size_t i = 0; i < n; i++) M[i] = fmax(M[i], fabs(G[s * n + i]));
        for (int q = 0; q < p; q++) {                     /* each owner's chunk */
            size_t b = chunk_b(n, p, q), len = chunk_len(n, p, q);
            int k = coll_rs_owned_chunk(q, p);
            const float *got = j.wsnap + ((size_t)s * p + q) * n;
            for (size_t i = b; i < b + len; i++) {
                double tol = sn * (0x1p-22 * fabs(nw[i]) + 0x1p-13 * cfg.lr);
                if (fabs(got[i] - nw[i]) <= tol) continue;
                printf("wrong\nFAIL: %s, step t = %ld: rank %d holds %.9g for weight %zu, want %.9g (Adam on the summed\n"
                       "  gradient); it is in chunk %d, [%zu, %zu), the one the reduce-scatter completes on rank %d\n",
                       name, t, q, (double)got[i], i, nw[i], k, b, b + len, q);
                double cw, cm, cv, gl = j.grads[((size_t)s * p + q) * n + i];
                bool told = false;
                if (fabs(got[i] - pw[i]) <= tol) {
                    printf("  it is the weight before the step: rank %d did not update it. The chunk a rank owns after\n"
                           "  coll_reduce_scatter_ring is k = coll_rs_owned_chunk(rank, p), not chunk `rank`, and it\n"
                           "  runs from coll_chunk_begin(n, p, k) to coll_chunk_begin(n, p, k + 1) (not k n/p, (k+1) n/p)\n", q);
                    told = true;
                }
                cw = pw[i]; cm = pm[i]; cv = pv[i];
                adam1(&cw, &cm, &cv, gl, (double)t, &cfg);
                if (!told && p > 1 && fabs(got[i] - cw) <= tol) {
                    printf("  that is Adam on rank %d's own gradient: reduce-scatter the gradients first, and update with\n"
                           "  the sum it leaves in g\n", q);
                    told = true;
                }
                cw = pw[i]; cm = pm[i]; cv = pv[i];
                adam1(&cw, &cm, &cv, G[s * n + i], 0, &cfg);
                if (!told && fabs(got[i] - cw) <= tol) {
                    printf("  that is Adam without bias correction: divide m by 1 - beta1^t and v by 1 - beta2^t\n");
                    told = true;
                }
                cw = pw[i]; cm = pm[i]; cv = pv[i];
                adam1(&cw, &cm, &cv, G[s * n + i], 1, &cfg);
                if (!told && t != 1 && fabs(got[i] - cw) <= tol) {
                    printf("  that is Adam with the bias correction of step t = 1: use the argument t (beta^t)\n");
                    if (s == 0 && t0 > 1)
                        printf("  (a count of calls of your own starts there too: this run resumed at t = %ld)\n", t0);
                    told = true;
                }
                cw = pw[i]; cm = pm[i]; cv = pv[i];
                adam1(&cw, &cm, &cv, G[s * n + i], (double)(s + 1), &cfg);
                if (!told && t != s + 1 && fabs(got[i] - cw) <= tol) {
                    printf("  that is the bias correction of step %d, a count of calls: this run resumed at t = %ld;\n"
                           "  use the argument t\n", s + 1, t0);
                    told = true;
                }
                if (!told)
                    printf("  Adam as shard_step.h writes it, with this call's lr, beta1, beta2, eps and t\n");
                return false;
            }
        }
        for (int q = 0; q < p; q++) {                     /* every copy: the owner's bits */
            const float *got = j.wsnap + ((size_t)s * p + q) * n;
            for (int o = 0; o < p; o++) {
                if (o == q) continue;
                size_t b = chunk_b(n, p, o), len = chunk_len(n, p, o);
                const float *own = j.wsnap + ((size_t)s * p + o) * n;
                for (size_t i = b; i < b + len; i++) {
                    if (!memcmp(&got[i], &own[i], sizeof(float))) continue;
                    printf("wrong\nFAIL: %s, step t = %ld: rank %d's copy of weight %zu is %.9g, its owner rank %d holds %.9g\n",
                           name, t, q, i, (double)got[i], o, (double)own[i]);
                    if (fabs(got[i] - pw[i]) <= sn * 0x1p-22 * fabs(pw[i]))
                        printf("  it is the weight before the step: ");
                    else
                        printf("  ");
                    printf("after the update every rank must all-gather the weights (coll_allgather_ring on w),\n"
                           "  so that each holds every chunk as its owner computed it\n");
                    return false;
                }
            }
        }
        for (int q = 0; q < p; q++) {                     /* the state of the chunk */
            size_t b = chunk_b(n, p, q), len = chunk_len(n, p, q);
            const float *gm = j.msnap + ((size_t)s * p + q) * n, *gv = j.vsnap + ((size_t)s * p + q) * n;
            for (size_t jx = 0; jx < len; jx++) {
                size_t i = b + jx;
                bool mok = fabs(gm[jx] - nm[i]) <= sn * 0x1p-20 * M[i];
                bool vok = fabs(gv[jx] - nv[i]) <= sn * 0x1p-20 * M[i] * M[i];
                if (mok && vok) continue;
                printf("wrong\nFAIL: %s, step t = %ld: rank %d has %s[%zu] = %.9g, want %.9g (the moment of weight %zu,\n"
                       "  the first of its chunk being %zu): m and v are the chunk's state, m[j] for weight b + j, updated\n"
                       "  in place every step (the caller keeps them between steps)\n",
                       name, t, q, mok ? "v" : "m", jx, mok ? (double)gv[jx] : (double)gm[jx], mok ? nv[i] : nm[i], i, b);
                return false;
            }
        }
    }
    /* 5. bytes: a reduce-scatter and an all-gather send each chunk p-1 times */
    double want = STEPS * 2.0 * (p - 1) * (double)n * sizeof(float);
    if (fabs(bytes - want) > 0.5) {
        printf("wrong\nFAIL: %s: the ranks sent %.0f bytes in %d steps, one reduce-scatter and one all-gather a step\n"
               "  send 2(p-1) n 4 = %.0f a step in all (%.0f here)%s\n", name, bytes, STEPS,
               2.0 * (p - 1) * (double)n * 4, want,
               bytes > want ? ": the same bytes as plain data parallelism's all-reduce, no more; is something\n"
                              "  sent twice (an all-reduce as well as the gather)?" : "");
        return false;
    }
    printf("3 steps from t = %ld: every rank's weights right and identical, m and v per chunk\n", t0);
    free_all();
    return true;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    signal(SIGABRT, on_abort);
    atexit(free_all);
    static const int ps[] = { 1, 2, 3, 4, 5, 7 };
    static const size_t ns[] = { 64, 7, 1001, 3, 1 };
    adam_config base = { 0.01f, 0.9f, 0.999f, 1e-8f }, other = { 0.05f, 0.8f, 0.95f, 1e-3f };
    printf("exercise 16.1: shard_step(), ZeRO-1's Adam step, on the virtual cluster\n");
    printf("1. steps t = 1, 2, 3 from zero state (lr 0.01, beta1 0.9, beta2 0.999, eps 1e-8):\n");
    for (size_t a = 0; a < sizeof ps / sizeof ps[0]; a++)
        for (size_t b = 0; b < sizeof ns / sizeof ns[0]; b++)
            if (!run_case(ps[a], ns[b], 1, base, false)) return 1;
    printf("2. resumed at t = 10 with non-zero m and v (lr 0.05, beta1 0.8, beta2 0.95, eps 1e-3):\n");
    if (!run_case(3, 1001, 10, other, true)) return 1;
    if (!run_case(5, 64, 10, other, true)) return 1;
    return pw_ex_pass("each rank updates only its chunk with state for its chunk, and after the all-gather every\n"
                      "  rank holds the one-device Adam weights, bit for bit the same, on 1 to 7 ranks");
}
