/* common/simt/simt_api_device.c: the device the emulator says it is:
 * cudaGetDeviceProperties and cudaDeviceGetAttribute, from the GPU model's
 * device file (common/gpus/NAME.gpu, read by common/gpu_device.c).
 *
 * PW_SIMT_DEVICE names the file (a name of common/gpus or a path, as the
 * chapters' --device takes; default PW_GPU_DEFAULT, the H100 SXM). Its
 * `arch` is the compute capability (sm_90: 9.0, sm_86: 8.6), so code that
 * asks for "SM 3.0+" or picks a path for sm_80 sees the GPU the chapters
 * model; its SMs, clock, L2, shared memory, register and residency limits
 * are the file's figures, each cited there. What no file holds is CUDA's
 * own constant for every GPU of these generations (cited beside it) or 0,
 * which CUDA also reports for a feature a device lacks (textures, PCI
 * location, memory pools): nothing here is one machine's measurement.
 * The emulator runs every model alike: the file changes what a program
 * is told, not how its kernels run (the emulator's limits are an H100's,
 * simt_internal.h). */
#define _GNU_SOURCE
#include "simt_state.h"
#include "gpu_model.h"

static pw_gpu simt_model;
static pthread_once_t simt_model_once = PTHREAD_ONCE_INIT;

/* The device file, read once; a bad PW_SIMT_DEVICE is a usage error (one
 * line, exit 2), as a bad --device is. */
static void load_model(void)
{
    const char *name = getenv("PW_SIMT_DEVICE");
    char err[1024];
    if (pw_gpu_find(name && *name ? name : PW_GPU_DEFAULT, &simt_model, err, sizeof err)) {
        fprintf(stderr, "simt: PW_SIMT_DEVICE: %s\n", err);
        exit(2);
    }
}

static const pw_gpu *model(void)
{
    pthread_once(&simt_model_once, load_model);
    return &simt_model;
}

/* sm_90 -> 9.0, sm_86 -> 8.6, sm_100 -> 10.0: the last digit is the minor
 * version (the loader has checked that arch is sm_ and digits). */
static void compute_capability(const pw_gpu *g, int *major, int *minor)
{
    int cc = atoi(g->arch + 3);
    *major = cc / 10;
    *minor = cc % 10;
}

/* [guide] = CUDA C++ Programming Guide, "Features and Technical
 * Specifications", the table per compute capability (also cited by the
 * device files). */

cudaError_t pw_simt_get_device_properties(cudaDeviceProp *p, int device)
{
    if (device != 0) return simt_last_error = cudaErrorInvalidDevice;
    const pw_gpu *g = model();
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "SIMT emulator: %.63s (%.15s) on %d CPU worker thread%s", g->name, g->arch,
             pw_simt_workers(), pw_simt_workers() == 1 ? "" : "s");
    compute_capability(g, &p->major, &p->minor);
    p->totalGlobalMem = (size_t)pw_available_memory();   /* the emulator's device memory is this machine's */
    p->sharedMemPerBlock = 48 * 1024;      /* static __shared__ and the default dynamic limit, every CC >= 2.0 [guide] */
    p->regsPerBlock = g->regs_per_block;
    p->warpSize = 32;
    p->memPitch = 2147483647;              /* cudaDevAttrMaxPitch: 2^31 - 1 on every CC >= 2.0 (deviceQuery) */
    p->maxThreadsPerBlock = g->max_threads_per_block;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;   /* [guide], "Technical Specifications" */
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;        /* 2^31 - 1 blocks in x, 65535 in y and z [guide] */
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 64 * 1024;          /* [guide] */
    p->textureAlignment = 512;             /* cudaMallocPitch's pitch too (simt_api_memory.c) */
    p->texturePitchAlignment = 32;
    p->surfaceAlignment = 512;
    p->multiProcessorCount = g->sms;
    p->canMapHostMemory = 1;               /* cudaHostAlloc memory is device memory here (cudaHostGetDevicePointer) */
    p->unifiedAddressing = 1;              /* one address space: a pointer says where it lives */
    p->cooperativeLaunch = 1;              /* cudaLaunchCooperativeKernel: every block at once (simt_grid.c) */
    p->l2CacheSize = (int)(g->l2_mb * 1024 * 1024);   /* "50 MB" of the whitepaper: CUDA reports 50 MiB */
    p->maxThreadsPerMultiProcessor = g->max_warps_per_sm * 32;
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = (size_t)g->smem_per_sm;
    p->regsPerMultiprocessor = g->regs_per_sm;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1;        /* the host and kernels see the same bytes */
    p->directManagedMemAccessFromHost = 1;
    p->sharedMemPerBlockOptin = (size_t)g->smem_per_block;
    p->maxBlocksPerMultiProcessor = g->max_blocks_per_sm;
    p->reservedSharedMemPerBlock = (size_t)g->smem_reserved_per_block;
    p->deviceNumaId = p->hostNumaId = -1;  /* no NUMA node: CUDA's "none" */
    return cudaSuccess;
}

cudaError_t pw_simt_device_get_attribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (!value) return simt_last_error = cudaErrorInvalidValue;
    cudaDeviceProp p;
    cudaError_t e = pw_simt_get_device_properties(&p, device);
    if (e != cudaSuccess) return e;
    const pw_gpu *g = model();
    int v = 0;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: v = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: v = p.warpSize; break;
    case cudaDevAttrMaxPitch: v = (int)p.memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
    case cudaDevAttrClockRate: v = (int)(g->clock_ghz * 1e6 + 0.5); break;   /* kHz, as CUDA gives it */
    case cudaDevAttrTextureAlignment: v = (int)p.textureAlignment; break;
    case cudaDevAttrTexturePitchAlignment: v = (int)p.texturePitchAlignment; break;
    case cudaDevAttrSurfaceAlignment: v = (int)p.surfaceAlignment; break;
    case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
    case cudaDevAttrCanMapHostMemory: v = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: v = cudaComputeModeDefault; break;
    case cudaDevAttrConcurrentKernels: v = p.concurrentKernels; break;
    case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: v = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
    case cudaDevAttrGlobalL1CacheSupported: v = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: v = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: v = p.managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: v = p.concurrentManagedAccess; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: v = p.directManagedMemAccessFromHost; break;
    case cudaDevAttrCooperativeLaunch: v = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = (int)p.reservedSharedMemPerBlock; break;
    case cudaDevAttrNumaId: v = p.deviceNumaId; break;
    case cudaDevAttrHostNumaId: v = p.hostNumaId; break;
    /* no figure for them in a device file; 0 is CUDA's answer for a device without the feature */
    case cudaDevAttrMemoryClockRate: case cudaDevAttrGlobalMemoryBusWidth: v = 0; break;
    default:
        if (attr <= 0 || attr >= cudaDevAttrMax) return simt_last_error = cudaErrorInvalidValue;
        v = 0;   /* textures, surfaces, PCI, ECC, peer and host registration, pools, ...: not emulated */
    }
    *value = v;
    return cudaSuccess;
}
