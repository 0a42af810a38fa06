/* kernels/gemm.c: chapter 07's GEMM ladder, C = A*B (row-major, float), one
 * rung per idea (kernels/gemm.h lists them). The micro-kernels of rungs 4
 * and 5 live per ISA in gemm_x86.c, gemm_neon.c and gemm_scalar.c; this
 * file has the loops around them (BLIS's five loops), the packing, the
 * simple rungs, OpenBLAS, and the double-precision reference.
 */
#include "gemm.h"
#include "gemm_ukernel.h"

#include "overlap.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif
#if PW_HAVE_OPENBLAS
#include <cblas.h>
#endif

static int imin(int a, int b) { return a < b ? a : b; }
static int round_up(int x, int to) { return (x + to - 1) / to * to; }

double gemm_flops(int m, int n, int k) { return 2.0 * m * n * k; }
double gemm_bytes(int m, int n, int k) { return 4.0 * ((double)m * k + (double)k * n + 2.0 * m * n); }

/* ---- settings: ISA, tile, blocking, threads ------------------------------ */

static struct {
    int ready;
    pw_hw hw;                 /* pw_probe_static: ISA and caches */
    const gemm_ukernel *uk;   /* the micro-kernel rungs 4 and 5 use */
    int kc, mc, nc;           /* overrides, 0 = derived */
    int threads;
} cfg;

static void all_ukernels(const gemm_ukernel **list, int *n, int which)
{
    if (which == 0) { *list = gemm_ukernels_x86; *n = gemm_ukernels_x86_n; }
    else if (which == 1) { *list = gemm_ukernels_neon; *n = gemm_ukernels_neon_n; }
    else { *list = gemm_ukernels_scalar; *n = gemm_ukernels_scalar_n; }
}

/* The first (best) shape the table has for isa, or NULL. */
static const gemm_ukernel *first_ukernel(pw_isa isa, int mr, int nr)
{
    for (int w = 0; w < 3; w++) {
        const gemm_ukernel *list;
        int n;
        all_ukernels(&list, &n, w);
        for (int i = 0; i < n; i++)
            if (list[i].isa == isa && (mr == 0 || (list[i].mr == mr && list[i].nr == nr))) return &list[i];
    }
    return NULL;
}

/* Once per process, whichever thread calls first: chapter 14's workers make
 * their first GEMM calls at the same moment, and two threads filling cfg at
 * once would race (ThreadSanitizer says so). */
static void setup_once(void)
{
    pw_probe_static(&cfg.hw);
    cfg.ready = 1;
    cfg.threads = pw_cores();
    /* The widest ISA the probe allows and this file has a kernel for. */
    for (int isa = PW_ISA_NEON; isa >= PW_ISA_SCALAR; isa--)
        if (gemm_isa_runs_here((pw_isa)isa)) { cfg.uk = first_ukernel((pw_isa)isa, 0, 0); break; }
}

static void setup(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, setup_once);
}

bool gemm_isa_runs_here(pw_isa isa)
{
    if (!first_ukernel(isa, 0, 0)) return false;   /* no kernel for it in this build */
    pw_hw hw;
    if (cfg.ready) hw = cfg.hw; else pw_probe_static(&hw);
    if (isa == PW_ISA_SCALAR) return true;
    if (isa == PW_ISA_NEON || hw.isa == PW_ISA_NEON) return isa == hw.isa;
    /* The AVX2 kernels need FMA as well; the probe's AVX2 implies it on
     * every CPU that has shipped, but ask. */
    if (isa == PW_ISA_AVX2 && !hw.fma) return false;
    return hw.isa >= isa;
}

bool gemm_use_isa(pw_isa isa)
{
    setup();
    if (!gemm_isa_runs_here(isa)) return false;
    cfg.uk = first_ukernel(isa, 0, 0);
    return true;
}

pw_isa gemm_isa(void) { setup(); return cfg.uk->isa; }

const char *gemm_tile_shapes(void)
{
    static char buf[128];
    setup();
    buf[0] = 0;
    for (int w = 0; w < 3; w++) {
        const gemm_ukernel *list;
        int n;
        all_ukernels(&list, &n, w);
        for (int i = 0; i < n; i++)
            if (list[i].isa == cfg.uk->isa) {
                size_t len = strlen(buf);
                snprintf(buf + len, sizeof buf - len, "%s%dx%d", len ? "," : "", list[i].mr, list[i].nr);
            }
    }
    return buf;
}

bool gemm_use_tile(int mr, int nr)
{
    setup();
    const gemm_ukernel *u = first_ukernel(cfg.uk->isa, mr, nr);
    if (!u) return false;
    cfg.uk = u;
    return true;
}

void gemm_set_threads(int threads) { setup(); cfg.threads = threads > 0 ? threads : 1; }
int gemm_threads(void) { setup(); return cfg.threads; }

void gemm_set_blocking(int kc, int mc, int nc)
{
    setup();
    if (kc > 0) cfg.kc = kc;
    if (mc > 0) cfg.mc = mc;
    if (nc > 0) cfg.nc = nc;
}

/* The blocking, from the caches (GotoBLAS's rule: each level holds the
 * operand that is reused from it):
 *   KC: a B sliver (KC x NR) is read once for every A sliver of the MC
 *       block, so it should stay close: KC x NR x 4 bytes <= 1.5 x L1, a
 *       multiple of 64 in 128..512. 48 KiB and NR = 32 give 512 (64 KiB:
 *       the hardware prefetcher streams the part L1 cannot hold from L2).
 *       Measured on Zen 5 against OpenBLAS in the same run, 1 core,
 *       n = 2048: KC 256 0.91x, 384 0.93x, 512 0.95x, 640-768 0.94-0.96x:
 *       a deeper panel loads and stores the C tile less often.
 *   MC: the packed A block (MC x KC) is reused for every B sliver of the
 *       panel, so it should stay in L2: MC x KC x 4 <= half of L2.
 *   NC: the packed B panel (KC x NC) is reused for every A block, so it
 *       should stay in L3; capped at 4096 columns (8 MiB at KC = 512), since
 *       a VM may report an L3 it does not give one core (this one says
 *       508 MiB; the real one is 32 MiB per 8 cores). */
gemm_blocking gemm_get_blocking(void)
{
    setup();
    const gemm_ukernel *u = cfg.uk;
    long l1 = cfg.hw.l1d > 0 ? cfg.hw.l1d : 32 * 1024;
    long l2 = cfg.hw.l2 > 0 ? cfg.hw.l2 : 256 * 1024;
    int kc = cfg.kc ? cfg.kc : (int)(l1 * 3 / 2 / (4L * u->nr));
    if (!cfg.kc) kc = kc < 128 ? 128 : kc > 512 ? 512 : kc / 64 * 64;
    int mc = cfg.mc ? cfg.mc : (int)(l2 / 2 / (4L * kc));
    mc = mc < u->mr ? u->mr : mc / u->mr * u->mr;
    int nc = cfg.nc ? cfg.nc : 4096;
    nc = round_up(nc < u->nr ? u->nr : nc, u->nr);
    return (gemm_blocking){ u->mr, u->nr, kc, mc, nc, u->why };
}

/* Rung 3's block of B: KB rows x 4 KB columns, a quarter of L2 (the rest
 * for the rows of A and C passing through): 4 KB^2 x 4 bytes <= L2 / 4,
 * KB a multiple of 16 (a cache line of floats). 1 MiB gives KB = 128: a
 * 128 x 512 block, 256 KiB. */
int gemm_block_tile(void)
{
    setup();
    long l2 = cfg.hw.l2 > 0 ? cfg.hw.l2 : 256 * 1024;
    int t = (int)sqrt((double)l2 / 64.0) / 16 * 16;
    return t < 16 ? 16 : t;
}

/* ---- rung 1: naive i, j, k ------------------------------------------------- */

/* The inner loop walks down a column of B: n floats apart, so every load is
 * a new cache line, and the one running sum is a chain of dependent adds. */
void gemm_naive(int m, int n, int k, const float *A, const float *B, float *C)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = 0;
            for (int p = 0; p < k; p++) sum += A[(size_t)i * k + p] * B[(size_t)p * n + j];
            C[(size_t)i * n + j] = sum;
        }
}

/* ---- rung 2: i, k, j ------------------------------------------------------- */

/* Same arithmetic, loops swapped: the inner loop runs along a row of B and
 * a row of C, one after the other in memory, and its iterations are
 * independent, so the compiler vectorises it. */
void gemm_ikj(int m, int n, int k, const float *A, const float *B, float *C)
{
    for (int i = 0; i < m; i++) {
        float *c = C + (size_t)i * n;
        for (int j = 0; j < n; j++) c[j] = 0;
        for (int p = 0; p < k; p++) {
            float a = A[(size_t)i * k + p];
            const float *b = B + (size_t)p * n;
            for (int j = 0; j < n; j++) c[j] += a * b[j];
        }
    }
}

/* ---- rung 3: blocked -------------------------------------------------------- */

/* ikj on blocks of B that stay in L2: a KB x JB block of B (KB rows, JB
 * columns) is used by every row of A before the next block, while rung 2
 * streams all of B (k x n) through the caches once per row of C. Inside a
 * block the inner loop is still ikj's: a row segment of B (JB floats) and
 * of C, contiguous and vectorised. */
void gemm_blocked(int m, int n, int k, const float *A, const float *B, float *C)
{
    int kb = gemm_block_tile(), jb = 4 * kb;
    memset(C, 0, sizeof(float) * (size_t)m * (size_t)n);
    for (int j0 = 0; j0 < n; j0 += jb)
        for (int p0 = 0; p0 < k; p0 += kb) {
            int j1 = imin(j0 + jb, n), p1 = imin(p0 + kb, k);
            for (int i = 0; i < m; i++) {
                float *c = C + (size_t)i * n;
                for (int p = p0; p < p1; p++) {
                    float a = A[(size_t)i * k + p];
                    const float *b = B + (size_t)p * n;
                    for (int j = j0; j < j1; j++) c[j] += a * b[j];
                }
            }
        }
}

/* ---- packing ------------------------------------------------------------------ */

void gemm_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap)
{
    for (int s = 0; s * mr < mc; s++) {
        int rows = imin(mr, mc - s * mr);
        float *dst = Ap + (size_t)s * kc * mr;
        const float *src = A + (size_t)s * mr * lda;
        /* 16 columns at a time: each row's 16 values are one cache line
         * read whole, and the 16 x mr floats written stay in L1. (Column by
         * column measured 4.5-7.4 ms for all of A at n = 2048, this 3.4-3.8.) */
        for (int p0 = 0; p0 < kc; p0 += 16) {
            int p1 = imin(p0 + 16, kc);
            for (int i = 0; i < rows; i++) {
                const float *r = src + (size_t)i * lda;
                for (int p = p0; p < p1; p++) dst[(size_t)p * mr + i] = r[p];
            }
            for (int i = rows; i < mr; i++)
                for (int p = p0; p < p1; p++) dst[(size_t)p * mr + i] = 0;
        }
    }
}

void gemm_pack_b(int kc, int nc, const float *B, int ldb, int nr, float *Bp)
{
    int slivers = (nc + nr - 1) / nr;
    /* Row by row of B: each row is read once, contiguously, and scattered
     * into the slivers (going sliver by sliver instead reads 256 rows 8 KiB
     * apart for every 128 bytes copied, which measured 3x slower). */
    for (int p = 0; p < kc; p++) {
        const float *src = B + (size_t)p * ldb;
        for (int s = 0; s < slivers; s++) {
            int cols = imin(nr, nc - s * nr);
            float *d = Bp + ((size_t)s * kc + p) * nr;
            memcpy(d, src + (size_t)s * nr, sizeof(float) * (size_t)cols);
            for (int j = cols; j < nr; j++) d[j] = 0;
        }
    }
}

/* ---- rungs 4 and 5: the packed, register-blocked GEMM -------------------- */

static _Thread_local double last_pack_s;
double gemm_last_pack_seconds(void) { return last_pack_s; }

/* The packed buffers, kept per calling thread from one call to the next:
 * allocating 3 MiB afresh each call cost 768 page faults a call at n = 2048
 * (the allocator returns big blocks to the system on free), time that a
 * library's steady state does not pay. */
static _Thread_local struct { float *p; size_t n; } bufs[2];

static float *buffer(int which, size_t floats)
{
    if (bufs[which].n < floats) {
        pw_free(bufs[which].p);
        bufs[which].p = pw_alloc_floats(floats);
        bufs[which].n = floats;
    }
    return bufs[which].p;
}

void gemm_release_buffers(void)
{
    for (int i = 0; i < 2; i++) { pw_free(bufs[i].p); bufs[i].p = NULL; bufs[i].n = 0; }
}

/* The two innermost loops around the micro-kernel: every MR x NR tile of an
 * mc x nc block of C from the packed A block and B panel. Tiles cut off by
 * the edge of C go through a scratch tile. */
static void macro_kernel(const gemm_ukernel *u, int mc, int nc, int kc, const float *Ap, const float *Bp,
                         float *C, int ldc, int accumulate)
{
    _Alignas(64) float tile[32 * 64];   /* the largest MR x NR of any kernel */
    for (int jr = 0; jr < nc; jr += u->nr) {
        int cols = imin(u->nr, nc - jr);
        const float *b = Bp + (size_t)jr * kc;
        for (int ir = 0; ir < mc; ir += u->mr) {
            int rows = imin(u->mr, mc - ir);
            const float *a = Ap + (size_t)ir * kc;
            float *c = C + (size_t)ir * ldc + jr;
            if (rows == u->mr && cols == u->nr) {
                u->fn(kc, a, b, c, ldc, accumulate);
                continue;
            }
            u->fn(kc, a, b, tile, u->nr, 0);
            for (int i = 0; i < rows; i++)
                for (int j = 0; j < cols; j++) {
                    float *cij = c + (size_t)i * ldc + j;
                    *cij = accumulate ? *cij + tile[i * u->nr + j] : tile[i * u->nr + j];
                }
        }
    }
}

static void pack_a_own(int mc, int kc, const float *A, int lda, int mr, float *Ap) { gemm_pack_a(mc, kc, A, lda, mr, Ap); }
static void pack_b_own(int kc, int nc, const float *B, int ldb, int nr, float *Bp) { gemm_pack_b(kc, nc, B, ldb, nr, Bp); }

/* BLIS's loops: jc over NC columns of C, pc over KC of the depth (pack that
 * B panel once), ic over MC rows (pack that A block once), then the macro
 * kernel. C is written on the first pc block and accumulated after it. */
void gemm_simd_with(int m, int n, int k, const float *A, const float *B, float *C,
                    gemm_pack_fn pack_a, gemm_pack_fn pack_b)
{
    setup();
    if (!pack_a) pack_a = pack_a_own;
    if (!pack_b) pack_b = pack_b_own;
    last_pack_s = 0;
    if (k == 0) { memset(C, 0, sizeof(float) * (size_t)m * (size_t)n); return; }
    gemm_blocking bl = gemm_get_blocking();
    const gemm_ukernel *u = cfg.uk;
    int kcmax = imin(bl.kc, k), mcmax = imin(bl.mc, round_up(m, u->mr)), ncmax = imin(bl.nc, round_up(n, u->nr));
    float *Ap = buffer(0, (size_t)kcmax * (size_t)round_up(mcmax, u->mr));
    float *Bp = buffer(1, (size_t)kcmax * (size_t)round_up(ncmax, u->nr));
    double packing = 0;
    for (int jc = 0; jc < n; jc += bl.nc) {
        int nc = imin(bl.nc, n - jc);
        for (int pc = 0; pc < k; pc += bl.kc) {
            int kc = imin(bl.kc, k - pc);
            double t0 = pw_now();
            pack_b(kc, nc, B + (size_t)pc * n + jc, n, u->nr, Bp);
            packing += pw_now() - t0;
            for (int ic = 0; ic < m; ic += bl.mc) {
                int mc = imin(bl.mc, m - ic);
                t0 = pw_now();
                pack_a(mc, kc, A + (size_t)ic * k + pc, k, u->mr, Ap);
                packing += pw_now() - t0;
                macro_kernel(u, mc, nc, kc, Ap, Bp, C + (size_t)ic * n + jc, n, pc > 0);
            }
        }
    }
    last_pack_s = packing;
}

void gemm_simd(int m, int n, int k, const float *A, const float *B, float *C)
{
    gemm_simd_with(m, n, k, A, B, C, NULL, NULL);
}

/* Rung 4 with the threads splitting the work: the B panel's slivers are
 * packed by all threads together (then a barrier: everyone needs all of
 * it), and the rows of C are shared out in whole MR slivers, as evenly as
 * they go (147 slivers of 14 rows at m = 2048: 74 and 73 on two threads);
 * each thread packs its own A blocks into its own buffer. (Handing out MC
 * blocks instead left 4 blocks to one thread and 3 to the other at
 * m = 2048: 1.45x on 2 cores.) Without OpenMP this is rung 4. */
void gemm_omp(int m, int n, int k, const float *A, const float *B, float *C)
{
#ifdef _OPENMP
    setup();
    int threads = cfg.threads;
    if (threads <= 1 || k == 0) { gemm_simd(m, n, k, A, B, C); return; }
    gemm_blocking bl = gemm_get_blocking();
    const gemm_ukernel *u = cfg.uk;
    int slivers_m = (m + u->mr - 1) / u->mr;
    int kcmax = imin(bl.kc, k), ncmax = imin(bl.nc, round_up(n, u->nr));
    size_t a_size = (size_t)kcmax * (size_t)imin(bl.mc, round_up(m, u->mr));
    a_size = (a_size + 15) / 16 * 16;   /* each thread's buffer on its own cache lines */
    float *Ap = buffer(0, a_size * (size_t)threads);
    float *Bp = buffer(1, (size_t)kcmax * (size_t)round_up(ncmax, u->nr));
    double most_packing = 0;
#pragma omp parallel num_threads(threads) reduction(max : most_packing)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        float *myA = Ap + a_size * (size_t)me;
        int lo = imin(m, (int)((long)slivers_m * me / team) * u->mr);
        int hi = imin(m, (int)((long)slivers_m * (me + 1) / team) * u->mr);
        double packing = 0;
        for (int jc = 0; jc < n; jc += bl.nc) {
            int nc = imin(bl.nc, n - jc);
            int slivers = (nc + u->nr - 1) / u->nr;
            for (int pc = 0; pc < k; pc += bl.kc) {
                int kc = imin(bl.kc, k - pc);
                double t0 = pw_now();
#pragma omp for schedule(static)
                for (int s = 0; s < slivers; s++)
                    gemm_pack_b(kc, imin(u->nr, nc - s * u->nr), B + (size_t)pc * n + jc + (size_t)s * u->nr, n,
                                u->nr, Bp + (size_t)s * kc * u->nr);
                packing += pw_now() - t0;   /* with the wait at the barrier: time the others spent packing */
                for (int ic = lo; ic < hi; ic += bl.mc) {
                    int mc = imin(bl.mc, hi - ic);
                    double t1 = pw_now();
                    gemm_pack_a(mc, kc, A + (size_t)ic * k + pc, k, u->mr, myA);
                    packing += pw_now() - t1;
                    macro_kernel(u, mc, nc, kc, myA, Bp, C + (size_t)ic * n + jc, n, pc > 0);
                }
                /* Nobody repacks Bp until everyone is done with it. */
#pragma omp barrier
            }
        }
        most_packing = packing;
    }
    last_pack_s = most_packing;
#else
    gemm_simd(m, n, k, A, B, C);
#endif
}

/* ---- rung 0: OpenBLAS --------------------------------------------------------- */

void gemm_openblas(int m, int n, int k, const float *A, const float *B, float *C)
{
#if PW_HAVE_OPENBLAS
    setup();
    static _Thread_local int set_to;
    if (set_to != cfg.threads) { openblas_set_num_threads(cfg.threads); set_to = cfg.threads; }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, A, k > 0 ? k : 1, B, n, 0.0f, C, n);
#else
    (void)m; (void)n; (void)k; (void)A; (void)B; (void)C;
    fprintf(stderr, "gemm_openblas: this build has no OpenBLAS\n");
    abort();
#endif
}

const char *gemm_openblas_corename(void)
{
#if PW_HAVE_OPENBLAS
    return openblas_get_corename();
#else
    return "not linked";
#endif
}

const char *gemm_openblas_config(void)
{
#if PW_HAVE_OPENBLAS
    return openblas_get_config();
#else
    return "not linked";
#endif
}

/* ---- the ladder ------------------------------------------------------------------ */

static const gemm_rung rungs[] = {
    { "0_openblas", "OpenBLAS's cblas_sgemm: the baseline", gemm_openblas, true, true },
    { "1_naive", "i, j, k: a dot product per element, walking down a column of B", gemm_naive, false, false },
    { "2_ikj", "i, k, j: rows of B and C, contiguous and vectorised", gemm_ikj, false, false },
    { "3_blocked", "ikj on tiles that stay in L1", gemm_blocked, false, false },
    { "4_simd", "packed panels, an MR x NR tile of C in registers, intrinsics", gemm_simd, false, false },
    { "5_omp", "4_simd with OpenMP threads over the MC blocks", gemm_omp, false, true },
};

int gemm_rung_count(void) { return (int)(sizeof rungs / sizeof rungs[0]); }
const gemm_rung *gemm_rung_at(int i) { return i >= 0 && i < gemm_rung_count() ? &rungs[i] : NULL; }
const char *gemm_rung_name(const gemm_rung *r) { return r->name; }

const gemm_rung *gemm_rung_find(const char *name)
{
    for (int i = 0; i < gemm_rung_count(); i++) {
        const char *rn = rungs[i].name;
        if (!strcmp(name, rn) || !strcmp(name, rn + 2) || (name[0] == rn[0] && name[1] == 0)) return &rungs[i];
    }
    return NULL;
}

bool gemm_rung_available(const gemm_rung *r)
{
#if PW_HAVE_OPENBLAS
    (void)r;
    return true;
#else
    return !r->needs_blas;
#endif
}

void gemm_rung_run(const gemm_rung *r, int m, int n, int k, const float *A, const float *B, float *C)
{
    r->run(m, n, k, A, B, C);
}

/* ---- reference ---------------------------------------------------------------- */

/* Each product of two floats is exact in double (24 + 24 bits < 53), and
 * the sum of k of them carries about k * 2^-53 relative error: far below
 * float's 2^-24, so this is the exact result as far as a float can tell. */
void gemm_ref(int m, int n, int k, const float *A, const float *B, float *C, float *absC)
{
    double *row = malloc(sizeof(double) * 2 * (size_t)(n > 0 ? n : 1));
    if (!row) { fprintf(stderr, "gemm_ref: out of memory\n"); exit(1); }
    double *arow = row + n;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) row[j] = arow[j] = 0;
        for (int p = 0; p < k; p++) {
            double a = A[(size_t)i * k + p];
            const float *b = B + (size_t)p * n;
            for (int j = 0; j < n; j++) { row[j] += a * b[j]; arow[j] += fabs(a * b[j]); }
        }
        for (int j = 0; j < n; j++) {
            C[(size_t)i * n + j] = (float)row[j];
            if (absC) absC[(size_t)i * n + j] = (float)arow[j];
        }
    }
    free(row);
}

double gemm_ref_entry(int n, int k, const float *A, const float *B, int i, int j, double *abs)
{
    double s = 0, sa = 0;
    for (int p = 0; p < k; p++) {
        double t = (double)A[(size_t)i * k + p] * B[(size_t)p * n + j];
        s += t;
        sa += fabs(t);
    }
    if (abs) *abs = sa;
    return s;
}

double gemm_tolerance(int k)
{
    const double u = 0x1p-24;
    double ku = (double)(k > 0 ? k : 1) * u;
    return ku / (1 - ku);
}

int gemm_check(const char *what, int m, int n, int k, const float *C, const float *ref, const float *absref)
{
    /* Per element: gamma_k * sum|a||b| (any order of the k float adds, FMA
     * or not) + one rounding of the reference to float + 1e-30 for results
     * near zero that underflow. */
    double g = gemm_tolerance(k);
    size_t bad = 0, first = 0, total = (size_t)m * (size_t)n;
    for (size_t x = 0; x < total; x++) {
        double got = C[x], want = ref[x];
        double tol = g * absref[x] * (1 + 0x1p-23) + 0x1p-24 * fabs(want) + 1e-30;
        if (!(fabs(got - want) <= tol)) {
            if (bad++ == 0) first = x;
        }
    }
    if (!bad) return 0;
    fprintf(stderr, "%s: %zu of %zu elements wrong (m=%d n=%d k=%d); first bad index %zu (row %zu, column %zu)\n",
            what, bad, total, m, n, k, first, first / (size_t)n, first % (size_t)n);
    int shown = 0;
    for (size_t x = first; x < total && shown < 10; x++) {
        double got = C[x], want = ref[x];
        double tol = g * absref[x] * (1 + 0x1p-23) + 0x1p-24 * fabs(want) + 1e-30;
        if (fabs(got - want) <= tol) continue;
        fprintf(stderr, "  [%zu][%zu] got %.9g, want %.9g (tolerance %.3g)\n", x / (size_t)n, x % (size_t)n, got,
                want, tol);
        shown++;
    }
    return 1;
}
