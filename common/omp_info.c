/* common/omp_info.c: the OpenMP settings a program ran with (omp_info.h). */
#define _POSIX_C_SOURCE 200809L
#include "omp_info.h"
#include "timing.h"

#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

bool pw_omp_enabled(void)
{
#ifdef _OPENMP
    return true;
#else
    return false;
#endif
}

void pw_omp_set_threads(int threads)
{
#ifdef _OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

int pw_omp_max_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

int pw_omp_thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

double pw_omp_now(void)
{
#ifdef _OPENMP
    return omp_get_wtime();
#else
    return pw_now();
#endif
}

#ifdef _OPENMP
static const char *env_or_unset(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : "unset";
}

/* _OPENMP is the date of the specification the compiler implements. */
static const char *spec_version(int date)
{
    if (date >= 202111) return "5.2";
    if (date >= 202011) return "5.1";
    if (date >= 201811) return "5.0";
    if (date >= 201511) return "4.5";
    if (date >= 201307) return "4.0";
    if (date >= 201107) return "3.1";
    return "3.0 or older";
}

static const char *schedule_name(omp_sched_t kind)
{
    /* Masked: 5.0 adds a "monotonic" modifier bit to the kind. */
    switch ((int)kind & 0xff) {
    case omp_sched_static: return "static";
    case omp_sched_dynamic: return "dynamic";
    case omp_sched_guided: return "guided";
    case omp_sched_auto: return "auto";
    default: return "other";
    }
}

static const char *bind_name(omp_proc_bind_t b)
{
    switch (b) {
    case omp_proc_bind_false: return "false";
    case omp_proc_bind_true: return "true";
    case omp_proc_bind_master: return "master";
    case omp_proc_bind_close: return "close";
    case omp_proc_bind_spread: return "spread";
    default: return "other";
    }
}
#endif

const char *pw_omp_describe(char *buf, size_t len)
{
#ifdef _OPENMP
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    snprintf(buf, len,
             "OpenMP %s: %d threads at most (OMP_NUM_THREADS=%s OMP_PROC_BIND=%s OMP_PLACES=%s; "
             "bind %s; schedule(runtime) %s,%d)",
             spec_version(_OPENMP), omp_get_max_threads(), env_or_unset("OMP_NUM_THREADS"),
             env_or_unset("OMP_PROC_BIND"), env_or_unset("OMP_PLACES"), bind_name(omp_get_proc_bind()),
             schedule_name(kind), chunk);
#else
    snprintf(buf, len, "built without OpenMP: ran on one thread; get it: %s", PW_OMP_INSTALL_HINT);
#endif
    return buf;
}

void pw_omp_report(FILE *f, pw_csv *csv)
{
    char line[320];
    pw_omp_describe(line, sizeof line);
    fprintf(f, "%s\n", line);
    pw_csv_meta(csv, "openmp", "%s", line);
}
