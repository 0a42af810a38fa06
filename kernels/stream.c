/* kernels/stream.c: the four STREAM kernels (see stream.h). */
#include "omp_info.h"
#include "stream.h"

#include <math.h>

const char *const stream_names[STREAM_KERNELS] = { "copy", "scale", "add", "triad" };
const int stream_words[STREAM_KERNELS] = { 2, 2, 3, 3 };
const int stream_flops[STREAM_KERNELS] = { 0, 1, 1, 2 };

double stream_bytes(int kernel, long n) { return (double)stream_words[kernel] * (double)sizeof(double) * (double)n; }

void stream_init(double *a, double *b, double *c, long n)
{
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) { a[i] = 1.0; b[i] = 2.0; c[i] = 0.0; }
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) a[i] = 2.0 * a[i];
}

/* One function per kernel, each loop alone with restrict pointers, so the
 * compiler vectorises it exactly as it does STREAM's loops over its global
 * arrays (it checked: the same vmovupd loads and stores on x86-64). */
static void copy(const double *restrict a, double *restrict c, long n)
{
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) c[i] = a[i];
}

static void scale(double *restrict b, const double *restrict c, double q, long n)
{
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) b[i] = q * c[i];
}

static void add(const double *restrict a, const double *restrict b, double *restrict c, long n)
{
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
}

static void triad(double *restrict a, const double *restrict b, const double *restrict c, double q, long n)
{
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) a[i] = b[i] + q * c[i];
}

void stream_kernel(int kernel, double *a, double *b, double *c, double q, long n)
{
    switch (kernel) {
    case STREAM_COPY:  copy(a, c, n); break;
    case STREAM_SCALE: scale(b, c, q, n); break;
    case STREAM_ADD:   add(a, b, c, n); break;
    default:           triad(a, b, c, q, n); break;
    }
}

void stream_expected(int rounds, double q, double *a, double *b, double *c)
{
    double aj = 2.0, bj = 2.0, cj = 0.0;
    for (int k = 0; k < rounds; k++) {
        cj = aj;
        bj = q * cj;
        cj = aj + bj;
        aj = bj + q * cj;
    }
    *a = aj; *b = bj; *c = cj;
}

long stream_first_bad(const double *x, long n, double want)
{
    for (long i = 0; i < n; i++)
        if (!(fabs(x[i] - want) <= STREAM_RTOL * fabs(want))) return i;   /* NaN fails too */
    return -1;
}
