/* tests/wrong/4.5-no-cutoff.c: exercise 4.5 with a task at every node and
 * the cut-off parameter never read: the right sum, and about one task per
 * node (100003 for the largest tree), each costing more than its node's
 * work.
 * expect: FAIL: n = 1000, cut-off 0 on 1 threads: [0-9]+ tasks, want none
 * skip-if: built without OpenMP */
#include "omp_info.h"
#include "tree_sum.h"

static uint64_t walk(const tree *t, int i)
{
    if (i < 0) return 0;
    const tree_node *nd = &t->nodes[i];
    uint64_t left = 0, right;
    #pragma omp task shared(left)
    left = walk(t, nd->left);
    right = walk(t, nd->right);
    #pragma omp taskwait
    return tree_node_work(nd) + left + right;
}

uint64_t tree_sum(const tree *t, int cutoff)
{
    (void)cutoff;
    uint64_t sum = 0;
    #pragma omp parallel
    #pragma omp single
    sum = walk(t, t->root);
    return sum;
}
