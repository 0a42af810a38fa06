/* kernels/zero.c: sharded data parallelism, see zero.h: the formulas and
 * Adam (the training step is kernels/zero_train.c). */
#include "zero.h"

#include <math.h>

zero_memory zero_model_states(double psi, int stage, int d, double wbytes, double gbytes, double k)
{
    zero_memory m;
    m.weights = wbytes * psi / (stage >= 3 ? d : 1);
    m.grads = gbytes * psi / (stage >= 2 ? d : 1);
    m.optimizer = k * psi / (stage >= 1 ? d : 1);
    m.total = m.weights + m.grads + m.optimizer;
    return m;
}

double zero_comm_elems(double psi, int stage, int d)
{
    if (d <= 1) return 0;
    return (stage >= 3 ? 3.0 : 2.0) * psi * (d - 1) / d;
}

zero_adam zero_adam_defaults(float lr)
{
    zero_adam a = { lr, 0.9f, 0.999f, 1e-8f };
    return a;
}

void zero_adam_step(const zero_adam *a, int t, float *w, const float *grad_sum, size_t batch,
                    float *m, float *v, size_t n)
{
    /* the bias corrections once per step, in double, then rounded: the same
     * two floats on every rank and on one device */
    float c1 = (float)(1.0 - pow(a->beta1, t)), c2 = (float)(1.0 - pow(a->beta2, t));
    float inv_b = 1.0f / (float)batch;
    for (size_t i = 0; i < n; i++) {
        float g = grad_sum[i] * inv_b;
        m[i] = a->beta1 * m[i] + (1.0f - a->beta1) * g;
        v[i] = a->beta2 * v[i] + (1.0f - a->beta2) * g * g;
        w[i] -= a->lr * (m[i] / c1) / (sqrtf(v[i] / c2) + a->eps);
    }
}
