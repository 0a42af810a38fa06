/* tests/test_check.c: the checker accepts right answers, catches wrong ones,
 * and its report says where, briefly. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "elementwise.h"
#include "unit.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Run a check with its report captured into buf; returns the check's result. */
static int captured(char *buf, size_t len, int (*fn)(void))
{
    FILE *f = tmpfile();
    pw_check_set_stream(f);
    int rc = fn();
    pw_check_set_stream(NULL);
    rewind(f);
    size_t got = fread(buf, 1, len - 1, f);
    buf[got] = '\0';
    fclose(f);
    return rc;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static void test_tolerance_rule(void)
{
    EXPECT(pw_close(1.0, 1.0, 0, 0), "equal values pass with zero tolerance");
    EXPECT(pw_close(1.5, 1.0, 0.5, 0), "|diff| == atol passes");
    EXPECT(!pw_close(1.51, 1.0, 0.5, 0), "|diff| > atol fails");
    EXPECT(pw_close(110, 100, 0, 0.1), "rtol is relative to the reference");
    EXPECT(!pw_close(111, 100, 0, 0.1), "past rtol fails");
    EXPECT(pw_close(100.5, 100, 0.25, 0.0025), "atol + rtol*|ref| add up");
    EXPECT(!pw_close(NAN, 1.0, 1e9, 1e9), "NaN never passes against a number");
    EXPECT(pw_close(NAN, NAN, 0, 0), "NaN matches an expected NaN");
    EXPECT(!pw_close(1.0, NAN, 1e9, 1e9), "a number does not match an expected NaN");
    EXPECT(pw_close(INFINITY, INFINITY, 0, 0) && !pw_close(1e30, INFINITY, 1e9, 1e9), "infinities match exactly");
}

/* A deliberately wrong variant: the loop stops one element early. */
static void square_off_by_one(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) y[i] = x[i] * x[i];
}

enum { N = 1000 };
static float x[N], y[N], want[N];

static int check_wrong_variant(void)
{
    pw_fill_random(x, N, 1, -2, 2);
    for (int i = 0; i < N; i++) y[i] = -1;
    square_ref(x, want, N);
    square_off_by_one(x, y, N);
    return pw_check_floats("square_off_by_one", y, want, N, 0, 0);
}

static void test_catches_wrong_variant(void)
{
    char report[4096];
    int rc = captured(report, sizeof report, check_wrong_variant);
    EXPECT(rc == 1, "the checker returns 1 for a wrong variant, got %d", rc);
    EXPECT(strstr(report, "square_off_by_one") != NULL, "the report names the variant: %s", report);
    EXPECT(strstr(report, "first bad index 999") != NULL, "the report gives the first bad index: %s", report);
    EXPECT(strstr(report, "1 of 1000") != NULL, "the report counts the bad elements: %s", report);
}

static int check_all_wrong(void)
{
    for (int i = 0; i < N; i++) { want[i] = (float)i; y[i] = (float)i + 1; }
    return pw_check_floats("all_wrong", y, want, N, 0, 0);
}

static void test_report_stops_after_ten(void)
{
    char report[8192];
    int rc = captured(report, sizeof report, check_all_wrong);
    int lines = count_lines(report);
    EXPECT(rc == 1, "all wrong fails");
    /* a summary line, ten pairs, and one "... more" line */
    EXPECT(lines == 12, "report of 1000 bad elements is 12 lines, got %d:\n%s", lines, report);
    EXPECT(strstr(report, "[0] got 1 want 0") != NULL, "the first pair is shown: %s", report);
    EXPECT(strstr(report, "990 more") != NULL, "the rest is counted, not printed: %s", report);
}

static int check_right(void)
{
    pw_fill_random(x, N, 2, -2, 2);
    square_loop(x, y, N);
    square_ref(x, want, N);
    return pw_check_floats("square_loop", y, want, N, 0, 0);
}

static void test_accepts_right_answer(void)
{
    char report[256];
    EXPECT(captured(report, sizeof report, check_right) == 0, "square_loop matches its reference exactly");
    EXPECT(report[0] == '\0', "a passing check prints nothing, printed: %s", report);
}

static int check_scalar_wrong(void) { return pw_check_scalar("pi", 3.0, 3.14159, 0, 1e-3); }

static void test_scalar(void)
{
    char report[512];
    EXPECT(pw_check_scalar("one", 1.0, 1.0, 0, 0) == 0, "equal scalars pass");
    EXPECT(captured(report, sizeof report, check_scalar_wrong) == 1, "3 is not pi");
    EXPECT(strstr(report, "got 3 want 3.14159") != NULL, "scalar report shows both: %s", report);
}

static void test_doubles_and_empty(void)
{
    double a[3] = { 1, 2, 3 }, b[3] = { 1, 2, 3.5 };
    FILE *null = fopen("/dev/null", "w");
    pw_check_set_stream(null);
    EXPECT(pw_check_doubles("d", a, b, 3, 0, 0) == 1, "doubles differ at [2]");
    EXPECT(pw_check_doubles("d", a, b, 2, 0, 0) == 0, "first two doubles match");
    EXPECT(pw_check_floats("empty", NULL, NULL, 0, 0, 0) == 0, "an empty array matches");
    pw_check_set_stream(NULL);
    fclose(null);
}

int main(void)
{
    RUN(test_tolerance_rule);
    RUN(test_catches_wrong_variant);
    RUN(test_report_stops_after_ten);
    RUN(test_accepts_right_answer);
    RUN(test_scalar);
    RUN(test_doubles_and_empty);
    return UNIT_RESULT();
}
