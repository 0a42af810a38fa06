/* tests/wrong/16.3-stage2-weights.c: exercise 16.3 with stage 2 sharding the
 * weights as well as the gradients (as if ZeRO-2 were FSDP): Figure 1's
 * stage 2 comes out at 7.5B (2 + 2 + 12) / 64 = 1.9 GB, not 16.6 GB.
 * expect: FAIL: psi = 7500000000, stage 2, 64 devices
 * hint: the weights stay whole on every device */
#include "zero_memory.h"

zm_bytes zm_per_device(double params, int stage, int devices, double wbytes, double gbytes, double k)
{
    double d = devices;
    zm_bytes b;
    b.optimizer = k * params / (stage >= 1 ? d : 1);
    b.grads = gbytes * params / (stage >= 2 ? d : 1);
    b.weights = wbytes * params / (stage >= 2 ? d : 1);
    b.total = b.weights + b.grads + b.optimizer;
    return b;
}
