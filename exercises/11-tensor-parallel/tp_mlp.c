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
 * The task: one rank's forward and backward pass of the split MLP, and the
 * two all-reduces it needs, in the right places.
 *
 * The interface (tp_mlp.h, which gives the shapes of every buffer):
 *   void tp_mlp_rank(pw_comm *c, tp_mlp_io *io);
 *   - called on each of the t = c->size ranks at once; this rank holds f/t
 *     columns of A and the same f/t rows of B; X and dY are whole on every
 *     rank;
 *   - out: the whole Y and dX on every rank (the same bits on all), and
 *     this rank's slices dA and dB;
 *   - GeLU and its derivative: tp_gelu, tp_gelu_grad (tp_mlp.h);
 *     communicate with coll_allreduce_ring only where the split needs it;
 *   - scratch: allocate it and free it (a rank's stack is small).
 *
 * What the checker tries (check_tp_mlp.c): (n, h, f, t) = (6, 8, 32, 1),
 * (6, 8, 32, 2), (5, 12, 48, 3), (7, 8, 32, 4), (3, 10, 40, 5), (4, 6, 24, 8);
 * Y, dA, dB and dX against the unsplit MLP in double, to 1e-4 of the
 * largest entry; Y and dX the same bits on every rank; and the bytes each
 * rank sent against two ring all-reduces of n h floats, 2 x 2(t-1)/t x 4 n h.
 *
 *   make ex-11.1      grade this file (each failure is explained)
 *   make hint-11.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/11-tensor-parallel/tp_mlp.c: try first.
 */
#include "exercise.h"
#include "tp_mlp.h"

void tp_mlp_rank(pw_comm *c, tp_mlp_io *io)
{
    /* TODO: forward, then backward. Then delete the placeholder lines below. */
    (void)c;
    (void)io;
    PW_NOT_YET_IMPLEMENTED();
}
