/* kernels/omp_tree.h: OpenMP tasks for an irregular problem, a walk over an
 * unbalanced binary tree.
 *
 * A parallel for needs a loop whose trip count is known when it starts. A
 * tree has none: how much work hangs under a node is found out only by
 * walking it, and the two sides of a node can differ a thousandfold. Tasks
 * fit: at each node, the walk says "the left subtree is a task" and goes on
 * with the right; idle threads pick up waiting tasks.
 *
 * The catch is the cost of a task (tens to hundreds of nanoseconds to create
 * and schedule) against the work in it. A task per node (cut-off at any
 * depth) spends more on bookkeeping than on the nodes; tasks only near the
 * root (cut-off at depth d: at most 2^d tasks) give plenty of parallelism
 * for a few threads at almost no cost. Below the cut-off the walk is plain
 * sequential recursion.
 *
 * Each node carries a value and does TREE_NODE_ROUNDS rounds of integer
 * mixing on it (a stand-in for real work per node); the walk returns the
 * sum, an integer, so every order of the walk must give the same answer.
 */
#ifndef PW_OMP_TREE_H
#define PW_OMP_TREE_H

#include <stdint.h>

#define TREE_NODE_ROUNDS 64   /* about 200 ns of work per node on a 3-4 GHz core */

typedef struct {
    int32_t left, right;      /* child indices, -1 for none */
    uint64_t value;
} tree_node;

typedef struct {
    tree_node *nodes;
    int n;                    /* nodes */
    int root;
    int depth;                /* the longest root-to-leaf path, in edges */
} tree;

/* A random tree of n nodes: each subtree of m nodes puts a random share of
 * its m - 1 descendants on the left (anything from none to all), so the tree
 * is irregular: some subtrees are chains, some bushy. Fixed seed. */
tree tree_make(int n, uint64_t seed);
void tree_free(tree *t);

/* The sequential reference: recursion. */
uint64_t tree_sum_seq(const tree *t);

/* Tasks down to depth `cutoff` (0: no tasks at all, one thread walks), then
 * sequential recursion. Threads: as omp_set_num_threads last set. */
uint64_t tree_sum_tasks(const tree *t, int cutoff);

/* How many tasks tree_sum_tasks creates at this cut-off. */
long long tree_tasks_created(const tree *t, int cutoff);

#endif
