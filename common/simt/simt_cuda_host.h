/* common/simt/simt_cuda_host.h: the host API: CUDA's names, overloads and default arguments (memory,
 * launches, errors, device properties; streams and events: simt_cuda_stream.h).
 * One part of common/simt/simt_cuda.h, which includes it after its helpers
 * (namespace pw::cu); not a header to include on its own. */
#ifndef PW_SIMT_CUDA_HOST_H
#define PW_SIMT_CUDA_HOST_H
#ifndef PW_SIMT_CUDA_H
#error "simt_cuda_host.h is a part of simt_cuda.h: include simt_cuda.h"
#endif

/* ====================================================================== */
/* ---- the host API: CUDA's names, overloads and default arguments ------------ */

#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeClusterDimMustBeSet = 10,
    cudaFuncAttributeRequiredClusterWidth = 11,
    cudaFuncAttributeRequiredClusterHeight = 12,
    cudaFuncAttributeRequiredClusterDepth = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    cudaFuncAttributeMax
};
enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3
};
enum cudaSharedCarveout { cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100, cudaSharedmemCarveoutMaxL1 = 0 };
enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06
};
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeNone = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};
typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* -- memory -- */
static inline cudaError_t cudaMalloc(void **p, size_t bytes) { return pw_simt_malloc(p, bytes); }
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t bytes)
{
    return pw_simt_malloc((void **)(void *)p, bytes);
}
static inline cudaError_t cudaFree(void *p) { return pw_simt_free(p); }
/* (the _sym forms: also to and from a symbol's address, simt_api_memory.c) */
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    return pw_simt_memcpy_sym(dst, src, bytes, kind);
}
static inline cudaError_t cudaMemset(void *p, int value, size_t bytes) { return pw_simt_memset_sym(p, value, bytes); }
/* Pitched memory (simt_cuda_types.h: the pitch a multiple of 512) and 2-D copies (simt_api_memory.c). */
static inline cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    return pw_simt_malloc_pitch(p, pitch, width, height);
}
template <class T> static inline cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t width, size_t height)
{
    return pw_simt_malloc_pitch((void **)(void *)p, pitch, width, height);
}
static inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                       size_t height, cudaMemcpyKind kind)
{
    return pw_simt_memcpy_2d(dst, dpitch, src, spitch, width, height, kind);
}
static inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                            size_t height, cudaMemcpyKind kind, cudaStream_t stream = 0)
{
    (void)stream;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
static inline cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
    return pw_simt_memset_2d(p, pitch, value, width, height);
}
static inline cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags = cudaMemAttachGlobal)
{
    (void)flags;
    return pw_simt_malloc_managed(p, bytes);
}
template <class T> static inline cudaError_t cudaMallocManaged(T **p, size_t bytes, unsigned flags = cudaMemAttachGlobal)
{
    (void)flags;
    return pw_simt_malloc_managed((void **)(void *)p, bytes);
}
/* Pinned host memory: the flags change nothing here. */
static inline cudaError_t cudaMallocHost(void **p, size_t bytes) { return pw_simt_malloc_host(p, bytes); }
static inline cudaError_t cudaMallocHost(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return pw_simt_malloc_host(p, bytes);
}
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t bytes, unsigned flags = 0)
{
    (void)flags;
    return pw_simt_malloc_host((void **)(void *)p, bytes);
}
static inline cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return pw_simt_malloc_host(p, bytes);
}
template <class T> static inline cudaError_t cudaHostAlloc(T **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return pw_simt_malloc_host((void **)(void *)p, bytes);
}
static inline cudaError_t cudaFreeHost(void *p) { return pw_simt_free_host(p); }
static inline cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    return pw_simt_mem_get_info(free_bytes, total_bytes);
}
/* Managed memory is where the CPU and the emulated GPU both are already. */
static inline cudaError_t cudaMemPrefetchAsync(const void *p, size_t bytes, cudaMemLocation location, unsigned flags,
                                               cudaStream_t stream = 0)
{
    (void)p, (void)bytes, (void)location, (void)flags, (void)stream;
    return cudaSuccess;
}

/* 3-D memory, mapped pinned memory; CUDA arrays and textures refused */
#include "simt_cuda_host_memory.h"

/* -- symbols: a __device__ or __constant__ variable is a host variable here --
 * The symbol is the variable itself (its size known: a copy past its end is
 * cudaErrorInvalidValue, as CUDA's symbol table makes it), or a void
 * pointer holding its address, which CUDA's C overload takes (and which
 * C++ picks over the template for a `const void *`). */
namespace pw {
template <class T> struct symbol_ref {
    static constexpr bool by_address = std::is_same<typename std::remove_cv<T>::type, void *>::value ||
                                       std::is_same<typename std::remove_cv<T>::type, const void *>::value;
    static void *addr(const T &s)
    {
        if constexpr (by_address)
            return const_cast<void *>(static_cast<const void *>(s));
        else
            return const_cast<void *>(static_cast<const void *>(&s));
    }
    /* the copy fits in the variable (unknown for an address: then any) */
    static bool fits(size_t count, size_t offset) { return by_address || (offset <= sizeof(T) && count <= sizeof(T) - offset); }
};
}  // namespace pw
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return pw_simt_record_error(cudaErrorInvalidMemcpyDirection);
    if (!pw::symbol_ref<T>::fits(count, offset))
        return pw_simt_record_error(cudaErrorInvalidValue);
    return pw_simt_memcpy_to_symbol(pw::symbol_ref<T>::addr(symbol), src, count, offset);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                               cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return pw_simt_record_error(cudaErrorInvalidMemcpyDirection);
    if (!pw::symbol_ref<T>::fits(count, offset))
        return pw_simt_record_error(cudaErrorInvalidValue);
    return pw_simt_memcpy_from_symbol(dst, pw::symbol_ref<T>::addr(symbol), count, offset);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                                  cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0)
{
    (void)stream;
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                                    cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                    cudaStream_t stream = 0)
{
    (void)stream;
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol)
{
    if (!devPtr)
        return pw_simt_record_error(cudaErrorInvalidValue);
    *devPtr = pw::symbol_ref<T>::addr(symbol);
    if constexpr (!pw::symbol_ref<T>::by_address)
        pw_simt_register_symbol(*devPtr, sizeof(T));   /* cudaMemcpy of this address: a copy to or from the symbol */
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    (void)symbol;
    static_assert(!pw::symbol_ref<T>::by_address,
                  "SIMT emulator: cudaGetSymbolSize of a symbol given by its address: pass the variable itself");
    if (!size)
        return pw_simt_record_error(cudaErrorInvalidValue);
    *size = sizeof(T);
    return cudaSuccess;
}

/* -- errors and devices -- */
static inline cudaError_t cudaDeviceSynchronize(void) { return pw_simt_device_synchronize(); }
/* As on a GPU these do not wait for the kernels (a kernel's error is in
 * once it has stopped; cudaDeviceSynchronize waits and returns it). C code
 * (the workbook's checkers) gets simt.h's pw_simt_get_last_error, which waits. */
static inline cudaError_t cudaGetLastError(void) { return pw_simt_get_last_error_now(); }
static inline cudaError_t cudaPeekAtLastError(void) { return pw_simt_peek_error_now(); }
static inline const char *cudaGetErrorString(cudaError_t e) { return pw_simt_error_string(e); }
static inline const char *cudaGetErrorName(cudaError_t e) { return pw_simt_error_name(e); }
static inline cudaError_t cudaGetDeviceCount(int *n) { return pw_simt_get_device_count(n); }
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device)
{
#ifdef PW_CUDA12_DEVICE_PROP
    cudaError_t e = pw_simt_get_device_properties(p, device);
    if (e == cudaSuccess) {
        pw_simt_device_get_attribute(&p->clockRate, cudaDevAttrClockRate, device);
        pw_simt_device_get_attribute(&p->memoryClockRate, cudaDevAttrMemoryClockRate, device);
    }
    return e;
#else
    return pw_simt_get_device_properties(p, device);
#endif
}
static inline cudaError_t cudaSetDevice(int device) { return pw_simt_set_device(device); }
static inline cudaError_t cudaGetDevice(int *device) { return pw_simt_get_device(device); }
static inline cudaError_t cudaDeviceReset(void) { return pw_simt_device_reset(); }
static inline cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    (void)flags;
    return cudaSuccess;
}
static inline cudaError_t cudaDriverGetVersion(int *v)
{
    *v = CUDART_VERSION;
    return cudaSuccess;
}
static inline cudaError_t cudaRuntimeGetVersion(int *v)
{
    *v = CUDART_VERSION;
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer)
{
    (void)device, (void)peer;
    *can = 0;
    return cudaSuccess;
}
/* Every attribute CUDA 13 has (simt_api_device.c: from the device file, or 0 for what is not emulated). */
static inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    return pw_simt_device_get_attribute(value, attr, device);
}
/* Limits and cache preferences: accepted, recorded nowhere (nothing here
 * depends on them); cudaDeviceGetLimit reports CUDA's defaults. */
static inline cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    (void)limit, (void)value;
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit)
{
    switch (limit) {
    case cudaLimitStackSize: *value = 1024; break;
    case cudaLimitPrintfFifoSize: *value = 1 << 20; break;
    case cudaLimitMallocHeapSize: *value = 8 << 20; break;
    default: *value = 0; break;
    }
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config)
{
    (void)config;
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaFuncSetCacheConfig(T *func, cudaFuncCache config)
{
    (void)func, (void)config;
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaFuncSetAttribute(T *func, cudaFuncAttribute attr, int value)
{
    (void)func, (void)attr, (void)value;
    return cudaSuccess;
}

/* -- occupancy: an honest simple model (the emulator has no registers to
 * count), from the device file's limits: resident threads (warps of 32)
 * and blocks per multiprocessor, and the dynamic shared memory asked for,
 * plus the driver's reserve per block, against the multiprocessor's.
 * Static __shared__ memory is not counted. */
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize,
                                                                        size_t dynamicSMemSize)
{
    (void)func;
    cudaDeviceProp p;
    cudaError_t e = pw_simt_get_device_properties(&p, 0);
    if (e != cudaSuccess)
        return e;
    if (!numBlocks || blockSize <= 0)
        return pw_simt_record_error(cudaErrorInvalidValue);
    int warps = (blockSize + 31) / 32;
    int n = blockSize > p.maxThreadsPerBlock ? 0 : p.maxThreadsPerMultiProcessor / 32 / warps;
    n = n > p.maxBlocksPerMultiProcessor ? p.maxBlocksPerMultiProcessor : n;
    if (dynamicSMemSize > 0) {
        size_t bySmem = dynamicSMemSize > p.sharedMemPerBlockOptin
                            ? 0 : p.sharedMemPerMultiprocessor / (dynamicSMemSize + p.reservedSharedMemPerBlock);
        n = (size_t)n > bySmem ? (int)bySmem : n;
    }
    *numBlocks = n;
    return cudaSuccess;
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func, int blockSize,
                                                                                 size_t dynamicSMemSize, unsigned flags)
{
    (void)flags;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize);
}
/* The block size (a multiple of 32) with the most threads resident per
 * multiprocessor, the largest such; minGridSize fills every multiprocessor. */
template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                             size_t dynamicSMemSize = 0, int blockSizeLimit = 0)
{
    int limit = blockSizeLimit > 0 && blockSizeLimit < 1024 ? blockSizeLimit : 1024;
    int best = 0, bestBlocks = 0, bestThreads = -1;
    for (int b = (limit + 31) / 32 * 32; b > 0; b -= 32) {
        int bs = b > limit ? limit : b, n = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, func, bs, dynamicSMemSize);
        if (n * bs > bestThreads)
            best = bs, bestBlocks = n, bestThreads = n * bs;
    }
    cudaDeviceProp p;
    int sms = pw_simt_get_device_properties(&p, 0) == cudaSuccess && p.multiProcessorCount > 0 ? p.multiProcessorCount : 1;
    *blockSize = best;
    *minGridSize = bestBlocks * sms;
    return cudaSuccess;
}

/* -- launching without <<< >>>: the arguments, one pointer per parameter -- */
namespace pw {
template <class... P, size_t... I>
static inline void launch_unpacked(void (*func)(P...), const launch_config &c, void **args, std::index_sequence<I...>)
{
    launch("cudaLaunchKernel", c, func, *static_cast<typename std::decay<P>::type *>(args[I])...);
}
}  // namespace pw
template <class... P>
static inline cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 grid, dim3 block, void **args,
                                           size_t sharedMem = 0, cudaStream_t stream = 0)
{
    pw::launch_unpacked(func, pw::config(grid, block, sharedMem, stream), args, std::index_sequence_for<P...>{});
    return pw_simt_peek_error_now();   /* the launch's own error: the host does not wait for the kernel */
}
/* Streams, events, callbacks, the asynchronous copies, cudaLaunchCooperativeKernel:
 * simt_cuda_stream.h. */

#endif
