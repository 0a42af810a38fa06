/* kernels/omp_embed.c: hash embeddings of a batch of documents. */
#include "omp_embed.h"
#include "errcheck.h"
#include "omp_info.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return *s;
}

embed_batch embed_batch_make(int ndocs, int min_words, int max_words, uint64_t seed)
{
    /* Words of 2..11 letters: at most 12 bytes each with the space. */
    size_t cap = (size_t)ndocs * (size_t)max_words * 12 + 1;
    embed_batch b = { malloc(cap), malloc(((size_t)ndocs + 1) * sizeof(size_t)), ndocs };
    PW_CHECK_ALLOC(b.text, cap);
    PW_CHECK_ALLOC(b.start, ((size_t)ndocs + 1) * sizeof(size_t));
    uint64_t s = seed | 1;
    size_t at = 0;
    for (int d = 0; d < ndocs; d++) {
        b.start[d] = at;
        int words = min_words + (int)(xorshift(&s) % (uint64_t)(max_words - min_words + 1));
        for (int w = 0; w < words; w++) {
            /* A vocabulary of 4096 words: word k is spelt from k's bits, so
             * the same word recurs across documents, as in real text. */
            uint64_t k = xorshift(&s) % 4096, h = k * 0x9e3779b97f4a7c15ull;
            int len = 2 + (int)(k % 10);
            for (int c = 0; c < len; c++) { b.text[at++] = (char)('a' + (h >> 59) % 26); h = h * 31 + 7; }
            b.text[at++] = ' ';
        }
    }
    b.start[ndocs] = at;
    return b;
}

void embed_batch_free(embed_batch *b)
{
    free(b->text);
    free(b->start);
    b->text = NULL;
    b->start = NULL;
}

/* One document: hash each word into a bucket with a sign, then normalise.
 * The same function for every variant, so results are bitwise equal. */
static void embed_one(const char *t, size_t len, float *v)
{
    memset(v, 0, EMBED_DIM * sizeof *v);
    size_t i = 0;
    while (i < len) {
        while (i < len && (t[i] < 'a' || t[i] > 'z')) i++;
        if (i == len) break;
        uint64_t h = 0xcbf29ce484222325ull;             /* FNV-1a offset basis */
        while (i < len && t[i] >= 'a' && t[i] <= 'z') {
            h ^= (unsigned char)t[i++];
            h *= 0x100000001b3ull;                      /* FNV prime */
        }
        v[h % EMBED_DIM] += (h >> 63) ? -1.0f : 1.0f;   /* top bit: the sign */
    }
    double norm2 = 0;
    for (int k = 0; k < EMBED_DIM; k++) norm2 += (double)v[k] * v[k];
    if (norm2 > 0) {
        float inv = (float)(1.0 / sqrt(norm2));
        for (int k = 0; k < EMBED_DIM; k++) v[k] *= inv;
    }
}

void embed_batch_seq(const embed_batch *b, float *out)
{
    for (int d = 0; d < b->ndocs; d++)
        embed_one(b->text + b->start[d], b->start[d + 1] - b->start[d], out + (size_t)d * EMBED_DIM);
}

/* The sequential loop plus one pragma. dynamic, 16: documents differ in
 * length (5x between the shortest and the longest by default), and 16 of
 * them per grab keep the shared counter out of the way (one atomic per 16
 * documents of some microseconds each). */
void embed_batch_omp(const embed_batch *b, float *out)
{
    #pragma omp parallel for schedule(dynamic, 16)
    for (int d = 0; d < b->ndocs; d++)
        embed_one(b->text + b->start[d], b->start[d + 1] - b->start[d], out + (size_t)d * EMBED_DIM);
}

double embed_flops(const embed_batch *b)
{
    /* One +-1 per word; words = spaces, since every word ends with one. */
    double words = 0;
    for (size_t i = 0; i < b->start[b->ndocs]; i++) words += b->text[i] == ' ';
    return 3.0 * EMBED_DIM * b->ndocs + words;
}

double embed_bytes(const embed_batch *b)
{
    return (double)b->start[b->ndocs] + 4.0 * EMBED_DIM * b->ndocs;
}
