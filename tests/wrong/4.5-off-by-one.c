/* tests/wrong/4.5-off-by-one.c: exercise 4.5 with the cut-off test one
 * level too deep (`depth > cutoff`): tasks at depths 0 to cutoff, so even
 * cut-off 0 makes one at the root.
 * expect: FAIL: n = 1000, cut-off 0 on 1 threads: 1 tasks, want none
 * skip-if: built without OpenMP */
#include "omp_info.h"
#include "tree_sum.h"

static uint64_t walk_seq(const tree *t, int i)
{
    if (i < 0) return 0;
    const tree_node *nd = &t->nodes[i];
    return tree_node_work(nd) + walk_seq(t, nd->left) + walk_seq(t, nd->right);
}

static uint64_t walk(const tree *t, int i, int depth, int cutoff)
{
    if (i < 0) return 0;
    if (depth > cutoff) return walk_seq(t, i);
    const tree_node *nd = &t->nodes[i];
    uint64_t left = 0, right;
    #pragma omp task shared(left)
    left = walk(t, nd->left, depth + 1, cutoff);
    right = walk(t, nd->right, depth + 1, cutoff);
    #pragma omp taskwait
    return tree_node_work(nd) + left + right;
}

uint64_t tree_sum(const tree *t, int cutoff)
{
    uint64_t sum = 0;
    #pragma omp parallel
    #pragma omp single
    sum = walk(t, t->root, 0, cutoff);
    return sum;
}
