/* common/simt/cuda/cooperative_groups.h: CUDA's cooperative groups on the SIMT
 * emulator (the stand-in for <cooperative_groups.h>; common/simt/cuda/ is on the
 * include path of emulator builds only).
 *
 *   namespace cg = cooperative_groups;
 *   cg::thread_block b = cg::this_thread_block();            // b.sync(): __syncthreads
 *   cg::thread_block_tile<32> w = cg::tiled_partition<32>(b); // w.sync(): __syncwarp(mask)
 *   v += w.shfl_down(v, 16);                                   // __shfl_down_sync(mask, v, 16, 32)
 *
 * Every member is the warp primitive of simt_device.h CUDA's implementation
 * calls, with the same mask and width, so the emulator checks and counts it
 * the same way; messages name the line of the call in your source (each
 * member takes its caller's file and line as default arguments).
 *
 * Tiles of 64 to 512 threads (several warps), and block_tile_memory with
 * this_thread_block(scratch), work as CUDA's do: details/multi_warp.h.
 *
 * What differs: a tile of a block whose size is not a multiple of 32 names
 * only the threads that exist in its mask (CUDA's static tiles name all 32
 * lanes, which a partial warp lacks). this_grid() and grid_group: every
 * thread of the launch; grid.sync() needs cudaLaunchCooperativeKernel.
 * Not supported yet, refused when the program is compiled:
 * this_multi_grid(), this_cluster(),
 * cg::memcpy_async.
 */
#ifndef PW_CUDA_COOPERATIVE_GROUPS_H
#define PW_CUDA_COOPERATIVE_GROUPS_H

#include "simt.h"

#include <string.h>
#include <type_traits>

namespace cooperative_groups {

namespace details {
template <class T> struct dependent_false : std::false_type {};
/* The calling thread's rank in its block; lanes are consecutive ranks. */
static inline unsigned block_rank()
{
    uint3 t = pw_simt_thread_idx();
    dim3 d = pw_simt_block_dim();
    return t.x + d.x * (t.y + d.y * t.z);
}
static inline unsigned block_size()
{
    dim3 d = pw_simt_block_dim();
    return d.x * d.y * d.z;
}
static inline unsigned laneid() { return block_rank() & 31u; }
static inline unsigned lanemask_lt() { return (1u << laneid()) - 1u; }
/* The lanes of the calling thread's warp that exist (a block of 48 threads
 * has a second warp of 16). */
static inline unsigned warp_lanes()
{
    unsigned n = block_size() - (block_rank() & ~31u);
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}
/* The lane of the rank-th member of mask (counting from 0), 32 if none. */
static inline unsigned nth_lane(unsigned mask, unsigned rank)
{
    for (unsigned lane = 0; lane < 32; lane++)
        if (mask & (1u << lane)) {
            if (rank == 0)
                return lane;
            rank--;
        }
    return 32;
}
/* The bits of lanes, renumbered by the members' ranks in mask. */
static inline unsigned pack_lanes(unsigned mask, unsigned lanes)
{
    unsigned r = 0, rank = 0;
    for (unsigned lane = 0; lane < 32; lane++)
        if (mask & (1u << lane)) {
            if (lanes & (1u << lane))
                r |= 1u << rank;
            rank++;
        }
    return r;
}
/* A shuffle of a value of any size: 8 bytes at a time, as CUDA's
 * cooperative groups split a large value into several shuffles. */
template <class T, class F> static inline T shuffle_any(const T &v, F shuffle)
{
    static_assert(std::is_trivially_copyable<T>::value, "cooperative groups shuffle trivially copyable values");
    if constexpr (sizeof(T) <= 8) {
        return shuffle(v);
    } else {
        unsigned long long part[(sizeof(T) + 7) / 8] = {};
        memcpy(part, &v, sizeof v);
        for (unsigned long long &p : part)
            p = shuffle(p);
        T r;
        memcpy(&r, part, sizeof r);
        return r;
    }
}
enum group_id { coalesced_group_id = 1, thread_block_id = 2, grid_group_id = 3, cluster_group_id = 5 };
struct from_parent_t {};
struct make_t {};   /* the groups' constructors are for this file only */
}  // namespace details

/* ---- the generic group: a block, or a set of lanes of one warp --------------- */
class thread_group {
protected:
    unsigned pw_type, pw_mask, pw_meta_rank, pw_meta_size;

public:
    thread_group(details::make_t, unsigned type, unsigned mask, unsigned meta_rank, unsigned meta_size)
        : pw_type(type), pw_mask(mask), pw_meta_rank(meta_rank), pw_meta_size(meta_size)
    {
    }
    unsigned long long size() const
    {
        return pw_type == details::thread_block_id ? details::block_size() : (unsigned)__popc(pw_mask);
    }
    unsigned long long num_threads() const { return size(); }
    unsigned long long thread_rank() const
    {
        return pw_type == details::thread_block_id ? details::block_rank()
                                                   : (unsigned)__popc(pw_mask & details::lanemask_lt());
    }
    void sync(PW_SITE_ARGS) const
    {
        if (pw_type == details::thread_block_id)
            __syncthreads(PW_SITE);
        else
            __syncwarp(pw_mask, PW_SITE);
    }
    unsigned get_type() const { return pw_type; }
    unsigned pw_lanes() const { return pw_mask; }   /* (the emulator's: a warp group's lanes) */
    bool is_valid() const { return true; }
};

}  // namespace cooperative_groups
#include "cooperative_groups/details/multi_warp.h"
namespace cooperative_groups {

/* ---- the block ------------------------------------------------------------------ */
/* The scratch of tiles of more than one warp (details/multi_warp.h), for a
 * block of at most MaxBlockSize threads: `__shared__ block_tile_memory<256>
 * scratch; auto b = this_thread_block(scratch);`. Without it the tiles use
 * an area of their own, as CUDA's do from sm_80. */
template <unsigned MaxBlockSize = 1024> struct block_tile_memory {
    static_assert(MaxBlockSize >= 1 && MaxBlockSize <= 1024, "block_tile_memory<MaxBlockSize>: 1 to 1024 threads");
    alignas(8) unsigned char pw_bytes[sizeof(details::multi_warp_scratch)];
};
class thread_block : public thread_group {
    details::multi_warp_scratch *pw_mem;

public:
    explicit thread_block(details::make_t, void *scratch = nullptr)
        : thread_group(details::make_t{}, details::thread_block_id, 0, 0, 1),
          pw_mem(static_cast<details::multi_warp_scratch *>(scratch))
    {
    }
    details::multi_warp_scratch *pw_scratch() const { return pw_mem; }
    static constexpr unsigned _group_id = details::thread_block_id;
    static void sync(PW_SITE_ARGS) { __syncthreads(PW_SITE); }
    static unsigned size() { return details::block_size(); }
    static unsigned num_threads() { return details::block_size(); }
    static unsigned thread_rank() { return details::block_rank(); }
    static dim3 group_index() { return pw_simt_block_idx(); }
    static dim3 thread_index() { return pw_simt_thread_idx(); }
    static dim3 group_dim() { return pw_simt_block_dim(); }
    static dim3 dim_threads() { return pw_simt_block_dim(); }
};
static inline thread_block this_thread_block() { return thread_block(details::make_t{}); }
template <unsigned MaxBlockSize> static inline thread_block this_thread_block(block_tile_memory<MaxBlockSize> &scratch)
{
    return thread_block(details::make_t{}, scratch.pw_bytes);
}

/* ---- any set of lanes of one warp -------------------------------------------------- */
class coalesced_group : public thread_group {
public:
    coalesced_group(details::make_t, unsigned mask, unsigned meta_rank = 0, unsigned meta_size = 1)
        : thread_group(details::make_t{}, details::coalesced_group_id, mask, meta_rank, meta_size)
    {
    }
    static constexpr unsigned _group_id = details::coalesced_group_id;
    unsigned num_threads() const { return (unsigned)__popc(pw_mask); }
    unsigned size() const { return num_threads(); }
    unsigned thread_rank() const { return (unsigned)__popc(pw_mask & details::lanemask_lt()); }
    unsigned meta_group_rank() const { return pw_meta_rank; }
    unsigned meta_group_size() const { return pw_meta_size; }
    unsigned get_mask() const { return pw_mask; }
    void sync(PW_SITE_ARGS) const { __syncwarp(pw_mask, PW_SITE); }

    template <class T> T shfl(T var, int srcRank, PW_SITE_ARGS) const
    {
        unsigned mask = pw_mask, lane = size() == 32 ? (unsigned)srcRank : details::nth_lane(mask, (unsigned)srcRank);
        return details::shuffle_any(var, [&](auto v) { return __shfl_sync(mask, v, (int)lane, 32, PW_SITE); });
    }
    /* The value of the member delta ranks above (below); the caller's own
     * where there is none, as CUDA's coalesced_group does. */
    template <class T> T shfl_down(T var, unsigned delta, PW_SITE_ARGS) const
    {
        unsigned mask = pw_mask;
        if (size() == 32)
            return details::shuffle_any(var, [&](auto v) { return __shfl_down_sync(mask, v, delta, 32, PW_SITE); });
        unsigned lane = details::nth_lane(mask, thread_rank() + delta);
        lane = lane < 32 ? lane : details::laneid();
        return details::shuffle_any(var, [&](auto v) { return __shfl_sync(mask, v, (int)lane, 32, PW_SITE); });
    }
    template <class T> T shfl_up(T var, unsigned delta, PW_SITE_ARGS) const
    {
        unsigned mask = pw_mask;
        if (size() == 32)
            return details::shuffle_any(var, [&](auto v) { return __shfl_up_sync(mask, v, delta, 32, PW_SITE); });
        unsigned rank = thread_rank();
        unsigned lane = rank >= delta ? details::nth_lane(mask, rank - delta) : details::laneid();
        return details::shuffle_any(var, [&](auto v) { return __shfl_sync(mask, v, (int)lane, 32, PW_SITE); });
    }
    int any(int predicate, PW_SITE_ARGS) const { return __ballot_sync(pw_mask, predicate, PW_SITE) != 0; }
    int all(int predicate, PW_SITE_ARGS) const { return __ballot_sync(pw_mask, predicate, PW_SITE) == pw_mask; }
    /* Bit r: the member of rank r. */
    unsigned ballot(int predicate, PW_SITE_ARGS) const
    {
        return details::pack_lanes(pw_mask, __ballot_sync(pw_mask, predicate, PW_SITE));
    }
    template <class T> unsigned match_any(T val, PW_SITE_ARGS) const
    {
        return details::pack_lanes(pw_mask, __match_any_sync(pw_mask, val, PW_SITE));
    }
    template <class T> unsigned match_all(T val, int &pred, PW_SITE_ARGS) const
    {
        return details::pack_lanes(pw_mask, __match_all_sync(pw_mask, val, &pred, PW_SITE));
    }
};
/* The threads of the calling warp that are here together: after a branch,
 * those on the same side (common/simt/simt_coalesce.c finds them: the
 * emulator does not run a warp's lanes in lock-step, so __activemask() is
 * every lane that has not exited). */
extern "C" unsigned pw_simt_coalesced_lanes(const char *file, int line);
static inline coalesced_group coalesced_threads(PW_SITE_ARGS)
{
    return coalesced_group(details::make_t{}, pw_simt_coalesced_lanes(PW_SITE));
}

/* ---- thread_block_tile<Size>: Size consecutive threads of a block (a warp or
 * an aligned part of one, Size a power of two up to 32; or 64 to 512
 * threads, several warps: details/multi_warp.h) --------------------------------- */
template <unsigned Size, class ParentT = void> class thread_block_tile;

namespace details {
template <class G> struct is_tile_parent : std::false_type {};
template <> struct is_tile_parent<thread_block> : std::true_type {};
template <unsigned S, class P> struct is_tile_parent<thread_block_tile<S, P>> : std::true_type {};
template <class G> struct tile_size_of { static constexpr unsigned value = 0xffffffffu; };
template <unsigned S, class P> struct tile_size_of<thread_block_tile<S, P>> { static constexpr unsigned value = S; };

template <unsigned Size> class tile_base : public thread_group {
    static_assert(Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16 || Size == 32,
                  "thread_block_tile<Size>: Size must be 1, 2, 4, 8, 16, 32, 64, 128, 256 or 512");

protected:
    /* Lanes of my tile that exist (see the top of this file). */
    static unsigned build_mask()
    {
        unsigned m = Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << (laneid() & ~(Size - 1u));
        return m & warp_lanes();
    }
    static unsigned base_lane() { return laneid() & ~(Size - 1u); }
    template <class P>
    tile_base(from_parent_t, const P &parent, multi_warp_scratch *, PW_SITE_ARGS)
        : thread_group(make_t{}, coalesced_group_id, build_mask(), (unsigned)parent.thread_rank() / Size,
                       (unsigned)(parent.size() + Size - 1) / Size)
    {
        (void)pw_file, (void)pw_line;
    }

public:
    static constexpr unsigned _group_id = coalesced_group_id;
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    static unsigned thread_rank() { return block_rank() & (Size - 1u); }
    unsigned meta_group_rank() const { return pw_meta_rank; }
    unsigned meta_group_size() const { return pw_meta_size; }
    unsigned get_mask() const { return pw_mask; }
    void sync(PW_SITE_ARGS) const { __syncwarp(pw_mask, PW_SITE); }

    template <class T> T shfl(T var, int srcRank, PW_SITE_ARGS) const
    {
        unsigned mask = pw_mask;
        return shuffle_any(var, [&](auto v) { return __shfl_sync(mask, v, srcRank, (int)Size, PW_SITE); });
    }
    template <class T> T shfl_down(T var, unsigned delta, PW_SITE_ARGS) const
    {
        unsigned mask = pw_mask;
        return shuffle_any(var, [&](auto v) { return __shfl_down_sync(mask, v, delta, (int)Size, PW_SITE); });
    }
    template <class T> T shfl_up(T var, unsigned delta, PW_SITE_ARGS) const
    {
        unsigned mask = pw_mask;
        return shuffle_any(var, [&](auto v) { return __shfl_up_sync(mask, v, delta, (int)Size, PW_SITE); });
    }
    template <class T> T shfl_xor(T var, unsigned laneMask, PW_SITE_ARGS) const
    {
        unsigned mask = pw_mask;
        return shuffle_any(var, [&](auto v) { return __shfl_xor_sync(mask, v, (int)laneMask, (int)Size, PW_SITE); });
    }
    int any(int predicate, PW_SITE_ARGS) const { return __any_sync(pw_mask, predicate, PW_SITE); }
    int all(int predicate, PW_SITE_ARGS) const { return __all_sync(pw_mask, predicate, PW_SITE); }
    /* Bit r: the tile's thread of rank r. */
    unsigned ballot(int predicate, PW_SITE_ARGS) const { return __ballot_sync(pw_mask, predicate, PW_SITE) >> base_lane(); }
    template <class T> unsigned match_any(T val, PW_SITE_ARGS) const
    {
        return __match_any_sync(pw_mask, val, PW_SITE) >> base_lane();
    }
    template <class T> unsigned match_all(T val, int &pred, PW_SITE_ARGS) const
    {
        return __match_all_sync(pw_mask, val, &pred, PW_SITE) >> base_lane();
    }
};
}  // namespace details

namespace details {
template <unsigned Size>
using tile_impl = typename std::conditional<(Size > 32), multi_warp_tile<Size>, tile_base<Size>>::type;
template <unsigned S, class P> struct is_multi_warp<thread_block_tile<S, P>> : std::integral_constant<bool, (S > 32)> {};
/* The scratch multi-warp tiles of g use: the block's (this_thread_block(scratch)) or their parent's. */
static inline multi_warp_scratch *scratch_of(const thread_block &g) { return g.pw_scratch(); }
template <class G> static inline multi_warp_scratch *scratch_of(const G &g)
{
    if constexpr (is_multi_warp<G>::value)
        return g.pw_scratch();
    else
        return nullptr;
}
}  // namespace details

template <unsigned Size, class ParentT> class thread_block_tile : public details::tile_impl<Size> {
    template <unsigned, class> friend class thread_block_tile;

public:
    /* What tiled_partition<Size>(parent) makes (for more than one warp: a
     * meeting of the parent, as in CUDA). */
    template <class P>
    thread_block_tile(details::from_parent_t, const P &parent, PW_SITE_ARGS)
        : details::tile_impl<Size>(details::from_parent_t{}, parent, details::scratch_of(parent), PW_SITE)
    {
    }
    /* thread_block_tile<32> t = tiled_partition<32>(block): forget the parent. */
    template <class P>
    thread_block_tile(const thread_block_tile<Size, P> &other) : details::tile_impl<Size>(other)
    {
    }
};

template <unsigned Size, class ParentT>
static inline thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent, PW_SITE_ARGS)
{
    static_assert(details::is_tile_parent<ParentT>::value,
                  "tiled_partition<Size>(g): g must be a thread_block or a thread_block_tile");
    static_assert(Size < details::tile_size_of<ParentT>::value, "Tile size bigger or equal to the parent group size");
    return thread_block_tile<Size, ParentT>(details::from_parent_t{}, parent, PW_SITE);
}
/* The calling thread alone. */
static inline thread_block_tile<1, void> this_thread()
{
    return thread_block_tile<1, void>(details::from_parent_t{}, tiled_partition<1>(this_thread_block()));
}

/* tiled_partition(g, n) with n known at run time: a thread_group (or a
 * coalesced_group of a coalesced_group), n a power of two up to 32. */
namespace details {
static inline void check_tile_size(unsigned tilesz, const char *file, int line)
{
    if (tilesz == 0 || tilesz > 32 || (tilesz & (tilesz - 1)) != 0)
        pw_simt_trap("cooperative_groups::tiled_partition(g, n): n must be 1, 2, 4, 8, 16 or 32", file, line);
}
}  // namespace details
static inline thread_group tiled_partition(const thread_block &parent, unsigned tilesz, PW_SITE_ARGS)
{
    details::check_tile_size(tilesz, PW_SITE);
    unsigned rank = parent.thread_rank(), base = rank & ~(tilesz - 1u), n = parent.size() - base;
    unsigned len = n < tilesz ? n : tilesz;
    unsigned mask = (len == 32 ? 0xffffffffu : (1u << len) - 1u) << (details::laneid() & ~(tilesz - 1u));
    return thread_group(details::make_t{}, details::coalesced_group_id, mask, rank / tilesz,
                        (parent.size() + tilesz - 1) / tilesz);
}
/* The members of parent, in rank order, tilesz at a time. */
static inline coalesced_group tiled_partition(const coalesced_group &parent, unsigned tilesz, PW_SITE_ARGS)
{
    details::check_tile_size(tilesz, PW_SITE);
    unsigned first = parent.thread_rank() / tilesz * tilesz, mask = 0;
    for (unsigned r = first; r < first + tilesz; r++) {
        unsigned lane = details::nth_lane(parent.get_mask(), r);
        if (lane < 32)
            mask |= 1u << lane;
    }
    return coalesced_group(details::make_t{}, mask, parent.thread_rank() / tilesz, (parent.size() + tilesz - 1) / tilesz);
}
static inline thread_group tiled_partition(const thread_group &parent, unsigned tilesz, PW_SITE_ARGS)
{
    if (parent.get_type() == details::thread_block_id)
        return tiled_partition(this_thread_block(), tilesz, PW_SITE);
    coalesced_group g(details::make_t{}, parent.pw_lanes(), 0, 1);
    return tiled_partition(g, tilesz, PW_SITE);
}

/* ---- partitions of a warp's group by a predicate or a label ----------------------- */
template <class G, class P> static inline coalesced_group binary_partition(const G &parent, P pred, PW_SITE_ARGS)
{
    unsigned mask = parent.get_mask(), yes = __ballot_sync(mask, pred ? 1 : 0, PW_SITE);
    return coalesced_group(details::make_t{}, pred ? yes : mask & ~yes);
}
template <class G> static inline coalesced_group labeled_partition(const G &parent, int label, PW_SITE_ARGS)
{
    return coalesced_group(details::make_t{}, __match_any_sync(parent.get_mask(), label, PW_SITE));
}

/* ---- free functions ------------------------------------------------------------------ */
template <class G> static inline void sync(const G &g, PW_SITE_ARGS) { g.sync(PW_SITE); }
template <class G> static inline auto thread_rank(const G &g) -> decltype(g.thread_rank()) { return g.thread_rank(); }
template <class G> static inline auto group_size(const G &g) -> decltype(g.num_threads()) { return g.num_threads(); }

/* ---- the grid: every thread of a launch (grid.sync() needs a cooperative launch) ----- */
/* sync() is grid-wide: in a launch made with cudaLaunchCooperativeKernel
 * every block is alive at once and all meet there (common/simt/simt_grid.c);
 * elsewhere is_valid() is false and sync() is an error naming its line (a
 * GPU traps). */
class grid_group {
    bool pw_valid;

public:
    explicit grid_group(details::make_t, bool valid) : pw_valid(valid) {}
    static constexpr unsigned _group_id = details::grid_group_id;
    bool is_valid() const { return pw_valid; }
    void sync(PW_SITE_ARGS) const { pw_simt_grid_sync(PW_SITE); }
    static unsigned long long num_blocks()
    {
        dim3 g = pw_simt_grid_dim();
        return (unsigned long long)g.x * (g.y * g.z);
    }
    static unsigned long long block_rank()
    {
        uint3 b = pw_simt_block_idx();
        dim3 g = pw_simt_grid_dim();
        return b.x + (unsigned long long)g.x * (b.y + (unsigned long long)g.y * b.z);
    }
    static unsigned long long num_threads() { return num_blocks() * details::block_size(); }
    static unsigned long long size() { return num_threads(); }
    static unsigned long long thread_rank() { return block_rank() * details::block_size() + details::block_rank(); }
    static dim3 dim_blocks() { return pw_simt_grid_dim(); }
    static dim3 group_dim() { return pw_simt_grid_dim(); }
    static dim3 block_index() { return pw_simt_block_idx(); }
    static dim3 dim_threads()
    {
        dim3 g = pw_simt_grid_dim(), b = pw_simt_block_dim();
        return dim3(g.x * b.x, g.y * b.y, g.z * b.z);
    }
    static dim3 thread_index()
    {
        uint3 bi = pw_simt_block_idx(), t = pw_simt_thread_idx();
        dim3 b = pw_simt_block_dim();
        return dim3(bi.x * b.x + t.x, bi.y * b.y + t.y, bi.z * b.z + t.z);
    }
};
static inline grid_group this_grid() { return grid_group(details::make_t{}, pw_simt_grid_is_valid() != 0); }

/* ---- not supported yet: refused at compile time --------------------------------------- */
class multi_grid_group {};
template <class PW = void> static inline multi_grid_group this_multi_grid()
{
    static_assert(details::dependent_false<PW>::value,
                  "SIMT emulator: cooperative_groups::this_multi_grid() is not supported yet");
    return multi_grid_group();
}
class cluster_group {};
template <class PW = void> static inline cluster_group this_cluster()
{
    static_assert(details::dependent_false<PW>::value,
                  "SIMT emulator: cooperative_groups::this_cluster() (thread block clusters) is not supported yet");
    return cluster_group();
}

}  // namespace cooperative_groups

#endif
