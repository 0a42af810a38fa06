/* kernels/pi.c: the midpoint rule for pi, sequential and with pthreads. */
#include "pi.h"

#include "errcheck.h"
#include "timing.h"

#include <float.h>
#include <stdlib.h>

double pi_block(long long lo, long long hi, double h)
{
    double sum = 0.0;
    for (long long i = lo; i < hi; i++) {
        double x = ((double)i + 0.5) * h;   /* the middle of step i: 2 flops */
        sum += 4.0 / (1.0 + x * x);         /* 4 flops, the add a dependent chain */
    }
    return sum;
}

double pi_seq(long long n)
{
    double h = 1.0 / (double)n;
    return h * pi_block(0, n, h);
}

/* One thread's block and its result. The partial sum is written once, at the
 * end: while it works a thread touches nothing another thread touches. */
typedef struct {
    long long lo, hi;
    double h;
    double start;     /* when the run started (pw_now) */
    double sum;       /* out: this block's sum */
    double finish;    /* out: seconds after start when this thread was done */
} pi_arg;

static void *pi_worker(void *p)
{
    pi_arg *a = p;
    a->sum = pi_block(a->lo, a->hi, a->h);
    a->finish = pw_now() - a->start;
    return NULL;
}

double pi_pthreads(long long n, int T, threads_placement where, double *finish_s)
{
    pi_arg *args = malloc((size_t)T * sizeof *args);
    PW_CHECK_ALLOC(args, (size_t)T * sizeof *args);
    double h = 1.0 / (double)n, start = pw_now();
    for (int t = 0; t < T; t++) {
        threads_block(n, T, t, &args[t].lo, &args[t].hi);
        args[t].h = h;
        args[t].start = start;
    }
    threads_run(T, pi_worker, args, sizeof *args, where);
    double sum = 0.0;
    for (int t = 0; t < T; t++) {   /* the combine: T adds, in thread order */
        sum += args[t].sum;
        if (finish_s) finish_s[t] = args[t].finish;
    }
    free(args);
    return h * sum;
}

double pi_tolerance(long long n)
{
    double h = 1.0 / (double)n, u = DBL_EPSILON / 2;
    return 1.5 * h * h / 12 + (double)(n + 4) * u * PI_EXACT;
}
