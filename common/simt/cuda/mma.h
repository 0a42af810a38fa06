/* common/simt/cuda/mma.h: CUDA's <mma.h> (nvcuda::wmma, the Tensor Cores' warp
 * matrix API) on the SIMT emulator.
 *
 *   using namespace nvcuda;
 *   wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
 *   wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
 *   wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
 *   wmma::fill_fragment(acc, 0.0f);
 *   for (int k = 0; k < K; k += 16) {
 *       wmma::load_matrix_sync(a, A + row * K + k, K);      // K a multiple of 8
 *       wmma::load_matrix_sync(b, B + k * N + col, N);
 *       wmma::mma_sync(acc, a, b, acc);                      // acc = a b + acc
 *   }
 *   wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
 *
 * What the emulator has: the 16 x 16 x 16 shape, __half or __nv_bfloat16
 * A and B (row_major or col_major), a float accumulator; fill_fragment,
 * load_matrix_sync, store_matrix_sync (mem_row_major, mem_col_major),
 * mma_sync; fragment::num_elements, element_type and x[]. Other shapes
 * (32x8x16, 8x32x16), types (int8, tf32, double, a __half accumulator) and
 * the sub-byte experimental API fail to build with a message saying so.
 *
 * As on a GPU, each function is an operation of the whole warp: all 32
 * lanes must call it, with the same pointer, ldm and layout (else a
 * synccheck error, never a hang); mptr must be 32-byte aligned and ldm a
 * multiple of 16 bytes (8 halves, 4 floats), as CUDA requires (else a
 * memcheck error). Which lane holds which element of x[] is unspecified by
 * CUDA; the emulator's is not the obvious one, and PW_SIMT_WMMA_SCRAMBLE=SEED
 * (or pw_simt_set_wmma_scramble) makes it random, so a kernel that depends
 * on it fails. How the tile moves and how mma_sync rounds: simt_wmma.h, .c.
 * Every load and store is the lanes' own 16-byte accesses: counted (sectors,
 * bank conflicts) and checked like any other; each mma_sync counts one in
 * pw_simt_counters.mma_ops (16 x 16 x 16 x 2 = 8192 flops).
 */
#ifndef PW_CUDA_MMA_H
#define PW_CUDA_MMA_H

#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "simt.h"
#include "simt_wmma.h"

#define PW_WMMA_INLINE static inline __attribute__((always_inline))

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
}  // namespace precision
namespace experimental {
namespace precision {
struct u4 {};
struct s4 {};
struct b1 {};
}  // namespace precision
}  // namespace experimental

template <class T, int N, int Kind> struct __frag_base {
    enum { num_elements = N };
    typedef T element_type;
    typedef T storage_element_type;
    static constexpr int pw_kind = Kind;
    T x[N];
};

template <class> struct pw_not_emulated { static constexpr bool value = false; };

/* Any fragment the emulator does not have. */
template <class Use, int M, int N, int K, class T, class Layout = void> class fragment {
    static_assert(pw_not_emulated<T>::value,
                  "SIMT emulator: this wmma::fragment is not emulated: only the 16x16x16 shape, with __half or "
                  "__nv_bfloat16 matrix_a/matrix_b (row_major or col_major) and a float accumulator (chapter 09)");
};

#define PW_WMMA_FRAG(Use, T, L, N, Kind) \
    template <> class fragment<Use, 16, 16, 16, T, L> : public __frag_base<T, N, Kind> {};
PW_WMMA_FRAG(matrix_a, __half, row_major, 16, PW_WK_A_ROW_F16)
PW_WMMA_FRAG(matrix_a, __half, col_major, 16, PW_WK_A_COL_F16)
PW_WMMA_FRAG(matrix_b, __half, row_major, 16, PW_WK_B_ROW_F16)
PW_WMMA_FRAG(matrix_b, __half, col_major, 16, PW_WK_B_COL_F16)
PW_WMMA_FRAG(matrix_a, __nv_bfloat16, row_major, 8, PW_WK_A_ROW_BF16)
PW_WMMA_FRAG(matrix_a, __nv_bfloat16, col_major, 8, PW_WK_A_COL_BF16)
PW_WMMA_FRAG(matrix_b, __nv_bfloat16, row_major, 8, PW_WK_B_ROW_BF16)
PW_WMMA_FRAG(matrix_b, __nv_bfloat16, col_major, 8, PW_WK_B_COL_BF16)
PW_WMMA_FRAG(accumulator, float, void, 8, PW_WK_ACC_F32)
#undef PW_WMMA_FRAG

/* ---- the lanes' own memory traffic (see simt_wmma.h for which bytes) ---- */

template <class E> PW_WMMA_INLINE void pw_read_part(pw_wmma_lane &me, const E *mptr, unsigned ldm)
{
    int lane = pw_simt_lane();
    if (sizeof(E) == 2) {                                 /* one 16-byte load per lane */
        pw_simt_move(me.part, mptr + (size_t)(lane >> 1) * ldm + (lane & 1) * 8, 16, 0);
    } else {                                              /* two, 8 rows at a time */
        for (int s = 0; s < 2; s++)
            pw_simt_move(me.part + 16 * s, mptr + (size_t)(8 * s + (lane >> 2)) * ldm + (lane & 3) * 4, 16, 0);
    }
}

template <class E> PW_WMMA_INLINE void pw_write_part(pw_wmma_lane &me, E *mptr, unsigned ldm)
{
    int lane = pw_simt_lane();
    if (sizeof(E) == 2) {
        pw_simt_move(mptr + (size_t)(lane >> 1) * ldm + (lane & 1) * 8, me.part, 16, 1);
    } else {
        for (int s = 0; s < 2; s++)
            pw_simt_move(mptr + (size_t)(8 * s + (lane >> 2)) * ldm + (lane & 3) * 4, me.part + 16 * s, 16, 1);
    }
}

/* ---- the API ---------------------------------------------------------------- */

template <class Use, class T, class L>
PW_WMMA_INLINE void fill_fragment(fragment<Use, 16, 16, 16, T, L> &f, const T &v, PW_SITE_ARGS)
{
    pw_wmma_lane me{};
    me.op = PW_WOP_FILL;
    me.kind[0] = f.pw_kind;
    me.frag[0] = f.x;
    memcpy(&me.fill_bits, &v, sizeof v);
    pw_simt_warp_call("wmma::fill_fragment", pw_wmma_fill, &me, PW_SITE);
}
/* fill_fragment(acc, 0) or (a, 1.0f): the value converts to the element type, as in CUDA. */
template <class Use, class T, class L, class V>
PW_WMMA_INLINE void fill_fragment(fragment<Use, 16, 16, 16, T, L> &f, const V &v, PW_SITE_ARGS)
{
    fill_fragment(f, static_cast<T>(v), PW_SITE);
}

template <class Use, class T, class L>
PW_WMMA_INLINE void load_matrix_sync(fragment<Use, 16, 16, 16, T, L> &f, const T *mptr, unsigned ldm, PW_SITE_ARGS)
{
    static_assert(!std::is_same<L, void>::value, "wmma::load_matrix_sync of an accumulator takes a layout_t");
    pw_wmma_check_pointer("wmma::load_matrix_sync", mptr, ldm, (int)sizeof(T), PW_SITE);
    pw_wmma_lane me{};
    me.op = PW_WOP_LOAD;
    me.kind[0] = f.pw_kind;
    me.frag[0] = f.x;
    me.mptr = mptr;
    me.ldm = ldm;
    me.col_major = std::is_same<L, col_major>::value;
    pw_read_part(me, mptr, ldm);
    pw_simt_warp_call("wmma::load_matrix_sync", pw_wmma_load, &me, PW_SITE);
}

PW_WMMA_INLINE void load_matrix_sync(fragment<accumulator, 16, 16, 16, float> &f, const float *mptr, unsigned ldm,
                                     layout_t layout, PW_SITE_ARGS)
{
    pw_wmma_check_pointer("wmma::load_matrix_sync", mptr, ldm, 4, PW_SITE);
    pw_wmma_lane me{};
    me.op = PW_WOP_LOAD;
    me.kind[0] = f.pw_kind;
    me.frag[0] = f.x;
    me.mptr = mptr;
    me.ldm = ldm;
    me.col_major = layout == mem_col_major;
    pw_read_part(me, mptr, ldm);
    pw_simt_warp_call("wmma::load_matrix_sync", pw_wmma_load, &me, PW_SITE);
}

PW_WMMA_INLINE void store_matrix_sync(float *mptr, const fragment<accumulator, 16, 16, 16, float> &f, unsigned ldm,
                                      layout_t layout, PW_SITE_ARGS)
{
    pw_wmma_check_pointer("wmma::store_matrix_sync", mptr, ldm, 4, PW_SITE);
    pw_wmma_lane me{};
    me.op = PW_WOP_STORE;
    me.kind[0] = f.pw_kind;
    me.frag[0] = const_cast<float *>(f.x);
    me.mptr = mptr;
    me.ldm = ldm;
    me.col_major = layout == mem_col_major;
    pw_simt_warp_call("wmma::store_matrix_sync", pw_wmma_store, &me, PW_SITE);
    pw_write_part(me, mptr, ldm);
}

template <class T, class LA, class LB>
PW_WMMA_INLINE void mma_sync(fragment<accumulator, 16, 16, 16, float> &d, const fragment<matrix_a, 16, 16, 16, T, LA> &a,
                             const fragment<matrix_b, 16, 16, 16, T, LB> &b,
                             const fragment<accumulator, 16, 16, 16, float> &c, bool satf = false, PW_SITE_ARGS)
{
    pw_wmma_lane me{};
    me.op = PW_WOP_MMA;
    me.kind[0] = a.pw_kind;
    me.kind[1] = b.pw_kind;
    me.kind[2] = c.pw_kind;
    me.kind[3] = d.pw_kind;
    me.frag[0] = const_cast<T *>(a.x);
    me.frag[1] = const_cast<T *>(b.x);
    me.frag[2] = const_cast<float *>(c.x);
    me.frag[3] = d.x;
    if (satf) pw_simt_trap("wmma::mma_sync with satf = true (deprecated in CUDA) is not emulated", PW_SITE);
    pw_simt_warp_call("wmma::mma_sync", pw_wmma_mma, &me, PW_SITE);
}

}  // namespace wmma
}  // namespace nvcuda

#undef PW_WMMA_INLINE
#endif
