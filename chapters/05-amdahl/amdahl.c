/* chapters/05-amdahl/amdahl.c: Amdahl's law and Gustafson's, by the numbers.
 *
 * Nothing is timed here: the program evaluates the two laws and prints the
 * tables the chapter reads, then the answers to the README's prediction:
 * the seed's example (95% of the work parallel: a ceiling of 20x, 18.6x on
 * 256 processors, 19.3x on 512) and where efficiency halves, from the laws.
 * `scaling` then measures a real program against them.
 *
 *   ./build/ch05/amdahl                    p = 0.5, 0.9, 0.95, 0.99
 *   ./build/ch05/amdahl -p 0.999 --csv amdahl.csv
 */
#include "models.h"
#include "options.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

/* Smallest N at which efficiency S(N)/N drops below one half. In closed
 * form N > (2 - p) / (1 - p), but at p = 0.95 that bound is exactly 21, where
 * E is exactly 1/2, and rounding decides the side: counting is clearer. */
static double half_efficiency_n(double p)
{
    for (double n = 1; n < 1e7; n++)
        if (pw_efficiency(pw_amdahl(p, n), n) < 0.5 - 1e-12) return n;
    return INFINITY;
}

int main(int argc, char **argv)
{
    double p_extra = 0;
    pw_opt opts[] = {
        { "-p", "--parallel", PW_OPT_DOUBLE, &p_extra, "P", "also tabulate this parallel fraction (0..1)", 0, 1 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "Amdahl's and Gustafson's laws, evaluated", opts, 1, &common);

    double ps[5] = { 0.5, 0.9, 0.95, 0.99, 0 };
    int np = 4;
    if (p_extra > 0) ps[np++] = p_extra;

    /* Nothing here is measured: every line is the laws' arithmetic, and says so. */
    printf("theory: Amdahl's and Gustafson's laws evaluated (nothing is measured here; `scaling` measures)\n\n");
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    printf("Amdahl (fixed problem): speedup S(N) = 1 / ((1 - p) + p / N)\n%6s", "N");
    for (int j = 0; j < np; j++) printf("   p=%-6g", ps[j]);
    printf("\n");
    for (int n = 1; n <= 1024; n *= 2) {
        printf("%6d", n);
        for (int j = 0; j < np; j++) {
            double s = pw_amdahl(ps[j], n);
            printf(" %9.2f", s);
            char param[32];
            snprintf(param, sizeof param, "p=%g", ps[j]);
            pw_csv_quantity(csv, "amdahl", n, n, param, s);
        }
        printf("\n");
    }
    printf("%6s", "inf");
    for (int j = 0; j < np; j++) printf(" %9.2f", pw_amdahl_ceiling(ps[j]));
    printf("   <- the ceiling 1/(1-p)\n%6s", "E<50%");
    for (int j = 0; j < np; j++) printf(" %9.0f", half_efficiency_n(ps[j]));
    printf("   <- from this N on, half the processors' time is wasted\n\n");

    printf("Gustafson (problem grown with N, serial part s of the N-processor run): S(N) = s + N (1 - s)\n%6s", "N");
    for (int j = 0; j < np; j++) printf("   s=%-6g", 1 - ps[j]);
    printf("\n");
    for (int n = 1; n <= 1024; n *= 2) {
        printf("%6d", n);
        for (int j = 0; j < np; j++) {
            double s = pw_gustafson(1 - ps[j], n);
            printf(" %9.1f", s);
            char param[32];
            snprintf(param, sizeof param, "s=%g", 1 - ps[j]);
            pw_csv_quantity(csv, "gustafson", n, n, param, s);
        }
        printf("\n");
    }
    /* The answers to the README's predictions: the seed's worked example,
     * to one decimal, and where efficiency halves, from the laws above. */
    printf("\nanswer: p = 0.95: ceiling 1/(1-p) = %.1fx; S(256) = %.1fx; S(512) = %.1fx\n",
           pw_amdahl_ceiling(0.95), pw_amdahl(0.95, 256), pw_amdahl(0.95, 512));
    printf("  256x the hardware buys %.1fx (%.0f%% of the ceiling, %.1f%% efficiency);\n"
           "  doubling to 512 adds %.1f%% more speed for 100%% more hardware\n",
           pw_amdahl(0.95, 256), 100 * pw_amdahl(0.95, 256) / pw_amdahl_ceiling(0.95),
           100 * pw_efficiency(pw_amdahl(0.95, 256), 256),
           100 * (pw_amdahl(0.95, 512) / pw_amdahl(0.95, 256) - 1));
    printf("answer: with p = 0.95 efficiency falls below 50%% from N = %.0f on (the E<50%% row)\n",
           half_efficiency_n(0.95));
    printf("\ntheory: the same 5%% serial part: Amdahl caps a fixed job at 20x; Gustafson's job, grown to fill\n"
           "1024 processors, runs %.0fx the work in the time one processor ran the small one.\n",
           pw_gustafson(0.05, 1024));
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
