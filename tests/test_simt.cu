/* tests/test_simt.cu: the SIMT emulator behaves like a GPU where it matters.
 *
 * Plain CUDA C++, built by tools/pwcc like any .cu of the workbook: the
 * kernels are written as a learner writes them (plain loads and stores,
 * k<<<g, b, shmem>>>(args), __shared__ and extern __shared__), and each
 * test says what a GPU does and checks that the emulator does it too:
 * indices, barriers, poisoned shared memory, every shuffle mode and width
 * against a table, votes, match and reduce, atomics (int, float, 64-bit,
 * shared and global, blocks on several OS threads), the counters on
 * patterns whose counts are known by hand, and an error (never a hang, and
 * the process lives) for divergent barriers, exited threads, bad masks,
 * out-of-bounds, host and misaligned accesses, and livelocks. The reports
 * that let a kernel go on (racecheck, initcheck) are counted with
 * pw_simt_report_count(); the whole test runs quiet (pw_simt_set_quiet), so
 * they print nothing and do not change the exit status. The last test prints
 * the emulator's speed (not asserted). */
#include "simt_host.h"   /* simt.h, and common/'s C headers (timing.h, util.h) as C */
#include "unit.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>

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

/* Only block 0 fills the table; every block reads it (the learner thought
 * shared memory was the kernel's, not the block's). */
__global__ void only_block0_fills(unsigned *out)
{
    __shared__ unsigned table[32];
    if (blockIdx.x == 0) table[threadIdx.x] = 0x12345678u;
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = table[threadIdx.x];
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
static const int read_past_end_line = __LINE__ - 2;

/* The learner's offset is in bytes where elements were meant: far past. */
__global__ void write_far_past(float *out, int n, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i + offset] = 1.0f;
}
static const int write_far_past_line = __LINE__ - 2;

__global__ void read_host_memory(const float *in, float *out)
{
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void scale_in_place(float *x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * s;
}

/* Reads then writes the same element: both accesses must be seen. */
__global__ void add_one(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] + 1;
}

__global__ void past_dynamic_shared(float *out)
{
    extern __shared__ float s[];
    s[threadIdx.x] = 1.0f;     /* launched with 16 floats of shared memory, 32 threads */
    out[threadIdx.x] = 0.0f;
}

/* A float read at a byte offset that is not a multiple of 4. The
 * attribute: the SAN=asan build compiles .cu files with UBSan (mk/cuda.mk,
 * SIMT_SAN, -fno-sanitize-recover), whose alignment check comes before the
 * access hook and would abort the whole test before memcheck reports it. */
__global__ __attribute__((no_sanitize("alignment"))) void misaligned_float(char *buf, int byte_offset, float *out)
{
    float *f = (float *)(buf + byte_offset);
    out[threadIdx.x] = f[threadIdx.x];
}
static const int misaligned_float_line = __LINE__ - 2;   /* the line of the read, for messages */

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

/* Lanes grouped by a key, and a warp sum without shuffles. */
__global__ void match_and_reduce(unsigned *groups, int *sums, unsigned *usums)
{
    int lane = threadIdx.x;
    groups[lane] = __match_any_sync(0xffffffffu, lane % 4);
    sums[lane] = __reduce_add_sync(0xffffffffu, lane - 10);
    usums[lane] = __reduce_add_sync(0xffffffffu, 1000000000u + (unsigned)lane);
}

/* The block-wide votes: counts, and, or. */
__global__ void block_votes(int *out)
{
    int t = threadIdx.x;
    int count = __syncthreads_count(t % 3 == 0);
    int all_in = __syncthreads_and(t < 100);
    int all_low = __syncthreads_and(t < 99);
    int one = __syncthreads_or(t == 57);
    int none = __syncthreads_or(t > 1000);
    if (t == 5) {
        out[0] = count;
        out[1] = all_in;
        out[2] = all_low;
        out[3] = one;
        out[4] = none;
    }
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

/* atomicInc wraps, atomicExch hands each old value to one thread, atomicMin
 * on ints and floats. */
__global__ void more_atomics(unsigned *ring, int *slot, int *olds, int *imin, float *fmin, float *fslot,
                             float *folds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicInc(ring, 9u);
    olds[i] = atomicExch(slot, i);
    atomicMin(imin, (i * 7919) % 1009 - 500);
    atomicMin(fmin, (float)((i * 37) % 1001) - 500.5f);
    folds[i] = atomicExch(fslot, (float)i + 0.25f);
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

/* The textbook 256-bin histogram: bins zeroed with plain stores, then
 * atomicAdd in shared memory, then one atomicAdd per bin to the total. */
__global__ void histogram256(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned bins[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (bins[b]) atomicAdd(&hist[b], bins[b]);
}

/* Per-block float sums in shared memory, zeroed with plain stores. */
__global__ void float_bins(const float *x, float *sums, int n)
{
    __shared__ float acc[8];
    if (threadIdx.x < 8) acc[threadIdx.x] = 0.0f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&acc[i % 8], x[i]);
    __syncthreads();
    if (threadIdx.x < 8) atomicAdd(&sums[threadIdx.x], acc[threadIdx.x]);
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

/* The transpose of a 32x32 tile through shared memory, as the book writes
 * it: first naively, then with the tile padded to 33 columns. */
__global__ void transpose32(const float *in, float *out)
{
    __shared__ float tile[32][32];
    int x = threadIdx.x;
    for (int y = threadIdx.y; y < 32; y += blockDim.y) tile[y][x] = in[y * 32 + x];
    __syncthreads();
    for (int y = threadIdx.y; y < 32; y += blockDim.y) out[y * 32 + x] = tile[x][y];
}

__global__ void transpose33(const float *in, float *out)
{
    __shared__ float tile[32][33];
    int x = threadIdx.x;
    for (int y = threadIdx.y; y < 32; y += blockDim.y) tile[y][x] = in[y * 32 + x];
    __syncthreads();
    for (int y = threadIdx.y; y < 32; y += blockDim.y) out[y * 32 + x] = tile[x][y];
}

__global__ void broadcast(const float *in, float *out)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[3];      /* every lane the same word */
}

/* Two sides that store different types: no compiler can merge them into
 * one store after the branch (clang does when both store a float), so each
 * side is its own warp instruction. */
__global__ void branch_on_lane(float *out, double *dout)
{
    int t = threadIdx.x;
    if (t % 2 == 0) out[t] = 1.0f;
    else dout[t] = 2.0;
}

__global__ void branch_on_warp(float *out, double *dout)
{
    int t = threadIdx.x;
    if ((t / 32) % 2 == 0) out[t] = 1.0f;
    else dout[t] = 2.0;
}

/* Each thread reads its neighbour's value without a barrier: a race. */
__global__ void racy_neighbour(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    out[t] = s[(t + 1) % 64];
}

/* Thread t reads what thread t + 32 (the other warp) wrote: without and
 * with the barrier between. */
__global__ void other_warp_no_sync(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 3 * t;
    out[t] = s[(t + 32) % 64];
}

__global__ void other_warp_sync(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 3 * t;
    __syncthreads();
    out[t] = s[(t + 32) % 64];
}

/* The pre-Volta warp reduction: lock-step assumed, no __syncwarp. */
__global__ void warp_sum_lockstep(const int *in, int *out)
{
    __shared__ int s[32];
    volatile int *v = s;
    int t = threadIdx.x;
    v[t] = in[t];
    if (t < 16) v[t] += v[t + 16];
    if (t < 8) v[t] += v[t + 8];
    if (t < 4) v[t] += v[t + 4];
    if (t < 2) v[t] += v[t + 2];
    if (t < 1) v[t] += v[t + 1];
    if (t == 0) out[0] = v[0];
}

/* The same, written for independent thread scheduling. */
__global__ void warp_sum_syncwarp(const int *in, int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncwarp();
    for (int offset = 16; offset > 0; offset /= 2) {
        int x = t < offset ? s[t + offset] : 0;
        __syncwarp();
        if (t < offset) s[t] += x;
        __syncwarp();
    }
    if (t == 0) out[0] = s[0];
}

/* Every thread of two warps counts itself on one shared word. */
__global__ void shared_counter(int *out)
{
    __shared__ int count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = count;
}

/* Reads its input and nothing more: initcheck decides. */
__global__ void double_it(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

/* Warp 1 does the work, then raises a flag; warp 0 waits for it. */
__global__ void wait_for_warp1(int *data, volatile int *flag, int *out)
{
    int t = threadIdx.x;
    if (t >= 32) {
        data[t - 32] = 10 * (t - 32);
        __syncwarp();
        if (t == 32) {
            __threadfence();     /* the work is visible before the flag */
            *flag = 1;
        }
    } else {
        while (*flag == 0) {}
        out[t] = data[t] + 1;
    }
}

/* The same through shared memory, as it is usually written. */
__global__ void wait_for_warp1_shared(int *out)
{
    __shared__ volatile int flag;
    __shared__ int data[32];
    int t = threadIdx.x;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t >= 32) {
        data[t - 32] = 10 * (t - 32);
        __syncwarp();
        if (t == 32) {
            __threadfence_block();
            flag = 1;
        }
    } else {
        while (flag == 0) {}
        out[t] = data[t] + 2;
    }
}

/* Waits for a flag nobody sets. */
__global__ void wait_forever(volatile int *flag, int *out)
{
    while (*flag == 0) {}
    out[threadIdx.x] = 1;
}

/* A kernel template, launched with explicit template arguments. */
template <typename T, int K> __global__ void scale_by(T *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * (T)K;
}

/* A kernel without parameters, counting on a __device__ variable. */
__device__ int launches_seen;
__device__ unsigned long long threads_seen;
__global__ void count_me()
{
    if (threadIdx.x == 0) atomicAdd(&launches_seen, 1);
    atomicAdd(&threads_seen, 1ULL);
}

/* Parameters named like the translator's own words might be. */
__global__ void add_abc(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

/* The dynamic array and a static one, both written, then both read. */
__global__ void both_shared(int *out, int *apart, int ndyn)
{
    extern __shared__ int dyn[];
    __shared__ int fixed[64];
    int t = threadIdx.x;
    dyn[t] = 1000 + t;
    fixed[t] = 2000 + t;
    __syncthreads();
    out[t] = dyn[ndyn - 1 - t];
    out[64 + t] = fixed[63 - t];
    if (t == 0) {
        uintptr_t d0 = (uintptr_t)dyn, d1 = (uintptr_t)(dyn + ndyn);
        uintptr_t f0 = (uintptr_t)fixed, f1 = (uintptr_t)(fixed + 64);
        apart[0] = d1 <= f0 || f1 <= d0;
    }
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

/* n elements of T in device memory. */
template <class T> static T *dev(size_t n)
{
    T *p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
    return p;
}

/* The message of the failed launch contains every piece; the error is cleared. */
static int failed_with(cudaError_t want, const char *const *pieces)
{
    cudaDeviceSynchronize();   /* launches are asynchronous: the kernel's error is in once it has run */
    cudaError_t e = cudaGetLastError();
    const char *m = pw_simt_last_error_message();
    int ok = e == want;
    for (int i = 0; pieces[i]; i++) ok = ok && strstr(m, pieces[i]) != NULL;
    if (!ok) printf("  error %d (want %d): %s\n", (int)e, (int)want, m);
    return ok;
}

/* The access log's test kernel: one global load, a shared store and the
 * neighbour's shared load across a barrier, one global store, one atomic. */
__global__ void logged(const float *in, float *out, int *count)
{
    __shared__ float s[6];
    int t = threadIdx.x + blockDim.x * threadIdx.y;
    int b = blockIdx.x + gridDim.x * blockIdx.y;
    s[t] = in[b * 6 + t];
    __syncthreads();
    out[b * 6 + t] = s[(t + 1) % 6];
    atomicAdd(count, 1);
}

/* Block order (simt_order.c): every block reports, and the lower the block
 * the longer it works first, so that on several workers the higher blocks
 * report first in time. */
__global__ void report_late_low(int *out, int spin)
{
    __shared__ int never_written[64];
    __shared__ int busy[64];
    for (int k = 0; k < (int)(gridDim.x - blockIdx.x) * spin; k++) busy[threadIdx.x] = k;
    if (threadIdx.x == 0) out[blockIdx.x] = never_written[1] + busy[0];   /* initcheck: one report a block */
}

/* Blocks `from` and up write far past `out` (an error that stops them);
 * the blocks before them, slower, must still run to their end. */
__global__ void fail_from(int *out, int from, int spin)
{
    __shared__ int busy[64];
    for (int k = 0; k < (int)(gridDim.x - blockIdx.x) * spin; k++) busy[threadIdx.x] = k;
    __syncthreads();
    if ((int)blockIdx.x >= from && threadIdx.x == 0) out[255000] = 1;
    if (threadIdx.x == 0) out[blockIdx.x] = busy[1] + 1;
}

/* The child of test_block_order (tests/test_simt --block-order): not
 * quiet, so that its reports go to stderr as a program's would. */
static int block_order_child(void)
{
    int nb = 14, *out = dev<int>((size_t)nb);
    pw_simt_set_workers(4);
    report_late_low<<<nb, 64>>>(out, 300);
    cudaDeviceSynchronize();
    return 0;
}

/* A small kernel runs and is right: the emulator lives after an error. */
static int still_alive(void)
{
    int *d = dev<int>(32), h[32];
    who<<<1, 32>>>(d);
    cudaDeviceSynchronize();
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("  still_alive: error %d: %s\n", (int)e, pw_simt_last_error_message());
    int ok = e == cudaSuccess && cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
    for (int i = 0; ok && i < 32; i++) ok = h[i] == i;
    cudaFree(d);
    return ok;
}

/* ---- tests ----------------------------------------------------------------------- */

static void test_indices(void)
{
    dim3 grid = dim3(3, 2, 2), block = dim3(4, 3, 2);
    int n = 12 * 24, *d = dev<int>((size_t)n), h[12 * 24];
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

/* The access log (pw_simt_log_accesses): every thread's accesses, with its
 * block and thread linearised as the header says, addresses and kinds; the
 * count goes on past the buffer, and NULL stops it. */
static void test_access_log(void)
{
    float *in = dev<float>(24), *out = dev<float>(24);
    int *count = dev<int>(1);
    CUDA_CHECK(cudaMemset(in, 0, 24 * sizeof(float)));
    CUDA_CHECK(cudaMemset(count, 0, sizeof(int)));
    static pw_simt_access log[200];
    pw_simt_log_accesses(log, 200);
    logged<<<dim3(2, 2), dim3(3, 2)>>>(in, out, count);
    CUDA_CHECK(cudaGetLastError());
    long n = pw_simt_access_count();
    EXPECT(n == 24 * 5, "24 threads x 5 accesses logged (%ld)", n);
    int seen[4][6][5] = { { { 0 } } }, bad = 0;   /* [block][thread][kind]: load, shared st, shared ld, store, atomic */
    for (long i = 0; i < (n < 200 ? n : 200); i++) {
        const pw_simt_access *a = &log[i];
        if (a->block >= 4 || a->thread >= 6 || a->bytes != 4) { bad++; continue; }
        int me = (int)(a->block * 6 + a->thread), k = -1;
        uint64_t at = a->addr;
        if (!a->shared && !a->store && !a->atomic && at == (uint64_t)(uintptr_t)(in + me)) k = 0;
        else if (a->shared && a->store && at % 4 == 0) k = 1;
        else if (a->shared && !a->store) k = 2;
        else if (!a->shared && a->store && at == (uint64_t)(uintptr_t)(out + me)) k = 3;
        else if (!a->shared && a->atomic && at == (uint64_t)(uintptr_t)count) k = 4;
        if (k < 0) bad++;
        else seen[a->block][a->thread][k]++;
    }
    for (int b = 0; b < 4; b++)
        for (int t = 0; t < 6; t++)
            for (int k = 0; k < 5; k++) bad += seen[b][t][k] != 1;
    EXPECT(bad == 0, "each thread's 5 accesses once, at its own addresses (%d wrong)", bad);
    pw_simt_log_accesses(log, 10);           /* a small buffer: the count goes on */
    logged<<<dim3(2, 2), dim3(3, 2)>>>(in, out, count);
    EXPECT(pw_simt_access_count() == 120, "the count goes on past the buffer (%ld)", pw_simt_access_count());
    pw_simt_log_accesses(NULL, 0);
    logged<<<dim3(2, 2), dim3(3, 2)>>>(in, out, count);
    EXPECT(pw_simt_access_count() == 0, "nothing logged once stopped (%ld)", pw_simt_access_count());
    cudaFree(in);
    cudaFree(out);
    cudaFree(count);
}

static void test_barrier(void)
{
    int n = 256 * 5, h[256 * 5], r[256 * 5];
    for (int i = 0; i < n; i++) h[i] = i * 3;
    int *in = dev<int>((size_t)n), *out = dev<int>((size_t)n);
    CUDA_CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    long before = pw_simt_report_count();
    reverse_block<<<5, 256>>>(in, out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < 5; b++)
        for (int t = 0; t < 256; t++) bad += r[b * 256 + t] != h[b * 256 + 255 - t];
    EXPECT(bad == 0, "each block reversed through shared memory (%d wrong)", bad);
    EXPECT(pw_simt_last_counters()->barriers == 5 && pw_simt_last_counters()->barrier_crossings == 1280,
           "5 barriers, 1280 crossings (%lld, %lld)", pw_simt_last_counters()->barriers,
           pw_simt_last_counters()->barrier_crossings);
    EXPECT(pw_simt_report_count() == before, "a correct kernel: no report (%ld)", pw_simt_report_count() - before);
    cudaFree(in);
    cudaFree(out);
}

static void test_poison(void)
{
    int *d = dev<int>(3 * 64), h[3 * 64];
    long before = pw_simt_report_count();
    read_leftovers<<<3, 64, 0>>>(d);
    CUDA_CHECK(cudaGetLastError());
    read_leftovers<<<3, 64, 0>>>(d);     /* and again: nothing carries over between launches */
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 3 * 64; i++) bad += h[i] != -1;
    EXPECT(bad == 0, "static shared memory reads as the poison (-1) in every block, not 1234 (%d not)", bad);
    EXPECT(pw_simt_report_count() > before, "reading shared memory nothing wrote is an initcheck report");

    float *f = dev<float>(3 * 32), hf[3 * 32];
    read_dynamic_leftovers<<<3, 32, 32 * sizeof(float)>>>(f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < 3 * 32; i++) bad += !isnan(hf[i]);
    EXPECT(bad == 0, "dynamic shared memory reads as NaN in every block (%d not)", bad);
    cudaFree(d);
    cudaFree(f);
}

/* What block 0 stored is not there for block 1 (on a GPU: whatever was
 * left; here the poison), and initcheck says so. */
static void test_leftover_block(void)
{
    unsigned *d = dev<unsigned>(2 * 32), h[2 * 32];
    long before = pw_simt_report_count();
    only_block0_fills<<<1, 32>>>(d);
    CUDA_CHECK(cudaGetLastError());
    EXPECT(pw_simt_report_count() == before, "block 0 alone reads what it wrote: no report (%ld)",
           pw_simt_report_count() - before);
    only_block0_fills<<<2, 32>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad0 = 0, bad1 = 0;
    for (int t = 0; t < 32; t++) {
        bad0 += h[t] != 0x12345678u;
        const unsigned char *bytes = (const unsigned char *)&h[32 + t];
        for (int k = 0; k < 4; k++) bad1 += bytes[k] != 0xFF;
    }
    EXPECT(bad0 == 0, "block 0 reads its own table (%d wrong)", bad0);
    EXPECT(bad1 == 0, "block 1 reads poison 0xFF bytes, not block 0's 0x12345678 (%d bytes not)", bad1);
    EXPECT(pw_simt_report_count() > before, "block 1's read of what it never wrote is an initcheck report");
    cudaFree(d);
}

static void test_divergent_barrier(void)
{
    int *d = dev<int>(64);
    divergent_barrier<<<2, 32, 0>>>(d);
    const char *want[] = { "simt synccheck: kernel divergent_barrier", "block (0,0,0)", "different barriers",
                           "threads 0-15", "threads 16-31", "test_simt.cu:", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, want), "reported, naming kernel, block, threads and both barriers");
    /* the emulator recovers: the next launch runs */
    EXPECT(still_alive(), "a launch after the error runs");
    cudaFree(d);
}

static void test_early_exit(void)
{
    int *in = dev<int>(64), *out = dev<int>(64);
    CUDA_CHECK(cudaMemset(in, 0, 64 * sizeof(int)));
    early_exit<<<1, 64, 0>>>(in, out, 50);
    const char *want[] = { "simt synccheck: kernel early_exit", "threads 0-49 wait", "threads 50-63 exited", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, want), "threads that exit while others wait are reported");
    early_exit<<<1, 64, 0>>>(in, out, 64);
    cudaDeviceSynchronize();
    EXPECT(cudaGetLastError() == cudaSuccess, "the same kernel with every thread alive runs");
    cudaFree(in);
    cudaFree(out);
}

static void test_all_blocked(void)
{
    int *d = dev<int>(64);
    half_warp_shuffle<<<1, 32, 0>>>(d);
    const char *want[] = { "simt synccheck:", "__shfl_down_sync", "waits for lane 16", "__syncthreads", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, want), "a shuffle waiting for lanes stuck at a barrier is reported");
    EXPECT(still_alive(), "a launch after the error runs");
    cudaFree(d);
}

static void test_bad_masks(void)
{
    int *d = dev<int>(64);
    mask_without_me<<<1, 32, 0>>>(d);
    const char *want1[] = { "simt synccheck:", "leaves out the calling lane 16", NULL };
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
    float *in = dev<float>((size_t)n), *out = dev<float>(32);
    CUDA_CHECK(cudaMemset(in, 0, (size_t)n * sizeof(float)));
    read_past_end<<<pw_ceil_div((size_t)n + 1, 128), 128, 0>>>(in, out, n);
    /* (the line it names: test_report_lines) */
    const char *want[] = { "simt memcheck: kernel read_past_end", "block (7,0,0), thread (104,0,0)",
                           "invalid read of 4 bytes", "0 bytes past the end of a 4000-byte", "element 1000 of 1000",
                           NULL };
    EXPECT(failed_with(cudaErrorIllegalAddress, want), "one element past a cudaMalloc allocation is caught");
    float host[32] = { 0 };
    read_host_memory<<<1, 32, 0>>>(host, out);
    const char *want2[] = { "simt memcheck: kernel read_host_memory", "thread (0,0,0)", "is host memory", NULL };
    EXPECT(failed_with(cudaErrorIllegalAddress, want2), "a host pointer (the stack) in a kernel is caught");
    past_dynamic_shared<<<1, 32, 16 * sizeof(float)>>>(out);
    const char *want3[] = { "past the end of the 64 bytes of dynamic shared memory", NULL };
    EXPECT(failed_with(cudaErrorIllegalAddress, want3), "past the dynamic shared memory is caught");
    EXPECT(cudaMemcpy(out, host, 64 * sizeof(float), cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
           "a copy past the end of an allocation is refused");
    cudaGetLastError();
    EXPECT(still_alive(), "a launch after the errors runs");
    cudaFree(in);
    cudaFree(out);
}

/* Reports and errors come in block order whatever the workers (simt_order.c):
 * the same output as one worker's, though on 4 the high blocks report first. */
static const char *self_path;   /* argv[0]: test_block_order runs it again as its child */
static void test_block_order(void)
{
    const char *self = self_path;
    char cmd[1024], line[4096];
    snprintf(cmd, sizeof cmd, "%s --block-order 2>&1", self);
    FILE *p = popen(cmd, "r");
    int want = 0, in_order = 1, more = 0;
    while (p && fgets(line, sizeof line, p)) {
        int b;
        const char *at = strstr(line, "block (");
        if (strstr(line, "simt initcheck: kernel report_late_low") && at && sscanf(at, "block (%d,", &b) == 1) {
            if (b != want) in_order = 0;
            want++;
        }
        if (strstr(line, "4 more reports like those above")) more = 1;
    }
    int status = p ? pclose(p) : -1;
    EXPECT(in_order && want == 10 && more, "14 blocks' reports on 4 workers: blocks 0-9 printed in order (%d in order: %s), "
           "the other 4 counted", want, in_order ? "yes" : "no");
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 1, "the program exits 1 for its reports (status %d)", status);

    int nb = 14, *out = dev<int>((size_t)nb), h[12];
    pw_simt_set_workers(4);
    long before = pw_simt_report_count();
    report_late_low<<<nb, 64>>>(out, 300);   /* quiet: counted, the last one's text kept */
    long got = pw_simt_report_count() - before;
    EXPECT(got == nb && strstr(pw_simt_last_report(), "block (13,0,0)"),
           "quiet, on 4 workers: 14 reports counted (%ld), the last is block 13's: %s", got, pw_simt_last_report());
    nb = 12;
    CUDA_CHECK(cudaMemset(out, 0, (size_t)nb * sizeof(int)));
    fail_from<<<nb, 64>>>(out, 5, 300);
    const char *want2[] = { "simt memcheck: kernel fail_from", "block (5,0,0), thread (0,0,0)", NULL };
    EXPECT(failed_with(cudaErrorIllegalAddress, want2), "blocks 5-11 fail on 4 workers: the launch's error is block 5's");
    CUDA_CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    int done = 1;
    for (int b = 0; b < 5; b++) done = done && h[b] != 0;
    EXPECT(done, "blocks 0-4, before the failed one, ran to their end (%d %d %d %d %d)", h[0], h[1], h[2], h[3], h[4]);
    pw_simt_set_workers(0);
    EXPECT(still_alive(), "a launch after it runs");
    cudaFree(out);
}

/* Far past the end: an error that names the kernel, block and thread; the
 * process goes on. */
static void test_far_past(void)
{
    int n = 1000;
    float *x = dev<float>((size_t)n);
    CUDA_CHECK(cudaMemset(x, 0, (size_t)n * sizeof(float)));
    /* 255000 floats past the start (the offset in bytes, not elements): 1016000 bytes past the end */
    write_far_past<<<4, 256>>>(x, n, 255000);
    const char *want[] = { "simt memcheck: kernel write_far_past", "block (0,0,0), thread (0,0,0)",
                           "invalid write of 4 bytes", "1016000 bytes past the end of a 4000-byte cudaMalloc allocation",
                           NULL };
    EXPECT(failed_with(cudaErrorIllegalAddress, want), "a write 1016000 bytes past an allocation is caught");
    EXPECT(still_alive(), "a launch after it runs");
    cudaFree(x);
}

/* 1 MB past the end: the same error. */
static void test_far_past_1mb(void)
{
    int n = 1000;
    float *x = dev<float>((size_t)n);
    CUDA_CHECK(cudaMemset(x, 0, (size_t)n * sizeof(float)));
    write_far_past<<<1, 32>>>(x, n, n + (1 << 20) / 4);
    cudaDeviceSynchronize();   /* the kernel's error is in once it has run */
    cudaError_t e = cudaGetLastError();
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", pw_simt_last_error_message());
    EXPECT(e == cudaErrorIllegalAddress, "a write 1 MB past the end is an illegal address (%d)", (int)e);
    const char *want[] = { "simt memcheck: kernel write_far_past", "block (0,0,0), thread (0,0,0)",
                           "invalid write of 4 bytes", NULL };
    for (int i = 0; want[i]; i++) EXPECT(strstr(msg, want[i]), "the message says \"%s\": %s", want[i], msg);
    EXPECT(still_alive(), "a launch after it runs");
    cudaFree(x);
    /* device memory has its own address range: however far past, it is past the end */
    EXPECT(strstr(msg, "1048576 bytes past the end of a 4000-byte cudaMalloc allocation"),
           "1 MB past the end is reported as past the end: %s", msg);
}

/* An array from malloc given to a kernel, as the learner who skipped
 * cudaMalloc does, with device memory allocated too. */
static void test_malloc_pointer(void)
{
    int n = 1000;
    float *d = dev<float>((size_t)n);
    float *h = (float *)malloc((size_t)n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)i;
    scale_in_place<<<pw_ceil_div((size_t)n, 128), 128>>>(h, 2.0f, n);
    cudaDeviceSynchronize();
    cudaError_t e = cudaGetLastError();
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", pw_simt_last_error_message());
    EXPECT(e == cudaErrorIllegalAddress, "a malloc'd pointer in a kernel is an illegal address (%d)", (int)e);
    const char *want[] = { "simt memcheck: kernel scale_in_place", "block (0,0,0), thread (0,0,0)", "invalid ",
                           " of 4 bytes", NULL };
    for (int i = 0; want[i]; i++) EXPECT(strstr(msg, want[i]), "the message says \"%s\": %s", want[i], msg);
    EXPECT(h[0] == 0.0f && h[1] == 1.0f, "the host array is untouched");
    EXPECT(still_alive(), "a launch after it runs");
    free(h);
    cudaFree(d);
    EXPECT(strstr(msg, "is host memory"), "a malloc'd pointer is called host memory: %s", msg);
}

static void test_misaligned(void)
{
    char *buf = dev<char>(256);
    float *out = dev<float>(32);
    CUDA_CHECK(cudaMemset(buf, 0, 256));
    misaligned_float<<<1, 32>>>(buf, 4, out);
    cudaDeviceSynchronize();
    EXPECT(cudaGetLastError() == cudaSuccess, "a float at byte 4 is fine");
    misaligned_float<<<1, 32>>>(buf, 2, out);
    const char *want[] = { "simt memcheck: kernel misaligned_float", "misaligned read of 4 bytes",
                           "not a multiple of 4", NULL };
    EXPECT(failed_with(cudaErrorMisalignedAddress, want), "a float at byte 2 is a misaligned address");
    EXPECT(still_alive(), "a launch after it runs");
    cudaFree(buf);
    cudaFree(out);
}

/* Each memcheck error names the learner's line: the same kernels from
 * launches of their own (each launch site is a copy the compiler may
 * inline the kernel into). */
static void test_report_lines(void)
{
    struct { const char *what; int line; char msg[2048]; } got[4];
    char *buf = dev<char>(256);
    float *x = dev<float>(1000), *out = dev<float>(32);
    CUDA_CHECK(cudaMemset(buf, 0, 256));
    CUDA_CHECK(cudaMemset(x, 0, 1000 * sizeof(float)));
    misaligned_float<<<1, 32>>>(buf, 1, out);
    got[0] = { "misaligned_float", misaligned_float_line, "" };
    snprintf(got[0].msg, sizeof got[0].msg, "%s", pw_simt_last_error_message());
    EXPECT(cudaGetLastError() == cudaErrorMisalignedAddress, "misaligned");
    read_past_end<<<8, 128>>>(x, out, 1000);
    got[1] = { "read_past_end", read_past_end_line, "" };
    snprintf(got[1].msg, sizeof got[1].msg, "%s", pw_simt_last_error_message());
    EXPECT(cudaGetLastError() == cudaErrorIllegalAddress, "past the end");
    write_far_past<<<1, 64>>>(x, 1000, 1000);
    got[2] = { "write_far_past", write_far_past_line, "" };
    snprintf(got[2].msg, sizeof got[2].msg, "%s", pw_simt_last_error_message());
    EXPECT(cudaGetLastError() == cudaErrorIllegalAddress, "past the end");
    misaligned_float<<<1, 32>>>(buf, 3, out);
    got[3] = { "misaligned_float", misaligned_float_line, "" };
    snprintf(got[3].msg, sizeof got[3].msg, "%s", pw_simt_last_error_message());
    EXPECT(cudaGetLastError() == cudaErrorMisalignedAddress, "misaligned");
    int wrong = 0;
    for (int k = 0; k < 4; k++) {
        char want[64];
        snprintf(want, sizeof want, "test_simt.cu:%d:", got[k].line);
        if (!strstr(got[k].msg, want)) {
            if (wrong++ < 2) printf("  %s: want \"%s\" in: %s\n", got[k].what, want, got[k].msg);
        }
    }
    cudaFree(buf); cudaFree(x); cudaFree(out);
    /* (kernels are noinline: inlined into the launcher, g++ gave their accesses its line) */
    EXPECT(wrong == 0, "every report names the kernel's own line (%d do not)", wrong);
}

static void test_bad_config(void)
{
    int *d = dev<int>(1);
    who<<<1, 2048, 0>>>(d);
    const char *want[] = { "kernel who", "invalid launch", "2048 threads per block", NULL };
    EXPECT(failed_with(cudaErrorInvalidConfiguration, want), "a block of 2048 threads is refused");
    who<<<0, 32>>>(d);
    const char *want2[] = { "a grid or block size is 0", NULL };
    EXPECT(failed_with(cudaErrorInvalidConfiguration, want2), "an empty grid is refused");
    who<<<1, dim3(1, 1, 128)>>>(d);
    const char *want3[] = { "blockDim.z = 128", NULL };
    EXPECT(failed_with(cudaErrorInvalidConfiguration, want3), "blockDim.z of 128 is refused");
    read_dynamic_leftovers<<<1, 32, 1 << 20>>>((float *)d);
    const char *want4[] = { "bytes of dynamic shared memory", NULL };
    EXPECT(failed_with(cudaErrorInvalidConfiguration, want4), "1 MiB of dynamic shared memory is refused");
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
    int *d = dev<int>(32), h[32];
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

    float *f = dev<float>(32), hf[32];
    double *dd = dev<double>(32), hd[32];
    unsigned *u = dev<unsigned>(32), hu[32];
    long long *ll = dev<long long>(32), hl[32];
    shuffle_types<<<1, 32, 0>>>(f, dd, u, ll);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hl, ll, sizeof hl, cudaMemcpyDeviceToHost));
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
    unsigned *d = dev<unsigned>(6), h[6];
    votes<<<1, 32, 0>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    unsigned b = 0;
    for (int l = 0; l < 32; l += 3) b |= 1u << l;
    EXPECT(h[0] == b, "ballot of lane %% 3 == 0 is 0x%08x (got 0x%08x)", b, h[0]);
    EXPECT(h[1] == 1 && h[2] == 0 && h[3] == 1, "any(lane == 7) = 1, all(lane < 31) = 0, all(lane < 32) = 1");
    EXPECT(h[4] == 0x0000aaaau && h[5] == 0xaaaa0000u, "two half-warp ballots with their own masks (0x%08x 0x%08x)",
           h[4], h[5]);
    cudaFree(d);
}

static void test_match_reduce(void)
{
    unsigned *g = dev<unsigned>(32), hg[32], *us = dev<unsigned>(32), hu[32];
    int *s = dev<int>(32), hs[32];
    match_and_reduce<<<1, 32>>>(g, s, us);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hs, s, sizeof hs, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hu, us, sizeof hu, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int l = 0; l < 32; l++) bad += hg[l] != 0x11111111u << (l % 4);
    EXPECT(bad == 0, "__match_any_sync(lane %% 4): lanes 0, 4, 8... together (%d wrong; lane 1: 0x%08x)", bad, hg[1]);
    bad = 0;
    for (int l = 0; l < 32; l++) bad += hs[l] != 496 - 320 || hu[l] != 32u * 1000000000u + 496u;
    EXPECT(bad == 0, "__reduce_add_sync: int sum 176 (got %d), unsigned sum wraps as a GPU's (got %u)", hs[0], hu[0]);

    int *v = dev<int>(5), hv[5];
    block_votes<<<1, 100>>>(v);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hv, v, sizeof hv, cudaMemcpyDeviceToHost));
    EXPECT(hv[0] == 34, "__syncthreads_count(t %% 3 == 0) over 100 threads is 34 (got %d)", hv[0]);
    EXPECT(hv[1] == 1 && hv[2] == 0, "__syncthreads_and: all of t < 100, not all of t < 99 (got %d, %d)", hv[1],
           hv[2]);
    EXPECT(hv[3] == 1 && hv[4] == 0, "__syncthreads_or: one t == 57, no t > 1000 (got %d, %d)", hv[3], hv[4]);
    EXPECT(pw_simt_last_counters()->barriers == 5, "5 barriers counted (%lld)", pw_simt_last_counters()->barriers);
    cudaFree(g); cudaFree(us); cudaFree(s); cudaFree(v);
}

static void test_atomics_threads(void)
{
    int *count = dev<int>(1), *maxv = dev<int>(1);
    float *fsum = dev<float>(1);
    unsigned *cas = dev<unsigned>(1);
    unsigned long long *big = dev<unsigned long long>(1);
    CUDA_CHECK(cudaMemset(count, 0, sizeof(int)));
    CUDA_CHECK(cudaMemset(maxv, 0, sizeof(int)));
    CUDA_CHECK(cudaMemset(fsum, 0, sizeof(float)));
    CUDA_CHECK(cudaMemset(cas, 0, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(big, 0, sizeof(unsigned long long)));
    pw_simt_set_workers(4);
    atomics<<<64, 32, 0>>>(count, fsum, maxv, cas, big);   /* small blocks: ThreadSanitizer builds are slow */
    CUDA_CHECK(cudaGetLastError());
    int hc, hm;
    float hf;
    unsigned hcas;
    unsigned long long hb;
    CUDA_CHECK(cudaMemcpy(&hc, count, sizeof hc, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&hm, maxv, sizeof hm, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&hf, fsum, sizeof hf, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&hcas, cas, sizeof hcas, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&hb, big, sizeof hb, cudaMemcpyDeviceToHost));
    int want_max = 0;
    for (int i = 0; i < 64 * 32; i++) if ((i * 7919) % 100003 > want_max) want_max = (i * 7919) % 100003;
    /* 2048 additions of 1.0f: every partial sum is a whole number below 2^24, exact in any order */
    EXPECT(hc == 2048 && hf == 2048.0f && hcas == 2048 && hb == 2048ULL << 33,
           "2048 atomic increments from 4 OS threads, none lost (int %d, float %g, CAS %u, u64 %llu)", hc,
           (double)hf, hcas, hb);
    EXPECT(hm == want_max, "atomicMax finds %d (got %d)", want_max, hm);
    EXPECT(pw_simt_last_counters()->blocks == 64 && pw_simt_last_counters()->atomics >= 5 * 2048,
           "all 64 blocks ran, at least 5 atomics per thread counted (%lld)", pw_simt_last_counters()->atomics);

    int n = 1000, hin[1000], hh[8], want[8] = { 0 };
    for (int i = 0; i < n; i++) { hin[i] = i * 37 % 101; want[hin[i] & 7]++; }
    int *in = dev<int>((size_t)n), *hist = dev<int>(8);
    CUDA_CHECK(cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(hist, 0, sizeof hh));
    histogram<<<pw_ceil_div((size_t)n, 32), 32, 0>>>(in, hist, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(hh, want, sizeof hh) == 0, "a shared-memory histogram on 4 OS threads is exact");
    pw_simt_set_workers(0);   /* the default again: every core */
    cudaFree(count); cudaFree(maxv); cudaFree(fsum); cudaFree(cas); cudaFree(big); cudaFree(in); cudaFree(hist);
}

static void test_more_atomics(void)
{
    int blocks = 3, threads = 64, n = blocks * threads;
    unsigned *ring = dev<unsigned>(1);
    int *slot = dev<int>(1), *olds = dev<int>((size_t)n), *imin = dev<int>(1);
    float *fmin = dev<float>(1), *fslot = dev<float>(1), *folds = dev<float>((size_t)n);
    unsigned zero = 0;
    int init_slot = -7, init_min = INT_MAX;
    float init_fmin = 1e30f, init_fslot = -1.0f;
    CUDA_CHECK(cudaMemcpy(ring, &zero, sizeof zero, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(slot, &init_slot, sizeof init_slot, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(imin, &init_min, sizeof init_min, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(fmin, &init_fmin, sizeof init_fmin, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(fslot, &init_fslot, sizeof init_fslot, cudaMemcpyHostToDevice));
    more_atomics<<<blocks, threads>>>(ring, slot, olds, imin, fmin, fslot, folds);
    CUDA_CHECK(cudaGetLastError());
    unsigned hring;
    int hslot, hmin, holds[192];
    float hfmin, hfslot, hfolds[192];
    CUDA_CHECK(cudaMemcpy(&hring, ring, sizeof hring, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&hslot, slot, sizeof hslot, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&hmin, imin, sizeof hmin, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&hfmin, fmin, sizeof hfmin, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&hfslot, fslot, sizeof hfslot, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(holds, olds, sizeof holds, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hfolds, folds, sizeof hfolds, cudaMemcpyDeviceToHost));
    EXPECT(hring == (unsigned)(n % 10), "atomicInc(p, 9) %d times from 0 wraps to %d (got %u)", n, n % 10, hring);
    /* atomicExch: the old values and the last one are the first one (-7) and
     * every thread's, each once */
    int seen[193] = { 0 }, fseen[193] = { 0 }, bad = 0;
    for (int i = 0; i <= n; i++) {
        int v = i < n ? holds[i] : hslot;
        if (v == -7) seen[0]++;
        else if (v >= 0 && v < n) seen[v + 1]++;
        else bad++;
    }
    for (int k = 0; k <= n; k++) bad += seen[k] != 1;
    EXPECT(bad == 0, "int atomicExch: every value is handed on exactly once (%d wrong)", bad);
    bad = 0;
    for (int i = 0; i <= n; i++) {
        float v = i < n ? hfolds[i] : hfslot;
        if (v == -1.0f) fseen[0]++;
        else if (v >= 0 && v < (float)n && v - (float)(int)v == 0.25f) fseen[(int)v + 1]++;
        else bad++;
    }
    for (int k = 0; k <= n; k++) bad += fseen[k] != 1;
    EXPECT(bad == 0, "float atomicExch: every value is handed on exactly once (%d wrong)", bad);
    int want_min = INT_MAX;
    float want_fmin = 1e30f;
    for (int i = 0; i < n; i++) {
        if ((i * 7919) % 1009 - 500 < want_min) want_min = (i * 7919) % 1009 - 500;
        if ((float)((i * 37) % 1001) - 500.5f < want_fmin) want_fmin = (float)((i * 37) % 1001) - 500.5f;
    }
    EXPECT(hmin == want_min, "int atomicMin finds %d (got %d)", want_min, hmin);
    EXPECT(hfmin == want_fmin, "float atomicMin finds %g (got %g)", (double)want_fmin, (double)hfmin);
    cudaFree(ring); cudaFree(slot); cudaFree(olds); cudaFree(imin); cudaFree(fmin); cudaFree(fslot); cudaFree(folds);
}

/* The 256-bin histogram, exact for several sizes and grids, on one and on
 * four OS threads, with no report; float atomicAdd on shared memory zeroed
 * by plain stores: sums, never NaN. */
static void test_histogram256(void)
{
    static const struct { int n, blocks, threads, workers; } cases[] = {
        { 5, 1, 32, 1 }, { 1000, 4, 64, 1 }, { 4099, 3, 100, 1 }, { 40000, 16, 256, 1 }, { 777, 5, 160, 1 },
        { 10000, 8, 32, 4 },   /* small blocks on 4 OS threads: ThreadSanitizer builds are slow otherwise */
    };
    int nmax = 40000;
    unsigned char *hdata = (unsigned char *)malloc((size_t)nmax);
    for (int i = 0; i < nmax; i++) hdata[i] = (unsigned char)((i * 2654435761u) >> 13);
    unsigned char *data = dev<unsigned char>((size_t)nmax);
    unsigned *hist = dev<unsigned>(256);
    CUDA_CHECK(cudaMemcpy(data, hdata, (size_t)nmax, cudaMemcpyHostToDevice));
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned want[256] = { 0 }, got[256];
        for (int i = 0; i < cases[c].n; i++) want[hdata[i]]++;
        CUDA_CHECK(cudaMemset(hist, 0, sizeof got));
        pw_simt_set_workers(cases[c].workers);
        long before = pw_simt_report_count();
        histogram256<<<cases[c].blocks, cases[c].threads>>>(data, hist, cases[c].n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(got, hist, sizeof got, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int b = 0; b < 256; b++) bad += got[b] != want[b];
        EXPECT(bad == 0, "n = %d, %d blocks of %d, %d OS thread(s): every bin right (%d wrong)", cases[c].n,
               cases[c].blocks, cases[c].threads, cases[c].workers, bad);
        EXPECT(pw_simt_report_count() == before, "n = %d: no report (%ld)", cases[c].n,
               pw_simt_report_count() - before);
    }
    pw_simt_set_workers(0);   /* the default again: every core */

    int n = 1000;
    float hx[1000], want[8] = { 0 }, got[8];
    for (int i = 0; i < n; i++) { hx[i] = (float)(i % 13) * 0.5f; want[i % 8] += hx[i]; }
    float *x = dev<float>((size_t)n), *sums = dev<float>(8);
    CUDA_CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(sums, 0, sizeof got));
    long before = pw_simt_report_count();
    float_bins<<<pw_ceil_div((size_t)n, 128), 128>>>(x, sums, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost));
    int nan = 0, bad = 0;
    for (int k = 0; k < 8; k++) { nan += isnan(got[k]); bad += got[k] != want[k]; }
    /* halves of whole numbers below 2^24: exact in any order */
    EXPECT(nan == 0 && bad == 0, "float atomicAdd on plainly zeroed shared memory: right sums, %d NaN (%g, want %g)",
           nan, (double)got[0], (double)want[0]);
    EXPECT(pw_simt_report_count() == before, "no report (%ld)", pw_simt_report_count() - before);
    free(hdata);
    cudaFree(data); cudaFree(hist); cudaFree(x); cudaFree(sums);
}

/* For the GPU model's counters: a dot product per thread down a column
 * (each pass of the loop is one round of loads), and the same staged
 * through shared memory in tiles of 32 (one round a tile, however many
 * passes the staging loop makes). */
__global__ void rows_dot(const float *A, float *out, int n)
{
    int row = threadIdx.x;
    float acc = 0;
    for (int p = 0; p < n; p++) acc += A[(size_t)row * n + p];   /* 32 rows: 32 lines a request */
    out[row] = acc;
}
__global__ void staged_dot(const float *A, float *out, int n)
{
    __shared__ float tile[32 * 33];
    float acc = 0;
    for (int t = 0; t < n; t += 32) {
        for (int r = 0; r < 32; r++) tile[r * 33 + threadIdx.x] = A[(size_t)r * n + t + threadIdx.x];   /* 32 loads, one round */
        __syncthreads();
        for (int p = 0; p < 32; p++) acc += tile[threadIdx.x * 33 + p];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

static void test_counters(void)
{
    float *in = dev<float>(32 * 32), *out = dev<float>(32 * 32);
    double *dout = dev<double>(64);
    CUDA_CHECK(cudaMemset(in, 0, 32 * 32 * sizeof(float)));
    const pw_simt_counters *c = pw_simt_last_counters();   /* (refetched after each launch: the call waits for it) */

    load_stride<<<1, 32, 0>>>(in, out, 1);
    c = pw_simt_last_counters();
    EXPECT(c->global_load_requests == 1 && c->global_load_sectors == 4,
           "a warp's stride-1 float load: 1 request, 4 sectors (got %lld, %lld)", c->global_load_requests,
           c->global_load_sectors);
    EXPECT(c->global_loads == 32 && c->global_stores == 32, "32 loads and 32 stores per thread count (%lld, %lld)",
           c->global_loads, c->global_stores);
    EXPECT(pw_simt_sectors_per_request(c) == 4.0, "4 sectors per request, loads and stores (got %g)",
           pw_simt_sectors_per_request(c));
    load_stride<<<1, 32, 0>>>(in, out, 2);
    c = pw_simt_last_counters();
    EXPECT(c->global_load_sectors == 8, "stride 2: 8 sectors (got %lld)", c->global_load_sectors);
    load_stride<<<1, 32, 0>>>(in, out, 32);
    c = pw_simt_last_counters();
    EXPECT(c->global_load_requests == 1 && c->global_load_sectors == 32, "stride 32: 32 sectors (got %lld)",
           c->global_load_sectors);
    EXPECT(pw_simt_efficiency(c) == 1.0, "no divergence: SIMT efficiency 1 (got %g)", pw_simt_efficiency(c));

    tile_column<<<1, 32, 0>>>(out, 0);
    c = pw_simt_last_counters();
    EXPECT(c->shared_max_ways == 32, "a 32x32 float tile read by column: 32-way conflict (got %lld)",
           c->shared_max_ways);
    EXPECT(c->shared_requests == 33 && c->shared_wavefronts == 32 + 32,
           "32 conflict-free row stores + 1 column load of 32 ways (got %lld requests, %lld wavefronts)",
           c->shared_requests, c->shared_wavefronts);
    tile_column<<<1, 32, 0>>>(out, 1);
    c = pw_simt_last_counters();
    EXPECT(c->shared_max_ways == 1, "padded to 33 columns: no conflict (got %lld)", c->shared_max_ways);

    transpose32<<<1, dim3(32, 8)>>>(in, out);   /* 8 warps, 4 rows each */
    c = pw_simt_last_counters();
    CUDA_CHECK(cudaGetLastError());
    EXPECT(c->shared_max_ways == 32 && c->shared_requests == 64 && c->shared_wavefronts == 32 + 32 * 32,
           "transpose through float tile[32][32]: rows 1 way, columns 32 ways (got max %lld, %lld requests, %lld "
           "wavefronts)", c->shared_max_ways, c->shared_requests, c->shared_wavefronts);
    EXPECT(c->global_load_sectors == 32 * 4 && c->global_store_sectors == 32 * 4,
           "and every global access coalesced: 4 sectors per warp (got %lld, %lld)", c->global_load_sectors,
           c->global_store_sectors);
    transpose33<<<1, dim3(32, 8)>>>(in, out);
    c = pw_simt_last_counters();
    CUDA_CHECK(cudaGetLastError());
    EXPECT(c->shared_max_ways == 1 && pw_simt_conflict_ways(c) == 1.0,
           "padded to tile[32][33]: 1 way everywhere (got max %lld, mean %g)", c->shared_max_ways,
           pw_simt_conflict_ways(c));

    broadcast<<<1, 32, 0>>>(in, out);
    c = pw_simt_last_counters();
    EXPECT(c->shared_max_ways == 1, "every lane reading one word is a broadcast, 1 way (got %lld)",
           c->shared_max_ways);

    branch_on_lane<<<1, 64, 0>>>(out, dout);
    c = pw_simt_last_counters();
    EXPECT(pw_simt_efficiency(c) == 0.5 && c->global_store_requests == 4,
           "a branch on lane parity: 4 half-warp stores, SIMT efficiency 0.5 (got %g, %lld)",
           pw_simt_efficiency(c), c->global_store_requests);
    branch_on_warp<<<1, 64, 0>>>(out, dout);
    c = pw_simt_last_counters();
    EXPECT(pw_simt_efficiency(c) == 1.0 && c->global_store_requests == 2,
           "a branch on the warp index: 2 full-warp stores, efficiency 1 (got %g, %lld)", pw_simt_efficiency(c),
           c->global_store_requests);
    branch_on_lane<<<1, 48, 0>>>(out, dout);
    c = pw_simt_last_counters();
    EXPECT(c->warp_steps == 4 && c->active_lanes == 48, "a short warp counts its missing lanes as idle (%lld, %lld)",
           c->warp_steps, c->active_lanes);

    /* the GPU model's counters: lines, rounds, the launch */
    float *big = dev<float>(32 * 128);
    CUDA_CHECK(cudaMemset(big, 0, 32 * 128 * sizeof(float)));
    rows_dot<<<2, 32>>>(big, out, 128);
    c = pw_simt_last_counters();
    CUDA_CHECK(cudaGetLastError());
    EXPECT(c->global_load_lines == 2 * 128 * 32 && c->global_load_sectors == 2 * 128 * 32,
           "32 rows 512 bytes apart: 32 lines (and sectors) a request (got %lld lines, %lld sectors)",
           c->global_load_lines, c->global_load_sectors);
    EXPECT(c->global_load_l2_sectors == 2 * 32 * 16, "L2 serves each block's 32 rows of 16 sectors once (got %lld)",
           c->global_load_l2_sectors);
    EXPECT(c->global_store_lines == 2 && c->warps == 2 && c->load_rounds == 2 * 128,
           "a coalesced store: 1 line; 2 warps of 128 rounds (one a pass) (got %lld, %lld, %lld)", c->global_store_lines,
           c->warps, c->load_rounds);
    EXPECT(c->threads_per_block == 32 && c->shared_static_bytes == 0 && c->shared_dynamic_bytes == 0 &&
           !strcmp(pw_simt_last_kernel(), "rows_dot"), "the launch: 32 threads, no shared memory, kernel %s",
           pw_simt_last_kernel());
    staged_dot<<<1, 32, 64>>>(big, out, 128);
    c = pw_simt_last_counters();
    CUDA_CHECK(cudaGetLastError());
    EXPECT(c->load_rounds == 128 / 32 && c->global_load_lines == 128 && c->global_load_requests == 128,
           "staged through shared memory: 4 tiles, 4 rounds, though 128 loads of one line (got %lld rounds, %lld lines)",
           c->load_rounds, c->global_load_lines);
    EXPECT(c->shared_static_bytes == 32 * 33 * 4 && c->shared_dynamic_bytes == 64 && c->threads_per_block == 32,
           "static 4224 bytes, dynamic 64 (got %lld, %lld)", c->shared_static_bytes, c->shared_dynamic_bytes);
    cudaFree(big);
    cudaFree(in);
    cudaFree(out);
    cudaFree(dout);
}

/* x[i] = x[i] + 1: the read is an access like any other, counted and
 * checked, though a write to the same place follows it. */
static void test_read_modify_write(void)
{
    int *x = dev<int>(64), h[64];
    long before = pw_simt_report_count();
    add_one<<<1, 32>>>(x, 32);          /* x was never written: initcheck */
    CUDA_CHECK(cudaGetLastError());
    long reports = pw_simt_report_count() - before;
    CUDA_CHECK(cudaMemset(x, 0, sizeof h));
    add_one<<<2, 32>>>(x, 64);
    CUDA_CHECK(cudaGetLastError());
    const pw_simt_counters *c = pw_simt_last_counters();
    long long loads = c->global_loads, stores = c->global_stores, requests = c->global_load_requests;
    CUDA_CHECK(cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += h[i] != 1;
    EXPECT(bad == 0, "every element incremented (%d wrong)", bad);
    EXPECT(stores == 64, "64 stores (%lld)", stores);
    cudaFree(x);
    /* (clang drops such a read unless tools/pwcc asks for it: -tsan-instrument-read-before-write) */
    EXPECT(loads == 64 && requests == 2 && reports > 0,
           "the read of x[i] = x[i] + 1 is seen: %lld loads (want 64), %lld load requests (want 2), %ld initcheck "
           "reports (want > 0)", loads, requests, reports);
}

static void test_shuffle_order(void)
{
    int *d = dev<int>(64), a[64], b[64];
    racy_neighbour<<<1, 64, 0>>>(d);
    CUDA_CHECK(cudaMemcpy(a, d, sizeof a, cudaMemcpyDeviceToHost));
    racy_neighbour<<<1, 64, 0>>>(d);
    CUDA_CHECK(cudaMemcpy(b, d, sizeof b, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(a, b, sizeof a) == 0, "in order, the same run gives the same result");
    int poisoned = 0;
    for (int i = 0; i < 63; i++) poisoned += a[i] == -1;
    EXPECT(poisoned == 63, "in order, each thread reads its neighbour before it wrote: the poison (%d of 63)",
           poisoned);
    pw_simt_set_shuffle(12345);
    racy_neighbour<<<1, 64, 0>>>(d);
    CUDA_CHECK(cudaMemcpy(b, d, sizeof b, cudaMemcpyDeviceToHost));
    pw_simt_set_shuffle(0);
    int differ = 0;
    for (int i = 0; i < 64; i++) differ += a[i] != b[i];
    EXPECT(differ > 0, "shuffled, some threads see their neighbour's value: the race shows (%d differ)", differ);
    cudaFree(d);
}

/* racecheck alone, so that what is counted is its reports. */
/* Neighbouring threads store 2-byte and 1-byte values into one 4-byte word
 * of shared memory: no race (different bytes); then threads t and t + 1
 * store the same byte with no barrier: a race. */
__global__ void subword_neighbours(short *out, int clash)
{
    __shared__ short s[64];
    __shared__ unsigned char b[64];
    int t = threadIdx.x;
    s[t] = (short)(t * 3);
    b[clash ? t / 2 : t] = (unsigned char)t;
    __syncthreads();
    out[t] = (short)(s[63 - t] + b[t]);
}

/* A float4 copied whole (clang emits a memcpy call for it): one 16-byte
 * access per lane, checked and counted. */
__global__ void copy_float4(const float4 *in, float4 *out)
{
    __shared__ float4 s[32];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[31 - threadIdx.x];
}

static void test_racecheck(void)
{
    int *d = dev<int>(64), h[64], *in = dev<int>(32), hin[32], want = 0;
    for (int i = 0; i < 32; i++) { hin[i] = i * i - 7; want += hin[i]; }
    CUDA_CHECK(cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice));
    pw_simt_set_checks(PW_CHECK_RACECHECK);

    long before = pw_simt_report_count();
    short *sh = dev<short>(64);
    subword_neighbours<<<1, 64>>>(sh, 0);
    CUDA_CHECK(cudaGetLastError());
    EXPECT(pw_simt_report_count() == before, "neighbours storing halves and bytes of one word: no report (%ld)",
           pw_simt_report_count() - before);
    subword_neighbours<<<1, 64>>>(sh, 1);
    CUDA_CHECK(cudaGetLastError());
    EXPECT(pw_simt_report_count() > before, "two threads storing the same byte, no barrier: reported");
    cudaFree(sh);
    pw_simt_set_checks(PW_CHECK_ALL);
    float4 hv[32], got[32];
    for (int i = 0; i < 32; i++) hv[i] = make_float4((float)i, 1.0f, 2.0f, (float)-i);
    float4 *v_in = dev<float4>(32), *v_out = dev<float4>(32);
    CUDA_CHECK(cudaMemcpy(v_in, hv, sizeof hv, cudaMemcpyHostToDevice));
    before = pw_simt_report_count();
    copy_float4<<<1, 32>>>(v_in, v_out);
    CUDA_CHECK(cudaGetLastError());
    const pw_simt_counters *vc = pw_simt_last_counters();
    EXPECT(vc->global_load_requests == 1 && vc->global_load_sectors == 16 && vc->global_store_requests == 1 &&
               vc->shared_requests == 2 && pw_simt_report_count() == before,
           "a float4 copy: one 16-byte request each way (loads %lld requests %lld sectors, stores %lld, shared %lld), "
           "no report (%ld)", vc->global_load_requests, vc->global_load_sectors, vc->global_store_requests,
           vc->shared_requests, pw_simt_report_count() - before);
    CUDA_CHECK(cudaMemcpy(got, v_out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got[5].x == 26.0f && got[5].w == -26.0f, "the copy arrives reversed");
    cudaFree(v_in);
    cudaFree(v_out);
    pw_simt_set_checks(PW_CHECK_RACECHECK);
    before = pw_simt_report_count();
    other_warp_no_sync<<<1, 64>>>(d);
    CUDA_CHECK(cudaGetLastError());
    EXPECT(pw_simt_report_count() > before, "reading what another warp wrote, no barrier between: reported");
    before = pw_simt_report_count();
    other_warp_sync<<<1, 64>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < 64; t++) bad += h[t] != 3 * ((t + 32) % 64);
    EXPECT(pw_simt_report_count() == before && bad == 0,
           "with __syncthreads() between: no report (%ld), right values (%d wrong)", pw_simt_report_count() - before,
           bad);

    before = pw_simt_report_count();
    warp_sum_lockstep<<<1, 32>>>(in, d);
    CUDA_CHECK(cudaGetLastError());
    EXPECT(pw_simt_report_count() > before, "warp-synchronous code without __syncwarp: reported");
    before = pw_simt_report_count();
    warp_sum_syncwarp<<<1, 32>>>(in, d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(pw_simt_report_count() == before && h[0] == want,
           "with __syncwarp() between: no report (%ld), the sum %d (got %d)", pw_simt_report_count() - before, want,
           h[0]);

    before = pw_simt_report_count();
    shared_counter<<<2, 64>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(pw_simt_report_count() == before && h[0] == 64 && h[1] == 64,
           "64 atomicAdds on one shared word are no race (%ld reports), count 64 per block (%d, %d)",
           pw_simt_report_count() - before, h[0], h[1]);

    pw_simt_set_checks(PW_CHECK_ALL);
    /* and the correct kernels are clean under every check */
    before = pw_simt_report_count();
    other_warp_sync<<<1, 64>>>(d);
    warp_sum_syncwarp<<<1, 32>>>(in, d);
    shared_counter<<<2, 64>>>(d);
    CUDA_CHECK(cudaGetLastError());
    EXPECT(pw_simt_report_count() == before, "the correct ones have no report under all checks (%ld)",
           pw_simt_report_count() - before);
    cudaFree(d);
    cudaFree(in);
}

static void test_initcheck_global(void)
{
    int n = 256;
    float *in = dev<float>((size_t)n), *out = dev<float>((size_t)n), h[256];
    long before = pw_simt_report_count();
    double_it<<<2, 128>>>(in, out, n);
    CUDA_CHECK(cudaGetLastError());
    EXPECT(pw_simt_report_count() > before, "reading cudaMalloc memory nothing wrote: reported");
    CUDA_CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(isnan(h[0]), "and it read garbage (the poison: NaN), got %g", (double)h[0]);
    cudaFree(in);

    in = dev<float>((size_t)n);
    CUDA_CHECK(cudaMemset(in, 0, (size_t)n * sizeof(float)));
    before = pw_simt_report_count();
    double_it<<<2, 128>>>(in, out, n);
    CUDA_CHECK(cudaGetLastError());
    EXPECT(pw_simt_report_count() == before, "after cudaMemset: no report (%ld)", pw_simt_report_count() - before);

    float *in2 = dev<float>((size_t)n);
    for (int i = 0; i < n; i++) h[i] = (float)i;
    CUDA_CHECK(cudaMemcpy(in2, h, sizeof h, cudaMemcpyHostToDevice));
    before = pw_simt_report_count();
    double_it<<<2, 128>>>(in2, out, n);
    CUDA_CHECK(cudaGetLastError());
    EXPECT(pw_simt_report_count() == before, "after cudaMemcpy: no report (%ld)", pw_simt_report_count() - before);
    cudaFree(in);
    cudaFree(in2);
    cudaFree(out);
}

/* Forward progress: a thread spinning on a flag another warp sets gets
 * there; one that waits for nothing is a livelock, reported, not a hang. */
static void test_spin(void)
{
    int *data = dev<int>(32), *flag = dev<int>(1), *out = dev<int>(32), h[32];
    CUDA_CHECK(cudaMemset(flag, 0, sizeof(int)));
    wait_for_warp1<<<1, 64>>>(data, flag, out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < 32; t++) bad += h[t] != 10 * t + 1;
    EXPECT(bad == 0, "warp 0 waited for warp 1's flag and read its work (%d wrong)", bad);
    /* racecheck knows nothing of flags: its reports are not counted here */
    wait_for_warp1_shared<<<2, 64>>>(out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int t = 0; t < 32; t++) bad += h[t] != 10 * t + 2;
    EXPECT(bad == 0, "the same with a volatile __shared__ flag (%d wrong)", bad);

    CUDA_CHECK(cudaMemset(flag, 0, sizeof(int)));
    pw_simt_set_spin_limit(1 << 18);
    double t0 = pw_now();
    wait_forever<<<2, 64>>>(flag, out);
    double dt = pw_now() - t0;
    pw_simt_set_spin_limit(0);
    const char *want[] = { "simt livelock: kernel wait_forever", "block (0,0,0)", "no progress",
                           "PW_SIMT_SPIN_LIMIT=262144", NULL };
    EXPECT(failed_with(cudaErrorLaunchTimeout, want), "waiting for a flag nobody sets is a livelock");
    EXPECT(dt < 2.0, "found in %.2f s", dt);
    EXPECT(still_alive(), "a launch after it runs");
    cudaFree(data); cudaFree(flag); cudaFree(out);
}

/* What the translator must get right: explicit template arguments, no
 * parameters, parameters named a, b, c, __device__ variables, dynamic and
 * static shared memory side by side. */
static void test_language(void)
{
    int n = 300;
    float *x = dev<float>((size_t)n), hx[300];
    int *xi = dev<int>((size_t)n), hi[300];
    for (int i = 0; i < n; i++) { hx[i] = (float)i; hi[i] = i; }
    CUDA_CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(xi, hi, sizeof hi, cudaMemcpyHostToDevice));
    scale_by<float, 3><<<pw_ceil_div((size_t)n, 128), 128>>>(x, n);
    CUDA_CHECK(cudaGetLastError());
    scale_by<int, -2><<<pw_ceil_div((size_t)n, 64), 64>>>(xi, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hi, xi, sizeof hi, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += hx[i] != 3.0f * (float)i || hi[i] != -2 * i;
    EXPECT(bad == 0, "scale_by<float, 3> and scale_by<int, -2> (%d wrong)", bad);

    int zero = 0;
    unsigned long long zero64 = 0;
    CUDA_CHECK(pw_simt_memcpy_to_symbol(&launches_seen, &zero, sizeof zero, 0));
    CUDA_CHECK(pw_simt_memcpy_to_symbol(&threads_seen, &zero64, sizeof zero64, 0));
    long before = pw_simt_report_count();
    count_me<<<5, 96>>>();
    CUDA_CHECK(cudaGetLastError());
    pw_simt_set_workers(3);
    count_me<<<7, 32>>>();
    CUDA_CHECK(cudaGetLastError());
    pw_simt_set_workers(0);   /* the default again: every core */
    int launches = 0;
    unsigned long long threads = 0;
    CUDA_CHECK(pw_simt_memcpy_from_symbol(&launches, &launches_seen, sizeof launches, 0));
    CUDA_CHECK(pw_simt_memcpy_from_symbol(&threads, &threads_seen, sizeof threads, 0));
    EXPECT(launches == 12 && threads == 5 * 96 + 7 * 32,
           "a kernel without parameters counts on __device__ variables: %d blocks (want 12), %llu threads (want %d)",
           launches, threads, 5 * 96 + 7 * 32);
    EXPECT(pw_simt_report_count() == before, "no report (%ld)", pw_simt_report_count() - before);

    float *a = dev<float>((size_t)n), *b = dev<float>((size_t)n), *c = dev<float>((size_t)n), hc[300];
    for (int i = 0; i < n; i++) hx[i] = (float)i;
    CUDA_CHECK(cudaMemcpy(a, hx, sizeof hx, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b, hx, sizeof hx, cudaMemcpyHostToDevice));
    add_abc<<<pw_ceil_div((size_t)n, 128), 128>>>(a, b, c, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n; i++) bad += hc[i] != 2.0f * (float)i;
    EXPECT(bad == 0, "parameters named a, b, c (%d wrong)", bad);

    int *out = dev<int>(128), ho[128], *apart = dev<int>(1), ha = 0;
    before = pw_simt_report_count();
    both_shared<<<3, 64, 64 * sizeof(int)>>>(out, apart, 64);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&ha, apart, sizeof ha, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int t = 0; t < 64; t++) bad += ho[t] != 1000 + 63 - t || ho[64 + t] != 2000 + 63 - t;
    EXPECT(ha == 1 && bad == 0, "the dynamic and the static array do not overlap (apart %d, %d values wrong)", ha, bad);
    EXPECT(pw_simt_report_count() == before, "no report (%ld)", pw_simt_report_count() - before);
    cudaFree(x); cudaFree(xi); cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(out); cudaFree(apart);
}

/* Not a timed test: the speed is printed for the record. The rounds are
 * sized from a first run (sanitizer builds are far slower). */
static void test_speed(void)
{
    int *d = dev<int>(64);
    int rounds = 4;
    many_barriers<<<1, 256>>>(d, 1);        /* warm: fibers made */
    double t0 = pw_now();
    many_barriers<<<4, 256>>>(d, rounds);
    CUDA_CHECK(cudaDeviceSynchronize());    /* launches are asynchronous: time the run, not the issue */
    double dt = pw_now() - t0;
    CUDA_CHECK(cudaGetLastError());
    /* 16 blocks this time: about 0.25 s */
    double per_round = dt / (4.0 * rounds);
    double r = 0.25 / (16.0 * (per_round > 0 ? per_round : 1e-9));
    rounds = r < 2 ? 2 : r > 2000 ? 2000 : (int)r;
    pw_simt_counters_reset();
    t0 = pw_now();
    many_barriers<<<16, 256>>>(d, rounds);
    CUDA_CHECK(cudaDeviceSynchronize());
    dt = pw_now() - t0;
    CUDA_CHECK(cudaGetLastError());
    long long x = pw_simt_last_counters()->barrier_crossings;
    EXPECT(x == 16LL * 256 * rounds, "%lld crossings counted", x);
    EXPECT(pw_simt_total_counters()->barrier_crossings == x, "the total since the reset is that launch's");
    printf("  emulator: %.1f million barrier crossings per second on %d worker%s (%lld in %.3f s)\n",
           (double)x / dt * 1e-6, pw_simt_workers(), pw_simt_workers() == 1 ? "" : "s", x, dt);
    cudaFree(d);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--block-order")) return block_order_child();
    pw_simt_set_quiet(true);
    RUN(test_indices);
    RUN(test_barrier);
    RUN(test_access_log);
    RUN(test_poison);
    RUN(test_leftover_block);
    RUN(test_divergent_barrier);
    RUN(test_early_exit);
    RUN(test_all_blocked);
    RUN(test_bad_masks);
    RUN(test_out_of_bounds);
    RUN(test_far_past);
    self_path = argv[0];
    RUN(test_block_order);
    RUN(test_far_past_1mb);
    RUN(test_malloc_pointer);
    RUN(test_misaligned);
    RUN(test_report_lines);
    RUN(test_bad_config);
    RUN(test_shuffles);
    RUN(test_votes);
    RUN(test_match_reduce);
    RUN(test_atomics_threads);
    RUN(test_more_atomics);
    RUN(test_histogram256);
    RUN(test_counters);
    RUN(test_read_modify_write);
    RUN(test_shuffle_order);
    RUN(test_racecheck);
    RUN(test_initcheck_global);
    RUN(test_spin);
    RUN(test_language);
    RUN(test_speed);
    return UNIT_RESULT();
}
