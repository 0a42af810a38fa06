/* tests/wrong/16.2-off-by-one.c: exercise 16.2 that launches the open bucket
 * when the next tensor would REACH bucket_bytes (>=) instead of pass it (>):
 * a bucket that two tensors would fill exactly goes with one.
 * expect: FAIL: equal: your buckets are not the rule's \(bucket 0 differs\)
 * hint: launched before it was full */
#include "bucket_hook.h"

static void launch_open(bucket_hook *h)
{
    if (h->open_len) bucket_launch(h, h->open_offset, h->open_len);
    h->open_len = 0;
}
void bucket_ready(bucket_hook *h, size_t offset, size_t len)
{
    if (h->open_len && (h->open_len + len) * sizeof(float) >= h->bucket_bytes) launch_open(h);
    h->open_offset = offset;
    h->open_len += len;
    if (h->open_len * sizeof(float) >= h->bucket_bytes) launch_open(h);
}
void bucket_flush(bucket_hook *h) { launch_open(h); }
