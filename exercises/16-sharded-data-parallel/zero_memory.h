/* exercises/16-sharded-data-parallel/zero_memory.h: what exercise 16.3 asks
 * you to write. Your exercises/16-sharded-data-parallel/zero_memory.c
 * implements it; the checker and the solution include this same header. */
#ifndef PW_EX_ZERO_MEMORY_H
#define PW_EX_ZERO_MEMORY_H

/* Bytes one device holds of each kind of model state, and their sum. */
typedef struct { double weights, grads, optimizer, total; } zm_bytes;

/* The model states one device holds when `params` parameters are trained
 * data-parallel over `devices` devices (>= 1) at ZeRO `stage` (0-3), with
 * wbytes bytes of weights, gbytes of gradients and k bytes of optimizer state
 * per parameter (mixed-precision Adam in the ZeRO paper: 2, 2 and 12).
 *   stage 0  plain data parallelism: every device holds everything;
 *   stage 1  the optimizer state is sharded: 1/devices of it on each;
 *   stage 2  the gradients are sharded too;
 *   stage 3  the weights are sharded too.
 * total = weights + grads + optimizer. Not kernels/zero.c's
 * zero_model_states(): that is the answer. */
zm_bytes zm_per_device(double params, int stage, int devices, double wbytes, double gbytes, double k);

#endif
