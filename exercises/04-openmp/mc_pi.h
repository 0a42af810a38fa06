/* exercises/04-openmp/mc_pi.h: what exercise 4.6 asks you to write.
 *
 * Pi by Monte Carlo: throw n points at the unit square, count the ones
 * inside the quarter circle x^2 + y^2 < 1 (a share pi/4 of the square), and
 * pi is about 4 * inside / n. In parallel, every thread needs random
 * numbers of its own: this header's generator gives each thread a stream,
 * named by the run's seed and the thread's number, so that a run can be
 * repeated bit for bit. Your exercises/04-openmp/mc_pi.c implements mc_pi();
 * the checker (check_mc_pi.c) and the solution include this same header,
 * and the checker defines the generator (so it can see every number drawn,
 * by which thread, from which stream). */
#ifndef PW_EX_MC_PI_H
#define PW_EX_MC_PI_H

#include <stdint.h>

/* A generator: splitmix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), a 64-bit counter that
 * steps by a fixed odd constant, each output a mix of the counter. Stream
 * `stream` of seed `seed` starts its counter at a hash of both, so two
 * streams start at unrelated points of the counter's 2^64 values: 7 streams
 * of 10^6 draws overlap with a chance of about 7^2 * 10^6 / 2^64 = 3e-12.
 * Copying an mc_rng copies its position: two copies draw the same numbers. */
typedef struct {
    uint64_t counter;   /* the position in the stream */
    uint64_t stream;    /* which stream (in mc_pi: the thread's number) */
    uint64_t seed;      /* which run */
} mc_rng;

/* Given (the checker defines them): the generator of stream `stream` of the
 * run seeded `seed`, at its first number; and the next number of g's stream,
 * uniform in [0, 1) (53 random bits). mc_uniform changes *g: a thread must
 * draw only from a generator of its own. */
mc_rng mc_rng_make(uint64_t seed, uint64_t stream);
double mc_uniform(mc_rng *g);

/* Yours: pi from n >= 1 points, 4.0 * (points with x*x + y*y < 1) / n, on
 * as many threads as omp_set_num_threads() last set. Thread t of the team
 * draws all its points from one generator, mc_rng_make(seed, t), each point
 * as two draws, x then y; which points (how many) each thread draws must
 * depend only on n and the thread count, so that the same n, seed and
 * thread count give the same estimate, bit for bit. */
double mc_pi(long long n, uint64_t seed);

#endif
