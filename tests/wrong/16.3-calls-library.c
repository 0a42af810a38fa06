/* tests/wrong/16.3-calls-library.c: exercise 16.3 answered by the library's
 * own formula, kernels/zero.c's zero_model_states(). Every number is right.
 * expect: FAIL: 16.3-calls-library.c calls zero_model_states\(\) */
#include "zero.h"
#include "zero_memory.h"

zm_bytes zm_per_device(double params, int stage, int devices, double wbytes, double gbytes, double k)
{
    zero_memory m = zero_model_states(params, stage, devices, wbytes, gbytes, k);
    zm_bytes b = { m.weights, m.grads, m.optimizer, m.total };
    return b;
}
