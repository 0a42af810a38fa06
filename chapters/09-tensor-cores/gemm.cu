/* chapters/09-tensor-cores/gemm.cu: the GPU GEMM ladder, from a thread per
 * element to Tensor Cores, counted on the emulator and timed on a GPU.
 *
 * Rungs (kernels/gemm_gpu.cu): 1 naive, 2 coalesced, 3 shared-memory tiles,
 * 4 1D and 5 2D register tiles, 6 float4 loads, 7 warp tiles (fp32 FMAs);
 * 8 WMMA from global memory, 9 WMMA staged in shared memory (fp16 and bf16
 * inputs, fp32 accumulation); 0 cuBLAS on a GPU.
 *
 * Every rung and input type is first checked against a double-precision
 * reference at m x k x n = 1, 15, 17, 33, 100 (cubes), 33 x 100 x 17 and the
 * run's sizes. Then:
 *   emulator  counts of each rung at n (default 256): global sectors, shared
 *             wavefronts and bank conflicts, barriers, mma_ops, warp
 *             instructions; the counts scaled to --model-n (4096) and the time
 *             common/gpu_model.h predicts from them for an H100 and an H200
 *   GPU       each rung timed with CUDA events (L2 flushed before each run),
 *             TFLOP/s and % of cuBLAS, beside the model's time for the device
 *             when --model-csv gives the emulator's counts
 *
 *   ./build/ch09/gemm                       counts at 256, the model at 4096
 *   ./build/ch09/gemm -n 128 --rung 5,9     two rungs, smaller
 *   ./build/ch09/gemm --model-n 4096,8192 --csv results/09-tensor-cores/gemm.csv
 *   ./build/gpu/ch09/gemm --sizes 4096,8192 --model-csv results/09-tensor-cores/gemm.csv
 *                                           (the GPU run, with the model's time for the
 *                                           sizes the emulator's CSV has model rows for)
 */
#include "simt_driver.h"

#include <time.h>
#include "gemm_gpu.cuh"

#include <errno.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" {
#include "gpu_model.h"
#include "gpu_published.h"
#include "gpu_regs.h"
#include "roofline.h"
}

/* The variants, in ladder order: each rung with each input type it takes. */
typedef struct {
    gg_rung r;
    gg_type t;
    char label[32];   /* "5_reg2d", "9_wmma_shared_bf16": the CSV's variant */
} variant;

static int list_variants(variant *v, const bool *want)
{
    static const gg_type types[] = { GG_F32, GG_F16, GG_BF16 };
    int nv = 0;
    for (int r = PW_SIMT_EMULATED ? 1 : 0; r < GG_NRUNGS; r++)
        for (int i = 0; i < 3; i++)
            if (want[r] && gg_rung_takes((gg_rung)r, types[i])) {
                v[nv].r = (gg_rung)r;
                v[nv].t = types[i];
                if (types[i] == GG_F32) snprintf(v[nv].label, sizeof v[nv].label, "%s", gg_rung_name((gg_rung)r));
                else snprintf(v[nv].label, sizeof v[nv].label, "%s_%s", gg_rung_name((gg_rung)r), gg_type_name(types[i]));
                nv++;
            }
    return nv;
}

/* What the kernel sees of x: x rounded to the input type exactly as the
 * device rounds it (to nearest even, in gg_convert). */
static float round_to(gg_type t, float x)
{
    if (t == GG_F16) return __half2float(__float2half_rn(x));
    if (t == GG_BF16) return __bfloat162float(__float2bfloat16_rn(x));
    return x;
}

static int round_up(int x, int to) { return (x + to - 1) / to * to; }

#if PW_SIMT_EMULATED
/* The index of the last largest size of a list (the one the roofline uses). */
static int last_max(const pw_list *l)
{
    int at = 0;
    for (int i = 0; i < l->n; i++)
        if (l->v[i] >= l->v[at]) at = i;
    return at;
}
#endif

/* Device buffers, big enough for the largest size (padded to 16). */
typedef struct {
    float *src_a, *src_b;   /* fp32 A and B as the host made them */
    void *a, *b;            /* in the rung's input type, padded for rung 8 */
    float *c;
    float *h_c;             /* the result on the host */
    float *h_a, *h_b;       /* random inputs, the first m*k and k*n used */
    float *r_a, *r_b;       /* ... rounded to the input type */
    double *ref, *mag;      /* a row of the reference and of sum |a b| */
} buffers;

/* The tolerance of one element of C. Products of two fp16 (11-bit) or bf16
 * (8-bit significand) inputs are exact in fp32 (24 bits), an fp32 product is
 * rounded once (FMA: rounded with its addition); each of the k additions of
 * the fp32 accumulator rounds by at most one unit of 2^-24 relative to the
 * running sum, whose size is at most sum_p |a_ip b_pj|. So
 *     |C_ij - ref_ij| <= k * 2^-24 * sum_p |a_ip b_pj|   (to first order).
 * Tensor Cores truncate instead of rounding in their adders: one unit is
 * 2^-23. We allow (k + 2) * 2^-23 * sum |a b| for every rung: a factor 2 over
 * the SIMT bound, exactly the Tensor Core bound, and 2 more units for the
 * second-order terms and the rounding of a tree of partial sums (WMMA adds
 * the 16 products of a step in a tree before the accumulator). A rung whose
 * sum is off by one term is off by about |a b| ~ sum/k: k times past this. */
static double tolerance(int k, double mag) { return (k + 2) * ldexp(1.0, -23) * mag; }

/* Run variant v at m x k x n and compare with the reference: every element,
 * or (sample) 4096 elements spread over C when the full reference would take
 * the host too long. The launch is the one the caller's counters read. */
static int run_checked(const variant *v, int m, int n, int k, buffers *b, bool sample, const char *prog)
{
    /* Rung 8 needs multiples of 16: the driver pads with zeros (which add
     * nothing to C) and compares the m x n corner. */
    bool pad = v->r == GG_WMMA_GLOBAL;
    int M = pad ? round_up(m, 16) : m, N = pad ? round_up(n, 16) : n, K = pad ? round_up(k, 16) : k;
    CUDA_CHECK(cudaMemcpy(b->src_a, b->h_a, (size_t)m * k * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b->src_b, b->h_b, (size_t)k * n * sizeof(float), cudaMemcpyHostToDevice));
    gg_convert(v->t, b->src_a, m, k, b->a, M, K);
    gg_convert(v->t, b->src_b, k, n, b->b, K, N);
    CUDA_CHECK(cudaMemset(b->c, 0xFF, (size_t)M * N * sizeof(float)));   /* NaN: an element never written fails */
    pw_cuda_sync_check();
    cudaError_t e = gg_launch(v->r, v->t, M, N, K, b->a, b->b, b->c);
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s at m=%d n=%d k=%d: %s\n", prog, v->label, M, N, K, cudaGetErrorString(e));
        return 1;
    }
    pw_cuda_sync_check();
    CUDA_CHECK(cudaMemcpy(b->h_c, b->c, (size_t)M * N * sizeof(float), cudaMemcpyDeviceToHost));

    for (size_t i = 0; i < (size_t)m * k; i++) b->r_a[i] = round_to(v->t, b->h_a[i]);
    for (size_t i = 0; i < (size_t)k * n; i++) b->r_b[i] = round_to(v->t, b->h_b[i]);
    int samples = sample ? 4096 : m;
    for (int s = 0; s < samples; s++) {
        int i = sample ? (int)(((long long)s * 7919) % m) : s;
        int j0 = sample ? (int)(((long long)s * 104729) % n) : 0, j1 = sample ? j0 + 1 : n;
        for (int j = j0; j < j1; j++) b->ref[j] = b->mag[j] = 0;
        for (int p = 0; p < k; p++) {
            double a = b->r_a[(size_t)i * k + p];
            const float *brow = &b->r_b[(size_t)p * n];
            for (int j = j0; j < j1; j++) {
                b->ref[j] += a * brow[j];
                b->mag[j] += fabs(a * brow[j]);
            }
        }
        for (int j = j0; j < j1; j++) {
            double got = b->h_c[(size_t)i * N + j];
            if (!(fabs(got - b->ref[j]) <= tolerance(k, b->mag[j]))) {   /* NaN fails too */
                fprintf(stderr, "%s: %s wrong at m=%d n=%d k=%d; first bad index %zu (row %d, column %d): got %.9g, "
                        "want %.9g (tolerance %.3g)\n", prog, v->label, m, n, k, (size_t)i * n + j, i, j, got,
                        b->ref[j], tolerance(k, b->mag[j]));
                return 1;
            }
        }
    }
    return 0;
}

/* ---- the emulator's counts and the model ---------------------------------------------- */
typedef struct {
    double gld, gst;          /* global load / store sectors */
    double sreq, swf, sideal; /* shared requests, wavefronts, conflict-free wavefronts */
    double barriers, mma, instr;
    double lines;             /* 128-byte lines of global requests (L1 wavefronts) */
    double l2ld;              /* load sectors new to their block (what L2 serves) */
    double rounds;            /* dependent rounds of global loads, summed over warps */
    double warps, blocks;     /* of the launch */
} counts;

/* The counts as fields, for the loops that treat them alike. */
enum { NCOUNTS = 13 };
static const char *const count_names[NCOUNTS] = { "global_load_sectors", "global_store_sectors", "shared_requests",
                                                  "shared_wavefronts", "shared_ideal_wavefronts", "barriers",
                                                  "mma_ops", "warp_instructions", "global_lines", "load_rounds",
                                                  "warps", "blocks", "global_load_l2_sectors" };
static double *count_field(counts *c, int q)
{
    double *f[NCOUNTS] = { &c->gld, &c->gst, &c->sreq, &c->swf, &c->sideal, &c->barriers, &c->mma, &c->instr,
                           &c->lines, &c->rounds, &c->warps, &c->blocks, &c->l2ld };
    return f[q];
}

/* What the model needs of a launch besides its counts: the block, its
 * shared memory (static, as the emulator saw it, + dynamic) and the kernel's
 * name (for ptxas's register count). The same at every size. */
typedef struct {
    int threads, smem;
    char kernel[128];
} launch_info;

enum { DK = 32 };   /* the emulator's second run's extra k: a multiple of every rung's k step */

#if PW_SIMT_EMULATED
/* The counts at n x n x n from two runs, at k = n (c1) and k = n + dk (c2).
 * Not (N/n)^3 times c1: the k loop costs grow as m n k, but what a block
 * does once (storing its tile of C, rung 9's trip through shared memory and
 * its barrier) grows as m n only. When every tile divides m, n and k, each
 * count is exactly m n (alpha k + beta): two values of k give alpha and
 * beta, and the count at N is N^2 (alpha N + beta). (Exact for n, N and dk
 * multiples of 128, 128 and 32: the widest tile, 128, and the deepest k
 * step, 32; tests/ch09_gemm.sh checks it against a run at N.) */
static counts scale_counts(const counts *c1, const counts *c2, double n, double dk, double N)
{
    counts out, a = *c1, b = *c2;
    for (int q = 0; q < NCOUNTS; q++) {
        double f1 = *count_field(&a, q), f2 = *count_field(&b, q);
        double alpha = (f2 - f1) / (n * n * dk), beta = f1 / (n * n) - alpha * n;
        *count_field(&out, q) = N * N * (alpha * N + beta);
    }
    return out;
}

/* Tensor flops: each mma_sync is a 16x16x16 product, 8192 flops. The
 * kernels run them over zero-padded tiles: rung 8 over M, N, K rounded up
 * to 16 (the driver pads), rung 9 over whole 64 x 64 x 32 block tiles. At
 * multiples of 64 both are 2mnk exactly. */
static double tensor_flops_expected(const variant *v, int m, int n, int k)
{
    int tm = v->r == GG_WMMA_SHARED ? 64 : 16, tn = tm, tk = v->r == GG_WMMA_SHARED ? 32 : 16;
    return 2.0 * round_up(m, tm) * (double)round_up(n, tn) * round_up(k, tk);
}

static counts read_counts(void)
{
    const pw_simt_counters *c = pw_simt_last_counters();
    counts k;
    k.gld = (double)c->global_load_sectors;
    k.gst = (double)c->global_store_sectors;
    k.sreq = (double)c->shared_requests;
    k.swf = (double)c->shared_wavefronts;
    k.sideal = (double)c->shared_ideal_wavefronts;
    k.barriers = (double)c->barriers;
    k.mma = (double)c->mma_ops;
    /* the warp instructions the model issues: memory requests, collectives, mma_sync */
    k.instr = (double)(c->global_load_requests + c->global_store_requests + c->shared_requests + c->collectives +
                       c->mma_ops);
    k.lines = (double)(c->global_load_lines + c->global_store_lines);
    k.l2ld = (double)c->global_load_l2_sectors;
    k.rounds = (double)c->load_rounds;
    k.warps = (double)c->warps;
    k.blocks = (double)c->blocks;
    return k;
}

static launch_info read_launch(void)
{
    const pw_simt_counters *c = pw_simt_last_counters();
    launch_info l;
    l.threads = (int)c->threads_per_block;
    l.smem = (int)(c->shared_static_bytes + c->shared_dynamic_bytes);
    snprintf(l.kernel, sizeof l.kernel, "%s", pw_simt_last_kernel());
    return l;
}
#endif

/* The model's input: the counts (scaled to n), the launch, and the
 * registers ptxas gives the kernel on g's architecture (*regs_note: where
 * they came from, when not NULL). */
static pw_gpu_work work_of(const variant *v, const counts *c, double n, const launch_info *li, const pw_gpu *g,
                           char *regs_note, size_t note_len)
{
    pw_gpu_work w;
    memset(&w, 0, sizeof w);
    w.flops = 2 * n * n * n;
    w.tensor = gg_rung_tensor(v->r);
    w.warp_instructions = c->instr;
    w.global_sectors = c->gld + c->gst;
    w.global_lines = c->lines;
    w.l2_sectors = c->l2ld + c->gst;
    w.global_load_bytes = 32 * c->l2ld;
    w.shared_wavefronts = c->swf;
    w.dram_bytes = 2 * n * n * (double)gg_type_size(v->t) + 4 * n * n;   /* A and B read once, C written once */
    w.blocks = c->blocks;
    w.rounds = c->warps > 0 ? c->rounds / c->warps : 0;
    w.barriers = c->barriers;
    if (li && li->threads > 0) pw_gpu_launch_of(g->arch, li->kernel, li->threads, li->smem, &w.launch, regs_note, note_len);
    return w;
}

/* The GPU roofs the model assumes, for common/roofline.h (GFLOP/s, GB/s). */
static pw_roofs roofs_of(const pw_gpu *g, int tensor)
{
    pw_roofs r;
    r.threads = 1;
    r.peak_gflops = pw_gpu_peak_tflops(g, tensor) * 1e3;
    r.dram_gbs = g->dram_gbs;
    r.l2_gbs = g->l2_gbs;
    r.l1_gbs = g->l1_bytes_per_clk * g->sms * g->clock_ghz;
    return r;
}

static void csv_roofs(pw_csv *csv, const pw_gpu *g, const char *tag)
{
    pw_roofs f = roofs_of(g, 0), t = roofs_of(g, 1);
    pw_roofline_csv_roofs(csv, &f);   /* the fp32 roofs, as every chapter writes them */
    pw_csv_quantity(csv, "roof_tensor", 0, 1, tag, t.peak_gflops);
    pw_csv_quantity(csv, "roof_fp32", 0, 1, tag, f.peak_gflops);
    pw_csv_quantity(csv, "roof_hbm", 0, 1, tag, f.dram_gbs);
    pw_csv_quantity(csv, "roof_l2_model", 0, 1, tag, f.l2_gbs);
    pw_csv_quantity(csv, "roof_shared", 0, 1, tag, f.l1_gbs);
}

/* The CSV's tag of a device: "h100" and "h200" for the two SXM parts (the
 * names the plots read), else its file's stem with '_' for '-'. */
static void device_tag(const pw_gpu *g, char *tag, size_t len)
{
    if (!strcmp(g->key, "h100-sxm") || !strcmp(g->key, "h200-sxm")) snprintf(tag, len, "%.4s", g->key);
    else {
        snprintf(tag, len, "%s", g->key);
        for (char *p = tag; *p; p++)
            if (*p == '-' || *p == '.') *p = '_';
    }
}

/* The devices of this run: --device (the tables'), and the H100 and H200
 * SXM the chapter compares (the answers' and the plots'); the RTX A6000 of
 * the published ladder. */
static pw_gpu dev, h100, h200;

#if PW_SIMT_EMULATED
static const pw_gpu *model_devices[3];
static int n_model_devices;
/* Each variant's launch, as the emulator saw it. */
static launch_info launches[32];

/* A modelled "timing": every statistic the modelled time. */
static pw_bench_stats modelled_stats(double t)
{
    pw_bench_stats st;
    memset(&st, 0, sizeof st);
    st.reps = 1;
    st.inner = 1;
    st.cold = st.median = st.min = st.max = st.mean = st.q1 = st.q3 = t;
    return st;
}

static bool all_multiples(const pw_list *l, int of)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i] % of) return false;
    return true;
}

/* The model's rows of variant i at size N (counts already scaled to N), on
 * every device of the run: each term of the time, TFLOP/s, % of the peak,
 * the occupancy and the waves. tm[d]: the time on model_devices[d]. */
static void csv_model_times(pw_csv *csv, const variant *v, int i, const counts *at, int N, pw_gpu_time *tm)
{
    double flops = 2.0 * N * (double)N * N;
    for (int d = 0; d < n_model_devices; d++) {
        const pw_gpu *g = model_devices[d];
        pw_gpu_work w = work_of(v, at, N, &launches[i], g, NULL, 0);
        tm[d] = pw_gpu_model(g, &w);
        char tag[64], p[96];
        device_tag(g, tag, sizeof tag);
        double tf = flops / tm[d].t_s * 1e-12, pk = pw_gpu_peak_tflops(g, gg_rung_tensor(v->r));
        const char *terms[] = { "t_s", "t_fp", "t_issue", "t_l1", "t_latency", "t_l2", "t_dram", "t_throughput",
                                "waves", "blocks_per_sm", "regs" };
        double tv[] = { tm[d].t_s, tm[d].t_fp, tm[d].t_issue, tm[d].t_l1, tm[d].t_latency, tm[d].t_l2, tm[d].t_dram,
                        tm[d].t_throughput, tm[d].waves, (double)tm[d].occ.blocks_per_sm,
                        (double)w.launch.regs_per_thread };
        for (int q = 0; q < 11; q++) {
            snprintf(p, sizeof p, "model_%s_%s", tag, terms[q]);
            pw_csv_quantity(csv, v->label, N, 1, p, tv[q]);
        }
        snprintf(p, sizeof p, "model_%s_tflops", tag);
        pw_csv_quantity(csv, v->label, N, 1, p, tf);
        snprintf(p, sizeof p, "model_%s_pct_peak", tag);
        pw_csv_quantity(csv, v->label, N, 1, p, 100 * tf / pk);
    }
}

/* The counts scaled to N, as model_* rows (threads = the n they came from). */
static void csv_model_counts(pw_csv *csv, const variant *v, const counts *at, int N, int n, const launch_info *li)
{
    counts c = *at;
    for (int q = 0; q < NCOUNTS; q++) {
        char p[48];
        snprintf(p, sizeof p, "model_%s", count_names[q]);
        pw_csv_quantity(csv, v->label, N, n, p, *count_field(&c, q));
    }
    pw_csv_quantity(csv, v->label, N, n, "model_launch_threads", li->threads);   /* the same at every size */
    pw_csv_quantity(csv, v->label, N, n, "model_launch_smem", li->smem);
}

/* CUDA's occupancy calculation on each rung's launch, on --device, at N. */
static void report_occupancy(const variant *vs, int nv, const counts *at, int N)
{
    printf("\n== occupancy on the %s (%s): CUDA's calculation for each rung's launch at n = %d\n", dev.name, dev.arch, N);
    printf("%-19s %7s %5s %7s | %5s %6s %5s %6s | %6s %-13s %5s %6s %5s\n", "variant", "threads", "regs", "smem B",
           "warps", "blocks", "regs", "shared", "blk/SM", "limit", "occ", "waves", "tail");
    int estimated = 0, committed = 0;
    char any_note[160] = "";
    for (int i = 0; i < nv; i++) {
        char note[160];
        pw_gpu_work w = work_of(&vs[i], &at[i], N, &launches[i], &dev, note, sizeof note);
        pw_gpu_time t = pw_gpu_model(&dev, &w);
        const pw_gpu_occ *o = &t.occ;
        const char *mark = w.launch.regs_estimated ? "~" : "";
        if (w.launch.regs_estimated) estimated = 1;
        else if (!any_note[0]) snprintf(any_note, sizeof any_note, "%s", note);
        (void)committed;
        char byr[16];
        if (o->by_regs > 999) snprintf(byr, sizeof byr, "-");
        else snprintf(byr, sizeof byr, "%d", o->by_regs);
        printf("%-19s %7d %4d%1s %7d | %5d %6d %5s %6d | %6d %-13s %4.0f%% %6.0f %4.0f%%\n", vs[i].label,
               w.launch.threads_per_block, w.launch.regs_per_thread, mark, w.launch.smem_per_block, o->by_warps,
               o->by_blocks, byr, o->by_smem, o->blocks_per_sm, o->limit, 100 * o->occupancy, t.waves, 100 * t.tail);
    }
    printf("warps, blocks, regs, shared: the blocks an SM holds by each limit (%d warps, %d blocks, %d registers\n"
           "in units of %d a warp, %d KiB of shared memory with %d bytes kept per block); blk/SM: the least of them;\n"
           "occ: resident warps / %d; waves: the grid's blocks / (blk/SM x %d SMs), rounded up; tail: how full the\n"
           "last wave is. regs: %s%s\n", dev.max_warps_per_sm, dev.max_blocks_per_sm, dev.regs_per_sm,
           dev.reg_alloc_unit, dev.smem_per_sm / 1024, dev.smem_reserved_per_block, dev.max_warps_per_sm, dev.sms,
           any_note[0] ? any_note : "estimates only",
           estimated ? "; ~: an estimate (the kernel is in no ptxas table)" : "");
}

/* The counts at n, the model at the first of model_ns (the table; the
 * other sizes as CSV rows only), the answers. at: the counts at model_ns[0]
 * (filled here). */
static void report_counts(const variant *vs, int nv, const counts *cs, const counts *cs2, int n,
                          const pw_list *model_ns, bool roof, pw_csv *csv, counts *at)
{
    int model_n = (int)model_ns->v[0];
    double dn = n, flops = 2 * dn * dn * dn;
    pw_gpu_time tm[32][3];

    printf("\n== counts at m = n = k = %d (per 1000 flops; flops = 2n^3 = %.3g)\n", n, flops);
    printf("%-19s %9s %9s %8s %9s %8s %9s %9s %8s %7s %9s\n", "variant", "gld sect", "gst sect", "g lines", "sh wavef",
           "conflict", "barriers", "instr", "mma_ops", "rnd/wp", "tc flops");
    for (int i = 0; i < nv; i++) {
        const counts *c = &cs[i];
        const char *v = vs[i].label;
        char tc[24] = "-";
        if (gg_rung_tensor(vs[i].r))   /* checked in main before anything was printed */
            snprintf(tc, sizeof tc, "%s", 8192 * c->mma == 2.0 * n * n * n ? "= 2mnk" : "= 2MNK pad");
        printf("%-19s %9.3f %9.3f %8.3f %9.3f %7.1f%% %9.0f %9.2f %8.0f %7.1f %9s\n", v, 1e3 * c->gld / flops,
               1e3 * c->gst / flops, 1e3 * c->lines / flops, 1e3 * c->swf / flops,
               c->swf > 0 ? 100 * (c->swf - c->sideal) / c->swf : 0, c->barriers, 1e3 * c->instr / flops, c->mma,
               c->warps > 0 ? c->rounds / c->warps : 0, tc);
        counts cc = *c;
        for (int q = 0; q < NCOUNTS; q++) pw_csv_quantity(csv, v, n, 1, count_names[q], *count_field(&cc, q));
        pw_csv_quantity(csv, v, n, 1, "launch_threads", launches[i].threads);
        pw_csv_quantity(csv, v, n, 1, "launch_smem", launches[i].smem);
        for (int s = 0; s < model_ns->n; s++) {
            int N = (int)model_ns->v[s];
            counts a = scale_counts(c, &cs2[i], n, DK, N);
            csv_model_counts(csv, &vs[i], &a, N, n, &launches[i]);
            if (s == 0) at[i] = a;
            else {
                pw_gpu_time unused[3];
                csv_model_times(csv, &vs[i], i, &a, N, unused);
            }
        }
        pw_csv_quantity(csv, v, n, 1, "global_bytes_per_flop", 32 * (c->gld + c->gst) / flops);
        pw_csv_quantity(csv, v, n, 1, "shared_wavefronts_per_flop", c->swf / flops);
        pw_csv_quantity(csv, v, n, 1, "conflict_wavefronts", c->swf - c->sideal);
        pw_csv_quantity(csv, v, n, 1, "tensor_flops", 8192 * c->mma);
    }
    printf("gld/gst sect: 32-byte sectors of global loads/stores; g lines: the 128-byte lines those requests touch\n"
           "(L1 wavefronts: 32 for a warp whose lanes hit 32 rows); sh wavef: shared-memory wavefronts (128-byte\n"
           "passes); conflict: share of them that bank conflicts added; barriers: __syncthreads passed, summed over\n"
           "blocks (not per 1000 flops); instr: warp-level memory instructions and mma_syncs (the FFMAs come on top:\n"
           "1000/64 = 15.6 per 1000 flops on the SIMT rungs); rnd/wp: rounds of global loads per warp (a loop pass,\n"
           "or the loads before a barrier); tc flops: 8192 x mma_ops against 2mnk (2MNK pad: of the zero-padded\n"
           "sizes the tiles cover, M = N a multiple of 64 and K of 32 for rung 9, of 16 for rung 8).\n");

    printf("\n== the model on the %s at n = %d: each count is m n (alpha k + beta) (the k loop, and what a block does\n"
           "   once), alpha and beta from runs at k = %d and %d; %s;\n"
           "   common/gpu_model.h: throughput terms wave by wave, occupancy, Little's law)\n",
           dev.name, model_n, n, n + DK,
           n % 128 == 0 && all_multiples(model_ns, 128)
               ? "exact: every tile (at most 128 wide) divides both sizes"
               : "NOT exact: a tile (up to 128 wide) overhangs n, and the\n   scaled counts overstate those rungs; use -n and --model-n multiples of 128");
    printf("%-19s %8s %9s %9s %7s %7s %-8s %-15s %6s %8s\n", "variant", "gB/flop", "ms", "v1 ms", "TFLOP/s", "% peak",
           "bound", "next (x slower)", "blk/SM", "x prev");
    double mflops = 2.0 * model_n * (double)model_n * model_n;
    for (int i = 0; i < nv; i++) {
        const char *v = vs[i].label;
        csv_model_times(csv, &vs[i], i, &at[i], model_n, tm[i]);
        const pw_gpu_time *t = &tm[i][0];
        /* x prev: over the row above of the same input type (rung 8's first row: over rung 7) */
        int prev = -1;
        for (int j = i - 1; j >= 0 && prev < 0; j--)
            if (vs[j].t == vs[i].t) prev = j;
        if (prev < 0 && i > 0) {
            for (int j = i - 1; j >= 0 && prev < 0; j--)
                if (vs[j].r == GG_WARPTILE) prev = j;
        }
        double tf = mflops / t->t_s * 1e-12;
        double pk = pw_gpu_peak_tflops(&dev, gg_rung_tensor(vs[i].r));
        char xp[16] = "-", nx[32];
        if (prev >= 0) snprintf(xp, sizeof xp, "%.2fx", tm[prev][0].t_s / t->t_s);
        snprintf(nx, sizeof nx, "%s %.2fx", t->next, t->next_s > 0 ? t->t_s / t->next_s : 0);
        printf("%-19s %8.4f %9.3f %9.3f %7.1f %6.1f%% %-8s %-15s %6d %8s\n", v, 32 * (at[i].gld + at[i].gst) / mflops,
               1e3 * t->t_s, 1e3 * t->t_throughput, tf, 100 * tf / pk, t->bound, nx, t->occ.blocks_per_sm, xp);
        /* the roofline point (once, from the largest n counted): the model's time, the counted global bytes */
        pw_bench_stats st = modelled_stats(t->t_s);
        if (roof) pw_roofline_csv_point(csv, v, model_n, 1, &st, mflops, 32 * (at[i].gld + at[i].gst));
    }
    printf("gB/flop: global bytes (sectors x 32) per flop at %d; ms: the model (modelled, not measured); v1 ms: its\n"
           "throughput terms alone (fp, issue, L1, L2, DRAM over the whole GPU: no occupancy, latency or waves);\n"
           "%% peak: of the fp32 peak %.1f TFLOP/s for SIMT rungs, of the dense Tensor Core peak %.0f for WMMA;\n"
           "bound: the largest term (fp32/tensor, issue, l1, latency, l2, dram), next: the runner-up and how much\n"
           "shorter it is; blk/SM: resident blocks (below); x prev: the time over the row above of the same input\n"
           "type (rung 8 over rung 7).\n", model_n, pw_gpu_peak_tflops(&dev, 0), pw_gpu_peak_tflops(&dev, 1));
    report_occupancy(vs, nv, at, model_n);

    /* ---- the answers, from this run's numbers ---- */
    printf("\n== what this run says\n");
    /* Rungs 1 and 2 issue the same loads in another order: the sectors and the model's time, side by side. */
    int naive = -1, coal = -1;
    for (int i = 0; i < nv; i++) {
        if (vs[i].r == GG_NAIVE) naive = i;
        if (vs[i].r == GG_COALESCED) coal = i;
    }
    if (naive >= 0 && coal >= 0)
        printf("answer: %s moves %.1fx fewer global sectors than %s, and the %s model runs it %.2fx faster (%s-bound\n"
               "  against %s-bound)\n", vs[coal].label, (at[naive].gld + at[naive].gst) / (at[coal].gld + at[coal].gst),
               vs[naive].label, dev.name, tm[naive][0].t_s / tm[coal][0].t_s, tm[coal][0].bound, tm[naive][0].bound);
    else
        printf("answer: not shown on this run: rungs 1 and 2 were not both run (--rung)\n");
    int best_cut = -1, best_from = -1;
    double cut = 1;
    for (int i = 1; i < nv; i++) {   /* each rung against the row above of its input type, at model_n */
        int prev = -1;
        for (int j = i - 1; j >= 0 && prev < 0; j--)
            if (vs[j].t == vs[i].t) prev = j;
        double a = prev < 0 ? 0 : at[prev].gld + at[prev].gst, b2 = at[i].gld + at[i].gst;
        if (prev >= 0 && b2 > 0 && a / b2 > cut) { cut = a / b2; best_cut = i; best_from = prev; }
    }
    if (best_cut > 0)
        printf("answer: the biggest cut in global bytes per flop: %s -> %s, %.1fx (%.4f -> %.4f bytes per flop at %d)\n",
               vs[best_from].label, vs[best_cut].label, cut, 32 * (at[best_from].gld + at[best_from].gst) / mflops,
               32 * (at[best_cut].gld + at[best_cut].gst) / mflops, model_n);
    else
        printf("answer: not shown on this run: no rung cut the global bytes per flop of the rung before it\n");
    int any = 0;
    for (int i = 0; i < nv; i++)
        if (cs[i].swf > cs[i].sideal) {
            if (!any) printf("- bank conflicts (wavefronts beyond the conflict-free count):");
            printf("%s %s %.0f%% of its wavefronts", any ? "," : "", vs[i].label, 100 * (cs[i].swf - cs[i].sideal) / cs[i].swf);
            any = 1;
        }
    printf(any ? "\n" : "- no rung had a bank conflict\n");
    for (int tensor = 0; tensor < 2; tensor++) {
        int best = -1;
        for (int i = 0; i < nv; i++)
            if (gg_rung_tensor(vs[i].r) == tensor && (best < 0 || tm[i][0].t_s < tm[best][0].t_s)) best = i;
        if (best < 0) continue;
        const pw_gpu_time *t = &tm[best][0];
        printf("answer: the fastest %s rung on the %s model: %s, %.3f ms, bound by %s (%.0f%% of the %s peak; the next "
               "term: %s at %.3f ms)", tensor ? "WMMA" : "SIMT", dev.name, vs[best].label, 1e3 * t->t_s, t->bound,
               100 * mflops / (pw_gpu_peak_tflops(&dev, tensor) * 1e12) / t->t_s, tensor ? "Tensor Core" : "fp32",
               t->next, 1e3 * t->next_s);
        for (int i = 0; i < nv; i++)
            if (i != best && gg_rung_tensor(vs[i].r) == tensor && vs[i].t == vs[best].t &&
                tm[i][0].t_s <= 1.005 * t->t_s)
                printf("; %s ties with it", vs[i].label);
        printf("\n");
    }
    /* The H100 and the H200 SXM: model_devices[1] and [2] (or [0] when --device is one of them). */
    int i100 = -1, i200 = -1;
    for (int d = 0; d < n_model_devices; d++) {
        if (!strcmp(model_devices[d]->key, "h100-sxm")) i100 = d;
        if (!strcmp(model_devices[d]->key, "h200-sxm")) i200 = d;
    }
    int faster = 0;
    double most = 1;
    for (int i = 0; i < nv; i++) {
        double x = tm[i][i100].t_s / tm[i][i200].t_s;
        if (x > 1.005) faster++;
        if (x > most) most = x;
    }
    printf("answer: the H200 over the H100: %d of %d rungs faster (at most %.2fx); the H200 differs in its HBM (%.2f against\n"
           "  %.2f TB/s), so only a DRAM-bound rung gains, and %s\n", faster, nv, most, h200.dram_gbs / 1e3,
           h100.dram_gbs / 1e3, faster ? "these are the ones the model calls DRAM-bound" : "none of these is DRAM-bound at this size");
}
#endif

#if PW_SIMT_EMULATED
/* ---- the model against published measurements ---------------------------------------------- */
/* The published ladder's rungs beside the model (version 1 and 2) of the
 * same rungs, counted at n and scaled to the published size: the table, the
 * targets as benchmark lines, and the CSV `device,rung,...,ratio`. */
static void report_published(const variant *vs, int nv, const counts *cs, const counts *cs2, int n, const char *out)
{
    pw_published_row rows[64];
    char path[600];
    int nr = pw_published_read("gemm-ladders.csv", rows, 64, path, sizeof path);
    if (nr < 0) {
        printf("\n(no published ladder: %s cannot be read)\n", path);
        return;
    }
    FILE *csv = NULL;
    char tmp_path[1024];
    if (out) {
        snprintf(tmp_path, sizeof tmp_path, "%s.tmp", out);
        csv = fopen(tmp_path, "w");
        if (!csv) fprintf(stderr, "gemm: cannot write %s\n", tmp_path);
        else {   /* the header block every CSV has (the gallery's machine line reads it) */
            time_t now = time(NULL);
            char date[32];
            strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
            fprintf(csv, "# program: gemm (the published comparison)\n# date: %s\n# cpu: %s (the model runs "
                         "anywhere: nothing here is measured on it)\n# git: %s\n", date, pw_cpu_model(), pw_git_rev());
        }
        if (csv)
            fprintf(csv, "# chapter 09 gemm: the model (modelled, from the emulator's counts at n = %d) against published "
                         "measurements (%s)\ndevice,ladder,rung,their_kernel,n,modelled_gflops,modelled_v1_gflops,"
                         "published_gflops,ratio,ratio_v1,bound\n", n, path);
    }
    /* one table per (device, ladder) */
    for (int first = 0; first < nr; first++) {
        if (!pw_published_group_start(rows, first)) continue;
        pw_gpu g;
        char err[600];
        if (pw_gpu_find(rows[first].device, &g, err, sizeof err)) {
            printf("\n(published ladder %s: %s)\n", rows[first].ladder, err);
            continue;
        }
        printf("\n== the model against the published %s ladder on the %s (measured, n = %lld)\n", rows[first].ladder,
               g.name, rows[first].n);
        printf("%-12s %-26s %10s %10s %6s %10s %6s %-8s %s\n", "rung", "their kernel", "published", "model v1", "ratio",
               "model v2", "ratio", "bound", "within 25%");
        int m = 0, order[32];
        double pub[32], mod[32], mod1[32];
        long long at_n[32];   /* each rung's published size */
        const char *blas = NULL;
        double blas_gf = 0;
        for (int r = first; r < nr && m < 32; r++) {
            if (!pw_published_same_group(rows, first, r)) continue;
            int i = -1;
            for (int k = 0; k < nv; k++)
                if (!strcmp(vs[k].label, rows[r].rung)) i = k;
            if (i < 0) {
                if (!strncmp(rows[r].rung, "0_", 2)) { blas = rows[r].theirs; blas_gf = rows[r].value; }
                continue;
            }
            int N = (int)rows[r].n;
            counts a = scale_counts(&cs[i], &cs2[i], n, DK, N);
            pw_gpu_work w = work_of(&vs[i], &a, N, &launches[i], &g, NULL, 0);
            pw_gpu_time t = pw_gpu_model(&g, &w);
            double fl = 2.0 * N * (double)N * N;
            double gf = fl / t.t_s * 1e-9, gf1 = fl / t.t_throughput * 1e-9;
            double ratio = gf / rows[r].value, ratio1 = gf1 / rows[r].value;
            bool ok = pw_published_within(gf, rows[r].value);
            printf("%-12s %-26s %10.1f %10.1f %6.2f %10.1f %6.2f %-8s %s\n", vs[i].label, rows[r].theirs, rows[r].value,
                   gf1, ratio1, gf, ratio, t.bound, ok ? "yes" : (ratio > 1 ? "no: model too fast" : "no: model too slow"));
            if (csv)
                fprintf(csv, "%s,%s,%s,%s,%d,%.1f,%.1f,%.1f,%.4f,%.4f,%s\n", g.key, rows[r].ladder, vs[i].label,
                        rows[r].theirs, N, gf, gf1, rows[r].value, ratio, ratio1, t.bound);
            order[m] = i;
            pub[m] = rows[r].value;
            at_n[m] = rows[r].n;
            mod[m] = gf;
            mod1[m] = gf1;
            m++;
        }
        if (blas) printf("%-12s %-26s %10.1f %10s %6s %10s %6s %-8s %s\n", "0_cublas", blas, blas_gf, "-", "", "-", "", "",
                         "the yardstick (not modelled)");
        printf("ratio: modelled GFLOP/s / published (above 1: the model is too fast); model v1: the throughput terms\n"
               "alone (the chapter's model before occupancy, latency and waves); model v2: common/gpu_model.h.\n"
               "Each rung ran with their kernel's launch (kernels/gemm_gpu.cu):\n");
        for (int a = 0; a < m; a++) printf("  %-12s %s\n", vs[order[a]].label, gg_rung_params(vs[order[a]].r));
        if (m == 0) continue;
        /* Each rung outside the band: by how much, what binds it, and what the model lacks that would move it
         * the right way (named from the direction and the binding term; the README works each one out). */
        for (int a = 0; a < m; a++) {
            double q = mod[a] / pub[a], N = (double)at_n[a];
            if (pw_published_within(mod[a], pub[a])) continue;
            counts c = scale_counts(&cs[order[a]], &cs2[order[a]], n, DK, N);
            pw_gpu_work w = work_of(&vs[order[a]], &c, N, &launches[order[a]], &g, NULL, 0);
            pw_gpu_time t = pw_gpu_model(&g, &w);
            double fl = 2.0 * N * N * N;
            bool fast = q > 1, compute = !strcmp(t.bound, "issue") || !strcmp(t.bound, "fp32");
            printf("missing: %s: modelled %.2f ms (%s-bound; next %s at %.2f ms), measured %.2f ms: %.2fx too %s.\n",
                   vs[order[a]].label, 1e3 * t.t_s, t.bound, t.next, 1e3 * t.next_s, 1e3 * fl / (pub[a] * 1e9),
                   fast ? q : 1 / q, fast ? "fast" : "slow");
            if (fast && compute)
                printf("  What would slow it, not in the model: integer, address and loop instructions (the emulator sees\n"
                       "  memory accesses only; each takes an FFMA's issue slot), register-bank conflicts, the clock under\n"
                       "  load; cuBLAS itself reaches %.0f%% of the %.1f TFLOP/s peak.\n",
                       blas ? 100 * blas_gf / (pw_gpu_peak_tflops(&g, 0) * 1e3) : 0.0, pw_gpu_peak_tflops(&g, 0));
            else if (fast)
                printf("  What would slow it, not in the model: a loaded memory system's latency (the device file's are an\n"
                       "  idle GPU's), L2 misses beyond each matrix once (%.0f MB matrices against %.0f MB of L2), a\n"
                       "  barrier's drain beyond the one shared-memory latency the model charges.\n",
                       4.0 * N * N / 1e6, g.l2_mb);
            else if (!strcmp(t.bound, "latency"))
                printf("  What would speed it up, not in the model: more loads in flight per warp (nvcc unrolls this\n"
                       "  barrier-free k loop 4 times: 8 ld.global a turn in its PTX), where the model waits once a pass.\n");
            else
                printf("  What would speed it up, not in the model: more than one 128-byte L1 wavefront a clock per SM,\n"
                       "  or L1 hits between the blocks of an SM (the model's L1 keeps one block's loads only).\n");
        }
        /* the targets: every rung within 25%, the rank order, each step's speedup within 25% */
        const char *labels[32];
        int within1 = 0;
        for (int a = 0; a < m; a++) {
            labels[a] = vs[order[a]].label;
            within1 += pw_published_within(mod1[a], pub[a]);
        }
        char extra[32];
        snprintf(extra, sizeof extra, " (version 1: %d)", within1);
        pw_published_targets(labels, pub, mod, m, "GFLOP/s", extra);
    }
    if (csv) {
        if (fclose(csv) || rename(tmp_path, out)) fprintf(stderr, "gemm: cannot write %s\n", out);
    }
}
#endif

/* ---- the GPU: timing ---------------------------------------------------------------------- */
#if !PW_SIMT_EMULATED
/* Counts from the emulator's CSV (--model-csv): the model_* rows of variant v
 * at n (the emulator scaled them to its --model-n: run it with --model-n
 * equal to the size timed here; the default is 4096 for both). */
typedef struct {
    counts *c;
    launch_info *li;
    int found;   /* a bit per count */
} model_rows;

static void take_model_row(const char *param, double value, void *ctx)
{
    model_rows *m = (model_rows *)ctx;
    const char *q = param + 6;   /* after "model_" */
    if (!strcmp(q, "launch_threads")) m->li->threads = (int)value;
    if (!strcmp(q, "launch_smem")) m->li->smem = (int)value;
    for (int k = 0; k < NCOUNTS; k++)
        if (!strcmp(q, count_names[k])) {
            *count_field(m->c, k) = value;
            m->found |= 1 << k;
        }
}

static int read_model_counts(const char *path, const char *v, int n, counts *c, launch_info *li)
{
    memset(li, 0, sizeof *li);
    memset(c, 0, sizeof *c);
    model_rows m = { c, li, 0 };
    pw_csv_read_quantities(path, v, n, "model_", take_model_row, &m);
    return m.found == (1 << NCOUNTS) - 1;
}

typedef struct {
    const variant *v;
    int n;
    const void *a, *b;
    float *c;
} launch_ctx;

/* One timed run per sample, each after a memset of twice the L2 (so the run
 * starts with A and B in DRAM, as a large GEMM's tiles mostly are). */
static void time_variant(const pw_bench_config *cfg, launch_ctx *lc, void *flush, size_t flush_bytes, pw_bench_stats *st)
{
    cudaEvent_t a, b;
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));
    CUDA_CHECK(gg_launch(lc->v->r, lc->v->t, lc->n, lc->n, lc->n, lc->a, lc->b, lc->c));   /* warm-up */
    pw_cuda_sync_check();
    static double samples[PW_MAX_SAMPLES];
    int ns = 0;
    double spent = 0;
    while (ns < PW_MAX_SAMPLES && (ns < cfg->min_reps || spent < cfg->min_time_s)) {
        CUDA_CHECK(cudaMemsetAsync(flush, ns & 0xFF, flush_bytes));
        CUDA_CHECK(cudaEventRecord(a));
        CUDA_CHECK(gg_launch(lc->v->r, lc->v->t, lc->n, lc->n, lc->n, lc->a, lc->b, lc->c));
        CUDA_CHECK(cudaEventRecord(b));
        CUDA_CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
        samples[ns++] = ms * 1e-3;
        spent += ms * 1e-3;
    }
    CUDA_CHECK(cudaGetLastError());
    pw_summarize(samples, ns, st);
    st->inner = 1;
    CUDA_CHECK(cudaEventDestroy(a));
    CUDA_CHECK(cudaEventDestroy(b));
}

static void time_ladder(const variant *vs, int nv, int n, buffers *bf, const pw_common_opts *common,
                       const char *model_csv, pw_csv *csv)
{
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    const pw_gpu *g = &dev;
    size_t flush_bytes = 2 * (size_t)(prop.l2CacheSize > 0 ? prop.l2CacheSize : 64 << 20);
    void *flush = pw_cuda_alloc(flush_bytes);
    pw_bench_config cfg = pw_bench_from_opts(common);
    double flops = 2.0 * n * (double)n * n;
    printf("\n== n = %d on %s; model: %s (%s)\n", n, prop.name, g->name, g->path);
    if (!model_csv) printf("(no --model-csv: the model column needs the emulator's counts, ./build/ch09/gemm --csv F)\n");
    printf("%-19s %10s %7s %8s %8s %10s %7s\n", "variant", "median", "IQR", "TFLOP/s", "% cuBLAS", "model ms", "meas/mod");
    double blas[3] = { NAN, NAN, NAN };
    double best[3] = { 0, 0, 0 };   /* the best rung of each input type */
    for (int i = 0; i < nv; i++) {
        const variant *v = &vs[i];
        /* the inputs, converted once per type; every rung at n x n x n (a multiple of 16 for rung 8: checked in main) */
        CUDA_CHECK(cudaMemcpy(bf->src_a, bf->h_a, (size_t)n * n * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(bf->src_b, bf->h_b, (size_t)n * n * sizeof(float), cudaMemcpyHostToDevice));
        gg_convert(v->t, bf->src_a, n, n, bf->a, n, n);
        gg_convert(v->t, bf->src_b, n, n, bf->b, n, n);
        pw_cuda_sync_check();
        launch_ctx lc = { v, n, bf->a, bf->b, bf->c };
        pw_bench_stats st;
        time_variant(&cfg, &lc, flush, flush_bytes, &st);
        double tf = flops / st.median * 1e-12;
        if (v->r == GG_CUBLAS) blas[v->t] = tf;
        if (v->r != GG_CUBLAS && tf > best[v->t]) best[v->t] = tf;
        /* % of cuBLAS: sgemm for the SIMT rungs, GemmEx of the same input type for WMMA */
        double ref = blas[v->t];
        char pct[16] = "-", mod[16] = "-", ratio[16] = "-";
        if (v->r != GG_CUBLAS && ref == ref) snprintf(pct, sizeof pct, "%.1f%%", 100 * tf / ref);
        counts c;
        memset(&c, 0, sizeof c);
        launch_info li;
        if (model_csv && v->r != GG_CUBLAS && read_model_counts(model_csv, v->label, n, &c, &li)) {
            gg_shape sh = gg_launch_shape(v->r, v->t, n, n, n);
            snprintf(li.kernel, sizeof li.kernel, "%s", sh.kernel);
            pw_gpu_work w = work_of(v, &c, n, &li, g, NULL, 0);
            pw_gpu_time t = pw_gpu_model(g, &w);
            snprintf(mod, sizeof mod, "%.3f", 1e3 * t.t_s);
            snprintf(ratio, sizeof ratio, "%.2f", st.median / t.t_s);
            pw_csv_quantity(csv, v->label, n, 1, "model_ms", 1e3 * t.t_s);
            /* the roofline point: measured time, the emulator's counted global bytes */
            pw_roofline_csv_point(csv, v->label, n, 1, &st, flops, w.global_sectors * 32);
        }
        printf("%-19s %7.3f ms %6.1f%% %8.2f %8s %10s %7s\n", v->label, 1e3 * st.median,
               100 * (st.q3 - st.q1) / st.median, tf, pct, mod, ratio);
        pw_csv_summary(csv, v->label, n, 1, "ladder", &st, flops, work_of(v, &c, n, NULL, g, NULL, 0).dram_bytes);
        if (v->r != GG_CUBLAS && ref == ref) pw_csv_quantity(csv, v->label, n, 1, "pct_cublas", 100 * tf / ref);
    }
    printf("median of %d+ runs, each after the L2 (%d MiB) was flushed; IQR: the spread (q3 - q1) / median;\n"
           "model ms: common/gpu_model.h's time for %s from the emulator's counts scaled to n; meas/mod: measured\n"
           "over modelled (above 1: slower than the model's fastest).\n", cfg.min_reps, prop.l2CacheSize >> 20, g->name);
    /* the chapter's targets, as benchmark lines (not failures) */
    if (blas[GG_F32] == blas[GG_F32])
        printf("benchmark: best SIMT rung %.1f%% of cuBLAS sgemm (target 80%%): %s\n", 100 * best[GG_F32] / blas[GG_F32],
               best[GG_F32] >= 0.8 * blas[GG_F32] ? "met" : "not met");
    if (blas[GG_BF16] == blas[GG_BF16])
        printf("benchmark: best WMMA rung %.1f%% of cuBLAS bf16 (target 50%%): %s\n", 100 * best[GG_BF16] / blas[GG_BF16],
               best[GG_BF16] >= 0.5 * blas[GG_BF16] ? "met" : "not met");
    CUDA_CHECK(cudaFree(flush));
}
#endif

#if PW_SIMT_EMULATED
/* The counts of the verified runs: [size][variant], at k = n and k = n + DK. */
static counts cs[PW_MAX_LIST][32], cs2[PW_MAX_LIST][32];
#endif

/* Every variant against the reference: the odd sizes, then the run's sizes
 * (whose launches the emulator's counters are read from). The number of
 * runs checked, or -1 at the first wrong one (reported). */
static int verify_all(const variant *vs, int nv, const pw_list *sizes, buffers *b, bool tiny, const char *prog)
{
    static const int odd[][3] = { { 1, 1, 1 }, { 15, 15, 15 }, { 17, 17, 17 }, { 33, 33, 33 }, { 100, 100, 100 },
                                  { 33, 100, 17 } };   /* m, k, n */
    int checked = 0;
    for (int i = 0; i < nv; i++)
        for (int s = 0; s < 6; s++) {
            if (tiny && odd[s][0] == 100 && odd[s][2] == 100) continue;   /* --tiny: quick */
            if (run_checked(&vs[i], odd[s][0], odd[s][2], odd[s][1], b, false, prog)) return -1;
            checked++;
        }
    for (int s = 0; s < sizes->n; s++) {
        int n = (int)sizes->v[s];
        bool sample = (double)n * n * n > 1.4e8;   /* past 512^3 the host checks 4096 elements */
        for (int i = 0; i < nv; i++) {
            if (run_checked(&vs[i], n, n, n, b, sample, prog)) return -1;
#if PW_SIMT_EMULATED
            cs[s][i] = read_counts();   /* the launch just verified */
            launches[i] = read_launch();
            double want = tensor_flops_expected(&vs[i], n, n, n), got = 8192 * cs[s][i].mma;
            if (gg_rung_tensor(vs[i].r) && got != want) {
                fprintf(stderr, "%s: %s at n=%d: 8192 x mma_ops = %.0f flops, want %.0f (2mnk over its padded tiles)\n",
                        prog, vs[i].label, n, got, want);
                return -1;
            }
            /* and at k = n + DK, for the counts' growth in k (scale_counts) */
            if (run_checked(&vs[i], n, n, n + DK, b, sample, prog)) return -1;
            cs2[s][i] = read_counts();
            checked++;
#endif
            checked++;
        }
    }
    return checked;
}

static void free_buffers(buffers *b)
{
    CUDA_CHECK(cudaFree(b->src_a));
    CUDA_CHECK(cudaFree(b->src_b));
    CUDA_CHECK(cudaFree(b->a));
    CUDA_CHECK(cudaFree(b->b));
    CUDA_CHECK(cudaFree(b->c));
    pw_free(b->h_a);
    pw_free(b->h_b);
    pw_free(b->r_a);
    pw_free(b->r_b);
    pw_free(b->h_c);
    pw_free(b->ref);
    pw_free(b->mag);
}

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(PW_SIMT_EMULATED ? 256 : 4096);
    pw_list only = PW_LIST(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    pw_list model_ns = PW_LIST(4096);
    const char *model_csv = NULL, *device = NULL, *published_csv = NULL;
    pw_opt opts[] = {
        { "-n", "--sizes", PW_OPT_SIZES, &sizes, "N[,N...]",
          "m = n = k of the counted (emulator, default 256) or timed (GPU, default 4096) runs", 1, 16384 },
        { NULL, "--model-n", PW_OPT_SIZES, &model_ns, "N[,N...]",
          "the sizes the model predicts for (default 4096; the table shows the first)", 16, 65536 },
        { NULL, "--model-csv", PW_OPT_STRING, &model_csv, "FILE",
          "GPU: the emulator's CSV, whose counts give the model's time beside the measured one", 0, 0 },
        { NULL, "--rung", PW_OPT_SIZES, &only, "R[,R...]", "only these rungs, 0-9 (default all; 0 = cuBLAS, GPU only)",
          0, GG_NRUNGS - 1 },
        { NULL, "--device", PW_OPT_STRING, &device, "NAME|FILE",
          "the GPU the model's tables are for: a file of common/gpus (default " PW_GPU_DEFAULT
          "; on a GPU, the one found) or a path to a .gpu file", 0, 0 },
        { NULL, "--published-csv", PW_OPT_STRING, &published_csv, "FILE",
          "emulator: the model against the published ladders, as CSV (default: published.csv beside --csv)", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "the GPU GEMM ladder: nine kernels from a thread per element to Tensor Cores", opts, 6,
                     &common);
#if !PW_SIMT_EMULATED
    if (!device) {   /* the model of the GPU at hand, where a file describes it */
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) device = pw_gpu_stem_for(prop.name);
    }
#endif
    pw_gpu_find_or_exit(common.prog, device ? device : PW_GPU_DEFAULT, &dev);
    /* a file that cannot be written is bad input, found before any work (as --csv's) */
    if (published_csv && !pw_output_writable(common.prog, "--published-csv", published_csv)) return PW_EXIT_USAGE;
    pw_gpu_find_or_exit(common.prog, "h100-sxm", &h100);
    pw_gpu_find_or_exit(common.prog, "h200-sxm", &h200);
#if PW_SIMT_EMULATED
    model_devices[n_model_devices++] = &dev;
    if (strcmp(dev.key, h100.key)) model_devices[n_model_devices++] = &h100;
    if (strcmp(dev.key, h200.key)) model_devices[n_model_devices++] = &h200;
#endif
    if (common.tiny) sizes = PW_SIMT_EMULATED ? (pw_list)PW_LIST(64) : (pw_list)PW_LIST(1024);
#if PW_SIMT_EMULATED
    if (pw_list_max(&sizes) > 1024) {
        fprintf(stderr, "%s: -n %lld: the emulator counts up to 1024 (minutes per rung past that; the counts scale by "
                        "n^3: use --model-n)\n", common.prog, pw_list_max(&sizes));
        return PW_EXIT_USAGE;
    }
#else
    for (int s = 0; s < sizes.n; s++)
        if (sizes.v[s] % 16) {
            fprintf(stderr, "%s: -n %lld: timed sizes must be multiples of 16 (rung 8's WMMA tiles)\n", common.prog,
                    sizes.v[s]);
            return PW_EXIT_USAGE;
        }
#endif
    bool want[GG_NRUNGS] = { false };
    for (int i = 0; i < only.n; i++) want[only.v[i]] = true;
    variant vs[32];
    int nv = list_variants(vs, want);
    if (nv == 0) {
        fprintf(stderr, "%s: --rung: no rung to run (rung 0, cuBLAS, runs on a GPU only)\n", common.prog);
        return PW_EXIT_USAGE;
    }

    int nmax = (int)pw_list_max(&sizes);
    if (nmax < 100) nmax = 100;                     /* the check's largest size */
    int npad = round_up(nmax + DK, 16);   /* the emulator's second run has k = n + DK */
    pw_require_memory(common.prog, "-n", (long long)npad * npad, sizeof(float), 8);
    pw_cuda_start(common.prog);

    buffers b;
    b.h_a = pw_alloc_floats((size_t)npad * npad);
    b.h_b = pw_alloc_floats((size_t)npad * npad);
    b.r_a = pw_alloc_floats((size_t)npad * npad);
    b.r_b = pw_alloc_floats((size_t)npad * npad);
    b.h_c = pw_alloc_floats((size_t)npad * npad);
    b.ref = pw_alloc_doubles((size_t)npad);
    b.mag = pw_alloc_doubles((size_t)npad);
    /* inputs in [-1, 1]: C's elements are sums of k terms of either sign */
    pw_fill_random(b.h_a, (size_t)npad * npad, 42, -1.0f, 1.0f);
    pw_fill_random(b.h_b, (size_t)npad * npad, 43, -1.0f, 1.0f);
    b.src_a = (float *)pw_cuda_alloc((size_t)npad * npad * sizeof(float));
    b.src_b = (float *)pw_cuda_alloc((size_t)npad * npad * sizeof(float));
    b.a = pw_cuda_alloc((size_t)npad * npad * sizeof(float));
    b.b = pw_cuda_alloc((size_t)npad * npad * sizeof(float));
    b.c = (float *)pw_cuda_alloc((size_t)npad * npad * sizeof(float));

    /* 1. correct before anything is counted or timed */
    int checked = verify_all(vs, nv, &sizes, &b, common.tiny, common.prog);
    if (checked < 0) {
        free_buffers(&b);
        return PW_EXIT_WRONG;
    }
    printf("all %d variants match the double-precision reference (%d runs: m x k x n = 1, 15, 17, 33%s cubed,\n"
           "33 x 100 x 17 and n^3 for n =", nv, checked, common.tiny ? "" : ", 100");
    for (int s = 0; s < sizes.n; s++) printf(" %lld", sizes.v[s]);
    printf("%s%s; rung 8 on sizes that are not multiples of 16 through zero padding)\n",
           PW_SIMT_EMULATED ? " and n x (n + 32) x n" : "",
           (double)nmax * nmax * nmax > 1.4e8 ? ", 4096 sampled elements past 512^3" : "");

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "model_n", "%lld", model_ns.v[0]);
    char tag[64];
    device_tag(&dev, tag, sizeof tag);
#if PW_SIMT_EMULATED
    pw_csv_meta(csv, "device", "emulator (times modelled for %s, %s and %s)", dev.name, h100.name, h200.name);
    pw_csv_meta(csv, "model_device", "%s", tag);
    csv_roofs(csv, &dev, tag);
    static counts at[32];   /* the counts at the first --model-n */
    for (int s = 0; s < sizes.n; s++)
        report_counts(vs, nv, cs[s], cs2[s], (int)sizes.v[s], &model_ns, sizes.v[s] == pw_list_max(&sizes) && s == last_max(&sizes), csv, at);
    /* the published ladders, from the largest size counted (its scaling is exact where any is); with
     * --csv F and no --published-csv, beside F as published.csv (the chapter's figure reads it there) */
    int lm = last_max(&sizes);
    static char beside[1024];
    if (!published_csv && common.csv) {
        const char *slash = strrchr(common.csv, '/');
        snprintf(beside, sizeof beside, "%.*spublished.csv", slash ? (int)(slash - common.csv + 1) : 0, common.csv);
        published_csv = beside;
    }
    report_published(vs, nv, cs[lm], cs2[lm], (int)sizes.v[lm], published_csv);
#else
    {
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        pw_csv_meta(csv, "device", "%s (model: %s)", prop.name, dev.name);
        pw_csv_meta(csv, "model_device", "%s", tag);
        csv_roofs(csv, &dev, tag);
        for (int s = 0; s < sizes.n; s++) time_ladder(vs, nv, (int)sizes.v[s], &b, &common, model_csv, csv);
    }
    gg_shutdown();
#endif
    free_buffers(&b);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
