/* kernels/busywork.c: the work unit of chapter 05. */
#include "busywork.h"

/* a = 0.9999, b = 1e-4: v stays near 1 (no overflow, no denormals). Four
 * elements are interleaved so one core keeps 4 chains in flight (about the
 * add/FMA latency), making the rate per core steady and independent of
 * which elements a thread got. */
void busy_work(const float *x, float *y, size_t lo, size_t hi, int iters)
{
    const float a = 0.9999f, b = 1e-4f;
    size_t i = lo;
    for (; i + 4 <= hi; i += 4) {
        float v0 = x[i], v1 = x[i + 1], v2 = x[i + 2], v3 = x[i + 3];
        for (int k = 0; k < iters; k++) {
            v0 = v0 * a + b; v1 = v1 * a + b; v2 = v2 * a + b; v3 = v3 * a + b;
        }
        y[i] = v0; y[i + 1] = v1; y[i + 2] = v2; y[i + 3] = v3;
    }
    for (; i < hi; i++) {
        float v = x[i];
        for (int k = 0; k < iters; k++) v = v * a + b;
        y[i] = v;
    }
}

void busy_work_ref(const float *x, float *y, size_t n, int iters)
{
    for (size_t i = 0; i < n; i++) {
        float v = x[i];
        for (int k = 0; k < iters; k++) v = v * 0.9999f + 1e-4f;
        y[i] = v;
    }
}
