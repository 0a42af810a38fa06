/* kernels/transpose.c: see transpose.h for what each variant does and why. */
#include "transpose.h"

void transpose_naive(const float *in, float *out, size_t rows, size_t cols)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) out[c * rows + r] = in[r * cols + c];
}

/* One tile: rows [r0, r1) and columns [c0, c1) of in. */
static void transpose_tile(const float *restrict in, float *restrict out, size_t rows, size_t cols,
                           size_t r0, size_t r1, size_t c0, size_t c1)
{
    for (size_t r = r0; r < r1; r++)
        for (size_t c = c0; c < c1; c++) out[c * rows + r] = in[r * cols + c];
}

void transpose_blocked(const float *in, float *out, size_t rows, size_t cols, size_t block)
{
    if (block == 0) block = 1;
    for (size_t r0 = 0; r0 < rows; r0 += block) {
        size_t r1 = r0 + block < rows ? r0 + block : rows;          /* the last tile row may be short */
        for (size_t c0 = 0; c0 < cols; c0 += block) {
            size_t c1 = c0 + block < cols ? c0 + block : cols;      /* and the last tile column */
            transpose_tile(in, out, rows, cols, r0, r1, c0, c1);
        }
    }
}

void transpose_ref(const float *in, float *out, size_t rows, size_t cols)
{
    for (size_t c = 0; c < cols; c++)
        for (size_t r = 0; r < rows; r++) out[c * rows + r] = in[r * cols + c];
}

size_t transpose_first_mismatch(const float *in, const float *out, size_t rows, size_t cols)
{
    for (size_t c = 0; c < cols; c++)
        for (size_t r = 0; r < rows; r++)
            if (out[c * rows + r] != in[r * cols + c]) return c * rows + r;
    return (size_t)-1;
}
