/* tests/wrong/4.2-continuation.c: a RIGHT answer to exercise 4.2 that a
 * line-by-line reader failed: the pragma is split over a backslash
 * continuation, as long pragmas often are.
 * expect: PASS */
#include "omp_info.h"
#include "schedule.h"

void process_items(int n, uint64_t *out)
{
    #pragma omp parallel for \
        schedule(dynamic, 16)
    for (int i = 0; i < n; i++) out[i] = sched_item_work(i, n);
}

const char *schedule_source(void) { return __FILE__; }
