/* solutions/14-inference-batching/admit.c: exercise 14.2's answer. Every
 * free slot takes the next waiting request, oldest first, at every
 * iteration; busy slots are left alone. */
#include "admit.h"

int admit_continuous(int *slot, int max_batch, const int *waiting, int nwaiting)
{
    int taken = 0;
    for (int s = 0; s < max_batch && taken < nwaiting; s++)
        if (slot[s] < 0) slot[s] = waiting[taken++];
    return taken;
}
