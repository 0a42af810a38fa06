/* tests/wrong/4.5-orphaned.c: exercise 4.5 with the right tasks and
 * cut-off but no parallel region: a task outside one runs at once on the
 * calling thread, so the walk is serial.
 * expect: FAIL: n = 1000, asked for 2 threads: the tasks were made and run outside any parallel region
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
    if (depth >= cutoff) return walk_seq(t, i);
    const tree_node *nd = &t->nodes[i];
    uint64_t left = 0, right;
    #pragma omp task shared(left)
    left = walk(t, nd->left, depth + 1, cutoff);
    right = walk(t, nd->right, depth + 1, cutoff);
    #pragma omp taskwait
    return tree_node_work(nd) + left + right;
}

uint64_t tree_sum(const tree *t, int cutoff) { return walk(t, t->root, 0, cutoff); }
