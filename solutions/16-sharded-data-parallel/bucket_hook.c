/* solutions/16-sharded-data-parallel/bucket_hook.c: exercise 16.2, solved.
 *
 * Tensors arrive last layer first, each just below the one before, so the
 * open bucket grows downwards: its offset is the newest tensor's. A bucket
 * is launched when the next tensor would not fit (before adding it), or when
 * adding made it full. */
#include "bucket_hook.h"

static void launch_open(bucket_hook *h)
{
    if (h->open_len == 0) return;
    bucket_launch(h, h->open_offset, h->open_len);
    h->open_len = 0;
}

void bucket_ready(bucket_hook *h, size_t offset, size_t len)
{
    size_t cap = h->bucket_bytes / sizeof(float);     /* whole floats a bucket may hold */
    if (h->open_len > 0 && h->open_len + len > cap) launch_open(h);
    h->open_offset = offset;
    h->open_len += len;
    if (h->open_len >= cap) launch_open(h);
}

void bucket_flush(bucket_hook *h) { launch_open(h); }
