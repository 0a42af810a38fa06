/* tests/wrong/4.4-one-task.c: exercise 4.4 with the task around the whole
 * walk instead of inside it: one task, so one thread does every node while
 * the rest of the team waits.
 * expect: FAIL: n = 2 on 1 threads: one task for 2 nodes
 * skip-if: built without OpenMP */
#include "list_tasks.h"
#include "omp_info.h"

uint64_t list_tasks(list_node *head)
{
    uint64_t sum = 0;
    #pragma omp parallel
    #pragma omp single
    {
        #pragma omp task
        for (list_node *p = head; p; p = p->next) list_node_work(p);
        #pragma omp taskwait
        for (list_node *p = head; p; p = p->next) sum += p->value;
    }
    return sum;
}
