/* tests/wrong/4.2-last-item.c: exercise 4.2 with the loop stopping one
 * short (i < n - 1): the last item is never processed. n = 20011 is odd on
 * purpose, so a pairing or blocking mistake shows too.
 * expect: FAIL: out\[20010\] is wrong on [0-9]+ threads */
#include "schedule.h"

void process_items(int n, uint64_t *out)
{
    #pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < n - 1; i++) out[i] = sched_item_work(i, n);
}

const char *schedule_source(void) { return __FILE__; }
