/* exercises/06-memory-wall/check_online_softmax.c: the checker of exercise 6.3.
 *
 * Built with your exercises/06-memory-wall/online_softmax.c by `make ex-6.3`,
 * or with solutions/06-memory-wall/online_softmax.c by `make solution-6.3`.
 *
 * The row is fed to softmax_update tile by tile through one buffer, which
 * is overwritten with NaN after every call: a tile is seen once. After
 * every tile the state is compared with the truth for the elements seen so
 * far (max exactly; sum within rounding), so the state has to BE the
 * running max and the running sum of exp(x - max): one pass, nothing
 * deferred. Then the same rows are fed two at a time, a tile of one and a
 * tile of the other, each with its own state: an answer that keeps the row
 * anywhere but in its state (a static copy of the tiles, then a max pass
 * and a sum pass over it) mixes the two rows up. Then rows are resumed
 * from a state the checker writes itself (the max and the sum of the
 * row's first half, worked out in double and rounded to float): the two
 * floats are all an update may need, so an answer that keeps a copy of
 * the tiles per state (one buffer for each state's address: two rows in
 * turns then pass) has nothing for that half, and is named.
 *
 * softmax_finish is tried on the whole row and then on slices of it (37
 * elements at a time, the last one shorter), each with the row's state,
 * as code that writes the outputs tile by tile calls it: y is
 * exp(x - s->max) / s->sum element by element, so the slices must give the
 * same y. A finish that ignores its state and works out a max and a sum
 * from x itself (the two passes over the row that the online softmax
 * saves) is right on the whole row, and wrong on a slice, whose own max
 * and sum are not the row's.
 *
 * Rows: length 1; lengths 7 to 4099 with tiles 1, 3, 16 and 64 (most not
 * dividing the length); values in [-4, 4); values in [90, 110) (exp(x)
 * alone overflows a float past 88.7); every third entry -inf and the first
 * 20 all -inf (masked: an all -inf first tile); rising (the max grows with
 * every element) and falling rows.
 *
 * Tolerances: the sum of n positive float terms in order is within
 * (n - 1) u of the exact sum (u = 2^-24), expf is within about 1 u, and
 * each rescale adds about 2 u: the check allows twice (n + 2 tiles + 4) u.
 * Each y adds one exp and one division: 4 u more. A masked entry's y must
 * be exactly 0. The state the checker writes for a resumed row: its max is
 * one of the floats, exact; its sum is the double sum rounded to float
 * once (1/2 u), inside the bound's slack of 4 u, which counts the resumed
 * half's elements and tiles as if they had been fed.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "exercise.h"
#include "online_softmax.h"
#include "util.h"

#define MAXN 4099
#define U 0x1p-24

typedef struct {
    const char *what;    /* how the row was made */
    float x[MAXN];
    size_t n, tile;
    softmax_state s;
    size_t fed;          /* elements fed so far */
    size_t tiles;        /* tiles fed so far */
    size_t resumed_at;   /* 0, or the elements the checker's own state stood for */
    softmax_state resumed;
} row;

/* The truth over x[0..k): max, and sum of exp(x - max) in double. */
static void prefix_truth(const float *x, size_t k, double *max, double *sum)
{
    double m = -INFINITY, s = 0;
    for (size_t i = 0; i < k; i++) m = x[i] > m ? x[i] : m;
    if (m != -INFINITY)
        for (size_t i = 0; i < k; i++) s += exp((double)x[i] - m);
    *max = m;
    *sum = s;
}

static float tilebuf[MAXN];

/* How a row is being fed (for the explanation): alone from the start, in
 * turns with another row, or alone after a state the checker wrote. */
enum { ALONE, MIXED, RESUMED };

/* Feed r's next tile through the shared buffer, then check its state. */
static int feed_next(row *r, int how)
{
    size_t len = r->n - r->fed < r->tile ? r->n - r->fed : r->tile;
    for (size_t i = 0; i < len; i++) tilebuf[i] = r->x[r->fed + i];
    softmax_update(&r->s, tilebuf, len);
    for (size_t i = 0; i < len; i++) tilebuf[i] = NAN;    /* seen once: gone */
    r->fed += len;
    r->tiles++;
    double m, s;
    prefix_truth(r->x, r->fed, &m, &s);
    double rtol = 2.0 * ((double)r->fed + 2.0 * (double)r->tiles + 4.0) * U;
    bool max_ok = r->s.max == (float)m;
    bool sum_ok = m == -INFINITY ? r->s.sum == 0.0f : fabs(r->s.sum - s) <= rtol * s;
    if (max_ok && sum_ok) return 0;
    printf("wrong\n");
    if (how == RESUMED) {
        pw_ex_fail("row '%s' (n = %zu, tile %zu), resumed from a state the checker wrote: after tile %zu, max %g,\n"
                   "  sum %.9g; want max %g, sum %.9g. The state written stood for the first %zu elements (max %g, sum\n"
                   "  %.9g), and rows like this one were right fed from the start: your update keeps something\n"
                   "  besides the state (a copy of earlier tiles?). The two floats must be all it needs.",
                   r->what, r->n, r->tile, r->tiles, r->s.max, r->s.sum, m, s, r->resumed_at, r->resumed.max,
                   r->resumed.sum);
    } else if (how == MIXED) {
        pw_ex_fail("with two rows fed in turns, the state of row '%s' after its tile %zu is max %g, sum %g;\n"
                   "  want max %g, sum %.9g. Alone, this row was right: your update keeps something besides the\n"
                   "  state (a copy of earlier tiles?). One pass keeps only the running max and sum.",
                   r->what, r->tiles, r->s.max, r->s.sum, m, s);
    } else if (!max_ok) {
        pw_ex_fail("row '%s' (n = %zu, tile %zu): after tile %zu, max = %g, want %g (the largest of the %zu elements so far)",
                   r->what, r->n, r->tile, r->tiles, r->s.max, m, r->fed);
    } else if (isinf(r->s.sum) || isnan(r->s.sum)) {
        pw_ex_fail("row '%s' (n = %zu, tile %zu): after tile %zu, sum = %g, want %.9g: %s", r->what, r->n, r->tile,
                   r->tiles, r->s.sum, s, m > 88 ? "exp(x) of x > 88.7 overflows a float: add exp(x - max), never exp(x)"
                   : m == -INFINITY || r->fed > 0 ? "a NaN: exp(-inf - -inf) is exp(NaN) (skip tiles while the max is -inf)"
                   : "");
    } else {
        /* Was the sum so far left unscaled when the max grew? */
        double m_before, s_before;
        size_t before = r->fed - len;
        prefix_truth(r->x, before, &m_before, &s_before);
        double unscaled = m_before == -INFINITY ? 0 : s_before;
        for (size_t i = before; i < r->fed; i++) unscaled += exp((double)r->x[i] - m);
        bool forgot = m_before != m && m_before != -INFINITY && fabs(r->s.sum - unscaled) <= 1e-4 * unscaled;
        double plain = 0;                        /* sum exp(x): the max never subtracted? */
        for (size_t i = 0; i < r->fed; i++) plain += exp((double)r->x[i]);
        bool nomax = fabs(r->s.sum - plain) <= 1e-4 * plain;
        pw_ex_fail("row '%s' (n = %zu, tile %zu): after tile %zu, sum = %.9g, want %.9g (relative error %.2g, allowed %.2g)%s",
                   r->what, r->n, r->tile, r->tiles, r->s.sum, s, fabs(r->s.sum - s) / s, rtol,
                   forgot ? ":\n  the max grew from this tile, and the sum so far was not rescaled by exp(old max - new max)"
                   : nomax ? ":\n  that is the sum of exp(x): add exp(x - max) instead (exp(x) overflows a float past x = 88.7)"
                   : "");
    }
    return 1;
}

/* y[i] = exp(x[i] - m) / s in double, x[i] = -inf giving 0. */
static double want_y(float x, double m, double s) { return x == -INFINITY ? 0 : exp((double)x - m) / s; }

#define SLICE 37   /* softmax_finish on slices of this many elements: most rows' lengths are not a multiple */

/* Row r's softmax from its final state, against the double reference: the
 * whole row in one call, then slice by slice with the same state. */
static int check_finish(row *r)
{
    static float y[MAXN];
    softmax_finish(&r->s, r->x, y, r->n);
    double m, s;
    prefix_truth(r->x, r->n, &m, &s);
    double rtol = 2.0 * ((double)r->n + 2.0 * (double)r->tiles + 4.0) * U + 4 * U;
    for (size_t i = 0; i < r->n; i++) {
        double want = want_y(r->x[i], m, s);
        bool ok = r->x[i] == -INFINITY ? y[i] == 0.0f : fabs(y[i] - want) <= rtol * want + 1e-38;
        if (ok) continue;
        printf("wrong\n");
        pw_ex_fail("row '%s' (n = %zu): y[%zu] = %.9g, want %.9g = exp(x - max) / sum, x[%zu] = %g", r->what, r->n, i,
                   y[i], want, i, r->x[i]);
        return 1;
    }
    for (size_t i = 0; i < r->n; i++) y[i] = NAN;
    for (size_t k = 0; k < r->n; k += SLICE) {
        size_t len = r->n - k < SLICE ? r->n - k : SLICE;
        softmax_finish(&r->s, r->x + k, y + k, len);
        for (size_t i = k; i < k + len; i++) {
            double want = want_y(r->x[i], m, s);
            bool ok = r->x[i] == -INFINITY ? y[i] == 0.0f : fabs(y[i] - want) <= rtol * want + 1e-38;
            if (ok) continue;
            /* What the slice alone would give, its own max and sum (with a sum
             * of its own, any max gives the same y: exp(x - c) / sum exp(x - c)). */
            double sm, ss;
            prefix_truth(r->x + k, len, &sm, &ss);
            double alone = want_y(r->x[i], sm, ss);
            printf("wrong\n");
            pw_ex_fail("row '%s' (n = %zu): softmax_finish(s, x + %zu, y + %zu, %zu), on the slice x[%zu..%zu) with the row's\n"
                       "  state, gave y[%zu] = %.9g; want %.9g = exp(x - s->max) / s->sum (state: max %g, sum %.9g; x[%zu] = %g).%s",
                       r->what, r->n, k, k, len, k, k + len, i, y[i], want, r->s.max, r->s.sum, i, r->x[i],
                       fabs(y[i] - alone) <= 1e-4 * alone
                       ? "\n  That is the softmax of the slice alone: your finish adds up a sum (and finds a max?) from x\n"
                         "  instead of using the state it is given: more passes over the row, what the online softmax\n"
                         "  saves. y[i] = exp(x[i] - s->max) / s->sum, from x[i] and the state only."
                       : "\n  The whole row in one call was right: y[i] must depend only on x[i] and the state.");
            return 1;
        }
    }
    return 0;
}

static void make_row(row *r, const char *what, size_t n, size_t tile, uint64_t seed)
{
    r->what = what;
    r->n = n;
    r->tile = tile;
    r->fed = r->tiles = r->resumed_at = 0;
    softmax_begin(&r->s);
    if (what[0] == 'l') pw_fill_random(r->x, n, seed, 90.0f, 110.0f);          /* large */
    else pw_fill_random(r->x, n, seed, -4.0f, 4.0f);
    if (what[0] == 'm') {                                                       /* masked */
        for (size_t i = 0; i < n; i += 3) r->x[i] = -INFINITY;
        for (size_t i = 0; i < n && i < 20; i++) r->x[i] = -INFINITY;
        if (n > 0) r->x[n - 1] = 1.0f;                                          /* one live entry at least */
    }
    if (what[0] == 'r') for (size_t i = 0; i < n; i++) r->x[i] = -4.0f + 8.0f * (float)i / (float)n;   /* rising */
    if (what[0] == 'f') for (size_t i = 0; i < n; i++) r->x[i] = 4.0f - 8.0f * (float)i / (float)n;    /* falling */
}

static row rows_[2];

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    static const char *kinds[] = { "values in [-4, 4)", "large values in [90, 110)", "masked -inf entries",
                                   "rising", "falling" };
    static const size_t lens[] = { 1, 7, 33, 100, 1000, 4099 };
    static const size_t tiles[] = { 1, 3, 16, 64 };
    printf("exercise 6.3: softmax_update() tile by tile on %zu rows, the state checked after every tile;\n"
           "then softmax_finish(); then two rows fed in turns\n", sizeof kinds / sizeof kinds[0] * 6 * 4);
    int bad = 0;
    /* 1. one row at a time */
    for (size_t k = 0; k < 5 && !bad; k++)
        for (size_t l = 0; l < 6 && !bad; l++)
            for (size_t t = 0; t < 4 && !bad; t++) {
                row *r = &rows_[0];
                make_row(r, kinds[k], lens[l], tiles[t], 100 * k + 10 * l + t);
                if (t == 0) printf("  %-26s n = %-5zu tiles 1, 3, 16, 64 ", kinds[k], lens[l]);
                while (r->fed < r->n && !bad) bad = feed_next(r, ALONE);
                if (!bad) bad = check_finish(r);
                if (!bad && t == 3) printf("ok\n");
            }
    /* 2. two rows in turns, each with its own state */
    if (!bad) printf("  two rows in turns (masked, n = 1000, tile 16; large, n = 4099, tile 64) ");
    if (!bad) {
        make_row(&rows_[0], kinds[2], 1000, 16, 7);
        make_row(&rows_[1], kinds[1], 4099, 64, 8);
        while (!bad && (rows_[0].fed < rows_[0].n || rows_[1].fed < rows_[1].n))
            for (int i = 0; i < 2 && !bad; i++)
                if (rows_[i].fed < rows_[i].n) bad = feed_next(&rows_[i], MIXED);
        for (int i = 0; i < 2 && !bad; i++) bad = check_finish(&rows_[i]);
        if (!bad) printf("ok\n");
    }
    /* 3. resumed from a state the checker writes: the first half's max and sum */
    if (!bad) printf("  resumed from a state written by the checker (first half's max and sum; n = 1000, tile 16) ");
    for (size_t k = 0; k < 5 && !bad; k++) {
        row *r = &rows_[0];
        make_row(r, kinds[k], 1000, 16, 900 + k);
        size_t half = 16 * 31;                      /* 496: a whole number of tiles */
        double m, sm;
        prefix_truth(r->x, half, &m, &sm);
        r->s.max = (float)m;
        r->s.sum = (float)sm;
        r->fed = r->resumed_at = half;
        r->tiles = half / 16;
        r->resumed = r->s;
        while (r->fed < r->n && !bad) bad = feed_next(r, RESUMED);
        if (!bad) bad = check_finish(r);
    }
    if (!bad) printf("ok\n");
    if (bad) {
        printf("exercise 6.3 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("one pass: the running max and sum were right after every tile, with large values,\n"
                      "  masked entries, odd lengths and tiles, two rows at once and from a state the checker wrote;\n"
                      "  softmax_finish used the state, on whole rows and on slices");
}
