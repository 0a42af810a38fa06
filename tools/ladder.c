/* tools/ladder.c: one speedup ladder for one GEMM (chapter 07's size n),
 * from the sequential loop to a virtual cluster, over the sequential loop.
 *
 *   ladder --gemm07 F07 --gemm09 F09 [--csv OUT] [--devices 8]
 *
 * Measured rungs (this machine, chapter 07's CSV F07): 1_naive (its rate at
 * the small n; the time at n is 2n^3 / that rate), 2_ikj and 3_blocked (at
 * the mid n), 4_simd (1 core, at n) and 5_omp at each thread count up to the
 * cores (at n). Modelled rungs: 7_warptile (SIMT) and 9_wmma_shared_fp16
 * (Tensor Cores) from chapter 09's H100 model at n (F09, written by
 * `gemm --model-n n`), and data / tensor parallelism over t devices on the
 * virtual cluster (common/cluster/cluster.h, one node, its default links): each
 * device runs 2n^3/t flops at the Tensor Core rung's modelled rate, then
 *   DP: the k dimension is split (as the weight gradient dW = X^T dY of a
 *       data-parallel step): each device holds a partial n x n sum and a ring
 *       all-reduce of n^2 floats adds them: 2(t-1)(alpha + 4n^2/t beta);
 *   TP: B's columns are split (Megatron's column-parallel layer, Shoeybi et
 *       al. 2019): each device holds n x n/t of C and a ring all-gather
 *       assembles it: (t-1)(alpha + 4n^2/t beta).
 * The collectives really run on the cluster (kernels/collectives.c); their
 * results and their modelled time are checked against the sums and the
 * closed forms above before anything is printed.
 * Ceilings: the core's peak (SIMD rungs), Amdahl's law with chapter 07's
 * fitted p (thread rungs), the H100's fp32 / Tensor Core peak (GPU rungs),
 * and for the cluster: compute perfectly split and the transfer perfectly
 * hidden behind it, time >= max(compute/t, link time) (link-bound).
 * A CSV that is missing, or lacks a row the ladder needs, or holds a value
 * that is not a positive number: one line, exit 1, nothing written. */
#include "cluster.h"
#include "collectives.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXROWS 4096
#define MAXRUNGS 32

typedef struct { char variant[64], kind[32], param[64]; long long n; int threads; double median, gflops, value; } row;
typedef struct { row *r; int count; char amdahl[256]; const char *path; } table;
typedef struct { char name[48]; bool measured; long long at_n; double time, speedup, ceiling; char ceiling_kind[48]; } rung;

static const char *prog = "ladder";

static void die(const char *path, const char *why) { fprintf(stderr, "%s: %s: %s\n", prog, path, why); exit(1); }

static table load(const char *path, const char *how)
{
    FILE *f = fopen(path, "r");
    if (!f) { char w[200]; snprintf(w, sizeof w, "missing (%s writes it)", how); die(path, w); }
    table t = { calloc(MAXROWS, sizeof(row)), 0, "", path };
    char line[1024];
    bool header = false;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "# amdahl_5_omp:", 15)) { snprintf(t.amdahl, sizeof t.amdahl, "%.250s", line + 15); continue; }
        if (line[0] == '#') continue;
        if (!strncmp(line, "program,", 8)) { header = true; continue; }
        if (t.count == MAXROWS) break;
        char *field[20] = { 0 };
        int nf = 0;
        for (char *p = line; nf < 20; nf++) { field[nf] = p; p = strchr(p, ','); if (!p) { nf++; break; } *p++ = 0; }
        if (nf < 20) die(path, "a row with fewer than 20 fields: not a workbook CSV");
        row *r = &t.r[t.count++];
        snprintf(r->variant, sizeof r->variant, "%.63s", field[1]);
        snprintf(r->kind, sizeof r->kind, "%.31s", field[2]);
        snprintf(r->param, sizeof r->param, "%.63s", field[6]);
        r->n = atoll(field[4]); r->threads = atoi(field[5]);
        r->median = strtod(field[8], NULL); r->gflops = strtod(field[16], NULL); r->value = strtod(field[19], NULL);
    }
    fclose(f);
    if (!header) die(path, "no header line: not a workbook CSV");
    return t;
}

/* The row of (variant, param) with threads t (0: any) and n (0: the largest). */
static const row *find(const table *t, const char *variant, const char *param, int threads, long long n)
{
    const row *best = NULL;
    for (int i = 0; i < t->count; i++) {
        const row *r = &t->r[i];
        if (strcmp(r->variant, variant) || strcmp(r->param, param)) continue;
        if (threads && r->threads != threads) continue;
        if (n && r->n != n) continue;
        if (!best || r->n > best->n) best = r;
    }
    return best;
}

static double need(const table *t, const char *variant, const char *param, int threads, long long n, bool rate)
{
    const row *r = find(t, variant, param, threads, n);
    char w[200];
    if (!r) {
        snprintf(w, sizeof w, "no %s row '%s'%s%.0lld: refusing to draw a ladder from an incomplete run", variant,
                 param, n ? " at n = " : "", n);
        die(t->path, w);
    }
    double v = rate ? r->gflops : r->value;
    if (!(v > 0) || !isfinite(v)) {
        snprintf(w, sizeof w, "%s %s: %g is not a positive number: refusing it", variant, param, v);
        die(t->path, w);
    }
    return v;
}

/* ---- the cluster rungs ------------------------------------------------------ */
typedef struct { bool tp; size_t floats; double flops; int bad; double comm_s; } cl_job;

static void cl_rank(pw_rank *r, void *arg)
{
    cl_job *j = arg;
    pw_comm c = coll_comm_cluster(r);
    int t = pw_rank_size(r), me = pw_rank_id(r);
    float *buf = malloc(j->floats * sizeof(float));
    if (!buf) { fprintf(stderr, "%s: out of memory\n", prog); exit(1); }
    size_t part = j->floats / (size_t)t;
    /* small integers: every sum is exact in float, so the check is exact */
    for (size_t x = 0; x < j->floats; x++) buf[x] = j->tp ? (float)(x / part % 7) : (float)((me + x) % 5);
    /* TP: rank r contributes chunk coll_rs_owned_chunk(r) (collectives.h) */
    size_t own = (size_t)coll_rs_owned_chunk(me, t);
    if (j->tp) for (size_t x = own * part; x < (own + 1) * part; x++) buf[x] = (float)(me + x % 3);
    coll_compute(&c, j->flops / t, "gemm");
    double t0 = coll_now(&c);
    if (j->tp) coll_allgather_ring(&c, buf, j->floats); else coll_allreduce_ring(&c, buf, j->floats);
    double dt = coll_now(&c) - t0;
    for (size_t x = 0; x < j->floats; x++) {
        double want = 0;
        if (j->tp) {
            int owner = 0;   /* the rank whose chunk holds x */
            while (owner < t && (size_t)coll_rs_owned_chunk(owner, t) != x / part) owner++;
            want = owner + (double)(x % 3);
        }
        else for (int q = 0; q < t; q++) want += (double)((q + x) % 5);
        if (buf[x] != (float)want) { j->bad = 1; break; }
    }
    if (me == 0) j->comm_s = dt;
    free(buf);
}

/* Modelled seconds of the split GEMM and its collective on t devices. */
static double cluster_rung(bool tp, int t, long long n, double dev_gflops, double *comm_s)
{
    pw_cluster_config cfg = pw_cluster_defaults(t);
    cfg.ranks_per_node = t;   /* one node: the fast link */
    cfg.device_gflops = dev_gflops;
    pw_cluster_check_or_exit(prog, &cfg);
    pw_cluster *cl = pw_cluster_create(&cfg);
    cl_job j = { tp, (size_t)n * n, 2.0 * n * n * (double)n, 0, 0 };
    int rc = pw_cluster_run(cl, cl_rank, &j);
    double alpha = pw_cluster_alpha(cl, 0, 1), beta = pw_cluster_beta(cl, 0, 1), total = pw_cluster_time(cl);
    pw_cluster_destroy(cl);
    double steps = tp ? t - 1 : 2.0 * (t - 1);
    double closed = steps * (alpha + 4.0 * ((double)n * n / t) * beta);
    if (rc || j.bad || fabs(j.comm_s - closed) > 1e-9 * closed + 1e-15) {
        fprintf(stderr, "%s: the %s on %d devices is wrong (%s; modelled %.6e s, closed form %.6e s)\n", prog,
                tp ? "all-gather" : "all-reduce", t, rc ? "the cluster failed" : j.bad ? "wrong values" : "wrong time",
                j.comm_s, closed);
        exit(1);
    }
    *comm_s = closed;
    return total;
}

static double amdahl(double p, int t) { return 1.0 / ((1.0 - p) + p / t); }

int main(int argc, char **argv)
{
    const char *f07 = NULL, *f09 = NULL, *out = NULL;
    int devices = 8;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: ladder --gemm07 CSV --gemm09 CSV [--csv OUT] [--devices T (2..64, default 8)]\n");
            return 0;
        }
        if (i + 1 >= argc) { fprintf(stderr, "%s: %s: needs a value (see --help)\n", prog, a); return 2; }
        const char *v = argv[++i];
        if (!strcmp(a, "--gemm07")) f07 = v;
        else if (!strcmp(a, "--gemm09")) f09 = v;
        else if (!strcmp(a, "--csv")) out = v;
        else if (!strcmp(a, "--devices")) {
            char *end;
            long d = strtol(v, &end, 10);
            if (*end || end == v || d < 2 || d > 64) { fprintf(stderr, "%s: --devices: '%s' is not 2..64\n", prog, v); return 2; }
            devices = (int)d;
        } else { fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, a); return 2; }
    }
    if (!f07 || !f09) { fprintf(stderr, "%s: needs --gemm07 and --gemm09 (see --help)\n", prog); return 2; }

    table c7 = load(f07, "chapter 07's gemm --csv");
    table c9 = load(f09, "chapter 09's gemm --model-n N --csv");
    const row *omp1 = find(&c7, "5_omp", "threads", 1, 0);
    if (!omp1) die(f07, "no 5_omp threads rows: refusing to draw a ladder from an incomplete run");
    long long n = omp1->n;
    double flops = 2.0 * n * n * (double)n;
    int cores = 1;
    const char *cp = strstr(c7.amdahl, "cores=");
    if (cp) cores = atoi(cp + 6);
    if (cores < 1) die(f07, "amdahl_5_omp: cores is not a positive number");
    double p = NAN;
    const char *pp = strstr(c7.amdahl, "p=");
    if (pp) p = strtod(pp + 2, NULL);
    bool fitted = isfinite(p) && p > 0 && p <= 1;

    rung L[MAXRUNGS];
    int nr = 0;
    double naive = need(&c7, "1_naive", "ladder", 1, 0, true);   /* GFLOP/s */
    double seq_s = flops / (naive * 1e9), peak1 = need(&c7, "roof_compute", "GFLOP/s", 1, 0, false);
#define ADD(nm, meas, t, ceil_s, ck) do { rung *x = &L[nr++]; snprintf(x->name, sizeof x->name, "%s", nm); \
        x->measured = meas; x->at_n = n; x->time = t; x->speedup = seq_s / (t); x->ceiling = seq_s / (ceil_s); \
        snprintf(x->ceiling_kind, sizeof x->ceiling_kind, "%s", ck); } while (0)
    const char *seq[] = { "1_naive", "2_ikj", "3_blocked", "4_simd" };
    for (int s = 0; s < 4; s++) {
        /* 1_naive is timed only at the small n, 2 and 3 at the mid n: their
         * rate there, the time at n = 2n^3 / rate (the at_n column says so) */
        double rate = need(&c7, seq[s], "ladder", 1, s == 3 ? n : 0, true);
        ADD(seq[s], true, flops / (rate * 1e9), flops / (peak1 * 1e9), "core peak (roofline)");
        L[nr - 1].at_n = find(&c7, seq[s], "ladder", 1, s == 3 ? n : 0)->n;
    }
    double omp1_s = omp1->median;
    if (!(omp1_s > 0)) die(f07, "5_omp at 1 thread: its time is not a positive number");
    for (int t = 1; t <= cores; t++) {
        const row *r = find(&c7, "5_omp", "threads", t, n);
        if (!r || !(r->median > 0)) die(f07, "a 5_omp thread count up to the cores is missing: refusing it");
        char nm[48];
        snprintf(nm, sizeof nm, "5_omp %dt", t);
        ADD(nm, true, r->median, omp1_s / amdahl(fitted ? p : 1.0, t), fitted ? "Amdahl (fitted p)" : "Amdahl p=1 (no fit)");
    }
    double fp32 = need(&c9, "roof_fp32", "h100", 1, 0, false), tc = need(&c9, "roof_tensor", "h100", 1, 0, false);
    double simt_s = need(&c9, "7_warptile", "model_h100_t_s", 0, n, false);
    double tc_s = need(&c9, "9_wmma_shared_fp16", "model_h100_t_s", 0, n, false);
    ADD("GPU SIMT 7_warptile", false, simt_s, flops / (fp32 * 1e9), "H100 fp32 peak");
    ADD("GPU Tensor Cores 9_wmma", false, tc_s, flops / (tc * 1e9), "H100 Tensor Core peak");
    double dev_gflops = flops / tc_s * 1e-9;   /* each device: the Tensor Core rung's modelled rate */
    /* A cluster rung can stand below the one GPU: each device saves
     * tc_s (1 - 1/devices) of compute but then moves the n x n result over
     * the links. Why, with this run's numbers, goes to the output, the CSV
     * (# note:) and the figure, so the bar is not read as a mistake. */
    char notes[2][320] = { "", "" };
    for (int tp = 0; tp < 2; tp++) {
        double comm;
        double total = cluster_rung(tp, devices, n, dev_gflops, &comm);
        char nm[48];
        snprintf(nm, sizeof nm, "cluster %s %d GPUs", tp ? "TP" : "DP", devices);
        double hidden = fmax(tc_s / devices, comm);
        ADD(nm, false, total, hidden, comm > tc_s / devices ? "link-bound (overlap)" : "compute/t (overlap)");
        if (total > tc_s)
            snprintf(notes[tp], sizeof notes[tp],
                     "%s is slower than one GPU: its %s of the %lldx%lld result (%.1f MB) takes %.0f us on the links, "
                     "more than the %.0f us of compute %d devices save",
                     nm, tp ? "all-gather" : "all-reduce", n, n, (double)n * n * 4 / 1e6, comm * 1e6,
                     (tc_s - tc_s / devices) * 1e6, devices);
    }

    printf("the ladder: one GEMM, n = %lld (2n^3 = %.3g flops), speedup over the sequential loop (1_naive, %.2f GFLOP/s)\n",
           n, flops, naive);
    printf("%-24s %-9s %6s %12s %10s %10s  %s\n", "rung", "how", "at n", "time (s)", "speedup", "ceiling", "ceiling from");
    for (int i = 0; i < nr; i++)
        printf("%-24s %-9s %6lld %12.4e %9.1fx %9.1fx  %s\n", L[i].name, L[i].measured ? "measured" : "MODEL", L[i].at_n, L[i].time,
               L[i].speedup, L[i].ceiling, L[i].ceiling_kind);
    printf("at n: where a measured rung was timed; its time at n = %lld is 2n^3 over its rate there\n", n);
    printf("measured: this machine (%s); MODEL: chapter 09's H100 model and the virtual cluster (%d devices on one node,\n"
           "DP all-reduce / TP all-gather of n^2 floats over its links, each device at the Tensor Core rung's rate)\n",
           f07, devices);
    double top = 0;
    for (int i = 0; i < nr; i++) if (L[i].speedup > top) top = L[i].speedup;
    printf("\nlog10 scale, 1x to %.0fx ('#' measured, 'o' modelled, '|' the ceiling)\n", top);
    double span = log10(fmax(top, 10)) * 1.05, width = 50;
    for (int i = 0; i < nr; i++) {
        int len = (int)(log10(fmax(L[i].speedup, 1)) / span * width), cl = (int)(log10(fmax(L[i].ceiling, 1)) / span * width);
        if (cl > width + 8) cl = (int)width + 8;
        char bar[80];
        int k = 0;
        for (; k < len && k < 78; k++) bar[k] = L[i].measured ? '#' : 'o';
        for (; k < cl && k < 78; k++) bar[k] = ' ';
        if (cl < 78) bar[cl >= len ? cl : len] = '|', k = (cl >= len ? cl : len) + 1;
        bar[k] = 0;
        printf("%-26s %s %.0fx\n", L[i].name, bar, L[i].speedup);
    }
    if (!fitted) printf("note: chapter 07's run gave no Amdahl fit (p = nan); the thread ceilings are linear (p = 1)\n");
    for (int tp = 0; tp < 2; tp++) if (notes[tp][0]) printf("note: %s (modelled)\n", notes[tp]);

    if (out) {
        char tmp[1100];
        snprintf(tmp, sizeof tmp, "%s.tmp", out);
        FILE *f = fopen(tmp, "w");
        if (!f) die(out, "cannot write");
        fprintf(f, "# program: ladder\n# n: %lld\n# gemm07: %s\n# gemm09: %s\n# devices: %d\n", n, f07, f09, devices);
        for (int tp = 0; tp < 2; tp++) if (notes[tp][0]) fprintf(f, "# note: %s (modelled)\n", notes[tp]);
        fprintf(f, "order,rung,how,time_s,speedup,ceiling,ceiling_from,at_n\n");
        for (int i = 0; i < nr; i++)
            fprintf(f, "%d,%s,%s,%.6e,%.6g,%.6g,%s,%lld\n", i + 1, L[i].name, L[i].measured ? "measured" : "modelled", L[i].time,
                    L[i].speedup, L[i].ceiling, L[i].ceiling_kind, L[i].at_n);
        if (fclose(f) || rename(tmp, out)) die(out, "cannot write");
    }
    free(c7.r);
    free(c9.r);
    return 0;
}
