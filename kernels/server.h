/* kernels/server.h: chapter 14's inference server, real threads, real time.
 *
 * One process, four kinds of thread:
 *   generator  sends requests at Poisson times (seeded) into a bounded queue;
 *              a request that finds the queue full is rejected, and counted
 *   batcher    waits for a free worker, then forms a batch from the queue by
 *              a decision rule (none, greedy, budget; or the exercise's)
 *   workers    run the batched forward pass: per layer H = tanh(H W), one
 *              chapter 07 packed GEMM (b x d times d x d) for the whole batch
 *   decode     (srv_decode_run) one engine thread that generates tokens for
 *              many requests at once, static or continuous batching
 *
 * Why the packed micro-kernel (gemm_simd, rung 4 of chapter 07): it is the
 * rung whose cost has the shape the lesson is about. It reads and packs W
 * once a call (4d^2 bytes a layer) whatever b is, then streams the b rows
 * through the micro-kernel: one read of the weights serves the batch. At
 * b = 1 the call is all packing and a mostly empty MR x NR tile; at b = 32
 * the same weight traffic feeds 32 rows. (Rung 5 would add OpenMP threads
 * inside each call; here the parallelism is the workers.)
 *
 * Every answered request's output is kept and checked afterwards against
 * the same forward for that request alone (srv_forward with b = 1): rows of
 * a batch never mix, so the results should be equal bit for bit.
 *
 * No I/O: the programs print. Times are seconds of CLOCK_MONOTONIC since
 * the run's start. */
#ifndef PW_SERVER_H
#define PW_SERVER_H

#include <stdbool.h>
#include <stdint.h>

/* ---- the model: layers of d x d weights --------------------------------- */
typedef struct {
    int d;          /* width: a request is d floats in, d floats out */
    int layers;     /* d x d layers, each followed by tanh */
    float *W;       /* layers x d x d, row-major */
} srv_model;

/* Weights uniform in +-sqrt(3/d) (variance 1/d: a layer keeps the scale of
 * its input, so tanh neither saturates nor vanishes over many layers). */
int srv_model_init(srv_model *m, int d, int layers, uint64_t seed);
void srv_model_free(srv_model *m);
/* Y (b x d) = the model applied to X (b x d); scratch holds b*d floats. */
void srv_forward(const srv_model *m, int b, const float *X, float *Y, float *scratch);
/* 2 b d^2 flops a layer. */
double srv_forward_flops(const srv_model *m, int b);
/* Compulsory bytes: the weights once (4 layers d^2) plus the batch in and
 * out (4 * 2bd): intensity 2bd^2 L / (4 L d^2 + 8bd) grows with b, until b
 * nears d. (Roofline: Williams, Waterman, Patterson, CACM 2009.) */
double srv_forward_bytes(const srv_model *m, int b);

/* ---- the batcher's decision ---------------------------------------------- */
/* What the batcher sees when it has a free worker and a non-empty queue. */
typedef struct {
    double now;        /* s */
    int queued;        /* requests waiting, >= 1 */
    double oldest;     /* arrival time of the oldest waiting request, s */
    int max_batch;     /* the largest batch a worker takes */
    double budget;     /* latency budget, s: arrival to answer */
    double service;    /* s, measured forward time of a full batch */
} srv_batch_view;

/* The gap to the next arrival of a Poisson stream of `rate` per second:
 * exponential, from the splitmix64 state *s (a fixed seed gives the same
 * arrivals on every machine; exercise 14.1's checker replays them). */
double srv_poisson_gap(uint64_t *s, double rate);

/* Returns how many requests to dispatch now (1..min(queued, max_batch)), or
 * 0 to wait until *wake (an absolute time, s); the batcher also wakes on
 * every arrival and asks again. */
typedef int (*srv_decide_fn)(const srv_batch_view *v, double *wake);
int srv_decide_none(const srv_batch_view *v, double *wake);    /* always 1 */
int srv_decide_greedy(const srv_batch_view *v, double *wake);  /* all queued, up to max */
int srv_decide_budget(const srv_batch_view *v, double *wake);  /* full, or slack spent */

typedef enum { SRV_NONE, SRV_GREEDY, SRV_BUDGET, SRV_POLICIES } srv_policy;
const char *srv_policy_name(int p);
srv_decide_fn srv_policy_fn(int p);

/* ---- one run ------------------------------------------------------------- */
typedef struct {
    double rate;          /* arrivals per second, > 0 */
    int requests;         /* how many the generator sends */
    int queue_cap;        /* the queue's bound */
    int max_batch;
    double budget;        /* s, > 0 */
    double service;       /* s, the full-batch forward time the rule may use */
    int workers;
    srv_decide_fn decide;
    uint64_t seed;        /* arrivals and inputs */
} srv_config;

enum { SRV_REJ_QUEUE_FULL, SRV_REJ_REASONS };
const char *srv_reject_reason(int r);

typedef struct {
    double arrive;        /* when the generator queued it (or rejected it) */
    double dispatch;      /* when the batcher took it */
    double done;          /* when its worker finished the batch */
    int batch;            /* size of that batch */
    int answers;          /* times answered: must be 1, or 0 if rejected */
    int rejected;         /* 1 + reason, or 0 */
} srv_record;

typedef struct {
    int sent, answered, rejected, rejected_by[SRV_REJ_REASONS];
    int duplicates;       /* requests answered more than once */
    int lost;             /* neither answered nor rejected */
    int max_queue;        /* the most ever queued at once */
    int batches;
    double mean_batch;
    double wall;          /* s, start to last answer */
    double throughput;    /* answered / wall */
    double p50, p99;      /* latency of answered requests, s */
    double max_hold;      /* s: the longest the batcher held a batch back
                           * (decision time - max(oldest arrival, free worker)) */
    int forced;           /* batches the server dispatched because the rule
                           * kept waiting past 4 budgets + 0.5 s (a broken rule) */
    int wrong;            /* answered requests whose output differs from the reference */
    float max_err;        /* largest |difference| */
    srv_record *rec;      /* per request; srv_result_free */
} srv_result;

/* Runs the server; returns 0, or -1 if memory or threads ran out. */
int srv_run(const srv_model *m, const srv_config *c, srv_result *r);
void srv_result_free(srv_result *r);

/* ---- autoregressive decoding ----------------------------------------------
 * A request asks for len tokens; each token is one forward of its state
 * (state = model(state)). The engine runs iterations: one batched forward of
 * every occupied slot, then a token for each. Which waiting requests join
 * is the admit rule's choice:
 *   static      only when every slot is free: a batch waits for its longest
 *   continuous  any free slot, every iteration (Orca: Yu et al., OSDI 2022;
 *               vLLM: Kwon et al., SOSP 2023)
 */
/* slot[0..max_batch): a request index, or -1 (free). waiting[0..nwaiting):
 * the queue, oldest first. Put requests from the head of the queue into free
 * slots; return how many were taken (they must be waiting[0..taken)). */
typedef int (*srv_admit_fn)(int *slot, int max_batch, const int *waiting, int nwaiting);
int srv_admit_static(int *slot, int max_batch, const int *waiting, int nwaiting);
int srv_admit_continuous(int *slot, int max_batch, const int *waiting, int nwaiting);

typedef struct {
    double rate;          /* arrivals per second; 0: all arrive at the start (a closed burst) */
    int requests;
    int max_len;          /* lengths uniform in 1..max_len (seeded) */
    int max_batch;
    srv_admit_fn admit;
    uint64_t seed;
} srv_decode_config;

typedef struct {
    int requests, tokens, iterations;
    double wall, tokens_per_s;
    double mean_rows;            /* occupied slots per iteration */
    double ttft_p50, ttft_p99;   /* time to first token, s */
    double done_p50;             /* arrival to last token, s */
    int order_errors;            /* admitted out of arrival order, or into a busy slot */
    int wrong;                   /* final states that differ from the reference */
    int *admitted;               /* admission order (request indices); srv_decode_free */
} srv_decode_result;

int srv_decode_run(const srv_model *m, const srv_decode_config *c, srv_decode_result *r);
void srv_decode_free(srv_decode_result *r);

#endif
