/* tests/wrong/16.2-floats-not-bytes.c: exercise 16.2 that reads bucket_bytes
 * as a count of floats: buckets four times too big (the equal model, 1536
 * floats, fits in one).
 * expect: FAIL: equal: bucket 0 holds tensors 0..5, 6144 bytes, more than bucket_bytes = 2048
 * hint: bucket_bytes is in bytes, a float is 4 */
#include "bucket_hook.h"

static void launch_open(bucket_hook *h)
{
    if (h->open_len) bucket_launch(h, h->open_offset, h->open_len);
    h->open_len = 0;
}
void bucket_ready(bucket_hook *h, size_t offset, size_t len)
{
    if (h->open_len && h->open_len + len > h->bucket_bytes) launch_open(h);
    h->open_offset = offset;
    h->open_len += len;
    if (h->open_len >= h->bucket_bytes) launch_open(h);
}
void bucket_flush(bucket_hook *h) { launch_open(h); }
