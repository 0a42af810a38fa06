/* common/simt/simt_cuda_host_memory.h: the host API of 3-D memory and mapped pinned
 * memory, CUDA's C++ faces of simt_api_memory.c; and CUDA arrays and
 * textures, which the emulator lacks, refused when the program is
 * compiled with a message naming them. One part of simt_cuda_host.h (which
 * includes it); not a header to include on its own. */
#ifndef PW_SIMT_CUDA_HOST_MEMORY_H
#define PW_SIMT_CUDA_HOST_MEMORY_H
#ifndef PW_SIMT_CUDA_H
#error "simt_cuda_host_memory.h is a part of simt_cuda.h: include simt_cuda.h"
#endif

/* -- 3-D memory: slices of rows, pitched as cudaMallocPitch pitches them -- */
static inline cudaError_t cudaMalloc3D(cudaPitchedPtr *p, cudaExtent extent) { return pw_simt_malloc_3d(p, extent); }
static inline cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p) { return pw_simt_memcpy_3d(p); }
static inline cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent extent)
{
    return pw_simt_memset_3d(p, value, extent);
}

/* -- mapped pinned memory: a kernel reaches cudaHostAlloc memory at its own address -- */
static inline cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
    return pw_simt_host_get_device_pointer(dev, host, flags);
}
template <class T> static inline cudaError_t cudaHostGetDevicePointer(T **dev, void *host, unsigned flags)
{
    return pw_simt_host_get_device_pointer((void **)(void *)dev, host, flags);
}
static inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p)
{
    return pw_simt_pointer_get_attributes(a, p);
}
/* What cudaHostAlloc was given is not kept: every flag is as good as any here. */
static inline cudaError_t cudaHostGetFlags(unsigned *flags, void *host)
{
    void *dev;
    cudaError_t e = pw_simt_host_get_device_pointer(&dev, host, 0);
    if (e == cudaSuccess && flags)
        *flags = cudaHostAllocMapped;
    return e;
}

/* -- CUDA arrays, textures and surfaces: not emulated, refused at compile time -- */
namespace pw {
namespace cu {
template <class... A> struct not_emulated_arrays {
    static_assert(dependent_false<not_emulated_arrays<A...>>::value,
                  "SIMT emulator: CUDA arrays, textures and surfaces (cudaMallocArray, cudaMemcpy*ToArray, "
                  "cudaCreateTextureObject, tex2D...) are not supported: use linear memory (cudaMalloc, "
                  "cudaMallocPitch, cudaMalloc3D) and plain loads");
    static cudaError_t call() { return cudaErrorNotSupported; }
};
}  // namespace cu
}  // namespace pw
template <class... A> static inline cudaError_t cudaMallocArray(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }
template <class... A> static inline cudaError_t cudaMalloc3DArray(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }
template <class... A> static inline cudaError_t cudaFreeArray(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }
template <class... A> static inline cudaError_t cudaMemcpyToArray(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }
template <class... A> static inline cudaError_t cudaMemcpy2DToArray(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }
template <class... A> static inline cudaError_t cudaMemcpyFromArray(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }
template <class... A> static inline cudaError_t cudaMemcpy2DFromArray(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }
template <class... A> static inline cudaError_t cudaCreateTextureObject(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }
template <class... A> static inline cudaError_t cudaDestroyTextureObject(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }
template <class... A> static inline cudaError_t cudaCreateSurfaceObject(A...) { return pw::cu::not_emulated_arrays<A...>::call(); }

#endif
