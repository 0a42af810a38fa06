/* kernels/mandel.c: Mandelbrot rows, sequential and under four schedules. */
#include "mandel.h"
#include "omp_info.h"

#include <string.h>

mandel_params mandel_view(int width, int height, int maxiter)
{
    mandel_params m = { width, height, maxiter, -2.2, 1.4, 3.0 / width, 2.0 / height };
    return m;
}

/* One row: the escape count of each pixel. Returns the steps taken. */
static long long mandel_row(const mandel_params *m, int py, int32_t *out)
{
    const double ci = m->y1 - py * m->dy;
    long long steps = 0;
    for (int px = 0; px < m->width; px++) {
        const double cr = m->x0 + px * m->dx;
        double zr = 0, zi = 0;
        int k = 0;
        while (k < m->maxiter) {
            double zr2 = zr * zr, zi2 = zi * zi;
            if (zr2 + zi2 > 4.0) break;
            zi = 2.0 * zr * zi + ci;
            zr = zr2 - zi2 + cr;
            k++;
        }
        out[px] = k;
        steps += k;
    }
    return steps;
}

long long mandel_seq(const mandel_params *m, int32_t *iters)
{
    long long total = 0;
    for (int py = 0; py < m->height; py++) total += mandel_row(m, py, iters + (long long)py * m->width);
    return total;
}

/* Called by each thread after its share of the loop (the loops say nowait,
 * so a thread gets here as soon as it runs out of rows, not after the
 * others): what it did, in its own slot. */
static void record(mandel_stats *stats, double t0, long long steps, int rows)
{
    if (!stats) return;
    mandel_stats *s = &stats[pw_omp_thread_num()];
    s->busy_s = pw_omp_now() - t0;
    s->iters = steps;
    s->rows = rows;
}

static void clear(mandel_stats *stats)
{
    if (stats) memset(stats, 0, sizeof *stats * (size_t)pw_omp_max_threads());
}

/* The four variants differ in one word of the pragma. The reduction adds the
 * per-thread step counts; `nowait` lets each thread record its own finish
 * time (the implicit barrier at the end of the parallel region still waits
 * for all of them, which is where the others idle behind the straggler). */

/* schedule(static): thread t gets one contiguous block of height/T rows. */
long long mandel_static(const mandel_params *m, int32_t *iters, mandel_stats *stats)
{
    long long total = 0;
    clear(stats);
    #pragma omp parallel reduction(+:total)
    {
        double t0 = pw_omp_now();
        int rows = 0;
        #pragma omp for schedule(static) nowait
        for (int py = 0; py < m->height; py++) {
            total += mandel_row(m, py, iters + (long long)py * m->width);
            rows++;
        }
        record(stats, t0, total, rows);
    }
    return total;
}

/* schedule(static, 1): rows dealt out like cards, 0, T, 2T, ... to thread 0. */
long long mandel_static1(const mandel_params *m, int32_t *iters, mandel_stats *stats)
{
    long long total = 0;
    clear(stats);
    #pragma omp parallel reduction(+:total)
    {
        double t0 = pw_omp_now();
        int rows = 0;
        #pragma omp for schedule(static, 1) nowait
        for (int py = 0; py < m->height; py++) {
            total += mandel_row(m, py, iters + (long long)py * m->width);
            rows++;
        }
        record(stats, t0, total, rows);
    }
    return total;
}

/* schedule(dynamic, chunk): a shared counter; a thread that finishes a chunk
 * takes the next `chunk` rows. Balances any cost profile, at the price of
 * one atomic operation per chunk. */
long long mandel_dynamic(const mandel_params *m, int32_t *iters, int chunk, mandel_stats *stats)
{
    (void)chunk;   /* used only by the pragma, which a build without OpenMP ignores */
    long long total = 0;
    clear(stats);
    #pragma omp parallel reduction(+:total)
    {
        double t0 = pw_omp_now();
        int rows = 0;
        #pragma omp for schedule(dynamic, chunk) nowait
        for (int py = 0; py < m->height; py++) {
            total += mandel_row(m, py, iters + (long long)py * m->width);
            rows++;
        }
        record(stats, t0, total, rows);
    }
    return total;
}

/* schedule(guided): dynamic with shrinking chunks, each about the remaining
 * rows / T: few grabs early, small ones at the end to even out. */
long long mandel_guided(const mandel_params *m, int32_t *iters, mandel_stats *stats)
{
    long long total = 0;
    clear(stats);
    #pragma omp parallel reduction(+:total)
    {
        double t0 = pw_omp_now();
        int rows = 0;
        #pragma omp for schedule(guided) nowait
        for (int py = 0; py < m->height; py++) {
            total += mandel_row(m, py, iters + (long long)py * m->width);
            rows++;
        }
        record(stats, t0, total, rows);
    }
    return total;
}
