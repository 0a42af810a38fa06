/* common/options.c: the strict parser behind options.h. */
#define _POSIX_C_SOURCE 200809L
#include "options.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The options every program has, in the same table shape as its own. */
static long long common_reps;
static double common_min_time;
static const char *common_csv;
static bool common_tiny;
static const pw_opt common_opts[] = {
    { NULL, "--csv", PW_OPT_STRING, &common_csv, "FILE", "write results as CSV to FILE", 0, 0 },
    { "-r", "--reps", PW_OPT_INT, &common_reps, "N", "at least N timed repeats (default 7, at most 1000)", 1, 1000 },
    { NULL, "--min-time", PW_OPT_DOUBLE, &common_min_time, "S", "and at least S seconds of samples (default 0.05)", 0, 3600 },
    { NULL, "--tiny", PW_OPT_FLAG, &common_tiny, NULL, "smallest meaningful run (smoke tests)", 0, 0 },
};
#define NCOMMON ((int)(sizeof common_opts / sizeof common_opts[0]))

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static const char *opt_label(const pw_opt *o) { return o->short_name ? o->short_name : o->long_name; }

/* Parse one whole number with an optional K/M/G suffix. Returns 0 or sets msg. */
static int parse_whole(const char *s, long long *out, const char **msg)
{
    if (*s == '\0') { *msg = "is empty"; return -1; }
    if (*s == '-' && s[1] >= '0' && s[1] <= '9') { *msg = "is negative"; return -1; }
    const char *p = s;
    if (*p == '+') p++;
    if (*p < '0' || *p > '9') { *msg = "is not a whole number"; return -1; }
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno == ERANGE || v > (unsigned long long)LLONG_MAX) { *msg = "is too large (past 64 bits)"; return -1; }
    unsigned long long mult = 1;
    if (*end == 'K' || *end == 'k') { mult = 1ull << 10; end++; }
    else if (*end == 'M' || *end == 'm') { mult = 1ull << 20; end++; }
    else if (*end == 'G' || *end == 'g') { mult = 1ull << 30; end++; }
    if (*end != '\0') { *msg = "is not a whole number"; return -1; }
    if (v > (unsigned long long)LLONG_MAX / mult) { *msg = "is too large (past 64 bits)"; return -1; }
    *out = (long long)(v * mult);
    return 0;
}

static int in_range(const char *prog, const char *label, const char *text, long long v,
                    long long min, long long max)
{
    if (v < min) {
        fprintf(stderr, "%s: %s %s: must be at least %lld\n", prog, label, text, min);
        return -1;
    }
    if (v > max) {
        fprintf(stderr, "%s: %s %s: must be at most %lld\n", prog, label, text, max);
        return -1;
    }
    return 0;
}

int pw_parse_list(const char *prog, const char *label, const char *text, pw_list *out,
                  long long min, long long max)
{
    pw_list l = { .n = 0 };
    const char *msg = NULL;
    if (*text == '\0') {
        fprintf(stderr, "%s: %s: the list is empty\n", prog, label);
        return PW_PARSE_ERROR;
    }
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[64];
        if (len == 0) {
            fprintf(stderr, "%s: %s '%s': an item of the list is empty\n", prog, label, text);
            return PW_PARSE_ERROR;
        }
        if (len >= sizeof item || l.n == PW_MAX_LIST) {
            fprintf(stderr, "%s: %s '%s': %s\n", prog, label, text,
                    len >= sizeof item ? "an item is too long" : "too many items (at most 64)");
            return PW_PARSE_ERROR;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        long long v;
        if (parse_whole(item, &v, &msg)) {
            fprintf(stderr, "%s: %s '%s' %s\n", prog, label, item, msg);
            return PW_PARSE_ERROR;
        }
        if (in_range(prog, label, item, v, min, max)) return PW_PARSE_ERROR;
        l.v[l.n++] = v;
        if (!comma) break;
        p = comma + 1;
    }
    *out = l;
    return PW_PARSE_OK;
}

static int parse_value(const char *prog, const pw_opt *o, const char *text)
{
    const char *msg = NULL;
    switch (o->kind) {
    case PW_OPT_INT: {
        long long v;
        if (parse_whole(text, &v, &msg)) {
            fprintf(stderr, "%s: %s '%s' %s\n", prog, opt_label(o), text, msg);
            return -1;
        }
        if (in_range(prog, opt_label(o), text, v, o->min, o->max)) return -1;
        *(long long *)o->dest = v;
        return 0;
    }
    case PW_OPT_SIZES:
        return pw_parse_list(prog, opt_label(o), text, (pw_list *)o->dest, o->min, o->max) ? -1 : 0;
    case PW_OPT_DOUBLE: {
        char *end;
        errno = 0;
        double v = strtod(text, &end);
        if (*text == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v)) {
            fprintf(stderr, "%s: %s '%s' is not a finite number\n", prog, opt_label(o), text);
            return -1;
        }
        if (v < (double)o->min || v > (double)o->max) {
            fprintf(stderr, "%s: %s %s: must be between %lld and %lld\n", prog, opt_label(o), text, o->min, o->max);
            return -1;
        }
        *(double *)o->dest = v;
        return 0;
    }
    case PW_OPT_STRING:
        if (*text == '\0') {
            fprintf(stderr, "%s: %s: the value is empty\n", prog, opt_label(o));
            return -1;
        }
        *(const char **)o->dest = text;
        return 0;
    case PW_OPT_FLAG:
        *(bool *)o->dest = true;
        return 0;
    }
    return -1;
}

static const pw_opt *find(const char *name, size_t len, const pw_opt *opts, int nopts)
{
    for (int pass = 0; pass < 2; pass++) {
        const pw_opt *t = pass ? common_opts : opts;
        int n = pass ? NCOMMON : nopts;
        for (int i = 0; i < n; i++) {
            const char *s = t[i].short_name, *l = t[i].long_name;
            if ((s && strlen(s) == len && !strncmp(s, name, len)) ||
                (l && strlen(l) == len && !strncmp(l, name, len)))
                return &t[i];
        }
    }
    return NULL;
}

static void usage_line(const pw_opt *o)
{
    char left[64];
    snprintf(left, sizeof left, "%s%s%s %s", o->short_name ? o->short_name : "",
             o->short_name && o->long_name ? ", " : "", o->long_name ? o->long_name : "",
             o->metavar ? o->metavar : "");
    printf("  %-26s %s\n", left, o->help);
}

static void usage(const char *prog, const char *summary, const pw_opt *opts, int nopts)
{
    printf("%s: %s\n\nusage: %s [options]\n\noptions:\n", prog, summary, prog);
    for (int i = 0; i < nopts; i++) usage_line(&opts[i]);
    for (int i = 0; i < NCOMMON; i++) usage_line(&common_opts[i]);
    printf("  %-26s %s\n", "--help", "this text");
    printf("\nexit status: 0 all checks passed, 1 a result was wrong, 2 bad input, 77 skipped\n");
}

int pw_parse(int argc, char **argv, const char *summary,
             const pw_opt *opts, int nopts, pw_common_opts *common)
{
    const char *prog = base_name(argc > 0 && argv[0] ? argv[0] : "program");
    common_csv = NULL; common_reps = 0; common_min_time = 0; common_tiny = false;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(prog, summary, opts, nopts);
            return PW_PARSE_HELP;
        }
        /* --name=value is accepted too. */
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const pw_opt *o = arg[0] == '-' && arg[1] ? find(arg, len, opts, nopts) : NULL;
        if (!o) {
            fprintf(stderr, "%s: %.*s: %s (see --help)\n", prog, (int)len, arg,
                    arg[0] == '-' ? "unknown option" : "unexpected argument");
            return PW_PARSE_ERROR;
        }
        const char *value = NULL;
        if (o->kind != PW_OPT_FLAG) {
            if (eq) value = eq + 1;
            else if (i + 1 < argc) value = argv[++i];
            else {
                fprintf(stderr, "%s: %s needs a value (%s)\n", prog, opt_label(o), o->metavar);
                return PW_PARSE_ERROR;
            }
        } else if (eq) {
            fprintf(stderr, "%s: %.*s takes no value\n", prog, (int)len, arg);
            return PW_PARSE_ERROR;
        }
        if (parse_value(prog, o, value)) return PW_PARSE_ERROR;
    }
    /* A --csv that cannot be written is bad input, found now: the file itself
     * is opened only after the checks and the probe, which take over 20 s
     * under ASan on a busy 2-core machine. */
    if (common_csv && !pw_output_writable(prog, "--csv", common_csv)) return PW_PARSE_ERROR;
    common->prog = prog;
    common->csv = common_csv;
    common->reps = (int)common_reps;
    common->min_time = common_min_time;
    common->tiny = common_tiny;
    return PW_PARSE_OK;
}

bool pw_output_writable(const char *prog, const char *option, const char *path)
{
    /* Create and remove a sibling file: it answers for the folder, the
     * permissions and the file system at once, without touching PATH. */
    size_t len = strlen(path) + 32;
    char *probe = malloc(len);
    if (!probe) { fprintf(stderr, "%s: out of memory\n", prog); return false; }
    snprintf(probe, len, "%s.probe.%ld", path, (long)getpid());
    FILE *f = fopen(probe, "w");
    if (!f) {
        fprintf(stderr, "%s: %s %s: cannot write there (%s)\n", prog, option, path, strerror(errno));
        free(probe);
        return false;
    }
    fclose(f);
    remove(probe);
    free(probe);
    return true;
}

void pw_parse_or_exit(int argc, char **argv, const char *summary,
                      const pw_opt *opts, int nopts, pw_common_opts *common)
{
    int rc = pw_parse(argc, argv, summary, opts, nopts, common);
    if (rc == PW_PARSE_HELP) exit(PW_EXIT_PASS);
    if (rc == PW_PARSE_ERROR) exit(PW_EXIT_USAGE);
}

double pw_available_memory(void)
{
    const char *override = getenv("PW_MEM_AVAILABLE");
    if (override && *override) {
        double v = strtod(override, NULL);
        if (v > 0) return v;
    }
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        double kib = -1;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %lf kB", &kib) == 1) break;
        fclose(f);
        if (kib > 0) return kib * 1024.0;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 1e18;
}

void pw_require_memory(const char *prog, const char *flag, long long count,
                       size_t elem_bytes, int buffers)
{
    unsigned long long bytes;
    char need[32], have[32];
    double avail = pw_available_memory();
    if (count < 0 || __builtin_mul_overflow((unsigned long long)count, (unsigned long long)elem_bytes, &bytes) ||
        __builtin_mul_overflow(bytes, (unsigned long long)buffers, &bytes)) {
        fprintf(stderr, "%s: %s %lld: the buffers' size overflows 64 bits\n", prog, flag, count);
        exit(PW_EXIT_USAGE);
    }
    if ((double)bytes > avail) {
        fprintf(stderr, "%s: %s %lld needs %s for %d buffer%s, but only %s of memory is available\n",
                prog, flag, count, pw_fmt_bytes((double)bytes, need, sizeof need), buffers,
                buffers == 1 ? "" : "s", pw_fmt_bytes(avail, have, sizeof have));
        exit(PW_EXIT_USAGE);
    }
}

long long pw_list_max(const pw_list *l)
{
    long long m = 0;
    for (int i = 0; i < l->n; i++) if (l->v[i] > m) m = l->v[i];
    return m;
}
