/* tests/wrong/4.4-no-single.c: exercise 4.4 without `single`: every thread
 * of the team walks the list and makes a task per node, so each node is
 * processed once per thread (and the sum is written by all of them).
 * expect: FAIL: (n = 1 on 2 threads: every node was processed 2 times, once per thread|ThreadSanitizer: data race)
 * skip-if: built without OpenMP */
#include "list_tasks.h"
#include "omp_info.h"

uint64_t list_tasks(list_node *head)
{
    uint64_t sum = 0;
    #pragma omp parallel
    {
        for (list_node *p = head; p; p = p->next) {
            #pragma omp task firstprivate(p)
            list_node_work(p);
        }
        #pragma omp taskwait
        #pragma omp master
        for (list_node *p = head; p; p = p->next) sum += p->value;
    }
    return sum;
}
