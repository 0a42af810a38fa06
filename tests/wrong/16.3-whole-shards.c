/* tests/wrong/16.3-whole-shards.c: exercise 16.3 that passes by luck on the
 * paper's numbers: it shards whole parameters (params / devices in integers,
 * rounded down), which is exact when the device count divides the parameter
 * count (7.5B over 64, 1.5B over 1) and short by a fraction otherwise
 * (1.3B + 1 over 3 devices).
 * expect: FAIL: psi = 1300000001, stage 3, 3 devices
 * hint: neither whole nor 1/d of it */
#include <stdint.h>

#include "zero_memory.h"

zm_bytes zm_per_device(double params, int stage, int devices, double wbytes, double gbytes, double k)
{
    double shard = (double)((int64_t)params / devices);
    zm_bytes b;
    b.optimizer = k * (stage >= 1 ? shard : params);
    b.grads = gbytes * (stage >= 2 ? shard : params);
    b.weights = wbytes * (stage >= 3 ? shard : params);
    b.total = b.weights + b.grads + b.optimizer;
    return b;
}
