/* tests/wrong/4.4-shared-p.c: exercise 4.4 with the walker's pointer kept
 * in a static variable and no firstprivate(p): the tasks share it, and
 * each reads it when it runs, by which time the walk has moved on (to a
 * later node, or past the end: NULL). gcc and clang both share a static.
 * expect: FAIL: (list_node_work\(\) was given NULL|n = [0-9]+ on [0-9]+ threads: node [0-9]+ \(from the head\) was processed|ThreadSanitizer: data race)
 * skip-if: built without OpenMP */
#include "list_tasks.h"
#include "omp_info.h"

static list_node *p;   /* the walk's cursor */

uint64_t list_tasks(list_node *head)
{
    uint64_t sum = 0;
    #pragma omp parallel
    #pragma omp single
    {
        for (p = head; p; p = p->next) {
            #pragma omp task
            list_node_work(p);
        }
        #pragma omp taskwait
        for (list_node *q = head; q; q = q->next) sum += q->value;
    }
    return sum;
}
