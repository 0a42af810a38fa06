/* solutions/04-openmp/list_tasks.c: exercise 4.4, a task per node of a
 * linked list.
 *
 * One thread (single) walks the list and creates a task per node; the
 * other threads of the team wait at the end of the single region, and
 * that barrier is where they pick the tasks up. What each line is for:
 *   - firstprivate(p): the task copies p when it is created. Without it
 *     the task would read the walker's p when it runs, by which time the
 *     walk has moved on (another node, or NULL past the end): nodes done
 *     twice and nodes skipped. (gcc 12 happens to copy a pointer whose
 *     address is never taken even without the clause; clang shares it, as
 *     the OpenMP standard says. Write the clause.)
 *   - single: without it every thread of the team walks the whole list and
 *     every node is done once per thread.
 *   - taskwait: the sum must wait for the tasks. The barrier at the end of
 *     single would wait too, but the sum is read before it.
 * The work per node (1.4 us) is several times a task's cost (a few hundred
 * ns to create and schedule: chapter 04's Step 4 measures it), so a task
 * per node pays; a list of nodes with 50 ns of work each would not.
 */
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
        #pragma omp taskwait
        for (list_node *p = head; p; p = p->next) sum += p->value;
    }
    return sum;
}
