/* tests/unit.h: the smallest test harness that does the job.
 *
 * Each test is a function; RUN(test) prints "PASS test" or "FAIL test" on a
 * line of its own (tests/run.sh counts those lines), with the failed
 * expectations above it, indented. A test that cannot run here prints
 * "SKIP test: why". main returns 1 if anything failed.
 */
#ifndef PW_UNIT_H
#define PW_UNIT_H

#include <stdio.h>

static int unit_failures;        /* failed expectations in the current test */
static int unit_failed_tests;    /* tests with at least one failure */
static const char *unit_skip;    /* set by SKIP() */

#define EXPECT(cond, ...)                                                       \
    do {                                                                        \
        if (!(cond)) {                                                          \
            printf("  %s:%d: expected %s: ", __FILE__, __LINE__, #cond);        \
            printf(__VA_ARGS__);                                                \
            printf("\n");                                                       \
            unit_failures++;                                                    \
        }                                                                       \
    } while (0)

#define SKIP(why) do { unit_skip = (why); return; } while (0)

#define RUN(test)                                                               \
    do {                                                                        \
        unit_failures = 0;                                                      \
        unit_skip = NULL;                                                       \
        fflush(stdout);                                                         \
        test();                                                                 \
        if (unit_skip) printf("SKIP %s: %s\n", #test, unit_skip);               \
        else printf("%s %s\n", unit_failures ? "FAIL" : "PASS", #test);         \
        if (unit_failures) unit_failed_tests++;                                 \
        fflush(stdout);                                                         \
    } while (0)

#define UNIT_RESULT() (unit_failed_tests ? 1 : 0)

#endif
