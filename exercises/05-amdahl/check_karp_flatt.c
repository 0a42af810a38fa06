/* exercises/05-amdahl/check_karp_flatt.c: the checker of exercise 5.2.
 *
 * Built with your exercises/05-amdahl/karp_flatt.c by `make ex-5.2`, or with
 * the solution by `make solution-5.2`. karp_flatt() is compared with the
 * formula on speedups from Amdahl's law (where e must come out as the serial
 * fraction exactly, to 1e-12) and on its undefined cases; overhead_grows()
 * gets sweeps with a constant e (a serial fraction: 0), a rising e (overhead
 * per processor: 1), tiny e's that wobble or end a little higher (noise:
 * 0), and too few points (0).
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <stdio.h>

#include "karp_flatt.h"
#include "models.h"

static int failures;

static void fail(const char *what)
{
    failures++;
    printf("FAIL: %s\n", what);
}

static void check_formula(void)
{
    printf("  karp_flatt() on Amdahl speedups with s = 0.1 and 0.02 ... ");
    for (int n = 2; n <= 1024; n *= 2) {
        for (int k = 0; k < 2; k++) {
            double s = k ? 0.02 : 0.1, e = karp_flatt(pw_amdahl(1 - s, n), n);
            if (fabs(e - s) > 1e-12) {
                printf("wrong\n");
                if (n == 2 && fabs(e - s) > 0.05)
                    fail("e should equal the serial fraction when the speedup follows Amdahl: "
                         "is 1/n an integer division (1/2 == 0)? write 1.0 / n");
                else
                    fail("e differs from the serial fraction behind the speedup: check the formula "
                         "(1/S - 1/n) / (1 - 1/n)");
                return;
            }
        }
    }
    printf("ok\n  karp_flatt() when undefined ... ");
    if (!isnan(karp_flatt(1.5, 1)) || !isnan(karp_flatt(1.5, 0))) {
        printf("wrong\n");
        fail("with n <= 1 the formula divides by 1 - 1/n = 0: return NAN");
        return;
    }
    if (!isnan(karp_flatt(0, 4)) || !isnan(karp_flatt(-1, 4))) {
        printf("wrong\n");
        fail("a speedup of 0 or less is not a measurement: return NAN");
        return;
    }
    printf("ok\n");
}

static void check_trend(const char *name, const double *speedup, const int *n, int count, int want)
{
    int got = overhead_grows(speedup, n, count);
    printf("  overhead_grows(): %-46s -> %d ", name, got);
    if (got == want) { printf("ok\n"); return; }
    printf("wrong\n");
    char msg[200];
    snprintf(msg, sizeof msg, "%s should give %d: %s", name, want,
             want ? "e rises by more than 20% from the first n > 1 to the last"
                  : "e stays within 20% (or within 0.005): a serial fraction or noise, not growing overhead");
    fail(msg);
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    printf("exercise 5.2: karp_flatt() and overhead_grows()\n");
    check_formula();

    int n[] = { 1, 2, 4, 8, 16 };
    double amdahl[5], overhead[5], wobble[5], perfect[5], noise_up[5];
    /* Tiny e's that end higher than they start (0.0010 -> 0.0014, +40%) but
     * by 0.0004, far inside the 0.005 a timing's noise can move e: no trend.
     * An answer that calls any rise growing overhead says 1 here. */
    const double noise_e[5] = { 0, 0.0010, 0.0012, 0.0011, 0.0014 };
    for (int i = 0; i < 5; i++) {
        amdahl[i] = pw_amdahl(0.9, n[i]);
        /* T(n) = 0.1 + 0.9/n + 0.002 n: start-up that grows with n */
        overhead[i] = 1.0 / (0.1 + 0.9 / n[i] + 0.002 * (n[i] - 1));
        perfect[i] = n[i];
        wobble[i] = n[i] * (i % 2 ? 0.999 : 0.998);   /* e around 0.001-0.002 */
        noise_up[i] = 1.0 / (noise_e[i] + (1.0 - noise_e[i]) / n[i]);
    }
    check_trend("Amdahl p = 0.9 (e = 0.1 everywhere)", amdahl, n, 5, 0);
    check_trend("overhead 0.2% of T1 per processor", overhead, n, 5, 1);
    check_trend("linear speedup with tiny wobbles", wobble, n, 5, 0);
    check_trend("tiny e ending 0.0004 higher (noise)", noise_up, n, 5, 0);
    check_trend("perfect linear speedup (e = 0)", perfect, n, 5, 0);
    check_trend("a single point with n > 1", amdahl, n, 2, 0);
    int odd[] = { 1, 3, 5, 7 };
    double odd_over[4];
    for (int i = 0; i < 4; i++) odd_over[i] = 1.0 / (0.05 + 0.95 / odd[i] + 0.004 * (odd[i] - 1));
    check_trend("odd counts 1, 3, 5, 7 with overhead", odd_over, odd, 4, 1);

    if (failures) {
        printf("FAIL: %d check%s failed\n", failures, failures == 1 ? "" : "s");
        return 1;
    }
    return pw_ex_pass("the formula, its undefined cases, and the trend on 7 sweeps");
}
