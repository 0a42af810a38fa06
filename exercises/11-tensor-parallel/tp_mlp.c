/* exercises/11-tensor-parallel/tp_mlp.c: exercise 11.1, the Megatron split
 * of an MLP: A by columns, B by rows, and the one all-reduce each way.
 *
 * What it teaches: with A split by columns, each rank computes its own
 * columns of Z = X A from the whole X, with no communication, and GeLU is
 * element-wise, so it needs none either. With B split by rows, each rank's
 * G_r B_r is a partial sum of Y = G B: one all-reduce makes the whole Y.
 * Backward, the mirror image: dZ_r and the weight gradients are local, but
 * dX = dZ A^T is a sum over the column slices: one all-reduce again. Two
 * all-reduces of n x h floats per forward + backward, whatever t.
 *
 * Check your work:  make ex-11.1   (t = 1, 2, 3, 4, 5, 8 on odd sizes: Y, dX,
 * dA and dB against the unsplit MLP, the same bits of Y and dX on every rank,
 * and the bytes each rank sent against 2 x 2(t-1)/t x 4 n h).
 * The answer is in solutions/11-tensor-parallel/tp_mlp.c: try first.
 */
#include "exercise.h"
#include "tp_mlp.h"

void tp_mlp_rank(pw_comm *c, tp_mlp_io *io)
{
    /* TODO, with fl = io->f / c->size columns on this rank:
     *  forward
     *   1. Z = X A_r (n x fl), then G = GeLU(Z) (tp_gelu): keep Z for the backward.
     *   2. Y_r = G B_r (n x h): a partial sum. Make it whole: coll_allreduce_ring(c, y, n h).
     *  backward (dY is whole on every rank)
     *   3. dB_r = G^T dY (fl x h); dG = dY B_r^T (n x fl); dZ = dG * GeLU'(Z) (tp_gelu_grad).
     *   4. dA_r = X^T dZ (h x fl): this rank's slice, no communication.
     *   5. dX = dZ A_r^T (n x h): a partial sum over the slices: all-reduce it.
     * Scratch: allocate it (malloc) and free it; a rank's stack is small.
     * Then delete the lines below. */
    (void)c;
    (void)io;
    PW_NOT_YET_IMPLEMENTED();
}
