/* kernels/omp_embed.h: an embarrassingly parallel batch. Many documents,
 * each turned into a fixed-size vector by a small hash embedding, the way a
 * search system embeds millions of documents before it can search them.
 *
 * Each document: split into words (runs of letters), each word hashed
 * (FNV-1a, 64 bits) to one of EMBED_DIM buckets and a sign, the bucket gets
 * +1 or -1 (the "hashing trick"), and the vector is scaled to length 1.
 * Documents share nothing: no document reads another's result, and each
 * writes only its own row of the output. So the batch splits over documents
 * with one pragma and no locks, reductions or barriers inside the loop.
 *
 * Cost per document of L bytes and W words: about 2 integer operations per
 * byte for the hash (xor, multiply), W bucket updates, and EMBED_DIM
 * multiplies plus EMBED_DIM multiply-adds for the norm and the scaling:
 * embed_flops() counts the 3*EMBED_DIM + W floating-point operations.
 * Memory: L bytes read, 4*EMBED_DIM bytes written (embed_bytes()).
 */
#ifndef PW_OMP_EMBED_H
#define PW_OMP_EMBED_H

#include <stddef.h>
#include <stdint.h>

#define EMBED_DIM 256

/* A batch of documents in one buffer: document d is text[start[d] .. start[d+1]). */
typedef struct {
    char *text;
    size_t *start;          /* ndocs + 1 offsets */
    int ndocs;
} embed_batch;

/* Make ndocs documents of fixed-seed pseudo-random words, with lengths
 * between min_words and max_words (so documents cost different amounts,
 * as real ones do). Free with embed_batch_free. */
embed_batch embed_batch_make(int ndocs, int min_words, int max_words, uint64_t seed);
void embed_batch_free(embed_batch *b);

/* out[d*EMBED_DIM .. +EMBED_DIM) = the unit vector of document d. */
void embed_batch_seq(const embed_batch *b, float *out);

/* The same, `#pragma omp parallel for schedule(dynamic, 16)` over documents. */
void embed_batch_omp(const embed_batch *b, float *out);

/* Work of the whole batch, by the counts above. */
double embed_flops(const embed_batch *b);
double embed_bytes(const embed_batch *b);

#endif
