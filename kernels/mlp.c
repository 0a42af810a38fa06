/* kernels/mlp.c: forward, backward and SGD of the two-layer perceptron in
 * mlp.h, written for clarity: the lesson is in the data parallelism around
 * it, not in the speed of these loops. */
#include "mlp.h"
#include "util.h"

#include <math.h>
#include <string.h>

size_t mlp_nparams(mlp_shape s)
{
    return (size_t)s.k * (size_t)s.d + (size_t)s.k + (size_t)s.o * (size_t)s.k + (size_t)s.o;
}

size_t mlp_layer2_offset(mlp_shape s) { return (size_t)s.k * (size_t)s.d + (size_t)s.k; }

double mlp_flops_per_sample(mlp_shape s)
{
    return 6.0 * ((double)s.k * s.d + (double)s.o * s.k);
}

/* Views of the flat parameter array. */
typedef struct { float *w1, *b1, *w2, *b2; } views;

static views split(mlp_shape s, float *w)
{
    views v;
    v.w1 = w;
    v.b1 = v.w1 + (size_t)s.k * s.d;
    v.w2 = v.b1 + s.k;
    v.b2 = v.w2 + (size_t)s.o * s.k;
    return v;
}

void mlp_init(mlp_shape s, float *w, uint64_t seed)
{
    views v = split(s, w);
    float a1 = 1.0f / sqrtf((float)s.d), a2 = 1.0f / sqrtf((float)s.k);
    pw_fill_random(v.w1, (size_t)s.k * s.d, seed, -a1, a1);
    memset(v.b1, 0, (size_t)s.k * sizeof(float));
    pw_fill_random(v.w2, (size_t)s.o * s.k, seed + 1, -a2, a2);
    memset(v.b2, 0, (size_t)s.o * sizeof(float));
}

/* h = relu(W1 x + b1), f = W2 h + b2 for one sample: 2(kd + ok) flops. */
static void forward(mlp_shape s, views v, const float *x, float *h, float *f)
{
    for (int j = 0; j < s.k; j++) {
        float a = v.b1[j];
        for (int i = 0; i < s.d; i++) a += v.w1[(size_t)j * s.d + i] * x[i];
        h[j] = a > 0 ? a : 0;
    }
    for (int q = 0; q < s.o; q++) {
        float a = v.b2[q];
        for (int j = 0; j < s.k; j++) a += v.w2[(size_t)q * s.k + j] * h[j];
        f[q] = a;
    }
}

void mlp_make_data(mlp_shape s, size_t count, uint64_t seed, float *x, float *y)
{
    float *teacher = pw_alloc_floats(mlp_nparams(s)), *h = pw_alloc_floats((size_t)s.k);
    mlp_init(s, teacher, seed ^ 0x7eac4e5ULL);
    views v = split(s, teacher);
    for (int j = 0; j < s.k; j++) v.b1[j] = 0.1f;   /* so the teacher is not symmetric about 0 */
    pw_fill_random(x, count * (size_t)s.d, seed, -1.0f, 1.0f);
    for (size_t n = 0; n < count; n++) forward(s, v, x + n * s.d, h, y + n * s.o);
    pw_free(teacher);
    pw_free(h);
}

double mlp_grad_sum(mlp_shape s, const float *w, const float *x, const float *y, size_t m,
                    float *grad, float *scratch)
{
    views v = split(s, (float *)w), g = split(s, grad);
    float *h = scratch, *f = scratch + s.k;
    memset(grad, 0, mlp_nparams(s) * sizeof(float));
    double loss = 0;
    for (size_t n = 0; n < m; n++) {
        const float *xn = x + n * s.d, *yn = y + n * s.o;
        forward(s, v, xn, h, f);
        for (int q = 0; q < s.o; q++) {
            float e = f[q] - yn[q];              /* d loss / d f */
            loss += 0.5 * (double)e * e;
            f[q] = e;
        }
        /* layer 2: dW2 += e h^T, db2 += e */
        for (int q = 0; q < s.o; q++) {
            for (int j = 0; j < s.k; j++) g.w2[(size_t)q * s.k + j] += f[q] * h[j];
            g.b2[q] += f[q];
        }
        /* back through W2 and the relu: dh = W2^T e where h > 0 */
        for (int j = 0; j < s.k; j++) {
            if (h[j] <= 0) continue;
            float dh = 0;
            for (int q = 0; q < s.o; q++) dh += v.w2[(size_t)q * s.k + j] * f[q];
            for (int i = 0; i < s.d; i++) g.w1[(size_t)j * s.d + i] += dh * xn[i];
            g.b1[j] += dh;
        }
    }
    return loss;
}

double mlp_loss(mlp_shape s, const float *w, const float *x, const float *y, size_t count,
                float *scratch)
{
    views v = split(s, (float *)w);
    float *h = scratch, *f = scratch + s.k;
    double loss = 0;
    for (size_t n = 0; n < count; n++) {
        forward(s, v, x + n * s.d, h, f);
        for (int q = 0; q < s.o; q++) {
            double e = (double)f[q] - y[n * s.o + q];
            loss += 0.5 * e * e;
        }
    }
    return count ? loss / (double)count : 0;
}

void mlp_sgd(float *w, const float *grad_sum, size_t nparams, float lr, size_t batch)
{
    float scale = lr / (float)batch;
    for (size_t i = 0; i < nparams; i++) w[i] -= scale * grad_sum[i];
}
