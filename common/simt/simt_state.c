/* common/simt/simt_state.c: the emulator's state that every part reads (the
 * running thread, the last error, the counters of the last launch, what a
 * report printed) and its settings (PW_SIMT_* in the environment, or the
 * pw_simt_set_* calls). The bottom of the emulator: it calls no other file
 * of it (simt_state.h says the order). */
#define _GNU_SOURCE
#include "simt_state.h"

#include <sched.h>

/* ---- state --------------------------------------------------------------------- */

_Thread_local pw_simt_thread *simt_cur;          /* the running emulated thread, or NULL */
_Thread_local worker *simt_tls_worker;           /* the calling thread's, kept between launches */

pthread_mutex_t simt_state_lock = PTHREAD_MUTEX_INITIALIZER;   /* errors, allocations, reports */
cudaError_t simt_last_error;
char simt_last_message[2048];
pw_simt_counters simt_last_counters, simt_total_counters;
char simt_last_kernel[256];   /* the last launch's kernel, as written before <<< */
bool simt_quiet;
bool simt_counting;   /* the per-warp counts: on in programs that read them (simt_counters.c) */
uint64_t simt_shuffle_seed;
int simt_workers_setting;       /* 0: not set yet */
unsigned simt_checks = PW_CHECK_ALL;
long long simt_spin_limit = DEFAULT_SPIN_LIMIT;
bool simt_leak_checking;   /* PW_SIMT_LEAK_CHECK=1 (pwsan --leak-check full): on; off by default, as compute-sanitizer */
bool simt_settings_read;
long simt_reports, simt_reports_loud;
char simt_last_report[2048];   /* kept in quiet mode too: checkers explain it */
int simt_launch_reports[4];     /* per check, this launch: printed ones */
long simt_launch_suppressed;

void simt_read_settings(void)
{
    if (simt_settings_read) return;
    simt_settings_read = true;
    const char *s = getenv("PW_SIMT_SHUFFLE");
    if (s && *s) simt_shuffle_seed = strtoull(s, NULL, 10);
    const char *w = getenv("PW_SIMT_WORKERS");
    if (w && *w && !simt_workers_setting) {
        char *end;
        long v = strtol(w, &end, 10);
        if (*end || v < 1 || v > 256) {
            fprintf(stderr, "simt: PW_SIMT_WORKERS=%s: give a count of OS threads from 1 to 256\n", w);
            exit(2);
        }
        simt_workers_setting = (int)v;
    }
    if (!simt_workers_setting) simt_workers_setting = simt_default_workers();
    const char *c = getenv("PW_SIMT_CHECKS");
    if (c && *c) {
        unsigned m = 0;
        char buf[256];
        snprintf(buf, sizeof buf, "%s", c);
        for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", ")) {
            if (!strcmp(tok, "all")) m |= PW_CHECK_ALL;
            else if (!strcmp(tok, "none")) m |= 0;
            else if (!strcmp(tok, "memcheck")) m |= PW_CHECK_MEMCHECK;
            else if (!strcmp(tok, "racecheck")) m |= PW_CHECK_RACECHECK;
            else if (!strcmp(tok, "initcheck")) m |= PW_CHECK_INITCHECK;
            else if (!strcmp(tok, "synccheck")) m |= PW_CHECK_SYNCCHECK;
            else {
                fprintf(stderr, "simt: PW_SIMT_CHECKS=%s: '%s' is not one of all, none, memcheck, racecheck, "
                        "initcheck, synccheck\n", c, tok);
                exit(2);
            }
        }
        simt_checks = m;
    }
    const char *lc = getenv("PW_SIMT_LEAK_CHECK");
    if (lc && *lc) simt_leak_checking = strcmp(lc, "0") != 0;
    const char *l = getenv("PW_SIMT_SPIN_LIMIT");
    if (l && *l) {
        long long v = strtoll(l, NULL, 10);
        if (v > 0) simt_spin_limit = v;
    }
}

/* The default number of workers: the cores this process may run on (its
 * affinity mask, which a container or taskset narrows), at most 256. */
int simt_default_workers(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        return n < 1 ? 1 : n > 256 ? 256 : n;
    }
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

/* Read without waiting for the device: what is set now. */
int pw_simt_workers(void) { simt_read_settings(); return simt_workers_setting; }
unsigned pw_simt_checks(void) { simt_read_settings(); return simt_checks; }
