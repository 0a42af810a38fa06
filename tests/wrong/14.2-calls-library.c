/* tests/wrong/14.2-calls-library.c: exercise 14.2 answered by the engine's
 * own continuous admit step.
 * expect: FAIL: 14.2-calls-library.c calls srv_admit_continuous\(\) */
#include "admit.h"
#include "server.h"

int admit_continuous(int *slot, int max_batch, const int *waiting, int nwaiting)
{
    return srv_admit_continuous(slot, max_batch, waiting, nwaiting);
}
