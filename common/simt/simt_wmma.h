/* common/simt/simt_wmma.h: the emulator's Tensor Cores, between the C++ API that
 * kernels call (common/simt/cuda/mma.h: nvcuda::wmma) and the C that does the
 * work (common/simt/simt_wmma.c).
 *
 * A wmma operation is a warp collective. Each lane fills a pw_wmma_lane
 * (its fragment's storage, the pointer and ldm it was given, and for loads
 * and stores the 16 or 32 bytes of the tile it moves itself) and calls
 * pw_simt_warp_call; when all 32 lanes are there, one of the functions
 * below sees every lane's record at once: it checks the lanes agree (CUDA
 * requires the same pointer, ldm and layout in every lane), then moves
 * elements between the tile and the lanes' fragments through the layout
 * tables, or multiplies.
 *
 * The memory traffic is the lanes' own: in mma.h each lane reads or writes
 * its part of the tile with a plain 16-byte access, so the emulator counts
 * sectors and bank conflicts, and checks bounds and initialisation, exactly
 * as for any other access. The parts are the ones an ldmatrix-style load
 * uses: a 16 x 16 tile of 2-byte elements is 16 rows of 32 bytes, lane l
 * moving row l/2, bytes 16 (l%2) to 16 (l%2) + 15; a tile of floats is 16
 * rows of 64 bytes, moved in two steps of 8 rows, lane l moving row 8s + l/4,
 * bytes 16 (l%4) to 16 (l%4) + 15. ("Row" is a row of memory: a column of
 * the tile when the layout is column-major.)
 */
#ifndef PW_SIMT_WMMA_H
#define PW_SIMT_WMMA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The fragment kinds the emulator has: 16 x 16 x 16 only. */
enum {
    PW_WK_A_ROW_F16, PW_WK_A_COL_F16, PW_WK_B_ROW_F16, PW_WK_B_COL_F16,
    PW_WK_A_ROW_BF16, PW_WK_A_COL_BF16, PW_WK_B_ROW_BF16, PW_WK_B_COL_BF16,
    PW_WK_ACC_F32, PW_WK_COUNT
};
/* Elements per lane, as CUDA's own headers give them (num_elements): a
 * __half A or B fragment holds 16, so each of the tile's 256 elements sits
 * in two lanes; a __nv_bfloat16 one 8; a float accumulator 8. */
#define PW_WMMA_ELEMS(kind) ((kind) <= PW_WK_B_COL_F16 ? 16 : 8)

enum { PW_WOP_FILL, PW_WOP_LOAD, PW_WOP_STORE, PW_WOP_MMA };

typedef struct {
    int op;
    int kind[4];                /* load/store/fill: kind[0]; mma: A, B, C, D */
    void *frag[4];              /* this lane's fragment elements (fragment::x) */
    const void *mptr;           /* load/store */
    unsigned ldm;
    int col_major;              /* the memory layout: 1 column-major */
    uint32_t fill_bits;         /* fill: the value's bits */
    unsigned char part[32];     /* load/store: the bytes this lane moves, in memory order */
} pw_wmma_lane;

/* The warp functions (pw_simt_warp_fn). */
void pw_wmma_fill(void *const lanes[32], const char *file, int line);
void pw_wmma_load(void *const lanes[32], const char *file, int line);
void pw_wmma_store(void *const lanes[32], const char *file, int line);
void pw_wmma_mma(void *const lanes[32], const char *file, int line);
/* CUDA's rules for load/store_matrix_sync, checked in the calling lane
 * before it touches memory: mptr 256-bit (32-byte) aligned, ldm a multiple
 * of 16 bytes (8 __half or __nv_bfloat16 elements, 4 floats). */
void pw_wmma_check_pointer(const char *what, const void *mptr, unsigned ldm, int elem_bytes, const char *file,
                           int line);
/* Where element i of lane `lane`'s fragment of `kind` sits in the tile:
 * row * 16 + column (of the tile as a matrix: A is m x k, B k x n). */
int pw_wmma_element(int kind, int lane, int i);
/* The kind in words ("matrix_a __half row_major"). */
const char *pw_wmma_kind_text(int kind);

#ifdef __cplusplus
}
#endif
#endif
