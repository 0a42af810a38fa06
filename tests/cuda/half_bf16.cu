// half_bf16.cu: float -> half and float -> bfloat16 on the device, bit for
// bit, against this file's own round-to-nearest-even on the host.
// Conformance: <cuda_fp16.h> and <cuda_bf16.h>, __float2half and
// __float2bfloat16 (round to nearest, ties to even), __half_as_ushort and
// __bfloat16_as_ushort (the raw 16 bits), __half2float and __bfloat162float
// (exact). The table holds the cases an emulator gets wrong first: ties
// (which go to the even neighbour), values just above a tie, the largest
// finite half (65504) and the tie above it (65520, which rounds to inf),
// half subnormals and the tie below the smallest one, float subnormals
// (zero in half, kept in bfloat16), infinities and NaN (the device returns
// the canonical NaN 0x7fff for both types). NaN widened back to float is
// only checked to be a NaN: its payload is not specified.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,   \
                    #call, cudaGetErrorName(err_));                         \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

__global__ void convert(const float *x, unsigned short *h, unsigned short *b, float *hBack, float *bBack, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half hv = __float2half(x[i]);
        __nv_bfloat16 bv = __float2bfloat16(x[i]);
        h[i] = __half_as_ushort(hv);
        b[i] = __bfloat16_as_ushort(bv);
        hBack[i] = __half2float(hv);
        bBack[i] = __bfloat162float(bv);
    }
}

// ---- the host's reference: float bits -> a narrower binary format ------------
// A format with `ebits` exponent bits and `mbits` stored mantissa bits
// (half 5/10, bfloat16 8/7), rounded to nearest, ties to even; NaN becomes
// the canonical 0x7fff (all exponent and mantissa bits set).
static unsigned short narrow(unsigned int f, int ebits, int mbits)
{
    unsigned sign = (f >> 31) << (ebits + mbits);
    unsigned absf = f & 0x7fffffffu;
    unsigned inf = ((1u << ebits) - 1) << mbits;
    int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
    if (absf > 0x7f800000u)
        return (unsigned short)((1u << (ebits + mbits)) - 1);
    if (absf == 0x7f800000u)
        return (unsigned short)(sign | inf);
    if (absf == 0)
        return (unsigned short)sign;
    // absf = m * 2^(exp - 23), m with its leading 1 unless f is subnormal.
    int exp = (int)(absf >> 23) - 127;
    unsigned m = absf & 0x7fffffu;
    if (exp == -127)
        exp = -126;  // a float subnormal: same scale as the smallest normal, no leading 1
    else
        m |= 0x800000u;
    if (exp > bias)
        return (unsigned short)(sign | inf);
    // Keep the bits down to the target's last place: 2^(max(exp, emin) - mbits).
    int shift = (exp > emin ? exp : emin) - mbits - (exp - 23);
    unsigned r;
    if (shift >= 32) {
        r = 0;  // below a quarter of the smallest subnormal
    } else {
        r = m >> shift;
        unsigned rest = m & ((1u << shift) - 1), tie = 1u << (shift - 1);
        if (rest > tie || (rest == tie && (r & 1)))
            r++;  // may carry into the next binade, or up to inf: the encoding takes care of both
    }
    unsigned bits = exp < emin ? r : ((unsigned)(exp + bias) << mbits) + r - (1u << mbits);
    if (bits > inf)
        bits = inf;
    return (unsigned short)(sign | bits);
}

static float halfToFloat(unsigned short h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float mag = e == 31 ? (m ? NAN : INFINITY) : e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(1024 + m), e - 25);
    return (h & 0x8000) ? -mag : mag;
}

static float bf16ToFloat(unsigned short b)
{
    unsigned f = (unsigned)b << 16;
    float x;
    memcpy(&x, &f, sizeof x);
    return x;
}

static unsigned floatBits(float x)
{
    unsigned u;
    memcpy(&u, &x, sizeof u);
    return u;
}

int main()
{
    // float bit patterns, with what each one tests
    static const unsigned table[] = {
        0x00000000u, 0x80000000u,              // +0, -0
        0x3f800000u, 0xc0490fdbu,              // 1, -pi
        0x3dcccccdu, 0x3eaaaaabu,              // 0.1, 1/3: inexact in both
        0x3f801000u, 0x3f803000u, 0x3f801001u, // half ties 1 + 2^-11 (down to even), 1 + 3*2^-11 (up), just above
        0x3f808000u, 0x3f818000u, 0x3f808001u, // bf16 ties 1 + 2^-8 (down), 1 + 3*2^-8 (up), just above
        0x477fe000u, 0x477fefffu, 0x477ff000u, // 65504 (half max), just below the tie, 65520 (tie: to inf)
        0x501502f9u, 0xc7c35000u, 0x7f7fffffu, // 1e10, -100000, FLT_MAX (bf16 inf too)
        0x38800000u, 0x387fc000u,              // 2^-14 (smallest normal half), largest half subnormal
        0x33800000u, 0x33000000u, 0x33000001u, // 2^-24 (smallest half subnormal), 2^-25 (tie: to 0), above
        0x33c00000u, 0xb3c00000u,              // 1.5 * 2^-24 (tie: to 2 * 2^-24), negative
        0x00000001u, 0x00018000u, 0x007fffffu, // float subnormals: smallest, a bf16 tie, largest (to bf16 normal)
        0x80012345u,                           // a negative float subnormal
        0x7f800000u, 0xff800000u,              // +inf, -inf
        0x7fc00000u, 0xffc00000u,              // NaN, -NaN
    };
    const int n = sizeof table / sizeof table[0];
    float x[n], hBack[n], bBack[n];
    unsigned short h[n], b[n];
    memcpy(x, table, sizeof x);

    float *d_x, *d_hb, *d_bb;
    unsigned short *d_h, *d_b;
    CHECK(cudaMalloc(&d_x, sizeof x));
    CHECK(cudaMalloc(&d_h, sizeof h));
    CHECK(cudaMalloc(&d_b, sizeof b));
    CHECK(cudaMalloc(&d_hb, sizeof hBack));
    CHECK(cudaMalloc(&d_bb, sizeof bBack));
    CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    convert<<<1, 64>>>(d_x, d_h, d_b, d_hb, d_bb, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d_h, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b, d_b, sizeof b, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hBack, d_hb, sizeof hBack, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bBack, d_bb, sizeof bBack, cudaMemcpyDeviceToHost));

    int bad = 0;
    printf("%-10s %-16s %-6s %-6s %-10s %s\n", "float", "value", "half", "bf16", "half->f", "bf16->f");
    for (int i = 0; i < n; i++) {
        unsigned short wantH = narrow(table[i], 5, 10), wantB = narrow(table[i], 8, 7);
        bool ok = h[i] == wantH && b[i] == wantB;
        char hb[16], bb[16];
        if (std::isnan(x[i])) {
            ok = ok && std::isnan(hBack[i]) && std::isnan(bBack[i]);
            snprintf(hb, sizeof hb, "%s", std::isnan(hBack[i]) ? "nan" : "not-nan");
            snprintf(bb, sizeof bb, "%s", std::isnan(bBack[i]) ? "nan" : "not-nan");
        } else {
            ok = ok && floatBits(hBack[i]) == floatBits(halfToFloat(wantH)) &&
                 floatBits(bBack[i]) == floatBits(bf16ToFloat(wantB));
            snprintf(hb, sizeof hb, "%08x", floatBits(hBack[i]));
            snprintf(bb, sizeof bb, "%08x", floatBits(bBack[i]));
        }
        printf("%08x   %-16.9g %04x   %04x   %-10s %s%s\n", table[i], x[i], h[i], b[i], hb, bb,
               ok ? "" : "  <- wrong");
        if (!ok) {
            printf("  want half %04x (%08x) bf16 %04x (%08x)\n", wantH, floatBits(halfToFloat(wantH)), wantB,
                   floatBits(bf16ToFloat(wantB)));
            bad++;
        }
    }
    printf("half_bf16: %s %d values, %d wrong\n", bad ? "FAIL" : "PASS", n, bad);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_h));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_hb));
    CHECK(cudaFree(d_bb));
    return bad ? 1 : 0;
}
