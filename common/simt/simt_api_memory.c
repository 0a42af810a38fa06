/* common/simt/simt_api_memory.c: the host API of 2-D and 3-D memory
 * (cudaMemcpy2D, cudaMemcpy3D, cudaMemset2D/3D) and of mapped pinned memory
 * (cudaHostGetDevicePointer), built on the one-range copies of
 * simt_memory.c: each row is one pw_simt_memcpy, so each row is checked
 * against the allocations (a row past the end is cudaErrorInvalidValue)
 * and marks what it writes as initialized, as a whole copy does. The
 * pitched allocations themselves are inline in simt_cuda_types.h. */
#define _GNU_SOURCE
#include "simt_state.h"

/* Rows of `width` bytes `height` times; pitches below the width are
 * cudaErrorInvalidPitchValue, as CUDA's are. */
cudaError_t pw_simt_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, cudaMemcpyKind kind)
{
    if ((unsigned)kind > cudaMemcpyDefault) return simt_last_error = cudaErrorInvalidMemcpyDirection;
    if (width == 0 || height == 0) return cudaSuccess;
    if (width > dpitch || width > spitch) return simt_last_error = cudaErrorInvalidPitchValue;
    if (dpitch == width && spitch == width)   /* contiguous: one copy */
        return pw_simt_memcpy(dst, src, width * height, kind);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = pw_simt_memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* Byte offset of position pos in a pitched pointer. */
static size_t pitched_offset(const struct cudaPitchedPtr *p, struct cudaPos pos)
{
    return (pos.z * p->ysize + pos.y) * p->pitch + pos.x;
}

/* A box of extent.width bytes x height rows x depth slices, from srcPos in
 * srcPtr to dstPos in dstPtr. CUDA arrays are not emulated: a program
 * cannot make one (cudaMalloc3DArray does not exist here), so a non-NULL
 * array is a bad argument. */
cudaError_t pw_simt_memcpy_3d(const struct cudaMemcpy3DParms *p)
{
    if (!p || p->srcArray || p->dstArray) return simt_last_error = cudaErrorInvalidValue;
    if ((unsigned)p->kind > cudaMemcpyDefault) return simt_last_error = cudaErrorInvalidMemcpyDirection;
    const struct cudaExtent e = p->extent;
    if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
    const struct cudaPitchedPtr *s = &p->srcPtr, *d = &p->dstPtr;
    if (!s->ptr || !d->ptr) return simt_last_error = cudaErrorInvalidValue;
    if (p->srcPos.x + e.width > s->pitch || p->dstPos.x + e.width > d->pitch)
        return simt_last_error = cudaErrorInvalidPitchValue;
    /* slices beyond the first need the rows per slice: a box taller than a slice overlaps the next one */
    if (e.depth > 1 && (p->srcPos.y + e.height > s->ysize || p->dstPos.y + e.height > d->ysize))
        return simt_last_error = cudaErrorInvalidValue;
    for (size_t z = 0; z < e.depth; z++) {
        struct cudaPos sp = make_cudaPos(p->srcPos.x, p->srcPos.y, p->srcPos.z + z);
        struct cudaPos dp = make_cudaPos(p->dstPos.x, p->dstPos.y, p->dstPos.z + z);
        cudaError_t r = pw_simt_memcpy_2d((char *)d->ptr + pitched_offset(d, dp), d->pitch,
                                          (const char *)s->ptr + pitched_offset(s, sp), s->pitch, e.width,
                                          e.height, p->kind);
        if (r != cudaSuccess) return r;
    }
    return cudaSuccess;
}

cudaError_t pw_simt_memset_2d(void *p, size_t pitch, int value, size_t width, size_t height)
{
    if (width == 0 || height == 0) return cudaSuccess;
    if (width > pitch) return simt_last_error = cudaErrorInvalidPitchValue;
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = pw_simt_memset((char *)p + r * pitch, value, width);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t pw_simt_memset_3d(struct cudaPitchedPtr p, int value, struct cudaExtent e)
{
    if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
    if (e.depth > 1 && e.height > p.ysize) return simt_last_error = cudaErrorInvalidValue;
    for (size_t z = 0; z < e.depth; z++) {
        cudaError_t r = pw_simt_memset_2d((char *)p.ptr + z * p.ysize * p.pitch, p.pitch, value, e.width, e.height);
        if (r != cudaSuccess) return r;
    }
    return cudaSuccess;
}

/* Pinned memory (cudaHostAlloc, cudaMallocHost) is device memory here, at
 * the same address: its device pointer is itself (on a GPU with unified
 * addressing, too). Anything else is cudaErrorInvalidValue, as CUDA says
 * for memory that was not allocated mapped. */
cudaError_t pw_simt_host_get_device_pointer(void **dev, void *host, unsigned flags)
{
    if (!dev || flags != 0) return simt_last_error = cudaErrorInvalidValue;
    pthread_mutex_lock(&simt_state_lock);
    long i = simt_find_alloc(host, 1);
    bool pinned = i >= 0 && simt_allocs[i].kind == ALLOC_HOST;
    pthread_mutex_unlock(&simt_state_lock);
    if (!pinned) return simt_last_error = cudaErrorInvalidValue;
    *dev = host;
    return cudaSuccess;
}

/* ---- __device__ and __constant__ variables by address -----------------------------------------------
 * They are ordinary globals here, which the kernels may touch (simt_check.c
 * knows the program's data segments) but cudaMemcpy cannot tell from the
 * host's own globals. cudaGetSymbolAddress registers the variable it was
 * given, so that a cudaMemcpy or cudaMemset of that address (or inside it)
 * is a copy to or from the symbol, as on a GPU. */
enum { MAX_SYMBOLS = 256 };
static struct { const char *lo; size_t bytes; } simt_symbols[MAX_SYMBOLS];
static int simt_nsymbols;

void pw_simt_register_symbol(const void *addr, size_t bytes)
{
    pthread_mutex_lock(&simt_state_lock);
    bool known = false;
    for (int i = 0; i < simt_nsymbols && !known; i++) known = simt_symbols[i].lo == (const char *)addr;
    if (!known && simt_nsymbols < MAX_SYMBOLS)   /* beyond 256: the copy is refused as before, never wrong */
    {
        simt_symbols[simt_nsymbols].lo = addr, simt_symbols[simt_nsymbols].bytes = bytes;
        __atomic_store_n(&simt_nsymbols, simt_nsymbols + 1, __ATOMIC_RELEASE);   /* read without the lock below */
    }
    pthread_mutex_unlock(&simt_state_lock);
}

/* Whether [p, p+bytes) lies in a registered symbol. */
static bool in_symbol(const void *p, size_t bytes)
{
    const char *c = p;
    bool in = false;
    pthread_mutex_lock(&simt_state_lock);
    for (int i = 0; i < simt_nsymbols && !in; i++)
        in = c >= simt_symbols[i].lo && c + bytes <= simt_symbols[i].lo + simt_symbols[i].bytes;
    pthread_mutex_unlock(&simt_state_lock);
    return in;
}

cudaError_t pw_simt_memcpy_sym(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    if (__atomic_load_n(&simt_nsymbols, __ATOMIC_ACQUIRE) && (unsigned)kind <= cudaMemcpyDefault) {
        bool to = kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyHostToHost && in_symbol(dst, bytes);
        bool from = kind != cudaMemcpyHostToDevice && kind != cudaMemcpyHostToHost && in_symbol(src, bytes);
        if (to) return pw_simt_memcpy_to_symbol(dst, src, bytes, 0);
        if (from) return pw_simt_memcpy_from_symbol(dst, src, bytes, 0);
    }
    return pw_simt_memcpy(dst, src, bytes, kind);
}

cudaError_t pw_simt_memset_sym(void *p, int value, size_t bytes)
{
    if (__atomic_load_n(&simt_nsymbols, __ATOMIC_ACQUIRE) && in_symbol(p, bytes)) {
        memset(p, value, bytes);
        return cudaSuccess;
    }
    return pw_simt_memset(p, value, bytes);
}

/* What CUDA 11 and later say of a pointer: memory the runtime did not
 * allocate is cudaMemoryTypeUnregistered with cudaSuccess (CUDA 10 returned
 * cudaErrorInvalidValue), its host address the pointer itself, unchecked,
 * as NVIDIA's documentation says; a pointer inside an allocation is that
 * allocation's kind, both addresses offset alike. With unified addressing
 * pinned host memory is usable by kernels at the same address. */
cudaError_t pw_simt_pointer_get_attributes(struct cudaPointerAttributes *a, const void *p)
{
    if (!a) return simt_last_error = cudaErrorInvalidValue;
    memset(a, 0, sizeof *a);
    pthread_mutex_lock(&simt_state_lock);
    long i = simt_find_alloc(p, 0);
    int kind = i >= 0 ? simt_allocs[i].kind : -1;
    pthread_mutex_unlock(&simt_state_lock);
    void *q = (void *)p;
    switch (kind) {
    case ALLOC_DEVICE: a->type = cudaMemoryTypeDevice, a->device = 0, a->devicePointer = q; break;
    case ALLOC_MANAGED: a->type = cudaMemoryTypeManaged, a->device = 0, a->devicePointer = q, a->hostPointer = q; break;
    case ALLOC_HOST: a->type = cudaMemoryTypeHost, a->device = 0, a->devicePointer = q, a->hostPointer = q; break;
    default: a->type = cudaMemoryTypeUnregistered, a->device = -2, a->hostPointer = q; break;
    }
    return cudaSuccess;
}
