/* exercises/04-openmp/reduction.h: what exercise 4.1 asks you to write.
 *
 * Your exercises/04-openmp/reduction.c implements sum_and_max(); the
 * checker (check_reduction.c) and the solution include this same header. */
#ifndef PW_EX_REDUCTION_H
#define PW_EX_REDUCTION_H

/* *sum = x[0] + ... + x[n-1] (accumulated in double), *max = the largest
 * x[i]; n >= 1. One parallel loop computes both, on as many threads as
 * omp_set_num_threads last set. */
void sum_and_max(const float *x, long n, double *sum, float *max);

#endif
