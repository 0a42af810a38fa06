/* tests/wrong/14.2-static.c: exercise 14.2 answered with static batching:
 * nobody joins until the whole batch has finished.
 * expect: FAIL: [0-9]+ iterations where filling every free slot needs [0-9]+
 * hint: waiting for the whole batch */
#include "admit.h"

int admit_continuous(int *slot, int max_batch, const int *waiting, int nwaiting)
{
    for (int s = 0; s < max_batch; s++)
        if (slot[s] >= 0) return 0;
    int taken = 0;
    for (int s = 0; s < max_batch && taken < nwaiting; s++) slot[s] = waiting[taken++];
    return taken;
}
