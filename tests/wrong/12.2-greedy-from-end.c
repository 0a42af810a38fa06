/* tests/wrong/12.2-greedy-from-end.c: exercise 12.2 by the least bound T
 * for which the greedy walk (a new stage when the next layer would pass T)
 * needs at most S stages, the stages the walk did not use each given one
 * of the last layers. Its heaviest stage is the best, but when the walk's
 * last stage has fewer layers than it must give away, a stage is left
 * empty: on layer costs 1, 1, 1, 1, 10 and S = 3 the walk makes [0..3]
 * [4], and taking layer 4 for the third stage gives first = 0 4 4 5.
 * expect: FAIL: [a-z0-9 ,.()]+: stage [0-9]+ is empty
 * hint: every stage needs at least one layer */
#include "balance.h"

/* stages the greedy walk needs under bound T, filling first[] */
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
    for (int i = 0; i < L; i++) {          /* every sum of consecutive layers is a candidate bound */
        double T = 0;
        for (int j = i; j < L; j++) {
            T += cost[j];
            if ((bestT < 0 || T < bestT) && walk(cost, L, T, first) <= S) bestT = T;
        }
    }
    int used = walk(cost, L, bestT, first);
    /* the mistake: the unused stages take one layer each from the end,
     * whether or not the walk's last stage has that many to spare */
    for (int s = used; s < S; s++) first[s] = L - (S - s);
    first[S] = L;
}
