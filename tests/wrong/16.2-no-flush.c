/* tests/wrong/16.2-no-flush.c: exercise 16.2 with the rule right and an
 * empty bucket_flush: the first layers' tensors, the last the backward pass
 * reaches, stay in the open bucket and are never all-reduced (right by luck
 * when the buckets come out full, as with equal tensors).
 * expect: FAIL: mixed: rank 0.s gradient 0 \(tensor 0 of 8, first layer 0\) is 1 after the step
 * hint: bucket_flush must launch it */
#include "bucket_hook.h"

void bucket_ready(bucket_hook *h, size_t offset, size_t len)
{
    size_t cap = h->bucket_bytes / sizeof(float);
    if (h->open_len && h->open_len + len > cap) { bucket_launch(h, h->open_offset, h->open_len); h->open_len = 0; }
    h->open_offset = offset;
    h->open_len += len;
    if (h->open_len >= cap) { bucket_launch(h, h->open_offset, h->open_len); h->open_len = 0; }
}
void bucket_flush(bucket_hook *h) { (void)h; }
