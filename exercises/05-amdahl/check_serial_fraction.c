/* exercises/05-amdahl/check_serial_fraction.c: the checker of exercise 5.1.
 *
 * Built with your exercises/05-amdahl/serial_fraction.c by `make ex-5.1`, or
 * with the solution by `make solution-5.1`. It makes the timings of programs
 * whose serial fraction it knows: T(N) = T1 (s + (1 - s) / N), exactly, then
 * with +-2% noise from a fixed seed, on 1, 2, 4, 8, 16 threads, on odd
 * counts (1, 3, 5, 7), and in shuffled order. Your estimate must be within
 * 1e-6 of s on exact timings and within 0.02 on noisy ones.
 *
 * Why 0.02: a relative error d in one time moves s = (T(N)/T1 - 1/N) / (1 - 1/N)
 * by about d (T(N)/T1) / (1 - 1/N): 0.02 from the 2-thread run alone at s
 * near 0 with d = 2%. A least-squares fit over all the runs averages that
 * down; the model solution stays within 0.014 on these inputs.
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <stdio.h>

#include "serial_fraction.h"
#include "util.h"

typedef struct {
    const char *name;
    int threads[8];
    int count;
    double s;          /* the truth */
    double noise;      /* relative amplitude of the noise on each time */
} program;

static int failures;

static void make_times(const program *p, double *seconds)
{
    float u[8];
    pw_fill_random(u, 8, 1234 + (uint64_t)(p->s * 1000), -1.0f, 1.0f);
    for (int i = 0; i < p->count; i++) {
        double ideal = 2.5 * (p->s + (1 - p->s) / p->threads[i]);   /* T1 = 2.5 s */
        seconds[i] = ideal * (1 + p->noise * u[i]);
    }
}

static void try_program(const program *p)
{
    double seconds[8];
    make_times(p, seconds);
    double got = estimate_serial_fraction(p->threads, seconds, p->count);
    double tol = p->noise > 0 ? 0.02 : 1e-6;
    printf("  %-44s s = %.3f: you said %.4f ", p->name, p->s, got);
    if (fabs(got - p->s) <= tol) { printf("ok\n"); return; }
    failures++;
    printf("wrong\n");
    if (isnan(got))
        printf("FAIL: the estimate is NaN: a division by zero? (the 1-thread run gives x = 1 - 1/1 = 0)\n");
    else if (fabs(got - (1 - p->s)) <= tol)
        printf("FAIL: you returned p = 1 - s, the parallel fraction: the exercise wants s, the serial one\n");
    else if (p->threads[0] != 1)
        printf("FAIL: off by %.3f when the 1-thread run is not first: look for threads[i] == 1\n", got - p->s);
    else
        printf("FAIL: off by %.3f (allowed %g): is T(N)/T1 = s + (1 - s)/N solved for s, over all runs?\n",
               got - p->s, tol);
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    static const program programs[] = {
        { "exact, 1-16 threads", { 1, 2, 4, 8, 16 }, 5, 0.10, 0 },
        { "exact, all parallel", { 1, 2, 4 }, 3, 0.0, 0 },
        { "exact, all serial", { 1, 2, 4 }, 3, 1.0, 0 },
        { "exact, odd counts 1, 3, 5, 7", { 1, 3, 5, 7 }, 4, 0.25, 0 },
        { "2% noise, 1-16 threads", { 1, 2, 4, 8, 16 }, 5, 0.05, 0.02 },
        { "2% noise, 1-16 threads", { 1, 2, 4, 8, 16 }, 5, 0.30, 0.02 },
        { "2% noise, shuffled order (16, 1, 4, 2, 8)", { 16, 1, 4, 2, 8 }, 5, 0.10, 0.02 },
        { "2% noise, odd counts (7, 3, 1, 5)", { 7, 3, 1, 5 }, 4, 0.50, 0.02 },
    };
    printf("exercise 5.1: estimate_serial_fraction() on %d programs of known s\n",
           (int)(sizeof programs / sizeof programs[0]));
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) try_program(&programs[i]);
    if (failures) {
        printf("FAIL: %d of %d estimates were off\n", failures, (int)(sizeof programs / sizeof programs[0]));
        return 1;
    }
    return pw_ex_pass("every serial fraction recovered (exact within 1e-6, noisy within 0.02)");
}
