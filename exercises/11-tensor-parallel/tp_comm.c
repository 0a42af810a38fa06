/* exercises/11-tensor-parallel/tp_comm.c: exercise 11.2, predict what a
 * tensor-parallel block costs in communication, from the model alone.
 *
 * What it teaches: a ring collective on t ranks is t-1 steps, each sending
 * one chunk of 1/t of the buffer; an all-reduce is a reduce-scatter and an
 * all-gather, 2(t-1) steps. The Megatron block has 4 all-reduces of n h
 * floats per forward + backward, so the bytes per rank hardly depend on t
 * (2(t-1)/t -> 2) while the latency term grows as t. Sequence parallelism
 * replaces each all-reduce by its two halves (the same cost) and adds two
 * all-gathers in the backward pass.
 *
 * Check your work:  make ex-11.2   (33 cases, t = 1..16, fast and slow links,
 * with and without sequence parallelism, against the virtual cluster running
 * the block's messages).
 * Hints, one level more each time (3 levels, the last near the code):
 *   make hint-11.2
 * The answer is in solutions/11-tensor-parallel/tp_comm.c: try first.
 */
#include "exercise.h"
#include "tp_comm.h"

double tp_sent_bytes(const tp_link *k)
{
    /* TODO: count the ring steps of one block, and what each sends. Then delete the placeholder lines below. */
    (void)k;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}

double tp_comm_seconds(const tp_link *k)
{
    /* TODO: what those steps cost, one after the other, on this link (t = 1: nothing to send). Then delete the placeholder lines below. */
    (void)k;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
