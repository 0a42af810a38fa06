/* tests/wrong/6.2-calls-library.c: exercise 6.2 answered by calling the
 * workbook's own blocked transpose (kernels/transpose.c). Every value is
 * right, and it is fast.
 * expect: FAIL: 6.2-calls-library.c calls transpose_blocked\(\) */
#include "transpose.h"

void transpose_blocked(const float *in, float *out, size_t rows, size_t cols, size_t block);

void transpose_tiles(const float *in, float *out, size_t rows, size_t cols, size_t tile)
{
    transpose_blocked(in, out, rows, cols, tile);
}
