/* kernels/plan3d.h: the planner's full step model, the one held to published
 * training runs (chapter 13's planner and published.c).
 *
 * kernels/parallel3d.h keeps the closed form that chapter 13's validation
 * checks against the composed run and exercises 13.1 and 13.2 rebuild: every
 * matmul at one rate, stages of L/p layers, nothing but matmuls. This file
 * adds what a real step on a GPU also pays, each term from the counts or a
 * cited figure (plan3d.c says which):
 *   - each matmul of a layer at its own shape: tiles of 256 x 128 over the
 *     SMs in waves, at most the device's measured best matmul rate (MAMF),
 *     and never faster than its bytes through device memory;
 *   - the memory-bound operations between them (layer norm, softmax,
 *     dropout, GeLU, residual adds: bytes / bandwidth);
 *   - the output layer (logits) on the last stage and the embedding on the
 *     first, and stages that differ by a layer when p does not divide L;
 *   - the interleaved 1F1B schedule (v model chunks a device: the bubble
 *     over v, v times the pipeline messages), scatter/gather of cross-node
 *     pipeline messages (SC21 section 4.1), ZeRO stages 0-3, selective or
 *     full recomputation, sequence parallelism, an overlapped gradient
 *     reduce, and Adam's update;
 *   - MFU as PaLM defines it, HFU with the recomputed flops, and the TFLOP/s
 *     per device by Megatron-LM 2021's own formula (eq. 3 of SC21), the
 *     figure its tables print.
 * Modelled numbers: nothing here is measured. */
#ifndef PW_PLAN3D_H
#define PW_PLAN3D_H

#include "parallel3d.h"

/* A device and its cluster by name: "a100-80gb" (Selene: DGX A100 nodes),
 * "h100-sxm", "h200-sxm" (DGX H100/H200 nodes), on `nodes` nodes of 8. The
 * compute and memory figures come from the GPU's device file
 * (common/gpus/NAME.gpu), the links, memory size and measured matmul rate
 * from the cited table in plan3d.c. Or a device file itself (a path, or a
 * name ending .gpu): its chip, with the links, memory size and matmul share
 * left 0, for the caller to fill. 0, or -1 with one line in err. */
int p3_device_cluster(const char *name, int nodes, p3_cluster *out, const char **label, char *err, size_t errlen);
/* The names p3_device_cluster knows, comma-separated. */
const char *p3_device_names(void);

/* Layers on stage s of p when L layers are split as evenly as they go: the
 * first L mod p stages take one more. */
int p3_layers_on_stage(int layers, int p, int s);

/* The memory of the heaviest stage of cf (weights and embeddings, gradients,
 * optimizer state, activations in flight), by the full model. */
void p3_memory_full(const p3_model *md, const p3_config *cf, const p3_choices *ch, p3_memory *out);

/* The step of cf on cl, term by term. */
void p3_step_full(const p3_model *md, const p3_cluster *cl, const p3_config *cf, const p3_choices *ch, p3_step *out);

/* p3_plan_one with the further choices ch. */
void p3_plan_with(const p3_model *md, const p3_cluster *cl, const p3_config *cf, const p3_choices *ch, p3_plan *out);

/* One matmul (count of them, each m x n x k) on cl: seconds. */
double p3_gemm_time(const p3_cluster *cl, double count, double m, double n, double k);

/* PaLM's model flops of one step (Chowdhery et al. 2022, appendix B):
 * tokens x (6 N + 12 L h s), N the parameters without the embeddings. */
double p3_model_flops(const p3_model *md);
/* The flops the hardware runs: with full recomputation 8 N + 16 L h s a
 * token (one more forward), selective 6 N + 16 L h s (the attention core). */
double p3_hardware_flops(const p3_model *md, const p3_config *cf, const p3_choices *ch);
/* Megatron-LM 2021's count of one step (Narayanan et al., SC21, eq. 3, with
 * activation recomputation): 96 B s L h^2 (1 + s / (6 h) + V / (16 L h)). */
double p3_sc21_flops(const p3_model *md);

/* Pins for p3_plan_search: -1 (or P3_FREE) leaves a choice to the search. */
#define P3_FREE (-1)
typedef struct {
    int d, t, p, b, v;
    int recompute;          /* 0 none, 1 selective, 2 full */
    int sp;                 /* 0 off, 1 on */
    int zero;               /* 0-3 */
    int overlap_dp;         /* 0 off, 1 on */
} p3_pins;
p3_pins p3_pins_free(void);
/* Why a pinned choice cannot be: 0, or 1 with the constraint named in why
 * (t not dividing the heads or N, p above the layers, d t p not N, the
 * batch not a multiple of d b, a v that leaves a chunk without a layer). */
int p3_pins_check(const p3_model *md, const p3_cluster *cl, const p3_pins *pins, char *why, size_t len);
/* As p3_plan_all, with the pinned choices fixed; returns how many fit. */
int p3_plan_search(const p3_model *md, const p3_cluster *cl, const p3_pins *pins, p3_plan *out, int max);
/* The configuration the pins name when every choice is pinned (d from N / (t p) when d is free). */
int p3_pins_config(const p3_model *md, const p3_cluster *cl, const p3_pins *pins, p3_config *cf, p3_choices *ch);

#endif
