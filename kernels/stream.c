/* kernels/stream.c: the four STREAM kernels (see stream.h). */
#include "omp_info.h"
#include "stream.h"

#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#define TEAM_SIZE() omp_get_num_threads()
#define THREAD_NUM() omp_get_thread_num()
#else
#define TEAM_SIZE() 1
#define THREAD_NUM() 0
#endif

const char *const stream_names[STREAM_ALL] = { "copy", "scale", "add", "triad", "copy_loop" };
const int stream_words[STREAM_ALL] = { 2, 2, 3, 3, 2 };
const int stream_flops[STREAM_ALL] = { 0, 1, 1, 2, 0 };

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
/* STREAM's copy as gcc compiles it: each thread memcpy's the slice that
 * schedule(static) gives it (n / T elements, one more for the first n % T
 * threads, as libgomp splits). */
static void copy(const double *restrict a, double *restrict c, long n)
{
    #pragma omp parallel
    {
        long threads = TEAM_SIZE(), t = THREAD_NUM();
        long q = n / threads, r = n % threads;
        long lo = t * q + (t < r ? t : r), len = q + (t < r);
        if (len > 0) memcpy(c + lo, a + lo, (size_t)len * sizeof *c);
    }
}

static void copy_loop(const double *restrict a, double *restrict c, long n)
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
    case STREAM_COPY_LOOP: copy_loop(a, c, n); break;
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
