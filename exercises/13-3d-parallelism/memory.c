/* exercises/13-3d-parallelism/memory.c: exercise 13.1, the memory of one
 * device in a 3D-parallel configuration, and the fewest pipeline stages
 * that make a model fit.
 *
 * What it teaches: a 175B model's training state is 2.8 TB at 16 bytes a
 * parameter; tensor and pipeline parallelism divide it by t p, ZeRO-1
 * divides the largest part (Adam's 12 bytes) by d, and activations, which
 * grow with the micro-batch and the sequence, can be traded for compute by
 * recomputation. Which of these makes a configuration fit is arithmetic
 * you can do by hand; the planner only does it for every configuration.
 *
 * Check your work:  make ex-13.1   (four models, a dozen configurations
 * each against the planner's p3_memory_of, then the smallest pipeline
 * degree against the planner's on several clusters, for micro-batches of
 * b = 1, 2, 3, 4 and 8 sequences).
 * Hints, one level more each time (3 levels, the last near the code):
 *   make hint-13.1
 * The answer is in solutions/13-3d-parallelism/memory.c: try first.
 */
#include "memory.h"
#include "exercise.h"

double memory_per_device(const p3_model *md, const p3_config *cf)
{
    /* TODO: the model states and the activations, as memory.h lists them. Then delete the placeholder lines below. */
    (void)md;
    (void)cf;
    PW_NOT_YET_IMPLEMENTED();
}

int smallest_pipeline(const p3_model *md, const p3_cluster *cl, int t, int b, bool zero1, bool recompute)
{
    /* TODO: the search memory.h describes. Then delete the placeholder lines below. */
    (void)md;
    (void)cl;
    (void)t;
    (void)b;
    (void)zero1;
    (void)recompute;
    PW_NOT_YET_IMPLEMENTED();
}
