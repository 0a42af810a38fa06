/* exercises/16-sharded-data-parallel/bucket_hook.c: exercise 16.2, gradient
 * buckets that overlap the all-reduce with the backward pass.
 *
 * The task: data-parallel training all-reduces every gradient each step.
 * Waiting for the whole backward pass and then sending everything leaves
 * the links idle during backward and the GPUs idle during the all-reduce.
 * Sending each tensor as soon as it is ready overlaps them, but pays the
 * latency alpha of an all-reduce (2(p-1) alpha on a ring) once per tensor,
 * and models have hundreds of small tensors (biases, norms). PyTorch's DDP
 * (Li et al., VLDB 2020) does what this exercise does: collect tensors, in
 * the order backward finishes them, into buckets of at most bucket_bytes,
 * and start each bucket's all-reduce the moment it is full, on a second
 * stream. Why it is a lesson: the bucket size trades latency against
 * overlap, and the order buckets fire in decides how much communication
 * the backward pass hides.
 *
 * The interface (bucket_hook.h; the rule is written out there):
 *   void bucket_ready(bucket_hook *h, size_t offset, size_t len);
 *   void bucket_flush(bucket_hook *h);
 *   - bucket_ready: called once per tensor, last layer first, with the
 *     tensor's place in h->grads (elements); keep the open bucket in
 *     h->open_offset and h->open_len; start a bucket's all-reduce with
 *     bucket_launch(h, offset, len) (provided: it runs on the communication
 *     stream and returns at once);
 *   - bucket_flush: after the last tensor; launch what is still open;
 *   - bucket_bytes is in bytes, len in floats (4 bytes each);
 *   - not the library's all-reduce: bucket_launch is the only way to send.
 *
 * What the checker tries (check_bucket_hook.c): five models (equal tensors
 * that fill a bucket exactly, weights and biases of mixed sizes, a tensor
 * larger than a bucket, a bucket larger than the model, a bucket smaller
 * than every tensor) on 4 ranks, and one on 16 ranks over two nodes. For
 * each: the gradients must equal a plain all-reduce's, no bucket may hold
 * more than bucket_bytes unless it is one tensor, the buckets must be the
 * rule's and fire in its order at its moments, and the communication left
 * exposed after the backward pass must be no more than the rule's.
 *
 *   make ex-16.2      grade this file (each failure is explained)
 *   make hint-16.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/16-sharded-data-parallel/bucket_hook.c: try first.
 */
#include "exercise.h"
#include "bucket_hook.h"

void bucket_ready(bucket_hook *h, size_t offset, size_t len)
{
    /* TODO: the rule in bucket_hook.h. Then delete the placeholder lines below. */
    (void)h;
    (void)offset;
    (void)len;
    PW_NOT_YET_IMPLEMENTED();
}

void bucket_flush(bucket_hook *h)
{
    /* TODO: launch the open bucket, if any. */
    (void)h;
    PW_NOT_YET_IMPLEMENTED();
}
