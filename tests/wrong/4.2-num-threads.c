/* tests/wrong/4.2-num-threads.c: exercise 4.2 with the right schedule but
 * num_threads(2) in the pragma, "for a 2-core laptop": it overrides
 * omp_set_num_threads(), so the loop the model grades on 3 and 7 threads
 * runs on 2.
 * expect: FAIL: asked for 7 threads, process_items\(\) ran on at most 2: a num_threads\(\) clause overrides omp_set_num_threads\(\)
 * skip-if: no /proc/self/task here|built without OpenMP */
#include "omp_info.h"
#include "schedule.h"

void process_items(int n, uint64_t *out)
{
    #pragma omp parallel for schedule(dynamic, 16) num_threads(2)
    for (int i = 0; i < n; i++) out[i] = sched_item_work(i, n);
}

const char *schedule_source(void) { return __FILE__; }
