/* tests/wrong/4.2-decoy-if0.c: exercise 4.2 with schedule(static), which
 * the model fails, and a decoy pragma with the right schedule inside #if 0
 * that a text reader took for the real one.
 * expect: FAIL: schedule\(static\) on 2 threads reaches */
#include "omp_info.h"
#include "schedule.h"

void process_items(int n, uint64_t *out)
{
#if 0
    #pragma omp parallel for schedule(dynamic, 16)
#endif
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) out[i] = sched_item_work(i, n);
}

const char *schedule_source(void) { return __FILE__; }
