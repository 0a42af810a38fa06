/* kernels/parallel3d.h: data x tensor x pipeline parallelism together
 * ("3D"), as Megatron-LM composes them (D. Narayanan et al., "Efficient
 * large-scale language model training on GPU clusters using Megatron-LM",
 * SC 2021, arXiv:2104.04473). Two halves:
 *
 * 1. The planner's arithmetic, pure closed forms: the memory one device
 *    needs for a configuration (weights, gradients, Adam state with and
 *    without ZeRO-1, activations with and without full recomputation) and
 *    the modelled step time split into compute, TP, PP and DP communication
 *    and bubble, from the same alpha-beta link model the virtual cluster
 *    uses (common/cluster/cluster.h). The planner enumerates every d x t x p (and
 *    micro-batch size b, so m = B / (d b)) that fits and ranks them.
 *
 * 2. The composed run with real data (p3_rank): d replicas of a p-stage
 *    pipeline whose every stage is a t-way Megatron-split MLP stack, groups
 *    made with coll_comm_split, GPipe or 1F1B orders from kernels/pipeline.h,
 *    the gradients all-reduced over the data-parallel group at the end; and
 *    its unsplit reference. The validation compares that run's modelled time
 *    with p3_time_model on the same numbers.
 *
 * ---- Placing ranks: the mapping ------------------------------------------------
 * A world rank is a coordinate (dd, tt, pp) in a d x t x p grid. Megatron's
 * order puts tensor-parallel ranks next to each other (so a TP group lives
 * in one node, on NVLink), then data, then pipeline:
 *   P3_ORDER_TDP   rank = (pp d + dd) t + tt       (the right mapping)
 *   P3_ORDER_PDT   rank = (tt d + dd) p + pp       (the wrong one: pipeline
 *                  neighbours inside a node, tensor groups across nodes)
 * Ranks r and s share a node when r / per_node == s / per_node (cluster.h).
 */
#ifndef PW_PARALLEL3D_H
#define PW_PARALLEL3D_H

#include <stdbool.h>
#include <stddef.h>

#include "collectives.h"

/* ---- the model, the cluster, a configuration ---------------------------------- */
typedef struct {
    const char *name;
    int layers;             /* L transformer layers */
    int hidden;             /* h */
    int heads;              /* a (query heads; GQA's fewer key/value heads ignored) */
    int seq;                /* s tokens per sequence */
    int vocab;              /* V */
    long long batch;        /* B: sequences in one global batch (one optimizer step) */
} p3_model;

typedef struct {
    int nodes, per_node;    /* devices = nodes x per_node */
    double intra_alpha, intra_gbs;   /* NVLink-like: s, GB/s per direction */
    double inter_alpha, inter_gbs;   /* network-like */
    double peak_tflops;     /* the device's dense 16-bit peak (the MFU denominator) */
    double matmul_eff;      /* the share of peak the largest matmuls sustain (a device's measured MAMF / peak,
                               kernels/plan3d.c; or an assumption, 0.6, where none is given) */
    double mem_gb;          /* device memory, GB (1e9 bytes) */
    /* The full step model's device (kernels/plan3d.h); 0: left out, so matmuls run at
     * matmul_eff x peak whatever their shape and the memory-bound operations cost nothing. */
    double dram_gbs;        /* device memory bandwidth, GB/s */
    int sms;                /* streaming multiprocessors: the waves of a matmul's tiles */
} p3_cluster;

typedef enum { P3_ORDER_TDP = 0, P3_ORDER_PDT = 1 } p3_order;

typedef struct {
    int d, t, p;            /* data, tensor, pipeline degrees; d t p = devices */
    int b;                  /* sequences per micro-batch */
    long long m;            /* micro-batches per replica per step: B / (d b) */
    bool zero1;             /* optimizer state sharded over the d replicas */
    bool recompute;         /* full activation recomputation */
    p3_order order;
} p3_config;

/* The defaults, with sources, are in parallel3d.c. */
p3_model p3_gpt3_175b(void);
p3_model p3_llama2_70b(void);
p3_cluster p3_cluster_default(int nodes);   /* 8 per node, cluster.h's links, H100-like device */

/* 0 when the model and cluster are usable; else 1 and why (one line). */
int p3_model_check(const p3_model *md, char *why, size_t len);
int p3_cluster_check(const p3_cluster *cl, char *why, size_t len);

/* Parameters: 12 L h^2 (1 + 13/(12 h)) + (V + s) h  (Narayanan et al. 2021,
 * section 5.1: the layers' weights and biases, the token and position
 * embeddings). */
double p3_params(const p3_model *md);

/* ---- memory (bytes on one device) --------------------------------------------------- */
typedef struct {
    double weights;         /* 2 bytes/param: bf16 */
    double grads;           /* 2 bytes/param: bf16 */
    double optimizer;       /* 12 bytes/param: fp32 master, Adam m and v; / d with ZeRO-1 */
    double activations;     /* Korthikanti et al. 2022, see parallel3d.c */
    double total;
} p3_memory;
/* Model states per parameter, ZeRO (S. Rajbhandari et al., "ZeRO: memory
 * optimizations toward training trillion parameter models", SC 2020): mixed
 * precision Adam keeps 2 + 2 + 12 = 16 bytes; ZeRO stage 1 (P_os) shards the
 * 12 over the d replicas: 4 + 12/d. */
double p3_state_bytes_per_param(bool zero1, int d);
void p3_memory_of(const p3_model *md, const p3_config *cf, p3_memory *out);

/* ---- time -------------------------------------------------------------------------- */
/* What one device does for one micro-batch on its stage, and what it sends:
 * the planner fills it from the transformer's formulas, the validation from
 * the MLP stack it runs. */
typedef struct {
    double f_flops, b_flops;    /* forward, backward (with recomputation: + a forward) */
    int tp_f, tp_b;             /* TP all-reduces in the forward, the backward */
    size_t tp_elems;            /* elements of each TP all-reduce */
    size_t pp_elems;            /* elements of the activation sent to the next stage */
    size_t dp_elems;            /* gradient elements one device all-reduces over d */
    size_t elem_bytes;          /* 2 (bf16) in the planner, 4 (fp32) in the validation */
} p3_work;
void p3_transformer_work(const p3_model *md, const p3_config *cf, p3_work *w);

typedef struct {
    double compute;         /* m (f + b) flops / sustained rate */
    double tp;              /* m (tp_f + tp_b) ring all-reduces over t */
    double pp;              /* 2 sum_hops c + 2 (m - 1) c_slowest: activations out, gradients back */
    double bubble;          /* (p - 1) x one micro-batch's forward + backward (with its TP all-reduces) */
    double dp;              /* one ring all-reduce of the gradients over d */
    double total;
} p3_time;
/* The step: (m + p - 1)(t_F + t_B) + 2 sum_hops c + 2 (m - 1) c_slowest
 * + T_dp, with t_F, t_B a micro-batch's compute and TP all-reduces on one
 * stage, c = alpha + bytes beta of one activation message on a hop between
 * neighbouring stages, T_dp the ring
 * all-reduce of one device's gradients over its d replicas (GPipe's and
 * 1F1B's span, as kernels/pipeline.h; nothing overlapped, and no message
 * waiting behind another on a link: p3_gpipe_queue_bound says when that
 * holds). rate_flops: the sustained rate, flop/s. */
void p3_time_model(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate_flops, p3_time *out);
/* When GPipe's composed run (p3_rank) equals p3_time_model, and by how much
 * it may exceed it otherwise. The formula assumes each stage's link carries
 * one kind of traffic at a time. On the virtual cluster a rank's incoming
 * link takes one message at a time (cluster.h), pipeline messages and TP
 * all-reduce messages alike, and sends are eager, so a stage fed by a faster
 * neighbour receives the next micro-batch's activation (or gradient) while
 * it is still inside a TP all-reduce of an earlier one: a TP message that
 * reaches the link behind it waits. A stage is fed faster when its own
 * outgoing hop costs more than every hop before it (forward) or after it
 * (backward); with 8 ranks a node, 2x2x4 tensor-first has hops NVLink,
 * network, NVLink: stage 1 sends over the network and is fed over NVLink.
 * So the run equals the formula (to rounding) whenever t = 1 or the
 * pipeline's first and last hops are both as slow as its slowest one (all
 * hops alike, p <= 2, ...). Otherwise it is at least the formula and at
 * most the formula plus the returned bound, (m - 1) x the incoming hop's
 * cost summed over the late stages and directions (their number in
 * *late_stages, may be NULL): whether a message really collides depends
 * on where in the stage's all-reduces it lands, which drifts by the two
 * hops' difference every micro-batch (in validate's 2x2x4 the first
 * collision comes at m = 6). Returns 0 when the formula is exact. */
double p3_gpipe_queue_bound(const p3_work *w, const p3_cluster *cl, const p3_config *cf, int *late_stages);
/* Model FLOPs utilisation: 6 P tokens / (step x devices x peak)
 * (A. Chowdhery et al., "PaLM", 2022, appendix B, without the attention term). */
double p3_mfu(const p3_model *md, const p3_cluster *cl, int devices, double step);

/* ---- placing ranks ---------------------------------------------------------------- */
int p3_rank_of(const p3_config *cf, int dd, int tt, int pp);
void p3_coords(const p3_config *cf, int rank, int *dd, int *tt, int *pp);
/* Does group `which` ('t', 'd', 'p') of rank 0 cross nodes? For 'p': does
 * any hop between neighbouring stages. */
bool p3_group_crosses(const p3_config *cf, int per_node, char which);
const char *p3_order_name(p3_order o);

/* ---- the planner ------------------------------------------------------------------ */
/* The full step, term by term (kernels/plan3d.c, p3_step_full). Seconds. */
typedef struct {
    double gemm;            /* m x the slowest stage's matmuls (shape by shape, waves and memory bound) */
    double memops;          /* m x its memory-bound operations (layer norms, softmax, dropout, GeLU) */
    double logits;          /* m x the output layer's matmul and loss on the last stage (in gemm when slowest) */
    double tp;              /* m x its tensor-parallel all-reduces */
    double pp;              /* pipeline messages on the critical path */
    double bubble;          /* the fill and drain: (sum of stage times - the slowest) / v */
    double dp;              /* the gradient all-reduce (ZeRO: reduce-scatter + all-gathers) */
    double dp_exposed;      /* ... of it not hidden behind the backward */
    double optimizer;       /* Adam's update, memory-bound */
    double total;
    int layers_min, layers_max;   /* layers on the lightest and the heaviest stage */
    int slowest_stage;
} p3_step;

/* The full step model's further choices (kernels/plan3d.h). All 0 (as p3_plan_one
 * takes them): one model chunk a device, no selective recomputation, sequence
 * parallelism on, ZeRO as the config's zero1 says, the gradient reduce not overlapped,
 * scatter/gather of pipeline messages on. */
typedef struct {
    int v;                  /* model chunks a device (interleaved 1F1B); 0 or 1: one */
    bool selective;         /* selective recomputation (the attention core only); ignored with recompute */
    bool no_sp;             /* sequence parallelism off (Megatron-LM 2021 had none) */
    int zero;               /* ZeRO stage 0-3 (2: + gradients, 3: + weights sharded); 0: zero1 decides */
    bool overlap_dp;        /* the gradient all-reduce overlapped with the last backward */
    bool no_scatter_gather; /* cross-node pipeline messages sent whole by every tensor rank */
} p3_choices;

typedef struct {
    p3_config cf;
    p3_choices ch;
    p3_memory mem;
    p3_time time;           /* the full step folded into the closed form's five terms */
    double mfu;             /* PaLM's: (6 N + 12 L h s) per token, N without the embeddings */
    p3_step step;
    double hfu;             /* the same with the recomputed flops counted */
    double tflops_sc21;     /* per device, by Megatron-LM 2021's formula (eq. 3): what its tables print */
} p3_plan;
/* Every d x t x p x b (b in 1, 2, 4, 8), ZeRO-1 off/on, recomputation
 * none/selective/full, sequence parallelism off/on and 1, 2 or 4 model chunks a
 * device, that uses all devices and fits memory, in the order `order`; t
 * divides heads, p is at most the layers (stages may differ by one layer),
 * d b divides B. Fills out[0..max) sorted by the full step time (fastest first);
 * returns how many fit (may exceed max). p3_plan_search (plan3d.h) pins choices. */
int p3_plan_all(const p3_model *md, const p3_cluster *cl, p3_order order, p3_plan *out, int max);
/* One configuration's plan by the full model (kernels/plan3d.c: memory of the
 * heaviest stage, the step term by term, MFU, HFU), fits or not. */
void p3_plan_one(const p3_model *md, const p3_cluster *cl, const p3_config *cf, p3_plan *out);
/* The fewest pipeline stages p (a divisor of L) with which the model fits
 * on all the cluster's devices, given t and b: d = devices / (t p) must be
 * whole and divide B, b must divide B / d (m = B / (d b)); tensor-first
 * mapping. For exercise 13.1's checker. Returns 0 when no p fits. */
int p3_smallest_p(const p3_model *md, const p3_cluster *cl, int t, int b, bool zero1, bool recompute);

/* ---- the composed run (real data) ------------------------------------------------- */
/* A stack of L residual MLP blocks of width h and inner width f:
 *   Y = X + relu(X A) B          A: h x f, B: f x h (row-major)
 * weights layer after layer [A_0 | B_0 | A_1 | ...]; loss 0.5 ||Y_L - T||^2
 * summed over samples; gradients are sums over samples. Split t ways the
 * Megatron way: A by columns, B by rows, one all-reduce of the partial X..B
 * in the forward and of the partial input gradient in the backward. */
typedef struct {
    int layers, h, f;       /* p divides layers, t divides f */
    int b;                  /* samples per micro-batch */
    p3_config cf;           /* d, t, p, m (b ignored: above) */
    bool gpipe;             /* GPipe order, else 1F1B (chapter 12's) */
    const float *w;         /* every weight, full */
    const float *x, *y;     /* d m b samples of h: replica dd takes [dd m b, (dd + 1) m b) */
    float *grad;            /* full-shaped; the ranks of replica 0 write their slices */
    double *loss;           /* d entries: replica dd's loss sum (its last stage, tt = 0) */
    int fault;              /* P3_FAULT_NONE, or a step to leave out, so tests can see the check catch it */
} p3_job;
enum { P3_FAULT_NONE = 0, P3_FAULT_NO_TP_BACKWARD = 1, P3_FAULT_NO_DP = 2 };
size_t p3_nweights(int layers, int h, int f);
/* The rank function (every rank of world calls it; world->size = d t p). */
void p3_rank(pw_comm *world, const p3_job *job);
/* The unsplit model on count samples: gradient sums into grad (zeroed
 * here); returns the loss sum. */
double p3_reference(int layers, int h, int f, const float *w, const float *x, const float *y, size_t count, float *grad);
/* The work p3_rank does per micro-batch and stage, for p3_time_model. */
void p3_mlp_work(const p3_job *job, p3_work *w);

#endif
