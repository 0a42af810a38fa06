/* tests/wrong/16.2-calls-library.c: exercise 16.2 that all-reduces each full
 * bucket itself with the library's ring, on the compute stream: the sums are
 * right, but the all-reduce is off limits (and nothing overlaps).
 * expect: FAIL: 16.2-calls-library.c calls coll_allreduce_ring\(\) */
#include "bucket_hook.h"

static void launch_open(bucket_hook *h)
{
    if (h->open_len) coll_allreduce_ring(h->comm, h->grads + h->open_offset, h->open_len);
    h->open_len = 0;
}
void bucket_ready(bucket_hook *h, size_t offset, size_t len)
{
    size_t cap = h->bucket_bytes / sizeof(float);
    if (h->open_len && h->open_len + len > cap) launch_open(h);
    h->open_offset = offset;
    h->open_len += len;
    if (h->open_len >= cap) launch_open(h);
}
void bucket_flush(bucket_hook *h) { launch_open(h); }
