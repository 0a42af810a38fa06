/* tests/wrong/1.2-calls-library.c: exercise 1.2 answered with the
 * workbook's own statistics (common/timing.h), which the checker uses.
 * expect: FAIL: 1.2-calls-library.c calls pw_(quantile|median|mean)\(\) */
#include "summary.h"
#include "timing.h"

void summarize(const double *samples, int n, struct summary *out)
{
    out->min = pw_quantile(samples, n, 0);
    out->median = pw_quantile(samples, n, 0.5);
    out->q1 = pw_quantile(samples, n, 0.25);
    out->q3 = pw_quantile(samples, n, 0.75);
    out->mean = pw_mean(samples, n);
}
