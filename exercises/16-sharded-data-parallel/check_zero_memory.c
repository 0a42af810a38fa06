/* exercises/16-sharded-data-parallel/check_zero_memory.c: the checker of exercise 16.3.
 *
 * Built with your exercises/16-sharded-data-parallel/zero_memory.c by
 * `make ex-16.3`, or with the solution by `make solution-16.3`. What it tries:
 *   1. the ZeRO paper's Figure 1 (Rajbhandari et al., SC 2020): 7.5B
 *      parameters, 64 devices, 2/2/12 bytes: 120, 31.4, 16.6 and 1.9 GB a
 *      device at stages 0-3 (the paper rounds; here 120, 31.40625, 16.640625
 *      and 1.875 GB exactly);
 *   2. one device: sharding over one device changes nothing (16 psi at every
 *      stage);
 *   3. stage 3 on odd device counts (3, 7, 13), with a parameter count they do
 *      not divide;
 *   4. other precisions: fp32 Adam (4, 4, 8), fp16 weights with fp32
 *      gradients (2, 4, 12), K = 16 and K = 4 (SGD with momentum in fp32);
 *   5. hidden configurations: 200 drawn from a fixed seed (every stage, 1 to
 *      1024 devices, 1M to 1T parameters).
 * The formula has no rounding of its own: each part is compared with the
 * checker's to 1e-12 relative (a division and a multiplication in another
 * order differ by a few units in the last place, 1e-16). A wrong part is
 * explained: the stage it matches, K = 12 hard-coded, d - 1 for d.
 * Last line "PASS: ..." and exit 0, or exit 1.
 */
#include "exercise.h"
#include "zero_memory.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The checker's formula, written as "which kinds are sharded" rather than
 * as the solution's comparisons. */
static zm_bytes want(double psi, int stage, int d, double wb, double gb, double k)
{
    static const int shards[4][3] = {   /* optimizer, gradients, weights */
        { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 1, 1, 1 } };
    zm_bytes b;
    b.optimizer = shards[stage][0] ? k * psi / d : k * psi;
    b.grads = shards[stage][1] ? gb * psi / d : gb * psi;
    b.weights = shards[stage][2] ? wb * psi / d : wb * psi;
    b.total = b.weights + b.grads + b.optimizer;
    return b;
}

static bool close_to(double got, double ref) { return fabs(got - ref) <= 1e-12 * fabs(ref) + 1e-300; }
static bool same(zm_bytes a, zm_bytes b)
{
    return close_to(a.weights, b.weights) && close_to(a.grads, b.grads) && close_to(a.optimizer, b.optimizer)
        && close_to(a.total, b.total);
}

/* What a wrong answer matches, in words. */
static void explain(double psi, int stage, int d, double wb, double gb, double k, zm_bytes got, zm_bytes ref)
{
    static const char *kind[3] = { "weights", "grads", "optimizer" };
    double g[3] = { got.weights, got.grads, got.optimizer }, r[3] = { ref.weights, ref.grads, ref.optimizer };
    for (int i = 0; i < 3; i++)
        if (!close_to(g[i], r[i])) {
            printf("  %s: %.6g bytes, want %.6g (%s)\n", kind[i], g[i], r[i],
                   close_to(g[i], r[i] * d) ? "held whole: it is sharded at this stage" :
                   close_to(g[i] * d, r[i]) ? "sharded: it is held whole at this stage" : "neither whole nor 1/d of it");
            break;
        }
    if (stage == 2 && close_to(got.weights * d, ref.weights))
        printf("  stage 2 shards the optimizer state and the gradients; the weights stay whole on every device\n"
               "  until stage 3 (ZeRO's P_os+g keeps 2 psi of fp16 weights on each)\n");
    else if (stage > 0 && same(got, want(psi, stage - 1, d, wb, gb, k)))
        printf("  that is stage %d's answer: the stages are numbered from 0 (plain data parallelism); stage 1\n"
               "  already shards the optimizer state\n", stage - 1);
    else if (stage < 3 && same(got, want(psi, stage + 1, d, wb, gb, k)))
        printf("  that is stage %d's answer: stage s shards the first s of (optimizer state, gradients, weights)\n",
               stage + 1);
    else if (k != 12 && same(got, want(psi, stage, d, wb, gb, 12)))
        printf("  that is the answer for K = 12: the optimizer's bytes per parameter are the argument k (12 is\n"
               "  mixed-precision Adam's; fp32 Adam has 8, momentum SGD 4)\n");
    else if (d > 1 && same(got, want(psi, stage, d - 1, wb, gb, k)))
        printf("  that is the answer for %d devices: each of d devices holds 1/d of a sharded state, itself included\n",
               d - 1);
    else if (wb != gb && same(got, want(psi, stage, d, gb, wb, k)))
        printf("  the bytes per weight and per gradient are swapped\n");
    else if (!close_to(got.total, got.weights + got.grads + got.optimizer))
        printf("  total must be weights + grads + optimizer\n");
}

static int n_cases;

static bool check(double psi, int stage, int d, double wb, double gb, double k, const char *label)
{
    zm_bytes ref = want(psi, stage, d, wb, gb, k);
    zm_bytes got = zm_per_device(psi, stage, d, wb, gb, k);
    n_cases++;
    if (label) printf("  %-34s %10.4f GB (want %10.4f GB) ", label, got.total / 1e9, ref.total / 1e9);
    if (same(got, ref)) {
        if (label) printf("ok\n");
        return true;
    }
    if (!label) printf("  hidden case %d: ", n_cases);
    printf("wrong\nFAIL: psi = %.10g, stage %d, %d devices, %g/%g/%g bytes: total %.10g bytes a device, want %.10g\n",
           psi, stage, d, wb, gb, k, got.total, ref.total);
    explain(psi, stage, d, wb, gb, k, got, ref);
    return false;
}

static uint64_t rng = 0x16031603u;
static double uniform(void)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    char label[64];
    printf("exercise 16.3: zm_per_device(), the model states of one device under ZeRO\n");
    printf("1. the ZeRO paper's Figure 1 (7.5B parameters, 64 devices, 2/2/12 bytes: 120, 31.4, 16.6, 1.9 GB):\n");
    for (int s = 0; s <= 3; s++) {
        snprintf(label, sizeof label, "stage %d", s);
        if (!check(7.5e9, s, 64, 2, 2, 12, label)) return 1;
    }
    printf("2. one device (nothing to shard: 16 psi at every stage):\n");
    for (int s = 0; s <= 3; s++) {
        snprintf(label, sizeof label, "1.5B, stage %d, 1 device", s);
        if (!check(1.5e9, s, 1, 2, 2, 12, label)) return 1;
    }
    printf("3. stage 3 on odd device counts:\n");
    static const int odd[] = { 3, 7, 13 };
    for (int i = 0; i < 3; i++) {
        snprintf(label, sizeof label, "1.3B + 1, stage 3, %d devices", odd[i]);
        if (!check(1.3e9 + 1, 3, odd[i], 2, 2, 12, label)) return 1;
        snprintf(label, sizeof label, "1.3B + 1, stage 2, %d devices", odd[i]);
        if (!check(1.3e9 + 1, 2, odd[i], 2, 2, 12, label)) return 1;
    }
    printf("4. other bytes per parameter:\n");
    static const double prec[4][3] = { { 4, 4, 8 }, { 2, 4, 12 }, { 2, 2, 16 }, { 4, 4, 4 } };
    for (int i = 0; i < 4; i++)
        for (int s = 0; s <= 3; s++) {
            snprintf(label, sizeof label, "6.7B, stage %d, 8 dev, %g/%g/%g", s, prec[i][0], prec[i][1], prec[i][2]);
            if (!check(6.7e9, s, 8, prec[i][0], prec[i][1], prec[i][2], label)) return 1;
        }
    printf("5. 200 hidden configurations: ");
    static const double ks[] = { 12, 8, 16, 4, 6 }, bs[] = { 2, 4, 1 };
    for (int i = 0; i < 200; i++) {
        double psi = floor(pow(10, 6 + 6 * uniform()));
        int stage = (int)(uniform() * 4), d = 1 + (int)(uniform() * 1024);
        double wb = bs[(int)(uniform() * 3)], gb = bs[(int)(uniform() * 3)], k = ks[(int)(uniform() * 5)];
        if (!check(psi, stage, d, wb, gb, k, NULL)) return 1;
    }
    printf("ok\n");
    return pw_ex_pass("the model states of one device are right at every stage, for %d configurations with the\n"
                      "  paper's Figure 1 among them", n_cases);
}
