/* exercises/12-pipeline-parallel/one_f_one_b.h: what exercise 12.1 asks you
 * to write. Your exercises/12-pipeline-parallel/one_f_one_b.c implements it;
 * the checker and the solution include this same header. */
#ifndef PW_EX_ONE_F_ONE_B_H
#define PW_EX_ONE_F_ONE_B_H

#include "pipeline.h"   /* pipe_step, PIPE_F, PIPE_B */

/* The 1F1B order of one rank of a pipeline of p ranks (rank 0 holds the
 * first stage) and m micro-batches (0..m-1): fill out[] with 2m steps,
 * each (pipe_step){ PIPE_F or PIPE_B, micro-batch, 0 }, and return how
 * many. Every rank's order is run at once by the chapter's executor
 * (kernels/pipeline.c): an F receives the activations from rank - 1 and
 * sends its output to rank + 1, a B receives the gradient from rank + 1
 * and sends one to rank - 1. m may be smaller than p. Not the library's
 * pipe_order_1f1b, which is the answer. */
int one_f_one_b(int rank, int p, int m, pipe_step *out);

#endif
