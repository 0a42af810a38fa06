/* exercises/10-data-parallel/best_replicas.h: what exercise 10.2 asks you to
 * write. Your exercises/10-data-parallel/best_replicas.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_BEST_REPLICAS_H
#define PW_EX_BEST_REPLICAS_H

/* One data-parallel training job and the cluster it runs on (the fields of
 * common/cluster/cluster.h's pw_cluster_config, and chapter 10's scaling program). */
typedef struct {
    double params;          /* parameters of the model; the gradients are 4-byte floats.
                             * A multiple of 1024, so p ranks split them evenly */
    double tokens;          /* global batch: tokens per step, split evenly over the replicas */
    double device_gflops;   /* one device's compute rate, GFLOP/s (1e9 flop/s) */
    int ranks_per_node;     /* devices sharing the fast link: a power of two */
    double intra_alpha;     /* inside a node: latency, s */
    double intra_gbs;       /*   and bandwidth per direction, GB/s (1e9 bytes/s) */
    double inter_alpha;     /* between nodes: latency, s */
    double inter_gbs;       /*   and bandwidth per direction, GB/s */
} dp_setting;

/* The modelled time of one training step on R replicas (R a power of two,
 * 1..1024): each replica computes forward + backward on tokens / R tokens
 * (6 flops per parameter per token), then the gradients are all-reduced with
 * the ring (none with R = 1). Must equal the virtual cluster's simulation. */
double predict_step_time(const dp_setting *s, int R);

/* The replica count R in 1, 2, 4, ..., 1024 with the lowest step time. */
int best_replicas(const dp_setting *s);

#endif
