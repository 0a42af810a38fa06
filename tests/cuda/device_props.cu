// device_props.cu: what cuda-samples' helper_cuda.h, deviceQuery and the
// samples ask of the device, and what they test before they do:
//   the include guards and macros of <cuda_runtime.h> (__CUDA_RUNTIME_H__,
//   __DRIVER_TYPES_H__, ... CUDART_VERSION, __CUDACC__, __CUDA_ARCH__ in
//   device code); cudaGetDeviceCount; cudaGetDeviceProperties and the
//   same figures from cudaDeviceGetAttribute (they must agree); the
//   compute mode (not cudaComputeModeProhibited); a compute capability a
//   sample accepts ("requires SM 3.0+"); an invalid device number.
// Prints only what holds on every GPU. On the SIMT emulator it also checks
// the device it reports is its default model, the H100 SXM of
// common/gpus/h100-sxm.gpu (compute capability 9.0, 132 SMs), unless
// PW_SIMT_DEVICE names another.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#if !defined(__CUDA_RUNTIME_H__) || !defined(__CUDA_RUNTIME_API_H__) || !defined(__DRIVER_TYPES_H__) || \
    !defined(__VECTOR_TYPES_H__) || !defined(__DEVICE_LAUNCH_PARAMETERS_H__)
#error "<cuda_runtime.h> must define the include guards of the headers it includes (helper_cuda.h tests them)"
#endif
#if !defined(CUDART_VERSION) || CUDART_VERSION < 12000
#error "CUDART_VERSION must say the runtime's version"
#endif
#if !defined(__CUDACC__)
#error "a .cu file is compiled with __CUDACC__ defined"
#endif

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(err_)); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

__global__ void archOf(int *arch)
{
#ifdef __CUDA_ARCH__
    *arch = __CUDA_ARCH__;
#else
    *arch = -1;
#endif
}

static int failures = 0;
static void report(const char *name, bool ok)
{
    printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
    failures += !ok;
}

int main()
{
    int count = 0, dev = -1;
    CHECK(cudaGetDeviceCount(&count));
    report("at least one device", count >= 1);
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    report("cudaGetDevice after cudaSetDevice(0)", dev == 0);

    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    CHECK(cudaGetDeviceProperties(&p, 0));
    struct { cudaDeviceAttr attr; long long field; const char *name; } pairs[] = {
        { cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock, "maxThreadsPerBlock" },
        { cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0], "maxThreadsDim[0]" },
        { cudaDevAttrMaxBlockDimY, p.maxThreadsDim[1], "maxThreadsDim[1]" },
        { cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2], "maxThreadsDim[2]" },
        { cudaDevAttrMaxGridDimX, p.maxGridSize[0], "maxGridSize[0]" },
        { cudaDevAttrMaxGridDimY, p.maxGridSize[1], "maxGridSize[1]" },
        { cudaDevAttrMaxGridDimZ, p.maxGridSize[2], "maxGridSize[2]" },
        { cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock, "sharedMemPerBlock" },
        { cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem, "totalConstMem" },
        { cudaDevAttrWarpSize, p.warpSize, "warpSize" },
        { cudaDevAttrMaxPitch, (long long)p.memPitch, "memPitch" },
        { cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock, "regsPerBlock" },
        { cudaDevAttrTextureAlignment, (long long)p.textureAlignment, "textureAlignment" },
        { cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "multiProcessorCount" },
        { cudaDevAttrIntegrated, p.integrated, "integrated" },
        { cudaDevAttrCanMapHostMemory, p.canMapHostMemory, "canMapHostMemory" },
        { cudaDevAttrConcurrentKernels, p.concurrentKernels, "concurrentKernels" },
        { cudaDevAttrL2CacheSize, p.l2CacheSize, "l2CacheSize" },
        { cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor, "maxThreadsPerMultiProcessor" },
        { cudaDevAttrUnifiedAddressing, p.unifiedAddressing, "unifiedAddressing" },
        { cudaDevAttrComputeCapabilityMajor, p.major, "major" },
        { cudaDevAttrComputeCapabilityMinor, p.minor, "minor" },
        { cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long long)p.sharedMemPerMultiprocessor, "sharedMemPerMultiprocessor" },
        { cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor, "regsPerMultiprocessor" },
        { cudaDevAttrManagedMemory, p.managedMemory, "managedMemory" },
        { cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)p.sharedMemPerBlockOptin, "sharedMemPerBlockOptin" },
        { cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor, "maxBlocksPerMultiProcessor" },
        { cudaDevAttrReservedSharedMemoryPerBlock, (long long)p.reservedSharedMemPerBlock, "reservedSharedMemPerBlock" },
    };
    int n = (int)(sizeof pairs / sizeof pairs[0]), agree = 0;
    for (int i = 0; i < n; i++) {
        int v = -12345;
        CHECK(cudaDeviceGetAttribute(&v, pairs[i].attr, 0));
        if (v == pairs[i].field) agree++;
        else fprintf(stderr, "%s: property %lld, attribute %d\n", pairs[i].name, pairs[i].field, v);
    }
    printf("cudaGetDeviceProperties and cudaDeviceGetAttribute: %d of %d figures agree\n", agree, n);
    failures += agree != n;

    int mode = -1, clock = 0;
    CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
    report("compute mode is not cudaComputeModeProhibited", mode != cudaComputeModeProhibited);
    CHECK(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0));
    report("clock rate (kHz) above 0", clock > 0);
    report("compute capability at least 3.0 (shfl_scan's test)", p.major >= 3);
    report("warpSize 32, 1024 threads per block, 48 KiB shared memory per block",
           p.warpSize == 32 && p.maxThreadsPerBlock == 1024 && p.sharedMemPerBlock == 48 * 1024);
    report("SMs, L2, global memory, shared memory per SM above 0",
           p.multiProcessorCount > 0 && p.l2CacheSize > 0 && p.totalGlobalMem > 0 && p.sharedMemPerMultiprocessor > 0);
    report("a name", p.name[0] != '\0');

    int *dArch, arch = 0;
    CHECK(cudaMalloc(&dArch, sizeof(int)));
    archOf<<<1, 1>>>(dArch);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&arch, dArch, sizeof arch, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dArch));
    // the code that runs was built for this compute capability or an older one (PTX)
    report("__CUDA_ARCH__ in device code: at least 300, at most the device's", arch >= 300 && arch <= p.major * 100 + p.minor * 10);

    cudaDeviceProp q;
    report("an invalid device number is cudaErrorInvalidDevice", cudaGetDeviceProperties(&q, count) == cudaErrorInvalidDevice);
    cudaGetLastError();   // clear it

    bool model = true;
#ifdef PW_SIMT_EMULATED
    const char *pick = getenv("PW_SIMT_DEVICE");
    if (!pick || !*pick || !strcmp(pick, "h100-sxm"))   // the default device file: common/gpus/h100-sxm.gpu
        model = p.major == 9 && p.minor == 0 && p.multiProcessorCount == 132 && strstr(p.name, "H100") &&
                p.l2CacheSize == 50 * 1024 * 1024 && arch == 900 && p.maxBlocksPerMultiProcessor == 32;
#endif
    report("the emulator's device is its model's (a GPU: itself)", model);
    printf("device_props: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
