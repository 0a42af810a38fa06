/* tests/wrong/4.4-serial.c: exercise 4.4 as the plain walk, no tasks and
 * no parallel region: every node is processed once and the sum is right,
 * on one thread.
 * expect: FAIL: n = 1 on 1 threads: no task was created
 * skip-if: built without OpenMP */
#include "list_tasks.h"
#include "omp_info.h"

uint64_t list_tasks(list_node *head)
{
    uint64_t sum = 0;
    for (list_node *p = head; p; p = p->next) list_node_work(p);
    for (list_node *p = head; p; p = p->next) sum += p->value;
    return sum;
}
