/* tests/wrong/4.4-no-taskwait.c: exercise 4.4 with the sum read right
 * after the walk, inside single, without taskwait: the tasks may still be
 * running (the barrier at the end of single waits for them, but only after
 * the sum). libgomp defers even a team of one's tasks to that barrier, so
 * gcc's build fails at once; where the tasks are quicker than the sum,
 * the checker's 7-node cases hold the first node's work 30 ms, and the sum
 * misses its new value.
 * expect: FAIL: (n = [0-9]+ on [0-9]+ threads: the sum of the new values is|ThreadSanitizer: data race)
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
            #pragma omp task firstprivate(p)
            list_node_work(p);
        }
        for (list_node *p = head; p; p = p->next) sum += p->value;
    }
    return sum;
}
