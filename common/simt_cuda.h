/* common/simt_cuda.h: the rest of the everyday CUDA surface on the SIMT
 * emulator (C++ only; simt_device.h includes it at its end).
 *
 *   - integer and bit intrinsics (__popc, __clz, __byte_perm, __mulhi...),
 *     and CUDA's min/max overloads;
 *   - float intrinsics and conversions (__expf, __fdividef, __fmaf_rz,
 *     __float2int_rn, __float_as_int...) and the device math functions
 *     that <math.h> lacks (rsqrtf, sinpif, norm3df...);
 *   - the vector types (float4, int2...) with CUDA's sizes and alignments,
 *     and their make_* functions;
 *   - the host API's C++ faces: CUDA's names as real functions with CUDA's
 *     overloads and default arguments (cudaMalloc(&p, n) for any T *p,
 *     cudaMemcpyToSymbol(symbol, ...), cudaEventRecord(e)...), calling the
 *     C functions of simt.h. C code keeps simt.h's #define names.
 * Half precision, bfloat16 and cooperative groups are in common/cuda/, the
 * stand-ins for CUDA's headers (cuda_fp16.h, cooperative_groups.h...).
 *
 * Everything is computed exactly as CUDA specifies it, except where a
 * comment says "approximation": CUDA's fast intrinsics (__expf, __sinf...)
 * are hardware approximations with documented error bounds; here they are
 * the C library's functions, which are at least as accurate, so a result
 * may differ from a GPU's in the last bits (never more than CUDA's bound).
 *
 * No state lives here: emulated threads are fibers on one OS thread (and
 * blocks may run on several OS threads), so everything is a pure function
 * of its arguments or a call into simt.c.
 */
#ifndef PW_SIMT_CUDA_H
#define PW_SIMT_CUDA_H

#ifndef __cplusplus
#error "simt_cuda.h is C++: simt.h includes it (through simt_device.h) in C++ translation units only"
#endif

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

/* ====================================================================== */
/* ---- helpers ------------------------------------------------------------ */

namespace pw {
namespace cu {
/* A value the optimizer must treat as unknown: __fadd_rn(a * b, c) must not
 * become a fused multiply-add (that is the point of the _rn intrinsics), and
 * GCC contracts across inlined functions unless something stands between. */
template <class F> static inline F opaque(F v)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__("" : "+x"(v));
#elif defined(__aarch64__) || defined(__arm__)
    __asm__("" : "+w"(v));
#else
    __asm__("" : "+m"(v));
#endif
    return v;
}

enum round_mode { RN, RZ, RU, RD };

/* The rounding of an exact value v to F, given f: the nearest F to v or
 * one next to it (|v - f| < one ulp), or an infinity when v lies beyond
 * the largest finite F, and cmp: the sign of v - f. */
template <class F> static inline F round_dir(F f, int cmp, round_mode m)
{
    const F inf = std::numeric_limits<F>::infinity(), big = std::numeric_limits<F>::max();
    if (std::isinf(f)) {   /* |v| > the largest finite value */
        bool neg = f < 0;
        if (m == RZ || (m == RU && neg) || (m == RD && !neg))
            return neg ? -big : big;
        return f;
    }
    if (cmp > 0 && (m == RU || (m == RZ && f < 0)))
        return std::nextafter(f, inf);
    if (cmp < 0 && (m == RD || (m == RZ && f > 0)))
        return std::nextafter(f, -inf);
    return f;
}
static inline int sign_of(double d) { return (d > 0) - (d < 0); }

/* fl(a * b + c) rounded once in mode m, for floats: a*b is exact in double
 * (24 + 24 bits), and the sum is s + e exactly (TwoSum), so the sign of
 * v - f is that of (s - f) + e, where s - f is exact (Sterbenz). */
static inline float fma_dir(float a, float b, float c, round_mode m)
{
    if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c))
        return fmaf(a, b, c);   /* infinities and NaNs do not depend on the mode */
    double p = opaque((double)a * (double)b), dc = c;
    double s = opaque(p + dc);
    double bb = opaque(s - p);
    double e = (p - (s - bb)) + (dc - bb);
    if (s == 0 && e == 0) {   /* an exact zero: IEEE 754's sign rules */
        bool neg = (p == 0 && c == 0) ? (std::signbit(p) && std::signbit(c)) || (m == RD && (std::signbit(p) || std::signbit(c)))
                                      : m == RD;
        return neg ? -0.0f : 0.0f;
    }
    float f = (float)s;
    if (std::isinf(f))
        return round_dir(f, 0, m);
    return round_dir(f, sign_of(opaque(s - (double)f) + e), m);
}
static inline float mul_dir(float a, float b, round_mode m)
{
    if (!std::isfinite(a) || !std::isfinite(b))
        return a * b;
    double p = opaque((double)a * (double)b);   /* exact */
    float f = (float)p;
    if (p == 0 || std::isinf(f))
        return p == 0 ? f : round_dir(f, 0, m);
    return round_dir(f, sign_of(p - (double)f), m);
}
/* a / b: f = the float nearest a/b in double, off by at most one ulp;
 * a - f*b is exact in double (f*b has 48 bits and is within a factor 2 of
 * a), and its sign times b's is the sign of a/b - f. */
static inline float div_dir(float a, float b, round_mode m)
{
    if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0)
        return a / b;
    float f = (float)((double)a / (double)b);
    if (std::isinf(f))
        return round_dir(f, 0, m);
    double r = opaque((double)a - opaque((double)f * (double)b));
    return round_dir(f, sign_of(r) * (b > 0 ? 1 : -1), m);
}
/* sqrt(x): f = sqrtf(x) is correctly rounded; x - f*f is exact in double. */
static inline float sqrt_dir(float x, round_mode m)
{
    float f = sqrtf(x);
    if (!(x > 0) || std::isinf(x))
        return f;
    return round_dir(f, sign_of(opaque((double)x - opaque((double)f * (double)f))), m);
}
/* Integer to floating point, rounded in mode m: F(v) rounds to nearest;
 * the integer comparison tells on which side v is. */
template <class F, class I> static inline F int_to_fp(I v, round_mode m)
{
    F f = (F)v;
    __int128 fi = (__int128)f, vi = (__int128)v;
    return round_dir(f, (vi > fi) - (vi < fi), m);
}
/* Floating point to integer: rounded in mode m, out-of-range values
 * saturate and NaN gives 0, as the hardware's cvt instruction does (the CUDA
 * documentation calls out-of-range results undefined). */
template <class I, class F> static inline I fp_to_int(F x, round_mode m)
{
    if (std::isnan(x))
        return 0;
    F r = m == RN ? std::nearbyint(x) : m == RZ ? std::trunc(x) : m == RU ? std::ceil(x) : std::floor(x);
    /* The limits as F: min() is -2^k or 0, exact; max() is exact or
     * rounds up to 2^k, and r is an integer, so r >= hi means r >= max(). */
    const F lo = (F)std::numeric_limits<I>::min();
    const F hi = (F)std::numeric_limits<I>::max();
    if (r < lo)
        return std::numeric_limits<I>::min();
    if (r >= hi)
        return std::numeric_limits<I>::max();
    return (I)r;
}
/* Exact (correctly rounded) 1/sqrt(x) for a float x > 0: sign of m*m*x - 1
 * for a double m of at most 26 significant bits, in integers. */
static inline int sq_times_cmp_one(double mv, float x)
{
    int ea, eb;
    double fa = frexp(mv, &ea), fb = frexp((double)x, &eb);
    uint64_t A = (uint64_t)ldexp(fa, 53), B = (uint64_t)ldexp(fb, 53);
    ea -= 53;
    eb -= 53;
    int za = __builtin_ctzll(A), zb = __builtin_ctzll(B);
    A >>= za, ea += za, B >>= zb, eb += zb;
    unsigned __int128 P = (unsigned __int128)A * A * B;   /* < 2^(26+26+24) */
    int E = 2 * ea + eb;                                   /* m*m*x = P * 2^E */
    if (E >= 0)
        return (P == 1 && E == 0) ? 0 : 1;
    if (-E >= 127)
        return -1;
    unsigned __int128 one = (unsigned __int128)1 << -E;
    return (P > one) - (P < one);
}
static inline float rsqrt_rn(float x)
{
    if (std::isnan(x) || x < 0)
        return std::numeric_limits<float>::quiet_NaN();
    if (x == 0)
        return std::signbit(x) ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    if (std::isinf(x))
        return 0.0f;
    float r = (float)(1.0 / sqrt((double)x));   /* within an ulp; fix the rare miss */
    for (int i = 0; i < 2; i++) {
        double up = ((double)r + (double)nextafterf(r, INFINITY)) / 2;   /* midpoints: exact in double */
        double dn = ((double)r + (double)nextafterf(r, 0.0f)) / 2;
        if (sq_times_cmp_one(up, x) < 0)        /* 1/sqrt(x) > up */
            r = nextafterf(r, INFINITY);
        else if (sq_times_cmp_one(dn, x) > 0)   /* 1/sqrt(x) < dn */
            r = nextafterf(r, 0.0f);
        else
            break;
    }
    return r;
}
template <class T> struct dependent_false : std::false_type {};
}  // namespace cu
}  // namespace pw

/* ====================================================================== */
/* ---- integer and bit intrinsics ------------------------------------------ */

static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
/* 1 + the index of the least significant 1 bit, 0 for 0. */
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
/* Byte n of the result is byte (s >> 4n) & 7 of the eight bytes y:x (x's
 * bytes are 0-3, y's 4-7); the selector nibbles' top bits are ignored. */
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long b = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int n = 0; n < 4; n++)
        r |= (unsigned)((b >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
    return r;
}
/* The low 24 bits of each (signed for __mul24), the low 32 bits of the product. */
static inline int __mul24(int x, int y)
{
    long long a = (int)((unsigned)x << 8) >> 8, b = (int)((unsigned)y << 8) >> 8;   /* sign-extended 24 bits */
    return (int)(unsigned)(unsigned long long)(a * b);
}
static inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
/* The high half of the double-width product. */
static inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static inline unsigned __umulhi(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x * y) >> 32); }
static inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
/* |x - y| + z */
static inline unsigned __sad(int x, int y, unsigned z) { return (x > y ? (unsigned)x - (unsigned)y : (unsigned)y - (unsigned)x) + z; }
static inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
/* (x + y) >> 1 and (x + y + 1) >> 1 without overflow. */
static inline int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
static inline int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
static inline unsigned __uhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y) >> 1); }
static inline unsigned __urhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y + 1) >> 1); }
/* hi:lo shifted left by shift & 31 (_lc: by min(shift, 32)), the high word;
 * shifted right, the low word. */
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift)
{
    return (unsigned)((((unsigned long long)hi << 32 | lo) << (shift & 31)) >> 32);
}
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift)
{
    return (unsigned)((((unsigned long long)hi << 32 | lo) << (shift < 32 ? shift : 32)) >> 32);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift)
{
    return (unsigned)(((unsigned long long)hi << 32 | lo) >> (shift & 31));
}
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift)
{
    return (unsigned)(((unsigned long long)hi << 32 | lo) >> (shift < 32 ? shift : 32));
}
/* Four-way byte dot product plus c (signed, unsigned). */
static inline int __dp4a(int a, int b, int c)
{
    for (int i = 0; i < 4; i++)
        c += (int)(signed char)(a >> (8 * i)) * (int)(signed char)(b >> (8 * i));
    return c;
}
static inline unsigned __dp4a(unsigned a, unsigned b, unsigned c)
{
    for (int i = 0; i < 4; i++)
        c += ((a >> (8 * i)) & 0xffu) * ((b >> (8 * i)) & 0xffu);
    return c;
}

/* ---- min and max: CUDA's overloads (crt/math_functions.hpp), so min(a, b)
 * of two ints is an int, an int and an unsigned give an unsigned, floats
 * follow fminf (a NaN loses). Plain functions in the global namespace:
 * std::min and <algorithm> are untouched, and with `using namespace std`
 * these (non-templates) are preferred, as under nvcc. Mixed types CUDA has
 * no overload for (an int and a long long...) are ambiguous, as under nvcc. */
static inline int min(int a, int b) { return a < b ? a : b; }
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
static inline unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
static inline unsigned long min(long a, unsigned long b) { return min((unsigned long)a, b); }
static inline unsigned long min(unsigned long a, long b) { return min(a, (unsigned long)b); }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long min(long long a, unsigned long long b) { return min((unsigned long long)a, b); }
static inline unsigned long long min(unsigned long long a, long long b) { return min(a, (unsigned long long)b); }
static inline float min(float a, float b) { return fminf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double min(float a, double b) { return fmin((double)a, b); }
static inline double min(double a, float b) { return fmin(a, (double)b); }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static inline unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
static inline unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }
static inline long max(long a, long b) { return a > b ? a : b; }
static inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
static inline unsigned long max(long a, unsigned long b) { return max((unsigned long)a, b); }
static inline unsigned long max(unsigned long a, long b) { return max(a, (unsigned long)b); }
static inline long long max(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
static inline unsigned long long max(long long a, unsigned long long b) { return max((unsigned long long)a, b); }
static inline unsigned long long max(unsigned long long a, long long b) { return max(a, (unsigned long long)b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline double max(float a, double b) { return fmax((double)a, b); }
static inline double max(double a, float b) { return fmax(a, (double)b); }
static inline unsigned umin(unsigned a, unsigned b) { return min(a, b); }
static inline unsigned umax(unsigned a, unsigned b) { return max(a, b); }
static inline long long llmin(long long a, long long b) { return min(a, b); }
static inline long long llmax(long long a, long long b) { return max(a, b); }
static inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
static inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

/* ====================================================================== */
/* ---- reinterpretations ------------------------------------------------- */

static inline constexpr int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
static inline constexpr float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
static inline constexpr unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
static inline constexpr float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
static inline constexpr long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
static inline constexpr double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
static inline constexpr double __hiloint2double(int hi, int lo)
{
    return __builtin_bit_cast(double, (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
static inline constexpr int __double2hiint(double x) { return (int)(unsigned)((unsigned long long)__builtin_bit_cast(long long, x) >> 32); }
static inline constexpr int __double2loint(double x) { return (int)(unsigned)(unsigned long long)__builtin_bit_cast(long long, x); }

/* ---- conversions: _rn nearest even, _rz toward zero, _ru up, _rd down --- */

#define PW_CONV4(name, To, From, how)                                                            \
    static inline To name##_rn(From x) { return how(x, pw::cu::RN); }                         \
    static inline To name##_rz(From x) { return how(x, pw::cu::RZ); }                         \
    static inline To name##_ru(From x) { return how(x, pw::cu::RU); }                         \
    static inline To name##_rd(From x) { return how(x, pw::cu::RD); }
PW_CONV4(__float2int, int, float, (pw::cu::fp_to_int<int, float>))
PW_CONV4(__float2uint, unsigned, float, (pw::cu::fp_to_int<unsigned, float>))
PW_CONV4(__float2ll, long long, float, (pw::cu::fp_to_int<long long, float>))
PW_CONV4(__float2ull, unsigned long long, float, (pw::cu::fp_to_int<unsigned long long, float>))
PW_CONV4(__double2int, int, double, (pw::cu::fp_to_int<int, double>))
PW_CONV4(__double2uint, unsigned, double, (pw::cu::fp_to_int<unsigned, double>))
PW_CONV4(__double2ll, long long, double, (pw::cu::fp_to_int<long long, double>))
PW_CONV4(__double2ull, unsigned long long, double, (pw::cu::fp_to_int<unsigned long long, double>))
PW_CONV4(__int2float, float, int, (pw::cu::int_to_fp<float, int>))
PW_CONV4(__uint2float, float, unsigned, (pw::cu::int_to_fp<float, unsigned>))
PW_CONV4(__ll2float, float, long long, (pw::cu::int_to_fp<float, long long>))
PW_CONV4(__ull2float, float, unsigned long long, (pw::cu::int_to_fp<float, unsigned long long>))
PW_CONV4(__ll2double, double, long long, (pw::cu::int_to_fp<double, long long>))
PW_CONV4(__ull2double, double, unsigned long long, (pw::cu::int_to_fp<double, unsigned long long>))
#undef PW_CONV4
static inline double __int2double_rn(int x) { return (double)x; }
static inline double __uint2double_rn(unsigned x) { return (double)x; }
static inline float __double2float_rn(double x) { return (float)x; }
namespace pw {
namespace cu {
static inline float double2float_dir(double x, round_mode m)
{
    float f = (float)x;
    if (!std::isfinite(x) || x == 0)
        return f;
    if (std::isinf(f))
        return round_dir(f, 0, m);
    return round_dir(f, sign_of(x - (double)f), m);   /* x - f: exact */
}
}  // namespace cu
}  // namespace pw
static inline float __double2float_rz(double x) { return pw::cu::double2float_dir(x, pw::cu::RZ); }
static inline float __double2float_ru(double x) { return pw::cu::double2float_dir(x, pw::cu::RU); }
static inline float __double2float_rd(double x) { return pw::cu::double2float_dir(x, pw::cu::RD); }

/* ====================================================================== */
/* ---- float arithmetic with a named rounding ------------------------------
 * _rn: IEEE round to nearest even, never contracted into an FMA with a
 * neighbouring operation (which is what the _rn intrinsics promise);
 * _rz, _ru, _rd: computed exactly (see pw::cu above), not approximated. */

static inline float __fadd_rn(float a, float b) { return pw::cu::opaque(pw::cu::opaque(a) + pw::cu::opaque(b)); }
static inline float __fsub_rn(float a, float b) { return pw::cu::opaque(pw::cu::opaque(a) - pw::cu::opaque(b)); }
static inline float __fmul_rn(float a, float b) { return pw::cu::opaque(pw::cu::opaque(a) * pw::cu::opaque(b)); }
static inline float __fdiv_rn(float a, float b) { return pw::cu::opaque(pw::cu::opaque(a) / pw::cu::opaque(b)); }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __frcp_rn(float x) { return pw::cu::opaque(1.0f / pw::cu::opaque(x)); }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
/* 1/sqrt(x) correctly rounded (checked exactly in integers, not via libm). */
static inline float __frsqrt_rn(float x) { return pw::cu::rsqrt_rn(x); }
static inline float __fadd_rz(float a, float b) { return pw::cu::fma_dir(a, 1.0f, b, pw::cu::RZ); }
static inline float __fadd_ru(float a, float b) { return pw::cu::fma_dir(a, 1.0f, b, pw::cu::RU); }
static inline float __fadd_rd(float a, float b) { return pw::cu::fma_dir(a, 1.0f, b, pw::cu::RD); }
static inline float __fsub_rz(float a, float b) { return pw::cu::fma_dir(a, 1.0f, -b, pw::cu::RZ); }
static inline float __fsub_ru(float a, float b) { return pw::cu::fma_dir(a, 1.0f, -b, pw::cu::RU); }
static inline float __fsub_rd(float a, float b) { return pw::cu::fma_dir(a, 1.0f, -b, pw::cu::RD); }
static inline float __fmul_rz(float a, float b) { return pw::cu::mul_dir(a, b, pw::cu::RZ); }
static inline float __fmul_ru(float a, float b) { return pw::cu::mul_dir(a, b, pw::cu::RU); }
static inline float __fmul_rd(float a, float b) { return pw::cu::mul_dir(a, b, pw::cu::RD); }
static inline float __fdiv_rz(float a, float b) { return pw::cu::div_dir(a, b, pw::cu::RZ); }
static inline float __fdiv_ru(float a, float b) { return pw::cu::div_dir(a, b, pw::cu::RU); }
static inline float __fdiv_rd(float a, float b) { return pw::cu::div_dir(a, b, pw::cu::RD); }
static inline float __fmaf_rz(float a, float b, float c) { return pw::cu::fma_dir(a, b, c, pw::cu::RZ); }
static inline float __fmaf_ru(float a, float b, float c) { return pw::cu::fma_dir(a, b, c, pw::cu::RU); }
static inline float __fmaf_rd(float a, float b, float c) { return pw::cu::fma_dir(a, b, c, pw::cu::RD); }
static inline float __frcp_rz(float x) { return pw::cu::div_dir(1.0f, x, pw::cu::RZ); }
static inline float __frcp_ru(float x) { return pw::cu::div_dir(1.0f, x, pw::cu::RU); }
static inline float __frcp_rd(float x) { return pw::cu::div_dir(1.0f, x, pw::cu::RD); }
static inline float __fsqrt_rz(float x) { return pw::cu::sqrt_dir(x, pw::cu::RZ); }
static inline float __fsqrt_ru(float x) { return pw::cu::sqrt_dir(x, pw::cu::RU); }
static inline float __fsqrt_rd(float x) { return pw::cu::sqrt_dir(x, pw::cu::RD); }
static inline double __dadd_rn(double a, double b) { return pw::cu::opaque(pw::cu::opaque(a) + pw::cu::opaque(b)); }
static inline double __dsub_rn(double a, double b) { return pw::cu::opaque(pw::cu::opaque(a) - pw::cu::opaque(b)); }
static inline double __dmul_rn(double a, double b) { return pw::cu::opaque(pw::cu::opaque(a) * pw::cu::opaque(b)); }
static inline double __ddiv_rn(double a, double b) { return pw::cu::opaque(pw::cu::opaque(a) / pw::cu::opaque(b)); }
static inline double __drcp_rn(double x) { return pw::cu::opaque(1.0 / pw::cu::opaque(x)); }
static inline double __dsqrt_rn(double x) { return sqrt(x); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }

/* ---- the fast intrinsics: approximations on a GPU, the C library here ----
 * glibc declares functions of these very names (its internal aliases of
 * expf, sinf...) without exporting them, so CUDA's names are macros for
 * functions of our own. */
namespace pw {
namespace cu {
static inline float fast_expf(float x) { return expf(x); }
static inline float fast_exp10f(float x) { return (float)pow(10.0, (double)x); }
static inline float fast_logf(float x) { return logf(x); }
static inline float fast_log2f(float x) { return log2f(x); }
static inline float fast_log10f(float x) { return log10f(x); }
static inline float fast_sinf(float x) { return sinf(x); }
static inline float fast_cosf(float x) { return cosf(x); }
static inline float fast_tanf(float x) { return tanf(x); }
static inline void fast_sincosf(float x, float *s, float *c) { *s = sinf(x), *c = cosf(x); }
static inline float fast_powf(float x, float y) { return powf(x, y); }
}  // namespace cu
}  // namespace pw
#define __expf pw::cu::fast_expf
#define __exp10f pw::cu::fast_exp10f
#define __logf pw::cu::fast_logf
#define __log2f pw::cu::fast_log2f
#define __log10f pw::cu::fast_log10f
#define __sinf pw::cu::fast_sinf
#define __cosf pw::cu::fast_cosf
#define __tanf pw::cu::fast_tanf
#define __sincosf pw::cu::fast_sincosf
#define __powf pw::cu::fast_powf
/* x / y, with the hardware's documented corner: for 2^126 < |y| < 2^128
 * the GPU's reciprocal underflows, so the result is 0 (NaN for an infinite x). */
static inline float __fdividef(float x, float y)
{
    float ay = fabsf(y);
    if (ay > 0x1p126f && ay <= FLT_MAX)
        return x * copysignf(0.0f, y);
    return x / y;
}
static inline float fdividef(float x, float y) { return __fdividef(x, y); }
/* Clamped to [+0, 1]; NaN gives +0. */
static inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }

/* ---- device math functions <math.h> lacks ---------------------------------
 * Approximations, as CUDA's are: computed in double and rounded once, so
 * well within CUDA's documented ulp bounds (and nearly always correctly
 * rounded). Templates with a defaulted parameter: where the C library
 * declares the same name (exp10f and sincosf are GNU extensions; C23 adds
 * rsqrt, sinpi, cospi), its function wins overload resolution and these
 * step aside. */

template <class PW = void> static inline float rsqrtf(float x) { return (float)(1.0 / sqrt((double)x)); }
template <class PW = void> static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
template <class PW = void> static inline float rcbrtf(float x) { return (float)(1.0 / cbrt((double)x)); }
template <class PW = void> static inline double rcbrt(double x) { return 1.0 / cbrt(x); }
template <class PW = void> static inline float exp10f(float x) { return (float)pow(10.0, (double)x); }
template <class PW = void> static inline double exp10(double x) { return pow(10.0, x); }
template <class PW = void> static inline void sincosf(float x, float *s, float *c) { *s = sinf(x), *c = cosf(x); }
template <class PW = void> static inline void sincos(double x, double *s, double *c) { *s = sin(x), *c = cos(x); }
namespace pw {
namespace cu {
/* sin(pi x), cos(pi x) exactly at integers and halves: reduce x to [-1, 1]
 * first (exact), then multiply by pi in double. */
static inline double sinpi(double x)
{
    if (!std::isfinite(x))
        return x - x;
    double r = std::remainder(x, 2.0);   /* exact, in [-1, 1] */
    if (r == 0 || std::fabs(r) == 1)
        return std::copysign(0.0, x);   /* sinpi(n) is +0 for n > 0, -0 for n < 0 */
    return std::sin(3.14159265358979323846 * r);
}
static inline double cospi(double x)
{
    if (!std::isfinite(x))
        return x - x;
    double r = std::fabs(std::remainder(x, 2.0));
    if (r == 0.5)
        return 0.0;
    return std::cos(3.14159265358979323846 * r);
}
}  // namespace cu
}  // namespace pw
template <class PW = void> static inline float sinpif(float x) { return (float)pw::cu::sinpi(x); }
template <class PW = void> static inline float cospif(float x) { return (float)pw::cu::cospi(x); }
template <class PW = void> static inline double sinpi(double x) { return pw::cu::sinpi(x); }
template <class PW = void> static inline double cospi(double x) { return pw::cu::cospi(x); }
template <class PW = void> static inline void sincospif(float x, float *s, float *c)
{
    *s = (float)pw::cu::sinpi(x), *c = (float)pw::cu::cospi(x);
}
template <class PW = void> static inline void sincospi(double x, double *s, double *c)
{
    *s = pw::cu::sinpi(x), *c = pw::cu::cospi(x);
}
template <class PW = void> static inline float norm3df(float a, float b, float c)
{
    return (float)sqrt((double)a * a + (double)b * b + (double)c * c);
}
template <class PW = void> static inline float rnorm3df(float a, float b, float c)
{
    return (float)(1.0 / sqrt((double)a * a + (double)b * b + (double)c * c));
}
template <class PW = void> static inline float norm4df(float a, float b, float c, float d)
{
    return (float)sqrt((double)a * a + (double)b * b + (double)c * c + (double)d * d);
}
template <class PW = void> static inline float rnorm4df(float a, float b, float c, float d)
{
    return (float)(1.0 / sqrt((double)a * a + (double)b * b + (double)c * c + (double)d * d));
}
template <class PW = void> static inline float rhypotf(float a, float b) { return (float)(1.0 / hypot((double)a, (double)b)); }
template <class PW = void> static inline double norm3d(double a, double b, double c) { return hypot(hypot(a, b), c); }
template <class PW = void> static inline double rnorm3d(double a, double b, double c) { return 1.0 / hypot(hypot(a, b), c); }
template <class PW = void> static inline double norm4d(double a, double b, double c, double d)
{
    return hypot(hypot(a, b), hypot(c, d));
}
template <class PW = void> static inline double rnorm4d(double a, double b, double c, double d)
{
    return 1.0 / hypot(hypot(a, b), hypot(c, d));
}
template <class PW = void> static inline double rhypot(double a, double b) { return 1.0 / hypot(a, b); }
/* The standard normal distribution function. */
template <class PW = void> static inline float normcdff(float x) { return (float)(0.5 * erfc(-(double)x * 0.70710678118654752440)); }
template <class PW = void> static inline double normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }

/* ====================================================================== */
/* ---- vector types: CUDA's (vector_types.h), same members, sizes and
 * alignments; no arithmetic operators (CUDA's headers have none). uint3
 * and dim3 are in simt.h. */

#define PW_VEC1(T, E, A)                                                                   \
    struct __attribute__((aligned(A))) T##1 { E x; };                                      \
    static inline T##1 make_##T##1(E x) { T##1 v; v.x = x; return v; }
#define PW_VEC2(T, E, A)                                                                   \
    struct __attribute__((aligned(A))) T##2 { E x, y; };                                   \
    static inline T##2 make_##T##2(E x, E y) { T##2 v; v.x = x, v.y = y; return v; }
#define PW_VEC3(T, E)                                                                      \
    struct T##3 { E x, y, z; };                                                             \
    static inline T##3 make_##T##3(E x, E y, E z) { T##3 v; v.x = x, v.y = y, v.z = z; return v; }
#define PW_VEC4N(N, E, A)                                                                  \
    struct __attribute__((aligned(A))) N { E x, y, z, w; };                                \
    static inline N make_##N(E x, E y, E z, E w) { N v; v.x = x, v.y = y, v.z = z, v.w = w; return v; }
#define PW_VEC_ALL(T, E, A2, A4)                                                           \
    PW_VEC1(T, E, alignof(E)) PW_VEC2(T, E, A2) PW_VEC3(T, E) PW_VEC4N(T##4, E, A4)

PW_VEC_ALL(char, signed char, 2, 4)
PW_VEC_ALL(uchar, unsigned char, 2, 4)
PW_VEC_ALL(short, short, 4, 8)
PW_VEC_ALL(ushort, unsigned short, 4, 8)
PW_VEC_ALL(int, int, 8, 16)
PW_VEC1(uint, unsigned, 4)
PW_VEC2(uint, unsigned, 8)
PW_VEC4N(uint4, unsigned, 16)
static inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { uint3 v; v.x = x, v.y = y, v.z = z; return v; }
PW_VEC_ALL(long, long, 2 * sizeof(long), 16)
PW_VEC_ALL(ulong, unsigned long, 2 * sizeof(unsigned long), 16)
PW_VEC_ALL(float, float, 8, 16)
PW_VEC_ALL(longlong, long long, 16, 16)
PW_VEC_ALL(ulonglong, unsigned long long, 16, 16)
PW_VEC_ALL(double, double, 16, 16)
/* CUDA 13's explicitly aligned four-element 64-bit types. */
PW_VEC4N(long4_16a, long, 16)
PW_VEC4N(long4_32a, long, 32)
PW_VEC4N(ulong4_16a, unsigned long, 16)
PW_VEC4N(ulong4_32a, unsigned long, 32)
PW_VEC4N(longlong4_16a, long long, 16)
PW_VEC4N(longlong4_32a, long long, 32)
PW_VEC4N(ulonglong4_16a, unsigned long long, 16)
PW_VEC4N(ulonglong4_32a, unsigned long long, 32)
PW_VEC4N(double4_16a, double, 16)
PW_VEC4N(double4_32a, double, 32)
#undef PW_VEC1
#undef PW_VEC2
#undef PW_VEC3
#undef PW_VEC4N
#undef PW_VEC_ALL
static_assert(sizeof(float2) == 8 && alignof(float2) == 8 && sizeof(float3) == 12 && alignof(float3) == 4 &&
                  sizeof(float4) == 16 && alignof(float4) == 16 && alignof(int2) == 8 && alignof(int4) == 16 &&
                  alignof(double2) == 16 && alignof(char2) == 2 && sizeof(char3) == 3 && alignof(short4) == 8 &&
                  alignof(uchar4) == 4 && alignof(longlong2) == 16 && alignof(double4_32a) == 32,
              "vector types as CUDA lays them out");

/* Four-way byte dot products on char4/uchar4, as CUDA overloads them. */
static inline int __dp4a(char4 a, char4 b, int c)
{
    return c + a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
static inline unsigned __dp4a(uchar4 a, uchar4 b, unsigned c)
{
    return c + (unsigned)a.x * b.x + (unsigned)a.y * b.y + (unsigned)a.z * b.z + (unsigned)a.w * b.w;
}

/* ====================================================================== */
/* ---- the host API: CUDA's names, overloads and default arguments ------------ */

#define CUDART_VERSION 13000
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeClusterDimMustBeSet = 10,
    cudaFuncAttributeRequiredClusterWidth = 11,
    cudaFuncAttributeRequiredClusterHeight = 12,
    cudaFuncAttributeRequiredClusterDepth = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    cudaFuncAttributeMax
};
enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3
};
enum cudaSharedCarveout { cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100, cudaSharedmemCarveoutMaxL1 = 0 };
enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06
};
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrClusterLaunch = 120
};
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeNone = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};
typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* -- memory -- */
static inline cudaError_t cudaMalloc(void **p, size_t bytes) { return pw_simt_malloc(p, bytes); }
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t bytes)
{
    return pw_simt_malloc((void **)(void *)p, bytes);
}
static inline cudaError_t cudaFree(void *p) { return pw_simt_free(p); }
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    return pw_simt_memcpy(dst, src, bytes, kind);
}
static inline cudaError_t cudaMemset(void *p, int value, size_t bytes) { return pw_simt_memset(p, value, bytes); }
/* Streams run each operation when it is issued (simt.h): the Async forms
 * are done when they return, which a correct program cannot tell. */
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                          cudaStream_t stream = 0)
{
    (void)stream;
    return pw_simt_memcpy(dst, src, bytes, kind);
}
static inline cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t stream = 0)
{
    (void)stream;
    return pw_simt_memset(p, value, bytes);
}
/* Pitched memory: rows of `width` bytes, `pitch` bytes apart (a multiple of 512). */
static inline cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    *pitch = (width + 511) / 512 * 512;
    return pw_simt_malloc(p, *pitch * height);
}
template <class T> static inline cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch((void **)(void *)p, pitch, width, height);
}
static inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                       size_t height, cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch)
        return pw_simt_record_error(cudaErrorInvalidValue);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = pw_simt_memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                            size_t height, cudaMemcpyKind kind, cudaStream_t stream = 0)
{
    (void)stream;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
static inline cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = pw_simt_memset((char *)p + r * pitch, value, width);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
static inline cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags = cudaMemAttachGlobal)
{
    (void)flags;
    return pw_simt_malloc_managed(p, bytes);
}
template <class T> static inline cudaError_t cudaMallocManaged(T **p, size_t bytes, unsigned flags = cudaMemAttachGlobal)
{
    (void)flags;
    return pw_simt_malloc_managed((void **)(void *)p, bytes);
}
/* Pinned host memory: the flags change nothing here. */
static inline cudaError_t cudaMallocHost(void **p, size_t bytes) { return pw_simt_malloc_host(p, bytes); }
static inline cudaError_t cudaMallocHost(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return pw_simt_malloc_host(p, bytes);
}
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t bytes, unsigned flags = 0)
{
    (void)flags;
    return pw_simt_malloc_host((void **)(void *)p, bytes);
}
static inline cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return pw_simt_malloc_host(p, bytes);
}
template <class T> static inline cudaError_t cudaHostAlloc(T **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return pw_simt_malloc_host((void **)(void *)p, bytes);
}
static inline cudaError_t cudaFreeHost(void *p) { return pw_simt_free_host(p); }
static inline cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    return pw_simt_mem_get_info(free_bytes, total_bytes);
}
/* Managed memory is where the CPU and the emulated GPU both are already. */
static inline cudaError_t cudaMemPrefetchAsync(const void *p, size_t bytes, cudaMemLocation location, unsigned flags,
                                               cudaStream_t stream = 0)
{
    (void)p, (void)bytes, (void)location, (void)flags, (void)stream;
    return cudaSuccess;
}

/* -- symbols: a __device__ or __constant__ variable is a host variable here -- */
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    (void)kind;
    return pw_simt_memcpy_to_symbol(const_cast<void *>(static_cast<const void *>(&symbol)), src, count, offset);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                               cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    (void)kind;
    return pw_simt_memcpy_from_symbol(dst, static_cast<const void *>(&symbol), count, offset);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                                  cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0)
{
    (void)stream;
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                                    cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                    cudaStream_t stream = 0)
{
    (void)stream;
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol)
{
    *devPtr = const_cast<void *>(static_cast<const void *>(&symbol));
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    (void)symbol;
    *size = sizeof(T);
    return cudaSuccess;
}

/* -- errors and devices -- */
static inline cudaError_t cudaDeviceSynchronize(void) { return pw_simt_device_synchronize(); }
static inline cudaError_t cudaGetLastError(void) { return pw_simt_get_last_error(); }
static inline cudaError_t cudaPeekAtLastError(void) { return pw_simt_peek_last_error(); }
static inline const char *cudaGetErrorString(cudaError_t e) { return pw_simt_error_string(e); }
static inline const char *cudaGetErrorName(cudaError_t e) { return pw_simt_error_name(e); }
static inline cudaError_t cudaGetDeviceCount(int *n) { return pw_simt_get_device_count(n); }
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device)
{
    return pw_simt_get_device_properties(p, device);
}
static inline cudaError_t cudaSetDevice(int device) { return pw_simt_set_device(device); }
static inline cudaError_t cudaGetDevice(int *device) { return pw_simt_get_device(device); }
static inline cudaError_t cudaDeviceReset(void) { return pw_simt_device_reset(); }
static inline cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    (void)flags;
    return cudaSuccess;
}
static inline cudaError_t cudaDriverGetVersion(int *v)
{
    *v = CUDART_VERSION;
    return cudaSuccess;
}
static inline cudaError_t cudaRuntimeGetVersion(int *v)
{
    *v = CUDART_VERSION;
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer)
{
    (void)device, (void)peer;
    *can = 0;
    return cudaSuccess;
}
/* The few attributes a program asks for, from cudaGetDeviceProperties;
 * others are cudaErrorInvalidValue. */
static inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    cudaDeviceProp p;
    cudaError_t e = pw_simt_get_device_properties(&p, device);
    if (e != cudaSuccess)
        return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = 32; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.managedMemory; break;
    case cudaDevAttrPageableMemoryAccess: *value = 0; break;   /* a host pointer in a kernel is a memcheck error */
    case cudaDevAttrCanMapHostMemory: *value = 0; break;
    case cudaDevAttrCooperativeLaunch: *value = 0; break;      /* grid-wide sync is not emulated */
    case cudaDevAttrClusterLaunch: *value = 0; break;
    case cudaDevAttrKernelExecTimeout: *value = 0; break;
    case cudaDevAttrIntegrated: *value = 0; break;
    case cudaDevAttrComputeMode: *value = 0; break;
    case cudaDevAttrEccEnabled: *value = 0; break;
    case cudaDevAttrAsyncEngineCount: *value = 0; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = 0; break;
    case cudaDevAttrIsMultiGpuBoard: *value = 0; break;
    default: return pw_simt_record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}
/* Limits and cache preferences: accepted, recorded nowhere (nothing here
 * depends on them); cudaDeviceGetLimit reports CUDA's defaults. */
static inline cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    (void)limit, (void)value;
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit)
{
    switch (limit) {
    case cudaLimitStackSize: *value = 1024; break;
    case cudaLimitPrintfFifoSize: *value = 1 << 20; break;
    case cudaLimitMallocHeapSize: *value = 8 << 20; break;
    default: *value = 0; break;
    }
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config)
{
    (void)config;
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaFuncSetCacheConfig(T *func, cudaFuncCache config)
{
    (void)func, (void)config;
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaFuncSetAttribute(T *func, cudaFuncAttribute attr, int value)
{
    (void)func, (void)attr, (void)value;
    return cudaSuccess;
}

/* -- occupancy: an honest simple model (the emulator has no registers to
 * count): 2048 threads and 32 blocks per multiprocessor, and the dynamic
 * shared memory asked for against the multiprocessor's. Static __shared__
 * memory is not counted. */
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize,
                                                                        size_t dynamicSMemSize)
{
    (void)func;
    if (blockSize <= 0)
        return pw_simt_record_error(cudaErrorInvalidValue);
    int n = blockSize > 1024 ? 0 : 2048 / blockSize;
    n = n > 32 ? 32 : n;
    cudaDeviceProp p;
    if (dynamicSMemSize > 0 && pw_simt_get_device_properties(&p, 0) == cudaSuccess && p.sharedMemPerMultiprocessor > 0) {
        size_t bySmem = p.sharedMemPerMultiprocessor / dynamicSMemSize;
        n = (size_t)n > bySmem ? (int)bySmem : n;
    }
    *numBlocks = n;
    return cudaSuccess;
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func, int blockSize,
                                                                                 size_t dynamicSMemSize, unsigned flags)
{
    (void)flags;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize);
}
/* The block size (a multiple of 32) with the most threads resident per
 * multiprocessor, the largest such; minGridSize fills every multiprocessor. */
template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                             size_t dynamicSMemSize = 0, int blockSizeLimit = 0)
{
    int limit = blockSizeLimit > 0 && blockSizeLimit < 1024 ? blockSizeLimit : 1024;
    int best = 0, bestBlocks = 0, bestThreads = -1;
    for (int b = (limit + 31) / 32 * 32; b > 0; b -= 32) {
        int bs = b > limit ? limit : b, n = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, func, bs, dynamicSMemSize);
        if (n * bs > bestThreads)
            best = bs, bestBlocks = n, bestThreads = n * bs;
    }
    cudaDeviceProp p;
    int sms = pw_simt_get_device_properties(&p, 0) == cudaSuccess && p.multiProcessorCount > 0 ? p.multiProcessorCount : 1;
    *blockSize = best;
    *minGridSize = bestBlocks * sms;
    return cudaSuccess;
}

/* -- streams and events -- */
static inline cudaError_t cudaStreamCreate(cudaStream_t *s) { return pw_simt_stream_create(s); }
static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    (void)flags;
    return pw_simt_stream_create(s);
}
static inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority)
{
    (void)flags, (void)priority;
    return pw_simt_stream_create(s);
}
static inline cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) { return pw_simt_stream_destroy(s); }
static inline cudaError_t cudaStreamSynchronize(cudaStream_t s) { return pw_simt_stream_synchronize(s); }
/* Everything issued to a stream is done already. */
static inline cudaError_t cudaStreamQuery(cudaStream_t s)
{
    (void)s;
    return cudaSuccess;
}
static inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags = 0)
{
    (void)s, (void)e, (void)flags;
    return cudaSuccess;
}
static inline cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *userData)
{
    (void)s;
    fn(userData);
    return cudaSuccess;
}
static inline cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *userData, unsigned flags)
{
    (void)flags;
    cb(s, cudaSuccess, userData);
    return cudaSuccess;
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { return pw_simt_event_create(e); }
static inline cudaError_t cudaEventCreate(cudaEvent_t *e, unsigned flags)
{
    (void)flags;
    return pw_simt_event_create(e);
}
static inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    (void)flags;
    return pw_simt_event_create(e);
}
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0) { return pw_simt_event_record(e, s); }
static inline cudaError_t cudaEventSynchronize(cudaEvent_t e) { return pw_simt_event_synchronize(e); }
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    return pw_simt_event_elapsed_time(ms, start, stop);
}
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { return pw_simt_event_destroy(e); }
/* A recorded event has completed (its stream's work ran when issued). */
static inline cudaError_t cudaEventQuery(cudaEvent_t e)
{
    (void)e;
    return cudaSuccess;
}

/* -- launching without <<< >>>: the arguments, one pointer per parameter -- */
namespace pw {
template <class... P, size_t... I>
static inline void launch_unpacked(void (*func)(P...), const launch_config &c, void **args, std::index_sequence<I...>)
{
    launch("cudaLaunchKernel", c, func, *static_cast<typename std::decay<P>::type *>(args[I])...);
}
}  // namespace pw
template <class... P>
static inline cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 grid, dim3 block, void **args,
                                           size_t sharedMem = 0, cudaStream_t stream = 0)
{
    pw::launch_unpacked(func, pw::config(grid, block, sharedMem, stream), args, std::index_sequence_for<P...>{});
    return pw_simt_peek_last_error();
}
/* A grid-wide barrier needs every block resident at once, which the
 * emulator's block-at-a-time scheduling does not give. */
template <class T>
static inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args,
                                                      size_t sharedMem = 0, cudaStream_t stream = 0)
{
    static_assert(pw::cu::dependent_false<T>::value,
                  "SIMT emulator: cudaLaunchCooperativeKernel (a cooperative launch, for grid-wide sync) is not supported yet");
    (void)func, (void)grid, (void)block, (void)args, (void)sharedMem, (void)stream;
    return cudaErrorNotSupported;
}

#endif
