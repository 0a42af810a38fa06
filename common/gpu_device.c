/* common/gpu_device.c: GPU devices as data files (common/gpus/NAME.gpu), their
 * parser and validator, and the lookup of a device by name or path.
 *
 * The format (common/gpus/README.md says it for users): one "key = value"
 * a line; every number ends with the sources it comes from, "[id]" or
 * "[id, id2]", each id defined by a "ref id = title, URL" line of the same
 * file; '#' at the start of a line or after a blank starts a comment (so a
 * URL's "#anchor" survives). Every rejection is one line naming the file and,
 * where there is one, the line: a wrong device file must fail loudly, never
 * feed the model a typo.
 */
#define _POSIX_C_SOURCE 200809L
#include "gpu_model.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#ifndef PW_GPU_DIR
#define PW_GPU_DIR "common/gpus" /* the Makefile gives the absolute path */
#endif

/* ---- the keys ------------------------------------------------------------------------------ */

enum kind { K_STR, K_INT, K_DBL, K_KIB };   /* K_KIB: an integer of KiB in the file, bytes in the struct */

typedef struct {
    const char *name;
    enum kind kind;
    size_t off;        /* offsetof(pw_gpu, field) */
    size_t size;       /* K_STR: the field's size */
    int optional;      /* 1: may be absent (then 0) */
    int zero_ok;       /* 1: 0 allowed (0 = none / not quoted) */
} key_spec;

#define STR(f) { #f, K_STR, offsetof(pw_gpu, f), sizeof(((pw_gpu *)0)->f), 0, 0 }
#define INT(f) { #f, K_INT, offsetof(pw_gpu, f), 0, 0, 0 }
#define DBL(f) { #f, K_DBL, offsetof(pw_gpu, f), 0, 0, 0 }

static const key_spec keys[] = {
    STR(name),
    STR(arch),
    INT(sms),
    DBL(clock_ghz),
    DBL(fp32_tflops),
    INT(fp32_lanes_per_sm),
    INT(schedulers_per_sm),
    { "tc16_dense_tflops", K_DBL, offsetof(pw_gpu, tc16_dense_tflops), 0, 1, 1 },
    { "tc16_sparse_tflops", K_DBL, offsetof(pw_gpu, tc16_sparse_tflops), 0, 1, 1 },
    DBL(dram_gbs),
    DBL(l2_gbs),
    DBL(l2_mb),
    DBL(l1_bytes_per_clk),
    INT(max_threads_per_block),
    INT(max_warps_per_sm),
    INT(max_blocks_per_sm),
    INT(regs_per_sm),
    INT(regs_per_block),
    INT(max_regs_per_thread),
    INT(reg_alloc_unit),
    { "smem_per_sm_kb", K_KIB, offsetof(pw_gpu, smem_per_sm), 0, 0, 0 },
    { "smem_per_block_kb", K_KIB, offsetof(pw_gpu, smem_per_block), 0, 0, 0 },
    INT(smem_reserved_per_block),
    INT(smem_alloc_unit),
    DBL(lat_dram_cycles),
    DBL(lat_l2_cycles),
    DBL(lat_smem_cycles),
    DBL(lat_ffma_cycles),
};
enum { NKEYS = (int)(sizeof keys / sizeof keys[0]) };

/* ---- small helpers ------------------------------------------------------------------------- */

static void say(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) s[--n] = '\0';
    return s;
}

/* An id of a key or a reference: letters, digits, '_', '-', '.'. */
static int is_id(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.') return 0;
    return 1;
}

/* Edit distance of two short strings, for "did you mean". */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    int row[64];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int sub = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            int best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[lb];
}

static int find_key(const char *name)
{
    for (int k = 0; k < NKEYS; k++)
        if (!strcmp(keys[k].name, name)) return k;
    return -1;
}

/* "unknown key 'smz' (did you mean 'sms'?)" or the list of the known keys. */
static void unknown_key(char *err, size_t errlen, const char *where, const char *name)
{
    int best = -1, bestd = 99;
    for (int k = 0; k < NKEYS; k++) {
        int d = distance(name, keys[k].name);
        if (d < bestd) bestd = d, best = k;
    }
    int len = (int)strlen(name);
    if (best >= 0 && bestd <= (len > 9 ? 3 : 2)) {
        say(err, errlen, "%s: unknown key '%s' (did you mean '%s'?)", where, name, keys[best].name);
        return;
    }
    char list[1024] = "";
    size_t used = 0;
    for (int k = 0; k < NKEYS && used < sizeof list; k++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", keys[k].name);
    say(err, errlen, "%s: unknown key '%s' (known: %s, and 'ref ID = text')", where, name, list);
}

/* A decimal number and nothing else: no hex, no inf/nan. 0 ok; -1 not a
 * number at all; -2 a number followed by junk. */
static int parse_number(const char *s, double *out)
{
    if (!*s) return -1;
    const char *p = s;
    if (*p == '+' || *p == '-') p++;
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1]))) return -1;
    for (const char *q = s; *q; q++)
        if (*q == 'x' || *q == 'X' || *q == 'p' || *q == 'P') return -2;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (end == s) return -1;
    if (*end) return -2;
    if (errno == ERANGE || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

/* ---- loading one file ---------------------------------------------------------------------- */

enum { MAX_REFS = 64, MAX_CITES = 8, LINE_MAX_LEN = 4096 };

typedef struct {
    char id[64];
    int line;
} ref_def;

typedef struct {
    int line[NKEYS];               /* where each key was set, 0: not set */
    char cite[NKEYS][MAX_CITES][64];
    int ncite[NKEYS];
    ref_def refs[MAX_REFS];
    int nrefs;
} parse_state;

/* The stem of a path: its last component without the ".gpu" (or any) extension. */
static int stem_of(const char *path, char *out, size_t outlen)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base) n = (size_t)(dot - base);
    if (n == 0 || n >= outlen) return -1;
    memcpy(out, base, n);
    out[n] = '\0';
    return 0;
}

/* One "key = value [refs]" line into g. 0 or -1 with err. */
static int set_key(pw_gpu *g, parse_state *st, const char *where, int lineno, const char *key, char *value,
                   char *err, size_t errlen)
{
    int k = find_key(key);
    if (k < 0) {
        unknown_key(err, errlen, where, key);
        return -1;
    }
    if (st->line[k]) {
        say(err, errlen, "%s: duplicate key '%s' (first set on line %d)", where, key, st->line[k]);
        return -1;
    }
    st->line[k] = lineno;
    const key_spec *ks = &keys[k];

    /* the sources: "[id]" or "[id, id2]" at the end; required for numbers */
    char *val = value;
    size_t n = strlen(val);
    if (n && val[n - 1] == ']') {
        char *open = strrchr(val, '[');
        if (!open) {
            say(err, errlen, "%s: '%s': a ']' without its '[' in '%s'", where, key, value);
            return -1;
        }
        val[n - 1] = '\0';
        *open = '\0';
        char *ids = open + 1;
        for (char *tok = ids;;) {
            char *comma = strchr(tok, ',');
            if (comma) *comma = '\0';
            char *id = trim(tok);
            if (!is_id(id) || strlen(id) >= 64) {
                say(err, errlen, "%s: '%s': bad source id '[%s]' (letters, digits, '_', '-', '.')", where, key, id);
                return -1;
            }
            if (st->ncite[k] == MAX_CITES) {
                say(err, errlen, "%s: '%s': more than %d sources", where, key, MAX_CITES);
                return -1;
            }
            strcpy(st->cite[k][st->ncite[k]++], id);
            if (!comma) break;
            tok = comma + 1;
        }
        val = trim(val);
    }
    if (!*val) {
        say(err, errlen, "%s: '%s' has no value", where, key);
        return -1;
    }

    if (ks->kind == K_STR) {
        if (strlen(val) >= ks->size) {
            say(err, errlen, "%s: '%s' is too long (at most %zu characters): '%s'", where, key, ks->size - 1, val);
            return -1;
        }
        if (!strcmp(key, "arch")) {
            int ok = !strncmp(val, "sm_", 3) && val[3];
            for (const char *p = val + 3; ok && *p; p++) ok = isdigit((unsigned char)*p);
            if (!ok) {
                say(err, errlen, "%s: arch must be sm_NN (NN digits, as ptxas's -arch takes): '%s'", where, val);
                return -1;
            }
        }
        strcpy((char *)g + ks->off, val);
        return 0;
    }

    if (st->ncite[k] == 0) {
        say(err, errlen, "%s: '%s = %s' has no source: end it with [id] naming a 'ref id = title, URL' line",
            where, key, val);
        return -1;
    }
    double v;
    int r = parse_number(val, &v);
    if (r == -1) {
        say(err, errlen, "%s: '%s' is not a number: '%s'", where, key, val);
        return -1;
    }
    if (r == -2) {
        say(err, errlen, "%s: '%s': junk after the number: '%s'", where, key, val);
        return -1;
    }
    if (ks->zero_ok ? v < 0 : v <= 0) {
        say(err, errlen, "%s: '%s' must be %s: '%s'", where, key, ks->zero_ok ? ">= 0 (0: none)" : "> 0", val);
        return -1;
    }
    if (ks->kind == K_DBL) {
        *(double *)((char *)g + ks->off) = v;
        return 0;
    }
    double limit = ks->kind == K_KIB ? INT_MAX / 1024 : INT_MAX;
    if (v != floor(v)) {
        say(err, errlen, "%s: '%s' must be a whole number: '%s'", where, key, val);
        return -1;
    }
    if (v > limit) {
        say(err, errlen, "%s: '%s' is too large: '%s'", where, key, val);
        return -1;
    }
    *(int *)((char *)g + ks->off) = (int)v * (ks->kind == K_KIB ? 1024 : 1);
    return 0;
}

/* One "ref id = text" line. */
static int add_ref(parse_state *st, const char *where, int lineno, const char *id, const char *text, char *err,
                   size_t errlen)
{
    if (!is_id(id) || strlen(id) >= sizeof st->refs[0].id) {
        say(err, errlen, "%s: bad ref id '%s' (letters, digits, '_', '-', '.')", where, id);
        return -1;
    }
    if (!*text) {
        say(err, errlen, "%s: ref '%s' has no text (a title and a URL)", where, id);
        return -1;
    }
    for (int i = 0; i < st->nrefs; i++)
        if (!strcmp(st->refs[i].id, id)) {
            say(err, errlen, "%s: duplicate ref '%s' (first on line %d)", where, id, st->refs[i].line);
            return -1;
        }
    if (st->nrefs == MAX_REFS) {
        say(err, errlen, "%s: more than %d refs", where, MAX_REFS);
        return -1;
    }
    strcpy(st->refs[st->nrefs].id, id);
    st->refs[st->nrefs].line = lineno;
    st->nrefs++;
    return 0;
}

/* Cut a comment: '#' at the start or after a blank. */
static void cut_comment(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
            *p = '\0';
            return;
        }
}

static int parse_file(FILE *f, const char *path, pw_gpu *g, parse_state *st, char *err, size_t errlen)
{
    char buf[LINE_MAX_LEN];
    char where[600];
    int lineno = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        size_t n = strlen(buf);
        if (n == sizeof buf - 1 && buf[n - 1] != '\n') {
            int c = fgetc(f);
            if (c != EOF) {
                say(err, errlen, "%s: line too long (over %d characters)", where, LINE_MAX_LEN - 2);
                return -1;
            }
        }
        cut_comment(buf);
        char *line = trim(buf);
        if (!*line) continue;
        char *eq = strchr(line, '=');
        if (!eq) {
            say(err, errlen, "%s: malformed line (expected 'key = value [ref]' or 'ref id = text'): '%s'", where,
                line);
            return -1;
        }
        *eq = '\0';
        char *lhs = trim(line), *rhs = trim(eq + 1);
        if (!strncmp(lhs, "ref", 3) && (lhs[3] == ' ' || lhs[3] == '\t' || lhs[3] == '\0')) {
            char *id = trim(lhs + 3);
            if (!*id) {
                say(err, errlen, "%s: a ref needs an id: 'ref id = title, URL'", where);
                return -1;
            }
            if (add_ref(st, where, lineno, id, rhs, err, errlen)) return -1;
            continue;
        }
        if (!is_id(lhs)) {
            say(err, errlen, "%s: malformed line (expected 'key = value [ref]' or 'ref id = text'): bad key '%s'",
                where, lhs);
            return -1;
        }
        if (set_key(g, st, where, lineno, lhs, rhs, err, errlen)) return -1;
    }
    if (ferror(f)) {
        say(err, errlen, "%s: read error: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The whole file read: every cited ref defined, every required key there,
 * and the figures consistent with each other. */
static int check_file(const char *path, const pw_gpu *g, const parse_state *st, char *err, size_t errlen)
{
    for (int k = 0; k < NKEYS; k++)
        for (int c = 0; c < st->ncite[k]; c++) {
            int found = 0;
            for (int r = 0; r < st->nrefs && !found; r++) found = !strcmp(st->refs[r].id, st->cite[k][c]);
            if (!found) {
                say(err, errlen, "%s:%d: '%s' cites [%s], but no 'ref %s = ...' line defines it", path,
                    st->line[k], keys[k].name, st->cite[k][c], st->cite[k][c]);
                return -1;
            }
        }
    for (int k = 0; k < NKEYS; k++)
        if (!st->line[k] && !keys[k].optional) {
            say(err, errlen, "%s: missing '%s' (required; common/gpus/README.md lists the keys)", path, keys[k].name);
            return -1;
        }
    /* The datasheet's FP32 peak is lanes x 2 flops (an FMA) x clock: a
     * figure 2% off is a typo in one of the four. */
    double peak = g->sms * (double)g->fp32_lanes_per_sm * 2 * g->clock_ghz / 1000;
    if (fabs(g->fp32_tflops - peak) > 0.02 * peak) {
        say(err, errlen,
            "%s: fp32_tflops %g disagrees with sms x fp32_lanes_per_sm x 2 x clock_ghz / 1000 = %d x %d x 2 x %g / "
            "1000 = %.2f (more than 2%% apart)",
            path, g->fp32_tflops, g->sms, g->fp32_lanes_per_sm, g->clock_ghz, peak);
        return -1;
    }
    if ((double)g->max_warps_per_sm * 32 < g->max_threads_per_block) {
        say(err, errlen, "%s: max_warps_per_sm x 32 = %d is less than max_threads_per_block = %d", path,
            g->max_warps_per_sm * 32, g->max_threads_per_block);
        return -1;
    }
    if (g->smem_per_block > g->smem_per_sm) {
        say(err, errlen, "%s: smem_per_block_kb %d is more than smem_per_sm_kb %d", path, g->smem_per_block / 1024,
            g->smem_per_sm / 1024);
        return -1;
    }
    if (g->regs_per_block > g->regs_per_sm) {
        say(err, errlen, "%s: regs_per_block %d is more than regs_per_sm %d", path, g->regs_per_block,
            g->regs_per_sm);
        return -1;
    }
    return 0;
}

int pw_gpu_load(const char *path, pw_gpu *g, char *err, size_t errlen)
{
    if (!path || !*path || !g) {
        say(err, errlen, "pw_gpu_load: no file given");
        return -1;
    }
    pw_gpu tmp;
    memset(&tmp, 0, sizeof tmp);
    if (strlen(path) >= sizeof tmp.path) {
        say(err, errlen, "%s: path too long (at most %zu characters)", path, sizeof tmp.path - 1);
        return -1;
    }
    if (stem_of(path, tmp.key, sizeof tmp.key)) {
        say(err, errlen, "%s: no usable file name (the stem is the device's key, at most %zu characters)", path,
            sizeof tmp.key - 1);
        return -1;
    }
    strcpy(tmp.path, path);
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        say(err, errlen, "%s: cannot read: %s", path, strerror(EISDIR));
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        say(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    parse_state *st = calloc(1, sizeof *st);
    if (!st) {
        fclose(f);
        say(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int rc = parse_file(f, path, &tmp, st, err, errlen);
    fclose(f);
    if (rc == 0) rc = check_file(path, &tmp, st, err, errlen);
    free(st);
    if (rc == 0) *g = tmp;
    return rc;
}

/* ---- the devices folder -------------------------------------------------------------------- */

const char *pw_gpu_dir(void)
{
    const char *env = getenv("PW_GPU_DIR");
    return env && *env ? env : PW_GPU_DIR;
}

/* A name ending in ".gpu" (any case when a user typed it; files: lower case). */
static int has_gpu_suffix(const char *name, int any_case)
{
    size_t n = strlen(name);
    return n > 4 && (any_case ? !strcasecmp(name + n - 4, ".gpu") : !strcmp(name + n - 4, ".gpu"));
}

static int cmp_names(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* The stems of dir's .gpu files, sorted, in a malloc'ed array (*out, free
 * it); returns how many, or -1 if the folder cannot be read (errno set). */
static int list_dir(const char *dir, char (**out)[64])
{
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0, cap = 0;
    char (*names)[64] = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !has_gpu_suffix(e->d_name, 0)) continue;
        size_t len = strlen(e->d_name) - 4;
        if (len >= 64) continue;   /* a stem too long to be a key */
        if (n == cap) {
            int ncap = cap ? 2 * cap : 16;
            char (*bigger)[64] = realloc(names, (size_t)ncap * sizeof *names);
            if (!bigger) break;
            names = bigger;
            cap = ncap;
        }
        memcpy(names[n], e->d_name, len);
        names[n][len] = '\0';
        n++;
    }
    closedir(d);
    if (n) qsort(names, (size_t)n, sizeof *names, cmp_names);
    *out = names;
    return n;
}

int pw_gpu_list(char names[][64], int cap)
{
    char (*all)[64];
    int n = list_dir(pw_gpu_dir(), &all);
    if (n < 0) return 0;
    for (int i = 0; i < n && i < cap; i++) memcpy(names[i], all[i], 64);
    free(all);
    return n;
}

int pw_gpu_find(const char *name_or_path, pw_gpu *g, char *err, size_t errlen)
{
    const char *dir = pw_gpu_dir();
    if (name_or_path && strchr(name_or_path, '/')) return pw_gpu_load(name_or_path, g, err, errlen);

    char (*all)[64];
    int n = list_dir(dir, &all);
    int saved = errno;
    if (!name_or_path || !*name_or_path) {
        say(err, errlen, "no device given (a name of %s, or a path to a .gpu file)", dir);
        free(all);
        return -1;
    }
    if (n < 0) {
        say(err, errlen, "unknown device '%s' (cannot read the devices folder %s: %s; set PW_GPU_DIR or give a "
            "path to a .gpu file)", name_or_path, dir, strerror(saved));
        return -1;
    }
    char want[64];
    size_t len = strlen(name_or_path);
    if (has_gpu_suffix(name_or_path, 1)) len -= 4;
    int hit = -1;
    if (len < sizeof want) {
        memcpy(want, name_or_path, len);
        want[len] = '\0';
        for (int i = 0; i < n && hit < 0; i++)
            if (!strcmp(all[i], want)) hit = i;
        for (int i = 0; i < n && hit < 0; i++)   /* "H100-SXM" finds h100-sxm */
            if (!strcasecmp(all[i], want)) hit = i;
    }
    if (hit < 0) {
        char known[1024] = "";
        size_t used = 0;
        for (int i = 0; i < n && used < sizeof known; i++)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", all[i]);
        if (n == 0)
            say(err, errlen, "unknown device '%s' (no .gpu files in %s; give a path to a .gpu file)", name_or_path,
                dir);
        else
            say(err, errlen, "unknown device '%s' (known: %s; or give a path to a .gpu file)", name_or_path, known);
        free(all);
        return -1;
    }
    char path[sizeof g->path + 64];
    int w = snprintf(path, sizeof path, "%s/%s.gpu", dir, all[hit]);
    free(all);
    if (w < 0 || (size_t)w >= sizeof path) {
        say(err, errlen, "%s/%s.gpu: path too long", dir, want);
        return -1;
    }
    return pw_gpu_load(path, g, err, errlen);
}

void pw_gpu_find_or_exit(const char *prog, const char *name_or_path, pw_gpu *g)
{
    char err[1024];
    if (pw_gpu_find(name_or_path, g, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog ? prog : "pw", err);
        exit(2);
    }
}

const char *pw_gpu_stem_for(const char *cuda_name)
{
    /* What cudaGetDeviceProperties calls the GPUs the folder describes:
     * "NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA A100-SXM4-80GB",
     * "NVIDIA A100-PCIE-40GB", "NVIDIA RTX A6000". */
    static const struct { const char *has, *stem; } known[] = {
        { "H200", "h200-sxm" },   { "H100", "h100-sxm" },     { "A100-PCIE-40GB", "a100-pcie-40gb" },
        { "A100", "a100-sxm" },   { "A6000", "rtx-a6000" },
    };
    for (size_t i = 0; cuda_name && i < sizeof known / sizeof known[0]; i++)
        if (strstr(cuda_name, known[i].has)) return known[i].stem;
    return PW_GPU_DEFAULT;
}
