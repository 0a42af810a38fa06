/* tests/wrong/12.2-empty-stage.c: exercise 12.2 by searching the answer: the
 * least limit T for which the greedy walk (a new stage when the next layer
 * would pass T) needs at most S stages. Its heaviest stage is the best,
 * but the walk may use fewer than S stages, and the stages left over are
 * left empty: ranks with nothing to do.
 * expect: FAIL: [a-z0-9 .()]+: stage [0-9]+ is empty
 * hint: every stage needs at least one layer */
#include "balance.h"

/* stages the greedy walk needs under limit T, filling first[] */
static int walk(const double *cost, int L, double T, int *first)
{
    int s = 0;
    double acc = 0;
    first[0] = 0;
    for (int l = 0; l < L; l++) {
        if (cost[l] > T) return L + 1;
        if (acc + cost[l] > T) { first[++s] = l; acc = 0; }
        acc += cost[l];
    }
    return s + 1;
}

void balance_layers(const double *cost, int L, int S, int *first)
{
    double bestT = -1;
    for (int i = 0; i < L; i++) {          /* every sum of consecutive layers is a candidate */
        double T = 0;
        for (int j = i; j < L; j++) {
            T += cost[j];
            if ((bestT < 0 || T < bestT) && walk(cost, L, T, first) <= S) bestT = T;
        }
    }
    int used = walk(cost, L, bestT, first);
    for (int s = used; s <= S; s++) first[s] = L;
}
