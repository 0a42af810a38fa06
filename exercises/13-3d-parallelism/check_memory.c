/* exercises/13-3d-parallelism/check_memory.c: the checker of exercise 13.1.
 *
 * Built with your exercises/13-3d-parallelism/memory.c by `make ex-13.1`,
 * or with the solution by `make solution-13.1`. Four models (GPT-3 175B,
 * Llama-2-70B, GPT-3 XL 1.3B and an odd one: 30 layers, h 3072, 24 heads,
 * s 1000, batch 96) and for each a set of configurations: d, t, p, b, m
 * with m below and above p, ZeRO-1 off and on, recomputation off and on.
 *   1. memory_per_device() against the planner's p3_memory_of, to 1e-9
 *      relative (the same sums: only a wrong term misses); a miss is
 *      explained by which part is off (the model states or the activations)
 *      and by the usual mistakes it matches;
 *   2. smallest_pipeline() against the planner's p3_smallest_p on clusters
 *      of 8 to 1024 devices of 40 and 80 GB, t 1 to 8 and micro-batches b
 *      of 1, 2, 3, 4 and 8 sequences: b > 1 is where an answer that builds
 *      its configuration with b = 1 (m = batch / d, activations of one
 *      sequence) or skips "b divides batch / d" differs (b = 3 does not
 *      divide the power-of-two shares of GPT-3 XL's batch of 512, nor
 *      Llama-2's 1024); a miss prints, for the learner's p and the
 *      planner's, d, batch / d, m and the memory against the device's.
 * The last line is PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "memory.h"
#include "parallel3d.h"

static bool close_to(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fabs(want);
}

/* Which usual mistake does got match? Printed under the FAIL line. */
static void explain(const p3_model *md, const p3_config *cf, double got)
{
    p3_memory ref;
    p3_memory_of(md, cf, &ref);
    double states = ref.weights + ref.grads + ref.optimizer, per_dev = p3_params(md) / ((double)cf->t * cf->p);
    printf("  the planner: weights %.3f GB + gradients %.3f GB + optimizer %.3f GB + activations %.3f GB = %.3f GB\n",
           ref.weights / 1e9, ref.grads / 1e9, ref.optimizer / 1e9, ref.activations / 1e9, ref.total / 1e9);
    if (cf->zero1 && close_to(got, ref.total + 12 * per_dev - ref.optimizer))
        printf("  yours matches the optimizer state unsharded: with ZeRO-1 Adam's 12 bytes/param are split over the d = %d replicas\n", cf->d);
    double inflight = cf->m < cf->p ? (double)cf->m : cf->p;
    if (!cf->recompute && cf->m != inflight && close_to(got, states + ref.activations * (double)cf->m / inflight))
        printf("  yours keeps all m = %lld micro-batches: under 1F1B the first stage holds at most min(p, m) = %.0f in flight\n",
               cf->m, inflight);
    p3_config norc = *cf;
    norc.recompute = false;
    p3_memory nr;
    p3_memory_of(md, &norc, &nr);
    if (cf->recompute && close_to(got, nr.total))
        printf("  yours ignores recomputation: with it a layer keeps only its input, 2 s b h / t bytes\n");
    if (close_to(got, states))
        printf("  yours has no activations: the first stage keeps its micro-batches' activations for the backward pass\n");
    printf("  if your model states are the planner's (%.3f GB), your activations are %.3f GB against its %.3f GB\n",
           states / 1e9, (got - states) / 1e9, ref.activations / 1e9);
}

/* The search at one p, in numbers: why p is or is not the answer. Returns
 * what p is: EP_SKIP (not a divisor of the layers, or t p of the devices,
 * or d of the batch), EP_SHARE (b does not divide batch / d), EP_FITS,
 * EP_TOO_BIG. Every memory on these clusters is at least 1.5e-3 (relative)
 * away from the device's memory (measured over the whole sweep below), far
 * above part 1's 1e-9, so a memory_per_device() that passed part 1 cannot
 * flip a fit. */
enum { EP_NONE, EP_SKIP, EP_SHARE, EP_FITS, EP_TOO_BIG };
static int explain_p(const p3_model *md, const p3_cluster *cl, int t, int b, bool z, bool rc, int p, const char *whose)
{
    long long N = (long long)cl->nodes * cl->per_node;
    if (p <= 0) return EP_NONE;
    if (md->layers % p || N % ((long long)t * p)) {
        printf("  %s p = %d: %s\n", whose, p,
               md->layers % p ? "does not divide the layers" : "t p does not divide the devices");
        return EP_SKIP;
    }
    long long d = N / ((long long)t * p);
    if (md->batch % d) {
        printf("  %s p = %d: d = %lld / (%d x %d) = %lld does not divide the batch of %lld\n", whose, p, N, t, p, d, md->batch);
        return EP_SKIP;
    }
    long long share = md->batch / d;
    if (share % b) {
        printf("  %s p = %d: d = %lld, batch / d = %lld / %lld = %lld sequences a replica, not a whole number of micro-batches of b = %d:"
               " not a valid configuration\n", whose, p, d, md->batch, d, share, b);
        return EP_SHARE;
    }
    p3_config cf = { (int)d, t, p, b, share / b, z, rc, P3_ORDER_TDP };
    p3_memory ref;
    p3_memory_of(md, &cf, &ref);
    double yours = memory_per_device(md, &cf);
    bool fits = ref.total <= cl->mem_gb * 1e9;
    printf("  %s p = %d: d = %lld, m = batch / (d b) = %lld / (%lld x %d) = %lld, the planner's memory %.3f GB (activations %.3f GB) %s %g GB",
           whose, p, d, md->batch, d, b, share / b, ref.total / 1e9, ref.activations / 1e9, fits ? "<=" : ">", cl->mem_gb);
    if (!close_to(yours, ref.total)) printf(" (your memory_per_device says %.3f GB)", yours / 1e9);
    printf(": %s\n", fits ? "fits" : "does not fit");
    return fits ? EP_FITS : EP_TOO_BIG;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    p3_model models[4] = { p3_gpt3_175b(), p3_llama2_70b(), { "gpt3-xl", 24, 2048, 16, 2048, 50257, 512 },
                           { "odd", 30, 3072, 24, 1000, 32000, 96 } };
    /* d, t, p, b, m per model are derived so that m is below and above p */
    static const int cfgs[][4] = { { 1, 1, 1, 1 }, { 8, 8, 4, 1 }, { 4, 4, 2, 2 }, { 2, 8, 16, 1 },
                                   { 16, 2, 3, 1 }, { 3, 4, 6, 4 }, { 1, 8, 8, 8 }, { 32, 1, 1, 1 } };
    int n = 0;
    printf("exercise 13.1: memory_per_device() against the planner, then smallest_pipeline()\n");
    for (int k = 0; k < 4; k++) {
        const p3_model *md = &models[k];
        for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
            int d = cfgs[c][0], t = cfgs[c][1], p = cfgs[c][2], b = cfgs[c][3];
            if (md->heads % t || md->layers % p) continue;
            for (int z = 0; z < 2; z++)
                for (int rc = 0; rc < 2; rc++)
                    for (int mm = 0; mm < 2; mm++) {
                        long long m = mm ? 3LL * p + 1 : (p > 1 ? p - 1 : 1);   /* above and below p */
                        p3_config cf = { d, t, p, b, m, z, rc, P3_ORDER_TDP };
                        p3_memory ref;
                        p3_memory_of(md, &cf, &ref);
                        double got = memory_per_device(md, &cf);
                        n++;
                        if (!close_to(got, ref.total)) {
                            printf("  %-10s d %2d t %d p %2d b %d m %3lld ZeRO-1 %-3s recompute %-3s: wrong\n", md->name, d, t, p,
                                   b, m, z ? "on" : "off", rc ? "on" : "off");
                            printf("FAIL: %s, d %d t %d p %d b %d m %lld, ZeRO-1 %s, recomputation %s: yours %.6f GB, the planner's %.6f GB\n",
                                   md->name, d, t, p, b, m, z ? "on" : "off", rc ? "on" : "off", got / 1e9, ref.total / 1e9);
                            explain(md, &cf, got);
                            return 1;
                        }
                    }
        }
        printf("  %-10s memory of every configuration: ok\n", md->name);
    }
    int np = 0;
    static const int clusters[][2] = { { 1, 8 }, { 4, 8 }, { 16, 8 }, { 128, 8 } };
    static const double mems[] = { 40, 80 };
    static const int micro[] = { 1, 2, 3, 4, 8 };   /* sequences a micro-batch: 3 to miss a power-of-two share */
    for (int k = 0; k < 4; k++)
        for (int c = 0; c < 4; c++)
            for (int g = 0; g < 2; g++)
                for (int t = 1; t <= 8; t *= 2)
                    for (size_t bi = 0; bi < sizeof micro / sizeof micro[0]; bi++)
                        for (int z = 0; z < 2; z++)
                            for (int rc = 0; rc < 2; rc++) {
                                int b = micro[bi];
                                p3_cluster cl = p3_cluster_default(clusters[c][0]);
                                cl.per_node = clusters[c][1];
                                cl.mem_gb = mems[g];
                                const p3_model *md = &models[k];
                                int want = p3_smallest_p(md, &cl, t, b, z, rc), got = smallest_pipeline(md, &cl, t, b, z, rc);
                                np++;
                                if (got == want) continue;
                                printf("FAIL: %s on %d devices of %g GB, t = %d, b = %d, ZeRO-1 %s, recomputation %s: your smallest p is %d, the planner's %d%s\n",
                                       md->name, cl.nodes * cl.per_node, cl.mem_gb, t, b, z ? "on" : "off", rc ? "on" : "off", got, want,
                                       want == 0 ? " (nothing fits: return 0)" : "");
                                int why = explain_p(md, &cl, t, b, z, rc, got, "yours:");
                                explain_p(md, &cl, t, b, z, rc, want, "the planner's:");
                                if (why == EP_SHARE)
                                    printf("  b must divide batch / d: each replica runs m = batch / (d b) whole micro-batches of b sequences\n");
                                if (why == EP_TOO_BIG && b > 1 && got == p3_smallest_p(md, &cl, t, 1, z, rc))
                                    printf("  yours is the answer for b = 1: a micro-batch of b = %d sequences keeps %d times one sequence's activations, and m = batch / (d b)\n",
                                           b, b);
                                if (want > 0 && got > want) printf("  a smaller p already fits: try every divisor of the layers in order\n");
                                if (want > 0 && got == 0) printf("  p = %d fits: return the first p that fits, 0 only when none does\n", want);
                                return 1;
                            }
    printf("  smallest pipeline degree on %d clusters x models x settings: ok\n", np);
    return pw_ex_pass("%d memory configurations and %d smallest pipeline degrees equal the planner's", n, np);
}
