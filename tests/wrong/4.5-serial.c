/* tests/wrong/4.5-serial.c: exercise 4.5 as the plain recursion, no tasks
 * and no parallel region: the right sum on one thread.
 * expect: FAIL: n = 1000, cut-off 2 on 1 threads: 0 tasks, want at least
 * skip-if: built without OpenMP */
#include "omp_info.h"
#include "tree_sum.h"

static uint64_t walk(const tree *t, int i)
{
    if (i < 0) return 0;
    const tree_node *nd = &t->nodes[i];
    return tree_node_work(nd) + walk(t, nd->left) + walk(t, nd->right);
}

uint64_t tree_sum(const tree *t, int cutoff)
{
    (void)cutoff;
    return walk(t, t->root);
}
