/* tests/wrong/4.4-orphaned.c: exercise 4.4 with the tasks but no parallel
 * region: a task outside one (an orphaned task) runs at once on the
 * calling thread, so one task per node is made and the walk is serial.
 * expect: FAIL: n = 1, asked for 2 threads: the tasks were made and run outside any parallel region
 * skip-if: built without OpenMP */
#include "list_tasks.h"
#include "omp_info.h"

uint64_t list_tasks(list_node *head)
{
    uint64_t sum = 0;
    for (list_node *p = head; p; p = p->next) {
        #pragma omp task firstprivate(p)
        list_node_work(p);
    }
    #pragma omp taskwait
    for (list_node *p = head; p; p = p->next) sum += p->value;
    return sum;
}
