/* common/simt/cuda/cooperative_groups/details/functional.h: the operators of
 * cg::reduce and cg::inclusive_scan/exclusive_scan, as CUDA defines them
 * (less gives the smaller, greater the larger). */
#ifndef PW_CUDA_CG_FUNCTIONAL_H
#define PW_CUDA_CG_FUNCTIONAL_H

namespace cooperative_groups {
template <class T> struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less {
    T operator()(T a, T b) const { return (b < a) ? b : a; }
};
template <class T> struct greater {
    T operator()(T a, T b) const { return (a < b) ? b : a; }
};
template <class T> struct bit_and {
    T operator()(T a, T b) const { return a & b; }
};
template <class T> struct bit_or {
    T operator()(T a, T b) const { return a | b; }
};
template <class T> struct bit_xor {
    T operator()(T a, T b) const { return a ^ b; }
};
}  // namespace cooperative_groups

#endif
