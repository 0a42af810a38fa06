/* exercises/12-pipeline-parallel/balance.h: what exercise 12.2 asks you to
 * write. Your exercises/12-pipeline-parallel/balance.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_BALANCE_H
#define PW_EX_BALANCE_H

/* Split L layers (layer l costs cost[l] > 0) into S stages of consecutive
 * layers, 1 <= S <= L: fill first[0..S] with first[0] = 0, first[S] = L and
 * first[s] < first[s+1] (stage s holds layers first[s] .. first[s+1] - 1;
 * no stage empty), so that the heaviest stage, the one whose layers cost
 * the most together, costs as little as possible. Not the library's
 * pipe_split_balanced, which is the answer. */
void balance_layers(const double *cost, int L, int S, int *first);

#endif
