/* common/simt/simt_wmma.c: the emulator's Tensor Cores (what common/simt/cuda/mma.h's
 * nvcuda::wmma calls; the lanes' records are described in simt_wmma.h).
 *
 * The layout. CUDA does not say which lane holds which element of a
 * fragment, so a kernel may only treat fragment::x[] as a bag (scale every
 * element, say). The emulator's default layout is the one the hardware's
 * mma.m16n8k16 instruction uses (PTX ISA, "Matrix Fragments for
 * mma.m16n8k16"): lane l = 4g + t holds rows g and g + 8 and columns 2t,
 * 2t + 1 (+ 8) of A and C, and of B rows 2t, 2t + 1 (+ 8), column g (+ 8) —
 * not the obvious "lane l holds row l/2". A __half A or B fragment holds
 * every element twice (16 per lane, as CUDA's num_elements says): the second
 * 8 are lane (l + 16) % 32's first 8. With a scramble seed each fragment
 * kind gets a random layout instead, so a kernel that guessed one fails.
 *
 * The arithmetic. mma_sync computes D = A B + C for the 16 x 16 x 16 tile.
 * Each product of two fp16 or bf16 values is exact in double (11 + 11 and
 * 8 + 8 significant bits); the 16 products and C are added in double and
 * rounded once to float. Real Tensor Cores also multiply exactly, but align
 * and truncate in their adders (Fasi, Higham, Mikaitis, Pranesh: "Numerical
 * behavior of NVIDIA tensor cores", PeerJ CS 2021), so a GPU's last bit can
 * differ: checks allow fp32 rounding per k-step, which covers both.
 */
#include "simt_wmma.h"
#include "simt_api.h"
void simt_device_idle(void);   /* simt_stream.c: wait for the work issued so far */

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* ---- the layouts --------------------------------------------------------------- */

static uint8_t layout[PW_WK_COUNT][32][16];   /* element (row * 16 + col) of lane l's x[i] */
static uint64_t scramble_seed;
static pthread_once_t layout_once = PTHREAD_ONCE_INIT;

static int is_a(int kind) { return kind == PW_WK_A_ROW_F16 || kind == PW_WK_A_COL_F16 || kind == PW_WK_A_ROW_BF16 || kind == PW_WK_A_COL_BF16; }
static int is_b(int kind) { return kind == PW_WK_B_ROW_F16 || kind == PW_WK_B_COL_F16 || kind == PW_WK_B_ROW_BF16 || kind == PW_WK_B_COL_BF16; }
static int elem_bytes(int kind) { return kind == PW_WK_ACC_F32 ? 4 : 2; }
static int is_bf16(int kind) { return kind >= PW_WK_A_ROW_BF16 && kind <= PW_WK_B_COL_BF16; }

/* The hardware's layout, 8 elements per lane (see the top of the file). */
static int hw_element(int kind, int lane, int i)
{
    int g = lane >> 2, t = lane & 3, j = i & 3;
    if (is_b(kind)) {                           /* k x n: i < 4 columns 0-7, i >= 4 columns 8-15 */
        int k = 2 * t + (j & 1) + 8 * (j >> 1), n = g + 8 * (i >> 2);
        return k * 16 + n;
    }
    if (is_a(kind)) {                           /* m x k: pairs (g, 2t), (g + 8, 2t), (g, 2t + 8), (g + 8, 2t + 8) */
        int r = g + 8 * ((i >> 1) & 1), c = 2 * t + (i & 1) + 8 * (i >> 2);
        return r * 16 + c;
    }
    int r = g + 8 * (j >> 1), c = 2 * t + (j & 1) + 8 * (i >> 2);   /* the accumulator, m x n */
    return r * 16 + c;
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void shuffled(uint8_t perm[256], uint64_t *s)
{
    for (int e = 0; e < 256; e++) perm[e] = (uint8_t)e;
    for (int e = 255; e > 0; e--) {
        int j = (int)(next_random(s) % (uint64_t)(e + 1));
        uint8_t x = perm[e];
        perm[e] = perm[j];
        perm[j] = x;
    }
}

static void build_layouts(uint64_t seed)
{
    for (int kind = 0; kind < PW_WK_COUNT; kind++) {
        uint8_t first[256], second[256];
        uint64_t s = (seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(kind + 1))) | 1;
        shuffled(first, &s);
        shuffled(second, &s);
        for (int l = 0; l < 32; l++)
            for (int i = 0; i < PW_WMMA_ELEMS(kind); i++) {
                int base = i < 8 ? l : (l + 16) & 31, ii = i & 7;     /* x[8..15]: another lane's first 8 */
                layout[kind][l][i] = seed ? (i < 8 ? first : second)[l * 8 + ii]
                                          : (uint8_t)hw_element(kind, base, ii);
            }
    }
    scramble_seed = seed;
}

static void layouts_from_environment(void)
{
    uint64_t seed = 0;
    const char *e = getenv("PW_SIMT_WMMA_SCRAMBLE");
    if (e && *e) {
        char *end;
        seed = strtoull(e, &end, 10);
        if (*end) {
            fprintf(stderr, "simt: PW_SIMT_WMMA_SCRAMBLE=%s: not a whole number (a seed; 0 is the fixed layout)\n", e);
            exit(2);
        }
    }
    build_layouts(seed);
}

static void ensure_layouts(void) { pthread_once(&layout_once, layouts_from_environment); }

void pw_simt_set_wmma_scramble(uint64_t seed)
{
    simt_device_idle();           /* a launch still running keeps its layout */
    ensure_layouts();
    build_layouts(seed);
}

uint64_t pw_simt_wmma_scramble(void)
{
    ensure_layouts();
    return scramble_seed;
}

int pw_wmma_element(int kind, int lane, int i)
{
    ensure_layouts();
    if (kind < 0 || kind >= PW_WK_COUNT || lane < 0 || lane > 31 || i < 0 || i >= PW_WMMA_ELEMS(kind)) return -1;
    return layout[kind][lane][i];
}

/* ---- values -------------------------------------------------------------------- */

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024, e - 25);
    return h >> 15 ? -v : v;
}

static double bf16_value(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double input_value(int kind, const unsigned char *p)
{
    uint16_t h;
    memcpy(&h, p, 2);
    return is_bf16(kind) ? bf16_value(h) : half_value(h);
}

/* ---- the warp functions --------------------------------------------------------- */

static const char *kind_text(int kind)
{
    static const char *t[] = { "matrix_a __half row_major", "matrix_a __half col_major", "matrix_b __half row_major",
                               "matrix_b __half col_major", "matrix_a __nv_bfloat16 row_major",
                               "matrix_a __nv_bfloat16 col_major", "matrix_b __nv_bfloat16 row_major",
                               "matrix_b __nv_bfloat16 col_major", "accumulator float" };
    return t[kind];
}

/* CUDA: "mptr, ldm, layout and all template parameters must be the same
 * for all threads in the warp". */
static void lanes_agree(pw_wmma_lane *const *L, const char *what, const char *file, int line)
{
    for (int l = 1; l < 32; l++) {
        if (L[l]->mptr == L[0]->mptr && L[l]->ldm == L[0]->ldm && L[l]->col_major == L[0]->col_major) continue;
        pw_simt_fail("synccheck", cudaErrorLaunchFailure,
                     "%s at %s:%d: lane %d passed mptr %p, ldm %u, %s-major, but lane 0 passed mptr %p, ldm %u, "
                     "%s-major: every lane of the warp must pass the same pointer, ldm and layout (the warp "
                     "moves the tile together)", what, file, line, l, L[l]->mptr, L[l]->ldm,
                     L[l]->col_major ? "column" : "row", L[0]->mptr, L[0]->ldm, L[0]->col_major ? "column" : "row");
    }
}

/* Memory element (mrow, mcol) of lane l's part j (the order of simt_wmma.h). */
static void part_position(int eb, int l, int j, int *mrow, int *mcol)
{
    if (eb == 2) { *mrow = l >> 1; *mcol = (l & 1) * 8 + j; }
    else { *mrow = 8 * (j >> 2) + (l >> 2); *mcol = (l & 3) * 4 + (j & 3); }
}

static int tile_index(int col_major, int mrow, int mcol) { return col_major ? mcol * 16 + mrow : mrow * 16 + mcol; }

void pw_wmma_load(void *const lanes[32], const char *file, int line)
{
    pw_wmma_lane *const *L = (pw_wmma_lane *const *)lanes;
    lanes_agree(L, "wmma::load_matrix_sync", file, line);
    ensure_layouts();
    int kind = L[0]->kind[0], eb = elem_bytes(kind), cm = L[0]->col_major;
    unsigned char tile[256 * 4];
    for (int l = 0; l < 32; l++)
        for (int j = 0; j < 32 / eb; j++) {
            int r, c;
            part_position(eb, l, j, &r, &c);
            memcpy(tile + tile_index(cm, r, c) * eb, L[l]->part + j * eb, (size_t)eb);
        }
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < PW_WMMA_ELEMS(kind); i++)
            memcpy((unsigned char *)L[l]->frag[0] + i * eb, tile + layout[kind][l][i] * eb, (size_t)eb);
}

/* The tile a fragment holds, from every lane (each element from its first slot). */
static void gather(pw_wmma_lane *const *L, int which, unsigned char *tile)
{
    int kind = L[0]->kind[which], eb = elem_bytes(kind);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 8; i++)
            memcpy(tile + layout[kind][l][i] * eb, (const unsigned char *)L[l]->frag[which] + i * eb, (size_t)eb);
}

void pw_wmma_store(void *const lanes[32], const char *file, int line)
{
    pw_wmma_lane *const *L = (pw_wmma_lane *const *)lanes;
    lanes_agree(L, "wmma::store_matrix_sync", file, line);
    ensure_layouts();
    int kind = L[0]->kind[0], eb = elem_bytes(kind), cm = L[0]->col_major;
    unsigned char tile[256 * 4];
    gather(L, 0, tile);
    for (int l = 0; l < 32; l++)
        for (int j = 0; j < 32 / eb; j++) {
            int r, c;
            part_position(eb, l, j, &r, &c);
            memcpy(L[l]->part + j * eb, tile + tile_index(cm, r, c) * eb, (size_t)eb);
        }
}

void pw_wmma_fill(void *const lanes[32], const char *file, int line)
{
    pw_wmma_lane *const *L = (pw_wmma_lane *const *)lanes;
    for (int l = 1; l < 32; l++)
        if (L[l]->fill_bits != L[0]->fill_bits)
            pw_simt_fail("synccheck", cudaErrorLaunchFailure,
                         "wmma::fill_fragment at %s:%d: lane %d fills with bits 0x%x, lane 0 with 0x%x: which "
                         "element each lane holds is unspecified, so a fill that differs by lane gives a matrix "
                         "nobody can know; fill with one value in every lane", file, line, l,
                         (unsigned)L[l]->fill_bits, (unsigned)L[0]->fill_bits);
    int kind = L[0]->kind[0], eb = elem_bytes(kind);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < PW_WMMA_ELEMS(kind); i++)
            memcpy((unsigned char *)L[l]->frag[0] + i * eb, &L[l]->fill_bits, (size_t)eb);   /* little-endian */
}

void pw_wmma_mma(void *const lanes[32], const char *file, int line)
{
    (void)file;
    (void)line;
    pw_wmma_lane *const *L = (pw_wmma_lane *const *)lanes;
    ensure_layouts();
    unsigned char a[256 * 2], b[256 * 2];
    float c[256], d[256];
    gather(L, 0, a);
    gather(L, 1, b);
    gather(L, 2, (unsigned char *)c);
    int ka = L[0]->kind[0], kb = L[0]->kind[1];
    double av[256], bv[256];
    for (int e = 0; e < 256; e++) {
        av[e] = input_value(ka, a + 2 * e);
        bv[e] = input_value(kb, b + 2 * e);
    }
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 16; n++) {
            double s = c[r * 16 + n];
            for (int k = 0; k < 16; k++) s += av[r * 16 + k] * bv[k * 16 + n];
            d[r * 16 + n] = (float)s;
        }
    int kd = L[0]->kind[3];
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < PW_WMMA_ELEMS(kd); i++) ((float *)L[l]->frag[3])[i] = d[layout[kd][l][i]];
    pw_simt_count_mma();
}

void pw_wmma_check_pointer(const char *what, const void *mptr, unsigned ldm, int elem_bytes_, const char *file,
                           int line)
{
    if ((uintptr_t)mptr % 32)
        pw_simt_fail("memcheck", cudaErrorMisalignedAddress,
                     "%s at %s:%d: mptr %p is not 32-byte aligned: CUDA requires a 256-bit aligned pointer (a tile "
                     "that starts at a row or column that is not a multiple of 16 elements of a matrix with odd "
                     "rows is not; stage such tiles through shared memory)", what, file, line, mptr);
    if ((ldm * (unsigned)elem_bytes_) % 16)
        pw_simt_fail("memcheck", cudaErrorMisalignedAddress,
                     "%s at %s:%d: ldm %u is not a multiple of %d elements (16 bytes of %d-byte elements), as CUDA "
                     "requires: pad the rows of the matrix to a multiple of %d, or stage the tile through shared "
                     "memory with a padded leading dimension", what, file, line, ldm, 16 / elem_bytes_, elem_bytes_,
                     16 / elem_bytes_);
}

const char *pw_wmma_kind_text(int kind) { return kind >= 0 && kind < PW_WK_COUNT ? kind_text(kind) : "?"; }
