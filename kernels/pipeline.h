/* kernels/pipeline.h: pipeline parallelism. A stack of L fully connected
 * layers is cut into stages, one (or v) per rank; a batch is cut into m
 * micro-batches; a schedule says in which order each rank runs the forward
 * (F), backward (B) and, where the backward is split, weight-gradient (W)
 * steps of each micro-batch; one executor runs any schedule on a pw_comm.
 *
 * ---- The model ---------------------------------------------------------------
 * Layer l maps d_l inputs to d_{l+1} outputs: z = W_l a + b_l, then ReLU on
 * every layer but the last (a linear output). Loss of a sample
 * 0.5 ||f - y||^2; gradients are SUMS over samples (as in kernels/mlp.h), so
 * micro-batches add up to the batch. Parameters in one flat array, layer
 * after layer: [ W_0 (d_1 x d_0, row-major) | b_0 (d_1) | W_1 | b_1 | ... ].
 * Flops per sample of layer l: forward 2 d_l d_{l+1}; the input gradient
 * (B when split) 2 d_l d_{l+1}; the weight gradient (W) 2 d_l d_{l+1}. So
 * T_B = T_W = T_F, and an unsplit backward costs 2 T_F. Stage 0 computes
 * the gradient of its input too (nobody needs it): every stage's B then
 * costs what its F costs, as the bubble formulas assume.
 *
 * ---- Stages, chunks, ranks -------------------------------------------------
 * S = p v stages; rank r holds the v "chunks" (virtual stages) r, r + p,
 * r + 2p, ... (Megatron's interleaving; v = 1: one stage per rank). Stage s
 * holds layers first[s] .. first[s+1] - 1. A micro-batch's activations go
 * from stage s to s + 1 (tag PIPE_TAG_ACT), its gradients back (tag
 * PIPE_TAG_GRAD). A schedule's step names (kind, micro-batch, chunk).
 *
 * ---- The schedules (bubble = idle time / (p x the pipeline's span), with
 * uniform stages and free links) ---------------------------------------------
 *   gpipe        all F, then all B. Y. Huang et al., "GPipe", NeurIPS 2019.
 *                bubble (p-1)/(m+p-1); stores m micro-batches.
 *   1f1b         PipeDream-Flush: p-r-1 warm-up F, then F,B pairs, then the
 *                remaining B. D. Narayanan et al., "Memory-efficient
 *                pipeline-parallel DNN training", ICML 2021. Same bubble as
 *                GPipe; stores at most min(p - r, m) on rank r.
 *   interleaved  1F1B over v chunks per rank, Megatron's order. D. Narayanan
 *                et al., "Efficient Large-Scale Language Model Training on
 *                GPU Clusters Using Megatron-LM", SC 2021 (arXiv:2104.04473).
 *                bubble (p-1)/(v m + p - 1). Needs m a multiple of p (as
 *                Megatron's original schedule does): other m are refused.
 *   zbh1         ZB-H1: the backward split into B (input gradient) and W
 *                (weight gradient); W fills what would be idle time.
 *                P. Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024
 *                (arXiv:2401.10241). With T_F = T_B = T_W and m >= p: idle
 *                (p-1) T_F per stage, bubble rate idle/useful (p-1)/(3m)
 *                against 1F1B's (p-1)/m; as a fraction (p-1)/(3m+p-1).
 *                (m < p: pipe_order_zbh1's comment.) At most p - r
 *                micro-batches between F and B on rank r, as in 1F1B; what
 *                W still needs (each layer's input and dz) is kept longer:
 *                counted and printed.
 */
#ifndef PW_PIPELINE_H
#define PW_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cluster.h"

struct pw_comm;

/* ---- the model ---------------------------------------------------------------- */
typedef struct {
    int layers;             /* L */
    const int *dims;        /* d_0 .. d_L: widths */
    int batch;              /* samples per micro-batch */
} pipe_model;

size_t pipe_nparams(const pipe_model *md);
size_t pipe_layer_offset(const pipe_model *md, int l);     /* where W_l starts */
double pipe_layer_flops(const pipe_model *md, int l);      /* forward flops of layer l for one micro-batch */
void pipe_init(const pipe_model *md, float *w, uint64_t seed);
/* count samples: inputs (count x d_0) uniform in [-1, 1), targets (count x d_L) too. */
void pipe_make_data(const pipe_model *md, size_t count, uint64_t seed, float *x, float *y);

/* One layer on n samples. out: n x d_{l+1} (after the ReLU). */
void pipe_layer_forward(const pipe_model *md, int l, const float *w, const float *in, float *out, int n);
/* From the gradient of the layer's output (dout) and the output itself (for
 * the ReLU): dz, the gradient before the ReLU (n x d_{l+1}), and din, the
 * gradient of the input (n x d_l). */
void pipe_layer_input_grad(const pipe_model *md, int l, const float *w, const float *out, const float *dout,
                           float *dz, float *din, int n);
/* Adds the weight and bias gradients of n samples into grad (the flat array). */
void pipe_layer_weight_grad(const pipe_model *md, int l, const float *in, const float *dz, float *grad, int n);

/* The unsplit model on count samples: gradient sums into grad (zeroed
 * here), returns the loss sum. The reference every schedule is checked against. */
double pipe_reference(const pipe_model *md, const float *w, const float *x, const float *y, size_t count,
                      float *grad);

/* ---- schedules --------------------------------------------------------------------- */
enum { PIPE_F = 0, PIPE_B = 1, PIPE_W = 2 };
typedef struct {
    int kind;               /* PIPE_F, PIPE_B (the whole backward, or its input half when split), PIPE_W */
    int mb;                 /* micro-batch 0..m-1 */
    int chunk;              /* virtual stage on this rank 0..v-1: stage chunk * p + rank */
} pipe_step;

/* Fills out (pipe_nsteps entries) with rank's order; returns how many. */
typedef int (*pipe_order_fn)(int rank, int p, int m, int v, pipe_step *out);
typedef struct {
    const char *name;       /* "gpipe", "1f1b", "interleaved", "zbh1" */
    pipe_order_fn order;
    bool split;             /* backward split into B and W */
    bool interleaved;       /* uses v chunks per rank */
} pipe_schedule;
extern const pipe_schedule pipe_schedules[];
extern const int pipe_nschedules;
const pipe_schedule *pipe_schedule_named(const char *name);   /* NULL if none */

int pipe_order_gpipe(int rank, int p, int m, int v, pipe_step *out);
int pipe_order_1f1b(int rank, int p, int m, int v, pipe_step *out);
int pipe_order_interleaved(int rank, int p, int m, int v, pipe_step *out);
int pipe_order_zbh1(int rank, int p, int m, int v, pipe_step *out);

/* Steps one rank runs: m v (F + B) or m (F + B + W). */
int pipe_nsteps(int m, int v, bool split);
/* NULL when the schedule can run p, m, v; else why not, in words (interleaved: m % p). */
const char *pipe_refuses(const pipe_schedule *s, int p, int m, int v);
/* 0 when steps[0..n) is a possible order for one rank: every (kind, mb,
 * chunk) in range and exactly once, F before B before W of the same
 * micro-batch and chunk. Otherwise 1, and the first problem in why. (Order
 * between ranks is the messages': a wrong one deadlocks.) */
int pipe_validate(const pipe_step *steps, int n, int p, int m, int v, bool split, char *why, size_t len);

/* Closed forms: bubble fraction (idle over p x span), uniform stages, free links. */
double pipe_bubble_formula(const char *schedule, int p, int m, int v);

/* ---- layer splits ----------------------------------------------------------------- */
/* first[0..S]: L layers as evenly as possible by count. */
void pipe_split_even(int L, int S, int *first);
/* first[0..S]: contiguous stages, none empty (L >= S), minimising the
 * heaviest stage's cost (sum of cost[l]). Returns that cost. */
double pipe_split_balanced(const double *cost, int L, int S, int *first);

/* ---- the executor ----------------------------------------------------------------- */
enum { PIPE_TAG_ACT = 1, PIPE_TAG_GRAD = 2 };   /* name them with pw_cluster_name_tag */
typedef struct {
    const pipe_model *md;
    const float *w;         /* all parameters (every rank reads its layers) */
    const float *x, *y;     /* m micro-batches of md->batch samples, one after the other */
    int p, m, v;
    const int *first;       /* p v + 1 entries */
    bool split;             /* the order has W steps */
    float *grad;            /* all parameters' gradient sums; rank r adds only into its layers (zero it first) */
    double *loss;           /* the last stage writes the loss sum here */
} pipe_job;
typedef struct {
    int peak_held;          /* most (micro-batch, chunk) activation sets stored at once */
    double peak_floats;     /* most activation floats stored at once */
} pipe_rank_stats;
/* Rank c->rank runs steps (validated by pipe_validate) against its
 * neighbours; modelled time through coll_compute ("F", "B", "W"). ws:
 * pipe_workspace_floats(job, rank) floats, the caller's (a rank stuck in a
 * deadlock never returns: nothing of its own to leak). Every micro-batch
 * has its place there; "stored" counts those between F and the last step
 * that reads them. */
size_t pipe_workspace_floats(const pipe_job *job, int rank);
void pipe_run_rank(struct pw_comm *c, const pipe_job *job, const pipe_step *steps, int n, float *ws, pipe_rank_stats *st);

/* ---- reading the trace ------------------------------------------------------------- */
/* From a run's trace (events of kinds "F", "B", "W" are the work): the span
 * from the first work's start to the last one's end, and the bubble, idle
 * time summed over the p ranks over p x span. Returns the bubble. */
double pipe_trace_bubble(const pw_trace_event *ev, size_t n, int p, double *span);
/* Most micro-batch activation sets stored at once on rank, counted from its
 * trace: an F stores one, the step that last needs it (B, or W when split)
 * frees it. */
int pipe_trace_peak(const pw_trace_event *ev, size_t n, int rank, bool split);

/* ---- an experiment: a model, its data, its reference gradients ------------------------ */
#define PIPE_MAX_LAYERS 256
typedef struct {
    pipe_model md;
    int dims[PIPE_MAX_LAYERS + 1];
    int m;                                /* micro-batches of md.batch samples */
    float *w, *x, *y;                     /* parameters, inputs, targets */
    float *ref;                           /* the unsplit model's gradient sums */
    float *grad;                          /* a run's (pipe_case_job zeroes it) */
    double ref_loss, loss;
} pipe_case;
/* L layers, widths dims[0..L] (or all `width` when dims is NULL), m
 * micro-batches of batch samples; fixed seeds. */
void pipe_case_init(pipe_case *pc, int L, const int *dims, int width, int batch, int m);
void pipe_case_free(pipe_case *pc);
/* The job for this case on p ranks, v chunks, stage split first. */
pipe_job pipe_case_job(pipe_case *pc, int p, int v, const int *first, bool split);
/* After a run: 0 if gradients and loss equal the reference within the
 * tolerance of summation order (see pipeline.c); *bitwise: all gradients
 * equal bit for bit. Else 1 and the first difference in why. */
int pipe_case_check(const pipe_case *pc, bool *bitwise, char *why, size_t len);

/* ---- one run on the virtual cluster ------------------------------------------------ */
#define PIPE_MAX_RANKS 64
typedef struct {
    double time;                         /* the modelled step (pw_cluster_time) */
    double span, bubble;                 /* from the trace (pipe_trace_bubble) */
    int peak_held[PIPE_MAX_RANKS];       /* per rank, counted by the executor */
    int peak_trace[PIPE_MAX_RANKS];      /* per rank, counted from the trace */
    double peak_floats[PIPE_MAX_RANKS];
    pw_trace_event *trace;               /* a copy (free it), or NULL if not asked */
    size_t ntrace;
    pipe_step *orders;                   /* p x nsteps, rank after rank (free it), or NULL if not asked */
    int nsteps;
} pipe_result;
/* Run job with the schedule's orders (or orders[p x nsteps] given, for an
 * exercise's) on a cluster of cfg (job->p ranks; tracing switched on; the
 * tags named "activations" and "gradients"). Returns 0; -1 when an order is
 * not valid (why says which rank and why); PW_CLUSTER_DEADLOCK or
 * PW_CLUSTER_UNRECEIVED with the cluster's report in why. keep: copy the
 * trace and orders into res. */
int pipe_simulate(const pipe_schedule *s, const pipe_step *orders, const pipe_job *job, const pw_cluster_config *cfg,
                  bool keep, pipe_result *res, char *why, size_t len);

#endif
