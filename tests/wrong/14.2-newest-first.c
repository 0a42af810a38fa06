/* tests/wrong/14.2-newest-first.c: exercise 14.2 filling free slots from the
 * back of the queue: as many iterations, but the oldest requests starve.
 * expect: FAIL: [0-9]+ admission errors
 * hint: in order, each once */
#include "admit.h"

int admit_continuous(int *slot, int max_batch, const int *waiting, int nwaiting)
{
    int taken = 0;
    for (int s = 0; s < max_batch && taken < nwaiting; s++)
        if (slot[s] < 0) slot[s] = waiting[nwaiting - 1 - taken++];
    return taken;
}
