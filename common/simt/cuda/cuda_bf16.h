/* common/simt/cuda/cuda_bf16.h: __nv_bfloat16 and __nv_bfloat162 on the SIMT
 * emulator (the stand-in for CUDA's <cuda_bf16.h>).
 *
 * __nv_bfloat16 is what CUDA's is: a struct holding the top 16 bits of a
 * float (trivially copyable, sizeof 2, align 2; __nv_bfloat162 is two,
 * align 4), with nvcc's implicit conversions and CUDA's operators.
 * __float2bfloat16 rounds to nearest even (NaN becomes 0x7fff, as NVIDIA's
 * conversion gives it); __bfloat162float is exact; the arithmetic is
 * correctly rounded (see pw_lowp.h). __CUDA_NO_BFLOAT16_CONVERSIONS__ and
 * __CUDA_NO_BFLOAT16_OPERATORS__ work as in CUDA. It includes cuda_fp16.h
 * (for the explicit conversions between the two).
 */
#ifndef PW_CUDA_BF16_H
#define PW_CUDA_BF16_H

#include "cuda_fp16.h"

typedef struct __attribute__((aligned(2))) {
    unsigned short x;
} __nv_bfloat16_raw;
typedef struct __attribute__((aligned(4))) {
    unsigned short x, y;
} __nv_bfloat162_raw;

namespace pw {
namespace lowp {
static inline unsigned short bf16_rn(double v) { return round_double<bf16>(v, cu::RN); }
}  // namespace lowp
}  // namespace pw

struct __attribute__((aligned(2))) __nv_bfloat16 {
    /* The bits. (Protected in CUDA's header; public here so that GCC's
     * -Wclass-memaccess stays quiet where a warp shuffle copies the bytes.) */
    unsigned short __x;

    __nv_bfloat16() = default;
    constexpr __nv_bfloat16(const __nv_bfloat16_raw &hr) : __x(hr.x) {}
    __nv_bfloat16 &operator=(const __nv_bfloat16_raw &hr) { __x = hr.x; return *this; }
    operator __nv_bfloat16_raw() const { __nv_bfloat16_raw r; r.x = __x; return r; }
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
    explicit __nv_bfloat16(const __half f) : __x(pw::lowp::bf16_rn((float)f)) {}
    __nv_bfloat16(float f) : __x(pw::lowp::bf16_rn(f)) {}
    __nv_bfloat16(double f) : __x(pw::lowp::bf16_rn(f)) {}
    operator float() const { return pw::lowp::bf16_to_float(__x); }
    __nv_bfloat16 &operator=(float f) { __x = pw::lowp::bf16_rn(f); return *this; }
    __nv_bfloat16 &operator=(double f) { __x = pw::lowp::bf16_rn(f); return *this; }
    __nv_bfloat16(short v) : __x(pw::lowp::bf16_rn(v)) {}
    __nv_bfloat16(unsigned short v) : __x(pw::lowp::bf16_rn(v)) {}
    __nv_bfloat16(int v) : __x(pw::lowp::bf16_rn(v)) {}
    __nv_bfloat16(unsigned v) : __x(pw::lowp::bf16_rn(v)) {}
    __nv_bfloat16(long v) : __x(pw::lowp::from_int<pw::lowp::bf16>(v, pw::cu::RN)) {}
    __nv_bfloat16(unsigned long v) : __x(pw::lowp::from_int<pw::lowp::bf16>(v, pw::cu::RN)) {}
    __nv_bfloat16(long long v) : __x(pw::lowp::from_int<pw::lowp::bf16>(v, pw::cu::RN)) {}
    __nv_bfloat16(unsigned long long v) : __x(pw::lowp::from_int<pw::lowp::bf16>(v, pw::cu::RN)) {}
    operator signed char() const { return pw::cu::fp_to_int<signed char>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator unsigned char() const { return pw::cu::fp_to_int<unsigned char>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator char() const { return pw::cu::fp_to_int<char>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator short() const { return pw::cu::fp_to_int<short>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator unsigned short() const { return pw::cu::fp_to_int<unsigned short>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator int() const { return pw::cu::fp_to_int<int>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator unsigned() const { return pw::cu::fp_to_int<unsigned>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator long() const { return pw::cu::fp_to_int<long>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator unsigned long() const { return pw::cu::fp_to_int<unsigned long>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator long long() const { return pw::cu::fp_to_int<long long>(pw::lowp::bf16_to_float(__x), pw::cu::RZ); }
    operator unsigned long long() const
    {
        return pw::cu::fp_to_int<unsigned long long>(pw::lowp::bf16_to_float(__x), pw::cu::RZ);
    }
    __nv_bfloat16 &operator=(short v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(unsigned short v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(int v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(unsigned v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(long long v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(unsigned long long v) { return *this = __nv_bfloat16(v); }
    /* +0 and -0 are false, anything else (NaN too) true. */
    constexpr operator bool() const { return (__x & 0x7fffu) != 0; }
#endif
};
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
inline __half::__half(const __nv_bfloat16 &f) : __x(pw::lowp::half_rn(pw::lowp::bf16_to_float(__builtin_bit_cast(unsigned short, f)))) {}
#endif

struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;
    __nv_bfloat162() = default;
    constexpr __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
    __nv_bfloat162(const __nv_bfloat162_raw &r) : x(__nv_bfloat16_raw{ r.x }), y(__nv_bfloat16_raw{ r.y }) {}
    __nv_bfloat162 &operator=(const __nv_bfloat162_raw &r) { return *this = __nv_bfloat162(r); }
    operator __nv_bfloat162_raw() const
    {
        __nv_bfloat162_raw r;
        r.x = __builtin_bit_cast(unsigned short, x), r.y = __builtin_bit_cast(unsigned short, y);
        return r;
    }
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4 &&
                  alignof(__nv_bfloat162) == 4 && std::is_trivially_copyable<__nv_bfloat16>::value,
              "__nv_bfloat16 as CUDA lays it out");

/* ---- bits ---------------------------------------------------------------------------- */
static inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return __builtin_bit_cast(unsigned short, h); }
static inline short __bfloat16_as_short(__nv_bfloat16 h) { return __builtin_bit_cast(short, h); }
static inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __builtin_bit_cast(__nv_bfloat16, u); }
static inline __nv_bfloat16 __short_as_bfloat16(short s) { return __builtin_bit_cast(__nv_bfloat16, s); }

/* ---- conversions ------------------------------------------------------------------------ */
#define PW_BF16_FROM(name, T)                                                                                    \
    static inline __nv_bfloat16 name##_rn(T v) { return __ushort_as_bfloat16(pw::lowp::round_double<pw::lowp::bf16>((double)v, pw::cu::RN)); } \
    static inline __nv_bfloat16 name##_rz(T v) { return __ushort_as_bfloat16(pw::lowp::round_double<pw::lowp::bf16>((double)v, pw::cu::RZ)); } \
    static inline __nv_bfloat16 name##_ru(T v) { return __ushort_as_bfloat16(pw::lowp::round_double<pw::lowp::bf16>((double)v, pw::cu::RU)); } \
    static inline __nv_bfloat16 name##_rd(T v) { return __ushort_as_bfloat16(pw::lowp::round_double<pw::lowp::bf16>((double)v, pw::cu::RD)); }
PW_BF16_FROM(__float2bfloat16, float)
#undef PW_BF16_FROM
#define PW_BF16_FROM_INT(name, T)                                                                               \
    static inline __nv_bfloat16 name##_rn(T v) { return __ushort_as_bfloat16(pw::lowp::from_int<pw::lowp::bf16>(v, pw::cu::RN)); } \
    static inline __nv_bfloat16 name##_rz(T v) { return __ushort_as_bfloat16(pw::lowp::from_int<pw::lowp::bf16>(v, pw::cu::RZ)); } \
    static inline __nv_bfloat16 name##_ru(T v) { return __ushort_as_bfloat16(pw::lowp::from_int<pw::lowp::bf16>(v, pw::cu::RU)); } \
    static inline __nv_bfloat16 name##_rd(T v) { return __ushort_as_bfloat16(pw::lowp::from_int<pw::lowp::bf16>(v, pw::cu::RD)); }
PW_BF16_FROM_INT(__int2bfloat16, int)
PW_BF16_FROM_INT(__uint2bfloat16, unsigned)
PW_BF16_FROM_INT(__short2bfloat16, short)
PW_BF16_FROM_INT(__ushort2bfloat16, unsigned short)
PW_BF16_FROM_INT(__ll2bfloat16, long long)
PW_BF16_FROM_INT(__ull2bfloat16, unsigned long long)
#undef PW_BF16_FROM_INT
static inline __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }
static inline __nv_bfloat16 __double2bfloat16(double d)
{
    return __ushort_as_bfloat16(pw::lowp::round_double<pw::lowp::bf16>(d, pw::cu::RN));
}
static inline float __bfloat162float(__nv_bfloat16 h) { return pw::lowp::bf16_to_float(__bfloat16_as_ushort(h)); }
static inline __half __bfloat162half(__nv_bfloat16 h) { return __float2half_rn(__bfloat162float(h)); }
static inline __nv_bfloat16 __half2bfloat16(__half h) { return __float2bfloat16_rn(__half2float(h)); }
#define PW_BF16_TO(name, T)                                                                                     \
    static inline T name##_rn(__nv_bfloat16 h) { return pw::cu::fp_to_int<T>(__bfloat162float(h), pw::cu::RN); } \
    static inline T name##_rz(__nv_bfloat16 h) { return pw::cu::fp_to_int<T>(__bfloat162float(h), pw::cu::RZ); } \
    static inline T name##_ru(__nv_bfloat16 h) { return pw::cu::fp_to_int<T>(__bfloat162float(h), pw::cu::RU); } \
    static inline T name##_rd(__nv_bfloat16 h) { return pw::cu::fp_to_int<T>(__bfloat162float(h), pw::cu::RD); }
PW_BF16_TO(__bfloat162int, int)
PW_BF16_TO(__bfloat162uint, unsigned)
PW_BF16_TO(__bfloat162short, short)
PW_BF16_TO(__bfloat162ushort, unsigned short)
PW_BF16_TO(__bfloat162ll, long long)
PW_BF16_TO(__bfloat162ull, unsigned long long)
#undef PW_BF16_TO
static inline signed char __bfloat162char_rz(__nv_bfloat16 h)
{
    return pw::cu::fp_to_int<signed char>(__bfloat162float(h), pw::cu::RZ);
}
static inline unsigned char __bfloat162uchar_rz(__nv_bfloat16 h)
{
    return pw::cu::fp_to_int<unsigned char>(__bfloat162float(h), pw::cu::RZ);
}

/* ---- pairs -------------------------------------------------------------------------------- */
static inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
static inline __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
static inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
static inline __nv_bfloat162 __float2bfloat162_rn(float f)
{
    return __nv_bfloat162(__float2bfloat16_rn(f), __float2bfloat16_rn(f));
}
static inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b)
{
    return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b));
}
static inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
static inline float2 __bfloat1622float2(__nv_bfloat162 h)
{
    return make_float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
static inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
static inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
static inline __nv_bfloat162 __low2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162(h.x, h.x); }
static inline __nv_bfloat162 __high2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162(h.y, h.y); }
static inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
static inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }

/* ---- arithmetic, comparisons, math, atomics (pw_lowp.h) ------------------------------------- */
PW_LOWP_COMMON(__nv_bfloat16, __nv_bfloat162, pw::lowp::bf16, __bfloat162float)
#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
PW_LOWP_OPERATORS(__nv_bfloat16, __nv_bfloat162, 0x3f80)
#endif

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

#endif
