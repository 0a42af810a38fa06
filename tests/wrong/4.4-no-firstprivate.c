/* tests/wrong/4.4-no-firstprivate.c: exercise 4.4 with the cursor declared
 * before the parallel region and no firstprivate(p): by the OpenMP
 * standard the task shares p (it is shared in the region around it), and
 * reads it when it runs, after the walk has moved on. clang does so and
 * fails it. gcc 12 copies a pointer whose address is never taken into the
 * task anyway, so this walk is right as gcc compiles it: nothing to catch.
 * expect: FAIL: (list_node_work\(\) was given NULL|n = [0-9]+ on [0-9]+ threads: node [0-9]+ \(from the head\) was processed|ThreadSanitizer: data race)
 * skip-if: built by gcc, which copies a local pointer|built without OpenMP */
#include "list_tasks.h"
#include "omp_info.h"

uint64_t list_tasks(list_node *head)
{
    uint64_t sum = 0;
    list_node *p = head;
    #pragma omp parallel
    #pragma omp single
    {
        while (p) {
            #pragma omp task
            list_node_work(p);
            p = p->next;
        }
        #pragma omp taskwait
        for (list_node *q = head; q; q = q->next) sum += q->value;
    }
    return sum;
}
