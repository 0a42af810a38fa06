/* common/simt/cuda/pw_lowp.h: what cuda_fp16.h and cuda_bf16.h share on the SIMT
 * emulator (not a CUDA header: include those two).
 *
 * Every arithmetic result is correctly rounded, as the hardware's is: each
 * operation is computed in double together with the sign of what double
 * lost (exact: TwoSum for sums, the remainder of a quotient or a square
 * root by an FMA), and rounded to the format once, from the bits (no
 * rounding through float, so there is no double rounding anywhere):
 *   products of two halves (11+11 bits) or bfloat16s (8+8) are exact in
 *   double; a + b, a*b + c: TwoSum gives the exact error of the double sum;
 *   a / b: fma(-q, b, a) is the exact remainder; sqrt(a): fma(-s, s, a).
 * The functions without an exact definition (hexp, hsin...) are the C
 * library's in double, rounded once: GPUs approximate them too.
 * NaN results are the canonical NaN 0x7fff, as NVIDIA's conversions and
 * arithmetic give them.
 */
#ifndef PW_CUDA_LOWP_H
#define PW_CUDA_LOWP_H

#include "simt.h"

#include <math.h>
#include <stdint.h>
#include <cmath>

namespace pw {
namespace lowp {
using cu::round_mode;

/* A binary format of 1 + E + M bits. */
template <int E, int M> struct format {
    static constexpr int exp_bits = E, man_bits = M;
    static constexpr int bias = (1 << (E - 1)) - 1;
    static constexpr unsigned exp_all = (1u << E) - 1u;
    static constexpr unsigned short inf = (unsigned short)(exp_all << M);
    static constexpr unsigned short max_finite = (unsigned short)(((exp_all - 1u) << M) | ((1u << M) - 1u));
    static constexpr unsigned short nan = 0x7fff;
    static constexpr unsigned short sign = (unsigned short)(1u << (E + M));
};
typedef format<5, 10> f16;
typedef format<8, 7> bf16;

/* The bits of F nearest the exact value v + (something of sign tail, far
 * smaller than v's last bit), rounded in mode m: tail says on which side of
 * v the exact value lies when v is not exact. */
template <class F> static inline unsigned short round_double(double v, round_mode m, int tail = 0)
{
    uint64_t u = __builtin_bit_cast(uint64_t, v);
    bool neg = u >> 63;
    uint64_t a = u & 0x7fffffffffffffffull;
    unsigned short sbit = neg ? F::sign : 0;
    if (a > 0x7ff0000000000000ull)
        return F::nan;
    if (a == 0x7ff0000000000000ull)
        return sbit | F::inf;
    if (a == 0)
        return sbit;
    int up_tail = neg ? -tail : tail;   /* the exact magnitude is above (1) or below (-1) |v| */
    if (up_tail < 0)
        a -= 1, up_tail = 1;            /* then it lies strictly between the double below and |v| */
    unsigned de = (unsigned)(a >> 52);
    uint64_t mant = de ? (a & 0xfffffffffffffull) | 0x10000000000000ull : a;
    int q = de ? (int)de - 1075 : -1074;                          /* |v| = mant * 2^q */
    int e = de ? (int)de - 1023 : (63 - __builtin_clzll(mant)) - 1074;   /* 2^e <= |v| < 2^(e+1) */
    const int emin = 1 - F::bias;
    int qe = (e > emin ? e : emin) - F::man_bits;                  /* the result's last bit */
    int shift = qe - q;                                            /* > 0: the format is narrower */
    uint64_t sig, rem, half;
    if (shift <= 0) {
        sig = mant << -shift, rem = 0, half = 1;
    } else if (shift >= 60) {
        sig = 0, rem = 1, half = (uint64_t)1 << 59;                /* below half, not zero */
    } else {
        sig = mant >> shift, rem = mant & (((uint64_t)1 << shift) - 1), half = (uint64_t)1 << (shift - 1);
    }
    bool inexact = rem != 0 || up_tail != 0, up;
    switch (m) {
    case cu::RN: up = rem > half || (rem == half && (up_tail > 0 || (sig & 1))); break;
    case cu::RZ: up = false; break;
    case cu::RU: up = inexact && !neg; break;
    default: up = inexact && neg; break;
    }
    sig += up;
    const uint64_t hidden = (uint64_t)1 << F::man_bits;
    if (sig >= 2 * hidden)
        sig >>= 1, qe++;
    if (sig < hidden)   /* subnormal or zero */
        return sbit | (unsigned short)sig;
    int field = qe + F::man_bits + F::bias;
    if (field >= (int)F::exp_all) {   /* overflow */
        bool to_inf = m == cu::RN || (m == cu::RU && !neg) || (m == cu::RD && neg);
        return sbit | (to_inf ? F::inf : F::max_finite);
    }
    return sbit | (unsigned short)(((unsigned)field << F::man_bits) | (unsigned)(sig - hidden));
}

/* An integer, rounded once in mode m (exact for every width: the integer
 * comparison says what a 64-bit value lost on its way to double). */
template <class F, class I> static inline unsigned short from_int(I v, round_mode m)
{
    double d = (double)v;
    __int128 di = (__int128)d, vi = (__int128)v;
    return round_double<F>(d, m, (vi > di) - (vi < di));
}

/* The exact value of the bits (NaNs stay NaNs). */
template <class F> static inline double to_double(unsigned short h)
{
    bool neg = h & F::sign;
    unsigned field = (h >> F::man_bits) & F::exp_all, man = h & ((1u << F::man_bits) - 1u);
    double r;
    if (field == F::exp_all)
        r = man ? NAN : INFINITY;
    else if (field == 0)
        r = ldexp((double)man, 1 - F::bias - F::man_bits);
    else
        r = ldexp((double)(man | (1u << F::man_bits)), (int)field - F::bias - F::man_bits);
    return neg ? -r : r;
}
/* To float, exactly: a half's NaN becomes the canonical float NaN
 * 0x7fffffff, as NVIDIA's __half2float does; bfloat16 is float's top half. */
static inline float f16_to_float(unsigned short h)
{
    if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu))
        return __builtin_bit_cast(float, 0x7fffffffu);
    return (float)to_double<f16>(h);
}
static inline float bf16_to_float(unsigned short h) { return __builtin_bit_cast(float, (unsigned)h << 16); }

static inline int sign_of(double d) { return (d > 0) - (d < 0); }
/* Correctly rounded arithmetic (see the top of this file). */
template <class F> static inline unsigned short add(unsigned short x, unsigned short y, bool subtract = false)
{
    double a = to_double<F>(x), b = to_double<F>(y);
    if (subtract)
        b = -b;
    double s = cu::opaque(a + b), bb = cu::opaque(s - a);
    double err = (a - (s - bb)) + (b - bb);
    return round_double<F>(s, cu::RN, std::isfinite(s) ? sign_of(err) : 0);
}
template <class F> static inline unsigned short mul(unsigned short x, unsigned short y)
{
    return round_double<F>(to_double<F>(x) * to_double<F>(y), cu::RN);   /* exact product */
}
template <class F> static inline unsigned short div(unsigned short x, unsigned short y)
{
    double a = to_double<F>(x), b = to_double<F>(y), q = a / b;
    int tail = 0;
    if (std::isfinite(q) && q != 0 && std::isfinite(b))
        tail = sign_of(std::fma(-q, b, a)) * (b > 0 ? 1 : -1);
    return round_double<F>(q, cu::RN, tail);
}
template <class F> static inline unsigned short fma(unsigned short x, unsigned short y, unsigned short z)
{
    double p = cu::opaque(to_double<F>(x) * to_double<F>(y)), c = to_double<F>(z);   /* p exact */
    double s = cu::opaque(p + c), bb = cu::opaque(s - p);
    double err = (p - (s - bb)) + (c - bb);
    return round_double<F>(s, cu::RN, std::isfinite(s) ? sign_of(err) : 0);
}
template <class F> static inline unsigned short sqrt(unsigned short x)
{
    double a = to_double<F>(x), s = std::sqrt(a);
    int tail = (std::isfinite(s) && s > 0) ? sign_of(std::fma(-s, s, a)) : 0;
    return round_double<F>(s, cu::RN, tail);
}
/* A function without an exact definition: in double, rounded once. */
template <class F, class Fn> static inline unsigned short apply(unsigned short x, Fn fn)
{
    return round_double<F>(fn(to_double<F>(x)), cu::RN);
}
template <class F> static inline bool isnan(unsigned short h)
{
    return ((h >> F::man_bits) & F::exp_all) == F::exp_all && (h & ((1u << F::man_bits) - 1u));
}
/* fmax/fmin: a NaN loses to a number; +0 is above -0. */
template <class F> static inline unsigned short max(unsigned short x, unsigned short y, bool nan_wins)
{
    bool nx = isnan<F>(x), ny = isnan<F>(y);
    if (nx || ny)
        return (nan_wins || (nx && ny)) ? F::nan : nx ? y : x;
    double a = to_double<F>(x), b = to_double<F>(y);
    if (a == b)
        return (x & F::sign) ? y : x;
    return a > b ? x : y;
}
template <class F> static inline unsigned short min(unsigned short x, unsigned short y, bool nan_wins)
{
    bool nx = isnan<F>(x), ny = isnan<F>(y);
    if (nx || ny)
        return (nan_wins || (nx && ny)) ? F::nan : nx ? y : x;
    double a = to_double<F>(x), b = to_double<F>(y);
    if (a == b)
        return (x & F::sign) ? x : y;
    return a < b ? x : y;
}
/* Clamped to [+0, 1], NaN to +0 (the _sat operations). */
template <class F> static inline unsigned short sat(unsigned short h)
{
    double a = to_double<F>(h);
    if (!(a > 0))
        return 0;
    return a >= 1 ? round_double<F>(1.0, cu::RN) : h;
}
}  // namespace lowp
}  // namespace pw

/* The operations cuda_fp16.h and cuda_bf16.h both have, for a scalar type H
 * (format F) and its pair H2; TOF converts H to float. */
#define PW_LOWP_COMMON(H, H2, F, TOF)                                                                        \
    static inline unsigned short pw_bits(H h) { return __builtin_bit_cast(unsigned short, h); }               \
    static inline H pw_make(H *, unsigned short u) { return __builtin_bit_cast(H, u); }                       \
    static inline H __hadd(H a, H b) { return pw_make((H *)0, pw::lowp::add<F>(pw_bits(a), pw_bits(b))); }    \
    static inline H __hsub(H a, H b) { return pw_make((H *)0, pw::lowp::add<F>(pw_bits(a), pw_bits(b), true)); } \
    static inline H __hmul(H a, H b) { return pw_make((H *)0, pw::lowp::mul<F>(pw_bits(a), pw_bits(b))); }    \
    static inline H __hdiv(H a, H b) { return pw_make((H *)0, pw::lowp::div<F>(pw_bits(a), pw_bits(b))); }    \
    static inline H __hfma(H a, H b, H c)                                                                     \
    {                                                                                                         \
        return pw_make((H *)0, pw::lowp::fma<F>(pw_bits(a), pw_bits(b), pw_bits(c)));                         \
    }                                                                                                         \
    static inline H __hadd_rn(H a, H b) { return __hadd(a, b); }                                              \
    static inline H __hsub_rn(H a, H b) { return __hsub(a, b); }                                              \
    static inline H __hmul_rn(H a, H b) { return __hmul(a, b); }                                              \
    static inline H __hadd_sat(H a, H b) { return pw_make((H *)0, pw::lowp::sat<F>(pw_bits(__hadd(a, b)))); } \
    static inline H __hsub_sat(H a, H b) { return pw_make((H *)0, pw::lowp::sat<F>(pw_bits(__hsub(a, b)))); } \
    static inline H __hmul_sat(H a, H b) { return pw_make((H *)0, pw::lowp::sat<F>(pw_bits(__hmul(a, b)))); } \
    static inline H __hfma_sat(H a, H b, H c)                                                                 \
    {                                                                                                         \
        return pw_make((H *)0, pw::lowp::sat<F>(pw_bits(__hfma(a, b, c))));                                   \
    }                                                                                                         \
    static inline H __hneg(H a) { return pw_make((H *)0, (unsigned short)(pw_bits(a) ^ F::sign)); }            \
    static inline H __habs(H a) { return pw_make((H *)0, (unsigned short)(pw_bits(a) & ~F::sign)); }           \
    static inline H __hmax(H a, H b) { return pw_make((H *)0, pw::lowp::max<F>(pw_bits(a), pw_bits(b), false)); } \
    static inline H __hmin(H a, H b) { return pw_make((H *)0, pw::lowp::min<F>(pw_bits(a), pw_bits(b), false)); } \
    static inline H __hmax_nan(H a, H b) { return pw_make((H *)0, pw::lowp::max<F>(pw_bits(a), pw_bits(b), true)); } \
    static inline H __hmin_nan(H a, H b) { return pw_make((H *)0, pw::lowp::min<F>(pw_bits(a), pw_bits(b), true)); } \
    static inline bool __hisnan(H a) { return pw::lowp::isnan<F>(pw_bits(a)); }                              \
    static inline int __hisinf(H a)                                                                           \
    {                                                                                                         \
        unsigned short u = pw_bits(a);                                                                        \
        return u == F::inf ? 1 : u == (F::inf | F::sign) ? -1 : 0;                                            \
    }                                                                                                         \
    /* Comparisons: ordered ones are false with a NaN; the ...u ones true. */                                 \
    static inline bool __heq(H a, H b) { return TOF(a) == TOF(b); }                                           \
    static inline bool __hne(H a, H b) { return TOF(a) < TOF(b) || TOF(a) > TOF(b); }                         \
    static inline bool __hlt(H a, H b) { return TOF(a) < TOF(b); }                                            \
    static inline bool __hle(H a, H b) { return TOF(a) <= TOF(b); }                                           \
    static inline bool __hgt(H a, H b) { return TOF(a) > TOF(b); }                                            \
    static inline bool __hge(H a, H b) { return TOF(a) >= TOF(b); }                                           \
    static inline bool __hequ(H a, H b) { return !(TOF(a) < TOF(b) || TOF(a) > TOF(b)); }                     \
    static inline bool __hneu(H a, H b) { return !(TOF(a) == TOF(b)); }                                       \
    static inline bool __hltu(H a, H b) { return !(TOF(a) >= TOF(b)); }                                       \
    static inline bool __hleu(H a, H b) { return !(TOF(a) > TOF(b)); }                                        \
    static inline bool __hgtu(H a, H b) { return !(TOF(a) <= TOF(b)); }                                       \
    static inline bool __hgeu(H a, H b) { return !(TOF(a) < TOF(b)); }                                        \
    /* Math functions: sqrt exact; the others in double, rounded once. */                                     \
    static inline H hsqrt(H a) { return pw_make((H *)0, pw::lowp::sqrt<F>(pw_bits(a))); }                     \
    static inline H hrsqrt(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return 1.0 / std::sqrt(x); })); } \
    static inline H hrcp(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return 1.0 / x; })); } \
    static inline H hexp(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::exp(x); })); } \
    static inline H hexp2(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::exp2(x); })); } \
    static inline H hexp10(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::pow(10.0, x); })); } \
    static inline H hlog(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::log(x); })); } \
    static inline H hlog2(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::log2(x); })); } \
    static inline H hlog10(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::log10(x); })); } \
    static inline H hsin(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::sin(x); })); } \
    static inline H hcos(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::cos(x); })); } \
    static inline H htanh(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::tanh(x); })); } \
    static inline H hceil(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::ceil(x); })); } \
    static inline H hfloor(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::floor(x); })); } \
    static inline H htrunc(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::trunc(x); })); } \
    static inline H hrint(H a) { return pw_make((H *)0, pw::lowp::apply<F>(pw_bits(a), [](double x) { return std::nearbyint(x); })); } \
    /* Pairs: each half on its own. */                                                                       \
    static inline H2 __hadd2(H2 a, H2 b) { return H2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }                   \
    static inline H2 __hsub2(H2 a, H2 b) { return H2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }                   \
    static inline H2 __hmul2(H2 a, H2 b) { return H2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }                   \
    static inline H2 __h2div(H2 a, H2 b) { return H2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }                   \
    static inline H2 __hfma2(H2 a, H2 b, H2 c) { return H2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }   \
    static inline H2 __hadd2_sat(H2 a, H2 b) { return H2(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y)); }       \
    static inline H2 __hmul2_sat(H2 a, H2 b) { return H2(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y)); }       \
    static inline H2 __hfma2_sat(H2 a, H2 b, H2 c) { return H2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)); } \
    static inline H2 __hneg2(H2 a) { return H2(__hneg(a.x), __hneg(a.y)); }                                   \
    static inline H2 __habs2(H2 a) { return H2(__habs(a.x), __habs(a.y)); }                                   \
    static inline H2 __hmax2(H2 a, H2 b) { return H2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }                   \
    static inline H2 __hmin2(H2 a, H2 b) { return H2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }                   \
    static inline bool __hbeq2(H2 a, H2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }                     \
    static inline bool __hbneu2(H2 a, H2 b) { return __hneu(a.x, b.x) && __hneu(a.y, b.y); }                  \
    static inline H2 h2sqrt(H2 a) { return H2(hsqrt(a.x), hsqrt(a.y)); }                                      \
    static inline H2 h2exp(H2 a) { return H2(hexp(a.x), hexp(a.y)); }                                         \
    static inline H2 h2log(H2 a) { return H2(hlog(a.x), hlog(a.y)); }                                         \
    static inline float __low2float(H2 a) { return TOF(a.x); }                                               \
    static inline float __high2float(H2 a) { return TOF(a.y); }                                              \
    static inline H2 __lowhigh2highlow(H2 a) { return H2(a.y, a.x); }                                        \
    /* Atomics: compare-and-swap on the bits (simt_device.h's atomicCAS),     \
     * starting from a guess of +0 so that nothing reads the word plainly. */ \
    static inline H atomicAdd(H *p, H v)                                                                      \
    {                                                                                                         \
        unsigned short *u = reinterpret_cast<unsigned short *>(p), seen = 0, want;                            \
        do {                                                                                                  \
            want = seen;                                                                                      \
            seen = atomicCAS(u, want, pw_bits(__hadd(pw_make((H *)0, want), v)));                            \
        } while (seen != want);                                                                               \
        return pw_make((H *)0, seen);                                                                         \
    }                                                                                                         \
    static inline H2 atomicAdd(H2 *p, H2 v)                                                                   \
    {                                                                                                         \
        unsigned *u = reinterpret_cast<unsigned *>(p), seen = 0, want;                                        \
        do {                                                                                                  \
            want = seen;                                                                                      \
            H2 sum = __hadd2(__builtin_bit_cast(H2, want), v);                                                \
            seen = atomicCAS(u, want, __builtin_bit_cast(unsigned, sum));                                     \
        } while (seen != want);                                                                               \
        return __builtin_bit_cast(H2, seen);                                                                  \
    }

/* Operators (unless __CUDA_NO_HALF_OPERATORS__ / __CUDA_NO_BFLOAT16_OPERATORS__). */
#define PW_LOWP_OPERATORS(H, H2, ONE)                                                                 \
    static inline H operator+(const H &a, const H &b) { return __hadd(a, b); }                        \
    static inline H operator-(const H &a, const H &b) { return __hsub(a, b); }                        \
    static inline H operator*(const H &a, const H &b) { return __hmul(a, b); }                        \
    static inline H operator/(const H &a, const H &b) { return __hdiv(a, b); }                        \
    static inline H &operator+=(H &a, const H &b) { return a = __hadd(a, b); }                        \
    static inline H &operator-=(H &a, const H &b) { return a = __hsub(a, b); }                        \
    static inline H &operator*=(H &a, const H &b) { return a = __hmul(a, b); }                        \
    static inline H &operator/=(H &a, const H &b) { return a = __hdiv(a, b); }                        \
    static inline H &operator++(H &a) { return a = __hadd(a, pw_make((H *)0, ONE)); }                 \
    static inline H &operator--(H &a) { return a = __hsub(a, pw_make((H *)0, ONE)); }                 \
    static inline H operator++(H &a, int) { H old = a; ++a; return old; }                             \
    static inline H operator--(H &a, int) { H old = a; --a; return old; }                             \
    static inline H operator+(const H &a) { return a; }                                               \
    static inline H operator-(const H &a) { return __hneg(a); }                                       \
    static inline bool operator==(const H &a, const H &b) { return __heq(a, b); }                     \
    static inline bool operator!=(const H &a, const H &b) { return __hneu(a, b); }                    \
    static inline bool operator<(const H &a, const H &b) { return __hlt(a, b); }                      \
    static inline bool operator>(const H &a, const H &b) { return __hgt(a, b); }                      \
    static inline bool operator<=(const H &a, const H &b) { return __hle(a, b); }                     \
    static inline bool operator>=(const H &a, const H &b) { return __hge(a, b); }                     \
    static inline H2 operator+(const H2 &a, const H2 &b) { return __hadd2(a, b); }                    \
    static inline H2 operator-(const H2 &a, const H2 &b) { return __hsub2(a, b); }                    \
    static inline H2 operator*(const H2 &a, const H2 &b) { return __hmul2(a, b); }                    \
    static inline H2 operator/(const H2 &a, const H2 &b) { return __h2div(a, b); }                    \
    static inline H2 &operator+=(H2 &a, const H2 &b) { return a = __hadd2(a, b); }                    \
    static inline H2 &operator-=(H2 &a, const H2 &b) { return a = __hsub2(a, b); }                    \
    static inline H2 &operator*=(H2 &a, const H2 &b) { return a = __hmul2(a, b); }                    \
    static inline H2 &operator/=(H2 &a, const H2 &b) { return a = __h2div(a, b); }                    \
    static inline H2 operator+(const H2 &a) { return a; }                                             \
    static inline H2 operator-(const H2 &a) { return __hneg2(a); }                                    \
    static inline bool operator==(const H2 &a, const H2 &b) { return __hbeq2(a, b); }                 \
    static inline bool operator!=(const H2 &a, const H2 &b) { return __hbneu2(a, b); }

#endif
