/* tests/wrong/4.2-omp-for.c: exercise 4.2 with `parallel` left out of the
 * pragma: an `omp for` outside any parallel region shares its loop among a
 * team of one, so it runs on the calling thread whatever the schedule says,
 * and the model graded a schedule that never ran in parallel.
 * expect: FAIL: asked for 7 threads, process_items\(\) ran on one
 * skip-if: no /proc/self/task here|built without OpenMP */
#include "omp_info.h"
#include "schedule.h"

void process_items(int n, uint64_t *out)
{
    #pragma omp for schedule(dynamic, 16)
    for (int i = 0; i < n; i++) out[i] = sched_item_work(i, n);
}

const char *schedule_source(void) { return __FILE__; }
