/* exercises/08-cuda-warps/broadcast.cu: GPU puzzle 8.9, broadcast.
 *
 * The task: out(r, c) = a[r] + b[c], a column vector of rows numbers plus a
 * row vector of cols numbers, "broadcast" to a rows x cols matrix (out is
 * stored row by row: out(r, c) is out[r * cols + c]). One 2D block of
 * bx x by threads covers the matrix with threads to spare, as in 8.8. Why it
 * is a lesson: the inputs are not the shape of the output. a[r] is read by
 * every thread of row r, b[c] by every thread of column c; each thread
 * still makes only its own two reads and one write.
 *
 * The budget: each thread makes at most 2 global reads (a[r], b[c]) and 1
 * global write (out(r, c)); in all 2 x rows x cols reads and rows x cols
 * writes (a thread with no cell touches nothing).
 *
 * What the checker tries (check_broadcast.c), on the SIMT emulator: 2 x 5 in
 * a 6 x 3 block with the access picture, then 8.8's shapes: 1 x 1 in 4 x 4,
 * 5 x 2 in 3 x 6, 7 x 7 in 8 x 8, 3 x 30 in 32 x 4, 30 x 3 in 4 x 32, 31 x 31
 * in 32 x 32 (rows x cols, then bx x by). a, b and out are allocated with
 * exactly rows, cols and rows x cols elements, so the emulator stops a
 * kernel that reads a[c] where it meant a[r] on a matrix wider than tall;
 * the checker then names the mistake from a second run on longer arrays.
 *
 *   make ex-8.9      grade this file (it prints the access picture)
 *   make hint-8.9    one more hint level each time (3 levels)
 * The answer is in solutions/08-cuda-warps/broadcast.cu: try first.
 */
#include "exercise.h"
#include "broadcast.h"

__global__ void broadcast(const float *a, const float *b, float *out, int rows, int cols)
{
    /* TODO: 8.8's row, column and guard; then which element of a, and which of b, does cell (r, c) need?
     * Then delete the placeholder line below. */
    (void)a; (void)b; (void)out; (void)rows; (void)cols;
}

void broadcast_launch(const float *d_a, const float *d_b, float *d_out, int rows, int cols, int bx, int by)
{
    broadcast<<<1, dim3(bx, by)>>>(d_a, d_b, d_out, rows, cols);
    PW_NOT_YET_IMPLEMENTED();   /* delete this line when broadcast is written */
}
