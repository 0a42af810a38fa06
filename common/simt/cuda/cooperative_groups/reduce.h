/* common/simt/cuda/cooperative_groups/reduce.h: cg::reduce(group, value, op) on
 * the SIMT emulator. Every member of the group gets op applied over all the
 * members' values. group: a thread_block_tile<N> (a butterfly of
 * shfl_xor, log2 N shuffles; for N of 64 to 512, the warps' results through
 * the tile's scratch: details/multi_warp.h) or a coalesced_group, or the last tile of a
 * block whose size is not a multiple of N (shuffles towards rank 0 that
 * read only members that exist, then a broadcast). The order the values are combined in is
 * unspecified, as in CUDA: for floating point the result may differ from a
 * GPU's in the last bits. */
#ifndef PW_CUDA_CG_REDUCE_H
#define PW_CUDA_CG_REDUCE_H

#include "../cooperative_groups.h"
#include "details/functional.h"

namespace cooperative_groups {
namespace details {
template <class G> struct is_reduce_group : std::false_type {};
template <unsigned S, class P> struct is_reduce_group<thread_block_tile<S, P>> : std::true_type {};
template <> struct is_reduce_group<coalesced_group> : std::true_type {};
}  // namespace details

template <class G, class T, class Op>
static inline auto reduce(const G &group, T val, Op op, PW_SITE_ARGS) -> decltype(op(val, val))
{
    static_assert(details::is_reduce_group<G>::value,
                  "cg::reduce(group, value, op): group must be a thread_block_tile or a coalesced_group");
    if constexpr (details::is_multi_warp<G>::value)   /* several warps: through the tile's scratch */
        return group.pw_reduce(val, op, PW_SITE);
    else {
        unsigned n = group.size(), rank = group.thread_rank();
        if constexpr (details::tile_size_of<G>::value != 0xffffffffu) {
            if ((unsigned)__popc(group.get_mask()) == n) {   /* a whole tile: a butterfly */
                for (unsigned offset = n / 2; offset > 0; offset /= 2)
                    val = op(val, group.shfl_xor(val, offset, PW_SITE));
                return val;
            }
            n = (unsigned)__popc(group.get_mask());   /* the last tile of a block that is not a multiple of it */
        }
        /* Towards rank 0, reading only members that exist, then a broadcast. */
        for (unsigned offset = 1; offset < n; offset *= 2) {
            T other = group.shfl(val, (int)(rank + offset < n ? rank + offset : rank), PW_SITE);
            if (rank + offset < n)
                val = op(val, other);
        }
        return group.shfl(val, 0, PW_SITE);
    }
}
}  // namespace cooperative_groups

#endif
