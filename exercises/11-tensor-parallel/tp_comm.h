/* exercises/11-tensor-parallel/tp_comm.h: what exercise 11.2 asks you to
 * write. Your exercises/11-tensor-parallel/tp_comm.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_TP_COMM_H
#define PW_EX_TP_COMM_H

#include <stdbool.h>

/* One transformer block's forward + backward, split t ways (chapter 11's
 * kernels/tensor_parallel.h), on t ranks joined by one kind of link. */
typedef struct {
    double n;               /* tokens in the batch, b s */
    double h;               /* hidden size; activations are 4-byte floats */
    int t;                  /* tensor-parallel ranks, 1..16; t divides n h */
    double alpha;           /* the link's latency, s */
    double gbs;             /* its bandwidth per direction, GB/s (1e9 bytes/s) */
    bool seqpar;            /* sequence parallelism (reduce-scatter + all-gather, and
                             * the two re-gathers of the backward pass) */
} tp_link;

/* Bytes one rank sends in one forward + backward of the block. */
double tp_sent_bytes(const tp_link *k);
/* Seconds of the virtual cluster's clock one rank spends communicating in
 * it (the compute left out): must equal the simulation to 1e-9. */
double tp_comm_seconds(const tp_link *k);

#endif
