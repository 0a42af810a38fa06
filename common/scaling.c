/* common/scaling.c: the table, the fit and the record of a parallel sweep. */
#define _POSIX_C_SOURCE 200809L
#include "scaling.h"
#include "models.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

pw_scaling_fit pw_scaling_report(pw_csv *csv, const char *variant, long long n, const char *param,
                                 double baseline_s, const pw_scaling_point *pts, int count,
                                 double flops, double bytes, int cores)
{
    pw_scaling_fit fit;
    double fit_n[PW_MAX_LIST], fit_s[PW_MAX_LIST];
    int nfit = 0;
    if (count > PW_MAX_LIST) count = PW_MAX_LIST;

    printf("%s%s%s: speedup against %.4g ms\n", variant, param && *param ? " " : "", param ? param : "",
           baseline_s * 1e3);
    printf("%8s %12s %7s %9s %11s %11s\n", "threads", "median", "IQR", "speedup", "efficiency", "Karp-Flatt");
    for (int i = 0; i < count; i++) {
        const pw_scaling_point *pt = &pts[i];
        double s = baseline_s / pt->st.median;
        fit.speedup[i] = s;
        fit.efficiency[i] = pw_efficiency(s, pt->threads);
        fit.karp_flatt[i] = pw_karp_flatt(s, pt->threads);
        if (pt->threads <= cores) { fit_n[nfit] = pt->threads; fit_s[nfit] = s; nfit++; }
        printf("%8d %9.4g ms %6.1f%% %9.2f %10.1f%%", pt->threads, pt->st.median * 1e3,
               100 * (pt->st.q3 - pt->st.q1) / pt->st.median, s, 100 * fit.efficiency[i]);
        if (isnan(fit.karp_flatt[i])) printf(" %11s", "-");
        else printf(" %11.4f", fit.karp_flatt[i]);
        printf("%s\n", pt->threads > cores ? "   oversubscribed" : "");
        pw_csv_summary(csv, variant, n, pt->threads, param, &pt->st, flops, bytes);
    }
    fit.p = pw_fit_parallel_fraction(fit_n, fit_s, nfit, &fit.rms);
    if (isnan(fit.p)) {
        printf("Amdahl fit: needs a point with 2 or more threads on as many cores\n");
    } else {
        printf("Amdahl fit over 1..%d threads: p = %.4f (serial %.1f%%), ceiling %.1fx, rms %.2f\n",
               cores, fit.p, 100 * (1 - fit.p), pw_amdahl_ceiling(fit.p), fit.rms);
    }

    /* The record the plot template reads: p for the curve, e(N) for the key. */
    char kf[1024] = "", item[48];
    for (int i = 0; i < count; i++) {
        if (isnan(fit.karp_flatt[i])) continue;
        snprintf(item, sizeof item, "%s%d:%.3f", kf[0] ? "," : "", pts[i].threads, fit.karp_flatt[i]);
        strncat(kf, item, sizeof kf - strlen(kf) - 1);
    }
    char key[128];
    snprintf(key, sizeof key, "amdahl_%s", variant);
    pw_csv_meta(csv, key, "p=%.6f rms=%.4f cores=%d baseline_s=%.6g karp_flatt=%s", fit.p, fit.rms, cores,
                baseline_s, kf[0] ? kf : "none");
    return fit;
}

void pw_default_threads(pw_list *threads, const char *prog)
{
    const char *env = getenv("THREADS");
    if (env && *env) {
        /* Parsed exactly like a -t option, so the same input gets the same verdict. */
        if (pw_parse_list(prog, "THREADS", env, threads, 1, PW_MAX_THREADS) != PW_PARSE_OK) exit(PW_EXIT_USAGE);
        return;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    threads->n = 0;
    for (long t = 1; t <= cores && threads->n < PW_MAX_LIST - 1; t *= 2) threads->v[threads->n++] = t;
    if (threads->v[threads->n - 1] != cores) threads->v[threads->n++] = cores;
    threads->v[threads->n++] = 2 * cores;
}
