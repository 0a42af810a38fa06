/* exercises/04-openmp/tree_sum.h: what exercise 4.5 asks you to write.
 *
 * A sum over a binary tree by recursion, with tasks near the root and
 * plain recursion below a cut-off depth. The tree is the chapter's own
 * (kernels/omp_tree.h): an irregular random tree, each node a value and
 * the indices of its two children (-1 for none) in t->nodes. Your
 * exercises/04-openmp/tree_sum.c implements tree_sum(); the checker
 * (check_tree_sum.c) and the solution include this same header, and the
 * checker defines tree_node_work(). */
#ifndef PW_EX_TREE_SUM_H
#define PW_EX_TREE_SUM_H

#include <stdint.h>

#include "omp_tree.h"   /* tree, tree_node (kernels/: its functions are the chapter's, not yours to call) */

/* Given (the checker defines it): the work at one node, about 90 ns of
 * integer mixing of its value; the sum adds these. Call it exactly once per
 * node (the checker counts the calls per node). */
uint64_t tree_node_work(const tree_node *node);

/* Yours: the sum of tree_node_work() over every node of t (t->n >= 1,
 * wrapping modulo 2^64, so the order of adding does not matter), by
 * recursion from t->root. A node at depth d < cutoff (the root is at depth
 * 0) hands the walk of its subtrees to tasks (one or both); a node at depth
 * cutoff or deeper walks its whole subtree by plain recursion, with no task.
 * So cutoff 0 creates no task at all, and no call creates more than two
 * tasks per node above the cut-off. One thread of a parallel region on as
 * many threads as omp_set_num_threads() last set starts the walk. */
uint64_t tree_sum(const tree *t, int cutoff);

#endif
