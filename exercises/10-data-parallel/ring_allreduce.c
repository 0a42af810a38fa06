/* exercises/10-data-parallel/ring_allreduce.c: exercise 10.1, the ring
 * all-reduce from nothing but send and receive.
 *
 * The task: every rank holds a buffer of n floats; afterwards every rank
 * holds their element-wise sum. Build it as a ring: each rank talks only to
 * its right neighbour (sends) and its left one (receives), and the buffer
 * travels in p chunks. First a reduce-scatter (p-1 steps that leave each
 * rank owning one fully summed chunk), then an all-gather (p-1 steps that
 * pass the finished chunks round). Why it is a lesson: this is the
 * all-reduce that ends every data-parallel training step, and the reason
 * the ring scales in bandwidth: each rank sends 2(p-1) chunks of n/p
 * floats, 2(p-1)/p of the buffer, about twice the buffer whatever p is.
 * Working out which chunk travels at which step is the exercise.
 *
 * The interface (ring_allreduce.h):
 *   void ring_allreduce(pw_rank *r, float *buf, size_t n);
 *   - called on every rank of the virtual cluster at once, each with its own
 *     buf of n floats; on return each buf holds the sum over all ranks, the
 *     same bits on every rank (replicas that differ in the last bit drift
 *     apart, step after step of training);
 *   - tools: pw_rank_id, pw_rank_size, pw_send, pw_recv (common/cluster/cluster.h;
 *     pw_send returns at once, the data copied; pw_recv waits for the next
 *     message from that rank, of exactly that many bytes) and
 *     coll_chunk_begin(n, p, k), where chunk k starts (kernels/collectives.h:
 *     chunks differ in size by one when p does not divide n);
 *   - not the library's coll_allreduce_ring: that is the answer;
 *   - edge cases: p = 1 (nothing to do), n < p (some chunks are empty), n
 *     not a multiple of p.
 *
 * What the checker tries (check_ring_allreduce.c): 1, 2, 3, 5, 8 and 13
 * ranks with n = 1, 2, 3, 7, 64, 1001, 4099, whole-number data (the sum is
 * exact: checked with ==, and the 8 floats either side of buf must not
 * change); random reals on 3, 5, 8 and 13 ranks (every rank the same bits,
 * within p^2 2^-24 of the exact sum); and the modelled time against
 * 2(p-1)(alpha + (n/p) 4 beta) to 1e-9, also on 16 ranks over two nodes. A
 * deadlock is reported by the cluster, naming who waits for whom.
 *
 *   make ex-10.1      grade this file (each failure is explained)
 *   make hint-10.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/10-data-parallel/ring_allreduce.c: try first.
 */
#include "exercise.h"
#include "ring_allreduce.h"

void ring_allreduce(pw_rank *r, float *buf, size_t n)
{
    /* TODO: the ring. Then delete the placeholder lines below. */
    (void)r;
    (void)buf;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}
