/* tests/wrong/12.2-fill-to-average.c: exercise 12.2 by filling each stage
 * up to the average cost (total / S) and leaving the rest to the last one
 * (keeping one layer for each stage still to come). Close on most models;
 * the last stage collects what the others left.
 * expect: FAIL: [a-z0-9 .()]+: your heaviest stage
 * hint: the pipe runs at its heaviest stage's pace */
#include "balance.h"

void balance_layers(const double *cost, int L, int S, int *first)
{
    double total = 0;
    for (int l = 0; l < L; l++) total += cost[l];
    double target = total / S, acc = 0;
    int s = 0;
    first[0] = 0;
    for (int l = 0; l < L && s < S - 1; l++) {
        /* close the stage before this layer would pass the average, or when
         * only one layer per remaining stage is left */
        if ((acc > 0 && acc + cost[l] > target) || L - l == S - 1 - s) {
            first[++s] = l;
            acc = 0;
        }
        acc += cost[l];
    }
    while (s < S - 1) { s++; first[s] = L - (S - s); }
    first[S] = L;
}
