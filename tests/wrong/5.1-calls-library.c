/* tests/wrong/5.1-calls-library.c: exercise 5.1 answered with the
 * workbook's own Amdahl fit (common/models.h).
 * expect: FAIL: 5.1-calls-library.c calls pw_fit_parallel_fraction\(\) */
#include <stddef.h>

#include "models.h"
#include "serial_fraction.h"

double estimate_serial_fraction(const int *threads, const double *seconds, int count)
{
    double n[16], s[16], t1 = 0;
    for (int i = 0; i < count; i++)
        if (threads[i] == 1) t1 = seconds[i];
    for (int i = 0; i < count && i < 16; i++) { n[i] = threads[i]; s[i] = t1 / seconds[i]; }
    return 1 - pw_fit_parallel_fraction(n, s, count < 16 ? count : 16, NULL);
}
