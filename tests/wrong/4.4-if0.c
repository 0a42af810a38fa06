/* tests/wrong/4.4-if0.c: exercise 4.4 with `if(0)` on the task (as one
 * might add "to make it safe"): an undeferred task runs at once on the
 * walking thread, so the walk is serial and pays for a task per node.
 * expect: FAIL: n = 1 on 1 threads: 1 of the 1 tasks were undeferred
 * skip-if: built without OpenMP */
#include "list_tasks.h"
#include "omp_info.h"

uint64_t list_tasks(list_node *head)
{
    uint64_t sum = 0;
    #pragma omp parallel
    #pragma omp single
    {
        for (list_node *p = head; p; p = p->next) {
            #pragma omp task firstprivate(p) if(0)
            list_node_work(p);
        }
        #pragma omp taskwait
        for (list_node *p = head; p; p = p->next) sum += p->value;
    }
    return sum;
}
