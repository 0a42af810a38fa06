/* common/gpu_guard.cu: linked into every program nvcc builds for the
 * workbook (mk/cuda.mk, tests/cuda/run.sh --nvcc), never into the emulator
 * build. Before main runs, whatever the arguments (--help included), it asks
 * the CUDA runtime for a device; with none it prints one calm line on stderr
 * and exits 77, the status the tests and chapter scripts read as "skipped".
 *
 * Why before main: 22 of these programs are unmodified CUDA samples that
 * would otherwise fail on their first cudaMalloc with exit 1 and the driver's
 * text ("CUDA driver version is insufficient for CUDA runtime version"),
 * which reads like a bug to a newcomer on a laptop. The driver's text is
 * shown only with -v or --verbose among the arguments, or PW_VERBOSE=1.
 *
 * glibc passes argc, argv and envp to ELF constructors; elsewhere the
 * arguments are not looked at and only PW_VERBOSE counts. */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PW_EXIT_SKIP_GUARD 77

static int pw_guard_verbose(int argc, char **argv)
{
    const char *env = getenv("PW_VERBOSE");
    if (env && *env && strcmp(env, "0") != 0) return 1;
    for (int i = 1; argv && i < argc; i++)
        if (argv[i] && (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0)) return 1;
    return 0;
}

#if defined(__GLIBC__)
__attribute__((constructor)) static void pw_gpu_guard(int argc, char **argv, char **envp)
{
    (void)envp;
#else
__attribute__((constructor)) static void pw_gpu_guard(void)
{
    int argc = 0;
    char **argv = NULL;
#endif
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaSuccess && n > 0) return;
    const char *prog = argv && argc > 0 && argv[0] ? argv[0] : "this program";
    const char *slash = strrchr(prog, '/');
    if (slash) prog = slash + 1;
    if (pw_guard_verbose(argc, argv))
        fprintf(stderr, "%s: skipped (needs a GPU): no CUDA device (CUDA says: %s)\n", prog,
                e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    else
        fprintf(stderr, "%s: skipped (needs a GPU): no CUDA device; the emulator build runs the same kernels\n",
                prog);
    exit(PW_EXIT_SKIP_GUARD);
}
