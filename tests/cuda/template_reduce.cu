// template_reduce.cu: a sum reduction written once as a template over the
// block size and the element type, then instantiated for float, double and
// int, the way libraries ship one kernel for many types.
// Conformance: template<unsigned BLOCK, typename T> __global__, a static
// __shared__ T buf[BLOCK] whose size is a template parameter (one array per
// instantiation), explicit instantiations, launches spelled
// reduce<256, float><<<...>>>, and a second pass over the per-block sums.
// The inputs are multiples of 1/4 (float) and 1/512 (double) small enough
// that every partial sum is exact, so the order of the additions cannot
// change the result.
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

// out[blockIdx.x] = sum of in[i] over this block's grid-stride share; blockDim.x must be BLOCK.
template <unsigned BLOCK, typename T>
__global__ void reduce(const T *in, T *out, int n)
{
    __shared__ T buf[BLOCK];
    unsigned t = threadIdx.x;
    T sum = 0;
    for (int i = blockIdx.x * BLOCK + t; i < n; i += gridDim.x * BLOCK)
        sum += in[i];
    buf[t] = sum;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}

template __global__ void reduce<256, float>(const float *, float *, int);
template __global__ void reduce<128, double>(const double *, double *, int);
template __global__ void reduce<512, int>(const int *, int *, int);

// Sum n values on the device: `grid` partial sums, then one block over them.
template <unsigned BLOCK, typename T>
static T deviceSum(const T *h_in, int n, int grid)
{
    T *in, *partial, *total, result;
    CHECK(cudaMalloc(&in, n * sizeof(T)));
    CHECK(cudaMalloc(&partial, grid * sizeof(T)));
    CHECK(cudaMalloc(&total, sizeof(T)));
    CHECK(cudaMemcpy(in, h_in, n * sizeof(T), cudaMemcpyHostToDevice));
    reduce<BLOCK, T><<<grid, BLOCK>>>(in, partial, n);
    CHECK(cudaGetLastError());
    reduce<BLOCK, T><<<1, BLOCK>>>(partial, total, grid);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&result, total, sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(in));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(total));
    return result;
}

int main()
{
    const int N = 100000;
    bool ok = true;

    float *f = (float *)malloc(N * sizeof(float));
    double fwant = 0;
    for (int i = 0; i < N; i++) {
        f[i] = 0.25f * (float)(i % 17) - 1.5f;  // -1.5 .. 2.5 in quarters
        fwant += f[i];
    }
    float fgot = deviceSum<256, float>(f, N, 40);
    ok &= fgot == (float)fwant;
    printf("reduce<256, float>: %s n=%d grid=40 sum=%.2f (want %.2f)\n", fgot == (float)fwant ? "PASS" : "FAIL",
           N, fgot, fwant);

    double *d = (double *)malloc(N * sizeof(double));
    double dwant = 0;
    for (int i = 0; i < N; i++) {
        d[i] = 1.0 / (double)(1 << (i % 10)) - 0.125;  // 1 - 1/8, 1/2 - 1/8, ..., 1/512 - 1/8
        dwant += d[i];
    }
    double dgot = deviceSum<128, double>(d, N, 100);
    ok &= dgot == dwant;
    printf("reduce<128, double>: %s n=%d grid=100 sum=%.9f (want %.9f)\n", dgot == dwant ? "PASS" : "FAIL", N,
           dgot, dwant);

    const int M = 77777;
    int *k = (int *)malloc(M * sizeof(int));
    long long kwant = 0;
    for (int i = 0; i < M; i++) {
        k[i] = (i * 37) % 101 - 50;
        kwant += k[i];
    }
    int kgot = deviceSum<512, int>(k, M, 7);
    ok &= kgot == kwant;
    printf("reduce<512, int>: %s n=%d grid=7 sum=%d (want %lld)\n", kgot == kwant ? "PASS" : "FAIL", M, kgot,
           kwant);

    free(f);
    free(d);
    free(k);
    return ok ? 0 : 1;
}
