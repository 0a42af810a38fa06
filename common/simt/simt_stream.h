/* common/simt/simt_stream.h: the C functions behind CUDA's streams, events,
 * host callbacks, asynchronous copies and cooperative launches on the SIMT
 * emulator (simt_stream.c, simt_grid.c; the C++ faces with CUDA's names are
 * simt_cuda_stream.h). simt.h includes it inside its extern "C"; not a
 * header to include on its own.
 *
 * Work issued to a stream is queued and runs on the emulated device's own
 * thread, in the order issued (simt_stream.c says how, and where the host
 * waits for it). */
#ifndef PW_SIMT_STREAM_H
#define PW_SIMT_STREAM_H

/* flags: cudaStreamNonBlocking (1) or 0 */
cudaError_t pw_simt_stream_create_with_flags(cudaStream_t *s, unsigned flags);
cudaError_t pw_simt_stream_get_flags(cudaStream_t s, unsigned *flags);
/* cudaSuccess when all its work has finished, else cudaErrorNotReady */
cudaError_t pw_simt_stream_query(cudaStream_t s);
cudaError_t pw_simt_stream_wait_event(cudaStream_t s, cudaEvent_t e, unsigned flags);
/* fn(data) on the device thread, after the stream's earlier work (cudaLaunchHostFunc) */
cudaError_t pw_simt_launch_host_func(cudaStream_t s, void (*fn)(void *), void *data);
/* cb(s, the device's last error, data), the same way (cudaStreamAddCallback; flags must be 0) */
cudaError_t pw_simt_stream_add_callback(cudaStream_t s, void (*cb)(cudaStream_t, cudaError_t, void *), void *data,
                                        unsigned flags);
cudaError_t pw_simt_memcpy_async(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s);
cudaError_t pw_simt_memset_async(void *p, int value, size_t bytes, cudaStream_t s);

/* flags: cudaEventDisableTiming (2), cudaEventBlockingSync (1, no difference here) */
cudaError_t pw_simt_event_create_with_flags(cudaEvent_t *e, unsigned flags);
/* cudaSuccess when its last record has run (or it was never recorded), else cudaErrorNotReady */
cudaError_t pw_simt_event_query(cudaEvent_t e);

/* The last error as it stands, without waiting for the device (what a
 * launch function returns: its own error; cudaGetLastError waits). */
cudaError_t pw_simt_peek_error_now(void);
/* ... and cleared (C++'s cudaGetLastError; pw_simt_get_last_error waits first) */
cudaError_t pw_simt_get_last_error_now(void);

/* ---- cooperative launches (simt_grid.c) ---- */

/* pw_simt_launch, with every block of the grid alive at once (cudaLaunchCooperativeKernel,
 * which first checks the grid fits: pw_simt_cooperative_fits). */
void pw_simt_launch_cooperative(const pw_simt_config *cfg, void (*thunk)(void *), void *args, size_t args_bytes);
/* Whether blocks blocks of per_sm_blocks per multiprocessor fit the device at once; if not, the
 * launch's error (cudaErrorCooperativeLaunchTooLarge, recorded and said on stderr). */
cudaError_t pw_simt_cooperative_fits(const char *kernel, long long blocks, int per_sm_blocks);
/* The name of the kernel at fn, for messages (from the program's symbols), else fallback. */
const char *pw_simt_kernel_name(const void *fn, const char *fallback);
/* grid.sync(): every thread of every block of a cooperative launch meets here. */
void pw_simt_grid_sync(const char *file, int line);
/* Whether the running kernel was launched cooperatively (grid_group::is_valid). */
int pw_simt_grid_is_valid(void);

#endif
