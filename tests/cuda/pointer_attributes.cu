// pointer_attributes.cu: cudaPointerGetAttributes, as helper code uses it
// to tell device from host memory (CUDA 11 and later: memory the runtime
// did not allocate is cudaMemoryTypeUnregistered, with cudaSuccess).
// Device, managed and pinned allocations each report their type and the
// addresses a kernel and the host may use, also for a pointer into the
// middle of an allocation; no place to write them is cudaErrorInvalidValue.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static int failures = 0;
static void expect(bool ok, const char *what)
{
    printf("%s: %s\n", what, ok ? "PASS" : "FAIL");
    failures += !ok;
}

int main(void)
{
    float *dev = nullptr, *managed = nullptr, *pinned = nullptr;
    static float plain[16];
    if (cudaMalloc(&dev, 64 * sizeof(float)) != cudaSuccess || cudaMallocManaged(&managed, 64 * sizeof(float)) != cudaSuccess ||
        cudaMallocHost(&pinned, 64 * sizeof(float)) != cudaSuccess) {
        printf("allocation failed\n");
        return 1;
    }
    cudaPointerAttributes a;
    expect(cudaPointerGetAttributes(&a, dev + 5) == cudaSuccess && a.type == cudaMemoryTypeDevice && a.devicePointer == dev + 5 &&
               a.hostPointer == nullptr,
           "cudaMalloc memory (5 floats in) is device memory, no host address");
    expect(cudaPointerGetAttributes(&a, managed) == cudaSuccess && a.type == cudaMemoryTypeManaged && a.devicePointer == managed &&
               a.hostPointer == managed,
           "cudaMallocManaged memory is managed, one address for both");
    expect(cudaPointerGetAttributes(&a, pinned) == cudaSuccess && a.type == cudaMemoryTypeHost && a.hostPointer == pinned,
           "cudaMallocHost memory is host memory");
    expect(cudaPointerGetAttributes(&a, plain) == cudaSuccess && a.type == cudaMemoryTypeUnregistered && a.devicePointer == nullptr,
           "a static array is unregistered memory");
    expect(cudaPointerGetAttributes(nullptr, dev) == cudaErrorInvalidValue, "no attributes to fill is cudaErrorInvalidValue");
    cudaGetLastError();   // clears the error it left
    cudaFree(dev);
    cudaFree(managed);
    cudaFreeHost(pinned);
    printf("pointer_attributes: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
