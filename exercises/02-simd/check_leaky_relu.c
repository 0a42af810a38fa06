/* exercises/02-simd/check_leaky_relu.c: the checker of exercise 2.1.
 *
 * Built with your exercises/02-simd/leaky_relu.c by `make ex-2.1`, or with
 * solutions/02-simd/leaky_relu.c by `make solution-2.1`. What it tries:
 *   1. 20 sizes from 0 to 65537, most not a multiple of 4 (a vector loop
 *      without its tail leaves the last n mod 4 elements unwritten), with x
 *      in [-4, 4), alpha = 0.1, x and y 64-byte aligned;
 *   2. the same 20 sizes with x 4 bytes and y 8 bytes past a 16-byte
 *      boundary: leaky_relu.h promises no alignment, and SSE2's aligned
 *      _mm_load_ps/_mm_store_ps fault on such addresses (a crash here, after
 *      the same n passed aligned, is explained, not left to the grader);
 *   3. alpha = 1.5 on n = 7 and 1001: alpha is a parameter (0.1 written
 *      into the vector loop is caught), and max(x, alpha*x), which is the
 *      leaky ReLU only for alpha <= 1, is caught too.
 * Each y must equal the double-precision reference exactly (alpha*x is one
 * float multiply, rounded once, as the reference is: the product of two
 * floats is exact in double, 24 + 24 bits < 53, then rounded to float
 * once), every y[i] must be written, the 16 floats on either side of y must
 * be untouched, and x must not change. Each failure is explained in a line
 * or two starting "FAIL:"; the last line is "PASS: ..." and exit status 0,
 * or the status is 1.
 */
#define _POSIX_C_SOURCE 200809L   /* sigaction */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exercise.h"
#include "check.h"
#include "leaky_relu.h"
#include "util.h"

#define FENCE 16
#define UNTOUCHED (-1234.5f)   /* never a result: |alpha * x| <= 6 for x in [-4, 4), alpha <= 1.5 */
#define ALPHA 0.1f
#define MAXN 65537
/* Where x and y start in their buffers, in floats past a 64-byte boundary
 * (the buffers are 64-byte aligned, and FENCE floats are 64 bytes): 0, or
 * for the unaligned round XOFF = 1 (4 bytes) and YOFF = 2 (8 bytes) past
 * a 16-byte boundary, different so that neither can stand for the other. */
#define XOFF 1
#define YOFF 2
#define SLACK 4                /* room in the buffers for the offsets */

static const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33,
                                100, 1001, 1023, 4099, 65537 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

static float reference(float x, float alpha) { return x > 0 ? x : (float)((double)alpha * x); }

/* ---- a crash on unaligned arrays, explained ---------------------------------
 * In round 2 the checker catches SIGSEGV and SIGBUS: the same n has just
 * passed on aligned arrays, so a fault now is the alignment (an aligned
 * load or store on x86-64 faults on an address that is not a multiple of
 * 16). The message is written before the call; the handler only write()s
 * it and _exit()s (both async-signal-safe). */
static char crash_msg[512];
static size_t crash_len;

static void crash_handler(int sig)
{
    const char *name = sig == SIGBUS ? "SIGBUS" : "SIGSEGV";
    static const char a[] = "wrong\nFAIL: ";
    ssize_t w = write(STDOUT_FILENO, a, sizeof a - 1);
    const char *at = strstr(crash_msg, "%s");   /* the signal's name goes there */
    w = write(STDOUT_FILENO, crash_msg, (size_t)(at - crash_msg));
    w = write(STDOUT_FILENO, name, strlen(name));
    w = write(STDOUT_FILENO, at + 2, crash_len - (size_t)(at + 2 - crash_msg));
    (void)w;
    _exit(PW_EXIT_WRONG);
}

static void catch_crashes(int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? crash_handler : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

/* One case: 0 if right, 1 after explaining what is wrong. off: x at
 * XOFF and y at YOFF floats past a 16-byte boundary, or both aligned. */
static int try_size(float *xbuf, float *ybuf, float *xcopy, size_t n, uint64_t seed, float alpha, int off)
{
    float *x = xbuf + FENCE + (off ? XOFF : 0), *y = ybuf + FENCE + (off ? YOFF : 0);
    for (size_t i = 0; i < n + 2 * FENCE + SLACK; i++) { xbuf[i] = 1.0f; ybuf[i] = UNTOUCHED; }
    pw_fill_random(x, n, seed, -4.0f, 4.0f);
    if (n > 2) x[n / 2] = 0.0f;          /* the edge of the two arms */
    memcpy(xcopy, x, n * sizeof *x);

    char call[64];                       /* how the failures name this case */
    if (alpha != ALPHA) snprintf(call, sizeof call, "leaky_relu(n=%zu, alpha=%g)", n, alpha);
    else if (off) snprintf(call, sizeof call, "leaky_relu(n=%zu, x and y unaligned)", n);
    else snprintf(call, sizeof call, "leaky_relu(n=%zu)", n);
    printf("  n = %-6zu ", n);           /* before the call: a crash shows the size */
    if (off) {
        int len = snprintf(crash_msg, sizeof crash_msg,
            "leaky_relu(n=%zu) crashed (%%s) with x %d bytes and y %d bytes past a 16-byte boundary; "
            "the same n ran right on 16-byte aligned x and y\n"
            "  _mm_load_ps and _mm_store_ps need an address that is a multiple of 16, and leaky_relu.h promises\n"
            "  no alignment: use _mm_loadu_ps and _mm_storeu_ps (any float address, and as fast on aligned data)\n",
            n, (int)(XOFF * sizeof(float)), (int)(YOFF * sizeof(float)));
        crash_len = len > 0 && (size_t)len < sizeof crash_msg ? (size_t)len : strlen(crash_msg);
        catch_crashes(1);
    }
    leaky_relu(x, y, n, alpha);
    if (off) catch_crashes(0);

    for (size_t k = 1; k <= FENCE; k++)
        if (y[-(ptrdiff_t)k] != UNTOUCHED) {
            pw_ex_fail("%s wrote y[-%zu], before the start of y", call, k);
            return 1;
        }
    for (size_t k = 0; k < FENCE; k++)
        if (y[n + k] != UNTOUCHED) {
            pw_ex_fail("%s wrote y[%zu], past the last element y[%zu]", call, n + k, n ? n - 1 : 0);
            printf("  a vector store of 4 writes y[i .. i+3]: run the vector loop only while\n"
                   "  i + 4 <= n, and do the rest one element at a time\n");
            return 1;
        }
    if (memcmp(x, xcopy, n * sizeof *x)) {
        pw_ex_fail("%s changed x: x is the input, write only into y", call);
        return 1;
    }
    size_t missing = 0, first = n;
    for (size_t i = 0; i < n; i++)
        if (y[i] == UNTOUCHED) { missing++; if (first == n) first = i; }
    if (missing) {
        if (first + missing == n && missing == n % 4 && missing == 1)
            pw_ex_fail("y[%zu] was not written (n = %zu): the vector loop does blocks of 4 "
                 "and the last n %% 4 = 1 element, the tail, was dropped", first, n);
        else if (first + missing == n && missing == n % 4)
            pw_ex_fail("y[%zu] .. y[%zu] were not written (n = %zu): the vector loop does blocks of 4 "
                 "and the last n %% 4 = %zu elements, the tail, were dropped", first, n - 1, n, n % 4);
        else
            pw_ex_fail("%s: %zu of the %zu elements of y were not written, the first y[%zu]", call, missing, n, first);
        printf("  after the vector loop, finish with: for (; i < n; i++) y[i] = ...;\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        float want = reference(x[i], alpha);
        if (pw_close(y[i], want, 0, 0)) continue;
        float scaled = (float)((double)alpha * x[i]);
        const char *why = "", *hint = NULL;
        if (alpha > 1 && y[i] == fmaxf(x[i], scaled)) {
            why = ": max(x, alpha * x), which is the leaky ReLU only for alpha <= 1";
            hint = "  compare x with 0 for the mask (x > 0), and blend x and alpha * x by it";
        } else if (alpha != ALPHA && x[i] <= 0 && y[i] == (float)((double)ALPHA * x[i])) {
            why = ": 0.1 * x, as if alpha were always 0.1 (the checker's first alpha)";
            hint = "  alpha is a parameter: broadcast it (_mm_set1_ps(alpha), vmulq_n_f32(v, alpha))";
        } else if (y[i] == x[i]) why = ": x was copied where it should have been scaled (is the mask the right way round?)";
        else if (x[i] > 0 && y[i] == scaled) why = ": a positive x was scaled (the blend keeps the wrong arm?)";
        else if (y[i] == 0.0f) why = ": 0, as a plain ReLU would give; the negative side is alpha * x";
        pw_ex_fail("%s: y[%zu] = %.9g for x = %.9g, want %.9g%s", call, i, y[i], x[i], want, why);
        if (hint) printf("%s\n", hint);
        return 1;
    }
    printf("ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    pw_check_set_stream(stdout);
    float *xbuf = pw_alloc_floats(MAXN + 2 * FENCE + SLACK), *ybuf = pw_alloc_floats(MAXN + 2 * FENCE + SLACK);
    float *xcopy = pw_alloc_floats(MAXN);
    printf("exercise 2.1: leaky_relu() on %zu sizes from 0 to %d, alpha = %g\n", NSIZES, MAXN, ALPHA);
    int bad = 0;
    for (size_t k = 0; k < NSIZES && !bad; k++) bad = try_size(xbuf, ybuf, xcopy, sizes[k], 500 + k, ALPHA, 0);
    if (!bad)
        printf("the same sizes, x %d bytes and y %d bytes past a 16-byte boundary (%s):\n",
               (int)(XOFF * sizeof(float)), (int)(YOFF * sizeof(float)),
#if defined(__x86_64__) || defined(__i386__)
               "SSE2's aligned _mm_load_ps and _mm_store_ps fault there");
#else
               "no alignment faults on this CPU: NEON loads take any float address");
#endif
    for (size_t k = 0; k < NSIZES && !bad; k++) bad = try_size(xbuf, ybuf, xcopy, sizes[k], 600 + k, ALPHA, 1);
    /* alpha = 1.5: not the 0.1 above, and above 1, where max(x, alpha * x)
     * stops being the leaky ReLU. */
    static const size_t asizes[] = { 7, 1001 };
    if (!bad) printf("alpha = 1.5 (alpha is a parameter):\n");
    for (size_t k = 0; k < 2 && !bad; k++) bad = try_size(xbuf, ybuf, xcopy, asizes[k], 700 + k, 1.5f, 0);
    pw_free(xbuf);
    pw_free(ybuf);
    pw_free(xcopy);
    if (bad) {
        printf("exercise 2.1 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("leaky_relu() is exact on all %zu sizes, tails included, on unaligned arrays and for alpha = 1.5, "
                      "and writes only y[0..n-1]", NSIZES);
}
