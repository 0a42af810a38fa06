/* common/simt/simt_cuda_types.h: CUDA's runtime types on the SIMT emulator, C and C++
 * (simt.h includes it, inside its extern "C"): the error codes, the copy
 * kinds, the device's properties and attributes, the pitched pointers and
 * extents of 2-D and 3-D copies; and the C functions of the host API that
 * go with them (common/simt/simt_api_device.c, simt_api_memory.c).
 *
 * Names, values and struct fields are CUDA 13.0's (driver_types.h,
 * cuda_runtime_api.h of the CUDA Toolkit 13.0), so code written against
 * them builds unchanged; a field the emulator has no figure for is 0 (the
 * texture limits: textures are not emulated). What the device reports
 * comes from the GPU model's device file, common/gpus/NAME.gpu (PW_SIMT_DEVICE
 * picks one, default h100-sxm): its compute capability is the file's
 * `arch` (sm_90: 9.0), its SMs, clock, L2, shared memory and register
 * limits the file's figures, each with its source there.
 */
#ifndef PW_SIMT_CUDA_TYPES_H
#define PW_SIMT_CUDA_TYPES_H

#include <stddef.h>

/* cuda_runtime_api.h: the version of the runtime whose API this follows */
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999,
} cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

/* What cudaDevAttrComputeMode says: the emulator is always Default. */
enum cudaComputeMode {
    cudaComputeModeDefault = 0,
    cudaComputeModeExclusive = 1,
    cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3
};

/* ---- the device's properties: CUDA 13.0's struct, field for field ------------- */
typedef struct CUuuid_st { char bytes[16]; } CUuuid;
typedef CUuuid cudaUUID_t;

struct cudaDeviceProp {
    char name[256];                         /* "SIMT emulator: H100 SXM (sm_90) ..." */
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;                  /* what the host can give (the emulator's device memory is its RAM) */
    size_t sharedMemPerBlock;               /* 48 KiB: static __shared__ and the default dynamic limit */
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;                              /* compute capability: the device file's arch */
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;                /* the model's SMs (blocks run on PW_SIMT_WORKERS OS threads) */
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
#ifdef PW_CUDA12_DEVICE_PROP
    /* -DPW_CUDA12_DEVICE_PROP: two fields CUDA 13 removed (cudaDevAttrClockRate and
     * cudaDevAttrMemoryClockRate say them now), for code written for CUDA 12 such as the
     * Indigo3 suite's; taken from the reserved words, so the layout stays CUDA 13's */
    int clockRate;                          /* kHz */
    int memoryClockRate;                    /* kHz */
    int reserved[54];
#else
    int reserved[56];
#endif
};
typedef struct cudaDeviceProp cudaDeviceProp;

/* cudaDeviceGetAttribute's attributes: CUDA 13.0's values (its reserved
 * and removed ones left out). The emulator answers every one: from the
 * properties above, or the device file (clock), or 0 for what it lacks. */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11, cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14, cudaDevAttrGpuOverlap = 15, cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17, cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20, cudaDevAttrMaxTexture1DWidth = 21, cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23, cudaDevAttrMaxTexture3DWidth = 24, cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26, cudaDevAttrMaxTexture2DLayeredWidth = 27,
    cudaDevAttrMaxTexture2DLayeredHeight = 28, cudaDevAttrMaxTexture2DLayeredLayers = 29,
    cudaDevAttrSurfaceAlignment = 30, cudaDevAttrConcurrentKernels = 31, cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33, cudaDevAttrPciDeviceId = 34, cudaDevAttrTccDriver = 35,
    cudaDevAttrMemoryClockRate = 36, cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrAsyncEngineCount = 40, cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrMaxTexture1DLayeredWidth = 42, cudaDevAttrMaxTexture1DLayeredLayers = 43,
    cudaDevAttrMaxTexture2DGatherWidth = 45, cudaDevAttrMaxTexture2DGatherHeight = 46,
    cudaDevAttrMaxTexture3DWidthAlt = 47, cudaDevAttrMaxTexture3DHeightAlt = 48, cudaDevAttrMaxTexture3DDepthAlt = 49,
    cudaDevAttrPciDomainId = 50, cudaDevAttrTexturePitchAlignment = 51, cudaDevAttrMaxTextureCubemapWidth = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53, cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    cudaDevAttrMaxSurface1DWidth = 55, cudaDevAttrMaxSurface2DWidth = 56, cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58, cudaDevAttrMaxSurface3DHeight = 59, cudaDevAttrMaxSurface3DDepth = 60,
    cudaDevAttrMaxSurface1DLayeredWidth = 61, cudaDevAttrMaxSurface1DLayeredLayers = 62,
    cudaDevAttrMaxSurface2DLayeredWidth = 63, cudaDevAttrMaxSurface2DLayeredHeight = 64,
    cudaDevAttrMaxSurface2DLayeredLayers = 65, cudaDevAttrMaxSurfaceCubemapWidth = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67, cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    cudaDevAttrMaxTexture1DLinearWidth = 69, cudaDevAttrMaxTexture2DLinearWidth = 70,
    cudaDevAttrMaxTexture2DLinearHeight = 71, cudaDevAttrMaxTexture2DLinearPitch = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth = 73, cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth = 77, cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79, cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83, cudaDevAttrIsMultiGpuBoard = 84, cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86, cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88, cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90, cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrCooperativeLaunch = 95, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCanFlushRemoteWrites = 98, cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100, cudaDevAttrDirectManagedMemAccessFromHost = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106, cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109, cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrSparseCudaArraySupported = 112, cudaDevAttrHostRegisterReadOnlySupported = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported = 114, cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrGPUDirectRDMASupported = 116, cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118, cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    cudaDevAttrClusterLaunch = 120, cudaDevAttrDeferredMappingCudaArraySupported = 121,
    cudaDevAttrIpcEventSupport = 125, cudaDevAttrMemSyncDomainCount = 126, cudaDevAttrNumaConfig = 130,
    cudaDevAttrNumaId = 131, cudaDevAttrMpsEnabled = 133, cudaDevAttrHostNumaId = 134,
    cudaDevAttrD3D12CigSupported = 135, cudaDevAttrVulkanCigSupported = 138, cudaDevAttrGpuPciDeviceId = 139,
    cudaDevAttrGpuPciSubsystemId = 140, cudaDevAttrHostNumaMemoryPoolsSupported = 142,
    cudaDevAttrHostNumaMultinodeIpcSupported = 143, cudaDevAttrHostMemoryPoolsSupported = 144,
    cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
    cudaDevAttrMax
};

/* ---- 2-D and 3-D memory: pitched pointers, extents, positions ---------------- */
struct cudaPitchedPtr {
    void *ptr;        /* the first row */
    size_t pitch;     /* bytes from one row to the next */
    size_t xsize;     /* the rows' width in bytes (for linear memory) */
    size_t ysize;     /* rows per slice */
};
struct cudaExtent {
    size_t width;     /* bytes, for linear memory (elements for CUDA arrays, which the emulator lacks) */
    size_t height;    /* rows */
    size_t depth;     /* slices */
};
struct cudaPos { size_t x, y, z; };   /* x in bytes, y rows, z slices */
typedef struct cudaArray *cudaArray_t;   /* CUDA arrays (textures) are not emulated: always NULL here */
typedef const struct cudaArray *cudaArray_const_t;
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    enum cudaMemcpyKind kind;
};

/* ---- what a pointer is (cudaPointerGetAttributes) ---------------------------- */
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,   /* ordinary host memory */
    cudaMemoryTypeHost = 1,           /* cudaMallocHost / cudaHostAlloc */
    cudaMemoryTypeDevice = 2,         /* cudaMalloc */
    cudaMemoryTypeManaged = 3         /* cudaMallocManaged */
};
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;                       /* 0: the one device; -2 (cudaInvalidDeviceId) for unregistered memory */
    void *devicePointer;              /* NULL where a kernel cannot use it */
    void *hostPointer;                /* NULL where the host cannot use it */
    long reserved[8];
};

static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{
    struct cudaPitchedPtr s;
    s.ptr = d, s.pitch = p, s.xsize = xsz, s.ysize = ysz;
    return s;
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
    struct cudaPos p;
    p.x = x, p.y = y, p.z = z;
    return p;
}
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
    struct cudaExtent e;
    e.width = w, e.height = h, e.depth = d;
    return e;
}

/* ---- the host API of these types (C names; C++ gets CUDA's in simt_cuda_host*.h) ---- */

/* simt_api_device.c: the device the model describes */
cudaError_t pw_simt_get_device_properties(struct cudaDeviceProp *p, int device);
cudaError_t pw_simt_device_get_attribute(int *value, enum cudaDeviceAttr attr, int device);
/* simt_api_memory.c: pitched, 2-D and 3-D memory; pinned memory's device address */
cudaError_t pw_simt_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind);
cudaError_t pw_simt_memcpy_3d(const struct cudaMemcpy3DParms *p);
cudaError_t pw_simt_memset_2d(void *p, size_t pitch, int value, size_t width, size_t height);
cudaError_t pw_simt_memset_3d(struct cudaPitchedPtr p, int value, struct cudaExtent extent);
cudaError_t pw_simt_host_get_device_pointer(void **dev, void *host, unsigned flags);
cudaError_t pw_simt_pointer_get_attributes(struct cudaPointerAttributes *a, const void *p);
/* a __device__/__constant__ variable whose address the program took (cudaGetSymbolAddress):
 * cudaMemcpy and cudaMemset of it are copies to and from the symbol */
void pw_simt_register_symbol(const void *addr, size_t bytes);
cudaError_t pw_simt_memcpy_sym(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t pw_simt_memset_sym(void *p, int value, size_t bytes);

/* Pitched memory: rows of `width` bytes, `pitch` bytes apart, the pitch a
 * multiple of 512, the device's textureAlignment (what GPUs give since
 * Fermi: rows start aligned for coalesced and texture access). Inline, so
 * that a leak report names the caller's line, as for cudaMalloc. */
#define PW_SIMT_PITCH_ALIGN 512
cudaError_t pw_simt_malloc(void **p, size_t bytes);
static inline cudaError_t pw_simt_malloc_pitch(void **p, size_t *pitch, size_t width, size_t height)
{
    if (!pitch) return pw_simt_malloc(NULL, 0);   /* cudaErrorInvalidValue, recorded */
    *pitch = (width + PW_SIMT_PITCH_ALIGN - 1) / PW_SIMT_PITCH_ALIGN * PW_SIMT_PITCH_ALIGN;
    return pw_simt_malloc(p, *pitch * height);
}
static inline cudaError_t pw_simt_malloc_3d(struct cudaPitchedPtr *p, struct cudaExtent e)
{
    if (!p) return pw_simt_malloc(NULL, 0);
    size_t pitch = (e.width + PW_SIMT_PITCH_ALIGN - 1) / PW_SIMT_PITCH_ALIGN * PW_SIMT_PITCH_ALIGN;
    void *d = NULL;
    cudaError_t r = pw_simt_malloc(&d, pitch * e.height * e.depth);
    *p = make_cudaPitchedPtr(d, pitch, e.width, e.height);
    return r;
}

#ifndef __cplusplus
#define cudaDeviceGetAttribute pw_simt_device_get_attribute
#define cudaMallocPitch pw_simt_malloc_pitch
#define cudaMalloc3D pw_simt_malloc_3d
#define cudaMemcpy2D pw_simt_memcpy_2d
#define cudaMemcpy3D pw_simt_memcpy_3d
#define cudaMemset2D pw_simt_memset_2d
#define cudaMemset3D pw_simt_memset_3d
#define cudaHostGetDevicePointer pw_simt_host_get_device_pointer
#define cudaPointerGetAttributes pw_simt_pointer_get_attributes
#endif

#endif
