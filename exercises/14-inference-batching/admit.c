/* exercises/14-inference-batching/admit.c: exercise 14.2, continuous
 * (iteration-level) batching's admit step.
 *
 * What it teaches: in decoding, every iteration produces one token for each
 * request in the batch, and requests want different numbers of tokens.
 * Static batching admits only into an empty batch, so a batch runs as long
 * as its longest request while the slots of the short ones stand idle.
 * Admitting into any free slot at every iteration (Orca, OSDI 2022; vLLM,
 * SOSP 2023) keeps the slots full, and an iteration costs about the same
 * whether 4 or 16 slots are full.
 *
 * Check your work:  make ex-14.2   (bursts of requests of known lengths:
 * your engine's iteration count against the fewest possible, the order of
 * admission, every slot kept, every request's tokens checked).
 * Hints, one level more each time (3 levels, the last near the code):
 *   make hint-14.2
 * The answer is in solutions/14-inference-batching/admit.c: try first.
 */
#include "admit.h"
#include "exercise.h"

int admit_continuous(int *slot, int max_batch, const int *waiting, int nwaiting)
{
    /* TODO: walk the slots; each free one (slot[s] < 0) takes the next
     * waiting request, in queue order, until the queue runs out. Return
     * how many you took. Then delete the lines below. */
    (void)slot;
    (void)max_batch;
    (void)waiting;
    (void)nwaiting;
    PW_NOT_YET_IMPLEMENTED();
    return 0;
}
