/* common/simt/simt_cuda_math.h: the device-side functions CUDA's headers give a kernel: integer and bit
 * intrinsics, min and max, reinterpretations, conversions with a rounding, the fast
 * intrinsics, the math functions <math.h> lacks, and the vector types.
 * One part of common/simt/simt_cuda.h, which includes it after its helpers
 * (namespace pw::cu); not a header to include on its own. */
#ifndef PW_SIMT_CUDA_MATH_H
#define PW_SIMT_CUDA_MATH_H
#ifndef PW_SIMT_CUDA_H
#error "simt_cuda_math.h is a part of simt_cuda.h: include simt_cuda.h"
#endif

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


#endif
