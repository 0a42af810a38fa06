// libcu_atomic.cu: libcu++'s atomics (cuda::atomic, cuda::atomic_ref,
// cuda::std::atomic, memory orders, scopes, atomic_thread_fence).
// Conformance: every member the workbook's kernels may use, with NVIDIA's
// names and signatures, and the values they return; on the emulator they
// are atomics for racecheck and initcheck (no report: every shared word is
// touched by atomics only, and the last block reads the partial sums after
// a release/acquire ticket, the fence-and-flag protocol).
#include <cstdio>
#include <cstdlib>
#include <cuda/atomic>
#include <cuda/std/atomic>
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

#define BLOCKS 4
#define BLOCK 64

struct Results {
    int sum, maxv, minv, ors, ands, xors, exch, cas_ok, cas_seen;
    float fsum;
    unsigned long long big;
    int total;              // the last block's sum of the partial sums
    unsigned ticket;
    int partial[BLOCKS];
};

__device__ cuda::atomic<int, cuda::thread_scope_device> d_count{0};

__global__ void exercise(Results *r)
{
    int t = threadIdx.x, b = blockIdx.x, g = b * BLOCK + t;
    cuda::atomic_ref<int, cuda::thread_scope_device> sum(r->sum);
    sum.fetch_add(g, cuda::memory_order_relaxed);
    cuda::atomic_ref<int, cuda::thread_scope_device> mx(r->maxv), mn(r->minv);
    mx.fetch_max(g);
    mn.fetch_min(g);
    cuda::atomic_ref<int> ors(r->ors), ands(r->ands), xors(r->xors);
    ors |= 1 << (g % 31);
    ands &= ~(1 << (g % 8));
    xors ^= g;
    cuda::atomic_ref<float, cuda::thread_scope_device> fs(r->fsum);
    fs += 0.5f;
    cuda::atomic_ref<unsigned long long> big(r->big);
    ++big;
    big++;
    big -= 1;
    if (g == 5) {
        cuda::atomic_ref<int> ex(r->exch);
        int old = ex.exchange(42);
        int expected = 42;
        bool ok = ex.compare_exchange_strong(expected, 7);
        int wrong = 0;
        bool bad = ex.compare_exchange_weak(wrong, 9, cuda::memory_order_acq_rel, cuda::memory_order_relaxed);
        r->cas_ok = ok && !bad && old == -1;
        r->cas_seen = wrong;
    }
    d_count.fetch_add(1, cuda::std::memory_order_relaxed);
    // the last block: a partial sum per block, published by a release ticket
    __shared__ int part;
    if (t == 0) part = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> p(part);
    p.fetch_add(1);
    __syncthreads();
    if (t == 0) {
        r->partial[b] = p.load();
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(r->ticket);
        if (ticket.fetch_add(1, cuda::memory_order_acq_rel) == BLOCKS - 1) {
            cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
            int s = 0;
            for (int k = 0; k < BLOCKS; k++) s += r->partial[k];
            r->total = s;
        }
    }
}

int main()
{
    Results h = {};
    h.maxv = -1;
    h.minv = 1 << 30;
    h.ands = -1;
    h.exch = -1;
    Results *r;
    CHECK(cudaMalloc(&r, sizeof h));
    CHECK(cudaMemcpy(r, &h, sizeof h, cudaMemcpyHostToDevice));
    exercise<<<BLOCKS, BLOCK>>>(r);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h, r, sizeof h, cudaMemcpyDeviceToHost));
    int count = 0;
    CHECK(cudaMemcpyFromSymbol(&count, d_count, sizeof count));
    int n = BLOCKS * BLOCK;
    printf("sum %d (want %d), max %d, min %d\n", h.sum, n * (n - 1) / 2, h.maxv, h.minv);
    printf("or 0x%08x, and 0x%08x, xor %d\n", (unsigned)h.ors, (unsigned)h.ands, h.xors);
    printf("float sum %.1f, 64-bit count %llu, device-scope count %d\n", h.fsum, h.big, count);
    printf("exchange and compare-exchange %s (the failed one saw %d)\n", h.cas_ok ? "ok" : "WRONG", h.cas_seen);
    printf("last block: total %d of %d threads, tickets %u\n", h.total, n, h.ticket);
    cuda::std::atomic<int> host_side{3};
    host_side.fetch_add(4);
    cuda::std::atomic_flag flag;
    bool was = flag.test_and_set();
    printf("host: %d, flag was %d now %d, lock free %d\n", host_side.load(), was, flag.test(),
           (int)host_side.is_lock_free());
    CHECK(cudaFree(r));
    return 0;
}
