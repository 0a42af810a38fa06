/* chapters/04-openmp/embed.c: an embarrassingly parallel batch. Turning many
 * documents into fixed-size vectors (a hash embedding, kernels/omp_embed.h),
 * split over documents with one pragma, swept over threads.
 *
 *   ./build/ch04/embed                      20000 documents of 20..100 words
 *   ./build/ch04/embed -n 100000 -t 1,2
 *
 * What to expect: the closest to ideal of the chapter (about 2x on 2
 * cores). The documents share nothing: no lock, no reduction, no write to
 * anything another thread reads, and each one reads a few hundred bytes of
 * text and writes 1 KiB: hashing is compute, so memory bandwidth, the one
 * resource the cores do share, stays far from its limit.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "omp_embed.h"
#include "omp_info.h"
#include "options.h"
#include "overlap.h"
#include "results.h"
#include "scaling.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    const embed_batch *b;
    float *out;
    pw_overlap ov;     /* whether the team's threads ran at the same time */
} embed_ctx;

static void run_seq(void *p) { embed_ctx *c = p; embed_batch_seq(c->b, c->out); }
static void run_omp(void *p)
{
    embed_ctx *c = p;
    pw_overlap_mark m = pw_overlap_begin();
    embed_batch_omp(c->b, c->out);
    pw_overlap_end(&c->ov, m);
}

/* Each document's vector is computed by the same function in the same order
 * whichever thread runs it, so the batch must equal the reference bit for
 * bit: tolerance zero. */
static int verify(int ndocs, const pw_list *threads)
{
    embed_batch b = embed_batch_make(ndocs, 20, 100, 2024);
    float *got = pw_alloc_floats((size_t)ndocs * EMBED_DIM), *want = pw_alloc_floats((size_t)ndocs * EMBED_DIM);
    embed_batch_seq(&b, want);
    int bad = 0;
    for (int t = 0; t < threads->n; t++) {
        char what[64];
        snprintf(what, sizeof what, "embed_openmp docs=%d threads=%lld", ndocs, threads->v[t]);
        pw_omp_set_threads((int)threads->v[t]);
        for (size_t i = 0; i < (size_t)ndocs * EMBED_DIM; i++) got[i] = -7.0f;   /* a missed document shows */
        embed_batch_omp(&b, got);
        bad |= pw_check_floats(what, got, want, (size_t)ndocs * EMBED_DIM, 0, 0);
    }
    pw_free(got);
    pw_free(want);
    embed_batch_free(&b);
    return bad;
}

int main(int argc, char **argv)
{
    long long ndocs = 20000;
    pw_list threads = { .n = 0 };
    pw_opt opts[] = {
        { "-n", "--docs", PW_OPT_INT, &ndocs, "N", "documents (default 20000)", 1, 1 << 30 },
        { "-t", "--threads", PW_OPT_SIZES, &threads, "T[,T...]", "thread counts (default 1,2,..,cores, 2x cores)",
          1, PW_MAX_THREADS },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "hash embeddings of a batch of documents: an embarrassingly parallel loop",
                     opts, 2, &common);
    if (threads.n == 0) pw_default_threads(&threads, common.prog);
    if (common.tiny) ndocs = 301;
    /* Text (at most 100 words of 12 bytes), the vectors and the reference. */
    pw_require_memory(common.prog, "-n", ndocs, 1200 + 2 * EMBED_DIM * sizeof(float), 1);
    int cores = pw_cores();

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_omp_report(stdout, csv);
    if (!pw_omp_enabled()) threads = (pw_list)PW_LIST(1);

    pw_list check_threads = PW_LIST(1, 2, 3, 7);
    int bad = verify(1, &check_threads) | verify(5, &check_threads) | verify(77, &check_threads) |
              verify(1001, &check_threads) | verify((int)ndocs, &threads);
    if (bad) {
        fprintf(stderr, "%s: a variant gave a wrong vector; nothing was timed\n", common.prog);
        pw_csv_close(csv);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the references (bit for bit: 1, 5, 77, 1001 documents on 1, 2, 3, 7 threads, "
           "and %lld)\n\n", ndocs);

    embed_batch b = embed_batch_make((int)ndocs, 20, 100, 2024);
    float *out = pw_alloc_floats((size_t)ndocs * EMBED_DIM);
    double flops = embed_flops(&b), bytes = embed_bytes(&b);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    embed_ctx ctx = { &b, out, { 0, 0, 0 } };
    pw_bench_stats seq;
    pw_bench(&cfg, run_seq, &ctx, &seq);
    printf("embed_seq: %.4g ms for %lld documents (%.1f MiB of text), %.2f us per document, %.2f GB/s\n\n",
           seq.median * 1e3, ndocs, (double)b.start[b.ndocs] / (1 << 20), seq.median * 1e6 / (double)ndocs,
           pw_gbs(bytes, seq.median));
    pw_csv_summary(csv, "embed_seq", ndocs, 1, "", &seq, flops, bytes);

    pw_scaling_point pts[PW_MAX_LIST];
    pw_overlap ovs[PW_MAX_LIST];
    for (int t = 0; t < threads.n; t++) {
        pts[t].threads = (int)threads.v[t];
        pw_omp_set_threads(pts[t].threads);
        ctx.ov = (pw_overlap){ 0, 0, 0 };
        pw_bench(&cfg, run_omp, &ctx, &pts[t].st);
        ovs[t] = ctx.ov;
    }
    pw_scaling_fit fit = pw_scaling_report_overlap(csv, "embed_openmp", ndocs, "", seq.median, pts, threads.n, flops,
                                                   bytes, cores, ovs);
    pw_scaling_answer("the batch", pts, threads.n, &fit, cores);

    pw_free(out);
    embed_batch_free(&b);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
