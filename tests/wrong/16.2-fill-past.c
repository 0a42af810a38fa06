/* tests/wrong/16.2-fill-past.c: exercise 16.2 with PyTorch's looser rule:
 * add the tensor, launch once the bucket holds bucket_bytes or more, never
 * before adding. It passes by luck when tensors fill buckets exactly (equal
 * tensors, a bucket of everything, one per tensor); with mixed sizes a
 * bucket grows past bucket_bytes.
 * expect: FAIL: mixed: bucket 0 holds tensors 4..7, 6060 bytes, more than bucket_bytes = 4096
 * hint: launches the open bucket first */
#include "bucket_hook.h"

void bucket_ready(bucket_hook *h, size_t offset, size_t len)
{
    h->open_offset = offset;
    h->open_len += len;
    if (h->open_len * sizeof(float) >= h->bucket_bytes) {
        bucket_launch(h, h->open_offset, h->open_len);
        h->open_len = 0;
    }
}
void bucket_flush(bucket_hook *h)
{
    if (h->open_len) bucket_launch(h, h->open_offset, h->open_len);
    h->open_len = 0;
}
