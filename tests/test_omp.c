/* tests/test_omp.c: chapter 04's kernels (kernels/mandel, omp_pi, omp_embed,
 * omp_tree) against their sequential references on 1, 2, 3 and 7 threads,
 * and common/omp_info's line, with and without OpenMP. */
#include "mandel.h"
#include "omp_embed.h"
#include "omp_info.h"
#include "omp_pi.h"
#include "omp_tree.h"
#include "unit.h"
#include "util.h"

#include <math.h>
#include <string.h>

static const int threads[] = { 1, 2, 3, 7 };

static void test_describe(void)
{
    char buf[320];
    pw_omp_describe(buf, sizeof buf);
    if (pw_omp_enabled())
        EXPECT(strstr(buf, "OpenMP ") == buf && strstr(buf, "OMP_NUM_THREADS=") && strstr(buf, "OMP_PLACES="),
               "the line names the OMP_* settings: %s", buf);
    else
        EXPECT(!strcmp(buf, "built without OpenMP: ran on one thread; get it: " PW_OMP_INSTALL_HINT),
               "without OpenMP the line says so with the hint: %s", buf);
    pw_omp_set_threads(3);
    EXPECT(pw_omp_max_threads() == (pw_omp_enabled() ? 3 : 1), "set 3 threads: max %d", pw_omp_max_threads());
}

static void test_mandel_exact(void)
{
    /* 37 x 23 at maxiter 100: fewer rows than 7 threads x 4 rows per grab */
    mandel_params m = mandel_view(37, 23, 100);
    int32_t want[37 * 23], got[37 * 23];
    long long total = mandel_seq(&m, want);
    mandel_stats st[8];
    for (int t = 0; t < 4; t++) {
        pw_omp_set_threads(threads[t]);
        for (int s = 0; s < 4; s++) {
            memset(got, 0xff, sizeof got);
            long long g = s == 0 ? mandel_static(&m, got, st) : s == 1 ? mandel_static1(&m, got, st)
                        : s == 2 ? mandel_dynamic(&m, got, 4, st) : mandel_guided(&m, got, st);
            EXPECT(g == total && !memcmp(got, want, sizeof got), "schedule %d on %d threads: exact counts", s,
                   threads[t]);
            long long sum = 0;
            int rows = 0;
            for (int k = 0; k < pw_omp_max_threads(); k++) { sum += st[k].iters; rows += st[k].rows; }
            EXPECT(sum == total && rows == 23, "per-thread stats add up: %lld steps, %d rows", sum, rows);
        }
    }
}

static void test_pi(void)
{
    for (int t = 0; t < 4; t++) {
        pw_omp_set_threads(threads[t]);
        long long n = 100003;
        EXPECT(fabs(pi_integral_omp(n) - PI_EXACT) <= pi_tolerance(n), "pi on %d threads", threads[t]);
        EXPECT(fabs(pi_integral_omp(1) - 3.2) < 1e-15, "one step: 4/(1+0.25) = 3.2");
    }
}

static void test_embed_and_tree(void)
{
    embed_batch b = embed_batch_make(53, 1, 30, 5);
    float *want = pw_alloc_floats(53 * EMBED_DIM), *got = pw_alloc_floats(53 * EMBED_DIM);
    embed_batch_seq(&b, want);
    double norm = 0;
    for (int k = 0; k < EMBED_DIM; k++) norm += (double)want[k] * want[k];
    EXPECT(fabs(norm - 1) < 1e-5, "a document's vector has length 1 (%.7f)", norm);
    tree tr = tree_make(2001, 3);
    uint64_t sum = tree_sum_seq(&tr);
    EXPECT(tree_tasks_created(&tr, 0) == 0 && tree_tasks_created(&tr, tr.depth + 1) == 2001,
           "no tasks at cut-off 0, one per node past the depth");
    for (int t = 0; t < 4; t++) {
        pw_omp_set_threads(threads[t]);
        embed_batch_omp(&b, got);
        EXPECT(!memcmp(got, want, 53 * EMBED_DIM * sizeof *got), "embeddings bit for bit on %d threads", threads[t]);
        for (int c = 0; c <= tr.depth + 1; c += 5)
            EXPECT(tree_sum_tasks(&tr, c) == sum, "tree sum on %d threads, cut-off %d", threads[t], c);
    }
    tree_free(&tr);
    embed_batch_free(&b);
    pw_free(want);
    pw_free(got);
}

int main(void)
{
    RUN(test_describe);
    RUN(test_mandel_exact);
    RUN(test_pi);
    RUN(test_embed_and_tree);
    return UNIT_RESULT();
}
