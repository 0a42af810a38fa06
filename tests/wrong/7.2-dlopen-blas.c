/* tests/wrong/7.2-dlopen-blas.c: exercise 7.2 answered with OpenBLAS,
 * hidden from the symbols: the library is loaded at run time and
 * cblas_sgemm looked up by name, so no cblas_ symbol is in the object file
 * (tests/wrong/7.2-calls-openblas.c is the plain call). Where OpenBLAS
 * cannot be loaded it falls back to the loop order alone. Right and fast.
 * expect: FAIL: 7.2-dlopen-blas.c calls dl(open|sym)\(\): loading a library at run time */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "blocked.h"

typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);

void ex_gemm(int m, int n, int k, const float *A, const float *B, float *C)
{
    static sgemm_fn sgemm;
    static int tried;
    if (!tried) {
        tried = 1;
        void *lib = dlopen("libopenblas.so.0", RTLD_NOW);
        if (!lib) lib = dlopen("libopenblas.dylib", RTLD_NOW);
        if (lib) sgemm = (sgemm_fn)dlsym(lib, "cblas_sgemm");
    }
    if (sgemm) {
        sgemm(101, 111, 111, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n);   /* row-major, no transposes */
        return;
    }
    for (int i = 0; i < m; i++) {
        float *c = C + (long)i * n;
        for (int j = 0; j < n; j++) c[j] = 0;
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++) c[j] += A[(long)i * k + p] * B[(long)p * n + j];
    }
}
