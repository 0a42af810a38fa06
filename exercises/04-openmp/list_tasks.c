/* exercises/04-openmp/list_tasks.c: exercise 4.4, a task per node of a
 * linked list.
 *
 * The task: call list_node_work() on every node of a linked list, in
 * parallel, with OpenMP tasks; then return the sum of the nodes' new
 * values. Why it is a lesson: a `parallel for` needs a trip count and an
 * index, and a list has neither: to find node k you must walk past the k
 * before it. Tasks fit: one thread walks the list and, at each node, hands
 * the node's work to a task; idle threads pick the tasks up. Three things
 * go wrong: a task that reads the walker's pointer when it runs instead of
 * copying it when it is made, a walk that every thread does, and a result
 * read before the tasks have finished.
 *
 * The interface (list_tasks.h):
 *   uint64_t list_tasks(list_node *head);
 *   - head: the first node, or NULL for an empty list; p->next is NULL
 *     after the last;
 *   - list_node_work(p) (given) does about 1.4 us of work on p->value:
 *     exactly once per node (twice gives another value);
 *   - one task per node, all created by one thread of a parallel region
 *     on as many threads as omp_set_num_threads() last set (the checker
 *     sets it);
 *   - returns the sum of the new values (uint64_t, wrapping), read once
 *     every task has finished.
 *
 * What the checker tries (check_list_tasks.c): lists of 0, 1, 2, 7, 1000
 * and 10007 nodes, linked in a shuffled order, on 1, 2, 3 and 7 threads. It
 * counts the calls of list_node_work() per node (each exactly once), checks
 * the sum, and counts the tasks you create at the OpenMP runtime's entry
 * point: one per node, none undeferred (if(0)), all made by one thread in a
 * team of the threads asked for. In the 7-node cases the first node's work
 * takes 30 ms longer, so a sum that does not wait for the tasks is wrong.
 * Built under ThreadSanitizer (the default where it works), a race is a
 * FAIL as well. Built without OpenMP it checks the results and says SKIP.
 *
 *   make ex-4.4      grade this file (each failure is explained)
 *   make hint-4.4    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/04-openmp/list_tasks.c: try first.
 */
#include "exercise.h"
#include "list_tasks.h"
#include "omp_info.h"   /* builds without OpenMP too: a pragma is then ignored */

uint64_t list_tasks(list_node *head)
{
    /* TODO: a parallel region; in it, one thread walks the list and makes a
     * task per node; then the sum, once the tasks are done. Then delete the
     * placeholder lines below. */
    (void)head;
    PW_NOT_YET_IMPLEMENTED();
}
