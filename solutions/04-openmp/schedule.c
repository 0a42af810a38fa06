/* solutions/04-openmp/schedule.c: a solution of exercise 4.2.
 *
 * Added to the skeleton exercises/04-openmp/schedule.c: the loop and its
 * pragma in process_items(), in place of the placeholder and its (void)
 * casts. Graded by: make solution-4.2
 *
 * Why dynamic, 16: the heavy block at the start defeats schedule(static)
 * and guided (their first blocks are a half or a third of the loop, and
 * whoever gets the start gets the block); the period-2 pattern defeats
 * schedule(static, 1) on an even thread count (thread 0 gets every heavy
 * even item). A shared counter balances any profile; 16 items per grab
 * (about 2.5 us of work) make the grabs cheap and still leave over a
 * thousand blocks to even out the end. static, 2 or static, 16 also pass
 * the model on this profile: they balance by luck of the pattern, not by
 * design. The checker's measurement on 2 cores: see the README.
 */
#include "omp_info.h"
#include "schedule.h"

void process_items(int n, uint64_t *out)
{
    #pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < n; i++) out[i] = sched_item_work(i, n);
}

const char *schedule_source(void) { return __FILE__; }
