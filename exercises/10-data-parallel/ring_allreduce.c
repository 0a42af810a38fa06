/* exercises/10-data-parallel/ring_allreduce.c: exercise 10.1, the ring
 * all-reduce from nothing but send and receive.
 *
 * What it teaches: how the all-reduce every data-parallel step ends with is
 * built, and why the ring is the one that scales in bandwidth. The buffer is
 * cut into p chunks; in p-1 steps of "send one chunk right, receive one from
 * the left, add it in" every rank ends up owning one fully summed chunk
 * (reduce-scatter); in p-1 more steps of "pass the chunk you got last step"
 * the finished chunks go round the ring (all-gather). Each rank sends
 * 2(p-1) chunks of n/p floats: 2(p-1)/p of the buffer, whatever p.
 *
 * Check your work:  make ex-10.1   (1, 2, 3, 5, 8 and 13 ranks, lengths the
 * rank count does not divide, bitwise-identical replicas, and the modelled
 * time against 2(p-1)(alpha + (n/p) beta)).
 * The answer is in solutions/10-data-parallel/ring_allreduce.c: try first.
 */
#include "exercise.h"
#include "ring_allreduce.h"

void ring_allreduce(pw_rank *r, float *buf, size_t n)
{
    /* TODO: the ring all-reduce.
     *  0. p = pw_rank_size(r), me = pw_rank_id(r); with one rank there is
     *     nothing to do. right = (me + 1) % p, left = (me + p - 1) % p.
     *  1. Chunk k is elements [coll_chunk_begin(n, p, k), coll_chunk_begin(n, p, k + 1))
     *     (include "collectives.h"): sizes differ by one when p does not
     *     divide n, and some are empty when n < p. Keep the arithmetic
     *     mod p non-negative: ((x % p) + p) % p.
     *  2. Reduce-scatter, steps s = 0 .. p-2: send chunk (me - s) to the
     *     right, receive chunk (me - s - 1) from the left into a scratch
     *     buffer, add it into your chunk (me - s - 1). SEND FIRST: sends here
     *     are eager (they return at once), so a ring where everyone sends
     *     before receiving cannot deadlock; one where everyone receives first
     *     does. After the last step chunk (me + 1) holds the full sum.
     *  3. All-gather, steps s = 0 .. p-2: send chunk (me + 1 - s), the one
     *     finished or received last, to the right; receive chunk (me - s)
     *     from the left straight into place (no adding: it is finished).
     *  4. Free the scratch buffer.
     * Why the sums are bitwise identical on every rank: each chunk is added
     * up once, on one rank, and then only copied. Then delete the lines below. */
    (void)r;
    (void)buf;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}
