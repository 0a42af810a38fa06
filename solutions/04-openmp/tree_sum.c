/* solutions/04-openmp/tree_sum.c: exercise 4.5, a tree sum with tasks and
 * a cut-off.
 *
 * Above the cut-off each node hands its left subtree to a task and walks
 * the right one itself; taskwait joins them. Below it, plain recursion: no
 * pragma at all, because a task, even one that runs at once (if(0), or
 * inside a final task), still costs its bookkeeping, a few hundred ns, and
 * a node's work here is about 90 ns (88 in Step 4). What each line is for:
 *   - shared(left): a local variable of the parent is firstprivate in a
 *     task by default, so without the clause the task would store its
 *     result in its own copy and the parent would add 0;
 *   - taskwait: the parent may add `left` only after the task wrote it (and
 *     returning without waiting would leave the task writing into a stack
 *     frame that is gone);
 *   - the cut-off by depth: at most one task per node above it, 2^cutoff - 1
 *     for a full tree; cutoff 8 makes at most 255 tasks, enough for a few
 *     threads, where a task at every node of 100003 would cost more than
 *     the nodes' work (chapter 04's Step 4: 4.8x the sequential walk).
 */
#include "omp_info.h"
#include "tree_sum.h"

/* The plain recursion below the cut-off. */
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

uint64_t tree_sum(const tree *t, int cutoff)
{
    uint64_t sum = 0;
    #pragma omp parallel
    #pragma omp single
    sum = walk(t, t->root, 0, cutoff);
    return sum;
}
