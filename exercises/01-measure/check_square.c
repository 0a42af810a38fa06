/* exercises/01-measure/check_square.c: the checker of exercise 1.1 (square).
 *
 * Built with your exercises/01-measure/square.c by `make ex-1.1`, or with
 * solutions/01-measure/square.c by `make solution-1.1`. What it tries:
 *   1. square() on 20 sizes: 0 (nothing to do), 1, 2, 3, the sizes around 8
 *      and 16 (one AVX2 or AVX-512 vector of floats, where a loop that only
 *      does whole vectors loses its tail) and larger odd ones up to 65537.
 *      Each y must equal square_ref (kernels/elementwise.h) exactly, every
 *      y[i] must have been written, the 16 floats on either side of y must
 *      be untouched, and x must be unchanged.
 *   2. square_counts() for n = 0, 1, 1000, 2^20 and 3e9 (past any int):
 *      n flops and 8n bytes.
 * Each failure is explained in a line or two, starting "FAIL:". The last
 * line is "PASS: ..." and the exit status 0, or the status is 1.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exercise.h"
#include "check.h"
#include "elementwise.h"
#include "square.h"
#include "util.h"

/* Floats of fence on each side of x and y: one AVX-512 vector, so a last
 * full-vector store that runs past y[n-1] lands here and is seen. */
#define FENCE 16

/* What y holds before the call. A square is never negative, so an element
 * that still holds this was never written. */
#define UNTOUCHED (-1234.5f)

/* Sizes tried, smallest first: the first failure is the simplest to read. */
static const size_t sizes[] = { 0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33,
                                64, 100, 1000, 1023, 1024, 4099, 65537 };
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define MAXN 65537

/* The buffers of one run: x and y sit FENCE floats into xbuf and ybuf. */
typedef struct {
    float *xbuf, *ybuf;   /* [FENCE | n elements | FENCE], 64-byte aligned */
    float *xcopy;         /* x as it was before the call */
    float *ref;           /* square_ref's answer */
} buffers;

/* The first i in [0, n) with y[i] still UNTOUCHED, and how many there are. */
static size_t count_untouched(const float *y, size_t n, size_t *first)
{
    size_t count = 0;
    for (size_t i = n; i-- > 0;)
        if (y[i] == UNTOUCHED) { count++; *first = i; }
    return count;
}

/* A write outside y[0..n-1], in the fences: 0 if none. */
static int check_fences(const float *y, size_t n)
{
    for (size_t k = 1; k <= FENCE; k++) {
        if (y[-(ptrdiff_t)k] == UNTOUCHED) continue;
        pw_ex_fail("square(n=%zu) wrote y[-%zu], before the start of y", n, k);
        printf("  y[0] is the first element: does an index start below 0, or count down past it?\n");
        return 1;
    }
    for (size_t k = 0; k < FENCE; k++) {
        if (y[n + k] == UNTOUCHED) continue;
        if (n == 0) {
            pw_ex_fail("square(n=0) wrote y[%zu], but with n = 0 there is nothing to write", k);
            printf("  does the loop body run once before the test i < n (a do-while)?\n");
        } else {
            pw_ex_fail("square(n=%zu) wrote y[%zu], past the last element y[%zu]", n, n + k, n - 1);
            printf("  the loop runs while i < n (not i <= n); if you work in blocks of k,\n"
                   "  stop the blocks at n - n %% k and finish the tail one element at a time\n");
        }
        return 1;
    }
    return 0;
}

/* The size that tells the usual tail bugs apart: 1023 % k differs for
 * k = 2, 4, 8, 16, 32, 64, and none of them is 1. */
#define PROBE_N 1023

/* How many elements at the end of y square() leaves unwritten at n =
 * PROBE_N, when it writes all the others; -1 when the gaps are elsewhere.
 * Run after a failure, to say which mistake it was. */
static long unwritten_tail(buffers *B)
{
    float *x = B->xbuf + FENCE, *y = B->ybuf + FENCE;
    pw_fill_random(x, PROBE_N, 99, -4.0f, 4.0f);
    for (size_t i = 0; i < PROBE_N; i++) y[i] = UNTOUCHED;
    square(x, y, PROBE_N);
    size_t first = 0, missing = count_untouched(y, PROBE_N, &first);
    return missing > 0 && first + missing == PROBE_N ? (long)missing : -1;
}

/* Every y[i] written: 0, or 1 after explaining which were not. */
static int check_written(buffers *B, const float *y, size_t n)
{
    size_t first = 0, missing = count_untouched(y, n, &first);
    if (missing == 0) return 0;

    if (first + missing != n) {
        pw_ex_fail("%zu of the %zu elements of y were not written, the first y[%zu]",
             missing, n, first);
        printf("  does your loop step by more than one, or skip some i?\n");
        return 1;
    }
    /* Only a tail is missing: which loop leaves one? Ask a larger size. */
    long tail = unwritten_tail(B);
    int block = 0;
    for (int k = 2; k <= 64; k *= 2)
        if (tail == PROBE_N % k) block = k;
    char where[96];
    if (missing == 1)
        snprintf(where, sizeof where, "y[%zu] was not written (n = %zu)", first, n);
    else
        snprintf(where, sizeof where, "y[%zu] .. y[%zu] were not written (n = %zu)", first, n - 1, n);
    if (tail == PROBE_N) {
        pw_ex_fail("%s: square() wrote nothing, at n = %d neither: does the loop run at all?", where, PROBE_N);
        printf("  it should run from i = 0 while i < n\n");
    } else if (tail == 1) {
        pw_ex_fail("%s: does your loop stop before n?", where);
        printf("  at n = %d only y[%d] was missed: run the loop while i < n, not i < n - 1\n",
               PROBE_N, PROBE_N - 1);
    } else if (block) {
        pw_ex_fail("%s: the loop does whole blocks of %d only, and drops the tail", where, block);
        printf("  at n = %d the last %ld (= %d %% %d) were missed; after the blocks, finish\n"
               "  the tail one element at a time\n", PROBE_N, tail, PROBE_N, block);
    } else {
        pw_ex_fail("%s: does your loop stop before n, or step by more than one?", where);
        printf("  y[n-1] is the last element: run the loop from i = 0 while i < n, i++\n");
    }
    return 1;
}

/* y against square_ref, exactly (why: see check_square). 0, or 1 after explaining. */
static int check_values(const float *x, const float *y, const float *ref, size_t n)
{
    size_t b = 0;
    while (b < n && pw_close(y[b], ref[b], 0, 0)) b++;
    if (b == n) return 0;

    const char *why;
    if (y[b] == x[b])
        why = "the value was copied, not squared";
    else if (y[b] == 2 * x[b])
        why = "that is x + x; the square is x * x";
    else if ((b + 1 < n && y[b] == ref[b + 1]) || (b > 0 && y[b] == ref[b - 1]))
        why = "that is the square of a neighbour: read x and write y at the same i";
    else
        why = "y[i] must be exactly x[i] * x[i], one float multiply";
    pw_ex_fail("square(n=%zu): y[%zu] = %.9g, but x[%zu] = %.9g squared is %.9g: %s",
         n, b, y[b], b, x[b], ref[b], why);
    /* The workbook's checker lists the first mismatches (at most ten). */
    pw_check_floats("square vs square_ref", y, ref, n, 0, 0);
    return 1;
}

/* One size: fill, call, check. 0 if right. */
static int try_size(buffers *B, size_t n, uint64_t seed)
{
    float *x = B->xbuf + FENCE, *y = B->ybuf + FENCE;

    /* Values in [-4, 4): negatives too, whose squares must come out positive.
     * x's fences hold plain numbers (a read past x is not caught here; a
     * write past y is, in y's fences). */
    for (size_t i = 0; i < n + 2 * FENCE; i++) {
        B->xbuf[i] = 3.0f;
        B->ybuf[i] = UNTOUCHED;
    }
    pw_fill_random(x, n, seed, -4.0f, 4.0f);
    memcpy(B->xcopy, x, n * sizeof *x);
    square_ref(x, B->ref, n);

    /* Printed before the call, so a crash or a hang shows the size it hit. */
    printf("  n = %-6zu ", n);
    square(x, y, n);

    int bad = 0;
    if (check_fences(y, n)) bad = 1;
    else if (memcmp(x, B->xcopy, n * sizeof *x) != 0) {
        size_t i = 0;
        while (x[i] == B->xcopy[i]) i++;
        pw_ex_fail("square(n=%zu) changed x[%zu] from %.9g to %.9g", n, i, B->xcopy[i], x[i]);
        printf("  x is the input (const): write only into y\n");
        bad = 1;
    }
    else if (check_written(B, y, n)) bad = 1;
    else if (check_values(x, y, B->ref, n)) bad = 1;
    if (!bad) printf("ok\n");
    return bad;
}

/* square() on every size; stops at the first size that fails. */
static int check_square(void)
{
    buffers B;
    B.xbuf = pw_alloc_floats(MAXN + 2 * FENCE);
    B.ybuf = pw_alloc_floats(MAXN + 2 * FENCE);
    B.xcopy = pw_alloc_floats(MAXN);
    B.ref = pw_alloc_floats(MAXN);

    /* Tolerance 0: one float multiply rounds the exact product once, to the
     * nearest float. square_ref forms the product in double, where it is
     * exact (24 + 24 significant bits fit in 53), then rounds it to float:
     * the same single rounding, so the two agree bit for bit. Any
     * difference is a bug, not rounding. */
    printf("square(): y must equal square_ref exactly, nothing outside y[0..n-1] written\n");
    int bad = 0;
    for (size_t k = 0; k < NSIZES && !bad; k++)
        bad = try_size(&B, sizes[k], 1000 + k);

    pw_free(B.xbuf);
    pw_free(B.ybuf);
    pw_free(B.xcopy);
    pw_free(B.ref);
    return bad;
}

/* Why a byte count is wrong, for the mistakes people make. */
static const char *bytes_hint(double got, double n)
{
    if (got == 4 * n) return "count the read of x AND the write of y (4 bytes each)";
    if (got == 2 * n) return "count bytes, not elements: a float is 4 bytes, read once from x and written once to y";
    if (got == 12 * n) return "reading y before writing it (write-allocate) is real traffic but not compulsory: count x read once, y written once";
    if (got == 16 * n) return "x[i] is used twice but read from memory once: 4 bytes for x[i], 4 for y[i]";
    return "each element costs 4 bytes read from x and 4 bytes written to y";
}

/* square_counts() for a few n; 0 if all right. */
static int check_counts(void)
{
    /* 3e9 elements: more than an int holds, so a count done in int fails. */
    static const size_t ns[] = { 0, 1, 1000, (size_t)1 << 20, 3000000000u };
    printf("square_counts(): n flops and 8n bytes\n");
    int right_small = 0;   /* sizes that came out right before a wrong one */
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        double n = (double)ns[k], flops = NAN, bytes = NAN;
        printf("  n = %-10zu ", ns[k]);
        square_counts(ns[k], &flops, &bytes);

        const char *why = NULL, *what = NULL;
        double got = 0, want = 0;
        if (isnan(flops) || isnan(bytes)) {
            pw_ex_fail("square_counts(%zu) did not set *%s", ns[k], isnan(flops) ? "flops" : "bytes");
            printf("  write both results through the pointers: *flops = ...; *bytes = ...;\n");
            return 1;
        }
        if (flops != n) {
            what = "flops"; got = flops; want = n;
            why = flops == 2 * n ? "x[i] * x[i] is one multiply: 1 flop per element (an FMA would count 2)"
                                 : "one multiply per element: 1 flop each";
        } else if (bytes != 8 * n) {
            what = "bytes"; got = bytes; want = 8 * n;
            why = bytes_hint(bytes, n);
        }
        if (!what) { printf("ok (%.0f flops, %.0f bytes)\n", flops, bytes); right_small++; continue; }

        /* Right for small n, wrong past 2^31: an int somewhere in the count. */
        if (right_small > 0 && ns[k] > 2147483647u)
            why = "right for smaller n, so does the count overflow an int? Compute it in double";
        pw_ex_fail("square_counts(%zu) gave %.0f %s, want %.0f: %s", ns[k], got, what, want, why);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    /* Unbuffered, so what was printed survives a crash and stays in order
     * with anything written to stderr. pw_check_floats reports here too. */
    pw_check_set_stream(stdout);

    printf("exercise 1.1: square() on %zu sizes from 0 to %d, then square_counts()\n",
           NSIZES, MAXN);
    int bad_square = check_square();
    int bad_counts = check_counts();
    if (bad_square || bad_counts) {
        printf("exercise 1.1 is not right yet: %s%s%s wrong; start with the first FAIL above\n",
               bad_square ? "square()" : "", bad_square && bad_counts ? " and " : "",
               bad_counts ? "square_counts()" : "");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("square() is exact on all %zu sizes and writes only y[0..n-1]; square_counts() "
           "gives 1 flop and 8 bytes per element (0.125 flop/byte: memory-bound)", NSIZES);
}
