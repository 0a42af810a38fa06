/* exercises/09-tensor-cores/check_flash.c: the checker of exercise 9.5.
 *
 * Values. Every row of O and L is compared with naive attention computed in
 * double (all n scores of the row, their max, then the weights), on
 * n = 1, 7, 64 (whole key tiles), 33, 100, 257 (a ragged last tile), d = 16,
 * and d = 5 and 64; three kinds of input:
 *   small   Q, K, V in [-1, 1): logits within +-4, the max of a row in any tile;
 *   rising  logits up to about 960: Q[i][0] = +-(30 .. 60), K[j][0] rising
 *           from 1 to 64 with j, so an even row's max is its LAST key (in
 *           the last tile: the max grows at every tile) and an odd row's is
 *           its first. exp(960) overflows a float (the largest exp is
 *           exp(88.7)): without the max subtracted the row is inf / inf = NaN;
 *           and a rescale left out weighs the earlier tiles e^15 or more
 *           too much;
 *   large   Q, K in [-16, 16): logits of about +-85 typical, up to ~400, the
 *           max in a random tile.
 *
 * The tolerance, per element (first order, then doubled for the terms of
 * second order; u = 2^-24):
 *   - a score s_ij is a dot product of length d, times 1/sqrtf(d) (a sqrt
 *     and a division, each rounded): within gamma_{d+3} a_ij of the exact
 *     one, a_ij = sum_c |Q[i][c] K[j][c]| / sqrt(d) (Higham 3.1, as
 *     gemm_check.h). The max subtracted is a computed score too: the
 *     argument of a weight's exp is off by E_i = 2 gamma_{d+3} max_j a_ij;
 *   - the subtraction s - m rounds (u |x_j|, x_j = s_j - m) and the chain of
 *     rescales since that tile (each alpha = expf(m - m') off by u |m - m'|,
 *     their sum at most |x_j|) adds as much again; expf is within 2 ulp
 *     (CUDA's table; glibc's is within 1), 4 u, counted twice (the weight's
 *     own, and for a larger margin): each weight w_j has relative error at
 *     most rho_j = expm1(E_i + 2 e + 2 u |x_j|), e = 2^-22;
 *   - weights off by rho_j give an output off by at most
 *     (sum_j w_j rho_j |V[j][c]| + rbar W_c) / (1 - rbar), W_c = sum_j w_j |V[j][c]|,
 *     rbar = sum_j w_j rho_j (the w normalised);
 *   - the float sums acc and l (at most n additions, a product, and per
 *     tile a rescale and its alpha's expf error): each within
 *     G = gamma_{n + 3T + 2} + T e of the sums of the computed terms, T the
 *     number of key tiles; O = acc / l adds 2G + u (relative to W_c).
 *   L = m + log l: within E_i / 2 + rbar + G, plus logf's and the addition's
 *   rounding, 2u |log l| + u |L|.
 * At n = 257, d = 16 (small) that is about 1e-4 of W; with logits near 960
 * about 1e-2 (a score's own rounding is bounded by 1e-3 there: fp32 cannot
 * do better). A rescale left out is off by a good part of W, an extra key
 * by about 1/n of it, typically (40 times the tolerance at n = 257).
 *
 * Memory (n = 100 and 257, d = 16): the emulator logs every access the
 * kernel makes to device memory. Allowed beyond Q, K, V, O and L: at most
 * 2 floats a row of memory (the running max and sum, were they kept in
 * device memory: 8n bytes) and 4 floats a row of traffic (that state
 * written and read once: 16n bytes), where the naive version's n x n scores
 * are 4 n^2 bytes of memory and at least 8 n^2 of traffic (written once,
 * read once). And the traffic to Q, K, V, O, L themselves: Q read once (each
 * row of it, 4nd bytes), K and V each read once per block of FLASH_BR rows
 * (ceil(n / 32) 4nd bytes: one pass, staged in shared memory), O and L
 * written once (4(nd + n) bytes), and in every block that walks over more
 * than one key tile some of V read before the last of K: the online softmax
 * weighs each tile of V as it goes, where two passes (the max and the sum
 * first, the weights after) must read all of K before any of V.
 */
#include "exercise.h"
#include "flash.h"
#include "gemm_check.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KIND_SMALL, KIND_RISING, KIND_LARGE };
static const char *const kind_name[] = { "small", "rising", "large" };

static const struct { int n, d, kind; } cases[] = {
    { 1, 16, KIND_SMALL },    { 7, 16, KIND_SMALL },    { 64, 16, KIND_SMALL },   { 33, 16, KIND_SMALL },
    { 100, 16, KIND_SMALL },  { 257, 16, KIND_SMALL },  { 33, 5, KIND_SMALL },    { 100, 64, KIND_SMALL },
    { 1, 16, KIND_RISING },   { 7, 16, KIND_RISING },   { 33, 16, KIND_RISING },  { 100, 16, KIND_RISING },
    { 257, 16, KIND_RISING }, { 100, 64, KIND_LARGE },  { 257, 16, KIND_LARGE },  { 33, 5, KIND_LARGE },
};
static const int memory_sizes[] = { 100, 257 };
#define MEMORY_D 16

#define U 0x1p-24       /* fp32's unit roundoff */
#define E_EXP 0x1p-22   /* expf's error, 4 u (2 ulp, CUDA's documented bound) */

static int tiles_of(int n) { return (n + FLASH_BC - 1) / FLASH_BC; }

typedef struct {
    int n, d, kind;
    float *Q, *K, *V;        /* host copies */
    float *dQ, *dK, *dV, *dO, *dL;
    float *O, *L;            /* what came back */
} problem;

static void make_inputs(problem *p)
{
    int n = p->n, d = p->d;
    size_t nd = (size_t)n * d;
    float lo = p->kind == KIND_LARGE ? -16.0f : -1.0f, hi = -lo;
    pw_fill_random(p->Q, nd, ex09_seed(n, 3 * d + p->kind), lo, hi);
    pw_fill_random(p->K, nd, ex09_seed(n + 1000, 3 * d + p->kind), lo, hi);
    pw_fill_random(p->V, nd, ex09_seed(n + 2000, 3 * d + p->kind), -1.0f, 1.0f);
    if (p->kind == KIND_RISING)
        for (int i = 0; i < n; i++) {
            /* q_i . k_j ~ Q[i][0] K[j][0]: rising in j for even rows, falling for odd ones.
             * Consecutive keys differ by 63/(n-1) in K[j][0]: at n = 257 a step of the
             * logit of at least 30 x 0.25 / 4 = 1.8, so the last keys carry the weight. */
            p->Q[(size_t)i * d] = (i % 2 ? -1.0f : 1.0f) * (float)(30 + 5 * (i % 7));
            p->K[(size_t)i * d] = 64.0f - 63.0f * (float)(n - 1 - i) / (float)(n > 1 ? n - 1 : 1);
        }
}

/* Row i in double: the exact scores, and what the tolerance needs. */
typedef struct {
    double *s, *a;    /* n scores, n sums of |products| / sqrt(d) */
    double m, l;      /* the max and sum of exp(s - m) */
    double *o, *tol;  /* d outputs and their tolerances */
    double L, tolL;
    int argmax;
} row_ref;

static void reference_row(const problem *p, int i, row_ref *r)
{
    int n = p->n, d = p->d, T = tiles_of(n);
    double rs = 1.0 / sqrt((double)d);
    const float *q = p->Q + (size_t)i * d;
    r->m = -INFINITY;
    r->argmax = 0;
    double amax = 0;
    for (int j = 0; j < n; j++) {
        const float *k = p->K + (size_t)j * d;
        double dot = 0, abs = 0;
        for (int c = 0; c < d; c++) {
            dot += (double)q[c] * k[c];   /* products of floats are exact in double */
            abs += fabs((double)q[c] * k[c]);
        }
        r->s[j] = dot * rs;
        r->a[j] = abs * rs;
        if (r->s[j] > r->m) r->m = r->s[j], r->argmax = j;
        if (r->a[j] > amax) amax = r->a[j];
    }
    double E = 2 * ex09_gamma(d + 3, U) * amax, G = ex09_gamma(n + 3 * T + 2, U) + T * E_EXP;
    double rbar = 0;
    r->l = 0;
    for (int c = 0; c < d; c++) r->o[c] = r->tol[c] = 0;
    double *W = r->tol + d;   /* scratch: d more doubles */
    for (int c = 0; c < d; c++) W[c] = 0;
    for (int j = 0; j < n; j++) {
        double x = r->s[j] - r->m, w = exp(x), rho = expm1(E + 2 * E_EXP + 2 * U * fabs(x));
        r->l += w;
        rbar += w * rho;
        for (int c = 0; c < d; c++) {
            double v = p->V[(size_t)j * d + c];
            r->o[c] += w * v;
            W[c] += w * fabs(v);
            r->tol[c] += w * rho * fabs(v);   /* sum_j w_j rho_j |v| for now */
        }
    }
    rbar /= r->l;
    for (int c = 0; c < d; c++) {
        r->o[c] /= r->l;
        W[c] /= r->l;
        double weights = (r->tol[c] / r->l + rbar * W[c]) / (1 - rbar);
        r->tol[c] = 2 * (weights + (2 * G + U) * W[c]);
    }
    r->L = r->m + log(r->l);
    r->tolL = 2 * (E / 2 + rbar + G + 2 * U * fabs(log(r->l)) + U * fabs(r->L));
}

/* The usual mistakes, run on row i in double with the kernel's tiles of
 * FLASH_BC keys, to name the one the kernel made. */
enum { MISTAKE_NO_RESCALE, MISTAKE_SUM_ONLY, MISTAKE_ACC_ONLY, MISTAKE_EARLY_DIVIDE, MISTAKES };
static const char *const mistake_text[] = {
    "neither the sum l nor the output's accumulator is rescaled when the max grows: multiply both by "
    "exp(m_old - m_new) before adding a tile",
    "the sum l is rescaled when the max grows but the output's accumulator is not: every acc[c] needs the "
    "same exp(m_old - m_new)",
    "the output's accumulator is rescaled when the max grows but the sum l is not: l needs the same "
    "exp(m_old - m_new)",
    "divided by l before the last tile: l is the row's sum only after every key is in; divide once, at the end",
};

static void mistaken_row(const problem *p, const row_ref *r, int mistake, double *o)
{
    int n = p->n, d = p->d;
    double m = -INFINITY, l = 0;
    for (int c = 0; c < d; c++) o[c] = 0;
    for (int j0 = 0; j0 < n; j0 += FLASH_BC) {
        int kn = n - j0 < FLASH_BC ? n - j0 : FLASH_BC;
        double mn = m;
        for (int j = j0; j < j0 + kn; j++) mn = r->s[j] > mn ? r->s[j] : mn;
        double alpha = exp(m - mn);
        if (mistake == MISTAKE_SUM_ONLY || mistake == MISTAKE_EARLY_DIVIDE) l *= alpha;
        if (mistake == MISTAKE_ACC_ONLY || mistake == MISTAKE_EARLY_DIVIDE)
            for (int c = 0; c < d; c++) o[c] *= alpha;
        for (int j = j0; j < j0 + kn; j++) {
            double w = exp(r->s[j] - mn);
            l += w;
            for (int c = 0; c < d; c++) o[c] += w * p->V[(size_t)j * d + c];
        }
        if (mistake == MISTAKE_EARLY_DIVIDE)
            for (int c = 0; c < d; c++) o[c] /= l;   /* normalised, but without the old l put back next time */
        m = mn;
    }
    if (mistake != MISTAKE_EARLY_DIVIDE)
        for (int c = 0; c < d; c++) o[c] /= l;
}

/* Which mistake gives the kernel's row i (within 1e-3 of W, or 10 tolerances), or -1. */
static int name_mistake(const problem *p, const row_ref *r, int i)
{
    double *o = pw_alloc_doubles((size_t)p->d);
    int found = -1;
    for (int k = 0; k < MISTAKES && found < 0; k++) {
        mistaken_row(p, r, k, o);
        int same = 1;
        for (int c = 0; c < p->d && same; c++) {
            double got = p->O[(size_t)i * p->d + c];
            same = isfinite(got) && fabs(got - o[c]) <= fmax(10 * r->tol[c], 1e-3 * r->tol[c + p->d]);
        }
        if (same) found = k;
    }
    pw_free(o);
    return found;
}

/* Compare every row: 0, or 1 after saying what is wrong. */
static int compare(problem *p, int tiles_passed)
{
    int n = p->n, d = p->d;
    row_ref r;
    r.s = pw_alloc_doubles((size_t)n);
    r.a = pw_alloc_doubles((size_t)n);
    r.o = pw_alloc_doubles((size_t)d);
    r.tol = pw_alloc_doubles(2 * (size_t)d);
    int bad = 0, later_max = 0;
    double top = -INFINITY;
    for (int i = 0; i < n && !bad; i++) {
        reference_row(p, i, &r);
        if (r.argmax >= FLASH_BC) later_max++;
        if (r.m > top) top = r.m;
        int c_bad = -1;
        for (int c = 0; c < d && c_bad < 0; c++)
            if (!(fabs(p->O[(size_t)i * d + c] - r.o[c]) <= r.tol[c])) c_bad = c;
        double gotL = p->L[i];
        if (c_bad < 0 && fabs(gotL - r.L) <= r.tolL) continue;
        bad = 1;
        double got = c_bad >= 0 ? p->O[(size_t)i * d + c_bad] : gotL;
        char what[160];
        if (c_bad >= 0)
            snprintf(what, sizeof what, "O[%d][%d] = %.9g, want %.9g (tolerance %.2g)", i, c_bad, got, r.o[c_bad],
                     r.tol[c_bad]);
        else
            snprintf(what, sizeof what, "L[%d] = %.9g, want %.9g (tolerance %.2g)", i, gotL, r.L, r.tolL);
        int mistake = c_bad >= 0 ? name_mistake(p, &r, i) : -1;
        if (!isfinite(got) && r.m > 88.0f)
            pw_ex_fail("%s: not finite with logits up to %.0f: exp(s) overflows past s = 88.7; subtract the running "
                       "max first, exp(s - m) <= 1", what, r.m);
        else if (isnan(got))
            pw_ex_fail("%s: never written, or 0 / 0 (is l still 0, or a weight exp(-inf - -inf)?)", what);
        else if (mistake >= 0)
            pw_ex_fail("%s: %s", what, mistake_text[mistake]);
        else if (c_bad < 0)
            pw_ex_fail("%s: O is right, L is not: L[i] = m + log(l), the row's max plus the log of its sum", what);
        else if (tiles_passed && n % FLASH_BC)
            pw_ex_fail("%s: right on whole key tiles (n = 64), wrong with a ragged last tile: only the first "
                       "min(FLASH_BC, n - j0) rows of the last tile are keys", what);
        else
            pw_ex_fail("%s: is each score (Q[i] . K[j]) / sqrt(d), each weight exp(s - m), and O = acc / l?", what);
        if (n > FLASH_BC && r.argmax >= FLASH_BC)
            printf("  (row %d's largest score, %.4g, is key %d's, in key tile %d of %d)\n", i, r.m, r.argmax,
                   r.argmax / FLASH_BC + 1, tiles_of(n));
    }
    if (!bad)
        printf("ok (logits up to %.3g; %d of %d rows have their max past the first key tile)\n", top, later_max, n);
    pw_free(r.s);
    pw_free(r.a);
    pw_free(r.o);
    pw_free(r.tol);
    return bad;
}

static void problem_alloc(problem *p, int n, int d, int kind)
{
    size_t nd = (size_t)n * d;
    *p = (problem){ .n = n, .d = d, .kind = kind };
    p->Q = pw_alloc_floats(nd);
    p->K = pw_alloc_floats(nd);
    p->V = pw_alloc_floats(nd);
    p->O = pw_alloc_floats(nd);
    p->L = pw_alloc_floats((size_t)n);
    make_inputs(p);
    cudaMalloc((void **)&p->dQ, nd * sizeof(float));   /* exactly the matrices: a read past one is caught */
    cudaMalloc((void **)&p->dK, nd * sizeof(float));
    cudaMalloc((void **)&p->dV, nd * sizeof(float));
    cudaMalloc((void **)&p->dO, nd * sizeof(float));
    cudaMalloc((void **)&p->dL, (size_t)n * sizeof(float));
    cudaMemcpy(p->dQ, p->Q, nd * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(p->dK, p->K, nd * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(p->dV, p->V, nd * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(p->dO, 0xFF, nd * sizeof(float));   /* NaN: an element never written shows */
    cudaMemset(p->dL, 0xFF, (size_t)n * sizeof(float));
}

static void problem_free(problem *p)
{
    cudaFree(p->dQ);
    cudaFree(p->dK);
    cudaFree(p->dV);
    cudaFree(p->dO);
    cudaFree(p->dL);
    pw_free(p->Q);
    pw_free(p->K);
    pw_free(p->V);
    pw_free(p->O);
    pw_free(p->L);
}

/* Launch, and judge what the emulator saw: 0, or 1 after explaining. */
static int launch(problem *p)
{
    long reports_before = pw_simt_report_count();
    flash_launch(p->dQ, p->dK, p->dV, p->dO, p->dL, p->n, p->d);
    if (cudaGetLastError() != cudaSuccess) {
        const char *msg = pw_simt_last_error_message();
        pw_ex_fail("the kernel stopped with an error: %s", msg);
        if (strstr(msg, "synccheck"))
            printf("  every thread of the block must reach every __syncthreads(): a thread past the last row\n"
                   "  still stages its share of each tile and only skips the final store\n");
        else if (strstr(msg, "out of bounds"))
            printf("  a read past the end of K or V (or a write past O or L): the last key tile holds\n"
                   "  min(FLASH_BC, n - j0) keys, and only rows < n are stored\n");
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        const char *rep = pw_simt_last_report();
        pw_ex_fail("the emulator's checks found a problem (the result may look right by luck): %s", rep);
        if (strstr(rep, "initcheck"))
            printf("  a read of shared memory this tile did not write: only the first kn = min(FLASH_BC, n - j0)\n"
                   "  rows of Ks and Vs hold keys (the rest is garbage, or the previous tile's keys)\n");
        else if (strstr(rep, "racecheck"))
            printf("  a thread reads the tile while another still writes it, or overwrites it while another still\n"
                   "  reads it: one barrier after staging, one before the next tile\n");
        return 1;
    }
    cudaMemcpy(p->O, p->dO, (size_t)p->n * p->d * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(p->L, p->dL, (size_t)p->n * sizeof(float), cudaMemcpyDeviceToHost);
    return 0;
}

/* ---- memory and traffic ---------------------------------------------------------------- */

enum { BUF_Q, BUF_K, BUF_V, BUF_O, BUF_L, BUF_EXTRA, NBUF };
static const char *const buf_name[] = { "Q", "K", "V", "O", "L", "other" };

static int which_buf(const problem *p, uint64_t addr)
{
    const float *b[] = { p->dQ, p->dK, p->dV, p->dO, p->dL };
    size_t count[] = { (size_t)p->n * p->d, (size_t)p->n * p->d, (size_t)p->n * p->d, (size_t)p->n * p->d,
                       (size_t)p->n };
    for (int k = 0; k < BUF_EXTRA; k++)
        if (addr >= (uint64_t)(uintptr_t)b[k] && addr < (uint64_t)(uintptr_t)(b[k] + count[k])) return k;
    return BUF_EXTRA;
}

typedef struct { uint64_t lo, hi; } span;   /* the bytes [lo, hi) of one access */

static int cmp_span(const void *a, const void *b)
{
    uint64_t x = ((const span *)a)->lo, y = ((const span *)b)->lo;
    return x < y ? -1 : x > y;
}

/* How many distinct bytes the spans cover (sorts them). */
static long union_bytes(span *s, long count)
{
    qsort(s, (size_t)count, sizeof *s, cmp_span);
    long bytes = 0;
    uint64_t end = 0;
    for (long x = 0; x < count; x++) {
        uint64_t lo = s[x].lo > end ? s[x].lo : end;
        if (s[x].hi > lo) bytes += (long)(s[x].hi - lo);
        if (s[x].hi > end) end = s[x].hi;
    }
    return bytes;
}

static int memory_case(int n)
{
    int d = MEMORY_D;
    printf("  n = %3d, d = %2d: memory and traffic  ", n, d);
    problem p;
    problem_alloc(&p, n, d, KIND_SMALL);
    /* A first run counts the accesses, so that the log can hold them all. */
    pw_simt_counters_reset();
    int bad = launch(&p);
    const pw_simt_counters *c = pw_simt_total_counters();
    long cap = (long)(c->global_loads + c->global_stores + c->shared_loads + c->shared_stores + c->atomics) + 1024;
    pw_simt_access *log = bad ? NULL : pw_alloc_bytes((size_t)cap * sizeof *log);
    long logged = 0;
    if (!bad) {
        pw_simt_log_accesses(log, cap);
        bad = launch(&p);
        logged = pw_simt_access_count();
        pw_simt_log_accesses(NULL, 0);
        if (logged > cap) logged = cap;   /* not expected: the same run twice */
    }
    long long loads[NBUF] = { 0 }, stores[NBUF] = { 0 };
    span *extra = NULL;
    long nextra = 0, nextra_bytes = 0, blocks = (n + FLASH_BR - 1) / FLASH_BR, two_pass_block = -1;
    if (!bad) {
        extra = pw_alloc_bytes((size_t)(logged + 1) * sizeof *extra);   /* at most one span per access */
        long *last_k = pw_alloc_bytes((size_t)blocks * sizeof *last_k), *first_v = pw_alloc_bytes((size_t)blocks * sizeof *first_v);
        for (long b = 0; b < blocks; b++) last_k[b] = first_v[b] = -1;
        for (long x = 0; x < logged; x++) {
            const pw_simt_access *a = &log[x];
            if (a->shared) continue;
            int k = which_buf(&p, a->addr);
            if (a->store || a->atomic) stores[k] += a->bytes;
            if (!a->store) loads[k] += a->bytes;   /* an atomic both reads and writes */
            if (k == BUF_EXTRA) extra[nextra++] = (span){ a->addr, a->addr + a->bytes };
            if (a->block < (unsigned)blocks && !a->store) {
                if (k == BUF_K) last_k[a->block] = x;
                if (k == BUF_V && first_v[a->block] < 0) first_v[a->block] = x;
            }
        }
        nextra_bytes = union_bytes(extra, nextra);
        if (tiles_of(n) > 1)
            for (long b = 0; b < blocks && two_pass_block < 0; b++)
                if (last_k[b] >= 0 && first_v[b] > last_k[b]) two_pass_block = b;
        pw_free(last_k);
        pw_free(first_v);
    }
    long long nd4 = 4LL * n * d, n4 = 4LL * n;
    long long extra_traffic = loads[BUF_EXTRA] + stores[BUF_EXTRA] + loads[BUF_O] + loads[BUF_L] +
                              (loads[BUF_Q] > nd4 ? loads[BUF_Q] - nd4 : 0) +
                              (stores[BUF_O] > nd4 ? stores[BUF_O] - nd4 : 0) + (stores[BUF_L] > n4 ? stores[BUF_L] - n4 : 0);
    long long mem_bound = 2 * n4, traffic_bound = 4 * n4, naive_mem = 4LL * n * n, naive_traffic = 8LL * n * n;
    long long kv_bound = blocks * nd4;
    long long loaded = 0, stored = 0;
    for (int k = 0; k < NBUF; k++) loaded += loads[k], stored += stores[k];
    if (bad) {
    } else if (nextra_bytes > mem_bound) {
        pw_ex_fail("%ld bytes of device memory beyond Q, K, V, O and L at n = %d, more than 2 floats a row (%lld "
                   "bytes)%s", nextra_bytes, n, mem_bound,
                   nextra_bytes >= naive_mem ? ": that is an n x n matrix (the scores of naive attention); keep each tile's "
                                         "scores in registers, gone after the tile" : "");
        bad = 1;
    } else if (extra_traffic > traffic_bound) {
        pw_ex_fail("%lld bytes of traffic beyond reading Q once and writing O and L once at n = %d, more than 4 "
                   "floats a row (%lld bytes): O %lld bytes loaded, %lld stored (once: %lld); L %lld, %lld (once: %lld); "
                   "other memory %lld, %lld", extra_traffic, n, traffic_bound, loads[BUF_O], stores[BUF_O], nd4,
                   loads[BUF_L], stores[BUF_L], n4, loads[BUF_EXTRA], stores[BUF_EXTRA]);
        printf("  the state of a row (m, l and acc) belongs in registers, and O = acc / l is written once, after "
               "the last tile\n");
        bad = 1;
    } else if (loads[BUF_K] > kv_bound || loads[BUF_V] > kv_bound) {
        int kv = loads[BUF_K] > kv_bound ? BUF_K : BUF_V;
        pw_ex_fail("%s was read %.1f times per block at n = %d (%lld bytes), more than once per block of %d rows "
                   "(%ld blocks: %lld bytes)%s", buf_name[kv], (double)loads[kv] / kv_bound, n, loads[kv], FLASH_BR,
                   blocks, kv_bound,
                   loads[BUF_K] > loads[BUF_V] ? ": K more often than V, two passes over the keys (a max and a sum "
                   "first, then the weights): the online softmax needs one" :
                   ": each tile of K and V is staged in shared memory once, and every row of the block reads it there");
        bad = 1;
    } else if (two_pass_block >= 0) {
        pw_ex_fail("block %ld read all of K before any of V at n = %d (%d key tiles): that is two passes, the "
                   "scores first, then the weights; fold each tile of K and V into the row's state as it comes",
                   two_pass_block, n, tiles_of(n));
        bad = 1;
    } else {
        printf("ok\n    beyond Q, K, V, O, L: %ld bytes of memory (allowed %lld), %lld of traffic (allowed %lld)\n"
               "    loaded %lld bytes (Q %lld: once; K %lld and V %lld: once per block, %ld blocks), stored %lld (O and "
               "L once)\n    naive attention's n x n scores: %lld bytes more memory, at least %lld more traffic "
               "(written once, read once)\n", nextra_bytes, mem_bound, extra_traffic, traffic_bound, loaded, loads[BUF_Q],
               loads[BUF_K], loads[BUF_V], blocks, stored, naive_mem, naive_traffic);
    }
    pw_free(extra);
    pw_free(log);
    problem_free(&p);
    return bad;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_simt_set_quiet(true);
    size_t ncases = sizeof cases / sizeof *cases;
    printf("exercise 9.5: FlashAttention's forward pass on the emulator, %zu cases, then memory and traffic\n", ncases);
    int bad = 0, whole_tiles_ok = 0;
    for (size_t k = 0; k < ncases && !bad; k++) {
        problem p;
        problem_alloc(&p, cases[k].n, cases[k].d, cases[k].kind);
        printf("  n = %3d, d = %2d, %-6s  ", p.n, p.d, kind_name[p.kind]);
        bad = launch(&p) || compare(&p, whole_tiles_ok);
        if (!bad && p.n % FLASH_BC == 0 && p.n > FLASH_BC) whole_tiles_ok = 1;
        problem_free(&p);
    }
    for (size_t k = 0; k < sizeof memory_sizes / sizeof *memory_sizes && !bad; k++) bad = memory_case(memory_sizes[k]);
    if (bad) {
        printf("exercise 9.5 is not right yet: start with the first FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("attention within the fp32 bound (odd n, logits up to ~960), O(n) memory beyond Q, K, V, O, L, "
                      "one pass over K and V per block");
}
