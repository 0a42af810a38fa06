/* common/simt/cuda/cooperative_groups/details/multi_warp.h: thread_block_tile<Size>
 * of 64, 128, 256 or 512 threads (several warps) on the SIMT emulator; a
 * part of cooperative_groups.h, not a header to include on its own.
 *
 * CUDA builds these tiles on a scratch area in shared memory (the
 * block_tile_memory a program declares, or from sm_80 a reserve of its
 * own): a barrier word per tile and a slot per warp through which the
 * warps of a tile exchange values. So does this one, with the same
 * algorithm: a tile barrier is an arrival counter the members increment
 * and wait on (the emulator lets a spinning thread give way, as Volta's
 * independent scheduling does); a reduce or scan is a warp-level one
 * (shuffles), then one value per warp through its slot, between two tile
 * barriers. The scratch is the block_tile_memory given to
 * this_thread_block(scratch), else a static __shared__ area of the block.
 *
 * Every access to the scratch is an atomic, so the emulator's racecheck
 * sees the exchange as ordered, as it is. What it cannot see: a tile
 * barrier ordering the program's own shared-memory accesses (racecheck
 * knows __syncthreads and the warp collectives): a program that relies on
 * multiWarpTile.sync() between its own writes and reads of shared memory
 * gets a racecheck report. The counters include the scratch's atomics
 * (a GPU does plain loads and stores there). Values exchanged are at most
 * 8 bytes, as in CUDA ("Collectives with tiles larger than 32 threads are
 * limited to types smaller then 8 bytes"). */
#ifndef PW_CUDA_CG_MULTI_WARP_H
#define PW_CUDA_CG_MULTI_WARP_H

namespace cooperative_groups {
namespace details {

/* The scratch: a barrier word for each tile size (64..512) starting at
 * each warp, and a slot per warp. 1280 bytes, a block of 1024 threads. */
struct multi_warp_scratch {
    unsigned long long bar[4][32];
    unsigned long long slot[32];
};
static const char multi_warp_scratch_tag = 0;   /* the block's own scratch, when the program gave none */

template <class T> static inline unsigned long long to_bits(const T &v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "cooperative groups: collectives of tiles larger than 32 threads take values of at most 8 bytes, "
                  "trivially copyable (as in CUDA)");
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <class T> static inline T from_bits(unsigned long long b)
{
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}

template <unsigned Size> class multi_warp_tile : public thread_group {
    static_assert(Size == 64 || Size == 128 || Size == 256 || Size == 512,
                  "thread_block_tile<Size>: Size must be 1, 2, 4, 8, 16, 32, 64, 128, 256 or 512");
    static constexpr unsigned level = Size == 64 ? 0 : Size == 128 ? 1 : Size == 256 ? 2 : 3;

protected:
    multi_warp_scratch *pw_mem;
    unsigned pw_base;    /* the block rank of the tile's first thread */
    unsigned pw_count;   /* its threads that exist: Size, or fewer in the last tile of a block */

    unsigned long long *barrier_word() const { return &pw_mem->bar[level][pw_base / 32]; }
    unsigned first_warp() const { return pw_base / 32; }
    unsigned warps() const { return (pw_count + 31) / 32; }
    unsigned long long *slot(unsigned warp) const { return &pw_mem->slot[warp]; }
    static unsigned my_warp() { return block_rank() / 32; }

    /* Every member arrives, then all go on: the count of arrivals only
     * grows, so a slow member still waiting on the last round is not
     * confused by the next. */
    void barrier() const
    {
        unsigned long long *w = barrier_word();
        unsigned long long old = __atomic_fetch_add(w, 1ull, __ATOMIC_ACQ_REL);
        unsigned long long target = old - old % pw_count + pw_count;
        while (__atomic_load_n(w, __ATOMIC_ACQUIRE) < target)
            pw_simt_yield();
    }
    /* Lane 0 of each warp of the tile gets the warp's op over its lanes. */
    template <class T, class Op> static T warp_reduce(T val, Op op, PW_SITE_ARGS)
    {
        unsigned mask = warp_lanes(), n = (unsigned)__popc(mask), lane = laneid();
        for (unsigned offset = 1; offset < n; offset *= 2) {
            T other = from_bits<T>(__shfl_sync(mask, to_bits(val), (int)(lane + offset < n ? lane + offset : lane), 32, PW_SITE));
            if (lane + offset < n && lane % (2 * offset) == 0)
                val = op(val, other);
        }
        return val;
    }
    template <class T, class Op> static T warp_inclusive(T val, Op op, PW_SITE_ARGS)
    {
        unsigned mask = warp_lanes(), lane = laneid();
        for (unsigned offset = 1; offset < 32; offset *= 2) {
            T other = from_bits<T>(__shfl_up_sync(mask, to_bits(val), offset, 32, PW_SITE));
            if (lane >= offset)
                val = op(other, val);
        }
        return val;
    }

public:
    template <class P>
    multi_warp_tile(from_parent_t, const P &parent, multi_warp_scratch *scratch, PW_SITE_ARGS)
        : thread_group(make_t{}, coalesced_group_id, 0, (unsigned)parent.thread_rank() / Size,
                       (unsigned)(parent.size() + Size - 1) / Size)
    {
        pw_mem = scratch ? scratch
                         : (multi_warp_scratch *)pw_simt_shared_static(&multi_warp_scratch_tag,
                                                                       sizeof(multi_warp_scratch), 8);
        pw_base = block_rank() & ~(Size - 1u);
        unsigned left = block_size() - pw_base;
        pw_count = left < Size ? left : Size;
        /* As CUDA's (sm_80+) constructor: the parent meets, the barrier is
         * reset, the parent meets again (nobody still waits on the old one).
         * Plain stores: they initialize the words (the scratch is poisoned at
         * each block start), ordered by the meetings before any atomic. */
        parent.sync(PW_SITE);
        if (block_rank() == pw_base)
            *barrier_word() = 0;
        if (laneid() == 0)
            *slot(my_warp()) = 0;
        parent.sync(PW_SITE);
    }
    static constexpr unsigned _group_id = coalesced_group_id;
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    static unsigned thread_rank() { return block_rank() & (Size - 1u); }
    unsigned meta_group_rank() const { return pw_meta_rank; }
    unsigned meta_group_size() const { return pw_meta_size; }
    multi_warp_scratch *pw_scratch() const { return pw_mem; }
    void sync(PW_SITE_ARGS) const
    {
        (void)pw_file, (void)pw_line;
        barrier();
    }

    /* op over every member's value, in every member (the warps' results
     * combined in warp order: the same value everywhere). */
    template <class T, class Op> T pw_reduce(T val, Op op, PW_SITE_ARGS) const
    {
        T mine = warp_reduce(val, op, PW_SITE);
        if (laneid() == 0)
            __atomic_store_n(slot(my_warp()), to_bits(mine), __ATOMIC_RELEASE);
        barrier();
        T r = from_bits<T>(__atomic_load_n(slot(first_warp()), __ATOMIC_ACQUIRE));
        for (unsigned w = first_warp() + 1; w < first_warp() + warps(); w++)
            r = op(r, from_bits<T>(__atomic_load_n(slot(w), __ATOMIC_ACQUIRE)));
        barrier();   /* the slots are free again */
        return r;
    }
    /* The scan of the members' values in rank order: inclusive, or
     * exclusive (the first member gets T{}). */
    template <class T, class Op> T pw_scan(T val, Op op, bool inclusive, PW_SITE_ARGS) const
    {
        T inc = warp_inclusive(val, op, PW_SITE);
        unsigned last_lane = (unsigned)(31 - __clz(warp_lanes()));
        if (laneid() == last_lane)
            __atomic_store_n(slot(my_warp()), to_bits(inc), __ATOMIC_RELEASE);
        T prev = from_bits<T>(__shfl_up_sync(warp_lanes(), to_bits(inc), 1, 32, PW_SITE));
        barrier();
        bool have = false;
        T prefix{};
        for (unsigned w = first_warp(); w < my_warp(); w++) {
            T s = from_bits<T>(__atomic_load_n(slot(w), __ATOMIC_ACQUIRE));
            prefix = have ? op(prefix, s) : s;
            have = true;
        }
        barrier();
        if (inclusive)
            return have ? op(prefix, inc) : inc;
        if (laneid() == 0)
            return have ? prefix : T{};
        return have ? op(prefix, prev) : prev;
    }
    /* The value of the member of rank src. */
    template <class T> T shfl(T var, unsigned src, PW_SITE_ARGS) const
    {
        (void)pw_file, (void)pw_line;
        unsigned w = (pw_base + src % Size) / 32;
        if (thread_rank() == src % Size)
            __atomic_store_n(slot(w), to_bits(var), __ATOMIC_RELEASE);
        barrier();
        T r = from_bits<T>(__atomic_load_n(slot(w), __ATOMIC_ACQUIRE));
        barrier();
        return r;
    }
    int any(int predicate, PW_SITE_ARGS) const
    {
        return pw_reduce(predicate ? 1 : 0, [](int a, int b) { return a | b; }, PW_SITE);
    }
    int all(int predicate, PW_SITE_ARGS) const
    {
        return pw_reduce(predicate ? 1 : 0, [](int a, int b) { return a & b; }, PW_SITE);
    }
    /* Not in CUDA's multi-warp tiles either: refused when compiled. */
    template <class T> T shfl_down(T, unsigned) const
    {
        static_assert(dependent_false<T>::value, "thread_block_tile<Size>::shfl_down: not available for tiles of "
                                                 "more than 32 threads (as in CUDA): use cg::reduce or shfl");
        return T{};
    }
    template <class T> T shfl_up(T, unsigned) const
    {
        static_assert(dependent_false<T>::value, "thread_block_tile<Size>::shfl_up: not available for tiles of more "
                                                 "than 32 threads (as in CUDA): use cg::inclusive_scan or shfl");
        return T{};
    }
};

template <class G> struct is_multi_warp : std::false_type {};

}  // namespace details
}  // namespace cooperative_groups

#endif
