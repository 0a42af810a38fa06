/* exercises/04-openmp/check_tree_sum.c: the checker of exercise 4.5.
 *
 * Built with your exercises/04-openmp/tree_sum.c by `make ex-4.5`, or with
 * solutions/04-openmp/tree_sum.c by `make solution-4.5`. It is also
 * tree_node_work(), which counts the calls per node and notes the team each
 * ran in, and it counts the tasks your code creates at the OpenMP runtime's
 * entry point (task_count.h says how). The verdict comes from counts and
 * sums, not times, so it does not depend on how busy the machine is.
 *
 * The trees: the chapter's random irregular trees (tree_make) of 1, 2, 3,
 * 1000 and 100003 nodes; cut-offs 0, 2 and 8; 1, 2, 3 and 7 threads. Each
 * call must give the exact sum (integers, wrapping: any order of adding
 * gives the same bits), with every node's work done once, and create a
 * number of tasks the cut-off allows. With m the nodes at depth < cutoff
 * (the ones allowed to make tasks) and m2 those of them with two children:
 *   - at most 2 m + 1 tasks: two per node above the cut-off (one per
 *     child), and one more should the walk from the root be a task itself.
 *     For the 100003-node tree at cut-off 8, m = 254 and the bound 509,
 *     where a task at every node makes about 100003: no cut-off, or one
 *     made with an if() or final() clause (those tasks run at once, but each
 *     is still a task), fails by a factor of hundreds;
 *   - at least m2 tasks: a node above the cut-off with two subtrees must
 *     hand at least one of them to a task (else there is no parallelism
 *     there); at cut-off 8, m2 = 248. A cut-off that ignores its parameter
 *     fails at one of the three cut-offs, as does one with no tasks;
 *   - none at cut-off 0 (the root, at depth 0, is not above it): this
 *     also catches `depth <= cutoff`;
 *   - no undeferred task (an if() clause that is false);
 *   - tasks made in a team of the threads asked for (a task outside any
 *     parallel region runs at once on the calling thread).
 * A lost result is a wrong sum: a task's result written into the parent's
 * local variable without shared(...) (the task writes its own copy), or
 * added before the task has finished. For the second, in the 100003-node
 * tree at cut-off 2 on 3 threads, the walk is done twice more, once with
 * the root's left child's work 30 ms longer and once with its right
 * child's: whichever child a walk hands to a task, one of the two runs
 * makes that task finish 30 ms after the other child, and a sum that did
 * not wait for it misses it, unless the walking thread itself stalled for
 * 30 ms at that moment. But such a task also writes its result into the
 * parent's stack frame after the parent has returned, where the runtime's
 * own frames now are: the run may as well crash or hang (a walk without
 * taskwait, built by gcc under TSan, hung until the grader's 20 s limit).
 * That outcome is not the checker's to choose, so no planted answer
 * stands for it (tests/wrong/ has the missing shared(left) instead, which
 * is wrong the same way every time).
 * Built without OpenMP it checks the sums on one thread and says SKIP.
 * Last line "PASS: ..." and exit 0, or exit 1.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "exercise.h"
#include "omp_info.h"
#include "task_count.h"
#include "tree_sum.h"
#include "util.h"

#define HOLD_MS 30   /* the held node's extra time: a result added early misses its subtree */

static const tree *cur;         /* the tree of the current call */
static atomic_int *visits;      /* tree_node_work() calls per node, this call */
static atomic_int work_team;    /* the largest team tree_node_work() ran in */
static int held = -1;           /* the node whose work takes HOLD_MS longer, or -1 */
static atomic_int failed;

static void stop(const char *what, const char *why)
{
    if (atomic_exchange(&failed, 1)) for (;;) pause();   /* another thread is reporting */
    printf("wrong\nFAIL: %s\n%s\nexercise 4.5 is not right yet: start with the FAIL above\n", what, why);
    fflush(stdout);
    _exit(PW_EXIT_WRONG);
}

static int team_size(void)
{
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

/* The same rounds as the chapter's node work (kernels/omp_tree.c). */
static uint64_t mix(uint64_t v)
{
    for (int r = 0; r < TREE_NODE_ROUNDS; r++) {
        v *= 0xbf58476d1ce4e5b9ull;
        v ^= v >> 31;
    }
    return v;
}

uint64_t tree_node_work(const tree_node *node)
{
    if (!cur || node < cur->nodes || node >= cur->nodes + cur->n)
        stop("tree_node_work() was given a pointer that is not a node of the tree",
             "  pass it &t->nodes[i] for each node index i reached from t->root (children: -1 is none)");
    int i = (int)(node - cur->nodes);
    atomic_fetch_add(&visits[i], 1);
    int team = team_size();
    for (int seen = atomic_load(&work_team); team > seen;)
        if (atomic_compare_exchange_weak(&work_team, &seen, team)) break;
    uint64_t v = mix(node->value);
    if (i == held) nanosleep(&(struct timespec){ 0, HOLD_MS * 1000000L }, NULL);
    return v;
}

/* ---- the trees ------------------------------------------------------------- */

/* How many threads a parallel region asked for T gets here. */
static int team_for(int T)
{
    int got = 1;
#ifdef _OPENMP
#pragma omp parallel num_threads(T)
    {
#pragma omp single
        got = omp_get_num_threads();
    }
#else
    (void)T;
#endif
    return got;
}

typedef struct {
    tree t;
    uint64_t want;     /* the sum of every node's work */
    int *depth;        /* per node */
} case_tree;

/* Depths by walking from the root with an explicit stack (a chain of
 * 100003 nodes would be too deep for recursion). */
static case_tree make_tree(int n, uint64_t seed)
{
    case_tree c = { tree_make(n, seed), 0, malloc((size_t)n * sizeof(int)) };
    int *stack = malloc((size_t)n * sizeof(int));
    if (!c.depth || !stack) { printf("FAIL: out of memory\n"); exit(PW_EXIT_WRONG); }
    int top = 0;
    c.depth[c.t.root] = 0;
    stack[top++] = c.t.root;
    while (top) {
        int i = stack[--top];
        const tree_node *nd = &c.t.nodes[i];
        c.want += mix(nd->value);
        if (nd->left >= 0) { c.depth[nd->left] = c.depth[i] + 1; stack[top++] = nd->left; }
        if (nd->right >= 0) { c.depth[nd->right] = c.depth[i] + 1; stack[top++] = nd->right; }
    }
    free(stack);
    return c;
}

/* m: nodes at depth < cutoff; m2: those with two children. */
static void above_cutoff(const case_tree *c, int cutoff, int *m, int *m2)
{
    *m = *m2 = 0;
    for (int i = 0; i < c->t.n; i++)
        if (c->depth[i] < cutoff) {
            (*m)++;
            if (c->t.nodes[i].left >= 0 && c->t.nodes[i].right >= 0) (*m2)++;
        }
}

/* ---- one call -------------------------------------------------------------- */

static int check_visits(const case_tree *c, int cutoff, int T)
{
    int n = c->t.n, never = 0, again = 0, all_T = T > 1, first = -1;
    for (int i = 0; i < n; i++) {
        int v = atomic_load(&visits[i]);
        if (v != T) all_T = 0;
        if (v == 1) continue;
        if (v == 0) never++; else again++;
        if (first < 0) first = i;
    }
    if (first < 0) return 0;
    if (all_T) {
        pw_ex_fail("n = %d, cut-off %d on %d threads: every node's work was done %d times, once per thread", n,
                   cutoff, T, T);
        printf("  each thread of the team walked the whole tree: the walk starts on one thread (#pragma omp\n"
               "  single inside the parallel region), and its tasks spread it over the others\n");
        return 1;
    }
    pw_ex_fail("n = %d, cut-off %d on %d threads: node %d (depth %d) had its work done %d times (%d nodes never, "
               "%d more than once)", n, cutoff, T, first, c->depth[first], atomic_load(&visits[first]), never, again);
    printf("  every node of the tree once: the node itself, then its left and right subtrees (-1: none)\n");
    return 1;
}

static int check_tasks(const case_tree *c, int cutoff, int T, const pw_task_tally *tl)
{
    int n = c->t.n, m, m2;
    above_cutoff(c, cutoff, &m, &m2);
    long long most = cutoff == 0 ? 0 : 2LL * m + 1;
    if (tl->created > most) {
        if (cutoff == 0)
            pw_ex_fail("n = %d, cut-off 0 on %d threads: %lld tasks, want none", n, T, tl->created);
        else
            pw_ex_fail("n = %d, cut-off %d on %d threads: %lld tasks, want at most 2 m + 1 = %lld (m = %d nodes "
                       "above depth %d)", n, cutoff, T, tl->created, most, m, cutoff);
        if (tl->created >= n / 2)
            printf("  about a task per node: the cut-off does not stop the tasks. A task costs a few hundred ns,\n"
                   "  more than a node's work (about 90 ns); an if() or final() clause makes the deep tasks run at once,\n"
                   "  but each one is still a task. At depth >= cutoff call a plain recursive function, with no\n"
                   "  task pragma in it\n");
        else if (cutoff == 0 && tl->created <= 2)
            printf("  a node at depth d makes tasks only when d < cutoff, and the root is at depth 0: at cut-off 0\n"
                   "  the whole walk is plain recursion (depth <= cutoff makes tasks one level too deep)\n");
        else
            printf("  a node makes tasks only when its depth is below the cut-off: is the cut-off parameter used,\n"
                   "  and the depth passed down (depth + 1 for the children)?\n");
        return 1;
    }
    if (tl->created < m2) {
        pw_ex_fail("n = %d, cut-off %d on %d threads: %lld tasks, want at least %d (the nodes above depth %d "
                   "with two subtrees)", n, cutoff, T, tl->created, m2, cutoff);
        printf("  %s\n", tl->created == 0
                   ? "no task at all: the walk ran as one serial recursion. Above the cut-off, hand a subtree to "
                     "#pragma omp task"
                   : "each node above the cut-off with two subtrees must hand one of them to a task: is the cut-off\n"
                     "  parameter used (not a fixed depth of your own)?");
        return 1;
    }
    if (tl->undeferred) {
        pw_ex_fail("n = %d, cut-off %d on %d threads: %lld of the %lld tasks were undeferred (a false if() clause)",
                   n, cutoff, T, tl->undeferred, tl->created);
        printf("  an undeferred task runs at once on its creator's thread: no parallelism, and a task's cost\n");
        return 1;
    }
    int team = atomic_load(&work_team);
    if (tl->max_team > team) team = tl->max_team;
    int want_team = team_for(T);
    if (T > 1 && m2 > 0 && team < want_team) {
        if (team <= 1) {
            pw_ex_fail("n = %d, asked for %d threads: the tasks were made and run outside any parallel region", n, T);
            printf("  a task outside a parallel region (an orphaned task) runs at once on the calling thread: a\n"
                   "  serial walk. Start the walk in #pragma omp parallel, then #pragma omp single\n");
        } else {
            pw_ex_fail("n = %d, asked for %d threads: the tasks ran in a team of %d", n, T, team);
            printf("  a num_threads() clause overrides omp_set_num_threads(), which the checker calls: leave the\n"
                   "  count to the caller\n");
        }
        return 1;
    }
    return 0;
}

static int try_call(const case_tree *c, int cutoff, int T, int hold, bool omp, long long *tasks)
{
    int n = c->t.n;
    for (int i = 0; i < n; i++) atomic_store(&visits[i], 0);
    atomic_store(&work_team, 0);
    pw_tasks_reset();
    pw_omp_set_threads(T);
    cur = &c->t;
    held = hold;
    uint64_t got = tree_sum(&c->t, cutoff);
    held = -1;
    pw_task_tally tl = pw_tasks_read();
    *tasks = tl.created;
    if (check_visits(c, cutoff, T)) return 1;
    if (got != c->want) {
        pw_ex_fail("n = %d, cut-off %d on %d threads: the sum is %llu, want %llu", n, cutoff, T,
                   (unsigned long long)got, (unsigned long long)c->want);
        printf("  every node's work was done once, so results were lost on the way up%s. A task's result\n"
               "  stored in a local variable of its parent needs shared(...) on the task (a local is\n"
               "  firstprivate in a task: the task writes its own copy), and the parent may add it only\n"
               "  after #pragma omp taskwait\n",
               hold >= 0 ? " (in this run one child of the root took 30 ms longer)" : "");
        return 1;
    }
    if (omp && check_tasks(c, cutoff, T, &tl)) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    bool omp = pw_omp_enabled();
    printf("exercise 4.5: tree_sum() on random irregular trees, every node's work and every task counted\n");
    if (!omp) printf("(built without OpenMP: graded on one thread, where no task is ever created; get it: %s)\n",
                     PW_OMP_INSTALL_HINT);
    /* The 1000-node tree first: a wrong cut-off shows there as what it is
     * (a task per node, one level too deep, a fixed depth), where a tree of
     * 1 to 3 nodes has too few levels to tell them apart. The largest last. */
    static const int sizes[] = { 1000, 1, 2, 3, 100003 };
    enum { NSIZES = sizeof sizes / sizeof sizes[0] };
    static const int cutoffs[] = { 0, 2, 8 };
    static const int threads[] = { 1, 2, 3, 7 };
    case_tree trees[NSIZES];
    int big = NSIZES - 1;
    for (int k = 0; k < NSIZES; k++) {
        /* The largest tree's root must split it into two subtrees of at
         * least a quarter each (the first seed from 7 + k up that does), so
         * that holding either child leaves the other a long walk. Nodes are
         * numbered in preorder: the root's left subtree is nodes 1 to
         * right - 1. */
        uint64_t seed = 7 + (uint64_t)k;
        for (;;) {
            trees[k] = make_tree(sizes[k], seed);
            const tree *t = &trees[k].t;
            if (k != big) break;
            int left = t->nodes[t->root].left, right = t->nodes[t->root].right;
            if (left >= 0 && right >= 0 && right - left >= t->n / 4 && t->n - right >= t->n / 4) break;
            tree_free(&trees[k].t);
            free(trees[k].depth);
            seed++;
        }
    }
    visits = malloc((size_t)sizes[big] * sizeof *visits);
    if (!visits) { printf("FAIL: out of memory\n"); return PW_EXIT_WRONG; }
    int bad = 0;
    for (int ti = 0; ti < (omp ? 4 : 1) && !bad; ti++) {
        int T = threads[ti];
        for (int k = 0; k < NSIZES && !bad; k++) {
            printf("  n = %-6d (depth %2d) threads = %d  cut-offs", sizes[k], trees[k].t.depth, T);
            long long tasks[3] = { 0, 0, 0 }, ignored;
            for (int ci = 0; ci < 3 && !bad; ci++) {
                printf(" %d", cutoffs[ci]);
                bad = try_call(&trees[k], cutoffs[ci], T, -1, omp, &tasks[ci]);
                if (!bad && omp && k == big && cutoffs[ci] == 2 && T == 3) {
                    const tree_node *root = &trees[k].t.nodes[trees[k].t.root];
                    printf(" (twice more: each child of the root held %d ms)", HOLD_MS);
                    bad = try_call(&trees[k], 2, T, root->left, omp, &ignored) ||
                          try_call(&trees[k], 2, T, root->right, omp, &ignored);
                }
            }
            if (!bad) printf("  ok  (tasks: %lld, %lld, %lld)\n", tasks[0], tasks[1], tasks[2]);
        }
    }
    if (!bad && omp) {
        int m, m2;
        above_cutoff(&trees[big], 8, &m, &m2);
        printf("  n = %d at cut-off 8: between m2 = %d and 2 m + 1 = %d tasks allowed; a task at every node "
               "would be %d\n", sizes[big], m2, 2 * m + 1, sizes[big]);
    }
    for (int k = 0; k < NSIZES; k++) {
        tree_free(&trees[k].t);
        free(trees[k].depth);
    }
    free(visits);
    if (bad) {
        printf("exercise 4.5 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    if (!omp) {
        printf("SKIP: right on one thread, but built without OpenMP no task is ever created, so the cut-off\n"
               "  cannot be checked: build with OpenMP (on macOS, brew install libomp) to grade 4.5\n");
        return 77;
    }
    return pw_ex_pass("the exact sum of trees of 1 to 100003 nodes at cut-offs 0, 2 and 8 on 1 to 7 threads, "
                      "with the tasks the cut-off allows");
}
