/* kernels/pipeline.c: the layer stack, the four schedules, the executor and
 * the trace's bubble (pipeline.h explains each). Loops are written for
 * clarity: the lesson is who works when, not the speed of one layer. */
#include "pipeline.h"
#include "collectives.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the model ------------------------------------------------------------------ */

size_t pipe_layer_offset(const pipe_model *md, int l)
{
    size_t off = 0;
    for (int i = 0; i < l; i++) off += (size_t)md->dims[i + 1] * (size_t)(md->dims[i] + 1);
    return off;
}

size_t pipe_nparams(const pipe_model *md) { return pipe_layer_offset(md, md->layers); }

double pipe_layer_flops(const pipe_model *md, int l)
{
    return 2.0 * md->batch * (double)md->dims[l] * md->dims[l + 1];
}

void pipe_init(const pipe_model *md, float *w, uint64_t seed)
{
    for (int l = 0; l < md->layers; l++) {
        int din = md->dims[l], dout = md->dims[l + 1];
        float *W = w + pipe_layer_offset(md, l);
        /* 1/sqrt(fan-in) keeps the activations of a deep stack of the same order */
        float s = 1.0f / sqrtf((float)din);
        pw_fill_random(W, (size_t)din * dout, seed + (uint64_t)l, -s, s);
        pw_fill_random(W + (size_t)din * dout, (size_t)dout, seed + 1000 + (uint64_t)l, -0.1f, 0.1f);
    }
}

void pipe_make_data(const pipe_model *md, size_t count, uint64_t seed, float *x, float *y)
{
    pw_fill_random(x, count * (size_t)md->dims[0], seed, -1, 1);
    pw_fill_random(y, count * (size_t)md->dims[md->layers], seed + 1, -1, 1);
}

void pipe_layer_forward(const pipe_model *md, int l, const float *w, const float *in, float *out, int n)
{
    int din = md->dims[l], dout = md->dims[l + 1];
    const float *W = w + pipe_layer_offset(md, l), *b = W + (size_t)din * dout;
    bool relu = l < md->layers - 1;
    for (int s = 0; s < n; s++)
        for (int i = 0; i < dout; i++) {
            float z = b[i];
            for (int j = 0; j < din; j++) z += W[(size_t)i * din + j] * in[(size_t)s * din + j];
            out[(size_t)s * dout + i] = relu && z < 0 ? 0 : z;
        }
}

void pipe_layer_input_grad(const pipe_model *md, int l, const float *w, const float *out, const float *dout,
                           float *dz, float *din, int n)
{
    int di = md->dims[l], dn = md->dims[l + 1];
    const float *W = w + pipe_layer_offset(md, l);
    bool relu = l < md->layers - 1;
    for (int s = 0; s < n; s++) {
        for (int i = 0; i < dn; i++) {
            size_t k = (size_t)s * dn + i;
            dz[k] = relu && out[k] <= 0 ? 0 : dout[k];   /* ReLU passes the gradient where it passed the value */
        }
        for (int j = 0; j < di; j++) {
            float g = 0;
            for (int i = 0; i < dn; i++) g += W[(size_t)i * di + j] * dz[(size_t)s * dn + i];
            din[(size_t)s * di + j] = g;
        }
    }
}

void pipe_layer_weight_grad(const pipe_model *md, int l, const float *in, const float *dz, float *grad, int n)
{
    int di = md->dims[l], dn = md->dims[l + 1];
    float *gW = grad + pipe_layer_offset(md, l), *gb = gW + (size_t)di * dn;
    /* samples in order, so any split into micro-batches adds the same
     * numbers in the same order as the whole batch at once */
    for (int s = 0; s < n; s++)
        for (int i = 0; i < dn; i++) {
            float d = dz[(size_t)s * dn + i];
            for (int j = 0; j < di; j++) gW[(size_t)i * di + j] += d * in[(size_t)s * di + j];
            gb[i] += d;
        }
}

static int max_dim(const pipe_model *md)
{
    int d = 0;
    for (int l = 0; l <= md->layers; l++) d = md->dims[l] > d ? md->dims[l] : d;
    return d;
}

double pipe_reference(const pipe_model *md, const float *w, const float *x, const float *y, size_t count,
                      float *grad)
{
    int L = md->layers, n = (int)count;
    size_t off = 0, *aoff = malloc((size_t)(L + 2) * sizeof *aoff);
    for (int l = 0; l <= L; l++) { aoff[l] = off; off += count * (size_t)md->dims[l]; }
    float *a = pw_alloc_floats(off), *d1 = pw_alloc_floats(count * (size_t)max_dim(md)),
          *d2 = pw_alloc_floats(count * (size_t)max_dim(md)), *dz = pw_alloc_floats(count * (size_t)max_dim(md));
    memcpy(a, x, count * (size_t)md->dims[0] * sizeof *a);
    for (int l = 0; l < L; l++) pipe_layer_forward(md, l, w, a + aoff[l], a + aoff[l + 1], n);
    double loss = 0;
    int dL = md->dims[L];
    for (size_t k = 0; k < count * (size_t)dL; k++) {
        float e = a[aoff[L] + k] - y[k];
        d1[k] = e;
        loss += 0.5 * (double)e * e;
    }
    memset(grad, 0, pipe_nparams(md) * sizeof *grad);
    for (int l = L - 1; l >= 0; l--) {
        pipe_layer_input_grad(md, l, w, a + aoff[l + 1], d1, dz, d2, n);
        pipe_layer_weight_grad(md, l, a + aoff[l], dz, grad, n);
        float *t = d1; d1 = d2; d2 = t;
    }
    pw_free(a); pw_free(d1); pw_free(d2); pw_free(dz);
    free(aoff);
    return loss;
}

/* ---- schedules -------------------------------------------------------------------- */

int pipe_nsteps(int m, int v, bool split) { return split ? 3 * m : 2 * m * v; }

static pipe_step step(int kind, int mb, int chunk) { return (pipe_step){ kind, mb, chunk }; }

/* GPipe: every forward, then every backward (in the order the gradients
 * arrive: micro-batch 0 first). m micro-batches stored at the peak. */
int pipe_order_gpipe(int rank, int p, int m, int v, pipe_step *out)
{
    (void)rank; (void)p; (void)v;
    int n = 0;
    for (int i = 0; i < m; i++) out[n++] = step(PIPE_F, i, 0);
    for (int i = 0; i < m; i++) out[n++] = step(PIPE_B, i, 0);
    return n;
}

/* 1F1B: p - rank - 1 forwards to fill the pipe, then one forward and one
 * backward in turn, then the backwards left. Rank r never stores more than
 * p - r micro-batches: the forward of micro-batch i + p - r waits for the
 * backward of i. */
int pipe_order_1f1b(int rank, int p, int m, int v, pipe_step *out)
{
    (void)v;
    int warm = p - rank - 1 < m ? p - rank - 1 : m, n = 0, f = 0, b = 0;
    while (f < warm) out[n++] = step(PIPE_F, f++, 0);
    while (f < m) { out[n++] = step(PIPE_F, f++, 0); out[n++] = step(PIPE_B, b++, 0); }
    while (b < m) out[n++] = step(PIPE_B, b++, 0);
    return n;
}

/* Megatron-LM's interleaved order (schedules.py,
 * forward_backward_pipelining_with_interleaving): the k-th forward of a rank
 * is micro-batch (k / pv) p + k % p on chunk (k % pv) / p: p micro-batches
 * through chunk 0, the same p through chunk 1, ...; backwards the same with
 * the chunks reversed. Warm-up: 2(p - r - 1) + (v - 1) p forwards (all of
 * them when m = p), then one forward and one backward in turn. */
static pipe_step interleaved_step(int k, int p, int v, bool forward)
{
    int in_group = k % (p * v), chunk = in_group / p;
    if (!forward) chunk = v - 1 - chunk;
    return step(forward ? PIPE_F : PIPE_B, (k / (p * v)) * p + k % p, chunk);
}

int pipe_order_interleaved(int rank, int p, int m, int v, pipe_step *out)
{
    int total = m * v, warm = m == p ? total : 2 * (p - rank - 1) + (v - 1) * p, n = 0, f = 0, b = 0;
    if (warm > total) warm = total;
    while (f < warm) out[n++] = interleaved_step(f++, p, v, true);
    while (f < total) { out[n++] = interleaved_step(f++, p, v, true); out[n++] = interleaved_step(b++, p, v, false); }
    while (b < total) out[n++] = interleaved_step(b++, p, v, false);
    return n;
}

/* ZB-H1, derived by playing the pipeline in unit time (T_F = T_B = T_W = 1)
 * on every stage at once and keeping this rank's choices. At each tick a
 * free stage runs
 *   a B if one is ready: it feeds the stage before (the critical path);
 *   else an F if one is ready, fewer than p - s micro-batches wait for
 *     their B (1F1B's in-flight count) and fewer than p wait for their W;
 *   else a W: nobody waits for a W, so it fills what would be idle time.
 * Qi et al. get ZB-H1 by moving 1F1B's W passes into its bubbles; this play
 * reaches their idle time, (p-1) T_F per stage, for m >= p (the chapter's
 * tests assert it for p = 2..8, m = p..32), in O(p m) ticks. For m < p the
 * last stage runs F,B pairs (a B always goes first), so the last
 * micro-batch's B leaves it at (p - 1 + 2m) T, then p - 1 more B and a W:
 * span (2p + 2m - 1) T, bubble (2p - m - 1)/(2p + 2m - 1). */
int pipe_order_zbh1(int rank, int p, int m, int v, pipe_step *out)
{
    (void)v;
    /* done[kind][stage][mb]: the tick at whose end it finished, -1 not yet */
    int *done = malloc((size_t)3 * p * m * sizeof *done);
    int *nf = calloc((size_t)p, sizeof *nf), *nb = calloc((size_t)p, sizeof *nb), *nw = calloc((size_t)p, sizeof *nw);
    for (int i = 0; i < 3 * p * m; i++) done[i] = -1;
#define DONE(k, s, i) done[((k) * p + (s)) * m + (i)]
    int n = 0, finished = 0;
    for (int t = 0; finished < p && t < 8 * (3 * m + p); t++) {
        for (int s = 0; s < p; s++) {
            if (nw[s] == m) continue;
            int i;
            if ((i = nb[s]) < nf[s] && (s == p - 1 ? DONE(PIPE_F, s, i) : DONE(PIPE_B, s + 1, i)) >= 0
                && (s == p - 1 ? DONE(PIPE_F, s, i) : DONE(PIPE_B, s + 1, i)) <= t) {
                DONE(PIPE_B, s, i) = t + 1; nb[s]++;
                if (s == rank) out[n++] = step(PIPE_B, i, 0);
            } else if ((i = nf[s]) < m && nf[s] - nb[s] < p - s && nb[s] - nw[s] < p
                       && (s == 0 || (DONE(PIPE_F, s - 1, i) >= 0 && DONE(PIPE_F, s - 1, i) <= t))) {
                DONE(PIPE_F, s, i) = t + 1; nf[s]++;
                if (s == rank) out[n++] = step(PIPE_F, i, 0);
            } else if ((i = nw[s]) < nb[s] && DONE(PIPE_B, s, i) <= t) {
                DONE(PIPE_W, s, i) = t + 1; nw[s]++;
                if (s == rank) out[n++] = step(PIPE_W, i, 0);
                finished += nw[s] == m;
            }
        }
    }
#undef DONE
    free(done); free(nf); free(nb); free(nw);
    return n;
}

const pipe_schedule pipe_schedules[] = {
    { "gpipe", pipe_order_gpipe, false, false },
    { "1f1b", pipe_order_1f1b, false, false },
    { "interleaved", pipe_order_interleaved, false, true },
    { "zbh1", pipe_order_zbh1, true, false },
};
const int pipe_nschedules = (int)(sizeof pipe_schedules / sizeof pipe_schedules[0]);

const pipe_schedule *pipe_schedule_named(const char *name)
{
    for (int i = 0; i < pipe_nschedules; i++)
        if (strcmp(pipe_schedules[i].name, name) == 0) return &pipe_schedules[i];
    return NULL;
}

const char *pipe_refuses(const pipe_schedule *s, int p, int m, int v)
{
    if (s->interleaved && m % p != 0)
        return "the interleaved schedule needs m a multiple of p (Megatron-LM's order sends micro-batches in groups of p)";
    if (!s->interleaved && v != 1) return "only the interleaved schedule has virtual stages (v must be 1)";
    return NULL;
}

int pipe_validate(const pipe_step *steps, int n, int p, int m, int v, bool split, char *why, size_t len)
{
    static const char *names = "FBW";
    int want = pipe_nsteps(m, v, split);
    char *seen = calloc((size_t)3 * m * v, 1);
    int bad = 0;
    for (int k = 0; k < n && !bad; k++) {
        pipe_step s = steps[k];
        if (s.kind < 0 || s.kind > 2 || (s.kind == PIPE_W && !split)) {
            snprintf(why, len, "step %d: kind %d is not %s", k, s.kind, split ? "F, B or W" : "F or B (this schedule has no W)");
            bad = 1;
        } else if (s.mb < 0 || s.mb >= m) {
            snprintf(why, len, "step %d: %c of micro-batch %d, which does not exist (m = %d: 0..%d)", k, names[s.kind], s.mb, m, m - 1);
            bad = 1;
        } else if (s.chunk < 0 || s.chunk >= v) {
            snprintf(why, len, "step %d: chunk %d does not exist (v = %d)", k, s.chunk, v);
            bad = 1;
        } else {
            char *me = &seen[(s.kind * m + s.mb) * v + s.chunk];
            if (*me) {
                snprintf(why, len, "step %d: %c of micro-batch %d (chunk %d) a second time", k, names[s.kind], s.mb, s.chunk);
                bad = 1;
            } else if (s.kind > 0 && !seen[((s.kind - 1) * m + s.mb) * v + s.chunk]) {
                snprintf(why, len, "step %d: %c of micro-batch %d before its %c: it needs what the %c stores", k,
                         names[s.kind], s.mb, names[s.kind - 1], names[s.kind - 1]);
                bad = 1;
            }
            *me = 1;
        }
    }
    if (!bad && n != want) {
        snprintf(why, len, "%d steps, but p = %d, m = %d%s needs %d (each micro-batch's %s once%s)", n, p, m,
                 v > 1 ? " with v chunks" : "", want, split ? "F, B and W" : "F and B", v > 1 ? " per chunk" : "");
        bad = 1;
    }
    free(seen);
    return bad;
}

double pipe_bubble_formula(const char *schedule, int p, int m, int v)
{
    if (!strcmp(schedule, "gpipe") || !strcmp(schedule, "1f1b")) return (p - 1.0) / (m + p - 1.0);
    if (!strcmp(schedule, "interleaved")) return (p - 1.0) / ((double)v * m + p - 1.0);
    if (!strcmp(schedule, "zbh1"))   /* m < p: pipe_order_zbh1's comment */
        return m >= p ? (p - 1.0) / (3.0 * m + p - 1.0) : (2.0 * p - m - 1) / (2.0 * p + 2.0 * m - 1);
    return NAN;
}

/* ---- splits ------------------------------------------------------------------------- */

void pipe_split_even(int L, int S, int *first)
{
    for (int s = 0; s <= S; s++) first[s] = (int)((long long)s * L / S);
}

double pipe_split_balanced(const double *cost, int L, int S, int *first)
{
    /* best[k][i]: the least heaviest-stage cost of layers 0..i-1 on k stages;
     * cut[k][i] where the k-th stage starts. O(S L^2). */
    double *pre = malloc((size_t)(L + 1) * sizeof *pre), *best = malloc((size_t)(S + 1) * (L + 1) * sizeof *best);
    int *cut = malloc((size_t)(S + 1) * (L + 1) * sizeof *cut);
    pre[0] = 0;
    for (int l = 0; l < L; l++) pre[l + 1] = pre[l] + cost[l];
#define AT(a, k, i) a[(size_t)(k) * (L + 1) + (i)]
    for (int i = 0; i <= L; i++) { AT(best, 1, i) = pre[i]; AT(cut, 1, i) = 0; }
    for (int k = 2; k <= S; k++)
        for (int i = k; i <= L; i++) {
            AT(best, k, i) = INFINITY;
            for (int j = k - 1; j < i; j++) {
                double c = fmax(AT(best, k - 1, j), pre[i] - pre[j]);
                if (c < AT(best, k, i)) { AT(best, k, i) = c; AT(cut, k, i) = j; }
            }
        }
    double worst = AT(best, S, L);
    first[S] = L;
    for (int k = S, i = L; k >= 1; k--) { i = AT(cut, k, i); first[k - 1] = i; }
#undef AT
    free(pre); free(best); free(cut);
    return worst;
}

/* ---- the executor ---------------------------------------------------------------------- */

/* The floats one (micro-batch, chunk) keeps: a_0 .. a_n (the chunk's n
 * layers' inputs and the last output), dz of each layer (kept for W when
 * split), and on the last stage the loss gradient. *acts: the first part. */
static size_t chunk_floats(const pipe_job *job, int stage, size_t *acts)
{
    const pipe_model *md = job->md;
    int l0 = job->first[stage], l1 = job->first[stage + 1];
    size_t a = 0, z = 0;
    for (int l = l0; l <= l1; l++) a += (size_t)md->batch * md->dims[l];
    for (int l = l0; l < l1; l++) z += (size_t)md->batch * md->dims[l + 1];
    if (acts) *acts = a;
    return a + z + (stage == job->p * job->v - 1 ? (size_t)md->batch * md->dims[md->layers] : 0);
}

size_t pipe_workspace_floats(const pipe_job *job, int rank)
{
    size_t per_mb = 0;
    for (int c = 0; c < job->v; c++) per_mb += chunk_floats(job, c * job->p + rank, NULL);
    return 2 * (size_t)job->md->batch * max_dim(job->md) + (size_t)job->m * per_mb;
}

void pipe_run_rank(pw_comm *c, const pipe_job *job, const pipe_step *steps, int n, float *ws, pipe_rank_stats *st)
{
    const pipe_model *md = job->md;
    int p = job->p, S = p * job->v, b = md->batch, r = c->rank;
    size_t maxrow = (size_t)b * max_dim(md), per_mb = 0;
    for (int ch = 0; ch < job->v; ch++) per_mb += chunk_floats(job, ch * p + r, NULL);
    float *g1 = ws, *g2 = ws + maxrow;
    int held = 0;
    double floats = 0;
    st->peak_held = 0;
    st->peak_floats = 0;
    for (int k = 0; k < n; k++) {
        pipe_step sp = steps[k];
        int s = sp.chunk * p + r, l0 = job->first[s], nl = job->first[s + 1] - l0;
        int prev = (s - 1 + S) % p, next = (s + 1) % p;
        /* this (micro-batch, chunk)'s part of the workspace: a_j, then dz_j, then the loss gradient */
        float *act = ws + 2 * maxrow + (size_t)sp.mb * per_mb;
        for (int ch = 0; ch < sp.chunk; ch++) act += chunk_floats(job, ch * p + r, NULL);
        size_t nact;
        chunk_floats(job, s, &nact);
        float *dz = act + nact;
        float *gout = dz;
        for (int l = l0; l < l0 + nl; l++) gout += (size_t)b * md->dims[l + 1];
        float *a_last = dz - (size_t)b * md->dims[l0 + nl];   /* the chunk's output */
        double flops = 0;
        for (int l = l0; l < l0 + nl; l++) flops += pipe_layer_flops(md, l);
        size_t in = (size_t)b * md->dims[l0], outn = (size_t)b * md->dims[l0 + nl];
        if (sp.kind == PIPE_F) {
            if (s == 0) memcpy(act, job->x + (size_t)sp.mb * in, in * sizeof(float));
            else coll_recv(c, prev, PIPE_TAG_ACT, act, in * sizeof(float));
            float *a = act;
            for (int l = l0; l < l0 + nl; l++) {
                pipe_layer_forward(md, l, job->w, a, a + (size_t)b * md->dims[l], b);
                a += (size_t)b * md->dims[l];
            }
            coll_compute(c, flops, "F");
            if (s == S - 1) {
                /* the loss and its gradient, kept for this micro-batch's B */
                const float *y = job->y + (size_t)sp.mb * outn;
                double loss = 0;
                for (size_t i = 0; i < outn; i++) { gout[i] = a_last[i] - y[i]; loss += 0.5 * (double)gout[i] * gout[i]; }
                *job->loss += loss;
            } else {
                coll_send(c, next, PIPE_TAG_ACT, a_last, outn * sizeof(float));
            }
            held++;
            floats += (double)nact;
            if (held > st->peak_held) st->peak_held = held;
            if (floats > st->peak_floats) st->peak_floats = floats;
            continue;
        }
        /* a_j and dz_j of layer l0 + j, walking back from the last layer */
        float *a = a_last, *z = gout;
        if (sp.kind == PIPE_B) {
            float *dout = g1, *din = g2;
            if (s == S - 1) memcpy(dout, gout, outn * sizeof(float));
            else coll_recv(c, next, PIPE_TAG_GRAD, dout, outn * sizeof(float));
            for (int l = l0 + nl - 1; l >= l0; l--) {
                float *out = a;
                a -= (size_t)b * md->dims[l];
                z -= (size_t)b * md->dims[l + 1];
                pipe_layer_input_grad(md, l, job->w, out, dout, z, din, b);
                if (!job->split) pipe_layer_weight_grad(md, l, a, z, job->grad, b);
                float *t = dout; dout = din; din = t;
            }
            coll_compute(c, job->split ? flops : 2 * flops, "B");
            if (s > 0) coll_send(c, prev, PIPE_TAG_GRAD, dout, in * sizeof(float));
        } else {
            for (int l = l0 + nl - 1; l >= l0; l--) {
                a -= (size_t)b * md->dims[l];
                z -= (size_t)b * md->dims[l + 1];
                pipe_layer_weight_grad(md, l, a, z, job->grad, b);
            }
            coll_compute(c, flops, "W");
        }
        if (sp.kind == PIPE_W || !job->split) { held--; floats -= (double)nact; }
    }
}

/* ---- the trace ------------------------------------------------------------------------- */

static int work_kind(const char *k)
{
    if (!k || k[1]) return -1;
    return k[0] == 'F' ? PIPE_F : k[0] == 'B' ? PIPE_B : k[0] == 'W' ? PIPE_W : -1;
}

double pipe_trace_bubble(const pw_trace_event *ev, size_t n, int p, double *span)
{
    double t0 = INFINITY, t1 = -INFINITY, busy = 0;
    for (size_t i = 0; i < n; i++) {
        if (work_kind(ev[i].kind) < 0) continue;
        t0 = fmin(t0, ev[i].start);
        t1 = fmax(t1, ev[i].end);
        busy += ev[i].end - ev[i].start;
    }
    if (t1 <= t0) { *span = 0; return 0; }
    *span = t1 - t0;
    return (p * (t1 - t0) - busy) / (p * (t1 - t0));
}

int pipe_trace_peak(const pw_trace_event *ev, size_t n, int rank, bool split)
{
    int held = 0, peak = 0;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].rank != rank) continue;
        int k = work_kind(ev[i].kind);
        if (k == PIPE_F) held++;
        else if ((k == PIPE_B && !split) || k == PIPE_W) held--;
        peak = held > peak ? held : peak;
    }
    return peak;
}

/* ---- one run on the virtual cluster ---------------------------------------------------- */

typedef struct {
    const pipe_job *job;
    const pipe_step *orders;
    int nsteps;
    pipe_rank_stats *stats;
    float **ws;
} sim_arg;

static void sim_rank(pw_rank *r, void *arg)
{
    sim_arg *a = arg;
    pw_comm c = coll_comm_cluster(r);
    int me = pw_rank_id(r);
    pipe_run_rank(&c, a->job, a->orders + (size_t)me * a->nsteps, a->nsteps, a->ws[me], &a->stats[me]);
}

int pipe_simulate(const pipe_schedule *s, const pipe_step *orders, const pipe_job *job, const pw_cluster_config *cfg,
                  bool keep, pipe_result *res, char *why, size_t len)
{
    int p = job->p, n = pipe_nsteps(job->m, job->v, job->split);
    memset(res, 0, sizeof *res);
    if (p < 1 || p > PIPE_MAX_RANKS) { snprintf(why, len, "p = %d: 1 to %d ranks", p, PIPE_MAX_RANKS); return -1; }
    pipe_step *own = NULL;
    if (!orders) {
        own = malloc((size_t)p * (size_t)n * sizeof *own);
        for (int r = 0; r < p; r++) s->order(r, p, job->m, job->v, own + (size_t)r * n);
        orders = own;
    }
    for (int r = 0; r < p; r++) {
        char w[200];
        if (pipe_validate(orders + (size_t)r * n, n, p, job->m, job->v, job->split, w, sizeof w)) {
            snprintf(why, len, "rank %d: %s", r, w);
            free(own);
            return -1;
        }
    }
    pw_cluster_config c = *cfg;
    c.ranks = p;
    c.trace = true;
    if (pw_cluster_validate(&c, why, len)) { free(own); return -1; }
    pw_cluster *cl = pw_cluster_create(&c);
    pw_cluster_name_tag(cl, PIPE_TAG_ACT, "activations");
    pw_cluster_name_tag(cl, PIPE_TAG_GRAD, "gradients");
    pipe_rank_stats *st = calloc((size_t)p, sizeof *st);
    float **ws = malloc((size_t)p * sizeof *ws);
    for (int r = 0; r < p; r++) ws[r] = pw_alloc_floats(pipe_workspace_floats(job, r));
    sim_arg a = { job, orders, n, st, ws };
    *job->loss = 0;
    int rc = pw_cluster_run(cl, sim_rank, &a);
    if (rc != PW_CLUSTER_OK) {
        snprintf(why, len, "%s", pw_cluster_report(cl));
    } else {
        size_t ne;
        const pw_trace_event *ev = pw_cluster_trace(cl, &ne);
        res->time = pw_cluster_time(cl);
        res->bubble = pipe_trace_bubble(ev, ne, p, &res->span);
        for (int r = 0; r < p; r++) {
            res->peak_held[r] = st[r].peak_held;
            res->peak_floats[r] = st[r].peak_floats;
            res->peak_trace[r] = pipe_trace_peak(ev, ne, r, job->split);
        }
        if (keep) {
            res->trace = malloc((ne ? ne : 1) * sizeof *ev);
            memcpy(res->trace, ev, ne * sizeof *ev);
            res->ntrace = ne;
            res->orders = malloc((size_t)p * (size_t)n * sizeof *orders);
            memcpy(res->orders, orders, (size_t)p * (size_t)n * sizeof *orders);
            res->nsteps = n;
        }
    }
    pw_cluster_destroy(cl);
    for (int r = 0; r < p; r++) pw_free(ws[r]);
    free(ws);
    free(st);
    free(own);
    return rc;
}

/* ---- an experiment ---------------------------------------------------------------------- */

void pipe_case_init(pipe_case *pc, int L, const int *dims, int width, int batch, int m)
{
    memset(pc, 0, sizeof *pc);
    for (int l = 0; l <= L; l++) pc->dims[l] = dims ? dims[l] : width;
    pc->md = (pipe_model){ L, pc->dims, batch };
    pc->m = m;
    size_t np = pipe_nparams(&pc->md), count = (size_t)m * batch;
    pc->w = pw_alloc_floats(np);
    pc->ref = pw_alloc_floats(np);
    pc->grad = pw_alloc_floats(np);
    pc->x = pw_alloc_floats(count * pc->dims[0]);
    pc->y = pw_alloc_floats(count * pc->dims[L]);
    pipe_init(&pc->md, pc->w, 12);
    pipe_make_data(&pc->md, count, 34, pc->x, pc->y);
    pc->ref_loss = pipe_reference(&pc->md, pc->w, pc->x, pc->y, count, pc->ref);
}

void pipe_case_free(pipe_case *pc)
{
    pw_free(pc->w); pw_free(pc->ref); pw_free(pc->grad); pw_free(pc->x); pw_free(pc->y);
}

pipe_job pipe_case_job(pipe_case *pc, int p, int v, const int *first, bool split)
{
    memset(pc->grad, 0, pipe_nparams(&pc->md) * sizeof *pc->grad);
    return (pipe_job){ &pc->md, pc->w, pc->x, pc->y, p, pc->m, v, first, split, pc->grad, &pc->loss };
}

int pipe_case_check(const pipe_case *pc, bool *bitwise, char *why, size_t len)
{
    size_t np = pipe_nparams(&pc->md);
    double scale = 0;
    for (size_t i = 0; i < np; i++) scale = fmax(scale, fabs(pc->ref[i]));
    /* The chapter's schedules add each weight's per-sample terms in sample
     * order, as the reference does: equal bit for bit. Another order of
     * backward steps (an exercise's) adds the same m terms in another
     * order: float rounding, a few ulps of the largest term per addition,
     * far inside 1e-5 of the largest gradient plus 1e-4 relative. A wrong
     * gradient (a micro-batch's activations paired with another's
     * gradient) is off by the order of the gradients themselves. */
    *bitwise = true;
    for (size_t i = 0; i < np; i++) {
        if (pc->grad[i] != pc->ref[i]) *bitwise = false;
        if (!(fabs(pc->grad[i] - pc->ref[i]) <= 1e-5 * scale + 1e-4 * fabs(pc->ref[i]))) {
            int l = 0;
            while (l + 1 < pc->md.layers && pipe_layer_offset(&pc->md, l + 1) <= i) l++;
            snprintf(why, len, "gradient %zu (layer %d) is %.9g, the unsplit model's %.9g", i, l, pc->grad[i], pc->ref[i]);
            return 1;
        }
    }
    /* the loss: m partial sums in double against one sum: 1e-9 relative */
    if (!(fabs(pc->loss - pc->ref_loss) <= 1e-9 * fabs(pc->ref_loss))) {
        snprintf(why, len, "loss %.12g, the unsplit model's %.12g", pc->loss, pc->ref_loss);
        return 1;
    }
    return 0;
}
