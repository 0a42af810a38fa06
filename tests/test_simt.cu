/* tests/test_simt.c: the SIMT emulator behaves like a GPU where it matters.
 *
 * The kernels are in this file (the build generates their launchers from
 * it). Each test says what a GPU does and checks the emulator does it too:
 * indices, barriers, poisoned shared memory, every shuffle mode and width
 * against a table, votes, atomics with blocks on several OS threads, the
 * counters on patterns whose counts are known by hand, and an error (never a
 * hang) for divergent barriers, exited threads, bad masks and out-of-bounds
 * accesses. The last test prints the emulator's speed (not asserted). */
#include "simt.h"

#include "timing.h"
#include "unit.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* ---- kernels ------------------------------------------------------------------ */

/* Who ran where: each thread writes its coordinates at its global index. */
__global__ void who(int *out)
{
    int tpb = blockDim.x * blockDim.y * blockDim.z;
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int code = (((b * 16 + threadIdx.z) * 16 + threadIdx.y) * 16 + threadIdx.x);
    out[b * tpb + t] = code;
}

/* Reverse each block's slice through shared memory: needs the barrier. */
__global__ void reverse_block(const int *in, int *out)
{
    __shared__ int s[256];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[blockDim.x - 1 - t];
}

/* Reads shared memory before writing it: must see the poison, every block. */
__global__ void read_leftovers(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    out[blockIdx.x * blockDim.x + t] = s[t];
    s[t] = 1234;          /* what the next block must not see */
}

__global__ void read_dynamic_leftovers(float *out)
{
    extern __shared__ float s[];
    int t = threadIdx.x;
    out[blockIdx.x * blockDim.x + t] = s[t];
    s[t] = 1.0f;
}

__global__ void divergent_barrier(int *out)
{
    if (threadIdx.x < 16) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1;
}

__global__ void early_exit(const int *in, int *out, int n)
{
    __shared__ int s[64];
    int i = threadIdx.x;
    if (i >= n) return;          /* the classic: these threads never reach the barrier */
    s[i] = in[i];
    __syncthreads();
    out[i] = s[(i + 1) % n];
}

__global__ void half_warp_shuffle(int *out)
{
    int v = threadIdx.x;
    if (threadIdx.x < 16) v = __shfl_down_sync(0xffffffffu, v, 1);
    else __syncthreads();
    out[threadIdx.x] = v;
}

__global__ void mask_without_me(int *out)
{
    int v = __shfl_sync(0x0000ffffu, (int)threadIdx.x, 0);   /* lanes 16-31 are not in the mask */
    out[threadIdx.x] = v;
}

__global__ void mask_past_warp(int *out)
{
    int v = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);   /* block of 48: warp 1 has 16 lanes */
    out[threadIdx.x] = v;
}

__global__ void read_outside_mask(int *out)
{
    int v = 0;
    if (threadIdx.x < 8) v = __shfl_sync(0x000000ffu, (int)threadIdx.x, 9);
    out[threadIdx.x] = v;
}

__global__ void read_past_end(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) out[0] = in[i];    /* <= : one too many */
}

__global__ void read_host_memory(const float *in, float *out)
{
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void past_dynamic_shared(float *out)
{
    extern __shared__ float s[];
    s[threadIdx.x] = 1.0f;     /* launched with 16 floats of shared memory, 32 threads */
    out[threadIdx.x] = 0.0f;
}

/* One shuffle of each kind: out[k*32 + lane] for the k-th. */
__global__ void shuffles(int *out, int mode, int arg, int width)
{
    int lane = threadIdx.x, v = 100 + lane, r = 0;
    switch (mode) {
    case 0: r = __shfl_sync(0xffffffffu, v, arg, width); break;
    case 1: r = __shfl_up_sync(0xffffffffu, v, (unsigned)arg, width); break;
    case 2: r = __shfl_down_sync(0xffffffffu, v, (unsigned)arg, width); break;
    case 3: r = __shfl_xor_sync(0xffffffffu, v, arg, width); break;
    }
    out[lane] = r;
}

__global__ void shuffle_types(float *f, double *d, unsigned *u, long long *ll)
{
    int lane = threadIdx.x;
    f[lane] = __shfl_xor_sync(0xffffffffu, 0.5f + (float)lane, 1);
    d[lane] = __shfl_down_sync(0xffffffffu, 1e10 + (double)lane, 2, 16);
    u[lane] = __shfl_up_sync(0xffffffffu, 4000000000u + (unsigned)lane, 1);
    ll[lane] = __shfl_sync(0xffffffffu, (1LL << 40) + lane, 31 - lane);
}

__global__ void votes(unsigned *out)
{
    int lane = threadIdx.x % 32;
    unsigned b = __ballot_sync(0xffffffffu, lane % 3 == 0);
    int any = __any_sync(0xffffffffu, lane == 7);
    int all = __all_sync(0xffffffffu, lane < 31);
    int all2 = __all_sync(0xffffffffu, lane < 32);
    /* two half-warp groups, each its own mask */
    unsigned half = lane < 16 ? __ballot_sync(0x0000ffffu, lane & 1) : __ballot_sync(0xffff0000u, lane & 1);
    __syncwarp();
    if (threadIdx.x == 0) {
        out[0] = b;
        out[1] = (unsigned)any;
        out[2] = (unsigned)all;
        out[3] = (unsigned)all2;
        out[4] = half;
    }
    if (threadIdx.x == 16) out[5] = half;
}

__global__ void atomics(int *count, float *fsum, int *maxv, unsigned *cas_count, unsigned long long *big)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(count, 1);
    atomicAdd(fsum, 1.0f);
    atomicMax(maxv, (i * 7919) % 100003);
    /* an increment built from compare-and-swap, as a lock-free update is */
    unsigned old = atomicAdd(cas_count, 0u), seen;   /* an atomic read: a plain one would race */
    while ((seen = atomicCAS(cas_count, old, old + 1)) != old) old = seen;
    atomicAdd(big, 1ULL << 33);
}

/* Shared-memory atomics: a histogram per block, then added to the total. */
__global__ void histogram(const int *in, int *hist, int n)
{
    __shared__ int local[8];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 8) local[t] = 0;
    __syncthreads();
    if (i < n) atomicAdd(&local[in[i] & 7], 1);
    __syncthreads();
    if (t < 8) atomicAdd(&hist[t], local[t]);
}

/* Warp access patterns with known counts. */
__global__ void load_stride(const float *in, float *out, int stride)
{
    int t = threadIdx.x;
    out[t] = in[t * stride];
}

__global__ void tile_column(float *out, int pad)
{
    __shared__ float tile[32 * 33];
    int t = threadIdx.x, w = 32 + pad;
    for (int r = 0; r < 32; r++) tile[r * w + t] = (float)(r * 32 + t);   /* rows: no conflict */
    __syncthreads();
    out[t] = tile[t * w + 5];                                       /* column 5 */
}

__global__ void broadcast(const float *in, float *out)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[3];      /* every lane the same word */
}

__global__ void branch_on_lane(float *out)
{
    int t = threadIdx.x;
    if (t % 2 == 0) out[t] = 1.0f;
    else out[t] = 2.0f;
}

__global__ void branch_on_warp(float *out)
{
    int t = threadIdx.x;
    if ((t / 32) % 2 == 0) out[t] = 1.0f;
    else out[t] = 2.0f;
}

/* Each thread reads its neighbour's value without a barrier: a race. */
__global__ void racy_neighbour(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    out[t] = s[(t + 1) % 64];
}

__global__ void many_barriers(int *out, int rounds)
{
    int t = threadIdx.x, x = 0;
    for (int r = 0; r < rounds; r++) {
        x += t;
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = x;
}

/* ---- helpers -------------------------------------------------------------------- */

static void *dev(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
}

/* The message of the failed launch contains every piece; the error is cleared. */
static int failed_with(cudaError_t want, const char *const *pieces)
{
    cudaError_t e = cudaGetLastError();
    const char *m = pw_simt_last_error_message();
    int ok = e == want;
    for (int i = 0; pieces[i]; i++) ok = ok && strstr(m, pieces[i]) != NULL;
    if (!ok) printf("  error %d (want %d): %s\n", (int)e, (int)want, m);
    return ok;
}

/* ---- tests ----------------------------------------------------------------------- */

static void test_indices(void)
{
    dim3 grid = dim3(3, 2, 2), block = dim3(4, 3, 2);
    int n = 12 * 24, *d = dev((size_t)n * sizeof(int)), h[12 * 24];
    who<<<grid, block, 0>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < 12; b++)
        for (int z = 0; z < 2; z++)
            for (int y = 0; y < 3; y++)
                for (int x = 0; x < 4; x++) {
                    int t = x + 4 * (y + 3 * z);
                    bad += h[b * 24 + t] != ((b * 16 + z) * 16 + y) * 16 + x;
                }
    EXPECT(bad == 0, "every (block, thread) once at its place: %d wrong", bad);
    EXPECT(pw_simt_last_counters()->blocks == 12 && pw_simt_last_counters()->threads == 288,
           "12 blocks, 288 threads counted (%lld, %lld)", pw_simt_last_counters()->blocks,
           pw_simt_last_counters()->threads);
    dim3 d2 = dim3(7);
    EXPECT(d2.x == 7 && d2.y == 1 && d2.z == 1, "dim3(7) is 7x1x1");
    cudaFree(d);
}

static void test_barrier(void)
{
    int n = 256 * 5, h[256 * 5], r[256 * 5];
    for (int i = 0; i < n; i++) h[i] = i * 3;
    int *in = dev(sizeof h), *out = dev(sizeof h);
    CUDA_CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    reverse_block<<<5, 256, 0>>>(in, out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < 5; b++)
        for (int t = 0; t < 256; t++) bad += r[b * 256 + t] != h[b * 256 + 255 - t];
    EXPECT(bad == 0, "each block reversed through shared memory (%d wrong)", bad);
    EXPECT(pw_simt_last_counters()->barriers == 5 && pw_simt_last_counters()->barrier_crossings == 1280,
           "5 barriers, 1280 crossings (%lld, %lld)", pw_simt_last_counters()->barriers,
           pw_simt_last_counters()->barrier_crossings);
    cudaFree(in);
    cudaFree(out);
}

static void test_poison(void)
{
    int *d = dev(3 * 64 * sizeof(int)), h[3 * 64];
    read_leftovers<<<3, 64, 0>>>(d);
    CUDA_CHECK(cudaGetLastError());
    read_leftovers<<<3, 64, 0>>>(d);     /* and again: nothing carries over between launches */
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 3 * 64; i++) bad += h[i] != -1;
    EXPECT(bad == 0, "static shared memory reads as the poison (-1) in every block, not 1234 (%d not)", bad);

    float *f = dev(3 * 32 * sizeof(float)), hf[3 * 32];
    read_dynamic_leftovers<<<3, 32, 32 * sizeof(float)>>>(f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < 3 * 32; i++) bad += !isnan(hf[i]);
    EXPECT(bad == 0, "dynamic shared memory reads as NaN in every block (%d not)", bad);
    cudaFree(d);
    cudaFree(f);
}

static void test_divergent_barrier(void)
{
    int *d = dev(64 * sizeof(int));
    divergent_barrier<<<2, 32, 0>>>(d);
    const char *want[] = { "kernel divergent_barrier", "block (0,0,0)", "different barriers", "threads 0-15",
                           "threads 16-31", "test_simt.c:", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, want), "reported, naming kernel, block, threads and both barriers");
    /* the emulator recovers: the next launch runs */
    who<<<1, 32, 0>>>(d);
    EXPECT(cudaGetLastError() == cudaSuccess, "a launch after the error runs");
    cudaFree(d);
}

static void test_early_exit(void)
{
    int *in = dev(64 * sizeof(int)), *out = dev(64 * sizeof(int));
    CUDA_CHECK(cudaMemset(in, 0, 64 * sizeof(int)));
    early_exit<<<1, 64, 0>>>(in, out, 50);
    const char *want[] = { "kernel early_exit", "threads 0-49 wait", "threads 50-63 exited", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, want), "threads that exit while others wait are reported");
    early_exit<<<1, 64, 0>>>(in, out, 64);
    EXPECT(cudaGetLastError() == cudaSuccess, "the same kernel with every thread alive runs");
    cudaFree(in);
    cudaFree(out);
}

static void test_all_blocked(void)
{
    int *d = dev(64 * sizeof(int));
    half_warp_shuffle<<<1, 32, 0>>>(d);
    const char *want[] = { "__shfl_down_sync", "waits for lane 16", "__syncthreads", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, want), "a shuffle waiting for lanes stuck at a barrier is reported");
    cudaFree(d);
}

static void test_bad_masks(void)
{
    int *d = dev(64 * sizeof(int));
    mask_without_me<<<1, 32, 0>>>(d);
    const char *want1[] = { "leaves out the calling lane 16", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, want1), "a mask without the caller is an error");
    mask_past_warp<<<1, 48, 0>>>(d);
    const char *want2[] = { "lanes that do not exist", "0x0000ffff", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, want2), "a mask naming lanes past a short warp is an error");
    read_outside_mask<<<1, 32, 0>>>(d);
    const char *want3[] = { "reads lane 9, which is not in the mask", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, want3), "reading a lane outside the mask is an error");
    cudaFree(d);
}

static void test_out_of_bounds(void)
{
    int n = 1000;
    float *in = dev((size_t)n * sizeof(float)), *out = dev(32 * sizeof(float));
    read_past_end<<<pw_ceil_div((size_t)n + 1, 128), 128, 0>>>(in, out, n);
    const char *want[] = { "kernel read_past_end", "out of bounds", "element 1000 of 1000", NULL };
    EXPECT(failed_with(cudaErrorIllegalAddress, want), "one element past a cudaMalloc allocation is caught");
    float host[32] = { 0 };
    read_host_memory<<<1, 32, 0>>>(host, out);
    const char *want2[] = { "neither device memory", NULL };
    EXPECT(failed_with(cudaErrorIllegalAddress, want2), "a host pointer in a kernel is caught");
    past_dynamic_shared<<<1, 32, 16 * sizeof(float)>>>(out);
    const char *want3[] = { "past the end of the 64 bytes of dynamic shared memory", NULL };
    EXPECT(failed_with(cudaErrorIllegalAddress, want3), "past the dynamic shared memory is caught");
    EXPECT(cudaMemcpy(out, host, 64 * sizeof(float), cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
           "a copy past the end of an allocation is refused");
    cudaGetLastError();
    cudaFree(in);
    cudaFree(out);
}

static void test_bad_config(void)
{
    int *d = dev(sizeof(int));
    who<<<1, 2048, 0>>>(d);
    const char *want[] = { "2048 threads per block", NULL };
    EXPECT(failed_with(cudaErrorInvalidConfiguration, want), "a block of 2048 threads is refused");
    cudaFree(d);
}

/* The lane each lane reads: hand-written tables for a few cases... */
typedef struct { int mode, arg, width; int src[32]; } shfl_case;
static const shfl_case tables[] = {
    { 2, 1, 32, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
                  27, 28, 29, 30, 31, 31 } },                                  /* down 1: the last keeps its own */
    { 1, 2, 8, { 0, 1, 0, 1, 2, 3, 4, 5, 8, 9, 8, 9, 10, 11, 12, 13, 16, 17, 16, 17, 18, 19, 20, 21, 24, 25, 24,
                 25, 26, 27, 28, 29 } },                                       /* up 2 in groups of 8 */
    { 3, 1, 32, { 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27,
                  26, 29, 28, 31, 30 } },                                      /* xor 1: neighbours swap */
    { 0, 3, 8, { 3, 3, 3, 3, 3, 3, 3, 3, 11, 11, 11, 11, 11, 11, 11, 11, 19, 19, 19, 19, 19, 19, 19, 19, 27, 27, 27,
                 27, 27, 27, 27, 27 } },                                       /* idx 3 in groups of 8 */
    { 3, 16, 8, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                  13, 14, 15 } },                                              /* xor 16, width 8: later groups no, earlier yes */
    { 2, 4, 4, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
                 27, 28, 29, 30, 31 } },                                       /* down by the whole width: own */
    { 0, 35, 32, { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
                   3 } },                                                      /* idx wraps modulo the width */
};

/* ...and the rule of the CUDA programming guide for the rest. */
static int rule(int mode, int lane, int arg, int w)
{
    int seg = lane / w * w;
    switch (mode) {
    case 0: return seg + ((arg % w) + w) % w;
    case 1: return lane % w >= arg ? lane - arg : lane;
    case 2: return lane % w + arg < w ? lane + arg : lane;
    default: return (lane ^ arg) < seg + w ? lane ^ arg : lane;
    }
}

static void test_shuffles(void)
{
    int *d = dev(32 * sizeof(int)), h[32];
    int bad = 0;
    for (size_t c = 0; c < sizeof tables / sizeof tables[0]; c++) {
        const shfl_case *k = &tables[c];
        shuffles<<<1, 32, 0>>>(d, k->mode, k->arg, k->width);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int l = 0; l < 32; l++)
            if (h[l] != 100 + k->src[l]) {
                if (bad++ < 3) printf("  table %zu (mode %d arg %d width %d): lane %d got lane %d, want %d\n", c,
                                      k->mode, k->arg, k->width, l, h[l] - 100, k->src[l]);
            }
    }
    EXPECT(bad == 0, "every hand-written table matches (%d lanes wrong)", bad);
    bad = 0;
    int cases = 0;
    for (int mode = 0; mode < 4; mode++)
        for (int w = 1; w <= 32; w *= 2)
            for (int arg = 0; arg < 32; arg += (arg < 4 ? 1 : 5)) {
                shuffles<<<1, 32, 0>>>(d, mode, arg, w);
                CUDA_CHECK(cudaGetLastError());
                CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
                cases++;
                for (int l = 0; l < 32; l++)
                    if (h[l] != 100 + rule(mode, l, arg, w) && bad++ < 3)
                        printf("  mode %d width %d arg %d: lane %d got %d, want %d\n", mode, w, arg, l, h[l] - 100,
                               rule(mode, l, arg, w));
            }
    EXPECT(bad == 0, "all 4 modes x 6 widths x 10 offsets follow the rule (%d of %d cases wrong)", bad, cases);

    float *f = dev(32 * sizeof(float)), hf[32];
    double *dd = dev(32 * sizeof(double)), hd[32];
    unsigned *u = dev(32 * sizeof(unsigned)), hu[32];
    long long *ll = dev(32 * sizeof(long long)), hl[32];
    shuffle_types<<<1, 32, 0>>>(f, dd, u, ll);
    CUDA_CHECK(cudaGetLastError());
    cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
    cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost);
    cudaMemcpy(hl, ll, sizeof hl, cudaMemcpyDeviceToHost);
    bad = 0;
    for (int l = 0; l < 32; l++) {
        bad += hf[l] != 0.5f + (float)(l ^ 1);
        bad += hd[l] != 1e10 + (double)(l % 16 + 2 < 16 ? l + 2 : l);
        bad += hu[l] != 4000000000u + (unsigned)(l >= 1 ? l - 1 : l);
        bad += hl[l] != (1LL << 40) + (31 - l);
    }
    EXPECT(bad == 0, "float, double, unsigned and long long values shuffle whole (%d wrong)", bad);
    EXPECT(pw_simt_last_counters()->collectives == 4, "4 collectives counted (%lld)",
           pw_simt_last_counters()->collectives);
    cudaFree(d); cudaFree(f); cudaFree(dd); cudaFree(u); cudaFree(ll);
}

static void test_votes(void)
{
    unsigned *d = dev(6 * sizeof(unsigned)), h[6];
    votes<<<1, 32, 0>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    unsigned b = 0;
    for (int l = 0; l < 32; l += 3) b |= 1u << l;
    EXPECT(h[0] == b, "ballot of lane %% 3 == 0 is 0x%08x (got 0x%08x)", b, h[0]);
    EXPECT(h[1] == 1 && h[2] == 0 && h[3] == 1, "any(lane == 7) = 1, all(lane < 31) = 0, all(lane < 32) = 1");
    EXPECT(h[4] == 0x0000aaaau && h[5] == 0xaaaa0000u, "two half-warp ballots with their own masks (0x%08x 0x%08x)",
           h[4], h[5]);
}

static void test_atomics_threads(void)
{
    int *count = dev(sizeof(int)), *maxv = dev(sizeof(int));
    float *fsum = dev(sizeof(float));
    unsigned *cas = dev(sizeof(unsigned));
    unsigned long long *big = dev(sizeof(unsigned long long));
    cudaMemset(count, 0, sizeof(int));
    cudaMemset(maxv, 0, sizeof(int));
    cudaMemset(fsum, 0, sizeof(float));
    cudaMemset(cas, 0, sizeof(unsigned));
    cudaMemset(big, 0, sizeof(unsigned long long));
    pw_simt_set_workers(4);
    atomics<<<64, 128, 0>>>(count, fsum, maxv, cas, big);
    CUDA_CHECK(cudaGetLastError());
    int hc, hm;
    float hf;
    unsigned hcas;
    unsigned long long hb;
    cudaMemcpy(&hc, count, sizeof hc, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hm, maxv, sizeof hm, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hf, fsum, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hcas, cas, sizeof hcas, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hb, big, sizeof hb, cudaMemcpyDeviceToHost);
    int want_max = 0;
    for (int i = 0; i < 64 * 128; i++) if ((i * 7919) % 100003 > want_max) want_max = (i * 7919) % 100003;
    /* 8192 additions of 1.0f: every partial sum is a whole number below 2^24, exact in any order */
    EXPECT(hc == 8192 && hf == 8192.0f && hcas == 8192 && hb == 8192ULL << 33,
           "8192 atomic increments from 4 OS threads, none lost (int %d, float %g, CAS %u, u64 %llu)", hc,
           (double)hf, hcas, hb);
    EXPECT(hm == want_max, "atomicMax finds %d (got %d)", want_max, hm);
    EXPECT(pw_simt_last_counters()->blocks == 64 && pw_simt_last_counters()->atomics >= 5 * 8192,
           "all 64 blocks ran, at least 5 atomics per thread counted (%lld)", pw_simt_last_counters()->atomics);

    int n = 1000, hin[1000], hh[8], want[8] = { 0 };
    for (int i = 0; i < n; i++) { hin[i] = i * 37 % 101; want[hin[i] & 7]++; }
    int *in = dev(sizeof hin), *hist = dev(sizeof hh);
    cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice);
    cudaMemset(hist, 0, sizeof hh);
    histogram<<<pw_ceil_div((size_t)n, 96), 96, 0>>>(in, hist, n);
    CUDA_CHECK(cudaGetLastError());
    cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost);
    EXPECT(memcmp(hh, want, sizeof hh) == 0, "a shared-memory histogram on 4 OS threads is exact");
    pw_simt_set_workers(1);
    cudaFree(count); cudaFree(maxv); cudaFree(fsum); cudaFree(cas); cudaFree(big); cudaFree(in); cudaFree(hist);
}

static void test_counters(void)
{
    float *in = dev(32 * 32 * sizeof(float)), *out = dev(64 * sizeof(float));
    cudaMemset(in, 0, 32 * 32 * sizeof(float));
    const pw_simt_counters *c = pw_simt_last_counters();

    load_stride<<<1, 32, 0>>>(in, out, 1);
    EXPECT(c->global_load_requests == 1 && c->global_load_sectors == 4,
           "a warp's stride-1 float load: 1 request, 4 sectors (got %lld, %lld)", c->global_load_requests,
           c->global_load_sectors);
    EXPECT(c->global_loads == 32 && c->global_stores == 32, "32 loads and 32 stores per thread count");
    load_stride<<<1, 32, 0>>>(in, out, 2);
    EXPECT(c->global_load_sectors == 8, "stride 2: 8 sectors (got %lld)", c->global_load_sectors);
    load_stride<<<1, 32, 0>>>(in, out, 32);
    EXPECT(c->global_load_sectors == 32, "stride 32: 32 sectors (got %lld)", c->global_load_sectors);
    EXPECT(pw_simt_efficiency(c) == 1.0, "no divergence: SIMT efficiency 1 (got %g)", pw_simt_efficiency(c));

    tile_column<<<1, 32, 0>>>(out, 0);
    EXPECT(c->shared_max_ways == 32, "a 32x32 float tile read by column: 32-way conflict (got %lld)",
           c->shared_max_ways);
    EXPECT(c->shared_requests == 33 && c->shared_wavefronts == 32 + 32,
           "32 conflict-free row stores + 1 column load of 32 ways (got %lld requests, %lld wavefronts)",
           c->shared_requests, c->shared_wavefronts);
    tile_column<<<1, 32, 0>>>(out, 1);
    EXPECT(c->shared_max_ways == 1, "padded to 33 columns: no conflict (got %lld)", c->shared_max_ways);

    broadcast<<<1, 32, 0>>>(in, out);
    EXPECT(c->shared_max_ways == 1, "every lane reading one word is a broadcast, 1 way (got %lld)",
           c->shared_max_ways);

    branch_on_lane<<<1, 64, 0>>>(out);
    EXPECT(pw_simt_efficiency(c) == 0.5 && c->global_store_requests == 4,
           "a branch on lane parity: 4 half-warp stores, SIMT efficiency 0.5 (got %g, %lld)",
           pw_simt_efficiency(c), c->global_store_requests);
    branch_on_warp<<<1, 64, 0>>>(out);
    EXPECT(pw_simt_efficiency(c) == 1.0 && c->global_store_requests == 2,
           "a branch on the warp index: 2 full-warp stores, efficiency 1 (got %g, %lld)", pw_simt_efficiency(c),
           c->global_store_requests);
    branch_on_lane<<<1, 48, 0>>>(out);
    EXPECT(c->warp_steps == 4 && c->active_lanes == 48, "a short warp counts its missing lanes as idle");
    cudaFree(in);
    cudaFree(out);
}

static void test_shuffle_order(void)
{
    int *d = dev(64 * sizeof(int)), a[64], b[64];
    racy_neighbour<<<1, 64, 0>>>(d);
    cudaMemcpy(a, d, sizeof a, cudaMemcpyDeviceToHost);
    racy_neighbour<<<1, 64, 0>>>(d);
    cudaMemcpy(b, d, sizeof b, cudaMemcpyDeviceToHost);
    EXPECT(memcmp(a, b, sizeof a) == 0, "in order, the same run gives the same result");
    int poisoned = 0;
    for (int i = 0; i < 63; i++) poisoned += a[i] == -1;
    EXPECT(poisoned == 63, "in order, each thread reads its neighbour before it wrote: the poison (%d of 63)",
           poisoned);
    pw_simt_set_shuffle(12345);
    racy_neighbour<<<1, 64, 0>>>(d);
    cudaMemcpy(b, d, sizeof b, cudaMemcpyDeviceToHost);
    pw_simt_set_shuffle(0);
    int differ = 0;
    for (int i = 0; i < 64; i++) differ += a[i] != b[i];
    EXPECT(differ > 0, "shuffled, some threads see their neighbour's value: the race shows (%d differ)", differ);
    cudaFree(d);
}

/* Not a timed test: the speed is printed for the record. */
static void test_speed(void)
{
    /* Sanitizers announce every fiber switch to their runtime: far slower. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
    int rounds = 20;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
    int rounds = 20;
#else
    int rounds = 2000;
#endif
#else
    int rounds = 2000;
#endif
    int *d = dev(64 * sizeof(int));
    many_barriers<<<4, 256, 0>>>(d, rounds);   /* warm: fibers made */
    pw_simt_counters_reset();
    double t0 = pw_now();
    many_barriers<<<16, 256, 0>>>(d, rounds);
    double dt = pw_now() - t0;
    CUDA_CHECK(cudaGetLastError());
    long long x = pw_simt_last_counters()->barrier_crossings;
    EXPECT(x == 16LL * 256 * rounds, "%lld crossings counted", x);
    printf("  emulator: %.1f million barrier crossings per second on one core (%lld in %.3f s)\n",
           (double)x / dt * 1e-6, x, dt);
    cudaFree(d);
}

int main(void)
{
    pw_simt_set_quiet(true);
    RUN(test_indices);
    RUN(test_barrier);
    RUN(test_poison);
    RUN(test_divergent_barrier);
    RUN(test_early_exit);
    RUN(test_all_blocked);
    RUN(test_bad_masks);
    RUN(test_out_of_bounds);
    RUN(test_bad_config);
    RUN(test_shuffles);
    RUN(test_votes);
    RUN(test_atomics_threads);
    RUN(test_counters);
    RUN(test_shuffle_order);
    RUN(test_speed);
    return UNIT_RESULT();
}
