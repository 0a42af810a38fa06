/* tests/wrong/4.2-past-the-end.c: exercise 4.2 off by one at the end, i <= n:
 * every out[i] the checker reads is right, and the extra write to out[n]
 * lands past the array, where it crashes only if it happens to hit
 * something (it did not, before the checker put a guard there).
 * expect: FAIL: process_items\(\) wrote out\[20011\], past the end of the 20011 items */
#include "omp_info.h"
#include "schedule.h"

void process_items(int n, uint64_t *out)
{
    #pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i <= n; i++) out[i] = sched_item_work(i, n);
}

const char *schedule_source(void) { return __FILE__; }
