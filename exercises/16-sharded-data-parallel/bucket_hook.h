/* exercises/16-sharded-data-parallel/bucket_hook.h: what exercise 16.2 asks
 * you to write. Your exercises/16-sharded-data-parallel/bucket_hook.c
 * implements bucket_ready() and bucket_flush(); the checker (and the
 * chapter's program) provides bucket_launch() and calls yours. */
#ifndef PW_EX_BUCKET_HOOK_H
#define PW_EX_BUCKET_HOOK_H

#include <stddef.h>

#include "collectives.h"

typedef struct {
    /* set by the caller before the backward pass; do not change them */
    pw_comm *comm;          /* the data-parallel group */
    float *grads;           /* all n gradients, one flat buffer, tensor after tensor */
    size_t n;
    size_t bucket_bytes;    /* the most bytes one bucket may hold (a multiple of 4: floats) */
    /* yours: the open bucket, elements [open_offset, open_offset + open_len)
     * of grads; open_len = 0: no bucket open. Zero at the start. */
    size_t open_offset, open_len;
    void *caller;           /* the caller's (bucket_launch's bookkeeping) */
} bucket_hook;

/* Provided by the caller: start the all-reduce (sum over the ranks) of
 * grads[offset, offset + len) on the communication stream. It runs as soon
 * as the stream has finished the bucket before; bucket_launch returns at
 * once, the compute stream's clock unchanged (the backward pass goes on). */
void bucket_launch(bucket_hook *h, size_t offset, size_t len);

/* Yours. The backward pass calls bucket_ready once per parameter tensor, in
 * backward order (last layer first), as soon as that tensor's gradient is
 * complete: grads[offset, offset + len), len >= 1. Each tensor ends where
 * the one before it (in this order) began: offset + len == the previous
 * offset, so a bucket is one contiguous range. The rule:
 *   - if a bucket is open and this tensor would take it past bucket_bytes,
 *     the open bucket is full: launch it now, then open a new one;
 *   - add the tensor to the open bucket (opening one if none is);
 *   - if the bucket now holds bucket_bytes or more (exactly full, or one
 *     tensor larger than bucket_bytes on its own), launch it now.
 * So no bucket holds more than bucket_bytes unless it is a single tensor,
 * and every bucket starts as soon as it is known to be full.
 * Called on every rank the same way: every rank must launch the same buckets
 * in the same order. */
void bucket_ready(bucket_hook *h, size_t offset, size_t len);

/* Yours: the backward pass is over; launch the bucket still open, if any. */
void bucket_flush(bucket_hook *h);

#endif
