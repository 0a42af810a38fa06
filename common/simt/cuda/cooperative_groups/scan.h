/* common/simt/cuda/cooperative_groups/scan.h: cg::inclusive_scan and
 * cg::exclusive_scan over a thread_block_tile<N> or a coalesced_group on the
 * SIMT emulator (Hillis-Steele with shfl_up, log2 N shuffles; tiles of 64
 * to 512 threads: warp scans, then the warps' totals through the tile's
 * scratch, details/multi_warp.h). op defaults
 * to cg::plus. The exclusive scan's first member gets T{} (for an integral
 * plus, what CUDA gives; for other operators CUDA leaves it undefined). */
#ifndef PW_CUDA_CG_SCAN_H
#define PW_CUDA_CG_SCAN_H

#include "../cooperative_groups.h"
#include "details/functional.h"

namespace cooperative_groups {
namespace details {
template <class G> struct is_scan_group : std::false_type {};
template <unsigned S, class P> struct is_scan_group<thread_block_tile<S, P>> : std::true_type {};
template <> struct is_scan_group<coalesced_group> : std::true_type {};
}  // namespace details

template <class G, class T, class Op>
static inline auto inclusive_scan(const G &group, T val, Op op, PW_SITE_ARGS) -> decltype(op(val, val))
{
    static_assert(details::is_scan_group<G>::value,
                  "cg::inclusive_scan(group, value, op): group must be a thread_block_tile or a coalesced_group");
    if constexpr (details::is_multi_warp<G>::value)   /* several warps: through the tile's scratch */
        return group.pw_scan(val, op, true, PW_SITE);
    else {
        unsigned n = group.size(), rank = group.thread_rank();
        for (unsigned offset = 1; offset < n; offset *= 2) {
            T other = group.shfl_up(val, offset, PW_SITE);
            if (rank >= offset)
                val = op(other, val);
        }
        return val;
    }
}
template <class G, class T> static inline T inclusive_scan(const G &group, T val, PW_SITE_ARGS)
{
    return inclusive_scan(group, val, plus<T>(), PW_SITE);
}
template <class G, class T, class Op>
static inline auto exclusive_scan(const G &group, T val, Op op, PW_SITE_ARGS) -> decltype(op(val, val))
{
    if constexpr (details::is_multi_warp<G>::value)
        return group.pw_scan(val, op, false, PW_SITE);
    else {
        auto inc = inclusive_scan(group, val, op, PW_SITE);
        auto prev = group.shfl_up(inc, 1, PW_SITE);
        return group.thread_rank() == 0 ? decltype(inc){} : prev;
    }
}
template <class G, class T> static inline T exclusive_scan(const G &group, T val, PW_SITE_ARGS)
{
    return exclusive_scan(group, val, plus<T>(), PW_SITE);
}
}  // namespace cooperative_groups

#endif
