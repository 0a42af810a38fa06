/* tests/wrong/16.2-at-end.c: exercise 16.2 the easy serial way: collect
 * every tensor and launch one bucket of everything in bucket_flush. The
 * sums are right; nothing overlaps the backward pass, and the bucket holds
 * more than bucket_bytes.
 * expect: FAIL: equal: bucket 0 holds tensors 0..5, 6144 bytes, more than bucket_bytes = 2048
 * hint: one bucket for everything, at the end */
#include "bucket_hook.h"

void bucket_ready(bucket_hook *h, size_t offset, size_t len)
{
    h->open_offset = offset;
    h->open_len += len;
}
void bucket_flush(bucket_hook *h)
{
    if (h->open_len) bucket_launch(h, h->open_offset, h->open_len);
    h->open_len = 0;
}
