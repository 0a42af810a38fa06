/* kernels/omp_tree.c: summing an irregular tree, sequentially and with tasks. */
#include "omp_tree.h"
#include "errcheck.h"
#include "omp_info.h"

#include <stdlib.h>

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return *s;
}

/* Build the subtree of m nodes whose first node is nodes[*next]; returns its
 * index. Nodes are numbered in the order they are made (preorder). The
 * recursion depth is the tree's depth: for this random split it grows
 * like log n (about 4.3 ln n at most, as for a random binary search tree). */
static int build(tree *t, int m, int *next, uint64_t *s, int depth)
{
    if (m == 0) return -1;
    int me = (*next)++;
    if (depth > t->depth) t->depth = depth;
    int left = (int)(xorshift(s) % (uint64_t)m);        /* 0 .. m-1 descendants on the left */
    t->nodes[me].value = xorshift(s) >> 32;
    t->nodes[me].left = build(t, left, next, s, depth + 1);
    t->nodes[me].right = build(t, m - 1 - left, next, s, depth + 1);
    return me;
}

tree tree_make(int n, uint64_t seed)
{
    tree t = { malloc((size_t)n * sizeof(tree_node)), n, 0, 0 };
    PW_CHECK_ALLOC(t.nodes, (size_t)n * sizeof(tree_node));
    uint64_t s = seed | 1;
    int next = 0;
    t.root = build(&t, n, &next, &s, 0);
    return t;
}

void tree_free(tree *t)
{
    free(t->nodes);
    t->nodes = NULL;
}

/* The per-node work: rounds of multiply-xorshift mixing. */
static uint64_t node_work(uint64_t v)
{
    for (int r = 0; r < TREE_NODE_ROUNDS; r++) {
        v *= 0xbf58476d1ce4e5b9ull;
        v ^= v >> 31;
    }
    return v;   /* sums wrap modulo 2^64: still exact, and the same in any order */
}

static uint64_t walk_seq(const tree_node *nodes, int i)
{
    if (i < 0) return 0;
    return node_work(nodes[i].value) + walk_seq(nodes, nodes[i].left) + walk_seq(nodes, nodes[i].right);
}

uint64_t tree_sum_seq(const tree *t) { return walk_seq(t->nodes, t->root); }

/* Above the cut-off, the left subtree becomes a task (any thread may run it)
 * while this thread walks the right one; taskwait joins them. The variables
 * a task reads (nodes, i, ...) are firstprivate by default: copied when it
 * is created; `left` is shared so the task can hand its result back. */
static uint64_t walk_tasks(const tree_node *nodes, int i, int depth, int cutoff)
{
    if (i < 0) return 0;
    if (depth >= cutoff) return walk_seq(nodes, i);
    uint64_t left = 0, right;
    #pragma omp task shared(left)
    left = walk_tasks(nodes, nodes[i].left, depth + 1, cutoff);
    right = walk_tasks(nodes, nodes[i].right, depth + 1, cutoff);
    #pragma omp taskwait
    return node_work(nodes[i].value) + left + right;
}

/* One thread starts the walk (single); the others of the team wait at the
 * end of the single region, and that is where they pick up tasks. */
uint64_t tree_sum_tasks(const tree *t, int cutoff)
{
    uint64_t sum = 0;
    #pragma omp parallel
    #pragma omp single
    sum = walk_tasks(t->nodes, t->root, 0, cutoff);
    return sum;
}

static long long count_tasks(const tree_node *nodes, int i, int depth, int cutoff)
{
    if (i < 0 || depth >= cutoff) return 0;
    return 1 + count_tasks(nodes, nodes[i].left, depth + 1, cutoff)
             + count_tasks(nodes, nodes[i].right, depth + 1, cutoff);
}

long long tree_tasks_created(const tree *t, int cutoff) { return count_tasks(t->nodes, t->root, 0, cutoff); }
