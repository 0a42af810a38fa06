/* tests/wrong/12.2-calls-library.c: exercise 12.2 answered by the library's
 * own balanced split. Every split is the best.
 * expect: FAIL: 12.2-calls-library.c calls pipe_split_balanced\(\) */
#include "balance.h"
#include "pipeline.h"

void balance_layers(const double *cost, int L, int S, int *first)
{
    pipe_split_balanced(cost, L, S, first);
}
