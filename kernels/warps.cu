/* kernels/warps.cu: the kernels of chapter 08, in plain CUDA.
 *
 * Built twice: by nvcc for the GPU, and by tools/pwcc against the SIMT
 * emulator (common/simt/simt.h), which sees every access and counts what each
 * kernel does per warp. Declarations and what each kernel shows: warps.cuh. */
#include "warps.cuh"

/* ---- grid, block, warp, lane -------------------------------------------------- */

__global__ void whoami(int *block, int *warp, int *lane, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    block[i] = blockIdx.x;
    warp[i] = threadIdx.x / warpSize;
    lane[i] = threadIdx.x % warpSize;
}

/* ---- divergence ------------------------------------------------------------------ */

/* `iters` dependent multiply-adds: 2 flops each, per element. */
__device__ float busy(float v, float a, int iters)
{
    for (int k = 0; k < iters; k++) v = v * a + 0.5f;
    return v;
}

/* The two sides of the branches below: each loads, computes and stores on
 * its own. They are separate non-inlined functions on purpose: written as
 * `y[i] = busy(x[i], even ? 0.5f : 0.25f, iters)`-like code, a compiler may
 * pick the constant with a select and run one path for every lane (clang
 * did, here; a GPU compiler may too), and a branch it removes cannot
 * diverge. */
__device__ __noinline__ void side_half(const float *x, float *y, int i, int iters)
{
    y[i] = busy(x[i], 0.5f, iters);
}
__device__ __noinline__ void side_quarter(const float *x, float *y, int i, int iters)
{
    y[i] = busy(x[i], 0.25f, iters);
}

__global__ void branch_on_lane(const float *x, float *y, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (threadIdx.x % 2 == 0)
        side_half(x, y, i, iters);
    else
        side_quarter(x, y, i, iters);
}

__global__ void branch_on_warp(const float *x, float *y, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if ((threadIdx.x / warpSize) % 2 == 0)
        side_half(x, y, i, iters);
    else
        side_quarter(x, y, i, iters);
}

/* ---- coalescing ---------------------------------------------------------------------- */

/* 8 bytes per element: one float read, one written. */
__global__ void copy_stride(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(long long)i * stride % n];
}

/* 8 bytes useful per element (x read, out written); AoS drags y and z along. */
__global__ void scale_x_aos(const particle *p, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * p[i].x;
}

__global__ void scale_x_soa(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * x[i];
}

/* ---- transpose: 8 bytes per element (read once, written once) ----------------------------- */

/* Reads rows (coalesced), writes columns: 32 sectors per warp store. */
__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += TILE_ROWS) {
        int r = blockIdx.y * TILE + threadIdx.y + k;
        if (r < rows && c < cols) out[(long long)c * rows + r] = in[(long long)r * cols + c];
    }
}

/* Through a shared tile: coalesced both ways, but reading the tile by
 * column puts all 32 lanes on one bank (32-way conflict). */
__global__ void transpose_shared(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += TILE_ROWS) {
        int r = blockIdx.y * TILE + threadIdx.y + k;
        if (r < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[(long long)r * cols + c];
    }
    __syncthreads();
    int oc = blockIdx.y * TILE + threadIdx.x;          /* column of out = row of in */
    for (int k = 0; k < TILE; k += TILE_ROWS) {
        int orow = blockIdx.x * TILE + threadIdx.y + k;
        if (orow < cols && oc < rows)
            out[(long long)orow * rows + oc] = tile[threadIdx.x][threadIdx.y + k];
    }
}

/* One extra column shifts each row by one bank: no conflict. */
__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += TILE_ROWS) {
        int r = blockIdx.y * TILE + threadIdx.y + k;
        if (r < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[(long long)r * cols + c];
    }
    __syncthreads();
    int oc = blockIdx.y * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += TILE_ROWS) {
        int orow = blockIdx.x * TILE + threadIdx.y + k;
        if (orow < cols && oc < rows)
            out[(long long)orow * rows + oc] = tile[threadIdx.x][threadIdx.y + k];
    }
}

/* ---- the reduction ladder: n flops (adds), 4n bytes read ----------------------------------- */

/* Rung 0: neighbours add, then every 4th, every 8th... Threads tid % (2s) == 0
 * work: in every warp most lanes idle, and the warp still takes the step. */
__global__ void reduce_interleaved(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = 1; step < blockDim.x; step *= 2) {
        if (tid % (2 * step) == 0) s[tid] = s[tid] + s[tid + step];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}

/* Rung 1: the working threads are the first ones (no idle lanes in busy
 * warps), but thread t touches s[2*step*t]: lanes 2*step words apart share
 * banks (2-way at step 1, 4-way at step 2, 8-way from step 4 on, in blocks of 256). */
__global__ void reduce_strided_index(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = 1; step < blockDim.x; step *= 2) {
        unsigned k = 2 * step * tid;
        if (k < blockDim.x) s[k] = s[k] + s[k + step];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}

/* Rung 2: the first half adds the second half: consecutive lanes, consecutive words. */
__global__ void reduce_sequential(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] = s[tid] + s[tid + step];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}

/* Sum of this block's two blockDim.x-element halves, element tid of each. */
__device__ float first_add(const float *in, int n)
{
    unsigned i = blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    float v = i < (unsigned)n ? in[i] : 0.0f;
    if (i + blockDim.x < (unsigned)n) v += in[i + blockDim.x];
    return v;
}

/* Rung 3: half the blocks, each thread adds two elements as it loads. */
__global__ void reduce_first_add(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x;
    s[tid] = first_add(in, n);
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] = s[tid] + s[tid + step];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}

/* The sum of v over the 32 lanes of a warp, in lane 0: five shuffles, no
 * shared memory, no barrier. Every lane must call it (full mask). */
__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* Rung 4: shared memory down to 64 partial sums, then the first warp
 * finishes with shuffles: 6 barriers fewer for a block of 256. */
__global__ void reduce_warp_shuffle(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x;
    s[tid] = first_add(in, n);
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 32; step /= 2) {
        if (tid < step) s[tid] = s[tid] + s[tid + step];
        __syncthreads();
    }
    if (tid < 32) {
        float v = warp_sum(s[tid] + s[tid + 32]);
        if (tid == 0) partial[blockIdx.x] = v;
    }
}

/* Rung 5: a grid of a fixed size strides over the whole array, each thread
 * summing many elements in a register; then each warp sums by shuffles,
 * warp sums meet in shared memory, and the first warp sums those. */
__global__ void reduce_many(const float *in, float *partial, int n)
{
    extern __shared__ float s[];             /* one float per warp: 32 at most */
    unsigned tid = threadIdx.x, lane = tid % warpSize, warp = tid / warpSize;
    unsigned nwarps = blockDim.x / warpSize;
    float v = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < (unsigned)n; i += gridDim.x * blockDim.x)
        v += in[i];
    v = warp_sum(v);
    if (lane == 0) s[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? s[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) partial[blockIdx.x] = v;
    }
}

/* ---- vote ----------------------------------------------------------------------------------- */

__global__ void count_ballot(const float *x, int n, float threshold, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int match = i < n && x[i] > threshold;
    unsigned votes = __ballot_sync(0xffffffffu, match);    /* bit l: lane l matched */
    if (threadIdx.x % warpSize == 0) atomicAdd(count, __popc(votes));
}

__global__ void count_atomic(const float *x, int n, float threshold, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > threshold) atomicAdd(count, 1);
}

/* ---- the emulator's benchmark ------------------------------------------------------------------ */

__global__ void barrier_loop(int *out, int rounds)
{
    int x = 0;
    for (int r = 0; r < rounds; r++) {
        x += threadIdx.x;
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = x;
}

/* Each thread reads `rounds` floats (a warp reads 32 neighbours each round,
 * stride-1 over the whole array) and writes one sum: the emulator's access
 * speed, every access checked and counted as in any kernel. */
__global__ void access_loop(const float *x, float *out, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int r = 0; r < rounds; r++) s += x[(i + r * 32) % n];
    out[i % n] = s;
}
