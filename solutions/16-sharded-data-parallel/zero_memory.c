/* solutions/16-sharded-data-parallel/zero_memory.c: exercise 16.3, solved.
 *
 * Stage s shards the first s of (optimizer state, gradients, weights): each
 * kind is held whole, or 1/devices of it on every device. */
#include "zero_memory.h"

zm_bytes zm_per_device(double params, int stage, int devices, double wbytes, double gbytes, double k)
{
    double d = devices;
    zm_bytes b;
    b.optimizer = k * params / (stage >= 1 ? d : 1);
    b.grads = gbytes * params / (stage >= 2 ? d : 1);
    b.weights = wbytes * params / (stage >= 3 ? d : 1);
    b.total = b.weights + b.grads + b.optimizer;
    return b;
}
