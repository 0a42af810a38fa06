/* common/simt/simt_cuda_stream.h: CUDA's streams, events, host callbacks,
 * asynchronous copies and cooperative launches, with CUDA's names,
 * overloads and default arguments, on the C functions of simt_stream.h.
 * One part of common/simt/simt_cuda.h, which includes it after
 * simt_cuda_host.h; not a header to include on its own.
 *
 * As on a GPU, work issued to a stream is queued and the host goes on: a
 * launch, cudaMemcpyAsync and cudaMemsetAsync, cudaEventRecord,
 * cudaLaunchHostFunc and cudaStreamAddCallback return at once, and the
 * emulated device (its own thread) runs each stream's work in order.
 * cudaStreamQuery and cudaEventQuery say cudaErrorNotReady until it has;
 * the synchronise calls wait for it and return the kernels' error, if one
 * stopped a kernel. simt_stream.c says how and where the host waits. */
#ifndef PW_SIMT_CUDA_STREAM_H
#define PW_SIMT_CUDA_STREAM_H
#ifndef PW_SIMT_CUDA_H
#error "simt_cuda_stream.h is a part of simt_cuda.h: include simt_cuda.h"
#endif

/* the default stream's other names (driver_types.h) */
#ifndef cudaStreamLegacy
#define cudaStreamLegacy ((cudaStream_t)0x1)
#endif
#ifndef cudaStreamPerThread
#define cudaStreamPerThread ((cudaStream_t)0x2)
#endif
/* the calling convention of a host callback (host_defines.h: empty but on 32-bit Windows) */
#ifndef CUDART_CB
#define CUDART_CB
#endif
#ifndef cudaErrorNotPermitted
#define cudaErrorNotPermitted ((cudaError_t)800)
#endif

/* -- copies: queued on the stream (synchronous for pageable host memory, as CUDA's are) -- */
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                          cudaStream_t stream = 0)
{
    return pw_simt_memcpy_async(dst, src, bytes, kind, stream);
}
static inline cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t stream = 0)
{
    return pw_simt_memset_async(p, value, bytes, stream);
}

/* -- streams -- */
static inline cudaError_t cudaStreamCreate(cudaStream_t *s) { return pw_simt_stream_create(s); }
static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    return pw_simt_stream_create_with_flags(s, flags);
}
/* One priority: the device runs its work in the order issued. */
static inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority)
{
    (void)priority;
    return pw_simt_stream_create_with_flags(s, flags);
}
static inline cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}
static inline cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags) { return pw_simt_stream_get_flags(s, flags); }
static inline cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority)
{
    (void)s;
    *priority = 0;
    return cudaSuccess;
}
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) { return pw_simt_stream_destroy(s); }
static inline cudaError_t cudaStreamSynchronize(cudaStream_t s) { return pw_simt_stream_synchronize(s); }
static inline cudaError_t cudaStreamQuery(cudaStream_t s) { return pw_simt_stream_query(s); }
static inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags = 0)
{
    return pw_simt_stream_wait_event(s, e, flags);
}
static inline cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *userData)
{
    return pw_simt_launch_host_func(s, fn, userData);
}
static inline cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *userData, unsigned flags)
{
    return pw_simt_stream_add_callback(s, cb, userData, flags);
}

/* -- events -- */
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { return pw_simt_event_create(e); }
static inline cudaError_t cudaEventCreate(cudaEvent_t *e, unsigned flags) { return pw_simt_event_create_with_flags(e, flags); }
static inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    return pw_simt_event_create_with_flags(e, flags);
}
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0) { return pw_simt_event_record(e, s); }
static inline cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s = 0, unsigned flags = 0)
{
    (void)flags;
    return pw_simt_event_record(e, s);
}
static inline cudaError_t cudaEventQuery(cudaEvent_t e) { return pw_simt_event_query(e); }
static inline cudaError_t cudaEventSynchronize(cudaEvent_t e) { return pw_simt_event_synchronize(e); }
/* Real time on this machine between the two records' runs: the emulator's
 * time, not a GPU's (a GPU's comes from the GPU model, common/gpu_model.h). */
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    return pw_simt_event_elapsed_time(ms, start, stop);
}
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { return pw_simt_event_destroy(e); }

/* -- cooperative launches: every block alive at once, so grid.sync() works (simt_grid.c) -- */
namespace pw {
template <class... P, size_t... I>
static inline void launch_cooperative_unpacked(void (*func)(P...), const launch_config &c, void **args,
                                               std::index_sequence<I...>)
{
    /* what pw::launch does (simt_device.h), for pw_simt_launch_cooperative */
    using F = void (*)(P...);
    struct state {
        F call;
        std::tuple<typename std::decay<P>::type...> args;
    } st{ func, std::tuple<typename std::decay<P>::type...>(*static_cast<typename std::decay<P>::type *>(args[I])...) };
    pw_simt_config cfg = { pw_simt_kernel_name((const void *)func, "cudaLaunchCooperativeKernel"), c.grid, c.block,
                           c.shmem, c.stream };
    pw_simt_launch_cooperative(&cfg, [](void *p) { state *s = static_cast<state *>(p); std::apply(s->call, s->args); },
                               &st, sizeof st);
}
}  // namespace pw
/* The grid must fit the device at once: at most the kernel's occupancy
 * (cudaOccupancyMaxActiveBlocksPerMultiprocessor) times the
 * multiprocessors, else cudaErrorCooperativeLaunchTooLarge. */
template <class... P>
static inline cudaError_t cudaLaunchCooperativeKernel(void (*func)(P...), dim3 grid, dim3 block, void **args,
                                                      size_t sharedMem = 0, cudaStream_t stream = 0)
{
    int per_sm = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, (int)(block.x * block.y * block.z),
                                                                  sharedMem);
    if (e != cudaSuccess)
        return e;
    e = pw_simt_cooperative_fits(pw_simt_kernel_name((const void *)func, "cudaLaunchCooperativeKernel"),
                                 (long long)grid.x * grid.y * grid.z, per_sm);
    if (e != cudaSuccess)
        return e;
    pw::launch_cooperative_unpacked(func, pw::config(grid, block, sharedMem, stream), args,
                                    std::index_sequence_for<P...>{});
    return pw_simt_peek_error_now();   /* the launch's own error: the host does not wait for the kernel */
}
/* (void *)kernel, as NVIDIA's samples write it: the emulator unpacks the
 * arguments by the kernel's parameter types, which a void * has lost. */
template <class T, class = typename std::enable_if<!std::is_function<T>::value>::type>
static inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args, size_t sharedMem = 0,
                                                      cudaStream_t stream = 0)
{
    static_assert(pw::cu::dependent_false<T>::value,
                  "SIMT emulator: cudaLaunchCooperativeKernel((void *)kernel, ...) is not supported yet: pass the "
                  "kernel itself, cudaLaunchCooperativeKernel(kernel, ...), so its parameter types are known");
    (void)func, (void)grid, (void)block, (void)args, (void)sharedMem, (void)stream;
    return cudaErrorNotSupported;
}

#endif
