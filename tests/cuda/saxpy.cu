// saxpy.cu: y = a*x + y, the BLAS level-1 classic, in the style of the
// first CUDA examples (a grid of 256-thread blocks, one element each).
// Conformance: a scalar float argument next to pointers; the device may
// fuse a*x + y into one FMA and the emulator may not, so the inputs are
// chosen to make both exact: a = 2.5, x and y multiples of 1/4 below 2^12.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,   \
                    #call, cudaGetErrorName(err_));                         \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

__global__ void saxpy(int n, float a, float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int N = 50001;
    const float A = 2.5f;
    float *x = (float *)malloc(N * sizeof(float)), *y = (float *)malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) {
        x[i] = 0.25f * (float)(i % 1000);  // 0 .. 249.75
        y[i] = (float)(i % 3) - 1.0f;      // -1, 0, 1
    }
    float *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, N * sizeof(float)));
    CHECK(cudaMalloc(&d_y, N * sizeof(float)));
    CHECK(cudaMemcpy(d_x, x, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y, N * sizeof(float), cudaMemcpyHostToDevice));

    // Twice: y = a*x + (a*x + y0), so the second launch reads what the first wrote.
    for (int rep = 0; rep < 2; rep++) {
        saxpy<<<(N + 255) / 256, 256>>>(N, A, d_x, d_y);
        CHECK(cudaGetLastError());
    }
    float *out = (float *)malloc(N * sizeof(float));
    CHECK(cudaMemcpy(out, d_y, N * sizeof(float), cudaMemcpyDeviceToHost));

    int bad = 0;
    double sum = 0, maxError = 0;
    for (int i = 0; i < N; i++) {
        float want = 2.0f * A * x[i] + y[i];
        double err = out[i] > want ? out[i] - want : want - out[i];
        if (err > maxError)
            maxError = err;
        if (err != 0 && bad++ < 5)
            printf("  y[%d] = %g, want %g\n", i, out[i], want);
        sum += out[i];
    }
    printf("saxpy: %s n=%d a=%.2f y[0]=%g y[1]=%g y[%d]=%g sum=%.2f max error %g\n", bad ? "FAIL" : "PASS",
           N, A, out[0], out[1], N - 1, out[N - 1], sum, maxError);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    free(x);
    free(y);
    free(out);
    return bad ? 1 : 0;
}
