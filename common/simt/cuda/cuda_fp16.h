/* common/simt/cuda/cuda_fp16.h: __half and __half2 on the SIMT emulator (the
 * stand-in for CUDA's <cuda_fp16.h>).
 *
 * __half is what CUDA's is: a struct holding the IEEE binary16 bits
 * (trivially copyable, sizeof 2, align 2; __half2 is two of them, align 4),
 * with the implicit conversions nvcc gives it (from float, double and the
 * integer types; to float and the integer types), and CUDA's operators.
 * Conversions are exact or correctly rounded in the mode their name says
 * (__float2half and the constructors: to nearest even, overflowing to
 * infinity, with subnormals), NaN becomes 0x7fff as NVIDIA's conversion
 * gives it, and the arithmetic is correctly rounded: see pw_lowp.h for how.
 * As under nvcc, mixing __half and float in one expression (h * 2.0f) is
 * ambiguous: write __float2half(2.0f) or convert to float.
 * __CUDA_NO_HALF_CONVERSIONS__ and __CUDA_NO_HALF_OPERATORS__ work as in CUDA.
 */
#ifndef PW_CUDA_FP16_H
#define PW_CUDA_FP16_H

#include "pw_lowp.h"

typedef struct __attribute__((aligned(2))) {
    unsigned short x;
} __half_raw;
typedef struct __attribute__((aligned(4))) {
    unsigned short x, y;
} __half2_raw;

struct __nv_bfloat16;

namespace pw {
namespace lowp {
static inline unsigned short half_rn(double v) { return round_double<f16>(v, cu::RN); }
}  // namespace lowp
}  // namespace pw

struct __attribute__((aligned(2))) __half {
    /* The bits. (Protected in CUDA's header; public here so that GCC's
     * -Wclass-memaccess stays quiet where a warp shuffle copies the bytes.) */
    unsigned short __x;

    __half() = default;
    constexpr __half(const __half_raw &hr) : __x(hr.x) {}
    __half &operator=(const __half_raw &hr) { __x = hr.x; return *this; }
    operator __half_raw() const { __half_raw r; r.x = __x; return r; }
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
    explicit __half(const __nv_bfloat16 &f);   /* in cuda_bf16.h */
    __half(float f) : __x(pw::lowp::half_rn(f)) {}
    __half(double f) : __x(pw::lowp::half_rn(f)) {}
    operator float() const { return pw::lowp::f16_to_float(__x); }
    __half &operator=(float f) { __x = pw::lowp::half_rn(f); return *this; }
    __half &operator=(double f) { __x = pw::lowp::half_rn(f); return *this; }
    /* From and to the integer types, as nvcc allows (to nearest even; to an
     * integer: toward zero, saturating, NaN to 0). */
    __half(short v) : __x(pw::lowp::half_rn(v)) {}
    __half(unsigned short v) : __x(pw::lowp::half_rn(v)) {}
    __half(int v) : __x(pw::lowp::half_rn(v)) {}
    __half(unsigned v) : __x(pw::lowp::half_rn(v)) {}
    __half(long v) : __x(pw::lowp::from_int<pw::lowp::f16>(v, pw::cu::RN)) {}
    __half(unsigned long v) : __x(pw::lowp::from_int<pw::lowp::f16>(v, pw::cu::RN)) {}
    __half(long long v) : __x(pw::lowp::from_int<pw::lowp::f16>(v, pw::cu::RN)) {}
    __half(unsigned long long v) : __x(pw::lowp::from_int<pw::lowp::f16>(v, pw::cu::RN)) {}
    operator signed char() const { return pw::cu::fp_to_int<signed char>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator unsigned char() const { return pw::cu::fp_to_int<unsigned char>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator char() const { return pw::cu::fp_to_int<char>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator short() const { return pw::cu::fp_to_int<short>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator unsigned short() const { return pw::cu::fp_to_int<unsigned short>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator int() const { return pw::cu::fp_to_int<int>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator unsigned() const { return pw::cu::fp_to_int<unsigned>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator long() const { return pw::cu::fp_to_int<long>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator unsigned long() const { return pw::cu::fp_to_int<unsigned long>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator long long() const { return pw::cu::fp_to_int<long long>(pw::lowp::f16_to_float(__x), pw::cu::RZ); }
    operator unsigned long long() const
    {
        return pw::cu::fp_to_int<unsigned long long>(pw::lowp::f16_to_float(__x), pw::cu::RZ);
    }
    __half &operator=(short v) { return *this = __half(v); }
    __half &operator=(unsigned short v) { return *this = __half(v); }
    __half &operator=(int v) { return *this = __half(v); }
    __half &operator=(unsigned v) { return *this = __half(v); }
    __half &operator=(long long v) { return *this = __half(v); }
    __half &operator=(unsigned long long v) { return *this = __half(v); }
    /* +0 and -0 are false, anything else (NaN too) true. */
    constexpr operator bool() const { return (__x & 0x7fffu) != 0; }
#endif
};

struct __attribute__((aligned(4))) __half2 {
    __half x, y;
    __half2() = default;
    constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
    __half2(const __half2_raw &r) : x(__half_raw{ r.x }), y(__half_raw{ r.y }) {}
    __half2 &operator=(const __half2_raw &r) { return *this = __half2(r); }
    operator __half2_raw() const
    {
        __half2_raw r;
        r.x = __builtin_bit_cast(unsigned short, x), r.y = __builtin_bit_cast(unsigned short, y);
        return r;
    }
};
typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half nv_half;
typedef __half2 nv_half2;
static_assert(sizeof(__half) == 2 && alignof(__half) == 2 && sizeof(__half2) == 4 && alignof(__half2) == 4 &&
                  std::is_trivially_copyable<__half>::value && std::is_trivially_copyable<__half2>::value,
              "__half as CUDA lays it out");

/* ---- bits ---------------------------------------------------------------------------- */
static inline unsigned short __half_as_ushort(__half h) { return __builtin_bit_cast(unsigned short, h); }
static inline short __half_as_short(__half h) { return __builtin_bit_cast(short, h); }
static inline __half __ushort_as_half(unsigned short u) { return __builtin_bit_cast(__half, u); }
static inline __half __short_as_half(short s) { return __builtin_bit_cast(__half, s); }

/* ---- conversions ------------------------------------------------------------------------ */
#define PW_HALF_FROM(name, T)                                                                             \
    static inline __half name##_rn(T v) { return __ushort_as_half(pw::lowp::round_double<pw::lowp::f16>((double)v, pw::cu::RN)); } \
    static inline __half name##_rz(T v) { return __ushort_as_half(pw::lowp::round_double<pw::lowp::f16>((double)v, pw::cu::RZ)); } \
    static inline __half name##_ru(T v) { return __ushort_as_half(pw::lowp::round_double<pw::lowp::f16>((double)v, pw::cu::RU)); } \
    static inline __half name##_rd(T v) { return __ushort_as_half(pw::lowp::round_double<pw::lowp::f16>((double)v, pw::cu::RD)); }
PW_HALF_FROM(__float2half, float)
#undef PW_HALF_FROM
#define PW_HALF_FROM_INT(name, T)                                                                          \
    static inline __half name##_rn(T v) { return __ushort_as_half(pw::lowp::from_int<pw::lowp::f16>(v, pw::cu::RN)); } \
    static inline __half name##_rz(T v) { return __ushort_as_half(pw::lowp::from_int<pw::lowp::f16>(v, pw::cu::RZ)); } \
    static inline __half name##_ru(T v) { return __ushort_as_half(pw::lowp::from_int<pw::lowp::f16>(v, pw::cu::RU)); } \
    static inline __half name##_rd(T v) { return __ushort_as_half(pw::lowp::from_int<pw::lowp::f16>(v, pw::cu::RD)); }
PW_HALF_FROM_INT(__int2half, int)
PW_HALF_FROM_INT(__uint2half, unsigned)
PW_HALF_FROM_INT(__short2half, short)
PW_HALF_FROM_INT(__ushort2half, unsigned short)
PW_HALF_FROM_INT(__ll2half, long long)
PW_HALF_FROM_INT(__ull2half, unsigned long long)
#undef PW_HALF_FROM_INT
static inline __half __float2half(float f) { return __float2half_rn(f); }
static inline __half __double2half(double d)
{
    return __ushort_as_half(pw::lowp::round_double<pw::lowp::f16>(d, pw::cu::RN));
}
static inline float __half2float(__half h) { return pw::lowp::f16_to_float(__half_as_ushort(h)); }
#define PW_HALF_TO(name, T)                                                                              \
    static inline T name##_rn(__half h) { return pw::cu::fp_to_int<T>(__half2float(h), pw::cu::RN); }   \
    static inline T name##_rz(__half h) { return pw::cu::fp_to_int<T>(__half2float(h), pw::cu::RZ); }   \
    static inline T name##_ru(__half h) { return pw::cu::fp_to_int<T>(__half2float(h), pw::cu::RU); }   \
    static inline T name##_rd(__half h) { return pw::cu::fp_to_int<T>(__half2float(h), pw::cu::RD); }
PW_HALF_TO(__half2int, int)
PW_HALF_TO(__half2uint, unsigned)
PW_HALF_TO(__half2short, short)
PW_HALF_TO(__half2ushort, unsigned short)
PW_HALF_TO(__half2ll, long long)
PW_HALF_TO(__half2ull, unsigned long long)
#undef PW_HALF_TO
static inline signed char __half2char_rz(__half h) { return pw::cu::fp_to_int<signed char>(__half2float(h), pw::cu::RZ); }
static inline unsigned char __half2uchar_rz(__half h)
{
    return pw::cu::fp_to_int<unsigned char>(__half2float(h), pw::cu::RZ);
}

/* ---- pairs -------------------------------------------------------------------------------- */
static inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
static inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
static inline __half2 __half2half2(__half a) { return __half2(a, a); }
static inline __half2 __float2half2_rn(float f) { return __half2(__float2half_rn(f), __float2half_rn(f)); }
static inline __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half_rn(a), __float2half_rn(b)); }
static inline __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
static inline float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }
static inline __half __low2half(__half2 h) { return h.x; }
static inline __half __high2half(__half2 h) { return h.y; }
static inline __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
static inline __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
static inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
static inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }

/* ---- arithmetic, comparisons, math, atomics (pw_lowp.h) ------------------------------------- */
PW_LOWP_COMMON(__half, __half2, pw::lowp::f16, __half2float)
#if !defined(__CUDA_NO_HALF_OPERATORS__)
PW_LOWP_OPERATORS(__half, __half2, 0x3c00)
#endif

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

#endif
