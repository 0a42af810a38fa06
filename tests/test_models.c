/* tests/test_models.c: the laws give the seed's numbers, Karp-Flatt gives
 * back the serial fraction, and the fit recovers p. */
#include "models.h"
#include "unit.h"
#include "util.h"

#include <math.h>
#include <stdio.h>

static double one_decimal(double v) { return round(v * 10) / 10; }

static void test_amdahl_seed_numbers(void)
{
    /* p = 0.95: ceiling 20x; 18.6x at N = 256; 19.3x at N = 512. */
    EXPECT(one_decimal(pw_amdahl_ceiling(0.95)) == 20.0, "ceiling 20.0, got %.4f", pw_amdahl_ceiling(0.95));
    EXPECT(one_decimal(pw_amdahl(0.95, 256)) == 18.6, "N=256: 18.6, got %.4f", pw_amdahl(0.95, 256));
    EXPECT(one_decimal(pw_amdahl(0.95, 512)) == 19.3, "N=512: 19.3, got %.4f", pw_amdahl(0.95, 512));
    EXPECT(pw_amdahl(0.95, 1) == 1.0, "one processor: no speedup");
    EXPECT(pw_amdahl(1.0, 64) == 64.0 && isinf(pw_amdahl_ceiling(1.0)), "p = 1: linear, no ceiling");
    EXPECT(pw_amdahl(0.0, 64) == 1.0, "p = 0: nothing to gain");
}

static void test_gustafson(void)
{
    EXPECT(fabs(pw_gustafson(0.05, 256) - 243.25) < 1e-9, "s=0.05, N=256: 0.05 + 256*0.95 = 243.25");
    EXPECT(pw_gustafson(0.3, 1) == 1.0, "one processor: 1");
    EXPECT(pw_efficiency(18.6, 256) < 0.073 && pw_efficiency(18.6, 256) > 0.072, "18.6x on 256 is 7.3%% efficient");
}

static void test_karp_flatt(void)
{
    /* A speedup that follows Amdahl exactly has a constant e = 1 - p. */
    for (int n = 2; n <= 1024; n *= 2) {
        double e = pw_karp_flatt(pw_amdahl(0.9, n), n);
        EXPECT(fabs(e - 0.1) < 1e-12, "N=%d: e = 0.1, got %.15f", n, e);
    }
    EXPECT(fabs(pw_karp_flatt(2.0, 2)) < 1e-15, "perfect speedup: e = 0");
    EXPECT(fabs(pw_karp_flatt(1.0, 4) - 1.0) < 1e-15, "no speedup: e = 1");
    EXPECT(isnan(pw_karp_flatt(1.0, 1)), "N = 1: undefined");
    /* Overhead that grows with N shows as a rising e: t(N) = s + p/N + c*N. */
    double prev = 0;
    for (int n = 2; n <= 16; n *= 2) {
        double t = 0.05 + 0.95 / n + 0.002 * n;
        double e = pw_karp_flatt(1.0 / t, n);
        EXPECT(e > prev, "N=%d: e rises with overhead (%.4f after %.4f)", n, e, prev);
        prev = e;
    }
}

static void test_fit_exact(void)
{
    double n[] = { 1, 2, 3, 4, 8, 16 }, s[6];
    for (int i = 0; i < 6; i++) s[i] = pw_amdahl(0.87, n[i]);
    double rms;
    double p = pw_fit_parallel_fraction(n, s, 6, &rms);
    EXPECT(fabs(p - 0.87) < 1e-12, "exact points give p back, got %.15f", p);
    EXPECT(rms < 1e-12, "and zero residual, got %g", rms);
}

static void test_fit_noisy(void)
{
    /* Speedups with +-3% noise from a fixed seed: p within 1% of the truth. */
    double n[8], s[8];
    float noise[8];
    pw_fill_random(noise, 8, 2024, -0.03f, 0.03f);
    for (int i = 0; i < 8; i++) {
        n[i] = i + 1;
        s[i] = pw_amdahl(0.95, n[i]) * (1 + noise[i]);
    }
    double rms;
    double p = pw_fit_parallel_fraction(n, s, 8, &rms);
    EXPECT(fabs(p - 0.95) / 0.95 < 0.01, "p within 1%% of 0.95, got %.4f", p);
    EXPECT(rms > 0 && rms < 0.3, "residual reflects the noise, got %g", rms);
}

static void test_fit_edges(void)
{
    double n1[] = { 1, 1 }, s1[] = { 1, 1 };
    EXPECT(isnan(pw_fit_parallel_fraction(n1, s1, 2, NULL)), "no point with N > 1: NaN");
    double n[] = { 2, 4 }, slow[] = { 0.5, 0.4 };   /* slower in parallel */
    EXPECT(pw_fit_parallel_fraction(n, slow, 2, NULL) == 0, "slowdowns clamp p to 0");
    double super[] = { 2.5, 6 };                      /* superlinear (cache effects) */
    EXPECT(pw_fit_parallel_fraction(n, super, 2, NULL) == 1, "superlinear clamps p to 1");
}

int main(void)
{
    RUN(test_amdahl_seed_numbers);
    RUN(test_gustafson);
    RUN(test_karp_flatt);
    RUN(test_fit_exact);
    RUN(test_fit_noisy);
    RUN(test_fit_edges);
    return UNIT_RESULT();
}
