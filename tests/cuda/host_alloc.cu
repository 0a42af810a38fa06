// host_alloc.cu: memory the host and the device share, as the samples
// allocate it:
//   cudaMallocManaged (written by the host, changed by a kernel, read by
//   the host after cudaDeviceSynchronize; the template and void ** forms,
//   cudaMemAttachGlobal), cudaMallocHost and cudaHostAlloc (pinned, used
//   for copies both ways), cudaHostAlloc(..., cudaHostAllocMapped) with
//   cudaHostGetDevicePointer (a kernel writes host memory directly,
//   "zero copy"), cudaFreeHost; cudaDevAttrCanMapHostMemory and
//   cudaDevAttrManagedMemory say these are supported.
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

__global__ void square(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * a[i];
}

__global__ void fillIndex(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 0.5f * i;
}

static int failures = 0;
static void report(const char *name, bool ok)
{
    printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
    failures += !ok;
}

int main()
{
    const int n = 1000;
    int mapOk = 0, managedOk = 0;
    CHECK(cudaDeviceGetAttribute(&mapOk, cudaDevAttrCanMapHostMemory, 0));
    CHECK(cudaDeviceGetAttribute(&managedOk, cudaDevAttrManagedMemory, 0));
    report("the device maps host memory and has managed memory", mapOk == 1 && managedOk == 1);

    // managed memory
    int *m = nullptr;
    CHECK(cudaMallocManaged(&m, n * sizeof(int)));
    for (int i = 0; i < n; i++) m[i] = i - 500;
    square<<<(n + 255) / 256, 256>>>(m, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    bool ok = true;
    for (int i = 0; i < n; i++) ok &= m[i] == (i - 500) * (i - 500);
    void *m2 = nullptr;
    CHECK(cudaMallocManaged(&m2, 64, cudaMemAttachGlobal));
    report("cudaMallocManaged: host writes, a kernel squares, the host reads", ok && m2 != nullptr);
    CHECK(cudaFree(m));
    CHECK(cudaFree(m2));

    // pinned memory for copies
    int *p = nullptr, *q = nullptr, *d = nullptr;
    CHECK(cudaMallocHost(&p, n * sizeof(int)));
    CHECK(cudaHostAlloc((void **)&q, n * sizeof(int), cudaHostAllocDefault));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    for (int i = 0; i < n; i++) p[i] = 3 * i;
    CHECK(cudaMemcpy(d, p, n * sizeof(int), cudaMemcpyHostToDevice));
    square<<<(n + 255) / 256, 256>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(q, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; i++) ok &= q[i] == 9 * i * i;
    report("cudaMallocHost and cudaHostAlloc buffers for copies both ways", ok);
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(p));
    CHECK(cudaFreeHost(q));

    // mapped pinned memory: the kernel writes it in place
    float *h = nullptr, *dh = nullptr;
    CHECK(cudaHostAlloc((void **)&h, n * sizeof(float), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&dh, h, 0));
    fillIndex<<<(n + 127) / 128, 128>>>(dh, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    ok = true;
    for (int i = 0; i < n; i++) ok &= h[i] == 0.5f * i;
    report("cudaHostAllocMapped and cudaHostGetDevicePointer: a kernel writes host memory", ok);
    CHECK(cudaFreeHost(h));
    printf("host_alloc: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
