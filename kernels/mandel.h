/* kernels/mandel.h: the Mandelbrot set, a loop whose iterations cost very
 * different amounts, under the four OpenMP schedules.
 *
 * Pixel (px, py) is the point c = x0 + px*dx + i*(y1 - py*dy) of the complex
 * plane; its value is the number of steps z <- z^2 + c (from z = 0) before
 * |z| > 2, at most maxiter. Points inside the set run all maxiter steps,
 * points far outside escape in one or two: a row through the set's body
 * costs hundreds of times a row above it. The loops are over rows, so the
 * question every schedule answers differently is who gets the heavy rows.
 *
 * Cost: 8 flops per step (zr*zr, zi*zi, their sum for the test, zr2 - zi2 + cr,
 * 2*zr*zi + ci), counted by the kernels as they run (mandel_stats.iters).
 * Memory: 4 bytes written per pixel, nothing read: pure compute.
 *
 * Exactness: every variant calls the same row function with the same
 * doubles, and -std=c11 forbids fusing a*b+c, so every variant must give
 * the sequential reference's counts exactly, pixel for pixel.
 */
#ifndef PW_MANDEL_H
#define PW_MANDEL_H

#include <stdint.h>

#define MANDEL_FLOPS_PER_ITER 8

typedef struct {
    int width, height;     /* pixels */
    int maxiter;           /* steps before a point is called "inside" */
    double x0, y1;         /* real part of the left edge, imaginary part of the top edge */
    double dx, dy;         /* pixel size along x and y */
} mandel_params;

/* What one thread did in one call: the straggler is the thread with the
 * largest busy time, and everybody waits for it at the loop's end. */
typedef struct {
    double busy_s;         /* from its first row to its last (its share of the loop) */
    long long iters;       /* Mandelbrot steps it computed: its work */
    int rows;              /* rows it computed */
    char pad[64 - sizeof(double) - sizeof(long long) - sizeof(int)];  /* one cache line each */
} mandel_stats;

/* The default view: x in [-2.2, 0.8], y in [-0.6, 1.4] (asymmetric about the
 * real axis on purpose: the body of the set sits in the upper 60% of the
 * rows, so a split into top and bottom halves is far from even). */
mandel_params mandel_view(int width, int height, int maxiter);

/* The sequential reference. iters[py*width + px]. Returns total steps. */
long long mandel_seq(const mandel_params *m, int32_t *iters);

/* The OpenMP variants: `#pragma omp for` over rows with the schedule in
 * their name. stats[t] (t < omp_get_max_threads(), or NULL) gets what
 * thread t did. Each returns the total steps. */
long long mandel_static(const mandel_params *m, int32_t *iters, mandel_stats *stats);
long long mandel_static1(const mandel_params *m, int32_t *iters, mandel_stats *stats);
long long mandel_dynamic(const mandel_params *m, int32_t *iters, int chunk, mandel_stats *stats);
long long mandel_guided(const mandel_params *m, int32_t *iters, mandel_stats *stats);

#endif
