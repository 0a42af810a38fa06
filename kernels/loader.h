/* kernels/loader.h: a training loop's input pipeline, the work chapter 15
 * profiles and then hides behind the compute.
 *
 * The data set is stored "encoded", as real records are (JPEG, compressed
 * shards): each sample is its d + o floats, XORed word by word with a key
 * stream, plus a checksum of the plain words. Loading one sample is real CPU
 * work, with no I/O:
 *   decode   regenerate the key stream (`rounds` mixing rounds per word:
 *            the knob that makes loading cheap or dear), XOR, and check the
 *            checksum (a record that does not decode is an error, not data);
 *   augment  add noise of amplitude `noise` to the inputs, drawn from an RNG
 *            seeded by (seed, sample index) alone.
 * So batch k is a pure function of (data set, k): whichever thread makes it,
 * in whatever order, it has the same bits. That is what makes the loader
 * pool deterministic (tests/ch15.sh asserts it for 1, 2, 3 and 7 loaders).
 *
 * The pool: L loader threads; loader t makes batches t, t + L, t + 2L, ...
 * (a fixed sharding, no shared counter), each into a slot of a bounded queue
 * of `capacity` slots. The training thread takes batches in order 0, 1, 2,
 * ...; batch k may be made only once batch k - capacity has been released,
 * so at most `capacity` batches exist at once (memory stays bounded however
 * fast the loaders are), and a slow loader holds the others back rather
 * than letting the queue run out of order.
 */
#ifndef PW_LOADER_H
#define PW_LOADER_H

#include "mlp.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    mlp_shape s;            /* the model the batches feed */
    size_t batch;           /* samples per batch */
    int batches;            /* batches in the data set (one per training step) */
    uint64_t seed;          /* data, key stream and augmentation */
    int rounds;             /* decode work: mixing rounds per 4-byte word */
    float noise;            /* augmentation: inputs get uniform noise in [-noise/2, noise/2) */
} ld_config;

typedef struct {
    ld_config c;
    size_t words;           /* words per record: d + o */
    uint32_t *rec;          /* batches * batch records, `words` each: encoded */
    uint32_t *sum;          /* per record: checksum of its plain words */
} ld_dataset;

/* Make the data (kernels/mlp.h's teacher) and encode it (one-off, not timed). */
void ld_dataset_init(ld_dataset *ds, const ld_config *c);
void ld_dataset_free(ld_dataset *ds);

/* Decode and augment batch k into x (batch x d) and y (batch x o). Returns 0,
 * or 1 if a record's checksum did not match (a corrupt record). */
int ld_make_batch(const ld_dataset *ds, int k, float *x, float *y);

/* A 64-bit fingerprint (FNV-1a) of a batch's bits: equal batches, equal sums. */
uint64_t ld_batch_fingerprint(const float *x, const float *y, size_t batch, mlp_shape s);

/* ---- the loader pool and its bounded queue ------------------------------- */

typedef struct {
    int index;              /* which batch */
    float *x, *y;           /* its data (the slot's buffers) */
} ld_batch;

typedef struct {
    int produced, consumed;     /* batches made and taken: both `batches` at the end */
    int max_held;               /* most batches made and not yet released at once: <= capacity */
    int bad;                    /* records whose checksum failed */
    int *made_by;               /* per batch: the loader that made it */
    double *start, *end;        /* per batch: when its loader began and finished it (s, from pool start) */
    double *busy;               /* per loader: seconds spent making batches */
} ld_pool_stats;

typedef struct ld_pool ld_pool;

/* Start `loaders` threads making every batch of ds (loaders >= 1, capacity
 * >= 1; anything else returns NULL: the caller says why). */
ld_pool *ld_pool_start(const ld_dataset *ds, int loaders, int capacity);
/* The next batch in order (blocks until it is made), or NULL after the last. */
const ld_batch *ld_pool_get(ld_pool *p);
/* Hand the batch from the last get back: its slot may be refilled. */
void ld_pool_release(ld_pool *p);
/* Join the loaders, fill *st (arrays malloc'ed: ld_pool_stats_free), free p. */
void ld_pool_finish(ld_pool *p, ld_pool_stats *st);
void ld_pool_stats_free(ld_pool_stats *st);
/* Seconds since the pool started (the clock of start/end above). */
double ld_pool_clock(const ld_pool *p);

/* ---- the training loop ----------------------------------------------------- */

typedef struct {
    double load_s;          /* waiting for the batch (0 loaders: making it) */
    double compute_s;       /* gradient and SGD update */
    double start_s;         /* when the step began, from the run's start */
} ld_step;

typedef struct {
    ld_step *steps;         /* per step (may be NULL) */
    uint64_t *fingerprint;  /* per step: the batch's fingerprint (may be NULL) */
    double *loss;           /* per step: mean loss before the update (may be NULL) */
    ld_pool_stats pool;     /* filled when loaders >= 1 (free with ld_pool_stats_free) */
} ld_trace;

/* Train w (updated in place) one step per batch of ds, SGD with rate lr.
 * loaders = 0: the loop makes each batch itself (no prefetch); loaders >= 1:
 * a pool with a queue of `capacity`. Returns 0, or 1 if a batch failed to
 * decode or the pool lost, repeated or reordered a batch (then the run's
 * numbers mean nothing). */
int ld_train(const ld_dataset *ds, int loaders, int capacity, float *w, float lr, ld_trace *tr);

#endif
