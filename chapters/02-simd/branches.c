/* chapters/02-simd/branches.c: masks instead of branches, and what a
 * branch that cannot be a mask costs.
 *
 * piecewise: y = x >= 0 ? x*x : x/2. The vector rungs compute both arms in
 * every lane and keep one per lane with a mask (a blend): no jump, so the
 * time cannot depend on the data. piecewise_branch has a call in one arm,
 * which no compiler turns into a mask: each element takes a conditional
 * jump, and the CPU guesses its direction ahead of time. Sorted data makes
 * the guess right nearly always; random signs make it wrong about half the
 * time, and each wrong guess throws away the work started after it.
 *
 * piecewise_auto is the plain loop, left to the compiler; whether it gets a
 * mask depends on the compiler and the ISA (gcc keeps the branch below
 * AVX-512 under C's trap rules; kernels/simd_notrap.c says why), and
 * piecewise_notrap is the same loop under -fno-trapping-math. The program
 * does not assume which: it reads it from the times (random against sorted)
 * and says so in its findings.
 *
 *   ./build/ch02/branches              n = 262144 (2 MiB for x and y: L3)
 *   ./build/ch02/branches -n 65536 --isa sse
 *
 * Two tables: every rung on random and on sorted signs (50% negative); then
 * the share of negative elements swept from 0% to 100% for the branchy,
 * scalar, both auto and best hand-written rungs: a branch costs most at 50%,
 * where the predictor has nothing to learn, and nothing at 0% or 100%.
 */
#include "driver.h"
#include "results.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

typedef struct { const simd_variant *v; const float *x; float *y; size_t n; } br_ctx;
static void run_map(void *p) { br_ctx *c = p; c->v->map(c->x, c->y, c->n); }

static int cmp_float(const void *a, const void *b)
{
    float u = *(const float *)a, v = *(const float *)b;
    return (u > v) - (u < v);
}

/* x with `pct` percent negative elements (magnitudes in [0.5, 1)), signs in
 * random order or sorted (all negatives first): the same values either way. */
static void fill_signs(float *x, float *tmp, size_t n, int pct, bool sorted)
{
    pw_fill_random(x, n, 21, 0.5f, 1.0f);
    pw_fill_random(tmp, n, 22, 0.0f, 100.0f);
    for (size_t i = 0; i < n; i++) if (tmp[i] < (float)pct) x[i] = -x[i];
    if (sorted) qsort(x, n, sizeof *x, cmp_float);
}

/* Time v on x; returns ns per element and writes one CSV row. */
static double time_one(const pw_bench_config *cfg, const simd_variant *v, const float *x, float *y,
                       size_t n, int pct, bool sorted, pw_csv *csv)
{
    br_ctx ctx = { v, x, y, n };
    pw_bench_stats st;
    pw_bench(cfg, run_map, &ctx, &st);
    char param[24];
    snprintf(param, sizeof param, "%s-%d", sorted ? "sorted" : "random", pct);
    pw_csv_summary(csv, v->name, (long long)n, 1, param, &st, (double)n, 8.0 * (double)n);
    return st.median * 1e9 / (double)n;
}


/* A rung whose random-order time is within 1.5x of its sorted-order time
 * does not care about the data (a mask rung's 0.1 ns per element wobbles by
 * 20-30% on a shared machine); one 2x slower or worse pays for branches the
 * predictor misses (half of them wrong at 50% negatives: 4-9x in our runs). In between, this run cannot tell (a busy machine,
 * or a branch the predictor half learnt). */
#define SAME_RATIO 1.5
#define BRANCH_RATIO 2.0

static const char *verdict(double r)
{
    if (r <= SAME_RATIO) return "same for any order: no mispredicted branch";
    if (r >= BRANCH_RATIO) return "random is slower: a branch the predictor misses";
    return "in between: this run cannot tell";
}

/* Index of the rung named `name` in rungs[], or -1. */
static int rung_index(const simd_variant *const *rungs, int nr, const char *name)
{
    for (int i = 0; i < nr; i++) if (!strcmp(rungs[i]->name, name)) return i;
    return -1;
}

/* The findings, each computed from the two tables above it. */
static void conclude(const simd_variant *const *rungs, const double *ratio, int nr,
                     const simd_variant *const *sweep, double sw[][7], int nsweep,
                     const int *pcts, int npct, size_t n, const pw_hw *hw)
{
    printf("\nWhat this run shows:\n");
    int ib = rung_index(rungs, nr, "piecewise_branch");
    int ia = rung_index(rungs, nr, "piecewise_auto"), in = rung_index(rungs, nr, "piecewise_notrap");
    int is = rung_index(rungs, nr, "piecewise_scalar");
    if (ib >= 0 && ratio[ib] < BRANCH_RATIO) {
        printf("- piecewise_branch cost only %.2fx on random signs: this run cannot show the misprediction cost (n = %zu)\n",
               ratio[ib], n);
    } else if (ib >= 0) {
        /* Table 2: where the branch costs most, against the ends (0%, 100%). */
        int k = 0, worst = 0;
        for (int j = 0; j < nsweep; j++) if (sweep[j] == rungs[ib]) k = j;
        for (int p = 1; p < npct; p++) if (sw[k][p] > sw[k][worst]) worst = p;
        double ends = sw[k][0] < sw[k][npct - 1] ? sw[k][0] : sw[k][npct - 1];
        printf("- piecewise_branch: random signs cost %.2fx sorted; across the sweep it is slowest at %d%%\n"
               "  negative (%.2f ns) and cheapest at an end (%.2f ns), where the predictor always guesses right.\n",
               ratio[ib], pcts[worst], sw[k][worst], ends);
    }
    if (ia >= 0) {
        bool auto_branch = ratio[ia] >= BRANCH_RATIO, auto_mask = ratio[ia] <= SAME_RATIO;
        printf("- piecewise_auto %s (%.2fx random over sorted).\n", auto_branch ? "kept a branch" :
               auto_mask ? "does not care about the data" : "is unclear in this run", ratio[ia]);
        if (in >= 0)
            printf("  piecewise_notrap, the same source under -fno-trapping-math, %s (%.2fx).\n",
                   ratio[in] <= SAME_RATIO ? "does not care about the data" :
                   ratio[in] >= BRANCH_RATIO ? "kept a branch too" : "is unclear", ratio[in]);
        if (auto_branch && in >= 0 && ratio[in] <= SAME_RATIO)
            printf("  Under C's trap rules the compiler would not compute both arms without AVX-512\n"
                   "  masks (this build: %s); -fno-trapping-math allowed it (kernels/simd_notrap.c).\n",
                   pw_isa_name(hw->isa));
        else if (auto_mask && ib >= 0 && ratio[ib] >= BRANCH_RATIO)
#if defined(__clang__)
            printf("  clang computed both arms and blended them: it assumes no float traps by default.\n");
#else
            printf("  The compiler computed both arms and blended them%s.\n", hw->isa == PW_ISA_AVX512
                   ? ", with AVX-512 masks switching off the lanes whose arm C did not ask for" : "");
#endif
    }
    if (is >= 0)
        printf("- piecewise_scalar (vectoriser off) %s (%.2fx): whether one float at a time\n"
               "  gets a jump or a select is the compiler's choice.\n",
               ratio[is] >= BRANCH_RATIO ? "branches" : ratio[is] <= SAME_RATIO ? "does not care about the data"
               : "is unclear", ratio[is]);
    int masks = 0, branches = 0;
    for (int i = 0; i < nr; i++) { masks += ratio[i] <= SAME_RATIO; branches += ratio[i] >= BRANCH_RATIO; }
    printf("- %d of %d rungs cost the same for any order of the data; %d paid for mispredicted branches.\n",
           masks, nr, branches);

    /* The answer to step 3's prediction: random over sorted for the plain
     * loop and the branchy one, as table 1 rounds them. */
    printf("\nanswer: piecewise_auto: %.2fx random over sorted, %s", ia >= 0 ? ratio[ia] : 0,
           ia < 0 ? "not shown on this run (not built)" : verdict(ratio[ia]));
    if (ib >= 0 && ratio[ib] >= BRANCH_RATIO)
        printf("; piecewise_branch: %.2fx, %s\n", ratio[ib], verdict(ratio[ib]));
    else if (ib >= 0)
        printf("; piecewise_branch: %.2fx, not shown on this run: under %.0fx (n = %zu: the predictor may have learnt"
               " the data)\n", ratio[ib], BRANCH_RATIO, n);
    else
        printf("\n");
}

int main(int argc, char **argv)
{
    /* Large enough that the branch predictor cannot learn the pattern by heart:
     * timing repeats the call over the same data, and at n = 16384 this
     * Zen 4 core had learnt much of it (random cost 1.4x sorted, not 4x). */
    pw_list sizes = PW_LIST(262144);
    const char *isa = NULL;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N", "elements (default 262144; one size)", 1, PW_SIZE_MAX },
        { NULL, "--isa", PW_OPT_STRING, &isa, "ISA", CH02_ISA_HELP, 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "masks vs branches: a piecewise function on random and sorted data", opts, 2, &common);
    if (sizes.n != 1) {
        fprintf(stderr, "%s: -n takes one size here\n", common.prog);
        return PW_EXIT_USAGE;
    }
    if (common.tiny) sizes = (pw_list)PW_LIST(1000);
    pw_hw hw;
    pw_probe_static(&hw);
    ch02_apply_isa(common.prog, isa, &hw);
    size_t n = (size_t)sizes.v[0];
    pw_require_memory(common.prog, "-n", (long long)n, sizeof(float), 5);
    ch02_bufs b = ch02_bufs_alloc(n > CH02_AWKWARD_MAX ? n : CH02_AWKWARD_MAX);
    float *tmp = pw_alloc_floats(n);

    if (ch02_verify_kernel(SIMD_PIECEWISE, &hw, &sizes, &b)) {
        fprintf(stderr, "%s: a variant gave a wrong result; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the reference exactly (sizes 1, 7, 15, 17, 33, 1000003 and %zu)\n", n);
    ch02_print_skipped(SIMD_PIECEWISE, &hw);

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "isa", "%s", pw_isa_name(hw.isa));
    pw_csv_meta(csv, "param", "order of the signs (random or sorted) - percent of negative elements");
    pw_bench_config cfg = pw_bench_from_opts(&common);

    /* Table 1: every rung, half the signs negative, random vs sorted. The
     * verdict is read from the two times, not from what the rung is meant
     * to be: a compiler may keep a branch where the source hoped for a mask
     * (piecewise_auto with gcc below AVX-512), or turn a branch into a
     * select (piecewise_scalar with clang). */
    printf("\nn = %zu, 50%% negative%-8s %10s %10s\n%-18s %5s %10s %10s %9s  %s\n", n, "", "ns/element", "",
           "variant", "lanes", "random", "sorted", "random/sorted", "what the times say");
    const simd_variant *rungs[32];
    double ratio[32];
    int nr = 0;
    for (int i = 0; i < simd_nvariants && nr < 32; i++) {
        const simd_variant *v = &simd_variants[i];
        if (v->kernel != SIMD_PIECEWISE || !simd_runs_here(v, &hw)) continue;
        double t[2];
        for (int sorted = 0; sorted < 2; sorted++) {
            fill_signs(b.x, tmp, n, 50, sorted);
            t[sorted] = time_one(&cfg, v, b.x, b.y, n, 50, sorted, csv);
        }
        rungs[nr] = v;
        ratio[nr] = t[0] / t[1];
        char lanes[8];
        printf("%-18s %5s %10.3f %10.3f %8.2fx   %s\n", v->name, ch02_lanes(v, lanes, sizeof lanes), t[0], t[1],
               ratio[nr], verdict(ratio[nr]));
        nr++;
    }

    /* Table 2: the share of negatives, random order: the branchy rung, the
     * scalar and both auto rungs, and the best hand-written one. */
    const simd_variant *cand[5] = { simd_find("piecewise_branch"), simd_find("piecewise_scalar"),
                                    simd_find("piecewise_auto"), simd_find("piecewise_notrap"),
                                    simd_best(SIMD_PIECEWISE, &hw) };
    const simd_variant *sweep[5];
    int nsweep = 0;
    for (int k = 0; k < 5; k++) {
        bool dup = false;   /* no vector ISA: the best is the scalar rung */
        for (int j = 0; j < nsweep; j++) dup |= sweep[j] == cand[k];
        if (cand[k] && !dup) sweep[nsweep++] = cand[k];
    }
    static const int pcts[] = { 0, 10, 25, 50, 75, 90, 100 };
    enum { NPCT = sizeof pcts / sizeof pcts[0] };
    double sw[5][NPCT];
    printf("\nns/element against the share of negative elements (random order)\n%-10s", "negative");
    for (int k = 0; k < nsweep; k++) printf(" %17s", sweep[k]->name);
    printf("\n");
    for (int p = 0; p < NPCT; p++) {
        fill_signs(b.x, tmp, n, pcts[p], false);
        printf("%9d%%", pcts[p]);
        for (int k = 0; k < nsweep; k++) {
            sw[k][p] = time_one(&cfg, sweep[k], b.x, b.y, n, pcts[p], false, csv);
            printf(" %17.3f", sw[k][p]);
        }
        printf("\n");
    }
    conclude(rungs, ratio, nr, sweep, sw, nsweep, pcts, NPCT, n, &hw);
    pw_free(tmp);
    ch02_bufs_free(&b);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
