/* kernels/mlp.h: a two-layer perceptron, its gradient, and SGD: the model
 * chapter 10 trains on one device and on R data-parallel replicas.
 *
 *   h = relu(W1 x + b1)      x: d inputs, h: k hidden units
 *   f = W2 h + b2            f: o outputs
 *   loss of one sample = 0.5 * ||f - y||^2
 *
 * Parameters live in one flat array (so one all-reduce moves all gradients),
 * in the order the backward pass produces their gradients last-to-first:
 *   [ W1 (k x d, row-major) | b1 (k) | W2 (o x k) | b2 (o) ]
 * Layer 2's gradients (W2, b2) are ready first in the backward pass; a
 * bucketed all-reduce can send them while layer 1's are still computed.
 *
 * Costs per sample (flops): forward 2(kd + ok), backward 4(kd + ok) (the
 * gradient of each weight and of each input both), about 6 per parameter:
 * the "6 x parameters" rule of thumb for training.
 *
 * The data: inputs uniform in [-1, 1), targets from a fixed random "teacher"
 * network of the same shape, so the loss can go to zero and the curve has a
 * shape worth comparing. Fixed seeds: the same data on every machine.
 */
#ifndef PW_MLP_H
#define PW_MLP_H

#include <stddef.h>
#include <stdint.h>

typedef struct { int d, k, o; } mlp_shape;   /* inputs, hidden units, outputs */

size_t mlp_nparams(mlp_shape s);
/* Where layer 2's parameters start in the flat array (W1 and b1 come before). */
size_t mlp_layer2_offset(mlp_shape s);
/* Flops of forward + backward for one sample: 6(kd + ok). */
double mlp_flops_per_sample(mlp_shape s);

/* Random initial weights (uniform, scaled by 1/sqrt(fan-in)), biases zero. */
void mlp_init(mlp_shape s, float *w, uint64_t seed);

/* count samples: x (count x d) and y (count x o) from the teacher with `seed`. */
void mlp_make_data(mlp_shape s, size_t count, uint64_t seed, float *x, float *y);

/* The SUM over samples 0..m-1 of each sample's gradient, into grad
 * (overwritten, nparams floats); returns the sum of the samples' losses.
 * Sums (not means) so that shards of any size add up to the whole batch.
 * scratch: at least k + o floats. Samples are added in order 0, 1, ...:
 * one device summing the whole batch and R replicas summing shards and then
 * all-reducing add the same numbers in different orders. */
double mlp_grad_sum(mlp_shape s, const float *w, const float *x, const float *y, size_t m,
                    float *grad, float *scratch);

/* Mean loss over count samples (forward only). */
double mlp_loss(mlp_shape s, const float *w, const float *x, const float *y, size_t count,
                float *scratch);

/* w -= lr * grad_sum / batch: plain SGD on the mean gradient. */
void mlp_sgd(float *w, const float *grad_sum, size_t nparams, float lr, size_t batch);

#endif
