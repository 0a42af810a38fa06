/* common/simt/simt_cuda_host.h: the host API: CUDA's names, overloads and default arguments (memory,
 * streams, events, launches, errors, device properties).
 * One part of common/simt/simt_cuda.h, which includes it after its helpers
 * (namespace pw::cu); not a header to include on its own. */
#ifndef PW_SIMT_CUDA_HOST_H
#define PW_SIMT_CUDA_HOST_H
#ifndef PW_SIMT_CUDA_H
#error "simt_cuda_host.h is a part of simt_cuda.h: include simt_cuda.h"
#endif

/* ====================================================================== */
/* ---- the host API: CUDA's names, overloads and default arguments ------------ */

#define CUDART_VERSION 13000
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
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrClusterLaunch = 120
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
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    return pw_simt_memcpy(dst, src, bytes, kind);
}
static inline cudaError_t cudaMemset(void *p, int value, size_t bytes) { return pw_simt_memset(p, value, bytes); }
/* Streams run each operation when it is issued (simt.h): the Async forms
 * are done when they return, which a correct program cannot tell. */
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                          cudaStream_t stream = 0)
{
    (void)stream;
    return pw_simt_memcpy(dst, src, bytes, kind);
}
static inline cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t stream = 0)
{
    (void)stream;
    return pw_simt_memset(p, value, bytes);
}
/* Pitched memory: rows of `width` bytes, `pitch` bytes apart (a multiple of 512). */
static inline cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    *pitch = (width + 511) / 512 * 512;
    return pw_simt_malloc(p, *pitch * height);
}
template <class T> static inline cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch((void **)(void *)p, pitch, width, height);
}
static inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                       size_t height, cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch)
        return pw_simt_record_error(cudaErrorInvalidValue);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = pw_simt_memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                            size_t height, cudaMemcpyKind kind, cudaStream_t stream = 0)
{
    (void)stream;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
static inline cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = pw_simt_memset((char *)p + r * pitch, value, width);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
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

/* -- symbols: a __device__ or __constant__ variable is a host variable here -- */
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    (void)kind;
    return pw_simt_memcpy_to_symbol(const_cast<void *>(static_cast<const void *>(&symbol)), src, count, offset);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                               cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    (void)kind;
    return pw_simt_memcpy_from_symbol(dst, static_cast<const void *>(&symbol), count, offset);
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
    *devPtr = const_cast<void *>(static_cast<const void *>(&symbol));
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    (void)symbol;
    *size = sizeof(T);
    return cudaSuccess;
}

/* -- errors and devices -- */
static inline cudaError_t cudaDeviceSynchronize(void) { return pw_simt_device_synchronize(); }
static inline cudaError_t cudaGetLastError(void) { return pw_simt_get_last_error(); }
static inline cudaError_t cudaPeekAtLastError(void) { return pw_simt_peek_last_error(); }
static inline const char *cudaGetErrorString(cudaError_t e) { return pw_simt_error_string(e); }
static inline const char *cudaGetErrorName(cudaError_t e) { return pw_simt_error_name(e); }
static inline cudaError_t cudaGetDeviceCount(int *n) { return pw_simt_get_device_count(n); }
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device)
{
    return pw_simt_get_device_properties(p, device);
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
/* The few attributes a program asks for, from cudaGetDeviceProperties;
 * others are cudaErrorInvalidValue. */
static inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    cudaDeviceProp p;
    cudaError_t e = pw_simt_get_device_properties(&p, device);
    if (e != cudaSuccess)
        return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = 32; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.managedMemory; break;
    case cudaDevAttrPageableMemoryAccess: *value = 0; break;   /* a host pointer in a kernel is a memcheck error */
    case cudaDevAttrCanMapHostMemory: *value = 0; break;
    case cudaDevAttrCooperativeLaunch: *value = 0; break;      /* grid-wide sync is not emulated */
    case cudaDevAttrClusterLaunch: *value = 0; break;
    case cudaDevAttrKernelExecTimeout: *value = 0; break;
    case cudaDevAttrIntegrated: *value = 0; break;
    case cudaDevAttrComputeMode: *value = 0; break;
    case cudaDevAttrEccEnabled: *value = 0; break;
    case cudaDevAttrAsyncEngineCount: *value = 0; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = 0; break;
    case cudaDevAttrIsMultiGpuBoard: *value = 0; break;
    default: return pw_simt_record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
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
 * count): 2048 threads and 32 blocks per multiprocessor, and the dynamic
 * shared memory asked for against the multiprocessor's. Static __shared__
 * memory is not counted. */
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize,
                                                                        size_t dynamicSMemSize)
{
    (void)func;
    if (blockSize <= 0)
        return pw_simt_record_error(cudaErrorInvalidValue);
    int n = blockSize > 1024 ? 0 : 2048 / blockSize;
    n = n > 32 ? 32 : n;
    cudaDeviceProp p;
    if (dynamicSMemSize > 0 && pw_simt_get_device_properties(&p, 0) == cudaSuccess && p.sharedMemPerMultiprocessor > 0) {
        size_t bySmem = p.sharedMemPerMultiprocessor / dynamicSMemSize;
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

/* -- streams and events -- */
static inline cudaError_t cudaStreamCreate(cudaStream_t *s) { return pw_simt_stream_create(s); }
static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    (void)flags;
    return pw_simt_stream_create(s);
}
static inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority)
{
    (void)flags, (void)priority;
    return pw_simt_stream_create(s);
}
static inline cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) { return pw_simt_stream_destroy(s); }
static inline cudaError_t cudaStreamSynchronize(cudaStream_t s) { return pw_simt_stream_synchronize(s); }
/* Everything issued to a stream is done already. */
static inline cudaError_t cudaStreamQuery(cudaStream_t s)
{
    (void)s;
    return cudaSuccess;
}
static inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags = 0)
{
    (void)s, (void)e, (void)flags;
    return cudaSuccess;
}
static inline cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *userData)
{
    (void)s;
    fn(userData);
    return cudaSuccess;
}
static inline cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *userData, unsigned flags)
{
    (void)flags;
    cb(s, cudaSuccess, userData);
    return cudaSuccess;
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { return pw_simt_event_create(e); }
static inline cudaError_t cudaEventCreate(cudaEvent_t *e, unsigned flags)
{
    (void)flags;
    return pw_simt_event_create(e);
}
static inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    (void)flags;
    return pw_simt_event_create(e);
}
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0) { return pw_simt_event_record(e, s); }
static inline cudaError_t cudaEventSynchronize(cudaEvent_t e) { return pw_simt_event_synchronize(e); }
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    return pw_simt_event_elapsed_time(ms, start, stop);
}
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { return pw_simt_event_destroy(e); }
/* A recorded event has completed (its stream's work ran when issued). */
static inline cudaError_t cudaEventQuery(cudaEvent_t e)
{
    (void)e;
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
    return pw_simt_peek_last_error();
}
/* A grid-wide barrier needs every block resident at once, which the
 * emulator's block-at-a-time scheduling does not give. */
template <class T>
static inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args,
                                                      size_t sharedMem = 0, cudaStream_t stream = 0)
{
    static_assert(pw::cu::dependent_false<T>::value,
                  "SIMT emulator: cudaLaunchCooperativeKernel (a cooperative launch, for grid-wide sync) is not supported yet");
    (void)func, (void)grid, (void)block, (void)args, (void)sharedMem, (void)stream;
    return cudaErrorNotSupported;
}


#endif
