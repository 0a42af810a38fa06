/* kernels/parallel3d.c: the planner's closed forms and the composed
 * DP x TP x PP run. parallel3d.h says what each function is. */
#include "parallel3d.h"
#include "cluster.h"
#include "pipeline.h"
#include "tensor_parallel.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- defaults ----------------------------------------------------------------------- */

/* GPT-3 175B: T. Brown et al., "Language models are few-shot learners",
 * 2020, table 2.1: 96 layers, d_model 12288, 96 heads, context 2048, batch
 * 3.2M tokens = 1536 sequences of 2048 (the batch Megatron-LM 2021 used for
 * it too); vocabulary 50257 (GPT-2's BPE). */
p3_model p3_gpt3_175b(void)
{
    return (p3_model){ "gpt3-175b", 96, 12288, 96, 2048, 50257, 1536 };
}

/* Llama-2-70B: H. Touvron et al., "Llama 2", 2023, table 1 and section 2.2:
 * 80 layers, hidden 8192, 64 heads, context 4096, batch 4M tokens = 1024
 * sequences; vocabulary 32000. Its grouped-query attention (8 key/value
 * heads) and SwiGLU feed-forward (28672 wide) are ignored here: the planner
 * sees a GPT-shaped 12 L h^2 model, 65B instead of 69B parameters. */
p3_model p3_llama2_70b(void)
{
    return (p3_model){ "llama2-70b", 80, 8192, 64, 4096, 32000, 1024 };
}

/* Links from common/cluster/cluster.h's defaults (NVLink 4, NDR InfiniBand). The
 * device: an H100 SXM, 80 GB, 989 TFLOP/s dense BF16 (NVIDIA H100
 * datasheet); matmuls sustaining 60% of it is an assumption of this
 * workbook (large GEMMs reach 70-80% of peak, attention and small ops less). */
p3_cluster p3_cluster_default(int nodes)
{
    return (p3_cluster){ nodes, PW_CLUSTER_RANKS_PER_NODE, PW_CLUSTER_INTRA_ALPHA, PW_CLUSTER_INTRA_GBS,
                         PW_CLUSTER_INTER_ALPHA, PW_CLUSTER_INTER_GBS, 989.0, 0.6, 80.0, 0, 0 };
}

int p3_model_check(const p3_model *md, char *why, size_t len)
{
    if (md->layers <= 0 || md->hidden <= 0 || md->heads <= 0 || md->seq <= 0 || md->vocab <= 0 || md->batch <= 0) {
        snprintf(why, len, "model %s: layers, hidden, heads, seq, vocab and batch must all be positive", md->name);
        return 1;
    }
    if (md->hidden % md->heads) {
        snprintf(why, len, "model %s: heads (%d) must divide hidden (%d)", md->name, md->heads, md->hidden);
        return 1;
    }
    return 0;
}

int p3_cluster_check(const p3_cluster *cl, char *why, size_t len)
{
    if (cl->nodes <= 0 || cl->per_node <= 0) {
        snprintf(why, len, "cluster: nodes and devices per node must be positive");
        return 1;
    }
    if (!(cl->intra_gbs > 0 && cl->inter_gbs > 0 && cl->peak_tflops > 0 && cl->mem_gb > 0 && cl->matmul_eff > 0
          && cl->matmul_eff <= 1 && cl->intra_alpha >= 0 && cl->inter_alpha >= 0 && cl->dram_gbs >= 0 && cl->sms >= 0)) {
        snprintf(why, len, "cluster: bandwidths, peak and memory must be positive, latencies not negative, "
                           "the matmul efficiency in (0, 1]");
        return 1;
    }
    return 0;
}

double p3_params(const p3_model *md)
{
    double L = md->layers, h = md->hidden;
    return 12 * L * h * h * (1 + 13 / (12 * h)) + ((double)md->vocab + md->seq) * h;
}

/* ---- memory ------------------------------------------------------------------------ */

double p3_state_bytes_per_param(bool zero1, int d)
{
    return 2 + 2 + (zero1 ? 12.0 / d : 12.0);
}

/* Activations of the first stage, which holds the most: 1F1B keeps
 * min(p, m) micro-batches in flight there (kernels/pipeline.h), each with
 * L/p layers' worth. Per layer and micro-batch: Korthikanti et al. 2022,
 * with tensor and sequence parallelism, s b h (34 + 5 a s / h) / t bytes
 * (tp_paper_activation_bytes). With full recomputation a layer keeps only
 * its input, 2 s b h / t bytes (bf16, sharded by SP), and one layer's whole
 * set exists while it is recomputed. Embeddings' and logits' activations
 * are left out (Korthikanti's eq. 6 adds them to the first and last stage). */
void p3_memory_of(const p3_model *md, const p3_config *cf, p3_memory *out)
{
    double per_dev = p3_params(md) / ((double)cf->t * cf->p);
    out->weights = 2 * per_dev;
    out->grads = 2 * per_dev;
    out->optimizer = (p3_state_bytes_per_param(cf->zero1, cf->d) - 4) * per_dev;
    tp_shape sh = { cf->b, md->seq, md->hidden, md->heads };
    double layer = tp_paper_activation_bytes(&sh, cf->t, true);
    double inflight = cf->m < cf->p ? (double)cf->m : (double)cf->p, per_stage = (double)md->layers / cf->p;
    if (cf->recompute)
        out->activations = per_stage * inflight * 2.0 * md->seq * cf->b * md->hidden / cf->t + layer;
    else
        out->activations = per_stage * inflight * layer;
    out->total = out->weights + out->grads + out->optimizer + out->activations;
}

/* ---- time -------------------------------------------------------------------------- */

/* Per micro-batch on one stage (L/p layers) and one of t devices:
 *   forward  (24 b s h^2 + 4 b s^2 h) / t per layer (tp_flops_forward)
 *   backward twice that; recomputation adds one more forward
 *   TP: 2 all-reduces of b s h per layer forward, 2 backward (+2 when the
 *       forward is recomputed); with sequence parallelism they are
 *       reduce-scatter + all-gather pairs: the same bytes, the same ring time
 *   PP: b s h elements to the next stage
 *   DP: the device's P / (t p) gradients
 * all in bf16 (2 bytes). The logits' matmul (2 b s h V) is left out. */
void p3_transformer_work(const p3_model *md, const p3_config *cf, p3_work *w)
{
    tp_shape sh = { cf->b, md->seq, md->hidden, md->heads };
    double per_stage = (double)md->layers / cf->p;
    double fwd = per_stage * tp_flops_forward(&sh, cf->t);
    int nl = md->layers / cf->p;
    w->f_flops = fwd;
    w->b_flops = 2 * fwd + (cf->recompute ? fwd : 0);
    w->tp_f = 2 * nl;
    w->tp_b = 2 * nl + (cf->recompute ? 2 * nl : 0);
    w->tp_elems = (size_t)cf->b * (size_t)md->seq * (size_t)md->hidden;
    w->pp_elems = w->tp_elems;
    w->dp_elems = (size_t)(p3_params(md) / ((double)cf->t * cf->p));
    w->elem_bytes = 2;
}

static void link_of(const p3_cluster *cl, bool crosses, double *alpha, double *beta)
{
    *alpha = crosses ? cl->inter_alpha : cl->intra_alpha;
    *beta = 1.0 / ((crosses ? cl->inter_gbs : cl->intra_gbs) * 1e9);
}

/* One message of `bytes` on hop s of rank 0's pipeline (stage s to s + 1;
 * every pipeline is a shifted copy of it). */
static double hop_cost(const p3_cluster *cl, const p3_config *cf, double bytes, int s)
{
    int a = p3_rank_of(cf, 0, 0, s) / cl->per_node, b = p3_rank_of(cf, 0, 0, s + 1) / cl->per_node;
    double al, be;
    link_of(cl, a != b, &al, &be);
    return al + bytes * be;
}

/* The sum of one message's cost over the p - 1 hops, and the slowest. */
static void pipe_hops(const p3_cluster *cl, const p3_config *cf, double bytes, double *sum, double *max)
{
    *sum = *max = 0;
    for (int s = 0; s + 1 < cf->p; s++) {
        double c = hop_cost(cl, cf, bytes, s);
        *sum += c;
        *max = c > *max ? c : *max;
    }
}

void p3_time_model(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate, p3_time *out)
{
    double a, b, hops, slowest;
    link_of(cl, p3_group_crosses(cf, cl->per_node, 't'), &a, &b);
    double ring_tp = coll_model_ring(cf->t, w->tp_elems, w->elem_bytes, a, b);
    pipe_hops(cl, cf, (double)(w->pp_elems * w->elem_bytes), &hops, &slowest);
    link_of(cl, p3_group_crosses(cf, cl->per_node, 'd'), &a, &b);
    double m = (double)cf->m;
    double tf = w->f_flops / rate + w->tp_f * ring_tp, tb = w->b_flops / rate + w->tp_b * ring_tp;
    out->compute = m * (w->f_flops + w->b_flops) / rate;
    out->tp = m * (w->tp_f + w->tp_b) * ring_tp;
    /* micro-batch 0 crosses every hop forward and back; each later one
     * follows at the pace of the slowest hop */
    out->pp = 2 * hops + 2 * (m - 1) * slowest;
    out->bubble = (cf->p - 1) * (tf + tb);
    out->dp = coll_model_ring(cf->d, w->dp_elems, w->elem_bytes, a, b);
    out->total = out->compute + out->tp + out->pp + out->bubble + out->dp;
}

/* Where GPipe's composed run can wait longer than the formula (see
 * parallel3d.h). Hop k joins stages k and k + 1 and costs c_k. In the
 * forward, stage s sends one activation every t_F + c_s and is fed one every
 * t_F + max_{k<s} c_k (the slowest stage before it sets the pace, from the
 * first micro-batch on): when c_s is larger, every activation after the
 * first reaches s while it is still busy with an earlier micro-batch, and
 * its link is then shared with the TP all-reduce's messages. The backward
 * is the mirror: stage s sends gradients every t_B + c_{s-1} and is fed
 * every t_B + max_{j>=s} c_j. Each early message (m - 1 per such stage and
 * direction) can hold one TP message for less than its own cost c_in (the
 * link takes one message at a time, cluster.h); the step grows by at most
 * the sum of those holds (every wait in the run is a max of sums, so a
 * longer term lengthens the step by no more than it grew). */
double p3_gpipe_queue_bound(const p3_work *w, const p3_cluster *cl, const p3_config *cf, int *late_stages)
{
    int late = 0;
    double bound = 0, bytes = (double)(w->pp_elems * w->elem_bytes), m = (double)cf->m;
    if (cf->t > 1 && w->tp_f + w->tp_b > 0 && cf->p > 2) {
        double ahead = hop_cost(cl, cf, bytes, 0);           /* max of c_0 .. c_{s-1} */
        for (int s = 1; s + 1 < cf->p; s++) {                /* forward: stage s fed by s - 1 */
            double cs = hop_cost(cl, cf, bytes, s);
            if (cs > ahead) { late++; bound += (m - 1) * hop_cost(cl, cf, bytes, s - 1); }
            ahead = cs > ahead ? cs : ahead;
        }
        double behind = hop_cost(cl, cf, bytes, cf->p - 2);  /* max of c_s .. c_{p-2} */
        for (int s = cf->p - 2; s >= 1; s--) {               /* backward: stage s fed by s + 1 */
            double cs = hop_cost(cl, cf, bytes, s - 1);
            if (cs > behind) { late++; bound += (m - 1) * hop_cost(cl, cf, bytes, s); }
            behind = cs > behind ? cs : behind;
        }
    }
    if (late_stages) *late_stages = late;
    return bound;
}

double p3_mfu(const p3_model *md, const p3_cluster *cl, int devices, double step)
{
    double tokens = (double)md->batch * md->seq;
    return 6 * p3_params(md) * tokens / (step * devices * cl->peak_tflops * 1e12);
}

/* ---- placing ranks ---------------------------------------------------------------- */

int p3_rank_of(const p3_config *cf, int dd, int tt, int pp)
{
    return cf->order == P3_ORDER_TDP ? (pp * cf->d + dd) * cf->t + tt : (tt * cf->d + dd) * cf->p + pp;
}

void p3_coords(const p3_config *cf, int rank, int *dd, int *tt, int *pp)
{
    if (cf->order == P3_ORDER_TDP) {
        *tt = rank % cf->t;
        *dd = rank / cf->t % cf->d;
        *pp = rank / (cf->t * cf->d);
    } else {
        *pp = rank % cf->p;
        *dd = rank / cf->p % cf->d;
        *tt = rank / (cf->p * cf->d);
    }
}

/* Group of rank 0; in both orders every group of a kind is a shifted copy
 * of it, and a ring takes its slowest link (cluster.h), so rank 0's group
 * speaks for all when per_node divides the device count. */
bool p3_group_crosses(const p3_config *cf, int per_node, char which)
{
    int n = which == 't' ? cf->t : which == 'd' ? cf->d : cf->p;
    int node0 = p3_rank_of(cf, 0, 0, 0) / per_node;
    for (int i = 1; i < n; i++) {
        int r = which == 't' ? p3_rank_of(cf, 0, i, 0) : which == 'd' ? p3_rank_of(cf, i, 0, 0) : p3_rank_of(cf, 0, 0, i);
        if (r / per_node != node0) return true;
    }
    return false;
}

const char *p3_order_name(p3_order o)
{
    return o == P3_ORDER_TDP ? "tp-dp-pp" : "pp-dp-tp";
}

/* ---- the planner ------------------------------------------------------------------ */

/* p3_plan_one, p3_plan_all: the full step model, kernels/plan3d.c. */

int p3_smallest_p(const p3_model *md, const p3_cluster *cl, int t, int b, bool zero1, bool recompute)
{
    long long N = (long long)cl->nodes * cl->per_node;
    for (int p = 1; p <= md->layers; p++) {
        if (md->layers % p || N % ((long long)t * p)) continue;
        long long d = N / ((long long)t * p);
        if (md->batch % d || (md->batch / d) % b) continue;
        p3_config cf = { (int)d, t, p, b, md->batch / d / b, zero1, recompute, P3_ORDER_TDP };
        p3_memory mem;
        p3_memory_of(md, &cf, &mem);
        if (mem.total <= cl->mem_gb * 1e9) return p;
    }
    return 0;
}

/* ---- the composed run -------------------------------------------------------------- */

size_t p3_nweights(int layers, int h, int f)
{
    return (size_t)layers * 2 * (size_t)h * (size_t)f;
}

/* out[n x k] = a[n x h] w[h x k] (w with row stride ldw) */
static void matmul(const float *a, const float *w, size_t ldw, float *out, int n, int h, int k)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < k; j++) {
            float s = 0;
            for (int q = 0; q < h; q++) s += a[(size_t)i * h + q] * w[(size_t)q * ldw + j];
            out[(size_t)i * k + j] = s;
        }
}

/* out[n x h] = a[n x k] w[h x k]^T (w with row stride ldw): the input gradient */
static void matmul_bt(const float *a, const float *w, size_t ldw, float *out, int n, int k, int h)
{
    for (int i = 0; i < n; i++)
        for (int q = 0; q < h; q++) {
            float s = 0;
            for (int j = 0; j < k; j++) s += a[(size_t)i * k + j] * w[(size_t)q * ldw + j];
            out[(size_t)i * h + q] = s;
        }
}

/* g[h x k] (row stride ldg) += a[n x h]^T dz[n x k], samples in order */
static void matmul_at_add(const float *a, const float *dz, float *g, size_t ldg, int n, int h, int k)
{
    for (int q = 0; q < h; q++)
        for (int j = 0; j < k; j++) {
            float s = g[(size_t)q * ldg + j];
            for (int i = 0; i < n; i++) s += a[(size_t)i * h + q] * dz[(size_t)i * k + j];
            g[(size_t)q * ldg + j] = s;
        }
}

double p3_reference(int layers, int h, int f, const float *w, const float *x, const float *y, size_t count, float *grad)
{
    size_t hf = (size_t)h * f, nw = p3_nweights(layers, h, f);
    memset(grad, 0, nw * sizeof *grad);
    float *act = pw_alloc_floats((size_t)(layers + 1) * h), *u = pw_alloc_floats((size_t)layers * f);
    float *v = pw_alloc_floats((size_t)f), *dy = pw_alloc_floats((size_t)h), *dx = pw_alloc_floats((size_t)h);
    float *du = pw_alloc_floats((size_t)f);
    double loss = 0;
    for (size_t n = 0; n < count; n++) {
        memcpy(act, x + n * h, (size_t)h * sizeof *act);
        for (int l = 0; l < layers; l++) {
            const float *A = w + 2 * hf * l, *B = A + hf;
            float *in = act + (size_t)l * h, *out = in + h, *ul = u + (size_t)l * f;
            matmul(in, A, (size_t)f, ul, 1, h, f);
            for (int j = 0; j < f; j++) v[j] = ul[j] > 0 ? ul[j] : 0;
            matmul(v, B, (size_t)h, out, 1, f, h);
            for (int q = 0; q < h; q++) out[q] += in[q];
        }
        for (int q = 0; q < h; q++) {
            dy[q] = act[(size_t)layers * h + q] - y[n * h + q];
            loss += 0.5 * (double)dy[q] * dy[q];
        }
        for (int l = layers - 1; l >= 0; l--) {
            const float *A = w + 2 * hf * l, *B = A + hf;
            float *gA = grad + 2 * hf * l, *gB = gA + hf, *in = act + (size_t)l * h, *ul = u + (size_t)l * f;
            for (int j = 0; j < f; j++) v[j] = ul[j] > 0 ? ul[j] : 0;
            matmul_bt(dy, B, (size_t)h, du, 1, h, f);
            for (int j = 0; j < f; j++) du[j] = ul[j] > 0 ? du[j] : 0;
            matmul_at_add(in, du, gA, (size_t)f, 1, h, f);
            matmul_at_add(v, dy, gB, (size_t)h, 1, f, h);
            matmul_bt(du, A, (size_t)f, dx, 1, f, h);
            for (int q = 0; q < h; q++) dy[q] += dx[q];
        }
    }
    pw_free(act); pw_free(u); pw_free(v); pw_free(dy); pw_free(dx); pw_free(du);
    return loss;
}

void p3_mlp_work(const p3_job *job, p3_work *w)
{
    const p3_config *cf = &job->cf;
    int nl = job->layers / cf->p, fl = job->f / cf->t;
    double per_layer = 2.0 * job->b * job->h * fl * 2;   /* X A_r and V B_r: 2 b h f/t each */
    w->f_flops = nl * per_layer;
    w->b_flops = nl * 2 * per_layer;                      /* input and weight gradients of both */
    w->tp_f = nl;
    w->tp_b = nl;
    w->tp_elems = (size_t)job->b * job->h;
    w->pp_elems = w->tp_elems;
    w->dp_elems = (size_t)nl * 2 * (size_t)job->h * fl;
    w->elem_bytes = 4;
}

enum { TAG_ACT = 1, TAG_GRAD = 2 };

/* One rank's state: its slices of its stage's layers, their gradients,
 * what every micro-batch's forward keeps for its backward. */
typedef struct {
    int nl, fl, h, b;
    float *A, *B;           /* nl x (h x fl), nl x (fl x h) */
    float *gA, *gB;         /* the same shapes, contiguous: gA then gB, for one DP all-reduce */
    float *xin, *u;         /* per micro-batch and layer: input (b x h), X A_r (b x fl) */
    float *out;             /* per micro-batch: the stage's output (b x h) */
    float *z, *v, *dy, *dx, *du;
} rank_state;

static void forward_mb(pw_comm *tp, rank_state *st, int mb, float *xio)
{
    int b = st->b, h = st->h, fl = st->fl;
    for (int l = 0; l < st->nl; l++) {
        size_t k = (size_t)mb * st->nl + l;
        float *xs = st->xin + k * b * h, *u = st->u + k * b * fl;
        memcpy(xs, xio, (size_t)b * h * sizeof *xs);
        matmul(xs, st->A + (size_t)l * h * fl, (size_t)fl, u, b, h, fl);
        for (size_t i = 0; i < (size_t)b * fl; i++) st->v[i] = u[i] > 0 ? u[i] : 0;
        matmul(st->v, st->B + (size_t)l * fl * h, (size_t)h, st->z, b, fl, h);
        coll_compute(tp, 4.0 * b * h * fl, "F");
        coll_allreduce_ring(tp, st->z, (size_t)b * h);   /* Megatron's g: the partial sums of the row split */
        for (size_t i = 0; i < (size_t)b * h; i++) xio[i] = xs[i] + st->z[i];
    }
}

/* dyio: the gradient of the stage's output in, of its input out */
static void backward_mb(pw_comm *tp, rank_state *st, int mb, float *dyio, bool skip_allreduce)
{
    int b = st->b, h = st->h, fl = st->fl;
    for (int l = st->nl - 1; l >= 0; l--) {
        size_t k = (size_t)mb * st->nl + l;
        const float *xs = st->xin + k * b * h, *u = st->u + k * b * fl;
        const float *A = st->A + (size_t)l * h * fl, *B = st->B + (size_t)l * fl * h;
        for (size_t i = 0; i < (size_t)b * fl; i++) st->v[i] = u[i] > 0 ? u[i] : 0;
        matmul_bt(dyio, B, (size_t)h, st->du, b, h, fl);
        for (size_t i = 0; i < (size_t)b * fl; i++) st->du[i] = u[i] > 0 ? st->du[i] : 0;
        matmul_at_add(xs, st->du, st->gA + (size_t)l * h * fl, (size_t)fl, b, h, fl);
        matmul_at_add(st->v, dyio, st->gB + (size_t)l * fl * h, (size_t)h, b, fl, h);
        matmul_bt(st->du, A, (size_t)fl, st->dx, b, fl, h);
        coll_compute(tp, 8.0 * b * h * fl, "B");
        if (!skip_allreduce)
            coll_allreduce_ring(tp, st->dx, (size_t)b * h);  /* Megatron's f: the input gradient summed over the column split */
        for (size_t i = 0; i < (size_t)b * h; i++) dyio[i] += st->dx[i];
    }
}

void p3_rank(pw_comm *world, const p3_job *job)
{
    const p3_config *cf = &job->cf;
    int dd, tt, pp, p = cf->p, t = cf->t, m = (int)cf->m, h = job->h, b = job->b;
    p3_coords(cf, world->rank, &dd, &tt, &pp);
    pw_comm tp, pipe, dp;
    coll_comm_split(world, dd * p + pp, tt, &tp);
    coll_comm_split(world, dd * t + tt, pp, &pipe);
    coll_comm_split(world, pp * t + tt, dd, &dp);

    rank_state st;
    memset(&st, 0, sizeof st);
    st.nl = job->layers / p;
    st.fl = job->f / t;
    st.h = h;
    st.b = b;
    size_t hf = (size_t)h * job->f, slice = (size_t)h * st.fl, nl = (size_t)st.nl;
    st.A = pw_alloc_floats(2 * nl * slice);
    st.B = st.A + nl * slice;
    st.gA = pw_alloc_floats(2 * nl * slice);
    st.gB = st.gA + nl * slice;
    memset(st.gA, 0, 2 * nl * slice * sizeof *st.gA);
    for (int l = 0; l < st.nl; l++) {
        const float *A = job->w + 2 * hf * (size_t)(pp * st.nl + l), *B = A + hf;
        for (int q = 0; q < h; q++)                       /* columns [tt fl, (tt + 1) fl) of A */
            memcpy(st.A + l * slice + (size_t)q * st.fl, A + (size_t)q * job->f + (size_t)tt * st.fl, (size_t)st.fl * sizeof(float));
        memcpy(st.B + l * slice, B + (size_t)tt * st.fl * h, slice * sizeof(float));   /* rows, contiguous */
    }
    size_t bh = (size_t)b * h, bf = (size_t)b * st.fl;
    st.xin = pw_alloc_floats((size_t)m * nl * bh);
    st.u = pw_alloc_floats((size_t)m * nl * bf);
    st.out = pw_alloc_floats((size_t)m * bh);
    st.z = pw_alloc_floats(bh);
    st.dx = pw_alloc_floats(bh);
    st.dy = pw_alloc_floats(bh);
    st.v = pw_alloc_floats(bf);
    st.du = pw_alloc_floats(bf);

    int nsteps = pipe_nsteps(m, 1, false);
    pipe_step *steps = malloc((size_t)nsteps * sizeof *steps);
    if (job->gpipe) pipe_order_gpipe(pp, p, m, 1, steps);
    else pipe_order_1f1b(pp, p, m, 1, steps);
    const float *xs = job->x + (size_t)dd * m * bh, *ys = job->y + (size_t)dd * m * bh;
    double loss = 0;
    for (int i = 0; i < nsteps; i++) {
        int mb = steps[i].mb;
        float *io = st.out + (size_t)mb * bh;
        if (steps[i].kind == PIPE_F) {
            if (pp == 0) memcpy(io, xs + (size_t)mb * bh, bh * sizeof *io);
            else coll_recv(&pipe, pp - 1, TAG_ACT, io, bh * sizeof *io);
            forward_mb(&tp, &st, mb, io);
            if (pp < p - 1) coll_send(&pipe, pp + 1, TAG_ACT, io, bh * sizeof *io);
        } else {
            if (pp == p - 1) {
                for (size_t k = 0; k < bh; k++) {
                    st.dy[k] = io[k] - ys[(size_t)mb * bh + k];
                    loss += 0.5 * (double)st.dy[k] * st.dy[k];
                }
            } else {
                coll_recv(&pipe, pp + 1, TAG_GRAD, st.dy, bh * sizeof *st.dy);
            }
            backward_mb(&tp, &st, mb, st.dy, job->fault == P3_FAULT_NO_TP_BACKWARD);
            if (pp > 0) coll_send(&pipe, pp - 1, TAG_GRAD, st.dy, bh * sizeof *st.dy);
        }
    }
    /* The data-parallel all-reduce: one ring over the replicas' copies of this slice. */
    if (job->fault != P3_FAULT_NO_DP) coll_allreduce_ring(&dp, st.gA, 2 * nl * slice);
    if (pp == p - 1 && tt == 0) job->loss[dd] = loss;
    if (dd == 0)
        for (int l = 0; l < st.nl; l++) {
            float *gA = job->grad + 2 * hf * (size_t)(pp * st.nl + l), *gB = gA + hf;
            for (int q = 0; q < h; q++)
                memcpy(gA + (size_t)q * job->f + (size_t)tt * st.fl, st.gA + l * slice + (size_t)q * st.fl, (size_t)st.fl * sizeof(float));
            memcpy(gB + (size_t)tt * st.fl * h, st.gB + l * slice, slice * sizeof(float));
        }
    free(steps);
    pw_free(st.A); pw_free(st.gA); pw_free(st.xin); pw_free(st.u); pw_free(st.out);
    pw_free(st.z); pw_free(st.dx); pw_free(st.dy); pw_free(st.v); pw_free(st.du);
    coll_comm_free(&tp);
    coll_comm_free(&pipe);
    coll_comm_free(&dp);
}
