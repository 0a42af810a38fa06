/* common/simt/simt_cuda.h: the rest of the everyday CUDA surface on the SIMT
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
 * Half precision, bfloat16 and cooperative groups are in common/simt/cuda/, the
 * stand-ins for CUDA's headers (cuda_fp16.h, cooperative_groups.h...).
 *
 * Everything is computed exactly as CUDA specifies it, except where a
 * comment says "approximation": CUDA's fast intrinsics (__expf, __sinf...)
 * are hardware approximations with documented error bounds; here they are
 * the C library's functions, which are at least as accurate, so a result
 * may differ from a GPU's in the last bits (never more than CUDA's bound).
 *
 * Files, by concern: this one (the helpers shared by both parts),
 * simt_cuda_math.h (the device-side functions and vector types) and
 * simt_cuda_host.h (the host API) and simt_cuda_stream.h (streams, events,
 * cooperative launches), included at the end.
 *
 * No state lives here: emulated threads are fibers on one OS thread (and
 * blocks may run on several OS threads), so everything is a pure function
 * of its arguments or a call into the emulator (common/simt/simt*.c).
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

/* The rest, by concern: the device-side functions, then the host API. */
#include "simt_cuda_math.h"
#include "simt_cuda_host.h"
#include "simt_cuda_stream.h"

#endif
