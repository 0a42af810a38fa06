/* tests/wrong/16.3-d-minus-one.c: exercise 16.3 dividing a sharded state by
 * d - 1 ("the other devices hold the rest"), with a guard so that one device
 * does not divide by zero: Figure 1's stage 1 comes out at 7.5B (4 + 12/63).
 * expect: FAIL: psi = 7500000000, stage 1, 64 devices
 * hint: that is the answer for 63 devices */
#include "zero_memory.h"

zm_bytes zm_per_device(double params, int stage, int devices, double wbytes, double gbytes, double k)
{
    double d = devices > 1 ? devices - 1 : 1;
    zm_bytes b;
    b.optimizer = k * params / (stage >= 1 ? d : 1);
    b.grads = gbytes * params / (stage >= 2 ? d : 1);
    b.weights = wbytes * params / (stage >= 3 ? d : 1);
    b.total = b.weights + b.grads + b.optimizer;
    return b;
}
