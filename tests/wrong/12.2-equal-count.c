/* tests/wrong/12.2-equal-count.c: exercise 12.2 answered with equal numbers
 * of layers per stage: right when every layer costs the same, not when
 * widths differ.
 * expect: FAIL: a wide block in the middle: your heaviest stage
 * hint: equal numbers of layers are not equal work */
#include "balance.h"

void balance_layers(const double *cost, int L, int S, int *first)
{
    (void)cost;
    for (int s = 0; s <= S; s++) first[s] = (int)((long long)s * L / S);
}
