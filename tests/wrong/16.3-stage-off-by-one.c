/* tests/wrong/16.3-stage-off-by-one.c: exercise 16.3 with the stages numbered
 * from 1 for plain data parallelism: stage s does what stage s - 1 should
 * (stage 1 shards nothing; Figure 1's stage 1 is 120 GB, not 31.4).
 * expect: FAIL: psi = 7500000000, stage 1, 64 devices
 * hint: that is stage 0's answer */
#include "zero_memory.h"

zm_bytes zm_per_device(double params, int stage, int devices, double wbytes, double gbytes, double k)
{
    double d = devices;
    zm_bytes b;
    b.optimizer = k * params / (stage >= 2 ? d : 1);
    b.grads = gbytes * params / (stage >= 3 ? d : 1);
    b.weights = wbytes * params / (stage >= 4 ? d : 1);
    b.total = b.weights + b.grads + b.optimizer;
    return b;
}
