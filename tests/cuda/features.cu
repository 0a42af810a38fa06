// features.cu: a grab bag of the CUDA C++ that real programs use, each item
// small, checked, and printed as one deterministic line:
//   __constant__ memory (cudaMemcpyToSymbol), a __device__ global
//   (cudaMemcpyFromSymbol), float4/int2 and make_*, __launch_bounds__, a
//   constexpr array size and a struct passed by value, reference
//   parameters, a namespace, a lambda, __host__ __device__ functions, 3-D
//   indices, every integer atomic, __syncthreads_count/and/or, __ldg,
//   min/max, bit intrinsics, fast-math intrinsics, __threadfence (last
//   block), warp votes/shuffles/__match_any_sync/__reduce_*_sync (sm_80+),
//   clock64, error names (an invalid launch, an invalid device),
//   cudaMemGetInfo, managed memory, 64 KiB of dynamic shared memory
//   (cudaFuncSetAttribute), cudaDeviceReset.
// The last line is "features: PASS N of N checks"; the exit status is 1 if
// any check failed. Build for sm_80 or newer (__reduce_add_sync).
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,   \
                    #call, cudaGetErrorName(err_));                         \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

static int checks = 0, failures = 0;

// One line per check: "name: PASS details" or "name: FAIL details".
static bool report(const char *name, bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s: %s ", name, ok ? "PASS" : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    checks++;
    failures += !ok;
    return ok;
}

// ---- __constant__ memory ---------------------------------------------------------
__constant__ float coef[4];  // y = c0 + c1 x + c2 x^2 + c3 x^3

__global__ void polynomial(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]));
    }
}

static void testConstant()
{
    const float h_coef[4] = {1.0f, 0.5f, 0.25f, 0.125f};  // dyadic: exact with or without FMA
    CHECK(cudaMemcpyToSymbol(coef, h_coef, sizeof h_coef));
    float x[8], y[8], *d_x, *d_y;
    for (int i = 0; i < 8; i++)
        x[i] = (float)i;
    CHECK(cudaMalloc(&d_x, sizeof x));
    CHECK(cudaMalloc(&d_y, sizeof y));
    CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    polynomial<<<1, 32>>>(d_x, d_y, 8);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 8; i++)
        ok &= y[i] == 1.0f + x[i] / 2 + x[i] * x[i] / 4 + x[i] * x[i] * x[i] / 8;
    report("constant", ok, "y(0..7) = %g %g %g %g %g %g %g %g", y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
}

// ---- a __device__ global, set and read with the *Symbol calls --------------------
__device__ int counter;

__global__ void countEven(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && v[i] % 2 == 0)
        atomicAdd(&counter, 1);
}

static void testDeviceGlobal()
{
    const int n = 1000;
    int h[n], *d, start = 5, got = 0;
    for (int i = 0; i < n; i++)
        h[i] = i * 3;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(counter, &start, sizeof start));
    countEven<<<(n + 127) / 128, 128>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyFromSymbol(&got, counter, sizeof got));
    report("device global", got == 505, "counter = %d (5 + 500 even numbers)", got);
    CHECK(cudaFree(d));
}

// ---- vector types, __launch_bounds__ ---------------------------------------------
__global__ void __launch_bounds__(256) reverseFloat4(const float4 *in, float4 *out, float *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];  // one 16-byte load
        out[i] = make_float4(v.w, v.z, v.y, v.x);
        sums[i] = v.x + v.y + v.z + v.w;
    }
}

__global__ void swapPairs(int2 *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int2 v = p[i];
        p[i] = make_int2(v.y, -v.x);
    }
}

static void testVectors()
{
    const int n = 1000;
    float4 *h = (float4 *)malloc(n * sizeof(float4)), *r = (float4 *)malloc(n * sizeof(float4));
    float *s = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = make_float4(4.0f * i, 4.0f * i + 1, 4.0f * i + 2, 4.0f * i + 3);
    float4 *d_in, *d_out;
    float *d_s;
    CHECK(cudaMalloc(&d_in, n * sizeof(float4)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float4)));
    CHECK(cudaMalloc(&d_s, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h, n * sizeof(float4), cudaMemcpyHostToDevice));
    reverseFloat4<<<(n + 255) / 256, 256>>>(d_in, d_out, d_s, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, d_out, n * sizeof(float4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(s, d_s, n * sizeof(float), cudaMemcpyDeviceToHost));
    bool ok = sizeof(float4) == 16 && alignof(float4) == 16;
    for (int i = 0; i < n; i++)
        ok &= r[i].x == h[i].w && r[i].y == h[i].z && r[i].z == h[i].y && r[i].w == h[i].x &&
              s[i] == 16.0f * i + 6;
    report("float4", ok, "out[999] = (%g, %g, %g, %g), sum[999] = %g", r[999].x, r[999].y, r[999].z, r[999].w,
           s[999]);

    int2 p[100], *d_p;
    for (int i = 0; i < 100; i++)
        p[i] = make_int2(i, 1000 + i);
    CHECK(cudaMalloc(&d_p, sizeof p));
    CHECK(cudaMemcpy(d_p, p, sizeof p, cudaMemcpyHostToDevice));
    swapPairs<<<1, 128>>>(d_p, 100);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(p, d_p, sizeof p, cudaMemcpyDeviceToHost));
    ok = sizeof(int2) == 8;
    for (int i = 0; i < 100; i++)
        ok &= p[i].x == 1000 + i && p[i].y == -i;
    report("int2", ok, "p[7] = (%d, %d)", p[7].x, p[7].y);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_s));
    CHECK(cudaFree(d_p));
    free(h);
    free(r);
    free(s);
}

// ---- constexpr sizes, a struct by value, references, a namespace, a lambda -------
constexpr int N = 16;
struct Weights {
    int w[N];  // 64 bytes copied into the kernel's parameters
    int bias;
};

__device__ void accumulate(int &acc, int v) { acc += v; }

__device__ __forceinline__ void widen(int v, int &lo, int &hi)
{
    if (v < lo)
        lo = v;
    if (v > hi)
        hi = v;
}

// out[t] = bias + t + sum_k in[k] * w[k]; range = (min, max) of the products.
__global__ void weightedSum(const int in[N], Weights s, int *out, int2 *range)
{
    int local[N];  // a private array per thread
    for (int k = 0; k < N; k++)
        local[k] = in[k] * s.w[k];
    int acc = 0, lo = local[0], hi = local[0];
    for (int k = 0; k < N; k++) {
        accumulate(acc, local[k]);
        widen(local[k], lo, hi);
    }
    out[threadIdx.x] = s.bias + (int)threadIdx.x + acc;
    if (threadIdx.x == 0)
        *range = make_int2(lo, hi);
}

namespace pw {
namespace detail {
__host__ __device__ int collatzSteps(int x)
{
    int steps = 0;
    while (x != 1) {
        x = (x % 2) ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}
} // namespace detail

__global__ void collatz(int *out, int n)
{
    auto plusOne = [](int x) { return x + 1; };  // a lambda inside device code
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = detail::collatzSteps(plusOne(i));
}
} // namespace pw

static void testLanguage()
{
    int h_in[N], *d_in, *d_out, out[4];
    int2 *d_range, range;
    Weights s;
    int want = 0;
    for (int k = 0; k < N; k++) {
        h_in[k] = k + 1;
        s.w[k] = k % 3 - 1;
        want += h_in[k] * s.w[k];
    }
    s.bias = 100;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMalloc(&d_range, sizeof range));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    weightedSum<<<1, 4>>>(d_in, s, d_out, d_range);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&range, d_range, sizeof range, cudaMemcpyDeviceToHost));
    bool ok = range.x == -16 && range.y == 15;
    for (int t = 0; t < 4; t++)
        ok &= out[t] == 100 + t + want;
    report("struct by value", ok, "out = %d %d %d %d, products in [%d, %d]", out[0], out[1], out[2], out[3],
           range.x, range.y);

    const int n = 30;
    int steps[n], *d_steps;
    CHECK(cudaMalloc(&d_steps, sizeof steps));
    pw::collatz<<<1, 32>>>(d_steps, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(steps, d_steps, sizeof steps, cudaMemcpyDeviceToHost));
    ok = true;
    int most = 0;
    for (int i = 0; i < n; i++) {
        ok &= steps[i] == pw::detail::collatzSteps(i + 1);
        if (steps[i] > steps[most])
            most = i;
    }
    report("namespace", ok, "collatz steps of 1..30: the most, %d, for %d", steps[most], most + 1);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_range));
    CHECK(cudaFree(d_steps));
}

// ---- 3-D grids and blocks ----------------------------------------------------------
__global__ void index3d(int *out)
{
    int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int threads = blockDim.x * blockDim.y * blockDim.z;
    out[block * threads + thread] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z + 1000 * blockIdx.x +
                                    10000 * blockIdx.y + 100000 * blockIdx.z;
}

static void test3d()
{
    dim3 grid(2, 3, 2), block(4, 3, 2);
    const int total = 12 * 24;
    int out[total], *d;
    CHECK(cudaMalloc(&d, sizeof out));
    index3d<<<grid, block>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    bool ok = true;
    long long sum = 0;
    for (int i = 0; i < total; i++) {
        int t = i % 24, b = i / 24;
        ok &= out[i] == t % 4 + 10 * (t / 4 % 3) + 100 * (t / 12) + 1000 * (b % 2) + 10000 * (b / 2 % 3) +
                            100000 * (b / 6);
        sum += out[i];
    }
    report("3-D indices", ok, "grid (2,3,2) x block (4,3,2): out[last] = %d, sum = %lld", out[total - 1], sum);
    CHECK(cudaFree(d));
}

// ---- atomics ---------------------------------------------------------------------------
// r: 0 min, 1 max, 2 sub, 3 and, 4 or, 5 xor, 6 inc, 7 exch, 8 exch saw 0,
//    9 cas, 10 cas winners, 11 dec; r64: 64-bit add; rf: float add.
__global__ void atomics(int *r, unsigned int *u, unsigned long long *r64, float *rf)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMin(&r[0], (t * 37 + 11) % 257 + 3);
    atomicMax(&r[1], (t * 37 + 11) % 257 + 3);
    atomicSub(&r[2], t);
    atomicAnd(&u[3], ~(1u << (t % 24)));
    atomicOr(&u[4], 1u << (t % 20));
    atomicXor(&u[5], (unsigned)(t * t));
    atomicInc(&u[6], 99u);  // counts 0..99, then wraps to 0
    if (atomicExch(&r[7], 42) == 0)
        atomicAdd(&r[8], 1);  // exactly one thread sees the initial 0
    if (atomicCAS(&r[9], -1, t) == -1)
        atomicAdd(&r[10], 1);  // exactly one thread wins
    atomicDec(&u[11], 20u);    // 10, 9, ..., 0, 20, 19, ...
    atomicAdd(r64, (1ull << 33) + (unsigned long long)t);
    atomicAdd(rf, 0.5f);
}

static void testAtomics()
{
    int r[12] = {1000, -1000, 100000, -1, 0, 0, 0, 0, 0, -1, 0, 10};
    unsigned long long r64 = 0;
    float rf = 0;
    int *d_r;
    unsigned long long *d_r64;
    float *d_rf;
    CHECK(cudaMalloc(&d_r, sizeof r));
    CHECK(cudaMalloc(&d_r64, sizeof r64));
    CHECK(cudaMalloc(&d_rf, sizeof rf));
    CHECK(cudaMemcpy(d_r, r, sizeof r, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_r64, &r64, sizeof r64, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_rf, &rf, sizeof rf, cudaMemcpyHostToDevice));
    atomics<<<4, 64>>>(d_r, (unsigned int *)d_r, d_r64, d_rf);  // 256 threads
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, d_r, sizeof r, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&r64, d_r64, sizeof r64, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&rf, d_rf, sizeof rf, cudaMemcpyDeviceToHost));

    int mn = 1000, mx = -1000;
    unsigned x = 0;
    for (int t = 0; t < 256; t++) {
        int v = (t * 37 + 11) % 257 + 3;
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
        x ^= (unsigned)(t * t);
    }
    const unsigned *u = (const unsigned *)r;
    bool ok = r[0] == mn && r[1] == mx && r[2] == 100000 - 32640 && u[3] == 0xff000000u && u[4] == 0xfffffu &&
              u[5] == x && u[6] == 56 && r[7] == 42 && r[8] == 1 && r[9] >= 0 && r[9] < 256 && r[10] == 1 &&
              u[11] == 6 && r64 == 256ull * (1ull << 33) + 32640 && rf == 128.0f;
    report("atomics", ok,
           "min %d max %d sub %d and %08x or %05x xor %08x inc %u exch %d (old 0 seen %d) cas winners %d "
           "dec %u add64 %llu addf %g",
           r[0], r[1], r[2], u[3], u[4], u[5], u[6], r[7], r[8], r[10], u[11], r64, rf);
    CHECK(cudaFree(d_r));
    CHECK(cudaFree(d_r64));
    CHECK(cudaFree(d_rf));
}

// ---- barrier votes, __ldg, min/max, bit and fast-math intrinsics, clock64 --------
__global__ void barrierVotes(int *out)
{
    int t = threadIdx.x;
    int count = __syncthreads_count(t % 3 == 0);
    int all = __syncthreads_and(t < 256) != 0;
    int notAll = __syncthreads_and(t != 200) != 0;
    int any = __syncthreads_or(t == 200) != 0;
    int none = __syncthreads_or(t > 1000) != 0;
    if (t == 0) {
        out[0] = count;
        out[1] = all;
        out[2] = notAll;
        out[3] = any;
        out[4] = none;
    }
}

__global__ void reverseLdg(const int *__restrict__ in, int *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __ldg(&in[n - 1 - i]);  // through the read-only cache
}

// i: 0..13 integer results, f: 0..5 float results, ticks: clock64 went forward.
__global__ void intrinsics(const float *three, int *i, unsigned long long *u, float *f, int *ticks)
{
    long long t0 = clock64();
    i[0] = min(3, -4);
    i[1] = max(-7, 2);
    i[2] = (int)min(7u, 9u);
    i[3] = __popc(0xF0F0F0F0u);
    i[4] = __popcll(0x00FF00FF00FF00FFull);
    i[5] = __clz(1);
    i[6] = __clz(0);
    i[7] = __clzll(1ull);
    i[8] = __ffs(0);
    i[9] = __ffs(8);
    i[10] = __ffs((int)0x80000000u);
    i[11] = __ffsll(1ll << 40);
    u[0] = __brev(1u);
    u[1] = __brev(0x0000FFFFu);
    u[2] = __brevll(3ull);
    f[0] = min(2.5f, -1.0f);
    f[1] = max(2.5f, -1.0f);
    f[2] = (float)max(0.25, 0.125);
    f[3] = __expf(1.0f);
    f[4] = rsqrtf(*three + 1.0f);
    f[5] = __fdividef(1.0f, *three);
    long long t1 = clock64();
    *ticks = t1 >= t0;
}

static void testIntrinsics()
{
    int out[5], *d_out;
    CHECK(cudaMalloc(&d_out, sizeof out));
    barrierVotes<<<1, 256>>>(d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    report("__syncthreads_count/and/or", out[0] == 86 && out[1] == 1 && out[2] == 0 && out[3] == 1 && out[4] == 0,
           "count %d, and %d %d, or %d %d", out[0], out[1], out[2], out[3], out[4]);

    const int n = 300;
    int h[n], r[n], *d_in, *d_r;
    for (int k = 0; k < n; k++)
        h[k] = k * k;
    CHECK(cudaMalloc(&d_in, sizeof h));
    CHECK(cudaMalloc(&d_r, sizeof r));
    CHECK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice));
    reverseLdg<<<(n + 127) / 128, 128>>>(d_in, d_r, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, d_r, sizeof r, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int k = 0; k < n; k++)
        ok &= r[k] == h[n - 1 - k];
    report("__ldg", ok, "out[0] = %d, out[299] = %d", r[0], r[n - 1]);

    int iv[12], *d_i, ticks, *d_ticks;
    unsigned long long uv[3], *d_u;
    float fv[6], *d_f, three = 3.0f, *d_three;
    CHECK(cudaMalloc(&d_i, sizeof iv));
    CHECK(cudaMalloc(&d_u, sizeof uv));
    CHECK(cudaMalloc(&d_f, sizeof fv));
    CHECK(cudaMalloc(&d_ticks, sizeof ticks));
    CHECK(cudaMalloc(&d_three, sizeof three));
    CHECK(cudaMemcpy(d_three, &three, sizeof three, cudaMemcpyHostToDevice));
    intrinsics<<<1, 1>>>(d_three, d_i, d_u, d_f, d_ticks);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(iv, d_i, sizeof iv, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(uv, d_u, sizeof uv, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(fv, d_f, sizeof fv, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&ticks, d_ticks, sizeof ticks, cudaMemcpyDeviceToHost));
    report("min/max", iv[0] == -4 && iv[1] == 2 && iv[2] == 7 && fv[0] == -1.0f && fv[1] == 2.5f && fv[2] == 0.25f,
           "%d %d %d %g %g %g", iv[0], iv[1], iv[2], fv[0], fv[1], fv[2]);
    report("bit intrinsics",
           iv[3] == 16 && iv[4] == 32 && iv[5] == 31 && iv[6] == 32 && iv[7] == 63 && iv[8] == 0 && iv[9] == 4 &&
               iv[10] == 32 && iv[11] == 41 && uv[0] == 0x80000000u && uv[1] == 0xFFFF0000u &&
               uv[2] == 0xC000000000000000ull,
           "popc %d popcll %d clz %d %d clzll %d ffs %d %d %d ffsll %d brev %08llx %08llx brevll %016llx", iv[3],
           iv[4], iv[5], iv[6], iv[7], iv[8], iv[9], iv[10], iv[11], uv[0], uv[1], uv[2]);
    // Approximate intrinsics: a few ulp off the exact values, so compare with a
    // tolerance and print 4 decimals.
    auto close = [](float got, float want) { return got > want - 1e-5f && got < want + 1e-5f; };
    report("fast math", close(fv[3], 2.7182818f) && close(fv[4], 0.5f) && close(fv[5], 0.33333333f),
           "__expf(1) %.4f rsqrtf(4) %.4f __fdividef(1, 3) %.4f", fv[3], fv[4], fv[5]);
    report("clock64", ticks == 1, "does not go backwards");
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_r));
    CHECK(cudaFree(d_i));
    CHECK(cudaFree(d_u));
    CHECK(cudaFree(d_f));
    CHECK(cudaFree(d_ticks));
    CHECK(cudaFree(d_three));
}

// ---- __threadfence: the last block to finish adds up the others' sums ----------
__device__ unsigned int blocksDone;

__global__ void sumLastBlock(const int *in, volatile int *partial, int *result, int n)
{
    __shared__ int s[256];
    __shared__ bool amLast;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();  // the sum is visible to every block before the ticket is taken
        unsigned ticket = atomicInc(&blocksDone, gridDim.x);
        amLast = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (amLast && t == 0) {
        int total = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            total += partial[b];
        *result = total;
        blocksDone = 0;  // ready for the next launch
    }
}

static void testThreadfence()
{
    const int n = 10000, block = 256, grid = (n + block - 1) / block;
    int *h = (int *)malloc(n * sizeof(int)), *d_in, *d_partial, *d_result, result = 0;
    for (int i = 0; i < n; i++)
        h[i] = i % 100;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_partial, grid * sizeof(int)));
    CHECK(cudaMalloc(&d_result, sizeof(int)));
    CHECK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    bool ok = true;
    for (int rep = 0; rep < 2; rep++) {  // twice: the last block reset the ticket counter
        CHECK(cudaMemset(d_result, 0, sizeof(int)));
        sumLastBlock<<<grid, block>>>(d_in, d_partial, d_result, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(&result, d_result, sizeof(int), cudaMemcpyDeviceToHost));
        ok &= result == 495000;
    }
    report("__threadfence", ok, "last of %d blocks: total %d", grid, result);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_result));
    free(h);
}

// ---- warp-level primitives -----------------------------------------------------------
// Per lane: 0 match_any, 1 match_all (pred in 2), 3 ballot, 4 xor-butterfly sum,
// 5 broadcast of lane 5, 6 reduce_add, 7 reduce_max, 8 reduce_min, 9 any, 10 all.
__global__ void warpOps(unsigned *out)
{
    const unsigned full = 0xffffffffu;
    unsigned lane = threadIdx.x % warpSize;
    unsigned *o = out + 11 * lane;
    int pred = 0;
    o[0] = __match_any_sync(full, lane % 4);
    o[1] = __match_all_sync(full, 5, &pred);
    o[2] = pred;
    o[3] = __ballot_sync(full, lane & 1);
    unsigned v = lane;
    for (int m = 16; m > 0; m /= 2)
        v += __shfl_xor_sync(full, v, m);
    o[4] = v;
    o[5] = __shfl_sync(full, lane * 10, 5);
    o[6] = __reduce_add_sync(full, lane);
    o[7] = __reduce_max_sync(full, lane * 3);
    o[8] = __reduce_min_sync(full, lane + 5);
    o[9] = __any_sync(full, lane == 17) != 0;
    o[10] = __all_sync(full, lane < 31) != 0;
}

static void testWarp()
{
    unsigned out[32 * 11], *d;
    CHECK(cudaMalloc(&d, sizeof out));
    warpOps<<<1, 32>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    bool ok = true, reduceOk = true;
    for (unsigned l = 0; l < 32; l++) {
        const unsigned *o = out + 11 * l;
        ok &= o[0] == 0x11111111u << (l % 4) && o[1] == 0xffffffffu && o[2] == 1 && o[3] == 0xaaaaaaaau &&
              o[4] == 496 && o[5] == 50 && o[9] == 1 && o[10] == 0;
        reduceOk &= o[6] == 496 && o[7] == 93 && o[8] == 5;
    }
    report("warp primitives", ok,
           "match_any lane 0 %08x lane 3 %08x, match_all %08x pred %u, ballot %08x, shfl_xor sum %u, shfl %u, "
           "any %u all %u",
           out[0], out[33], out[1], out[2], out[3], out[4], out[5], out[9], out[10]);
    report("__reduce_*_sync", reduceOk, "add %u max %u min %u", out[6], out[7], out[8]);
    CHECK(cudaFree(d));
}

// ---- runtime API: error names, memory info, managed memory, big shared memory -----
__global__ void square(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= x[i];
}

__global__ void bigShared(int *total, int words)
{
    extern __shared__ int big[];
    for (int k = threadIdx.x; k < words; k += blockDim.x)
        big[k] = k;
    __syncthreads();
    int sum = 0;  // each thread reads words another thread wrote
    for (int k = blockDim.x - 1 - threadIdx.x; k < words; k += blockDim.x)
        sum += big[words - 1 - k];
    atomicAdd(total, sum);
}

static void testRuntime()
{
    // A block of 2048 threads is too big on every GPU: the launch fails.
    int *d;
    CHECK(cudaMalloc(&d, 4096 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 4096 * sizeof(int)));
    square<<<1, 2048>>>(d, 4096);
    cudaError_t launch = cudaGetLastError();
    cudaError_t after = cudaGetLastError();  // the error is not sticky: cleared by the first call
    cudaError_t device = cudaSetDevice(1000);
    cudaGetLastError();
    report("error names",
           launch == cudaErrorInvalidConfiguration && after == cudaSuccess && device == cudaErrorInvalidDevice,
           "%s, %s, %s, %s", cudaGetErrorName(launch), cudaGetErrorName(after), cudaGetErrorName(device),
           cudaGetErrorName(cudaErrorInvalidValue));
    CHECK(cudaFree(d));

    size_t freeBytes = 0, totalBytes = 0;
    cudaError_t info = cudaMemGetInfo(&freeBytes, &totalBytes);
    report("cudaMemGetInfo", info == cudaSuccess && totalBytes > 0 && freeBytes <= totalBytes,
           "succeeded, free <= total");

    const int n = 1000;
    int *m;
    CHECK(cudaMallocManaged(&m, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        m[i] = i - 500;  // written by the host...
    square<<<(n + 255) / 256, 256>>>(m, n);  // ...squared by the device...
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());  // ...and read by the host once the device is done
    bool ok = true;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        ok &= m[i] == (i - 500) * (i - 500);
        sum += m[i];
    }
    report("managed memory", ok, "sum of squares %lld", sum);
    CHECK(cudaFree(m));

    // Beyond 48 KiB of dynamic shared memory a kernel must opt in.
    const int bytes = 64 * 1024, words = bytes / sizeof(int);
    int *d_total, total = 0;
    CHECK(cudaFuncSetAttribute(bigShared, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    CHECK(cudaMalloc(&d_total, sizeof(int)));
    CHECK(cudaMemset(d_total, 0, sizeof(int)));
    bigShared<<<1, 256, bytes>>>(d_total, words);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
    report("64 KiB dynamic shared memory", total == (words - 1) * words / 2, "sum 0..%d = %d", words - 1, total);
    CHECK(cudaFree(d_total));
}

int main()
{
    testConstant();
    testDeviceGlobal();
    testVectors();
    testLanguage();
    test3d();
    testAtomics();
    testIntrinsics();
    testThreadfence();
    testWarp();
    testRuntime();
    CHECK(cudaDeviceReset());
    printf("features: %s %d of %d checks\n", failures ? "FAIL" : "PASS", checks - failures, checks);
    return failures ? 1 : 0;
}
