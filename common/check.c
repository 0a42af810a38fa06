/* common/check.c: element-wise comparison with a tolerance, and the report. */
#include "check.h"

#include <math.h>
#include <stdio.h>

static FILE *report_stream;

void pw_check_set_stream(void *file) { report_stream = file; }
static FILE *out(void) { return report_stream ? report_stream : stderr; }

bool pw_close(double got, double ref, double atol, double rtol)
{
    if (isnan(ref)) return isnan(got);
    if (isinf(ref)) return got == ref;
    return fabs(got - ref) <= atol + rtol * fabs(ref);   /* false for NaN got */
}

/* Shared by the float and double versions: get(i) reads element i. */
typedef double (*getter)(const void *a, size_t i);
static double get_f(const void *a, size_t i) { return ((const float *)a)[i]; }
static double get_d(const void *a, size_t i) { return ((const double *)a)[i]; }

static int check_array(const char *what, const void *got, const void *ref, size_t n,
                       double atol, double rtol, getter get)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        if (pw_close(get(got, i), get(ref, i), atol, rtol)) continue;
        if (bad++ == 0) first = i;
    }
    if (bad == 0) return 0;

    fprintf(out(), "check FAILED: %s: %zu of %zu elements differ, first bad index %zu "
            "(tolerance %.3g + %.3g*|want|)\n", what, bad, n, first, atol, rtol);
    int shown = 0;
    for (size_t i = first; i < n && shown < PW_CHECK_MAX_REPORT; i++) {
        double g = get(got, i), r = get(ref, i);
        if (pw_close(g, r, atol, rtol)) continue;
        fprintf(out(), "  [%zu] got %.9g want %.9g (diff %.3g)\n", i, g, r, fabs(g - r));
        shown++;
    }
    if (bad > (size_t)shown)
        fprintf(out(), "  ... %zu more not shown\n", bad - (size_t)shown);
    return 1;
}

int pw_check_floats(const char *what, const float *got, const float *ref, size_t n,
                    double atol, double rtol)
{
    return check_array(what, got, ref, n, atol, rtol, get_f);
}

int pw_check_doubles(const char *what, const double *got, const double *ref, size_t n,
                     double atol, double rtol)
{
    return check_array(what, got, ref, n, atol, rtol, get_d);
}

int pw_check_scalar(const char *what, double got, double ref, double atol, double rtol)
{
    if (pw_close(got, ref, atol, rtol)) return 0;
    fprintf(out(), "check FAILED: %s: got %.9g want %.9g (diff %.3g > %.3g + %.3g*|want|)\n",
            what, got, ref, fabs(got - ref), atol, rtol);
    return 1;
}
