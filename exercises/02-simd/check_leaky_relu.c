/* exercises/02-simd/check_leaky_relu.c: the checker of exercise 2.1.
 *
 * Built with your exercises/02-simd/leaky_relu.c by `make ex-2.1`, or with
 * solutions/02-simd/leaky_relu.c by `make solution-2.1`. It tries 20 sizes
 * from 0 to 65537, most not a multiple of 4 (a vector loop without its
 * tail leaves the last n mod 4 elements unwritten), with x in [-4, 4) and
 * alpha = 0.1. Each y must equal the double-precision reference exactly
 * (alpha*x is one float multiply, rounded once, as the reference is), every
 * y[i] must be written, the 16 floats on either side of y must be
 * untouched, and x must not change. Each failure is explained in a line or
 * two starting "FAIL:"; the last line is "PASS: ..." and exit status 0, or
 * the status is 1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exercise.h"
#include "check.h"
#include "leaky_relu.h"
#include "util.h"

#define FENCE 16
#define UNTOUCHED (-1234.5f)   /* never a result: |alpha * x| < 0.4 for x in [-4, 4) */
#define ALPHA 0.1f
#define MAXN 65537

static const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33,
                                100, 1001, 1023, 4099, 65537 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

static float reference(float x) { return x > 0 ? x : (float)((double)ALPHA * x); }

/* One size: 0 if right, 1 after explaining what is wrong. */
static int try_size(float *xbuf, float *ybuf, float *xcopy, size_t n, uint64_t seed)
{
    float *x = xbuf + FENCE, *y = ybuf + FENCE;
    for (size_t i = 0; i < n + 2 * FENCE; i++) { xbuf[i] = 1.0f; ybuf[i] = UNTOUCHED; }
    pw_fill_random(x, n, seed, -4.0f, 4.0f);
    if (n > 2) x[n / 2] = 0.0f;          /* the edge of the two arms */
    memcpy(xcopy, x, n * sizeof *x);

    printf("  n = %-6zu ", n);           /* before the call: a crash shows the size */
    leaky_relu(x, y, n, ALPHA);

    for (size_t k = 1; k <= FENCE; k++)
        if (y[-(ptrdiff_t)k] != UNTOUCHED) {
            pw_ex_fail("leaky_relu(n=%zu) wrote y[-%zu], before the start of y", n, k);
            return 1;
        }
    for (size_t k = 0; k < FENCE; k++)
        if (y[n + k] != UNTOUCHED) {
            pw_ex_fail("leaky_relu(n=%zu) wrote y[%zu], past the last element y[%zu]", n, n + k, n ? n - 1 : 0);
            printf("  a vector store of 4 writes y[i .. i+3]: run the vector loop only while\n"
                   "  i + 4 <= n, and do the rest one element at a time\n");
            return 1;
        }
    if (memcmp(x, xcopy, n * sizeof *x)) {
        pw_ex_fail("leaky_relu(n=%zu) changed x: x is the input, write only into y", n);
        return 1;
    }
    size_t missing = 0, first = n;
    for (size_t i = 0; i < n; i++)
        if (y[i] == UNTOUCHED) { missing++; if (first == n) first = i; }
    if (missing) {
        if (first + missing == n && missing == n % 4)
            pw_ex_fail("y[%zu] .. y[%zu] were not written (n = %zu): the vector loop does blocks of 4 "
                 "and the last n %% 4 = %zu elements, the tail, were dropped", first, n - 1, n, n % 4);
        else
            pw_ex_fail("%zu of the %zu elements of y were not written, the first y[%zu]", missing, n, first);
        printf("  after the vector loop, finish with: for (; i < n; i++) y[i] = ...;\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        float want = reference(x[i]);
        if (pw_close(y[i], want, 0, 0)) continue;
        const char *why = "";
        if (y[i] == x[i]) why = ": x was copied where it should have been scaled (is the mask the right way round?)";
        else if (x[i] > 0 && y[i] == (float)((double)ALPHA * x[i])) why = ": a positive x was scaled (the blend keeps the wrong arm?)";
        else if (y[i] == 0.0f) why = ": 0, as a plain ReLU would give; the negative side is alpha * x";
        pw_ex_fail("leaky_relu(n=%zu): y[%zu] = %.9g for x = %.9g, want %.9g%s", n, i, y[i], x[i], want, why);
        return 1;
    }
    printf("ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_check_set_stream(stdout);
    float *xbuf = pw_alloc_floats(MAXN + 2 * FENCE), *ybuf = pw_alloc_floats(MAXN + 2 * FENCE);
    float *xcopy = pw_alloc_floats(MAXN);
    printf("exercise 2.1: leaky_relu() on %zu sizes from 0 to %d, alpha = %g\n", NSIZES, MAXN, ALPHA);
    int bad = 0;
    for (size_t k = 0; k < NSIZES && !bad; k++) bad = try_size(xbuf, ybuf, xcopy, sizes[k], 500 + k);
    pw_free(xbuf);
    pw_free(ybuf);
    pw_free(xcopy);
    if (bad) {
        printf("exercise 2.1 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("leaky_relu() is exact on all %zu sizes, tails included, and writes only y[0..n-1]", NSIZES);
}
