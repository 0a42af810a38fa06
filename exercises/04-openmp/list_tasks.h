/* exercises/04-openmp/list_tasks.h: what exercise 4.4 asks you to write.
 *
 * A linked list has no trip count and no index: a `parallel for` cannot
 * walk it. A task per node can: one thread walks the list and, at each
 * node, says "this node's work is a task"; the other threads of the team
 * pick the tasks up. Your exercises/04-openmp/list_tasks.c implements
 * list_tasks(); the checker (check_list_tasks.c) and the solution include
 * this same header, and the checker defines list_node_work(). */
#ifndef PW_EX_LIST_TASKS_H
#define PW_EX_LIST_TASKS_H

#include <stdint.h>

typedef struct list_node {
    struct list_node *next;   /* the next node, NULL after the last */
    uint64_t value;
} list_node;

/* Given (the checker defines it): the work on one node, about 1.4 us of
 * integer mixing that replaces p->value by a new value. Call it exactly once
 * per node: it is not idempotent (twice gives another value), and the
 * checker counts the calls per node. */
void list_node_work(list_node *p);

/* Yours: list_node_work() on every node of the list that starts at head
 * (NULL: an empty list), one task per node, all created by one thread of a
 * parallel region on as many threads as omp_set_num_threads() last set;
 * then, once every task has finished, the sum of the nodes' new values
 * (wrapping modulo 2^64, so the order of adding does not matter). */
uint64_t list_tasks(list_node *head);

#endif
