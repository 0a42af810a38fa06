/* common/scaling.c: the table, the fit and the record of a parallel sweep. */
#define _POSIX_C_SOURCE 200809L
#include "scaling.h"
#include "models.h"
#include "util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double pw_scaling_karp_flatt(double speedup, int threads, int cores)
{
    return pw_karp_flatt(speedup, threads < cores ? threads : cores);
}

/* Set by pw_scaling_report_modelled for the one call it makes: the unit of
 * the sweep ("devices"), and no median or spread (a model has one value). */
static const char *modelled_unit;

pw_scaling_fit pw_scaling_report(pw_csv *csv, const char *variant, long long n, const char *param,
                                 double baseline_s, const pw_scaling_point *pts, int count,
                                 double flops, double bytes, int cores)
{
    return pw_scaling_report_overlap(csv, variant, n, param, baseline_s, pts, count, flops, bytes, cores, NULL);
}

pw_scaling_fit pw_scaling_report_modelled(pw_csv *csv, const char *variant, long long n, const char *param,
                                          const char *unit, double baseline_s, const pw_scaling_point *pts,
                                          int count, double flops, double bytes, int cores)
{
    modelled_unit = unit && *unit ? unit : "units";
    pw_scaling_fit fit = pw_scaling_report_overlap(csv, variant, n, param, baseline_s, pts, count, flops, bytes, cores,
                                                   NULL);
    modelled_unit = NULL;
    return fit;
}

/* One line for the Karp-Flatt values no serial fraction explains (e < 0 or
 * e > 1), each with what it means, in words. */
static void karp_flatt_words(const pw_scaling_fit *fit, const pw_scaling_point *pts, int count, int cores)
{
    int said = 0;
    for (int i = 0; i < count; i++) {
        double e = fit->karp_flatt[i];
        int nn = pts[i].threads < cores ? pts[i].threads : cores;
        if (isnan(e) || (e >= 0 && e <= 1)) continue;
        printf("%s e = %.4f at %d threads (", said ? ";" : "Karp-Flatt outside 0..1, so no serial fraction explains it:",
               e, pts[i].threads);
        if (e > 1)
            printf("%.2fx: slower than one thread%s)", fit->speedup[i],
                   fit->overlap[i] < PW_OVERLAP_SUSPECT ? ", and its threads got too little CPU to run side by side"
                                                         : ": the threads cost more than they gave");
        else
            printf("%.2fx: more than %d processors can give: a baseline that ran slow, or more cache with more "
                   "cores)", fit->speedup[i], nn);
        said++;
    }
    if (said) printf("\n");
}

pw_scaling_fit pw_scaling_report_overlap(pw_csv *csv, const char *variant, long long n, const char *param,
                                         double baseline_s, const pw_scaling_point *pts, int count,
                                         double flops, double bytes, int cores, const pw_overlap *ov)
{
    pw_scaling_fit fit;
    double fit_n[PW_MAX_LIST], fit_s[PW_MAX_LIST];
    int nfit = 0, threads[PW_MAX_LIST], cpus_allowed = pw_cpus_allowed();
    if (count > PW_MAX_LIST) count = PW_MAX_LIST;
    fit.suspect = 0;
    fit.fitted = 0;
    char left_out[256] = "";

    const char *unit = modelled_unit ? modelled_unit : "threads";
    printf("%s%s%s: speedup against %.4g ms%s\n", variant, param && *param ? " " : "", param ? param : "",
           baseline_s * 1e3, modelled_unit ? " (modelled: one value a point, no spread)" : "");
    if (modelled_unit)
        printf("%8s %12s %9s %11s %11s\n", unit, "modelled", "speedup", "efficiency", "Karp-Flatt");
    else
        printf("%8s %12s %7s %9s %11s %11s\n", "threads", "median", "IQR", "speedup", "efficiency", "Karp-Flatt");
    for (int i = 0; i < count; i++) {
        const pw_scaling_point *pt = &pts[i];
        double s = baseline_s / pt->st.median;
        threads[i] = pt->threads;
        fit.speedup[i] = s;
        fit.efficiency[i] = pw_efficiency(s, pt->threads);
        fit.karp_flatt[i] = pw_scaling_karp_flatt(s, pt->threads, cores);
        fit.overlap[i] = ov ? pw_overlap_share_with_speedup(pw_overlap_share(&ov[i], pt->threads, cores), s,
                                                            pt->threads, cores, cpus_allowed)
                            : NAN;
        bool suspect = !isnan(fit.overlap[i]) && fit.overlap[i] < PW_OVERLAP_SUSPECT;
        fit.suspect += suspect;
        if (pt->threads <= cores && !suspect) {
            fit_n[nfit] = pt->threads;
            fit_s[nfit] = s;
            nfit++;
            fit.fitted += pt->threads > 1;
        } else if (pt->threads <= cores) {
            size_t used = strlen(left_out);
            snprintf(left_out + used, sizeof left_out - used, "%s%d", used ? ", " : "", pt->threads);
        }
        if (modelled_unit)
            printf("%8d %9.4g ms %9.2f %10.1f%%", pt->threads, pt->st.median * 1e3, s, 100 * fit.efficiency[i]);
        else
            printf("%8d %9.4g ms %6.1f%% %9.2f %10.1f%%", pt->threads, pt->st.median * 1e3,
                   100 * (pt->st.q3 - pt->st.q1) / pt->st.median, s, 100 * fit.efficiency[i]);
        if (isnan(fit.karp_flatt[i])) printf(" %11s", "-");
        else printf(" %11.4f", fit.karp_flatt[i]);
        if (pt->threads > cores) printf("   oversubscribed (e with N = %d)", cores);
        if (suspect) printf("   suspect: together %.0f%%", 100 * fit.overlap[i]);
        printf("\n");
        if (modelled_unit) pw_csv_modelled(csv, variant, n, pt->threads, param, pt->st.median, flops, bytes);
        else pw_csv_summary_overlap(csv, variant, n, pt->threads, param, &pt->st, flops, bytes, fit.overlap[i]);
    }
    karp_flatt_words(&fit, pts, count, cores);
    pw_overlap_warn_sweep(stdout, variant, threads, fit.overlap, count, cores);

    fit.p = pw_fit_parallel_fraction(fit_n, fit_s, nfit, &fit.rms);
    /* The range the fit covers: 1 to its largest point, not the cores (a
     * modelled sweep's "cores" is every device it may use). And whether it
     * fits: a point well above its ceiling (5%) says the Amdahl curve does not
     * describe these points, and the curve is then neither read nor drawn. */
    int span = 1, above = 0, worst_at = 0;
    for (int i = 0; i < nfit; i++) span = fit_n[i] > span ? (int)fit_n[i] : span;
    bool poor = false;
    if (fit.p > 0 && fit.p < 1) {
        double ceiling = pw_amdahl_ceiling(fit.p);
        for (int i = 0; i < nfit; i++)
            if (fit_s[i] > 1.05 * ceiling) {
                above++;
                if (!worst_at || fit_s[i] > fit_s[worst_at - 1]) worst_at = i + 1;
            }
        poor = above > 0;
    }
    if (isnan(fit.p)) {
        if (left_out[0])
            printf("Amdahl fit: n/a: the points that could fit it (%s threads, at most %d cores) are suspect: "
                   "their threads got too little CPU to have run side by side, so they say nothing about the "
                   "program's parallel fraction\n", left_out, cores);
        else if (cores < 2)
            printf("Amdahl fit: n/a: %d core, so no two threads could run at the same time\n", cores);
        else
            printf("Amdahl fit: n/a: needs a point with 2 or more threads on as many cores\n");
    } else if (fit.p <= 0) {
        /* The least-squares p was clamped at 0: no point was faster than one thread. */
        int best = 0;
        for (int i = 0; i < count; i++)
            if (pts[i].threads > 1 && pts[i].threads <= cores && !(fit.overlap[i] < PW_OVERLAP_SUSPECT) &&
                (best == 0 || fit.speedup[i] > fit.speedup[best - 1]))
                best = i + 1;
        printf("Amdahl fit over 1..%d %s: p = 0: this run showed no speedup (best %.2fx at %d %s), so it "
               "gives no parallel fraction and no ceiling", span, unit, best ? fit.speedup[best - 1] : 1.0,
               best ? pts[best - 1].threads : 1, unit);
        if (best && !isnan(fit.overlap[best - 1]))
            printf("; the threads did run together %.0f%% of that run: their cost ate the gain", 100 * fit.overlap[best - 1]);
        printf("\n");
    } else if (fit.p >= 1) {
        printf("Amdahl fit over 1..%d %s: p = 1: no serial part %s (speedups at or above the %s "
               "count), so no ceiling can be read from this run, rms %.2f", span, unit,
               modelled_unit ? "modelled" : "measured", modelled_unit ? "unit" : "thread", fit.rms);
        if (left_out[0]) printf(" (left out, suspect: %s)", left_out);
        printf("\n");
    } else {
        printf("Amdahl fit over 1..%d %s: p = %.4f (serial %.1f%%), ceiling %.1fx, rms %.2f", span, unit, fit.p,
               100 * (1 - fit.p), pw_amdahl_ceiling(fit.p), fit.rms);
        if (left_out[0]) printf(" (left out, suspect: %s)", left_out);
        if (poor)
            printf("\n  a poor fit: %d point%s above its ceiling (%.2fx at %d %s), so these points are not an Amdahl\n"
                   "  curve: no serial fraction is read from it, and the figure draws no fit", above,
                   above == 1 ? " lies" : "s lie", fit_s[worst_at - 1], (int)fit_n[worst_at - 1], unit);
        printf("\n");
    }

    /* The record the plot template reads: p for the curve, e(N) for the key,
     * the suspect points for the note. */
    char kf[1024] = "", sus[256] = "", item[48];
    for (int i = 0; i < count; i++) {
        if (!isnan(fit.overlap[i]) && fit.overlap[i] < PW_OVERLAP_SUSPECT) {
            snprintf(item, sizeof item, "%s%d", sus[0] ? "," : "", pts[i].threads);
            strncat(sus, item, sizeof sus - strlen(sus) - 1);
        }
        if (isnan(fit.karp_flatt[i])) continue;
        snprintf(item, sizeof item, "%s%d:%.3f", kf[0] ? "," : "", pts[i].threads, fit.karp_flatt[i]);
        strncat(kf, item, sizeof kf - strlen(kf) - 1);
    }
    char key[128];
    snprintf(key, sizeof key, "amdahl_%s", variant);
    pw_csv_meta(csv, key, "p=%.6f rms=%.4f cores=%d baseline_s=%.6g karp_flatt=%s suspect=%s fits=%s", fit.p, fit.rms,
                cores, baseline_s, kf[0] ? kf : "none", sus[0] ? sus : "none", poor ? "no" : "yes");
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

void pw_scaling_answer(const char *what, const pw_scaling_point *pts, int count, const pw_scaling_fit *fit,
                       int cores)
{
    int in = -1, over = -1;   /* indices: most threads <= cores, most threads > cores */
    int swept = 0;            /* points with 2..cores threads, suspect or not */
    for (int i = 0; i < count; i++) {
        swept += pts[i].threads > 1 && pts[i].threads <= cores;
        if (!isnan(fit->overlap[i]) && fit->overlap[i] < PW_OVERLAP_SUSPECT) continue;
        if (pts[i].threads > 1 && pts[i].threads <= cores && (in < 0 || pts[i].threads > pts[in].threads)) in = i;
        if (pts[i].threads > cores && (over < 0 || pts[i].threads > pts[over].threads)) over = i;
    }
    if (cores < 2) {
        printf("answer: not shown on this run: one core, so the threads take turns and cannot run faster than one\n");
        return;
    }
    if (in < 0) {
        if (swept)
            printf("answer: not shown on this run: on %s%d threads the threads did not run at the same time "
                   "(see the suspect lines): rerun on an idle machine\n", cores > 2 ? "2 to " : "", cores);
        else
            printf("answer: not shown on this run: the sweep had no thread count from 2 to %d (-t)\n", cores);
        return;
    }
    printf("answer: on %d threads %s ran %.2fx as fast as the sequential loop (efficiency %.0f%%)", pts[in].threads,
           what, fit->speedup[in], 100 * fit->efficiency[in]);
    if (over >= 0)
        printf("; on %d threads, more than the %d cores, %.2fx", pts[over].threads, cores, fit->speedup[over]);
    printf("\n");
}
