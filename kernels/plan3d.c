/* kernels/plan3d.c: the planner's full step model (plan3d.h says what and why). */
#include "plan3d.h"
#include "collectives.h"
#include "gpu_model.h"
#include "tensor_parallel.h"
#include "zero.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- devices and their clusters ------------------------------------------------------
 * gpu: the device file (common/gpus/): SMs, dense BF16 Tensor Core peak, memory bandwidth.
 * mamf: the highest BF16 matmul rate measured over many shapes, "Maximum Achievable Matmul
 *   FLOPS" (S. Bekman, ml-engineering, compute/accelerator/README.md, "Maximum Achievable
 *   Matmul FLOPS comparison table", https://github.com/stas00/ml-engineering): A100 SXM
 *   267.9 TFLOP/s (CUDA 12.1), H100 SXM 792.1 (CUDA 12.1). The table has no H200; H100's
 *   share of peak (80.1%) stands in for it (the same GH100 chip), and is named so.
 * nvlink: per GPU per direction, the NVLink switch of a DGX node: A100 600 GB/s total
 *   (NVIDIA A100 datasheet: "NVLink 600GB/s"), so 300 a direction; H100 and H200 900 GB/s
 *   (H100, H200 datasheets), 450 a direction.
 * net: one InfiniBand adapter per GPU: Selene's DGX A100 nodes have 8 HDR 200 Gb/s
 *   (Narayanan et al. 2021, section 5: "eight NVIDIA 200 Gbps HDR InfiniBand HCAs"),
 *   25 GB/s each; DGX H100/H200: 8 NDR 400 Gb/s (DGX H100 datasheet), 50 GB/s.
 * alpha: cluster.h's defaults (1 us NVLink, 5 us network).
 * mem: the device's memory, GB (datasheets: 80, 80, 141). */
typedef struct {
    const char *name, *gpu, *label;
    double mamf_tflops, mamf_share, mem_gb, nvlink_gbs, net_gbs;
} device_row;
static const device_row devices[] = {
    { "a100-80gb", "a100-sxm", "A100 80GB SXM, DGX A100 nodes as on Selene (NVLink 3, 8 x HDR 200 Gb/s)", 267.9, 0, 80,
      300, 25 },
    { "h100-sxm", "h100-sxm", "H100 SXM 80GB, DGX H100 nodes (NVLink 4, 8 x NDR 400 Gb/s)", 792.1, 0, 80, 450, 50 },
    { "h200-sxm", "h200-sxm", "H200 SXM 141GB, DGX H200 nodes (NVLink 4, 8 x NDR 400 Gb/s; MAMF share: H100's)", 0,
      792.1 / 989.5, 141, 450, 50 },
};
#define NDEVICES ((int)(sizeof devices / sizeof devices[0]))

const char *p3_device_names(void) { return "a100-80gb, h100-sxm, h200-sxm"; }

int p3_device_cluster(const char *name, int nodes, p3_cluster *out, const char **label, char *err, size_t errlen)
{
    for (int i = 0; i < NDEVICES; i++) {
        if (strcmp(name, devices[i].name)) continue;
        pw_gpu g;
        if (pw_gpu_find(devices[i].gpu, &g, err, errlen)) return -1;
        const device_row *r = &devices[i];
        double share = r->mamf_tflops > 0 ? r->mamf_tflops / g.tc16_dense_tflops : r->mamf_share;
        *out = (p3_cluster){ nodes, 8, 1e-6, r->nvlink_gbs, 5e-6, r->net_gbs, g.tc16_dense_tflops, share, r->mem_gb,
                             g.dram_gbs, g.sms };
        if (label) *label = r->label;
        return 0;
    }
    /* A device file (a path, or a name ending .gpu): the chip's figures from it; what a
     * device file does not hold (the node's links, the memory size, a measured matmul
     * rate) is left 0 for the caller's flags to give. */
    if (strchr(name, '/') || (strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".gpu"))) {
        pw_gpu g;
        if (pw_gpu_find(name, &g, err, errlen)) return -1;
        if (!(g.tc16_dense_tflops > 0)) {
            snprintf(err, errlen, "%s: no tc16_dense_tflops: the planner needs a Tensor Core peak", name);
            return -1;
        }
        *out = (p3_cluster){ nodes, 8, 1e-6, 0, 5e-6, 0, g.tc16_dense_tflops, 0, 0, g.dram_gbs, g.sms };
        if (label) *label = "from a device file; links, memory and matmul rate from the flags";
        return 0;
    }
    snprintf(err, errlen, "unknown device '%s' (known: %s, or a device file's path)", name, p3_device_names());
    return -1;
}

/* ---- shapes ----------------------------------------------------------------------------- */

int p3_layers_on_stage(int layers, int p, int s)
{
    return layers / p + (s < layers % p ? 1 : 0);
}

static int chunks(const p3_choices *ch) { return ch->v > 1 ? ch->v : 1; }
static int zero_stage(const p3_config *cf, const p3_choices *ch) { return ch->zero > 0 ? ch->zero : (cf->zero1 ? 1 : 0); }
static bool sp_on(const p3_config *cf, const p3_choices *ch) { return !ch->no_sp && cf->t > 1; }

/* Parameters of one layer: 12 h^2 (1 + 13 / (12 h)) (weights and biases). */
static double layer_params(const p3_model *md)
{
    double h = md->hidden;
    return 12 * h * h * (1 + 13 / (12 * h));
}

/* ---- memory ------------------------------------------------------------------------------ */

/* Activations a layer keeps for one micro-batch (Korthikanti et al. 2022, sections
 * 4.2-4.3): none recomputed s b h (34 + 5 a s / h) / t with sequence parallelism, s b h (10
 * + 24 / t + 5 a s / (h t)) without; selective drops the 5 a s / h part (the attention
 * core, recomputed); full keeps the layer's input, 2 s b h (/ t with SP). */
static double layer_activations(const p3_model *md, const p3_config *cf, const p3_choices *ch)
{
    tp_shape sh = { cf->b, md->seq, md->hidden, md->heads };
    double sbh = (double)cf->b * md->seq * md->hidden;
    bool sp = sp_on(cf, ch);
    if (cf->recompute) return 2 * sbh / (sp ? cf->t : 1);
    if (ch->selective) return sp ? 34 * sbh / cf->t : sbh * (10 + 24.0 / cf->t);
    return tp_paper_activation_bytes(&sh, cf->t, sp);
}

/* Stage s's memory. 1F1B keeps min(p, m) micro-batches in flight on stage 0, p - s on
 * stage s; interleaving keeps (1 + (p - 1) / (p v)) times as many layers' worth
 * (Korthikanti et al. 2022, section 4.2.3). The first stage holds the token and position
 * embeddings, the last the output layer (tied to the token embedding: its own copy). */
static void stage_memory(const p3_model *md, const p3_config *cf, const p3_choices *ch, int s, p3_memory *out)
{
    int nl = p3_layers_on_stage(md->layers, cf->p, s), z = zero_stage(cf, ch);
    double params = nl * layer_params(md) / cf->t;
    if (s == 0) params += ((double)md->vocab + md->seq) * md->hidden / cf->t;
    if (s == cf->p - 1 && cf->p > 1) params += (double)md->vocab * md->hidden / cf->t;
    /* the model states by ZeRO's formula (kernels/zero.h, chapter 16's): bf16 weights and
     * gradients, 12 bytes of fp32 master weights and Adam moments */
    zero_memory states = zero_model_states(params, z, cf->d, 2, 2, 12);
    out->weights = states.weights;
    out->grads = states.grads;
    out->optimizer = states.optimizer;
    double inflight = fmin((double)cf->m, (double)(cf->p - s));
    if (chunks(ch) > 1) inflight *= 1 + (cf->p - 1.0) / ((double)cf->p * chunks(ch));
    double layer = layer_activations(md, cf, ch);
    out->activations = nl * inflight * layer;
    if (cf->recompute) {   /* one layer's whole set exists while it is recomputed */
        p3_config none = *cf;
        p3_choices keep_all = *ch;
        none.recompute = false;
        keep_all.selective = false;
        out->activations += layer_activations(md, &none, &keep_all);
    }
    out->total = out->weights + out->grads + out->optimizer + out->activations;
}

void p3_memory_full(const p3_model *md, const p3_config *cf, const p3_choices *ch, p3_memory *out)
{
    out->total = -1;
    for (int s = 0; s < cf->p; s++) {
        p3_memory m;
        stage_memory(md, cf, ch, s, &m);
        if (m.total > out->total) *out = m;
    }
}

/* ---- time ------------------------------------------------------------------------------ */

/* Tiles of 256 x 128 (or 128 x 256, whichever takes fewer waves): the shapes NVIDIA's
 * "Matrix Multiplication Background User's Guide" (section 2.3, "Typical Tile Dimensions
 * in cuBLAS") lists as the most efficient. One tile at a time per SM, at the MAMF rate
 * over the SMs; a wave that is not full still takes a whole tile's time (wave
 * quantization, section 3.2), a tile past the edge still computes whole (tile
 * quantization, 3.1). And no faster than A, B and C through device memory once. */
double p3_gemm_time(const p3_cluster *cl, double count, double m, double n, double k)
{
    double rate = cl->peak_tflops * 1e12 * cl->matmul_eff, flops = 2 * m * n * k * count;
    if (cl->sms <= 0 || cl->dram_gbs <= 0) return flops / rate;
    double best = INFINITY;
    for (int o = 0; o < 2; o++) {
        double tm = o ? 128 : 256, tn = o ? 256 : 128;
        double waves = ceil(ceil(m / tm) * ceil(n / tn) * count / cl->sms);
        double t = waves * 2 * tm * tn * k / (rate / cl->sms);
        if (t < best) best = t;
    }
    double bytes = 2 * (m * k + k * n + m * n) * count;
    return fmax(best, bytes / (cl->dram_gbs * 1e9));
}

/* One layer's forward on one device, one micro-batch: its matmuls (Megatron's split: QKV
 * and fc1 by columns, proj and fc2 by rows; the attention core per head) and its
 * memory-bound bytes. With Megatron-LM's fused kernels (SC21 section 4.2: bias + GeLU,
 * bias + dropout + add, scale + mask + softmax) each moves its inputs and outputs once, in
 * bf16: the two layer norms 4 bytes an element each (read, write), the two dropout-adds 7
 * (read the input and the residual, write, a 1-byte mask), GeLU 8 on the 4h-wide
 * activation, and on the attention scores softmax 4 and dropout 5. With sequence
 * parallelism the norms and dropout-adds run on s/t of the tokens. */
typedef struct { double gemm, attn_gemm, memops, attn_memops, back_gemm, back_attn_gemm; } layer_cost;

/* A matmul's backward: for C = A B (m x k times k x n), the input gradient dA = dC B^T
 * (m x n times n x k) and the weight gradient dB = A^T dC (k x m times m x n). */
static double gemm_backward(const p3_cluster *cl, double count, double m, double n, double k)
{
    return p3_gemm_time(cl, count, m, k, n) + p3_gemm_time(cl, count, k, n, m);
}

static layer_cost layer_forward(const p3_model *md, const p3_cluster *cl, const p3_config *cf, const p3_choices *ch)
{
    double n = (double)cf->b * md->seq, h = md->hidden, t = cf->t, s = md->seq, hd = h / md->heads;
    double heads = (double)cf->b * md->heads / t;
    /* m x n x k of each: QKV, proj, fc1, fc2; scores Q K^T and context P V per head */
    const double mm[4][3] = { { n, 3 * h / t, h }, { n, h, h / t }, { n, 4 * h / t, h }, { n, h, 4 * h / t } };
    const double at[2][3] = { { s, s, hd }, { s, hd, s } };
    layer_cost c = { 0, 0, 0, 0, 0, 0 };
    for (int i = 0; i < 4; i++) {
        c.gemm += p3_gemm_time(cl, 1, mm[i][0], mm[i][1], mm[i][2]);
        c.back_gemm += gemm_backward(cl, 1, mm[i][0], mm[i][1], mm[i][2]);
    }
    for (int i = 0; i < 2; i++) {
        c.attn_gemm += p3_gemm_time(cl, heads, at[i][0], at[i][1], at[i][2]);
        /* both operands are activations: the two gradients are input gradients */
        c.back_attn_gemm += gemm_backward(cl, heads, at[i][0], at[i][1], at[i][2]);
    }
    double bw = cl->dram_gbs > 0 ? cl->dram_gbs * 1e9 : INFINITY, e = n * h, rows = sp_on(cf, ch) ? e / t : e;
    c.memops = (2 * 4 * rows + 2 * 7 * rows + 8 * 4 * e / t) / bw;
    c.attn_memops = 9 * heads * s * s / bw;
    return c;
}

static void link(const p3_cluster *cl, bool crosses, double *alpha, double *beta)
{
    *alpha = crosses ? cl->inter_alpha : cl->intra_alpha;
    *beta = 1.0 / ((crosses ? cl->inter_gbs : cl->intra_gbs) * 1e9);
}

/* One pipeline message of `elems` bf16 from stage s to s + 1. Across nodes with
 * scatter/gather (SC21 4.1) each of the t tensor ranks sends 1/t of it on its own
 * adapter and the receiving node all-gathers it over NVLink; without, every tensor rank
 * sends it whole on its adapter, side by side. With sequence parallelism each rank holds
 * 1/t of it already. */
static double hop(const p3_cluster *cl, const p3_config *cf, const p3_choices *ch, double elems, int s)
{
    bool cross = p3_rank_of(cf, 0, 0, s) / cl->per_node != p3_rank_of(cf, 0, 0, s + 1) / cl->per_node;
    double a, b, bytes = 2 * elems;
    link(cl, cross, &a, &b);
    if (sp_on(cf, ch)) return a + bytes / cf->t * b;
    if (!cross || cf->t == 1 || ch->no_scatter_gather) return a + bytes * b;
    double ia, ib;
    link(cl, false, &ia, &ib);
    return a + bytes / cf->t * b + (cf->t - 1) * (ia + bytes / cf->t * ib);
}

void p3_step_full(const p3_model *md, const p3_cluster *cl, const p3_config *cf, const p3_choices *ch, p3_step *out)
{
    memset(out, 0, sizeof *out);
    double m = (double)cf->m, v = chunks(ch), n = (double)cf->b * md->seq, h = md->hidden;
    layer_cost lc = layer_forward(md, cl, cf, ch);
    /* forward, backward (each matmul's two gradients at their own shapes; twice the
     * forward's bytes), and what recomputation repeats: the whole forward, or the
     * attention core */
    double f_gemm = lc.gemm + lc.attn_gemm, f_mem = lc.memops + lc.attn_memops;
    double re_gemm = cf->recompute ? f_gemm : ch->selective ? lc.attn_gemm : 0;
    double re_mem = cf->recompute ? f_mem : ch->selective ? lc.attn_memops : 0;
    double gemm_layer = f_gemm + lc.back_gemm + lc.back_attn_gemm + re_gemm, mem_layer = 3 * f_mem + re_mem;
    double back_layer = lc.back_gemm + lc.back_attn_gemm + 2 * f_mem;
    double a, b;
    link(cl, p3_group_crosses(cf, cl->per_node, 't'), &a, &b);
    double ar = coll_model_ring(cf->t, (size_t)(n * h), 2, a, b);
    double tp_layer = (4 + (cf->recompute ? 2 : 0)) * ar;
    /* the output layer: logits n x V/t, forward and backward (3 matmuls' worth), the loss's
     * softmax reading and writing them; the embedding's lookup and its gradient */
    double bw = cl->dram_gbs > 0 ? cl->dram_gbs * 1e9 : INFINITY;
    double vt = (double)md->vocab / cf->t;
    double logits = p3_gemm_time(cl, 1, n, vt, h) + gemm_backward(cl, 1, n, vt, h) + 8 * n * vt / bw;
    double embed = 3 * 2 * n * h / bw;
    double sum = 0, worst = -1, worst_gemm = 0, worst_mem = 0, worst_tp = 0, worst_logits = 0, worst_layers = 0;
    out->layers_min = md->layers;
    for (int s = 0; s < cf->p; s++) {
        int nl = p3_layers_on_stage(md->layers, cf->p, s);
        double g = nl * gemm_layer, mo = nl * mem_layer + (s == 0 ? embed : 0), tp = nl * tp_layer;
        double lg = s == cf->p - 1 ? logits : 0, ts = g + mo + tp + lg;
        sum += ts;
        if (ts > worst) {
            worst = ts; worst_gemm = g; worst_mem = mo; worst_tp = tp; worst_logits = lg; worst_layers = nl;
            out->slowest_stage = s;
        }
        if (nl < out->layers_min) out->layers_min = nl;
        if (nl > out->layers_max) out->layers_max = nl;
    }
    out->gemm = m * worst_gemm;
    out->memops = m * worst_mem;
    out->tp = m * worst_tp;
    out->logits = m * worst_logits;
    /* 1F1B with stages of unequal time: the first micro-batch crosses every stage, each
     * later one follows at the slowest stage's pace; v chunks a device cut the fill and
     * drain v ways (SC21 2.2.2: bubble (p - 1) / (v m)). */
    out->bubble = (sum - worst) / v;
    /* Pipeline messages: forward and back on every hop for the first micro-batch, then at
     * the slowest hop's pace; with v chunks every micro-batch crosses the devices v times. */
    double hops = 0, slowest = 0;
    for (int s = 0; s + 1 < cf->p; s++) {
        double c = hop(cl, cf, ch, n * h, s);
        hops += c;
        slowest = c > slowest ? c : slowest;
    }
    if (cf->p > 1) out->pp = 2 * hops + 2 * (m * v - 1) * slowest + (v > 1 ? 2 * (v - 1) * slowest : 0);
    /* Gradients over the d replicas (bf16): a ring all-reduce; ZeRO-2 makes it a
     * reduce-scatter and an all-gather of the weights (the same bytes), ZeRO-3 gathers
     * the weights again for the forward and the backward (1.5 times). The tied embedding's
     * gradient is also all-reduced between the first and the last stage. */
    int z = zero_stage(cf, ch);
    double params = (double)out->layers_max * layer_params(md) / cf->t + (double)md->vocab * md->hidden / cf->t;
    link(cl, p3_group_crosses(cf, cl->per_node, 'd'), &a, &b);
    /* ZeRO-3's bytes over the ring's (3 psi against 2 psi: kernels/zero.h) */
    double zero3_factor = cf->d > 1 ? zero_comm_elems(1, z, cf->d) / zero_comm_elems(1, 0, cf->d) : 1;
    out->dp = coll_model_ring(cf->d, (size_t)params, 2, a, b) * zero3_factor;
    if (cf->p > 1) {
        double ea, eb;
        link(cl, true, &ea, &eb);
        out->dp += coll_model_ring(2, (size_t)((double)md->vocab * md->hidden / cf->t), 2, ea, eb);
    }
    /* overlapped with the last micro-batch's backward on the slowest stage */
    double last_backward = worst_layers * (back_layer + 2 * ar);
    out->dp_exposed = ch->overlap_dp ? fmax(0, out->dp - last_backward) : out->dp;
    /* Adam: read the gradient (2 bytes), the fp32 master, m and v (12), write them (12) and
     * the bf16 weights (2): 28 bytes a parameter it updates. */
    out->optimizer = 28 * params / (z >= 1 ? cf->d : 1) / bw;
    out->total = out->gemm + out->memops + out->tp + out->logits + out->pp + out->bubble + out->dp_exposed +
                 out->optimizer;
}

/* ---- flops --------------------------------------------------------------------------- */

static double tokens(const p3_model *md) { return (double)md->batch * md->seq; }

double p3_model_flops(const p3_model *md)
{
    double N = md->layers * layer_params(md);
    return tokens(md) * (6 * N + 12.0 * md->layers * md->hidden * md->seq);
}

double p3_hardware_flops(const p3_model *md, const p3_config *cf, const p3_choices *ch)
{
    double N = md->layers * layer_params(md), Lhs = (double)md->layers * md->hidden * md->seq;
    if (cf->recompute) return tokens(md) * (8 * N + 16 * Lhs);
    if (ch->selective) return tokens(md) * (6 * N + 16 * Lhs);
    return p3_model_flops(md);
}

double p3_sc21_flops(const p3_model *md)
{
    double L = md->layers, h = md->hidden, s = md->seq;
    return 96.0 * md->batch * s * L * h * h * (1 + s / (6 * h) + md->vocab / (16 * L * h));
}

/* ---- plans ------------------------------------------------------------------------- */

void p3_plan_one(const p3_model *md, const p3_cluster *cl, const p3_config *cf, p3_plan *out)
{
    p3_choices none = { 0, false, false, 0, false, false };
    p3_plan_with(md, cl, cf, &none, out);
}

void p3_plan_with(const p3_model *md, const p3_cluster *cl, const p3_config *cf, const p3_choices *ch, p3_plan *out)
{
    out->cf = *cf;
    out->ch = *ch;
    p3_memory_full(md, cf, ch, &out->mem);
    p3_step_full(md, cl, cf, ch, &out->step);
    const p3_step *st = &out->step;
    out->time = (p3_time){ st->gemm + st->memops + st->logits + st->optimizer, st->tp, st->pp, st->bubble,
                           st->dp_exposed, st->total };
    double peak = (double)cf->d * cf->t * cf->p * cl->peak_tflops * 1e12 * st->total;
    out->mfu = p3_model_flops(md) / peak;
    out->hfu = p3_hardware_flops(md, cf, ch) / peak;
    out->tflops_sc21 = p3_sc21_flops(md) / (st->total * cf->d * cf->t * cf->p) / 1e12;
}

p3_pins p3_pins_free(void)
{
    return (p3_pins){ P3_FREE, P3_FREE, P3_FREE, P3_FREE, P3_FREE, P3_FREE, P3_FREE, P3_FREE, P3_FREE };
}

int p3_pins_check(const p3_model *md, const p3_cluster *cl, const p3_pins *pn, char *why, size_t len)
{
    long long N = (long long)cl->nodes * cl->per_node;
    if (pn->t > 0 && md->heads % pn->t) {
        snprintf(why, len, "--tp %d: the tensor degree must divide the %d attention heads", pn->t, md->heads);
        return 1;
    }
    if (pn->t > 0 && N % pn->t) {
        snprintf(why, len, "--tp %d: the tensor degree must divide the %lld devices", pn->t, N);
        return 1;
    }
    if (pn->p > md->layers) {
        snprintf(why, len, "--pp %d: more pipeline stages than the model's %d layers", pn->p, md->layers);
        return 1;
    }
    long long t = pn->t > 0 ? pn->t : 1, p = pn->p > 0 ? pn->p : 1;
    if (pn->d > 0 && pn->t > 0 && pn->p > 0 && (long long)pn->d * t * p != N) {
        snprintf(why, len, "--dp %d x --tp %d x --pp %d = %lld, not the %lld devices", pn->d, pn->t, pn->p,
                 (long long)pn->d * t * p, N);
        return 1;
    }
    if (pn->d > 0 && N % ((long long)pn->d * t * p)) {
        snprintf(why, len, "--dp %d: d x t x p must be the %lld devices", pn->d, N);
        return 1;
    }
    long long d = pn->d > 0 ? pn->d : (pn->t > 0 && pn->p > 0 ? N / (t * p) : 0);
    if (d > 0 && pn->b > 0 && md->batch % (d * pn->b)) {
        snprintf(why, len, "the global batch of %lld sequences is not a multiple of d x micro-batch = %lld x %d",
                 md->batch, d, pn->b);
        return 1;
    }
    if (pn->v > 1 && pn->p > 0 && (pn->p == 1 || (long long)pn->p * pn->v > md->layers)) {
        snprintf(why, len, "--virtual-stages %d: needs p > 1 and at least one layer per chunk (p v <= %d layers)", pn->v,
                 md->layers);
        return 1;
    }
    return 0;
}

static int by_time(const void *x, const void *y)
{
    const p3_plan *p = x, *q = y;   /* ties go to the smaller memory */
    if (p->time.total != q->time.total) return (p->time.total > q->time.total) - (p->time.total < q->time.total);
    return (p->mem.total > q->mem.total) - (p->mem.total < q->mem.total);
}

static const int micro_sizes[] = { 1, 2, 4, 8 }, chunk_counts[] = { 1, 2, 4 };
static bool pinned_ok(int pin, int value) { return pin == P3_FREE || pin == value; }

typedef struct {
    p3_plan *out;
    int max, count;
} plans_kept;

static void keep(plans_kept *k, const p3_plan *pl)
{
    if (k->count < k->max) k->out[k->count] = *pl;
    else if (k->max > 0 && pl->time.total < k->out[k->max - 1].time.total) k->out[k->max - 1] = *pl;
    else { k->count++; return; }
    k->count++;
    int kept = k->count < k->max ? k->count : k->max;
    qsort(k->out, (size_t)kept, sizeof *k->out, by_time);
}

int p3_plan_search(const p3_model *md, const p3_cluster *cl, const p3_pins *pn, p3_plan *out, int max)
{
    plans_kept k = { out, max, 0 };
    long long N = (long long)cl->nodes * cl->per_node;
    for (int t = 1; t <= md->heads; t++) {
        if (md->heads % t || N % t || !pinned_ok(pn->t, t)) continue;
        for (int p = 1; p <= md->layers; p++) {
            if (N % ((long long)t * p) || !pinned_ok(pn->p, p)) continue;
            long long d = N / ((long long)t * p);
            if (!pinned_ok(pn->d, (int)d)) continue;
            for (size_t bi = 0; bi < sizeof micro_sizes / sizeof *micro_sizes; bi++) {
                int b = micro_sizes[bi];
                if (md->batch % (d * b) || !pinned_ok(pn->b, b)) continue;
                for (size_t vi = 0; vi < sizeof chunk_counts / sizeof *chunk_counts; vi++) {
                    int v = chunk_counts[vi];
                    if (!pinned_ok(pn->v, v) || (v > 1 && (p == 1 || (long long)p * v > md->layers))) continue;
                    for (int rc = 0; rc < 3; rc++)
                        for (int sp = 0; sp < 2; sp++)
                            for (int z = 0; z < 4; z++)
                                for (int ov = 0; ov < 2; ov++) {
                                    if (!pinned_ok(pn->recompute, rc) || !pinned_ok(pn->sp, sp) ||
                                        !pinned_ok(pn->zero, z) || !pinned_ok(pn->overlap_dp, ov))
                                        continue;
                                    /* searched freely, ZeRO is 0 or 1 and the reduce overlapped or not
                                     * as pinned; ZeRO-2/3 only when asked for (their gathers are the
                                     * model's roughest terms) */
                                    if (pn->zero == P3_FREE && z > 1) continue;
                                    if (sp && t == 1) continue;   /* SP means nothing without TP */
                                    p3_config cf = { (int)d, t, p, b, md->batch / d / b, z == 1, rc == 2, P3_ORDER_TDP };
                                    p3_choices ch = { v, rc == 1, !sp, z, ov == 1, false };
                                    p3_plan pl;
                                    p3_plan_with(md, cl, &cf, &ch, &pl);
                                    if (pl.mem.total <= cl->mem_gb * 1e9) keep(&k, &pl);
                                }
                }
            }
        }
    }
    return k.count;
}

int p3_plan_all(const p3_model *md, const p3_cluster *cl, p3_order order, p3_plan *out, int max)
{
    p3_pins pn = p3_pins_free();
    int n = p3_plan_search(md, cl, &pn, out, max);
    if (order != P3_ORDER_TDP) {   /* the same plans, ranks placed the other way */
        int kept = n < max ? n : max;
        for (int i = 0; i < kept; i++) {
            p3_config cf = out[i].cf;
            p3_choices ch = out[i].ch;
            cf.order = order;
            p3_plan_with(md, cl, &cf, &ch, &out[i]);
        }
        qsort(out, (size_t)kept, sizeof *out, by_time);
    }
    return n;
}

int p3_pins_config(const p3_model *md, const p3_cluster *cl, const p3_pins *pn, p3_config *cf, p3_choices *ch)
{
    long long N = (long long)cl->nodes * cl->per_node;
    if (pn->t <= 0 || pn->p <= 0 || pn->b <= 0 || pn->v < 0 || pn->recompute < 0 || pn->sp < 0 || pn->zero < 0 ||
        pn->overlap_dp < 0)
        return -1;
    long long d = pn->d > 0 ? pn->d : N / ((long long)pn->t * pn->p);
    *cf = (p3_config){ (int)d, pn->t, pn->p, pn->b, md->batch / d / pn->b, pn->zero == 1, pn->recompute == 2,
                       P3_ORDER_TDP };
    *ch = (p3_choices){ pn->v, pn->recompute == 1, !pn->sp, pn->zero, pn->overlap_dp == 1, false };
    return 0;
}
