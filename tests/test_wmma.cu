/* tests/test_wmma.cu: the emulator's Tensor Cores (common/simt/cuda/mma.h).
 *
 * Plain CUDA C++ with nvcuda::wmma, built by tools/pwcc. Each test says what
 * CUDA promises (or what the emulator adds) and checks it:
 *   - the fragment API against a table: num_elements per fragment type as
 *     CUDA's headers give them; where each element of a loaded tile lands,
 *     against the hardware's mma.m16n8k16 layout written out by hand; every
 *     element held once (twice for a __half A or B fragment);
 *   - load and store are inverse, in both memory layouts, and a scrambled
 *     layout is a different one that still loads, multiplies and stores right;
 *   - mma_sync against exact integer products, every layout pair, fp16 and
 *     bf16, with a non-zero C, also scrambled;
 *   - the inputs round as the hardware rounds them (to nearest even, into
 *     fp16's or bf16's bits) and the products are exact;
 *   - a layout-dependent kernel is right under the default layout and wrong
 *     under a scramble (what the chapter's tests rely on);
 *   - errors, never hangs: a warp of 16 threads, a divergent call, lanes
 *     with different pointers, a misaligned pointer, an odd ldm, a fill that
 *     differs by lane;
 *   - the counters: mma_ops, 16 sectors per tile row load from global, and
 *     bank conflicts by ldm (16 halves: none; 64: 4 times the ideal; 72,
 *     padded by 8: none again). */
#include "simt_host.h"
#include "unit.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <math.h>
#include <string.h>

using namespace nvcuda;

/* ---- kernels ------------------------------------------------------------------ */

/* Load a 16 x 16 tile (ld 16) and write each lane's x[] to out[lane * 16 + i]. */
template <class Use, class T, class L> __global__ void dump_fragment(const T *tile, float *out, int *count)
{
    wmma::fragment<Use, 16, 16, 16, T, L> f;
    wmma::load_matrix_sync(f, tile, 16);
    int lane = threadIdx.x;
    for (int i = 0; i < f.num_elements; i++) out[lane * 16 + i] = (float)f.x[i];
    if (lane == 0) *count = f.num_elements;
}

__global__ void dump_accumulator(const float *tile, float *out, int col_major)
{
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
    wmma::load_matrix_sync(f, tile, 16, col_major ? wmma::mem_col_major : wmma::mem_row_major);
    for (int i = 0; i < f.num_elements; i++) out[threadIdx.x * 16 + i] = f.x[i];
}

/* Load an accumulator one way, store it the other way (or the same). */
__global__ void restore(const float *in, float *out, int load_col, int store_col)
{
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
    wmma::load_matrix_sync(f, in, 16, load_col ? wmma::mem_col_major : wmma::mem_row_major);
    wmma::store_matrix_sync(out, f, 16, store_col ? wmma::mem_col_major : wmma::mem_row_major);
}

/* D = A B + C for one tile, A and B in the given layouts (ld 16). */
template <class T, class LA, class LB> __global__ void one_mma(const T *a, const T *b, const float *c, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, LA> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, LB> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

/* C (m x n) = A (m x k) B (k x n), all multiples of 16, row-major: one warp
 * per C tile, elementwise scaling by 2 of the accumulator (layout-free). */
__global__ void tile_gemm(const __half *A, const __half *B, float *C, int m, int n, int k)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, tiles_n = n / 16;
    int tr = warp / tiles_n, tc = warp % tiles_n;
    if (tr >= m / 16) return;      /* whole warps leave together */
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += 16) {
        wmma::load_matrix_sync(a, A + tr * 16 * k + kk, k);
        wmma::load_matrix_sync(b, B + kk * n + tc * 16, n);
        wmma::mma_sync(acc, a, b, acc);
    }
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= 2.0f;
    wmma::store_matrix_sync(C + tr * 16 * n + tc * 16, acc, n, wmma::mem_row_major);
}

/* Wrong on purpose: adds a bias to "row 0" assuming lane l's x[i] is element
 * l * 8 + i of the tile (the obvious layout), i.e. lanes 0 and 1. */
__global__ void guess_layout(const float *c, float *out)
{
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    if (threadIdx.x < 2)
        for (int i = 0; i < acc.num_elements; i++) acc.x[i] += 100.0f;
    wmma::store_matrix_sync(out, acc, 16, wmma::mem_row_major);
}

/* The errors. `how` picks the mistake. */
__global__ void misuse(const __half *a, float *out, int how)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    int lane = threadIdx.x % 32;
    switch (how) {
    case 0: wmma::load_matrix_sync(fa, a, 16); break;                         /* right (or a short warp) */
    case 1: if (lane < 16) wmma::load_matrix_sync(fa, a, 16); break;          /* divergent */
    case 2: wmma::load_matrix_sync(fa, a + (lane == 5 ? 16 : 0), 16); break;  /* lanes disagree */
    case 3: wmma::load_matrix_sync(fa, a + 1, 16); break;                     /* misaligned */
    case 4: wmma::load_matrix_sync(fa, a, 17); break;                         /* ldm not a multiple of 8 */
    case 5: wmma::fill_fragment(acc, (float)lane); break;                      /* a fill by lane */
    default: break;
    }
    if (how == 0) out[threadIdx.x] = (float)fa.x[0];
}

/* Load a 16 x 16 __half tile from shared memory with leading dimension ldm. */
__global__ void shared_load(const __half *a, float *out, int ldm)
{
    extern __shared__ __half s[];
    for (int i = threadIdx.x; i < 16 * ldm; i += blockDim.x) s[i] = a[(i / ldm % 16) * 16 + i % ldm % 16];
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, s, ldm);
    out[threadIdx.x] = (float)fa.x[0];
}

/* ---- helpers ------------------------------------------------------------------ */

template <class T> static T *dev(size_t n)
{
    T *p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
    return p;
}

template <class T> static T *to_dev(const T *h, size_t n)
{
    T *d = dev<T>(n);
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

static int failed_with(cudaError_t want, const char *const *pieces)
{
    cudaDeviceSynchronize();   /* launches are asynchronous: the kernel's error is in once it has run */
    cudaError_t e = cudaGetLastError();
    const char *m = pw_simt_last_error_message();
    int ok = e == want;
    for (int i = 0; pieces[i]; i++) ok = ok && strstr(m, pieces[i]) != NULL;
    if (!ok) printf("  error %d (want %d): %s\n", (int)e, (int)want, m);
    return ok;
}

/* Element (r, c) of the 16 x 16 tile as the hardware's mma.m16n8k16 layout
 * puts it in lane `lane`'s x[i] (PTX ISA, "Matrix Fragments for mma.m16n8k16"),
 * written out here from the PTX tables, not from the emulator's code. */
static void hw_position(char which, int lane, int i, int *r, int *c)
{
    int g = lane / 4, t = lane % 4;
    if (which == 'a') {          /* a0,a1: (g, 2t..); a2,a3: (g+8, 2t..); a4,a5: (g, 2t+8..); a6,a7: (g+8, 2t+8..) */
        static const int dr[8] = { 0, 0, 8, 8, 0, 0, 8, 8 }, dc[8] = { 0, 1, 0, 1, 8, 9, 8, 9 };
        *r = g + dr[i];
        *c = 2 * t + dc[i];
    } else if (which == 'b') {   /* per n-block of 8: b0,b1: (k = 2t.., n = g); b2,b3: (k = 2t+8.., n = g) */
        static const int dk[4] = { 0, 1, 8, 9 };
        *r = 2 * t + dk[i % 4];
        *c = g + 8 * (i / 4);
    } else {                     /* per n-block of 8: c0,c1: (g, 2t..); c2,c3: (g+8, 2t..) */
        static const int dr[4] = { 0, 0, 8, 8 }, dc[4] = { 0, 1, 0, 1 };
        *r = g + dr[i % 4];
        *c = 2 * t + dc[i % 4] + 8 * (i / 4);
    }
}

/* A tile whose element (r, c) is r * 16 + c (exact in fp16 and bf16: < 256). */
template <class T> static void numbered_tile(T *h)
{
    for (int e = 0; e < 256; e++) h[e] = (T)(float)e;
}

/* ---- tests ---------------------------------------------------------------------- */

template <class T, class Use, class L>
static void check_table(const char *what, char which, int want_elems, int *dups_out, int *obvious_out)
{
    T h[256];
    numbered_tile(h);
    T *d = to_dev(h, 256);
    float *out = dev<float>(32 * 16), got[32 * 16];
    int *cnt = dev<int>(1), n = 0;
    dump_fragment<Use, T, L><<<1, 32>>>(d, out, cnt);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&n, cnt, sizeof n, cudaMemcpyDeviceToHost));
    EXPECT(n == want_elems, "%s: num_elements %d, CUDA's is %d", what, n, want_elems);
    int seen[256] = { 0 }, wrong = 0, obvious = 0;
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < n; i++) {
            int e = (int)got[l * 16 + i];
            seen[e]++;
            int r, c;
            hw_position(which, i < 8 ? l : (l + 16) % 32, i % 8, &r, &c);
            if (e != r * 16 + c) wrong++;
            if (e == l * 8 + i || e == (l * n + i) % 256) obvious++;
        }
    int dups = 0;
    for (int e = 0; e < 256; e++) dups += seen[e] != n / 8;
    EXPECT(wrong == 0, "%s: %d elements not where the mma.m16n8k16 table puts them", what, wrong);
    *dups_out += dups;
    *obvious_out += obvious;
    cudaFree(d);
    cudaFree(out);
    cudaFree(cnt);
}

static void test_fragment_table(void)
{
    int dups = 0, obvious = 0;
    check_table<__half, wmma::matrix_a, wmma::row_major>("matrix_a __half row_major", 'a', 16, &dups, &obvious);
    check_table<__nv_bfloat16, wmma::matrix_a, wmma::row_major>("matrix_a bf16 row_major", 'a', 8, &dups, &obvious);
    check_table<__half, wmma::matrix_b, wmma::row_major>("matrix_b __half row_major", 'b', 16, &dups, &obvious);
    check_table<__nv_bfloat16, wmma::matrix_b, wmma::row_major>("matrix_b bf16 row_major", 'b', 8, &dups, &obvious);
    EXPECT(dups == 0, "%d tile elements not held exactly once (twice in a 16-element fragment)", dups);
    EXPECT(obvious < 64, "%d of the elements sit where the obvious layout (lane l: elements 8l...) would put them",
           obvious);
    /* col_major: the fragment of A^T stored column-major is the fragment of A. */
    __half h[256], ht[256];
    numbered_tile(h);
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) ht[c * 16 + r] = h[r * 16 + c];
    __half *dr = to_dev(h, 256), *dc = to_dev(ht, 256);
    float *o1 = dev<float>(512), *o2 = dev<float>(512), g1[512], g2[512];
    int *cnt = dev<int>(1);
    dump_fragment<wmma::matrix_a, __half, wmma::row_major><<<1, 32>>>(dr, o1, cnt);
    dump_fragment<wmma::matrix_a, __half, wmma::col_major><<<1, 32>>>(dc, o2, cnt);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(g1, o1, sizeof g1, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g2, o2, sizeof g2, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(g1, g2, sizeof g1) == 0, "a col_major load of the transpose holds what a row_major load of the tile does");
    /* the accumulator, both memory layouts */
    float f[256], ft[256], a1[512], a2[512];
    for (int e = 0; e < 256; e++) f[e] = (float)e;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) ft[c * 16 + r] = f[r * 16 + c];
    float *df = to_dev(f, 256), *dft = to_dev(ft, 256);
    dump_accumulator<<<1, 32>>>(df, o1, 0);
    dump_accumulator<<<1, 32>>>(dft, o2, 1);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(a1, o1, sizeof a1, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(a2, o2, sizeof a2, cudaMemcpyDeviceToHost));
    int wrong = 0, same = 1;
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 8; i++) {
            int r, c;
            hw_position('c', l, i, &r, &c);
            wrong += (int)a1[l * 16 + i] != r * 16 + c;
            same &= a1[l * 16 + i] == a2[l * 16 + i];
        }
    EXPECT(wrong == 0, "accumulator: %d elements off the mma.m16n8k16 table", wrong);
    EXPECT(same, "mem_col_major of the transpose loads the same accumulator");
    cudaFree(dr); cudaFree(dc); cudaFree(o1); cudaFree(o2); cudaFree(cnt); cudaFree(df); cudaFree(dft);
}

static void test_load_store(void)
{
    float h[256], got[256];
    for (int e = 0; e < 256; e++) h[e] = (float)(e * 3 % 256) - 100.5f;
    float *in = to_dev(h, 256), *out = dev<float>(256);
    const uint64_t seeds[] = { 0, 7, 12345 };
    for (int s = 0; s < 3; s++) {
        pw_simt_set_wmma_scramble(seeds[s]);
        for (int lc = 0; lc < 2; lc++)
            for (int sc = 0; sc < 2; sc++) {
                restore<<<1, 32>>>(in, out, lc, sc);
                CUDA_CHECK(cudaGetLastError());
                CUDA_CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
                int bad = 0;
                for (int r = 0; r < 16; r++)
                    for (int c = 0; c < 16; c++) bad += got[lc == sc ? r * 16 + c : c * 16 + r] != h[r * 16 + c];
                EXPECT(bad == 0, "seed %llu, load %s, store %s: %d elements moved", (unsigned long long)seeds[s],
                       lc ? "col" : "row", sc ? "col" : "row", bad);
            }
    }
    /* a scramble is another layout */
    pw_simt_set_wmma_scramble(7);
    int moved = 0;
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 8; i++) {
            int e = pw_wmma_element(PW_WK_ACC_F32, l, i);
            pw_simt_set_wmma_scramble(0);
            moved += pw_wmma_element(PW_WK_ACC_F32, l, i) != e;
            pw_simt_set_wmma_scramble(7);
        }
    EXPECT(moved > 200, "seed 7 moves %d of the 256 accumulator elements (want most)", moved);
    EXPECT(pw_simt_wmma_scramble() == 7, "the seed reads back");
    pw_simt_set_wmma_scramble(0);
    cudaFree(in);
    cudaFree(out);
}

/* Row-major tile -> the tile a col_major fragment load reads (its transpose). */
template <class T> static void layout_for(const T *rowmajor, T *mem, int col_major)
{
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) mem[col_major ? c * 16 + r : r * 16 + c] = rowmajor[r * 16 + c];
}

template <class T, class LA, class LB> static int mma_case(uint64_t seed)
{
    const int acol = std::is_same<LA, wmma::col_major>::value, bcol = std::is_same<LB, wmma::col_major>::value;
    float a[256], b[256], c[256], want[256], got[256];
    uint64_t s = seed * 2654435761u + 17;
    for (int e = 0; e < 256; e++) {    /* small integers: every product and sum exact in float */
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        a[e] = (float)((int)(s >> 59) - 16);
        b[e] = (float)((int)(s >> 54 & 31) - 16);
        c[e] = (float)((int)(s >> 40 & 1023) - 512);
    }
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 16; n++) {
            float x = c[r * 16 + n];
            for (int k = 0; k < 16; k++) x += a[r * 16 + k] * b[k * 16 + n];
            want[r * 16 + n] = x;
        }
    T ha[256], hb[256], ma[256], mb[256];
    for (int e = 0; e < 256; e++) { ha[e] = (T)a[e]; hb[e] = (T)b[e]; }
    layout_for(ha, ma, acol);
    layout_for(hb, mb, bcol);
    T *da = to_dev(ma, 256), *db = to_dev(mb, 256);
    float *dc = to_dev(c, 256), *dd = dev<float>(256);
    one_mma<T, LA, LB><<<1, 32>>>(da, db, dc, dd);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dd, sizeof got, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int e = 0; e < 256; e++) bad += got[e] != want[e];
    cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
    return bad;
}

static void test_mma(void)
{
    const uint64_t seeds[] = { 0, 3, 99 };
    long long before = pw_simt_total_counters()->mma_ops;
    for (int s = 0; s < 3; s++) {
        pw_simt_set_wmma_scramble(seeds[s]);
        int bad = mma_case<__half, wmma::row_major, wmma::row_major>(seeds[s]) +
                  mma_case<__half, wmma::row_major, wmma::col_major>(seeds[s]) +
                  mma_case<__half, wmma::col_major, wmma::row_major>(seeds[s]) +
                  mma_case<__half, wmma::col_major, wmma::col_major>(seeds[s]);
        EXPECT(bad == 0, "fp16, layout seed %llu: %d wrong elements of D = A B + C", (unsigned long long)seeds[s], bad);
        bad = mma_case<__nv_bfloat16, wmma::row_major, wmma::row_major>(seeds[s] + 1) +
              mma_case<__nv_bfloat16, wmma::col_major, wmma::col_major>(seeds[s] + 1) +
              mma_case<__nv_bfloat16, wmma::row_major, wmma::col_major>(seeds[s] + 1);
        EXPECT(bad == 0, "bf16, layout seed %llu: %d wrong elements", (unsigned long long)seeds[s], bad);
    }
    pw_simt_set_wmma_scramble(0);
    EXPECT(pw_simt_total_counters()->mma_ops - before == 21, "21 mma_sync calls counted: %lld",
           pw_simt_total_counters()->mma_ops - before);
}

/* The inputs as the hardware rounds them: D = A I (I the identity) returns
 * A after rounding to the input type, and a product is exact. */
template <class T> static void rounding_case(const char *what, float (*back)(T), T (*down)(float))
{
    float a[256], id[256], zero[256] = { 0 }, got[256];
    T ha[256], hi[256];
    uint64_t s = 12345;
    for (int e = 0; e < 256; e++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        a[e] = (float)((double)(s >> 11) / 9007199254740992.0 * 6.0 - 3.0);    /* uniform in [-3, 3): not representable */
        id[e] = (e / 16 == e % 16) ? 1.0f : 0.0f;
        ha[e] = down(a[e]);
        hi[e] = down(id[e]);
    }
    T *da = to_dev(ha, 256), *di = to_dev(hi, 256);
    float *dz = to_dev(zero, 256), *dd = dev<float>(256);
    one_mma<T, wmma::row_major, wmma::row_major><<<1, 32>>>(da, di, dz, dd);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dd, sizeof got, cudaMemcpyDeviceToHost));
    int bad = 0, changed = 0;
    for (int e = 0; e < 256; e++) {
        bad += got[e] != back(ha[e]);
        changed += got[e] != a[e];
    }
    EXPECT(bad == 0, "%s: %d elements of A I differ from A rounded to nearest even", what, bad);
    EXPECT(changed > 200, "%s: only %d of 256 random inputs changed by rounding", what, changed);
    cudaFree(da); cudaFree(di); cudaFree(dz); cudaFree(dd);
}

static float h2f(__half h) { return __half2float(h); }
static __half f2h(float f) { return __float2half_rn(f); }
static float b2f(__nv_bfloat16 h) { return __bfloat162float(h); }
static __nv_bfloat16 f2b(float f) { return __float2bfloat16_rn(f); }

static void test_rounding(void)
{
    rounding_case<__half>("fp16", h2f, f2h);
    rounding_case<__nv_bfloat16>("bf16", b2f, f2b);
    /* 2049 is not a half (11 significant bits): it rounds to 2048 (ties to even);
     * 257 is not a bf16 (8 bits): it rounds to 256; the products are then exact. */
    EXPECT(__half2float(__float2half_rn(2049.0f)) == 2048.0f, "2049 -> 2048 in fp16");
    EXPECT(__bfloat162float(__float2bfloat16_rn(257.0f)) == 256.0f, "257 -> 256 in bf16");
    float a[256] = { 0 }, b[256] = { 0 }, z[256] = { 0 }, got[256];
    a[0] = 2049.0f; b[0] = 3.0f;      /* half: 2048 * 3 = 6144 exactly */
    a[1] = 0.1f;    b[16] = 0.1f;     /* + half(0.1)^2, exact in float */
    __half ha[256], hb[256];
    for (int e = 0; e < 256; e++) { ha[e] = __float2half_rn(a[e]); hb[e] = __float2half_rn(b[e]); }
    __half *da = to_dev(ha, 256), *db = to_dev(hb, 256);
    float *dz = to_dev(z, 256), *dd = dev<float>(256);
    one_mma<__half, wmma::row_major, wmma::row_major><<<1, 32>>>(da, db, dz, dd);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dd, sizeof got, cudaMemcpyDeviceToHost));
    double h01 = (double)__half2float(__float2half_rn(0.1f));
    EXPECT(got[0] == (float)(6144.0 + h01 * h01), "D[0][0] = 2048 * 3 + half(0.1)^2 = %.9g, got %.9g",
           (double)(float)(6144.0 + h01 * h01), (double)got[0]);
    cudaFree(da); cudaFree(db); cudaFree(dz); cudaFree(dd);
}

static void test_tiles_and_scramble(void)
{
    const int m = 48, n = 32, k = 64;
    __half A[m * k], B[k * n];
    float ref[m * n], got[m * n];
    for (int i = 0; i < m * k; i++) A[i] = (float)((i * 7) % 9 - 4);
    for (int i = 0; i < k * n; i++) B[i] = (float)((i * 5) % 11 - 5);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int kk = 0; kk < k; kk++) s += (float)A[i * k + kk] * (float)B[kk * n + j];
            ref[i * n + j] = 2 * s;
        }
    __half *dA = to_dev(A, m * k), *dB = to_dev(B, k * n);
    float *dC = dev<float>(m * n);
    for (uint64_t seed = 0; seed < 3; seed++) {
        pw_simt_set_wmma_scramble(seed * 1000);
        long long before = pw_simt_total_counters()->mma_ops;
        tile_gemm<<<2, 96>>>(dA, dB, dC, m, n, k);     /* 6 warps, 6 tiles */
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(got, dC, sizeof got, cudaMemcpyDeviceToHost));
        EXPECT(memcmp(got, ref, sizeof got) == 0, "48 x 64 x 32 GEMM with a layout-free epilogue, seed %llu",
               (unsigned long long)seed * 1000);
        long long mma = pw_simt_total_counters()->mma_ops - before;
        EXPECT(mma * 8192 == 2LL * m * n * k, "mma_ops %lld x 8192 = 2 m n k", mma);
    }
    /* a kernel that guesses the layout: right only by luck */
    float c[256], out[256];
    for (int e = 0; e < 256; e++) c[e] = (float)e;
    float *dc = to_dev(c, 256), *dout = dev<float>(256);
    int right_rows = 0;
    for (uint64_t seed = 0; seed < 2; seed++) {
        pw_simt_set_wmma_scramble(seed ? 4242 : 0);
        guess_layout<<<1, 32>>>(dc, dout);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        int row0 = 1;
        for (int e = 0; e < 256; e++) row0 &= out[e] == c[e] + (e < 16 ? 100.0f : 0.0f);
        right_rows += row0;
    }
    EXPECT(right_rows == 0, "the guessed layout added to row 0 in %d of 2 layouts (the emulator's are not the obvious one)",
           right_rows);
    pw_simt_set_wmma_scramble(0);
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dc); cudaFree(dout);
}

static void test_errors(void)
{
    __half h[32 * 32];
    for (int i = 0; i < 32 * 32; i++) h[i] = (float)(i % 7);
    __half *a = to_dev(h, 32 * 32);
    float *out = dev<float>(64);
    misuse<<<1, 16>>>(a, out, 0);
    const char *short_warp[] = { "wmma::load_matrix_sync", "only 16 threads", "32 threads", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, short_warp), "a block of 16 threads cannot run a warp operation");
    misuse<<<1, 32>>>(a, out, 1);
    const char *divergent[] = { "synccheck", "wmma::load_matrix_sync", "exited", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, divergent), "half the warp at load_matrix_sync, half gone: an error");
    misuse<<<1, 32>>>(a, out, 2);
    const char *disagree[] = { "lane 5 passed mptr", "same pointer, ldm and layout", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, disagree), "lanes with different pointers");
    misuse<<<1, 32>>>(a, out, 3);
    const char *misaligned[] = { "not 32-byte aligned", "load_matrix_sync", NULL };
    EXPECT(failed_with(cudaErrorMisalignedAddress, misaligned), "a pointer one half past a tile");
    misuse<<<1, 32>>>(a, out, 4);
    const char *ldm[] = { "ldm 17 is not a multiple of 8", NULL };
    EXPECT(failed_with(cudaErrorMisalignedAddress, ldm), "ldm 17 halves");
    misuse<<<1, 32>>>(a, out, 5);
    const char *fill[] = { "fill_fragment", "lane 1 fills", NULL };
    EXPECT(failed_with(cudaErrorLaunchFailure, fill), "a fill that differs by lane");
    misuse<<<1, 64>>>(a, out, 0);
    cudaDeviceSynchronize();
    EXPECT(cudaGetLastError() == cudaSuccess, "the emulator runs a right one after all that: %s", pw_simt_last_error_message());
    cudaFree(a);
    cudaFree(out);
}

static void test_counters(void)
{
    __half h[256];
    numbered_tile(h);
    __half *a = to_dev(h, 256);
    float *out = dev<float>(32);
    /* from global, ld 16: 16 rows of 32 bytes, one sector each */
    misuse<<<1, 32>>>(a, out, 0);
    CUDA_CHECK(cudaGetLastError());
    const pw_simt_counters *c = pw_simt_last_counters();
    EXPECT(c->global_load_requests == 1 && c->global_load_sectors == 16, "a 16 x 16 half tile: 1 request, 16 sectors (%lld, %lld)",
           c->global_load_requests, c->global_load_sectors);
    /* from shared: 512 bytes need 4 wavefronts; ldm 64 halves puts every row on banks 0-7: 16 ways */
    const int ldms[] = { 16, 64, 72 }, want[] = { 4, 16, 4 };
    for (int i = 0; i < 3; i++) {
        shared_load<<<1, 32, 16 * ldms[i] * sizeof(__half)>>>(a, out, ldms[i]);
        CUDA_CHECK(cudaGetLastError());
        c = pw_simt_last_counters();
        /* the last shared request of the launch is the fragment load; the fill loop's are 2-byte stores */
        EXPECT(c->shared_max_ways == want[i], "ldm %d: the tile load is %d-way (want %d)", ldms[i], (int)c->shared_max_ways, want[i]);
        EXPECT(c->shared_wavefronts - c->shared_ideal_wavefronts == (ldms[i] == 64 ? 12 : 0),
               "ldm %d: %lld wavefronts beyond the ideal", ldms[i], c->shared_wavefronts - c->shared_ideal_wavefronts);
    }
    cudaFree(a);
    cudaFree(out);
}

int main(void)
{
    pw_simt_set_quiet(true);
    pw_simt_set_wmma_scramble(0);
    RUN(test_fragment_table);
    RUN(test_load_store);
    RUN(test_mma);
    RUN(test_rounding);
    RUN(test_tiles_and_scramble);
    RUN(test_errors);
    RUN(test_counters);
    return UNIT_RESULT();
}
