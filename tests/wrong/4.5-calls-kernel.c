/* tests/wrong/4.5-calls-kernel.c: exercise 4.5 by calling the chapter's own
 * tree walk (kernels/omp_tree.c's tree_sum_tasks), which the checker links.
 * expect: FAIL: 4.5-calls-kernel.c calls tree_sum_tasks\(\), from kernels/omp_tree */
#include "omp_info.h"
#include "tree_sum.h"

uint64_t tree_sum(const tree *t, int cutoff) { return tree_sum_tasks(t, cutoff); }
