// symbols.cu: __constant__ and __device__ variables through the runtime:
//   cudaMemcpyToSymbol of a __constant__ array (whole, then one element at
//   an offset), cudaMemcpyFromSymbol of a __device__ struct a kernel
//   filled, cudaMemcpyToSymbol device to device from a cudaMalloc buffer,
//   cudaGetSymbolAddress (the address used with cudaMemcpy and by a
//   kernel), cudaGetSymbolSize, the symbol passed as a `const void *`
//   (CUDA's C form), and a copy past the symbol's end, which CUDA refuses
//   with cudaErrorInvalidValue.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(err_)); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

struct Stats { int count; float sum; double sumsq; };

__constant__ int weights[8];
__device__ Stats stats;
__device__ float table[16];

__global__ void weigh(const int *x, int n)
{
    int c = 0;
    float s = 0;
    double q = 0;
    for (int i = 0; i < n; i++) {
        int v = x[i] * weights[i % 8];
        c++, s += v, q += (double)v * v;
    }
    stats.count = c, stats.sum = s, stats.sumsq = q;
}

__global__ void tableTimes(float *out, const float *t, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = t[i] * table[i];
}

static int failures = 0;
static void report(const char *name, bool ok)
{
    printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
    failures += !ok;
}

int main()
{
    int w[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, x[20], *dx;
    for (int i = 0; i < 20; i++) x[i] = i - 7;
    CHECK(cudaMemcpyToSymbol(weights, w, sizeof w));
    int nine = 9;
    CHECK(cudaMemcpyToSymbol(weights, &nine, sizeof nine, 3 * sizeof(int)));   // weights[3] = 9
    w[3] = 9;
    CHECK(cudaMalloc(&dx, sizeof x));
    CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
    weigh<<<1, 1>>>(dx, 20);
    CHECK(cudaGetLastError());
    Stats got;
    CHECK(cudaMemcpyFromSymbol(&got, stats, sizeof got));
    int c = 0;
    float s = 0;
    double q = 0;
    for (int i = 0; i < 20; i++) {
        int v = x[i] * w[i % 8];
        c++, s += v, q += (double)v * v;
    }
    report("cudaMemcpyToSymbol (and at an offset), then cudaMemcpyFromSymbol of a struct",
           got.count == c && got.sum == s && got.sumsq == q);

    // the table from a device buffer, device to device
    float t[16], *dt, *dout, out[16];
    for (int i = 0; i < 16; i++) t[i] = 0.5f * i;
    CHECK(cudaMalloc(&dt, sizeof t));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(dt, t, sizeof t, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(table, dt, sizeof t, 0, cudaMemcpyDeviceToDevice));
    tableTimes<<<1, 16>>>(dout, dt, 16);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 16; i++) ok &= out[i] == t[i] * t[i];
    report("cudaMemcpyToSymbol device to device", ok);

    // the symbol's address and size
    void *addr = nullptr;
    size_t size = 0;
    CHECK(cudaGetSymbolAddress(&addr, table));
    CHECK(cudaGetSymbolSize(&size, table));
    report("cudaGetSymbolSize", size == sizeof t);
    float back[16];
    CHECK(cudaMemcpy(back, addr, sizeof back, cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < 16; i++) ok &= back[i] == t[i];
    report("cudaGetSymbolAddress, then cudaMemcpy from it", ok);
    tableTimes<<<1, 16>>>(dout, (const float *)addr, 16);   // the address as a kernel argument
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < 16; i++) ok &= out[i] == t[i] * t[i];
    report("a kernel reading the symbol through its address", ok);

    // CUDA's C form: the symbol given as a const void *
    float seven = 7.0f, check = 0;
    CHECK(cudaMemcpyToSymbol((const void *)&table, &seven, sizeof seven, 15 * sizeof(float)));
    CHECK(cudaMemcpyFromSymbol(&check, (const void *)&table, sizeof check, 15 * sizeof(float)));
    report("the symbol as a const void *", check == 7.0f);

    report("a copy past the symbol's end is cudaErrorInvalidValue",
           cudaMemcpyToSymbol(weights, t, sizeof t) == cudaErrorInvalidValue);
    cudaGetLastError();   // clear it
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dt));
    CHECK(cudaFree(dout));
    printf("symbols: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
