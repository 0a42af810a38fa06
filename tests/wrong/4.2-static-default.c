/* tests/wrong/4.2-static-default.c: exercise 4.2 with the easy answer,
 * schedule(static): one contiguous block per thread, so the thread that
 * gets the first tenth (the items of cost 39 and 31 units) works far longer
 * than the rest, and the others wait for it.
 * expect: FAIL: schedule\(static\) on [0-9]+ threads reaches [0-9]+% of ideal where the best reaches */
#include "schedule.h"

void process_items(int n, uint64_t *out)
{
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) out[i] = sched_item_work(i, n);
}

const char *schedule_source(void) { return __FILE__; }
