/* chapters/09-tensor-cores/precision.cu: what 16-bit inputs cost in
 * accuracy. The same C = A B (m = n = 32, k from 16 to 4096) is computed by
 * the ladder's kernels three ways: fp32 inputs on an fp32 SIMT rung
 * (3_smem), and fp16 or bf16 inputs with fp32 accumulation on the Tensor
 * Core rung (9_wmma_shared, after gg_convert rounds the inputs on the
 * device). Each is compared with a double-precision product of the fp32
 * inputs. Then why bf16 exists: inputs of 7e4 (past fp16's largest, 65504)
 * and of 1e-8 (below half its smallest subnormal, 2^-25 = 3e-8).
 *
 *   ./build/ch09/precision              on the emulator (the kernels' arithmetic is the GPU's)
 *   ./build/gpu/ch09/precision          on a GPU, the same table from its Tensor Cores
 *   options: -n N (m = n), -k K[,K...], --tiny (k up to 256), --csv FILE
 *
 * What to expect (derived below, next to the numbers it prints): relative
 * to the size of the answer, fp16's error is about 2^-11 x 0.53 and bf16's
 * 8x that, whatever k is; fp32's is tiny but grows as sqrt(k). A 7e4 input
 * is inf in fp16 and 70144 in bf16; a 1e-8 input is 0 in fp16.
 *
 * The error model (stated once, used for every "model" column).
 *   Inputs a, b uniform in [-1, 1). A format with a p-bit significand
 *   rounds x to nearest with an error uniform in +-ulp(x)/2 = +-2^e u,
 *   u = 2^-p (2^-24 fp32, 2^-11 fp16, 2^-8 bf16), x in [2^e, 2^(e+1)).
 *   For |a| uniform in [0, 1) the binade [2^-j, 2^-j+1) has probability
 *   2^-j, so E[err_a^2] = (u^2/3) sum_j 2^-j 4^-j = u^2/21.
 *   One element of C: e = sum_l (err_a b + a err_b) over k terms of random
 *   sign (the products of two 16-bit numbers are exact in fp32, and the
 *   fp32 sums add far less), so E[e^2] = k 2 E[b^2] u^2/21 = 2 k u^2 / 63,
 *   while the answer itself has E[c^2] = k E[a^2] E[b^2] = k/9.
 *   -> normwise ||C - ref|| / ||ref|| = sqrt(2k u^2/63 / (k/9)) = u sqrt(2/7):
 *      no k in it. The input errors grow as sqrt(k), like the answer.
 *   -> per element against sum_l |a b| (~ k/4, what worst-case bounds use):
 *      the median of |e| (a normal's: 0.674 sigma) is
 *      0.674 sqrt(2k u^2/63) / (k/4) = 0.480 u / sqrt(k), shrinking with k,
 *      and no element may pass 2u + u^2 (each product's two roundings)
 *      plus the accumulation's share: the check below.
 *   fp32 inputs are exact; the error is the accumulator's own rounding,
 *   about u^2/6 in variance times each partial sum's square (E = l/9 after
 *   l terms): E[e^2] = (u^2/6) sum_l l/9 = u^2 k^2/108, so the normwise
 *   error is u sqrt(k/12) (it grows as sqrt(k)) and the median per element
 *   0.674 u k / sqrt(108) / (k/4) = 0.259 u. (Products rounded apart from
 *   the sum, as g++ builds the emulator, add u/sqrt(6) normwise: small
 *   here; nvcc and clang fuse them into FMAs, so fp32's digits differ a
 *   little between builds.)
 * These are models of typical errors, not bounds: the program prints them
 * beside what it measured, and the tests assert only the order
 * bf16 > fp16 > fp32 at every k and the bounds.
 */
#include "simt_driver.h"
#include "gemm_gpu.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

enum { NTYPES = 3, MAX_KS = PW_MAX_LIST };
static const gg_type types[NTYPES] = { GG_F32, GG_F16, GG_BF16 };
/* A seed with high bits set: xorshift64 from a small seed starts with
 * outputs below 2^40, i.e. a first input of exactly lo (-1, which every
 * format holds exactly). */
static const uint64_t seed = 0x2545f4914f6cdd1dull;

/* The rung each input type runs on: fp32 on the shared-memory SIMT rung,
 * 16-bit inputs on the shared-memory Tensor Core rung. */
static gg_rung rung_for(gg_type t) { return t == GG_F32 ? GG_SMEM : GG_WMMA_SHARED; }

/* u = 2^-p, p the significand's bits with the implicit one: fp32 24, fp16 11, bf16 8. */
static double unit_roundoff(gg_type t) { return t == GG_F32 ? 0x1p-24 : t == GG_F16 ? 0x1p-11 : 0x1p-8; }

/* x as the device holds it after gg_convert: rounded to nearest even. */
static float as_input(gg_type t, float x)
{
    if (t == GG_F16) return __half2float(__float2half(x));
    if (t == GG_BF16) return __bfloat162float(__float2bfloat16(x));
    return x;
}

/* C (m x n, host) = A B on the device, with t's inputs on t's rung. A is
 * m x k and B k x n, fp32 on the host; 16-bit inputs are rounded on the
 * device by gg_convert, as a real program would. */
static void device_gemm(gg_type t, int m, int n, int k, const float *hA, const float *hB, float *hC)
{
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    float *dA32 = (float *)pw_cuda_alloc(na * sizeof(float)), *dB32 = (float *)pw_cuda_alloc(nb * sizeof(float));
    float *dC = (float *)pw_cuda_alloc(nc * sizeof(float));
    CUDA_CHECK(cudaMemcpy(dA32, hA, na * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB32, hB, nb * sizeof(float), cudaMemcpyHostToDevice));
    void *dA = dA32, *dB = dB32;
    if (t != GG_F32) {
        dA = pw_cuda_alloc(na * gg_type_size(t));
        dB = pw_cuda_alloc(nb * gg_type_size(t));
        gg_convert(t, dA32, m, k, dA, m, k);   /* packed: ld = cols, no padding rows */
        gg_convert(t, dB32, k, n, dB, k, n);
        pw_cuda_sync_check();
    }
    CUDA_CHECK(gg_launch(rung_for(t), t, m, n, k, dA, dB, dC));
    pw_cuda_sync_check();
    CUDA_CHECK(cudaMemcpy(hC, dC, nc * sizeof(float), cudaMemcpyDeviceToHost));
    if (t != GG_F32) {
        CUDA_CHECK(cudaFree(dA));
        CUDA_CHECK(cudaFree(dB));
    }
    CUDA_CHECK(cudaFree(dA32));
    CUDA_CHECK(cudaFree(dB32));
    CUDA_CHECK(cudaFree(dC));
}

/* ref = A B in double and sabs = |A| |B| (each element's sum_l |a b|), from
 * the inputs as type t holds them. */
static void host_gemm(gg_type t, int m, int n, int k, const float *A, const float *B, double *ref, double *sabs)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0, sa = 0;
            for (int l = 0; l < k; l++) {
                double p = (double)as_input(t, A[(size_t)i * k + l]) * as_input(t, B[(size_t)l * n + j]);
                s += p;
                sa += fabs(p);
            }
            ref[(size_t)i * n + j] = s;
            sabs[(size_t)i * n + j] = sa;
        }
}

/* Correct before measured: each type's kernel against a reference of the
 * inputs rounded exactly as the device rounds them, so the only difference
 * left is the fp32 accumulation. Its bound, for any order of the k adds,
 * is gamma_k = k u / (1 - k u) times sum |a b| (u = 2^-24; fp32 inputs add
 * one rounding per product, hence k + 1). Tensor Cores truncate inside
 * their sums instead of rounding to nearest (Fasi, Higham, Mikaitis and
 * Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021),
 * which doubles u: the tolerance is 2 gamma_(k+1). A conversion that
 * truncated instead of rounding, or a fragment mixed up, errs by ~2^-11 or
 * more and is caught. Returns 1 and prints the first bad element on failure. */
static int check_type(gg_type t, int m, int n, int k)
{
    size_t nc = (size_t)m * n;
    float *A = pw_alloc_floats((size_t)m * k), *B = pw_alloc_floats((size_t)k * n), *C = pw_alloc_floats(nc);
    double *ref = pw_alloc_doubles(nc), *sabs = pw_alloc_doubles(nc);
    pw_fill_random(A, (size_t)m * k, seed + 100, -1.0f, 1.0f);
    pw_fill_random(B, (size_t)k * n, seed + 200, -1.0f, 1.0f);
    device_gemm(t, m, n, k, A, B, C);
    host_gemm(t, m, n, k, A, B, ref, sabs);
    double ku = (k + 1) * 0x1p-24, tol = 2 * ku / (1 - ku);
    int bad = 0;
    for (size_t i = 0; i < nc && !bad; i++)
        if (!(fabs(C[i] - ref[i]) <= tol * sabs[i])) {
            fprintf(stderr, "%s (%s inputs, %dx%dx%d): first bad element C[%zu][%zu] = %.9g, reference %.9g "
                    "(|error| %.3g > %.3g = 2 gamma_%d x sum|ab|)\n", gg_rung_name(rung_for(t)), gg_type_name(t), m, k,
                    n, i / n, i % n, C[i], ref[i], fabs(C[i] - ref[i]), tol * sabs[i], k + 1);
            bad = 1;
        }
    pw_free(A); pw_free(B); pw_free(C); pw_free(ref); pw_free(sabs);
    return bad;
}

/* ---- the measurement ------------------------------------------------------------------- */

typedef struct {
    double max_rel, median_rel;   /* |C - ref| / sum|ab|, over the elements */
    double normwise;              /* ||C - ref|| / ||ref|| (Frobenius) */
    double median_model, normwise_model;
} errors;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The model's numbers for type t at k (the header's derivation). */
static void model(gg_type t, int k, errors *e)
{
    double u = unit_roundoff(t);
    if (t == GG_F32) {
        e->median_model = 0.674 * 4 * u / sqrt(108.0);
        e->normwise_model = u * sqrt(k / 12.0);
    } else {
        e->median_model = 0.674 * 4 * sqrt(2.0 / 63) * u / sqrt((double)k);
        e->normwise_model = u * sqrt(2.0 / 7);
    }
}

/* C's errors against ref (double, of the fp32 inputs); sabs = sum|ab|. */
static void measure(const float *C, const double *ref, const double *sabs, size_t nc, double *scratch, errors *e)
{
    double num = 0, den = 0;
    e->max_rel = 0;
    for (size_t i = 0; i < nc; i++) {
        double d = fabs(C[i] - ref[i]);
        scratch[i] = sabs[i] > 0 ? d / sabs[i] : 0;
        if (scratch[i] > e->max_rel) e->max_rel = scratch[i];
        num += d * d;
        den += ref[i] * ref[i];
    }
    qsort(scratch, nc, sizeof(double), cmp_double);
    e->median_rel = nc % 2 ? scratch[nc / 2] : 0.5 * (scratch[nc / 2 - 1] + scratch[nc / 2]);
    e->normwise = den > 0 ? sqrt(num / den) : 0;
}

/* ---- range: the overflow and underflow cases ------------------------------------------- */

/* One 16x16x16 tile with A's entries in [lo, hi) and B's in [0.5, 1): all
 * products positive, so each C element's relative error is at most
 * 2u + u^2 + the accumulation (no cancellation). Prints a line per type,
 * writes the quantities of the types that pass, and returns 1 if a finite
 * answer breaks that bound. */
typedef struct {
    int finite[NTYPES], zero[NTYPES];   /* every C element finite; every C element 0 */
    float c00[NTYPES];                  /* C[0][0] for each input type */
    double exact;                       /* C[0][0] in double from the fp32 inputs */
} range_result;

static int range_case(const char *label, const char *param, float lo, float hi, pw_csv *csv, range_result *res)
{
    enum { T = 16 };
    float A[T * T], B[T * T], C[T * T];
    double ref[T * T], sabs[T * T];
    pw_fill_random(A, T * T, seed + 300, lo, hi);
    pw_fill_random(B, T * T, seed + 400, 0.5f, 1.0f);
    host_gemm(GG_F32, T, T, T, A, B, ref, sabs);
    printf("%s: A in [%.3g, %.3g), B in [0.5, 1), k = %d; C[0][0] exact = %.6g\n", label, lo, hi, T, ref[0]);
    res->exact = ref[0];
    int bad = 0;
    for (int ti = 0; ti < NTYPES; ti++) {
        gg_type t = types[ti];
        device_gemm(t, T, T, T, A, B, C);
        int finite = 1, zero = 1;
        double worst = 0;
        for (int i = 0; i < T * T; i++) {
            if (!isfinite(C[i])) finite = 0;
            if (C[i] != 0) zero = 0;
            double r = fabs(C[i] - ref[i]) / ref[i];
            if (r > worst || isnan(r)) worst = r;
        }
        res->finite[ti] = finite;
        res->zero[ti] = zero;
        res->c00[ti] = C[0];
        double u = unit_roundoff(t), bound = 2 * u + u * u + 2 * (T + 1) * 0x1p-24;
        printf("  %s inputs: A[0][0] = %-11.6g -> C[0][0] = %.6g%s\n", gg_type_name(t), as_input(t, A[0]), C[0],
               !finite ? "  not finite: an input overflowed to inf"
               : zero  ? "  all zero: every input flushed to 0"
                       : "");
        if (finite && !zero) {
            printf("  %*s max relative error %.2e (bound %.2e: 2u + u^2 and the fp32 sums)\n", (int)strlen(gg_type_name(t)), "", worst,
                   bound);
            if (!(worst <= bound)) {
                fprintf(stderr, "%s: %s error %.3g above its bound %.3g\n", label, gg_type_name(t), worst, bound);
                bad = 1;
                continue;   /* a wrong result is never a row */
            }
        }
        char p[64];
        snprintf(p, sizeof p, "%s_finite", param);
        pw_csv_quantity(csv, gg_type_name(t), T, 1, p, finite);
        snprintf(p, sizeof p, "%s_nonzero", param);
        pw_csv_quantity(csv, gg_type_name(t), T, 1, p, !zero);
        snprintf(p, sizeof p, "%s_max_rel_err", param);
        pw_csv_quantity(csv, gg_type_name(t), T, 1, p, worst);
    }
    return bad;
}

int main(int argc, char **argv)
{
    long long side = 32;
    static pw_list ks = PW_LIST(16, 64, 256, 1024, 4096);
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_INT, &side, "N", "m = n, the output's side (default 32)", 1, 1024 },
        { "-k", "--inner", PW_OPT_SIZES, &ks, "K[,K...]",
          "inner dimensions to sweep (default 16,64,256,1024,4096); the CSV's n column is k", 1, 1 << 20 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the error of fp16 and bf16 inputs (fp32 accumulate) against fp32, as k grows",
                     opts, 2, &common);
    if (common.tiny) {
        static const long long tiny_ks[] = { 16, 64, 256 };
        int n = 0;
        for (int i = 0; i < ks.n; i++)
            if (ks.v[i] <= 256) ks.v[n++] = ks.v[i];
        if (n == 0)
            for (; n < 3; n++) ks.v[n] = tiny_ks[n];
        ks.n = n;
    }
    int m = (int)side, n = (int)side;
    long long kmax = pw_list_max(&ks);
    /* A and B as fp32, fp16 and bf16 copies on host and device, C, and the
     * double reference and sum|ab|: under 8 arrays of max(m, n) x kmax floats. */
    pw_require_memory(common.prog, "-k", kmax * (m > n ? m : n), sizeof(float), 8);
    pw_cuda_start(common.prog);

    /* Correct first: each type's rung on odd shapes (m x k x n) and on the
     * measured shape at the largest k. */
    const int shapes[][3] = { { 1, 1, 1 }, { 15, 17, 33 }, { 33, 100, 17 }, { m, (int)kmax, n } };
    int bad = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int ti = 0; ti < NTYPES; ti++)
            bad |= check_type(types[ti], shapes[s][0], shapes[s][2], shapes[s][1]);
    if (bad) {
        fprintf(stderr, "%s: a kernel gave a wrong result; nothing was measured\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all kernels match a reference of their rounded inputs within the fp32 accumulation bound "
           "(%s fp32, %s fp16 and bf16; m x k x n = 1x1x1, 15x17x33, 33x100x17, %dx%lldx%d)\n\n",
           gg_rung_name(GG_SMEM), gg_rung_name(GG_WMMA_SHARED), m, kmax, n);

    printf("C = A B, m = n = %d, inputs uniform in [-1, 1), against a double product of the fp32 inputs\n", m);
    printf("%-5s %6s | %10s %10s %10s | %10s %10s | %9s\n", "type", "k", "max err", "median", "(model)", "normwise",
           "(model)", "bound");
    static errors err[MAX_KS][NTYPES];
    size_t nc = (size_t)m * n;
    float *C = pw_alloc_floats(nc);
    double *ref = pw_alloc_doubles(nc), *sabs = pw_alloc_doubles(nc), *scratch = pw_alloc_doubles(nc);
    for (int ki = 0; ki < ks.n; ki++) {
        int k = (int)ks.v[ki];
        float *A = pw_alloc_floats((size_t)m * k), *B = pw_alloc_floats((size_t)k * n);
        pw_fill_random(A, (size_t)m * k, seed, -1.0f, 1.0f);
        pw_fill_random(B, (size_t)k * n, seed + 1, -1.0f, 1.0f);
        host_gemm(GG_F32, m, n, k, A, B, ref, sabs);
        for (int ti = 0; ti < NTYPES; ti++) {
            gg_type t = types[ti];
            errors *e = &err[ki][ti];
            device_gemm(t, m, n, k, A, B, C);
            measure(C, ref, sabs, nc, scratch, e);
            model(t, k, e);
            /* No element may err by more than its two input roundings
             * (2u + u^2; none for fp32 inputs) plus the accumulation
             * (check_type's 2 gamma_(k+1)), relative to sum|ab|. */
            double u = t == GG_F32 ? 0 : unit_roundoff(t);
            double ku = (k + 1) * 0x1p-24, limit = 2 * u + u * u + 2 * ku / (1 - ku);
            printf("%-5s %6d | %10.2e %10.2e %10.2e | %10.2e %10.2e | %9.2e\n", gg_type_name(t), k, e->max_rel,
                   e->median_rel, e->median_model, e->normwise, e->normwise_model, limit);
            if (!(e->max_rel <= limit)) {
                fprintf(stderr, "%s: %s at k = %d: an element errs by %.3g x sum|ab|, above the bound %.3g\n",
                        common.prog, gg_type_name(t), k, e->max_rel, limit);
                bad = 1;
            }
        }
        pw_free(A);
        pw_free(B);
    }
    printf("max err, median: |C - exact| / sum_l |a b| over the elements; normwise: ||C - exact|| / ||exact||.\n"
           "(model): the header's derivation for uniform inputs. bound: the most any element can err, relative to\n"
           "sum|ab|: its inputs' rounding, 2u + u^2 (fp16 u = 2^-11, bf16 2^-8; fp32 inputs are exact), plus the\n"
           "fp32 accumulation's 2(k+1) 2^-24. The run stops with exit 1 if an element passes it.\n\n");

    if (bad) {
        fprintf(stderr, "%s: an error above its bound: the kernels or the conversion are wrong; no rows written\n",
                common.prog);
        pw_free(C); pw_free(ref); pw_free(sabs); pw_free(scratch);
        return PW_EXIT_WRONG;
    }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "m", "%d", m);
    pw_csv_meta(csv, "n", "%d (the rows' n column is k)", n);
    pw_csv_meta(csv, "inputs", "uniform in [-1, 1), seed %#llx", (unsigned long long)seed);
    pw_csv_meta(csv, "rungs", "fp32 %s, fp16 and bf16 %s", gg_rung_name(GG_SMEM), gg_rung_name(GG_WMMA_SHARED));
    /* Rows type by type, so each series is contiguous for the figure. */
    for (int ti = 0; ti < NTYPES; ti++)
        for (int ki = 0; ki < ks.n; ki++) {
            const errors *e = &err[ki][ti];
            const char *name = gg_type_name(types[ti]);
            long long k = ks.v[ki];
            pw_csv_quantity(csv, name, k, 1, "max_err", e->max_rel);
            pw_csv_quantity(csv, name, k, 1, "median_err", e->median_rel);
            pw_csv_quantity(csv, name, k, 1, "median_model", e->median_model);
            pw_csv_quantity(csv, name, k, 1, "normwise_err", e->normwise);
            pw_csv_quantity(csv, name, k, 1, "normwise_model", e->normwise_model);
        }

    /* The answers, from this run. */
    int last = ks.n - 1;
    const errors *f32 = &err[last][0], *f16 = &err[last][1], *b16 = &err[last][2];
    int order = 1;
    for (int ki = 0; ki < ks.n; ki++)
        order &= err[ki][2].normwise > err[ki][1].normwise && err[ki][1].normwise > err[ki][0].normwise;
    if (ks.n > 1) {
        const errors *f16a = &err[0][1], *f32a = &err[0][0];
        printf("answer: fp16's normwise error is %.2e at k = %lld and %.2e at k = %lld: it changed %.2fx (model: 1x,\n"
               "  its input errors grow as sqrt(k) like the answer) and fp32's %.1fx (model: sqrt(%lld/%lld) = %.1fx, the\n"
               "  accumulator's errors grow as k); per element against sum|ab|, fp16's median fell %.1fx (model %.1fx)\n",
               f16a->normwise, ks.v[0], f16->normwise, ks.v[last], f16->normwise / f16a->normwise,
               f32->normwise / f32a->normwise, ks.v[last], ks.v[0], sqrt((double)ks.v[last] / ks.v[0]),
               f16a->median_rel / f16->median_rel, sqrt((double)ks.v[last] / ks.v[0]));
    } else {
        printf("answer: not shown on this run: one k only (-k %lld), so no growth with k to see; fp16's normwise\n"
               "  error there is %.2e\n", ks.v[0], f16->normwise);
    }
    printf("answer: bf16's error is %.1fx fp16's at k = %lld (normwise), as 2^-8 / 2^-11 = 8 predicts; bf16 > fp16 > fp32\n"
           "  at %s k\n", b16->normwise / f16->normwise, ks.v[last], order ? "every" : "NOT every");
    printf("answer: the worst bf16 element erred by %.2e x sum|ab| at k = %lld: %.0fx inside the bound 2^-7 (random-sign\n"
           "  rounding errors cancel; the bound assumes they never do)\n\n",
           b16->max_rel, ks.v[last], 0x1p-7 / b16->max_rel);

    /* Why bf16: range, shown on the Tensor Core rung itself. */
    printf("range: fp16 has 5 exponent bits (largest 65504, smallest subnormal 2^-24 = 6.0e-8), bf16 has fp32's 8\n"
           "(largest 3.4e38), paid for with 3 fewer significand bits (u = 2^-8 against 2^-11)\n");
    range_result over, under;
    bad |= range_case("overflow", "overflow", 7e4f, 7.5e4f, csv, &over);
    bad |= range_case("underflow", "underflow", 1e-8f, 1.2e-8f, csv, &under);
    /* types[]: 0 fp32, 1 fp16, 2 bf16. What each 16-bit type returned, read from the runs above. */
    const range_result *rr[2] = { &over, &under };
    char said[2][2][64];
    for (int c = 0; c < 2; c++)
        for (int t = 1; t < 3; t++) {
            if (!rr[c]->finite[t]) snprintf(said[c][t - 1], sizeof said[c][t - 1], "inf (not finite)");
            else if (rr[c]->zero[t]) snprintf(said[c][t - 1], sizeof said[c][t - 1], "all zeros");
            else snprintf(said[c][t - 1], sizeof said[c][t - 1], "%.6g for C[0][0]", rr[c]->c00[t]);
        }
    printf("\nanswer: inputs of 7e4 give %s in fp16 and %s in bf16 (exact %.6g); inputs of 1e-8 give\n"
           "  %s in fp16 and %s in bf16 (exact %.6g)\n", said[0][0], said[0][1], over.exact, said[1][0],
           said[1][1], under.exact);

    pw_free(C); pw_free(ref); pw_free(sabs); pw_free(scratch);
    int io = pw_csv_close(csv);
    return bad ? PW_EXIT_WRONG : io ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
