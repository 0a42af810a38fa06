/* kernels/gemm.h: chapter 07's GEMM ladder, C = A*B in single precision.
 *
 * All matrices are row-major and dense: A is m x k, B is k x n, C is m x n;
 * C is overwritten (beta = 0). The rungs, in ladder order:
 *   0_openblas  cblas_sgemm, the baseline (only where OpenBLAS was linked)
 *   1_naive     i, j, k loops: the inner loop walks a column of B
 *   2_ikj       the same loops in i, k, j order: rows of B and C, vectorisable
 *   3_blocked   2_ikj over tiles that fit in L1/L2 (no copies)
 *   4_simd      BLIS/GotoBLAS structure: B and A packed into contiguous
 *               panels (NC x KC, MC x KC), an MR x NR tile of C held in
 *               registers by an intrinsics micro-kernel (AVX-512, AVX2+FMA,
 *               SSE, NEON or scalar, picked at run time)
 *   5_omp       4_simd with OpenMP threads, each on its own rows of C
 *               (whole MR slivers) and the packing of B shared among them
 *
 * Costs (used by every rate the chapter prints):
 *   flops  2mnk: one multiply and one add per (i, j, k) term.
 *   bytes  4(mk + kn + 2mn): the compulsory DRAM traffic of a GEMM whose
 *          operands are read once: A and B read once, and every line of C
 *          both read (a store to a line not in cache first fetches it:
 *          write-allocate) and written back. What a rung really moves is
 *          more (the naive rung re-reads B n times); the roofline point uses
 *          this lower bound, as rooflines do, so every rung sits at the same
 *          intensity and the height alone shows how well it used the machine.
 *
 * The reference gemm_ref computes in double, and gemm_ref_abs the sum of
 * |a||b| per element that bounds the rounding error (see gemm_tolerance).
 */
#ifndef PW_GEMM_H
#define PW_GEMM_H

#include "probe.h"

#include <stdbool.h>
#include <stddef.h>

typedef void (*gemm_fn)(int m, int n, int k, const float *A, const float *B, float *C);

/* One rung of the ladder. */
typedef struct gemm_rung {
    const char *name;      /* "4_simd": number, then idea; the CSV's variant */
    const char *idea;      /* one line: what this rung changes */
    gemm_fn run;
    bool needs_blas;       /* rung 0: only where OpenBLAS was linked */
    bool threaded;         /* runs on gemm_set_threads() threads */
} gemm_rung;

int gemm_rung_count(void);
const gemm_rung *gemm_rung_at(int i);             /* in ladder order, rung 0 = OpenBLAS */
const gemm_rung *gemm_rung_find(const char *name); /* by name or by number ("4"); NULL if none */
const char *gemm_rung_name(const gemm_rung *r);
bool gemm_rung_available(const gemm_rung *r);     /* OpenBLAS linked (rung 0); the others always */
/* C = A*B: r's method, with the micro-kernel gemm_use_isa chose and the
 * threads gemm_set_threads set (rungs 0 and 5; the others are sequential). */
void gemm_rung_run(const gemm_rung *r, int m, int n, int k, const float *A, const float *B, float *C);

double gemm_flops(int m, int n, int k);           /* 2mnk */
double gemm_bytes(int m, int n, int k);           /* 4(mk + kn + 2mn), see above */

/* ---- settings ------------------------------------------------------------ */

/* The micro-kernel's ISA. gemm_isa_runs_here says whether this CPU and build
 * can run it (the probe's answer; NEON only on AArch64, the x86 ones only on
 * x86); gemm_use_isa picks it (false, and nothing changes, if it cannot run).
 * The default is the widest the probe finds. */
bool gemm_isa_runs_here(pw_isa isa);
bool gemm_use_isa(pw_isa isa);
pw_isa gemm_isa(void);

/* Threads for rungs 0 and 5 (default: the logical cores). */
void gemm_set_threads(int threads);
int gemm_threads(void);

/* The blocking of rungs 4 and 5, derived from the caches and the tile. */
typedef struct {
    int mr, nr;        /* the micro-tile: MR rows x NR columns of C in registers */
    int kc;            /* depth of a packed panel: a KC x NR sliver of B fills part of L1 */
    int mc;            /* rows of the packed A block: MC x KC fills part of L2 */
    int nc;            /* columns of the packed B panel: KC x NC fills part of L3 */
    const char *why;   /* the tile shape's derivation, one line */
} gemm_blocking;
gemm_blocking gemm_get_blocking(void);
/* Override KC/MC/NC (0 keeps one); rounded to multiples of the tile. */
void gemm_set_blocking(int kc, int mc, int nc);

/* The micro-tile shapes of the chosen ISA ("14x32,8x48,6x64"), and the
 * choice of one (false if the ISA has no such shape). */
const char *gemm_tile_shapes(void);
bool gemm_use_tile(int mr, int nr);

/* Rung 3's block of B: KB rows (this number) x 4 KB columns, a quarter of L2. */
int gemm_block_tile(void);

/* ---- the pieces of rungs 4 and 5 (exercise 7.1 rewrites the packing) ---- */

/* Pack rows [0, mc) x columns [0, kc) of A (leading dimension lda) into
 * ceil(mc/MR) slivers; sliver s holds, for p = 0..kc-1, the MR values
 * A[s*MR + i][p] (i = 0..MR-1) one after the other: Ap[(s*kc + p)*MR + i].
 * Rows past mc are zeros, so the micro-kernel always multiplies full tiles. */
void gemm_pack_a(int mc, int kc, const float *A, int lda, int mr, float *Ap);
/* The same for B's rows [0, kc) x columns [0, nc) (leading dimension ldb)
 * in NR-wide slivers: Bp[(s*kc + p)*NR + j] = B[p][s*NR + j], zeros past nc. */
void gemm_pack_b(int kc, int nc, const float *B, int ldb, int nr, float *Bp);

typedef void (*gemm_pack_fn)(int rows_or_depth, int cols_or_depth, const float *X, int ld, int tile, float *Xp);
/* Rung 4 with other packing functions (NULL: the kernel's own), for the
 * exercise's checker: the same blocking and micro-kernel. */
void gemm_simd_with(int m, int n, int k, const float *A, const float *B, float *C,
                    gemm_pack_fn pack_a, gemm_pack_fn pack_b);

/* Rungs 4 and 5 keep their packed buffers (a few MiB) per calling thread
 * between calls; this frees the calling thread's. A thread that called
 * them should call it before it ends. */
void gemm_release_buffers(void);

/* Seconds spent packing in the last gemm_rung_run of rung 4 or 5 (for rung
 * 5: by the thread that packed the most), measured with the clock. */
double gemm_last_pack_seconds(void);

/* ---- the rungs by name (the table holds these) ---------------------------- */
void gemm_openblas(int m, int n, int k, const float *A, const float *B, float *C);
void gemm_naive(int m, int n, int k, const float *A, const float *B, float *C);
void gemm_ikj(int m, int n, int k, const float *A, const float *B, float *C);
void gemm_blocked(int m, int n, int k, const float *A, const float *B, float *C);
void gemm_simd(int m, int n, int k, const float *A, const float *B, float *C);
void gemm_omp(int m, int n, int k, const float *A, const float *B, float *C);

/* ---- reference and tolerance ------------------------------------------------ */

/* C = A*B in double (sum of k products, each exact in double), rounded to
 * float at the end; absC (if not NULL) gets sum_p |A[i][p]*B[p][j]|. */
void gemm_ref(int m, int n, int k, const float *A, const float *B, float *C, float *absC);
/* The error bound of one k-term float dot product in any order, with or
 * without FMA: |got - exact| <= gamma_k * sum|a||b|, gamma_k = k*u/(1 - k*u),
 * u = 2^-24 (Higham, Accuracy and Stability, 3.1). Returns gamma_k, plus one
 * rounding of the exact result to float. */
double gemm_tolerance(int k);
/* One element of the reference, for spot checks of a large product:
 * sum_p A[i][p]*B[p][j] in double, and sum_p |A[i][p]*B[p][j]| in *abs. */
double gemm_ref_entry(int n, int k, const float *A, const float *B, int i, int j, double *abs);
/* Check C against ref elementwise with that bound: 0 if all match, else 1
 * after printing (to stderr) the count, the first bad index (row, column)
 * and a few (got, want) pairs. */
int gemm_check(const char *what, int m, int n, int k, const float *C, const float *ref, const float *absref);

/* OpenBLAS's own description (openblas_get_corename, openblas_get_config),
 * or "not linked". */
const char *gemm_openblas_corename(void);
const char *gemm_openblas_config(void);

#endif
