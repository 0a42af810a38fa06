/* exercises/08-cuda-warps/bank_conflicts.h: what puzzle 8.19 asks you to write. */
#ifndef PW_EX_BANK_CONFLICTS_H
#define PW_EX_BANK_CONFLICTS_H

#include "simt.h"

#define BC_TILE 32   /* a block transposes a 32 x 32 tile: one warp's width each way */
#define BC_ROWS 8    /* blocks of 32 x 8 threads: each thread moves 32 / 8 = 4 elements of its tile */

/* out = the transpose of in: in is rows x cols, out is cols x rows, both
 * stored row by row: out[c * rows + r] = in[r * cols + c]. Through a tile in
 * shared memory, so that both the reads of in and the writes of out are
 * coalesced, and with no bank conflict in the tile. */
__global__ void transpose_tiled(const float *in, float *out, int rows, int cols);

/* Given (do not change it): a grid of ceil(cols / 32) x ceil(rows / 32)
 * blocks of 32 x 8 threads, one block per tile. */
PW_SIMT_EXTERN_C void transpose_tiled_launch(const float *d_in, float *d_out, int rows, int cols);

#endif
