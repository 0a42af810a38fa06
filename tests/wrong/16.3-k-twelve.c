/* tests/wrong/16.3-k-twelve.c: exercise 16.3 with the optimizer's 12 bytes per
 * parameter hard-coded (the paper's mixed-precision Adam) instead of the
 * argument k: right for Figure 1, wrong for fp32 Adam's K = 8.
 * expect: FAIL: psi = 6700000000, stage 0, 8 devices, 4/4/8 bytes
 * hint: that is the answer for K = 12 */
#include "zero_memory.h"

zm_bytes zm_per_device(double params, int stage, int devices, double wbytes, double gbytes, double k)
{
    double d = devices;
    zm_bytes b;
    (void)k;
    b.optimizer = 12 * params / (stage >= 1 ? d : 1);
    b.grads = gbytes * params / (stage >= 2 ? d : 1);
    b.weights = wbytes * params / (stage >= 3 ? d : 1);
    b.total = b.weights + b.grads + b.optimizer;
    return b;
}
