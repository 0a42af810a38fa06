/* common/simt/cuda/helper_cuda.h: what sample programs use of cuda-samples'
 * Common/helper_cuda.h, on the SIMT emulator:
 *   checkCudaErrors(call)   the call's error, if any, with its file:line,
 *                           name and text, then exit(EXIT_FAILURE);
 *   getLastCudaError(msg)   the same for cudaGetLastError() after a launch;
 *   findCudaDevice(argc, argv)  device 0 (the emulator), its name printed.
 * A program given cuda-samples' own Common/ (-I Common) gets that
 * helper_cuda.h instead, which builds unmodified on the emulator too. */
#ifndef PW_CUDA_HELPER_CUDA_H
#define PW_CUDA_HELPER_CUDA_H

#include <stdio.h>
#include <stdlib.h>

#include "helper_string.h"
#include "simt.h"

#ifndef EXIT_WAIVED
#define EXIT_WAIVED 2
#endif
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

static inline const char *_cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }

template <class T> static inline void check(T result, const char *const func, const char *const file, const int line)
{
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\": %s\n", file, line, (int)result,
                cudaGetErrorName((cudaError_t)result), func, cudaGetErrorString((cudaError_t)result));
        exit(EXIT_FAILURE);
    }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

static inline void __getLastCudaError(const char *errorMessage, const char *file, const int line)
{
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "%s(%i) : getLastCudaError() CUDA error : %s : (%d) %s: %s.\n", file, line, errorMessage,
                (int)err, cudaGetErrorName(err), cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}
#define getLastCudaError(msg) __getLastCudaError(msg, __FILE__, __LINE__)

static inline void __printLastCudaError(const char *errorMessage, const char *file, const int line)
{
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        fprintf(stderr, "%s(%i) : getLastCudaError() CUDA error : %s : (%d) %s: %s.\n", file, line, errorMessage,
                (int)err, cudaGetErrorName(err), cudaGetErrorString(err));
}
#define printLastCudaError(msg) __printLastCudaError(msg, __FILE__, __LINE__)

/* FP32 cores per multiprocessor for a compute capability (the CUDA C++
 * Programming Guide's "Arithmetic Instructions" table, as cuda-samples'
 * helper_cuda.h has it); 128 for one it does not list. */
static inline int _ConvertSMVer2Cores(int major, int minor)
{
    static const struct { int sm, cores; } table[] = {
        { 0x30, 192 }, { 0x32, 192 }, { 0x35, 192 }, { 0x37, 192 }, { 0x50, 128 }, { 0x52, 128 }, { 0x53, 128 },
        { 0x60, 64 },  { 0x61, 128 }, { 0x62, 128 }, { 0x70, 64 },  { 0x72, 64 },  { 0x75, 64 },  { 0x80, 64 },
        { 0x86, 128 }, { 0x87, 128 }, { 0x89, 128 }, { 0x90, 128 }, { 0xa0, 128 }, { 0xc0, 128 },
    };
    int sm = (major << 4) + minor;
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].sm == sm)
            return table[i].cores;
    return 128;
}
/* The architecture's name (the emulator reports its device file's compute
 * capability: 9.0, Hopper, by default). */
static inline const char *_ConvertSMVer2ArchName(int major, int minor)
{
    int sm = major * 10 + minor;
    return sm >= 100 ? "Blackwell" : sm >= 90 ? "Hopper" : sm == 89 ? "Ada" : sm >= 80 ? "Ampere"
         : sm == 75 ? "Turing" : sm >= 70 ? "Volta" : sm >= 60 ? "Pascal" : sm >= 50 ? "Maxwell" : "Kepler";
}
static inline int gpuDeviceInit(int devID)
{
    int n = 0;
    checkCudaErrors(cudaGetDeviceCount(&n));
    if (devID < 0 || devID >= n) {
        fprintf(stderr, "gpuDeviceInit() device %d is not one of the %d device(s)\n", devID, n);
        return -devID;
    }
    checkCudaErrors(cudaSetDevice(devID));
    return devID;
}
static inline int gpuGetMaxGflopsDeviceId(void) { return 0; }
/* The device to use: -device=N if given, else device 0. */
static inline int findCudaDevice(int argc, const char **argv)
{
    int dev = checkCmdLineFlag(argc, argv, "device") ? getCmdLineArgumentInt(argc, argv, "device") : 0;
    dev = gpuDeviceInit(dev);
    if (dev < 0)
        exit(EXIT_FAILURE);
    cudaDeviceProp p;
    checkCudaErrors(cudaGetDeviceProperties(&p, dev));
    printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", dev, p.name, p.major, p.minor);
    return dev;
}
static inline bool checkCudaCapabilities(int major, int minor)
{
    cudaDeviceProp p;
    checkCudaErrors(cudaGetDeviceProperties(&p, 0));
    if (p.major > major || (p.major == major && p.minor >= minor))
        return true;
    printf("  No GPU device was found that can support CUDA compute capability %d.%d (the SIMT emulator reports %d.%d: "
           "PW_SIMT_DEVICE picks its device file).\n", major, minor, p.major, p.minor);
    return false;
}

#endif
