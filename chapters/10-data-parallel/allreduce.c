/* chapters/10-data-parallel/allreduce.c: three all-reduce algorithms on the
 * virtual cluster, checked, then timed on the model against their formulas.
 *
 *   ./build/ch10/allreduce                     the default sweeps
 *   ./build/ch10/allreduce -p 64 -n 4K,1M      other rank count, sizes (bytes)
 *   ./build/ch10/allreduce --intra-gbs 900 --inter-alpha 2   other links (cluster.h)
 *
 * 1. Check: naive, tree and ring on 1, 2, 3, 5, 8 and 64 ranks, on lengths
 *    the rank count does not divide, against the sum in double precision;
 *    every rank must hold bitwise the same result.
 * 2. Modelled time against message size, p ranks on one node (uniform links):
 *    small messages cost latency (naive 2(p-1) alpha, tree 2 log2(p) alpha,
 *    ring 2(p-1) alpha), large ones bandwidth (naive 2(p-1) n beta, tree
 *    2 log2(p) n beta, ring 2 (p-1)/p n beta: about 2 n beta whatever p).
 * 3. Modelled time against rank count at two sizes, over nodes of 8.
 * 4. How fast the simulator itself is: wall time to simulate a ring
 *    all-reduce of 1 MiB of floats on 1024 ranks (real data moved).
 *
 * CSV: n is the buffer in bytes, threads the ranks; param says what the row
 * is: "sim" (the simulator's modelled time) or "model" (the closed form),
 * prefixed by the sweep ("bytes:" or "ranks:"); the simulator's own wall
 * time is the variant "simulator_wall".
 */
#include "check.h"
#include "cluster.h"
#include "collectives.h"
#include "options.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pw_cluster_flags links;     /* --intra-alpha ... --per-node (cluster.h) */

typedef struct {
    coll_allreduce_fn fn;
    float **buf;            /* per rank, or NULL entries for phantoms */
    size_t n;               /* floats */
} job;

static void run_job(pw_rank *r, void *arg)
{
    job *j = arg;
    pw_comm comm = coll_comm_cluster(r);
    j->fn(&comm, j->buf[pw_rank_id(r)], j->n);
}

static double model(const char *algo, int p, size_t n, double alpha, double beta)
{
    if (!strcmp(algo, "ring")) return coll_model_ring(p, n, sizeof(float), alpha, beta);
    if (!strcmp(algo, "tree")) return coll_model_tree(p, n, sizeof(float), alpha, beta);
    return coll_model_naive(p, n, sizeof(float), alpha, beta);
}

/* Run one algorithm on random data; 0 when every rank holds the same bits
 * and they are within rounding of the double-precision sum. */
static int verify(const coll_allreduce_algo *a, int p, size_t n)
{
    float **b = calloc((size_t)p, sizeof *b);
    double *ref = calloc(n ? n : 1, sizeof *ref);
    float *want = pw_alloc_floats(n);
    for (int r = 0; r < p; r++) {
        b[r] = pw_alloc_floats(n);
        pw_fill_random(b[r], n, 1000 + (uint64_t)r, -1, 1);
        for (size_t i = 0; i < n; i++) ref[i] += b[r][i];
    }
    for (size_t i = 0; i < n; i++) want[i] = (float)ref[i];
    pw_cluster_config cfg = pw_cluster_defaults(p);
    pw_cluster *c = pw_cluster_create(&cfg);
    job j = { a->fn, b, n };
    int bad = pw_cluster_run(c, run_job, &j) != 0;
    if (bad) fprintf(stderr, "%s", pw_cluster_report(c));
    char what[96];
    snprintf(what, sizeof what, "%s p=%d n=%zu rank 0", a->name, p, n);
    /* p-1 float additions of values in [-1, 1): each rounds by at most half
     * an ulp of a partial sum below p, so |error| <= (p-1) * p * 2^-24. */
    bad |= pw_check_floats(what, b[0], want, n, (double)p * p * 6e-8 + 1e-7, 0);
    for (int r = 1; r < p && !bad; r++)
        if (memcmp(b[r], b[0], n * sizeof(float)) != 0) {
            fprintf(stderr, "%s p=%d n=%zu: rank %d differs from rank 0 in the last bits\n", a->name, p, n, r);
            bad = 1;
        }
    for (int r = 0; r < p; r++) pw_free(b[r]);
    free(b);
    free(ref);
    pw_free(want);
    pw_cluster_destroy(c);
    return bad;
}

/* Modelled time of one algorithm with phantom messages (no data). */
static double simulate(coll_allreduce_fn fn, const pw_cluster_config *cfg, size_t n)
{
    float **b = calloc((size_t)cfg->ranks, sizeof *b);
    pw_cluster *c = pw_cluster_create(cfg);
    job j = { fn, b, n };
    if (pw_cluster_run(c, run_job, &j) != 0) { fprintf(stderr, "%s", pw_cluster_report(c)); exit(PW_EXIT_WRONG); }
    double t = pw_cluster_time(c);
    pw_cluster_destroy(c);
    free(b);
    return t;
}

/* ---- the simulator's own speed ---------------------------------------------- */

typedef struct { pw_cluster *c; job j; int p; } speed_ctx;

static void run_speed(void *arg)
{
    speed_ctx *s = arg;
    for (int r = 0; r < s->p; r++) memset(s->j.buf[r], 0, s->j.n * sizeof(float));
    if (pw_cluster_run(s->c, run_job, &s->j) != 0) exit(PW_EXIT_WRONG);
}

static void speed(pw_csv *csv, const pw_common_opts *common, int p, size_t bytes)
{
    size_t n = bytes / sizeof(float);
    speed_ctx s = { .p = p };
    s.j = (job){ coll_allreduce_ring, calloc((size_t)p, sizeof(float *)), n };
    for (int r = 0; r < p; r++) s.j.buf[r] = pw_alloc_floats(n);
    pw_cluster_config cfg = pw_cluster_config_for(p, &links);
    pw_cluster_check_or_exit(common->prog, &cfg);
    s.c = pw_cluster_create(&cfg);
    pw_bench_config bc = pw_bench_from_opts(common);
    bc.min_reps = common->tiny ? 1 : 3;       /* a second a run: a few are enough */
    bc.min_time_s = 0;
    bc.warmup = 0;
    bc.min_sample_s = 0;
    pw_bench_stats st;
    pw_bench(&bc, run_speed, &s, &st);
    long long msgs;
    double moved;
    pw_cluster_traffic(s.c, &msgs, &moved);
    char nb[32], mb[32];
    printf("\nsimulator speed: ring all-reduce of %s of floats on %d ranks (real data): %.3f s wall (median of %d, IQR %.3f s), cold %.3f s\n",
           pw_fmt_bytes((double)bytes, nb, sizeof nb), p, st.median, st.reps, st.q3 - st.q1, st.cold);
    printf("  %lld messages, %s moved between ranks: %.0f ns per message; modelled time %.3f ms\n",
           msgs, pw_fmt_bytes(moved, mb, sizeof mb), st.median / (double)msgs * 1e9, pw_cluster_time(s.c) * 1e3);
    pw_csv_summary(csv, "simulator_wall", (long long)bytes, p, "ring", &st, 0, moved);
    pw_cluster_destroy(s.c);
    for (int r = 0; r < p; r++) pw_free(s.j.buf[r]);
    free(s.j.buf);
}

int main(int argc, char **argv)
{
    /* Empty lists: not given. --tiny picks smaller defaults; flags given win. */
    pw_list sizes = { .n = 0 }, ranks = { .n = 0 };
    long long p = 8, speed_ranks = 1024, speed_bytes = 1 << 20;
    links = pw_cluster_flag_defaults();
    pw_opt opts[5 + PW_CLUSTER_NFLAGS] = {
        { "-n", "--bytes", PW_OPT_SIZES, &sizes, "B[,B...]", "buffer sizes in bytes for the size sweep (multiples of 4)", 4, 1LL << 40 },
        { "-p", "--ranks", PW_OPT_INT, &p, "P", "ranks for the size sweep (one node; default 8)", 1, PW_CLUSTER_MAX_RANKS },
        { "-P", "--rank-sweep", PW_OPT_SIZES, &ranks, "P[,P...]", "rank counts for the rank sweep (up to one node, then whole nodes)", 1, 4096 },
        { NULL, "--speed-ranks", PW_OPT_INT, &speed_ranks, "P", "ranks of the simulator speed test (default 1024)", 1, 4096 },
        { NULL, "--speed-bytes", PW_OPT_INT, &speed_bytes, "B", "bytes of the simulator speed test (default 1 MiB)", 4, 1LL << 30 },
    };
    pw_common_opts common;
    int nopts = 5 + pw_cluster_flag_opts(&links, opts + 5, true);
    pw_parse_or_exit(argc, argv, "all-reduce: naive, tree and ring on the virtual cluster, against their closed forms",
                     opts, nopts, &common);
    if (!sizes.n) sizes = common.tiny ? (pw_list)PW_LIST(4, 4096, 1048576)
                                      : (pw_list)PW_LIST(4, 64, 1024, 16384, 262144, 4194304, 67108864, 268435456);
    if (!ranks.n) ranks = common.tiny ? (pw_list)PW_LIST(2, 8, 16, 64) : (pw_list)PW_LIST(2, 4, 8, 16, 32, 64, 128, 256, 512, 1024);
    if (common.tiny && speed_ranks == 1024) speed_ranks = 64;
    pw_cluster_config speed_cfg = pw_cluster_config_for((int)speed_ranks, &links);
    pw_cluster_check_or_exit(common.prog, &speed_cfg);
    pw_cluster_config one = pw_cluster_config_for((int)p, &links);
    one.ranks_per_node = (int)p;                       /* the size sweep: one node, one link type */
    pw_cluster_check_or_exit(common.prog, &one);
    pw_require_memory(common.prog, "--speed-ranks", speed_ranks * (speed_bytes / 4), sizeof(float), 1);
    /* Opened before any rank runs: an unwritable path is refused (exit 2)
     * before the fibers start, as on every other bad input. */
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    for (int i = 0; i < ranks.n; i++) {
        pw_cluster_config cfg = pw_cluster_config_for((int)ranks.v[i], &links);
        pw_cluster_check_or_exit(common.prog, &cfg);
    }

    /* 1. correct first: rank counts with and without a power of two, lengths
     * the rank count does not divide */
    static const int check_p[] = { 1, 2, 3, 5, 8, 64 };
    static const size_t check_n[] = { 1, 7, 1001, 4099 };
    int bad = 0;
    for (int a = 0; a < coll_allreduce_nalgos; a++)
        for (size_t i = 0; i < sizeof check_p / sizeof *check_p; i++)
            for (size_t k = 0; k < sizeof check_n / sizeof *check_n; k++)
                bad |= verify(&coll_allreduce_algos[a], check_p[i], check_n[k]);
    if (bad) {
        fprintf(stderr, "%s: an all-reduce gave a wrong result; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match: naive, tree, ring on 1, 2, 3, 5, 8, 64 ranks, n = 1, 7, 1001, 4099 floats;\n"
           "  every rank holds bitwise the same sum, within rounding of the double-precision one\n\n");

    double alpha = one.intra_alpha, beta = 1 / (one.intra_gbs * 1e9);
    pw_csv_meta(csv, "alpha_s", "%g", alpha);
    pw_csv_meta(csv, "beta_s_per_byte", "%g", beta);
    pw_csv_meta(csv, "sweep_ranks", "%lld", p);

    /* 2. against size, on one node */
    printf("modelled all-reduce time on %lld ranks of one node (alpha %g us, %g GB/s); model = closed form\n",
           p, alpha * 1e6, one.intra_gbs);
    printf("%10s", "bytes");
    for (int a = 0; a < coll_allreduce_nalgos; a++) printf(" %12s %12s", coll_allreduce_algos[a].name, "model");
    printf("\n");
    double worst = 0;
    double first_t[8] = { 0 }, last_t[8] = { 0 };   /* each algorithm's time at the smallest and largest size */
    for (int s = 0; s < sizes.n; s++) {
        size_t n = (size_t)sizes.v[s] / sizeof(float);
        char b[32];
        printf("%10s", pw_fmt_bytes((double)(n * 4), b, sizeof b));
        for (int a = 0; a < coll_allreduce_nalgos; a++) {
            const char *name = coll_allreduce_algos[a].name;
            double t = simulate(coll_allreduce_algos[a].fn, &one, n);
            double m = model(name, (int)p, n, alpha, beta);
            bool exact = strcmp(name, "tree") || ((p & (p - 1)) == 0);
            if (exact && (n % (size_t)p == 0 || strcmp(name, "ring"))) worst = fmax(worst, fabs(t - m) / m);
            printf(" %9.3f us %9.3f us", t * 1e6, m * 1e6);
            if (s == 0 && a < 8) first_t[a] = t;
            if (s == sizes.n - 1 && a < 8) last_t[a] = t;
            pw_csv_value(csv, name, (long long)(n * 4), (int)p, "bytes:sim", t, 0, (double)(n * 4));
            pw_csv_value(csv, name, (long long)(n * 4), (int)p, "bytes:model", m, 0, (double)(n * 4));
        }
        printf("\n");
    }
    printf("largest relative gap between simulation and closed form: %.1e\n", worst);
    /* The answer from the first and last rows: which algorithm wins at each end, and the ring against the tree. */
    int fa = 0, la = 0, ring = -1, tree = -1;
    for (int a = 0; a < coll_allreduce_nalgos && a < 8; a++) {
        if (first_t[a] < first_t[fa]) fa = a;
        if (last_t[a] < last_t[la]) la = a;
        if (!strcmp(coll_allreduce_algos[a].name, "ring")) ring = a;
        if (!strcmp(coll_allreduce_algos[a].name, "tree")) tree = a;
    }
    char b0[32], b1[32];
    pw_fmt_bytes((double)(sizes.v[0] / 4 * 4), b0, sizeof b0);
    pw_fmt_bytes((double)(sizes.v[sizes.n - 1] / 4 * 4), b1, sizeof b1);
    if (sizes.n > 1 && ring >= 0 && tree >= 0)
        printf("answer: at %s the %s is fastest (%.3f us), at %s the %s (%.3f us); at %s the ring takes %.2fx\n"
               "  the tree's time\n\n", b0, coll_allreduce_algos[fa].name, first_t[fa] * 1e6, b1,
               coll_allreduce_algos[la].name, last_t[la] * 1e6, b1, last_t[ring] / last_t[tree]);
    else
        printf("answer: not shown on this run: one buffer size only (-n), so no small against large\n\n");

    /* 3. against ranks, nodes of 8 (the ring then runs at the inter-node link's pace) */
    static const size_t rank_sweep_bytes[] = { 4096, 64 << 20 };
    double lo_t[8] = { 0 }, hi_t[8] = { 0 };   /* 64 MiB: each algorithm at the fewest and the most ranks */
    int lo_p = 0, hi_p = 0;
    for (size_t k = 0; k < 2; k++) {
        size_t n = rank_sweep_bytes[k] / sizeof(float);
        char b[32];
        printf("modelled all-reduce time of %s against ranks (%lld per node; inter-node %g GB/s, alpha %g us)\n",
               pw_fmt_bytes((double)rank_sweep_bytes[k], b, sizeof b), links.per_node, links.inter_gbs, links.inter_alpha_us);
        printf("%6s", "ranks");
        for (int a = 0; a < coll_allreduce_nalgos; a++) printf(" %12s", coll_allreduce_algos[a].name);
        printf("\n");
        for (int i = 0; i < ranks.n; i++) {
            pw_cluster_config cfg = pw_cluster_config_for((int)ranks.v[i], &links);
            printf("%6d", cfg.ranks);
            for (int a = 0; a < coll_allreduce_nalgos; a++) {
                const char *name = coll_allreduce_algos[a].name;
                double t = simulate(coll_allreduce_algos[a].fn, &cfg, n);
                bool multi = cfg.ranks > cfg.ranks_per_node;
                double al = multi ? cfg.inter_alpha : cfg.intra_alpha;
                double be = 1 / ((multi ? cfg.inter_gbs : cfg.intra_gbs) * 1e9);
                double m = model(name, cfg.ranks, n, al, be);
                printf(" %9.3f ms", t * 1e3);
                if (k == 1 && a < 8 && i == 0) { lo_t[a] = t; lo_p = cfg.ranks; }
                if (k == 1 && a < 8 && i == ranks.n - 1) { hi_t[a] = t; hi_p = cfg.ranks; }
                char param[32];
                snprintf(param, sizeof param, "ranks%zu:sim", k);
                pw_csv_value(csv, name, (long long)(n * 4), cfg.ranks, param, t, 0, (double)(n * 4));
                snprintf(param, sizeof param, "ranks%zu:model", k);
                pw_csv_value(csv, name, (long long)(n * 4), cfg.ranks, param, m, 0, (double)(n * 4));
            }
            printf("\n");
        }
        printf("\n");
    }
    int naive = -1;
    for (int a = 0; a < coll_allreduce_nalgos && a < 8; a++)
        if (!strcmp(coll_allreduce_algos[a].name, "naive")) naive = a;
    if (ranks.n > 1 && ring >= 0 && naive >= 0)
        printf("answer: from %d to %d ranks the 64 MiB all-reduce grows %.1fx under the ring (%.3f -> %.3f ms) and\n"
               "  %.0fx under the naive root (%.3f -> %.3f ms)\n\n", lo_p, hi_p, hi_t[ring] / lo_t[ring], lo_t[ring] * 1e3,
               hi_t[ring] * 1e3, hi_t[naive] / lo_t[naive], lo_t[naive] * 1e3, hi_t[naive] * 1e3);
    else
        printf("answer: not shown on this run: one rank count only (-P), so no growth with ranks\n\n");

    /* 4. the simulator's speed */
    speed(csv, &common, (int)speed_ranks, (size_t)speed_bytes);
    return pw_csv_close(csv);
}
