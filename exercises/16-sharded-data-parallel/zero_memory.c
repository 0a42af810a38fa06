/* exercises/16-sharded-data-parallel/zero_memory.c: exercise 16.3, the
 * memory calculator of ZeRO.
 *
 * The task: how many bytes of model states (weights, gradients, optimizer
 * state) one device holds, for a model of `params` parameters trained over
 * `devices` data-parallel devices at ZeRO stage 0, 1, 2 or 3. Why it is a
 * lesson: it is the one formula behind the ZeRO paper's Figure 1 (Rajbhandari
 * et al., SC 2020, arXiv:1910.02054): 7.5B parameters on 64 GPUs need 120 GB a
 * GPU with plain data parallelism, and 31.4, 16.6 and 1.9 GB at stages 1, 2
 * and 3. Each stage shards one more kind of state across the devices; which
 * one, and by how much, is the exercise.
 *
 * The interface (zero_memory.h):
 *   zm_bytes zm_per_device(double params, int stage, int devices,
 *                          double wbytes, double gbytes, double k);
 *   - wbytes, gbytes, k: bytes per parameter of weights, gradients and
 *     optimizer state (the paper's mixed-precision Adam: 2, 2, 12; plain
 *     fp32 Adam: 4, 4, 8);
 *   - fill weights, grads, optimizer and their total, in bytes (doubles:
 *     a shard need not be a whole number of bytes in this model);
 *   - not kernels/zero.c's zero_model_states(): that is the answer.
 *
 * What the checker tries (check_zero_memory.c): the paper's Figure 1, one
 * device, stage 3 on an odd device count, other bytes per weight and
 * gradient and K other than 12, and hidden configurations. Each part of the
 * answer is compared to 1e-12 (relative); a wrong one is explained.
 *
 *   make ex-16.3      grade this file (each failure is explained)
 *   make hint-16.3    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/16-sharded-data-parallel/zero_memory.c: try first.
 */
#include "exercise.h"
#include "zero_memory.h"

zm_bytes zm_per_device(double params, int stage, int devices, double wbytes, double gbytes, double k)
{
    zm_bytes b = { 0, 0, 0, 0 };
    /* TODO: the three kinds of state, each whole or sharded by stage, and
     * their total. Then delete the placeholder lines below. */
    (void)params;
    (void)stage;
    (void)devices;
    (void)wbytes;
    (void)gbytes;
    (void)k;
    PW_NOT_YET_IMPLEMENTED();
    return b;
}
