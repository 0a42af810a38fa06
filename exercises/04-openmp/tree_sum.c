/* exercises/04-openmp/tree_sum.c: exercise 4.5, a tree sum with tasks and
 * a cut-off.
 *
 * The task: add up tree_node_work() over every node of a binary tree, by
 * recursion, with OpenMP tasks for the subtrees near the root and plain
 * recursion below a cut-off depth. Why it is a lesson: a tree's work is
 * found only by walking it (this one is irregular: some subtrees are
 * chains, some bushy), so tasks fit; but a task costs a few hundred ns to
 * create and schedule, more than a node's work here (about 90 ns: Step 4 measured 88), so a
 * task at every node makes the parallel walk slower than the serial one
 * (chapter 04's Step 4 measured 4.8x slower). Tasks near the root only:
 * a few per thread, each of many nodes. And a task's result has to come
 * back to its parent: which variable it goes into, and when the parent may
 * read it, is the other half of the exercise.
 *
 * The interface (tree_sum.h; the tree is kernels/omp_tree.h's):
 *   uint64_t tree_sum(const tree *t, int cutoff);
 *   - t->nodes[i] has .left and .right, the children's indices (-1: none);
 *     start at t->root, the node at depth 0; t->n >= 1;
 *   - tree_node_work(&t->nodes[i]) (given): the value to add, exactly once
 *     per node; the sum wraps modulo 2^64, so any order of adding is exact;
 *   - a node at depth < cutoff hands its subtrees to tasks (one or both); at
 *     depth >= cutoff, plain recursion with no task: cutoff 0, no task;
 *   - one thread of a parallel region on as many threads as
 *     omp_set_num_threads() last set (the checker sets it) starts the walk.
 *
 * What the checker tries (check_tree_sum.c): random irregular trees of 1,
 * 2, 3, 1000 and 100003 nodes at cut-offs 0, 2 and 8, on 1, 2, 3 and 7
 * threads: the exact sum, every node's work done once, and the tasks you
 * create counted at the OpenMP runtime's entry point: none at cut-off 0,
 * at most 2 m + 1 and at least m2, where m is the nodes above the cut-off
 * and m2 those of them with two children (no cut-off makes a task per
 * node: about 100003 against 509 allowed), none undeferred, in a team of
 * the threads asked for. In two more walks one child of the root takes 30 ms
 * longer, so a result added before its task ended is caught. Built under
 * ThreadSanitizer (the default where it works), a race is a FAIL too.
 * Built without OpenMP it checks the sums and says SKIP.
 *
 *   make ex-4.5      grade this file (each failure is explained)
 *   make hint-4.5    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/04-openmp/tree_sum.c: try first.
 */
#include "exercise.h"
#include "omp_info.h"   /* builds without OpenMP too: a pragma is then ignored */
#include "tree_sum.h"

uint64_t tree_sum(const tree *t, int cutoff)
{
    /* TODO: a recursive walk(t, i, depth, cutoff) that, above the cut-off,
     * hands a subtree to a task and waits for it; below it, plain
     * recursion. Start it from one thread of a parallel region. Then
     * delete the placeholder lines below. */
    (void)t;
    (void)cutoff;
    PW_NOT_YET_IMPLEMENTED();
}
