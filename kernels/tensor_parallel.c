/* kernels/tensor_parallel.c: the Megatron split of a transformer block, and
 * sequence parallelism; see tensor_parallel.h for the block and the split. */
#include "tensor_parallel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

#define LN_EPS 1e-5f

size_t tp_tokens(const tp_shape *sh) { return (size_t)sh->b * (size_t)sh->s; }

int tp_shape_check(const tp_shape *sh, int t, bool seqpar, char *why, size_t len)
{
    if (sh->b < 1 || sh->s < 1 || sh->h < 1 || sh->heads < 1 || t < 1)
        snprintf(why, len, "sizes must be positive (b %d, s %d, h %d, heads %d, t %d)", sh->b, sh->s, sh->h, sh->heads, t);
    else if (sh->h % sh->heads)
        snprintf(why, len, "%d heads do not divide the hidden size %d", sh->heads, sh->h);
    else if (sh->heads % t)
        snprintf(why, len, "t = %d does not divide the %d heads: each rank takes whole heads", t, sh->heads);
    else if (seqpar && sh->s % t)
        snprintf(why, len, "t = %d does not divide the sequence of %d tokens: sequence parallelism gives each rank s/t of them", t, sh->s);
    else
        return 0;
    return 1;
}

/* ---- weights ---------------------------------------------------------------- */

size_t tp_weight_floats(const tp_shape *sh, int t) { return 12 * (size_t)sh->h * (size_t)sh->h / (size_t)t; }

void tp_weights_alloc(tp_weights *w, const tp_shape *sh, int t)
{
    size_t h = (size_t)sh->h, hl = h / (size_t)t;
    float *p = pw_alloc_floats(tp_weight_floats(sh, t));
    memset(p, 0, tp_weight_floats(sh, t) * sizeof *p);
    w->wq = p;
    w->wk = w->wq + h * hl;
    w->wv = w->wk + h * hl;
    w->wo = w->wv + h * hl;
    w->w1 = w->wo + hl * h;
    w->w2 = w->w1 + h * 4 * hl;
}

void tp_weights_free(tp_weights *w) { pw_free(w->wq); w->wq = NULL; }
float *tp_weights_flat(const tp_weights *w) { return w->wq; }

void tp_weights_init(tp_weights *full, const tp_shape *sh, unsigned long long seed)
{
    size_t h = (size_t)sh->h;
    float a = 1.0f / sqrtf((float)h), a4 = 1.0f / sqrtf(4.0f * (float)h);
    pw_fill_random(full->wq, h * h, seed + 1, -a, a);
    pw_fill_random(full->wk, h * h, seed + 2, -a, a);
    pw_fill_random(full->wv, h * h, seed + 3, -a, a);
    pw_fill_random(full->wo, h * h, seed + 4, -a, a);
    pw_fill_random(full->w1, h * 4 * h, seed + 5, -a, a);
    pw_fill_random(full->w2, 4 * h * h, seed + 6, -a4, a4);
}

/* Columns [c0, c0 + cw) of a rows x cols matrix <-> a rows x cw one. */
static void cols_copy(float *part, float *full, size_t rows, size_t cols, size_t c0, size_t cw, bool to_part)
{
    for (size_t i = 0; i < rows; i++) {
        if (to_part) memcpy(part + i * cw, full + i * cols + c0, cw * sizeof *part);
        else memcpy(full + i * cols + c0, part + i * cw, cw * sizeof *part);
    }
}

static void slice(const tp_shape *sh, tp_weights *full, tp_weights *part, int t, int r, bool to_part)
{
    size_t h = (size_t)sh->h, hl = h / (size_t)t, fl = 4 * hl;
    cols_copy(part->wq, full->wq, h, h, (size_t)r * hl, hl, to_part);
    cols_copy(part->wk, full->wk, h, h, (size_t)r * hl, hl, to_part);
    cols_copy(part->wv, full->wv, h, h, (size_t)r * hl, hl, to_part);
    cols_copy(part->w1, full->w1, h, 4 * h, (size_t)r * fl, fl, to_part);
    /* row slices are contiguous */
    if (to_part) {
        memcpy(part->wo, full->wo + (size_t)r * hl * h, hl * h * sizeof(float));
        memcpy(part->w2, full->w2 + (size_t)r * fl * h, fl * h * sizeof(float));
    } else {
        memcpy(full->wo + (size_t)r * hl * h, part->wo, hl * h * sizeof(float));
        memcpy(full->w2 + (size_t)r * fl * h, part->w2, fl * h * sizeof(float));
    }
}

void tp_weights_slice(const tp_shape *sh, const tp_weights *full, int t, int r, tp_weights *part)
{
    slice(sh, (tp_weights *)full, part, t, r, true);
}

void tp_weights_unslice(const tp_shape *sh, const tp_weights *part, int t, int r, tp_weights *full)
{
    slice(sh, full, (tp_weights *)part, t, r, false);
}

void tp_seq_rows(const tp_shape *sh, int t, int r, size_t *first, size_t *count)
{
    size_t nh = tp_tokens(sh) * (size_t)sh->h;
    int k = coll_rs_owned_chunk(r, t);
    *first = coll_chunk_begin(nh, t, k) / (size_t)sh->h;
    *count = coll_chunk_begin(nh, t, k + 1) / (size_t)sh->h - *first;
}

/* ---- the pieces ------------------------------------------------------------ */

/* C (m x n) = A (m x k) B (k x n), row-major. */
static void mm(const float *a, const float *b, float *c, size_t m, size_t k, size_t n)
{
    memset(c, 0, m * n * sizeof *c);
    for (size_t i = 0; i < m; i++)
        for (size_t p = 0; p < k; p++) {
            float aip = a[i * k + p];
            for (size_t j = 0; j < n; j++) c[i * n + j] += aip * b[p * n + j];
        }
}

/* C (k x n) = A^T B, A m x k, B m x n: a weight's gradient. */
static void mm_tn(const float *a, const float *b, float *c, size_t m, size_t k, size_t n)
{
    memset(c, 0, k * n * sizeof *c);
    for (size_t i = 0; i < m; i++)
        for (size_t p = 0; p < k; p++) {
            float aip = a[i * k + p];
            for (size_t j = 0; j < n; j++) c[p * n + j] += aip * b[i * n + j];
        }
}

/* C (m x k) += A B^T, A m x n, B k x n: an input's gradient (accumulates,
 * for the three of Q, K, V). */
static void mm_nt_acc(const float *a, const float *b, float *c, size_t m, size_t n, size_t k)
{
    for (size_t i = 0; i < m; i++)
        for (size_t p = 0; p < k; p++) {
            float s = 0;
            for (size_t j = 0; j < n; j++) s += a[i * n + j] * b[p * n + j];
            c[i * k + p] += s;
        }
}

/* Layer norm of each row (no scale, no shift). */
static void ln_forward(const float *x, float *y, size_t rows, size_t h)
{
    for (size_t i = 0; i < rows; i++) {
        const float *xi = x + i * h;
        float mu = 0, var = 0;
        for (size_t j = 0; j < h; j++) mu += xi[j];
        mu /= (float)h;
        for (size_t j = 0; j < h; j++) var += (xi[j] - mu) * (xi[j] - mu);
        float rstd = 1.0f / sqrtf(var / (float)h + LN_EPS);
        for (size_t j = 0; j < h; j++) y[i * h + j] = (xi[j] - mu) * rstd;
    }
}

/* dx += LN'(x) dy, recomputing mean and deviation from the stored input:
 * dx = rstd (dy - mean(dy) - xhat mean(dy xhat)). */
static void ln_backward_acc(const float *x, const float *dy, float *dx, size_t rows, size_t h)
{
    for (size_t i = 0; i < rows; i++) {
        const float *xi = x + i * h, *gi = dy + i * h;
        float mu = 0, var = 0;
        for (size_t j = 0; j < h; j++) mu += xi[j];
        mu /= (float)h;
        for (size_t j = 0; j < h; j++) var += (xi[j] - mu) * (xi[j] - mu);
        float rstd = 1.0f / sqrtf(var / (float)h + LN_EPS), mg = 0, mgx = 0;
        for (size_t j = 0; j < h; j++) {
            mg += gi[j];
            mgx += gi[j] * (xi[j] - mu) * rstd;
        }
        mg /= (float)h;
        mgx /= (float)h;
        for (size_t j = 0; j < h; j++) dx[i * h + j] += rstd * (gi[j] - mg - (xi[j] - mu) * rstd * mgx);
    }
}

/* GeLU, the tanh form GPT-2 uses (Hendrycks and Gimpel 2016). */
#define GELU_C 0.7978845608f  /* sqrt(2/pi) */
static float gelu(float z) { return 0.5f * z * (1.0f + tanhf(GELU_C * (z + 0.044715f * z * z * z))); }
static float gelu_grad(float z)
{
    float u = GELU_C * (z + 0.044715f * z * z * z), th = tanhf(u);
    return 0.5f * (1.0f + th) + 0.5f * z * (1.0f - th * th) * GELU_C * (1.0f + 3 * 0.044715f * z * z);
}

/* Causal attention of nh heads of d (Q, K, V: n x nh d, token (i, j) at row
 * i b + j). P (nh x b x s x s, zero above the diagonal) kept for backward. */
static void attn_forward(const float *q, const float *k, const float *v, float *p, float *o,
                         int b, int s, int nh, int d)
{
    size_t w = (size_t)nh * (size_t)d;
    float scale = 1.0f / sqrtf((float)d);
    for (int hd = 0; hd < nh; hd++)
        for (int j = 0; j < b; j++)
            for (int i = 0; i < s; i++) {
                float *pi = p + (((size_t)hd * b + j) * s + i) * s;
                const float *qi = q + ((size_t)i * b + j) * w + (size_t)hd * d;
                float mx = -INFINITY, sum = 0;
                for (int l = 0; l < s; l++) {
                    if (l > i) { pi[l] = 0; continue; }
                    const float *kl = k + ((size_t)l * b + j) * w + (size_t)hd * d;
                    float dot = 0;
                    for (int e = 0; e < d; e++) dot += qi[e] * kl[e];
                    pi[l] = dot * scale;
                    if (pi[l] > mx) mx = pi[l];
                }
                for (int l = 0; l <= i; l++) sum += pi[l] = expf(pi[l] - mx);
                for (int l = 0; l <= i; l++) pi[l] /= sum;
                float *oi = o + ((size_t)i * b + j) * w + (size_t)hd * d;
                for (int e = 0; e < d; e++) oi[e] = 0;
                for (int l = 0; l <= i; l++) {
                    const float *vl = v + ((size_t)l * b + j) * w + (size_t)hd * d;
                    for (int e = 0; e < d; e++) oi[e] += pi[l] * vl[e];
                }
            }
}

/* dQ, dK, dV (overwritten) from dO. dS = P (dP - sum_l P dP). */
static void attn_backward(const float *q, const float *k, const float *v, const float *p, const float *dout,
                          float *dq, float *dk, float *dv, int b, int s, int nh, int d)
{
    size_t w = (size_t)nh * (size_t)d, n = (size_t)b * (size_t)s;
    float scale = 1.0f / sqrtf((float)d);
    memset(dq, 0, n * w * sizeof *dq);
    memset(dk, 0, n * w * sizeof *dk);
    memset(dv, 0, n * w * sizeof *dv);
    float *dp = pw_alloc_floats((size_t)s);   /* dL/dP of one row */
    for (int hd = 0; hd < nh; hd++)
        for (int j = 0; j < b; j++)
            for (int i = 0; i < s; i++) {
                const float *pi = p + (((size_t)hd * b + j) * s + i) * s;
                size_t ri = ((size_t)i * b + j) * w + (size_t)hd * d;
                float dot = 0;
                for (int l = 0; l <= i; l++) {
                    size_t rl = ((size_t)l * b + j) * w + (size_t)hd * d;
                    float g = 0;
                    for (int e = 0; e < d; e++) {
                        g += dout[ri + e] * v[rl + e];
                        dv[rl + e] += pi[l] * dout[ri + e];
                    }
                    dp[l] = g;
                    dot += pi[l] * g;
                }
                for (int l = 0; l <= i; l++) {
                    size_t rl = ((size_t)l * b + j) * w + (size_t)hd * d;
                    float ds = pi[l] * (dp[l] - dot) * scale;
                    for (int e = 0; e < d; e++) {
                        dq[ri + e] += ds * k[rl + e];
                        dk[rl + e] += ds * q[ri + e];
                    }
                }
            }
    pw_free(dp);
}

/* ---- flops, bytes, memory ----------------------------------------------------- */

/* Forward matmuls of one rank: Q, K, V 3 x 2 n h (h/t); scores and P V
 * 2 x 2 b s^2 (h/t); Wo 2 n (h/t) h; W1 and W2 2 x 2 n h (4h/t). */
static double flops_attn_fwd(const tp_shape *sh, int t)
{
    double n = (double)tp_tokens(sh), h = sh->h, hl = h / t;
    return 6 * n * h * hl + 4.0 * sh->b * (double)sh->s * sh->s * hl + 2 * n * hl * h;
}
static double flops_mlp_fwd(const tp_shape *sh, int t)
{
    double n = (double)tp_tokens(sh), h = sh->h;
    return 4 * n * h * (4 * h / t);
}
double tp_flops_forward(const tp_shape *sh, int t) { return flops_attn_fwd(sh, t) + flops_mlp_fwd(sh, t); }
double tp_flops_backward(const tp_shape *sh, int t) { return 2 * tp_flops_forward(sh, t); }

double tp_comm_bytes(const tp_shape *sh, int t, bool seqpar)
{
    double nh4 = 4.0 * (double)tp_tokens(sh) * sh->h;
    return (seqpar ? 10.0 : 8.0) * (t - 1) * nh4 / t;    /* one division: exact when t divides n h */
}

double tp_stash_bytes(const tp_shape *sh, int t, bool seqpar)
{
    double nh = (double)tp_tokens(sh) * sh->h;
    return nh * ((seqpar ? 16.0 / t : 16.0) + 48.0 / t) + 4.0 * sh->heads * sh->b * (double)sh->s * sh->s / t;
}

double tp_paper_activation_bytes(const tp_shape *sh, int t, bool seqpar)
{
    double sbh = (double)tp_tokens(sh) * sh->h, as_h = (double)sh->heads * sh->s / sh->h;
    return seqpar ? sbh * (34.0 + 5 * as_h) / t : sbh * (10.0 + 24.0 / t + 5 * as_h / t);
}

/* ---- the block on one rank ------------------------------------------------------ */

/* What the forward pass keeps. */
typedef struct {
    float *x, *l1;        /* block input and LN1 out: n x h, or the rank's rows with SP */
    float *q, *k, *v, *o; /* n x h/t */
    float *p;             /* heads/t x b x s x s */
    float *x2, *l2;       /* LN2 in and out: like x */
    float *z, *g;         /* W1 out, GeLU out: n x 4h/t */
} stash;

/* Full n x h buffer from this rank's rows (SP): all-gather along the sequence. */
static void gather_rows(pw_comm *c, const float *mine, float *full, size_t r0, size_t rows, size_t n, size_t h)
{
    memcpy(full + r0 * h, mine, rows * h * sizeof *full);
    coll_allgather_ring(c, full, n * h);
}

void tp_block_rank(pw_comm *c, tp_rank_io *io)
{
    const tp_shape *sh = &io->shape;
    int t = c->size;
    size_t n = tp_tokens(sh), h = (size_t)sh->h, hl = h / (size_t)t, fl = 4 * hl;
    int nh = sh->heads / t, d = sh->h / sh->heads;
    bool sp = io->seqpar;
    size_t r0 = 0, rows = n;                  /* the tokens whose LN and residual this rank computes */
    if (sp) tp_seq_rows(sh, t, c->rank, &r0, &rows);
    const tp_weights *w = io->w;

    stash st;
    size_t kept = 4 * rows * h + 4 * n * hl + (size_t)nh * sh->b * sh->s * sh->s + 2 * n * fl;
    io->stash_bytes = (double)kept * sizeof(float);
    float *keep = pw_alloc_floats(kept);
    st.x = keep;             st.l1 = st.x + rows * h;
    st.x2 = st.l1 + rows * h; st.l2 = st.x2 + rows * h;
    st.q = st.l2 + rows * h;  st.k = st.q + n * hl; st.v = st.k + n * hl; st.o = st.v + n * hl;
    st.z = st.o + n * hl;     st.g = st.z + n * fl;
    st.p = st.g + n * fl;
    float *full = pw_alloc_floats(n * h);     /* a whole n x h activation: partial sums, gathers */
    float *l1 = sp ? full : st.l1;

    /* ---- forward ---- */
    memcpy(st.x, io->x + r0 * h, rows * h * sizeof(float));
    ln_forward(st.x, st.l1, rows, h);
    if (sp) gather_rows(c, st.l1, full, r0, rows, n, h);                  /* g-bar: all-gather */
    mm(l1, w->wq, st.q, n, h, hl);
    mm(l1, w->wk, st.k, n, h, hl);
    mm(l1, w->wv, st.v, n, h, hl);
    attn_forward(st.q, st.k, st.v, st.p, st.o, sh->b, sh->s, nh, d);
    mm(st.o, w->wo, full, n, hl, h);                                      /* partial: this rank's heads */
    coll_compute(c, flops_attn_fwd(sh, t), "F");
    if (sp) coll_reduce_scatter_ring(c, full, n * h);                     /* g: the sum, for my tokens */
    else coll_allreduce_ring(c, full, n * h);                             /* g: the sum, everywhere */
    for (size_t i = 0; i < rows * h; i++) st.x2[i] = st.x[i] + full[r0 * h + i];
    ln_forward(st.x2, st.l2, rows, h);
    float *l2 = st.l2;
    if (sp) { gather_rows(c, st.l2, full, r0, rows, n, h); l2 = full; }
    mm(l2, w->w1, st.z, n, h, fl);
    for (size_t i = 0; i < n * fl; i++) st.g[i] = gelu(st.z[i]);
    float *m = pw_alloc_floats(n * h);
    mm(st.g, w->w2, m, n, fl, h);                                         /* partial: this rank's columns */
    coll_compute(c, flops_mlp_fwd(sh, t), "F");
    if (sp) coll_reduce_scatter_ring(c, m, n * h);
    else coll_allreduce_ring(c, m, n * h);
    for (size_t i = 0; i < rows * h; i++) io->y[r0 * h + i] = st.x2[i] + m[r0 * h + i];

    /* ---- backward: MLP ---- */
    float *dm = m;                                                        /* dL/dM = dL/dY, whole */
    if (sp) gather_rows(c, io->dy + r0 * h, dm, r0, rows, n, h);          /* backward of the reduce-scatter */
    else memcpy(dm, io->dy, n * h * sizeof(float));
    float *dz = pw_alloc_floats(n * fl);
    mm_tn(st.g, dm, io->dw->w2, n, fl, h);
    memset(dz, 0, n * fl * sizeof *dz);
    mm_nt_acc(dm, w->w2, dz, n, h, fl);                                   /* dG */
    for (size_t i = 0; i < n * fl; i++) dz[i] *= gelu_grad(st.z[i]);
    if (sp) gather_rows(c, st.l2, full, r0, rows, n, h);                  /* LN2 out again, not kept whole */
    mm_tn(l2, dz, io->dw->w1, n, h, fl);
    float *dl = m;                                                        /* dL/dL2, partial over ranks */
    memset(dl, 0, n * h * sizeof *dl);
    mm_nt_acc(dz, w->w1, dl, n, fl, h);
    coll_compute(c, 2 * flops_mlp_fwd(sh, t), "B");
    if (sp) coll_reduce_scatter_ring(c, dl, n * h);                       /* f-bar backward */
    else coll_allreduce_ring(c, dl, n * h);                               /* f backward: sum over column slices */
    float *dx2 = pw_alloc_floats(rows * h);
    memcpy(dx2, io->dy + r0 * h, rows * h * sizeof(float));               /* the residual */
    ln_backward_acc(st.x2, dl + r0 * h, dx2, rows, h);

    /* ---- backward: attention ---- */
    float *da = dl;                                                       /* dL/d(O Wo), whole */
    if (sp) gather_rows(c, dx2, da, r0, rows, n, h);
    else memcpy(da, dx2, n * h * sizeof(float));
    float *dq = pw_alloc_floats(3 * n * hl), *dk = dq + n * hl, *dv = dk + n * hl;
    float *dout = dz;                                                     /* n x h/t fits in n x 4h/t */
    mm_tn(st.o, da, io->dw->wo, n, hl, h);
    memset(dout, 0, n * hl * sizeof *dout);
    mm_nt_acc(da, w->wo, dout, n, h, hl);
    attn_backward(st.q, st.k, st.v, st.p, dout, dq, dk, dv, sh->b, sh->s, nh, d);
    if (sp) gather_rows(c, st.l1, full, r0, rows, n, h);                  /* LN1 out again */
    mm_tn(l1, dq, io->dw->wq, n, h, hl);
    mm_tn(l1, dk, io->dw->wk, n, h, hl);
    mm_tn(l1, dv, io->dw->wv, n, h, hl);
    memset(dl, 0, n * h * sizeof *dl);
    mm_nt_acc(dq, w->wq, dl, n, hl, h);
    mm_nt_acc(dk, w->wk, dl, n, hl, h);
    mm_nt_acc(dv, w->wv, dl, n, hl, h);
    coll_compute(c, 2 * flops_attn_fwd(sh, t), "B");
    if (sp) coll_reduce_scatter_ring(c, dl, n * h);
    else coll_allreduce_ring(c, dl, n * h);
    memcpy(io->dx + r0 * h, dx2, rows * h * sizeof(float));
    ln_backward_acc(st.x, dl + r0 * h, io->dx + r0 * h, rows, h);

    pw_free(dq);
    pw_free(dx2);
    pw_free(dz);
    pw_free(m);
    pw_free(full);
    pw_free(keep);
}

void tp_block_model(pw_comm *c, const tp_shape *sh, bool seqpar)
{
    int t = c->size;
    size_t nh = tp_tokens(sh) * (size_t)sh->h;
    void (*reduce)(pw_comm *, float *, size_t) = seqpar ? coll_reduce_scatter_ring : coll_allreduce_ring;
    if (seqpar) coll_allgather_ring(c, NULL, nh);
    coll_compute(c, flops_attn_fwd(sh, t), "F");
    reduce(c, NULL, nh);
    if (seqpar) coll_allgather_ring(c, NULL, nh);
    coll_compute(c, flops_mlp_fwd(sh, t), "F");
    reduce(c, NULL, nh);
    if (seqpar) coll_allgather_ring(c, NULL, nh);       /* dY */
    if (seqpar) coll_allgather_ring(c, NULL, nh);       /* LN2 out again */
    coll_compute(c, 2 * flops_mlp_fwd(sh, t), "B");
    reduce(c, NULL, nh);
    if (seqpar) coll_allgather_ring(c, NULL, nh);       /* dX2 */
    if (seqpar) coll_allgather_ring(c, NULL, nh);       /* LN1 out again */
    coll_compute(c, 2 * flops_attn_fwd(sh, t), "B");
    reduce(c, NULL, nh);
}

/* ---- the unsplit block ------------------------------------------------------------ */

static void reference(const tp_shape *sh, const tp_weights *wf, const float *x, const float *dy,
                      float *y, float *dx, tp_weights *dw)
{
    size_t n = tp_tokens(sh), h = (size_t)sh->h, f = 4 * h;
    int d = sh->h / sh->heads;
    float *l1 = pw_alloc_floats(n * h), *q = pw_alloc_floats(n * h), *k = pw_alloc_floats(n * h),
          *v = pw_alloc_floats(n * h), *o = pw_alloc_floats(n * h), *a = pw_alloc_floats(n * h),
          *x2 = pw_alloc_floats(n * h), *l2 = pw_alloc_floats(n * h), *z = pw_alloc_floats(n * f),
          *g = pw_alloc_floats(n * f), *m = pw_alloc_floats(n * h);
    float *p = pw_alloc_floats((size_t)sh->heads * sh->b * sh->s * sh->s);
    ln_forward(x, l1, n, h);
    mm(l1, wf->wq, q, n, h, h);
    mm(l1, wf->wk, k, n, h, h);
    mm(l1, wf->wv, v, n, h, h);
    attn_forward(q, k, v, p, o, sh->b, sh->s, sh->heads, d);
    mm(o, wf->wo, a, n, h, h);
    for (size_t i = 0; i < n * h; i++) x2[i] = x[i] + a[i];
    ln_forward(x2, l2, n, h);
    mm(l2, wf->w1, z, n, h, f);
    for (size_t i = 0; i < n * f; i++) g[i] = gelu(z[i]);
    mm(g, wf->w2, m, n, f, h);
    for (size_t i = 0; i < n * h; i++) y[i] = x2[i] + m[i];
    if (dy) {
        float *dz = pw_alloc_floats(n * f), *dl = a, *dx2 = m, *dq = z, *dk = z + n * h, *dv = z + 2 * n * h, *dout = g;
        mm_tn(g, dy, dw->w2, n, f, h);
        memset(dz, 0, n * f * sizeof *dz);
        mm_nt_acc(dy, wf->w2, dz, n, h, f);
        for (size_t i = 0; i < n * f; i++) dz[i] *= gelu_grad(z[i]);
        mm_tn(l2, dz, dw->w1, n, h, f);
        memset(dl, 0, n * h * sizeof *dl);
        mm_nt_acc(dz, wf->w1, dl, n, f, h);
        memcpy(dx2, dy, n * h * sizeof *dx2);
        ln_backward_acc(x2, dl, dx2, n, h);
        mm_tn(o, dx2, dw->wo, n, h, h);
        memset(dout, 0, n * h * sizeof *dout);
        mm_nt_acc(dx2, wf->wo, dout, n, h, h);
        attn_backward(q, k, v, p, dout, dq, dk, dv, sh->b, sh->s, sh->heads, d);
        mm_tn(l1, dq, dw->wq, n, h, h);
        mm_tn(l1, dk, dw->wk, n, h, h);
        mm_tn(l1, dv, dw->wv, n, h, h);
        memset(dl, 0, n * h * sizeof *dl);
        mm_nt_acc(dq, wf->wq, dl, n, h, h);
        mm_nt_acc(dk, wf->wk, dl, n, h, h);
        mm_nt_acc(dv, wf->wv, dl, n, h, h);
        memcpy(dx, dx2, n * h * sizeof *dx);
        ln_backward_acc(x, dl, dx, n, h);
        pw_free(dz);
    }
    float *all[] = { l1, q, k, v, o, a, x2, l2, z, g, m, p };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) pw_free(all[i]);
}

void tp_block_reference(const tp_shape *sh, const tp_weights *full, const float *x, const float *dy,
                        float *y, float *dx, tp_weights *dw)
{
    reference(sh, full, x, dy, y, dx, dw);
}

void tp_block_forward_reference(const tp_shape *sh, const tp_weights *full, const float *x, float *y)
{
    reference(sh, full, x, NULL, y, NULL, NULL);
}
