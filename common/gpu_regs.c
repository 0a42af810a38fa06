/* common/gpu_regs.c: ptxas's registers per thread for a kernel, from the
 * tables tools/kernel-resources.sh makes (see gpu_regs.h). */
#include "gpu_regs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mk/regs.mk bakes the absolute paths in; these are for a compile without it. */
#ifndef PW_REGS_BUILD_TSV
#define PW_REGS_BUILD_TSV "build/gen/registers.tsv"
#endif
#ifndef PW_REGS_COMMITTED_TSV
#define PW_REGS_COMMITTED_TSV "common/gpus/registers.tsv"
#endif

enum { NAME_MAX_LEN = 512, LINE_MAX_LEN = 2048 };

const char *pw_gpu_regs_build_table(void)
{
    const char *e = getenv("PW_REGS_BUILD");
    return e ? e : PW_REGS_BUILD_TSV;
}

const char *pw_gpu_regs_committed_table(void)
{
    const char *e = getenv("PW_REGS_COMMITTED");
    return e ? e : PW_REGS_COMMITTED_TSV;
}

/* ---- names ------------------------------------------------------------------------------ */

/* src without its whitespace into dst; 0 if it does not fit (or is empty). */
static int squeeze(const char *src, char *dst, size_t cap)
{
    size_t n = 0;
    for (; *src; src++) {
        if (isspace((unsigned char)*src)) continue;
        if (n + 1 >= cap) return 0;
        dst[n++] = *src;
    }
    dst[n] = '\0';
    return n > 0;
}

/* The length of name's base name: up to its first '<' (all of it if none). */
static size_t base_len(const char *name)
{
    const char *lt = strchr(name, '<');
    return lt ? (size_t)(lt - name) : strlen(name);
}

static int same_base(const char *a, const char *b)
{
    size_t la = base_len(a), lb = base_len(b);
    return la == lb && la > 0 && strncmp(a, b, la) == 0;
}

/* "sm_90" -> 90, "sm_90a" -> 90; -1 if it is not sm_<digits>[letter]. */
static int arch_number(const char *arch)
{
    if (strncmp(arch, "sm_", 3) != 0 || !isdigit((unsigned char)arch[3])) return -1;
    char *end;
    long v = strtol(arch + 3, &end, 10);
    if (*end && !(isalpha((unsigned char)end[0]) && end[1] == '\0')) return -1;
    if (v <= 0 || v > 10000) return -1;
    return (int)v;
}

/* ---- reading a table -------------------------------------------------------------------- */

typedef struct {
    char arch[32];
    char kernel[NAME_MAX_LEN];
    int regs, smem;
} row;

/* A whole number in [lo, hi], nothing else. */
static int parse_int(const char *s, int lo, int hi, int *out)
{
    if (!isdigit((unsigned char)*s)) return 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

/* One data line (no newline) into r; 0 if malformed: not 5 tab-separated
 * fields, an arch that is not sm_NN, a kernel with spaces, registers outside
 * 0..255 (ptxas's range), shared memory outside 0..1 MiB, no file. */
static int parse_row(char *line, row *r)
{
    char *f[5];
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == 5) return 0;
        f[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = '\0';
        p = tab + 1;
    }
    if (n != 5) return 0;
    if (arch_number(f[0]) < 0 || strlen(f[0]) >= sizeof r->arch) return 0;
    if (!*f[1] || strlen(f[1]) >= sizeof r->kernel) return 0;
    for (const char *c = f[1]; *c; c++)
        if (isspace((unsigned char)*c)) return 0;
    if (!parse_int(f[2], 0, 255, &r->regs) || !parse_int(f[3], 0, 1 << 20, &r->smem)) return 0;
    if (!*f[4]) return 0;
    strcpy(r->arch, f[0]);
    strcpy(r->kernel, f[1]);
    return 1;
}

/* A '#' line: the table's nvcc version and date into hit. */
static void parse_comment(const char *line, pw_regs_hit *hit)
{
    char word[32];
    if (!hit->nvcc[0] && strncmp(line, "# nvcc ", 7) == 0 && sscanf(line + 7, "%31s", word) == 1)
        snprintf(hit->nvcc, sizeof hit->nvcc, "%s", word);
    else if (!hit->date[0] && strncmp(line, "# date ", 7) == 0 && sscanf(line + 7, "%31s", word) == 1)
        snprintf(hit->date, sizeof hit->date, "%s", word);
}

/* The next row of f; 1, or 0 at the end. Comments go to hit (may be NULL),
 * malformed lines are counted there and skipped. */
static int next_row(FILE *f, int *lineno, row *r, pw_regs_hit *hit)
{
    char line[LINE_MAX_LEN];
    while (fgets(line, sizeof line, f)) {
        ++*lineno;
        size_t len = strlen(line);
        int whole = len > 0 && line[len - 1] == '\n';
        if (!whole && !feof(f)) {            /* longer than any row: skip the rest of it */
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n') {}
        } else {
            while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
            if (len == 0) continue;
            if (line[0] == '#') {
                if (hit) parse_comment(line, hit);
                continue;
            }
            if (parse_row(line, r)) return 1;
        }
        if (hit) {
            if (!hit->bad_lines) hit->first_bad_line = *lineno;
            hit->bad_lines++;
        }
    }
    return 0;
}

typedef struct {
    int rows, regs_min, regs_max, smem_min, smem_max;
} tally;

static void tally_add(tally *t, const row *r)
{
    if (t->rows == 0) {
        t->regs_min = t->regs_max = r->regs;
        t->smem_min = t->smem_max = r->smem;
    } else {
        if (r->regs < t->regs_min) t->regs_min = r->regs;
        if (r->regs > t->regs_max) t->regs_max = r->regs;
        if (r->smem < t->smem_min) t->smem_min = r->smem;
        if (r->smem > t->smem_max) t->smem_max = r->smem;
    }
    t->rows++;
}

int pw_gpu_regs_lookup(const char *path, const char *arch, const char *kernel, pw_regs_hit *hit)
{
    pw_regs_hit h;
    memset(&h, 0, sizeof h);
    if (hit) *hit = h;
    if (!path || !*path || !arch || !kernel) return -1;
    char q[NAME_MAX_LEN], a[32];
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int lineno = 0;
    tally exact = {0}, base = {0};
    row r;
    int ok = squeeze(kernel, q, sizeof q) && squeeze(arch, a, sizeof a);
    while (next_row(f, &lineno, &r, &h)) {
        if (!ok || strcmp(r.arch, a) != 0) continue;
        if (strcmp(r.kernel, q) == 0) tally_add(&exact, &r);
        else if (same_base(r.kernel, q)) tally_add(&base, &r);
    }
    fclose(f);
    /* An exact row is also a row of its base name: with no exact match, the
     * base name's rows are all of them. */
    const tally *t = exact.rows ? &exact : base.rows ? &base : NULL;
    int found = t != NULL;
    if (t) {
        h.regs = t->regs_max;
        h.static_smem = t->smem_max;
        h.rows = t->rows;
        h.by_base = t == &base;
        h.agree = t->regs_min == t->regs_max && t->smem_min == t->smem_max;
    }
    if (hit) *hit = h;
    return found;
}

int pw_gpu_regs_nearest_arch(const char *path, const char *arch, const char *kernel, char *out, size_t outlen)
{
    if (out && outlen) out[0] = '\0';
    if (!path || !*path || !arch || !kernel) return -1;
    char q[NAME_MAX_LEN];
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int want = arch_number(arch), lineno = 0;
    int below = -1, above = -1;
    char below_s[32] = "", above_s[32] = "";
    row r;
    int ok = squeeze(kernel, q, sizeof q);
    while (ok && next_row(f, &lineno, &r, NULL)) {
        if (strcmp(r.kernel, q) != 0 && !same_base(r.kernel, q)) continue;
        int n = arch_number(r.arch);
        /* An unknown target arch: the newest the table has. */
        if (want < 0 || n <= want) {
            if (n > below) { below = n; snprintf(below_s, sizeof below_s, "%s", r.arch); }
        } else if (above < 0 || n < above) {
            above = n;
            snprintf(above_s, sizeof above_s, "%s", r.arch);
        }
    }
    fclose(f);
    const char *pick = below >= 0 ? below_s : above >= 0 ? above_s : NULL;
    if (!pick) return 0;
    if (out && outlen) snprintf(out, outlen, "%s", pick);
    return 1;
}

/* ---- the lookup the model uses ---------------------------------------------------------- */

/* "registers.tsv" from a path, for the note. */
static const char *file_part(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The note's tail: how the name matched, and any malformed lines. */
static void match_phrase(char *buf, size_t len, const char *kernel, const pw_regs_hit *h)
{
    char q[NAME_MAX_LEN];
    if (!squeeze(kernel, q, sizeof q)) snprintf(q, sizeof q, "?");
    int bl = (int)base_len(q);
    buf[0] = '\0';
    if (h->by_base && h->agree)
        snprintf(buf, len, "; by base name %.*s%s", bl, q,
                 h->rows > 1 ? " (its instantiations agree)" : "");
    else if (h->by_base)
        snprintf(buf, len, "; largest of %d instantiations of %.*s<>", h->rows, bl, q);
    else if (!h->agree)
        snprintf(buf, len, "; largest of %d rows", h->rows);
}

pw_regs_source pw_gpu_kernel_regs(const char *arch, const char *kernel, int *regs, int *static_smem,
                                  char *note, size_t notelen)
{
    const char *tables[2] = { pw_gpu_regs_build_table(), pw_gpu_regs_committed_table() };
    const pw_regs_source sources[2] = { PW_REGS_PTXAS_BUILD, PW_REGS_PTXAS_COMMITTED };
    char bad[128] = "";
    pw_regs_hit h;
    if (!arch) arch = "";
    if (!kernel) kernel = "";

    for (int i = 0; i < 2; i++) {
        int found = pw_gpu_regs_lookup(tables[i], arch, kernel, &h);
        if (found < 0) continue;
        if (h.bad_lines && !bad[0])
            snprintf(bad, sizeof bad, "; skipped %d malformed line%s (%s:%d)", h.bad_lines,
                     h.bad_lines == 1 ? "" : "s", file_part(tables[i]), h.first_bad_line);
        if (!found) continue;
        if (regs) *regs = h.regs;
        if (static_smem) *static_smem = h.static_smem;
        if (note && notelen) {
            char how[NAME_MAX_LEN + 64], ver[80] = "";
            match_phrase(how, sizeof how, kernel, &h);
            if (i == 0)
                snprintf(ver, sizeof ver, "%s%s%s", h.nvcc[0] ? " (nvcc " : "", h.nvcc, h.nvcc[0] ? ")" : "");
            else if (h.nvcc[0] || h.date[0])
                snprintf(ver, sizeof ver, " (%s%s%s%s)", h.nvcc[0] ? "nvcc " : "", h.nvcc,
                         h.nvcc[0] && h.date[0] ? ", " : "", h.date);
            snprintf(note, notelen, "ptxas, %s%s%s%s", i == 0 ? "this build" : "committed table", ver, how, bad);
        }
        return sources[i];
    }

    /* Not on this arch: the same kernel on the nearest arch a table has. */
    for (int i = 0; i < 2; i++) {
        char near[32];
        if (pw_gpu_regs_nearest_arch(tables[i], arch, kernel, near, sizeof near) != 1) continue;
        if (pw_gpu_regs_lookup(tables[i], near, kernel, &h) != 1) continue;
        if (regs) *regs = h.regs;
        if (static_smem) *static_smem = h.static_smem;
        if (note && notelen)
            snprintf(note, notelen, "estimate: %s's ptxas count (%s not in ptxas's table)%s", near,
                     *arch ? arch : "no arch", bad);
        return PW_REGS_ESTIMATE;
    }

    if (regs) *regs = PW_REGS_ESTIMATE_DEFAULT;
    if (static_smem) *static_smem = 0;
    if (note && notelen)
        snprintf(note, notelen, "estimate: not in ptxas's table (%d, the occupancy calculator's default)%s",
                 PW_REGS_ESTIMATE_DEFAULT, bad);
    return PW_REGS_ESTIMATE;
}

pw_regs_source pw_gpu_launch_of(const char *arch, const char *kernel, int threads, int smem, pw_gpu_launch *launch,
                                char *note, size_t notelen)
{
    int regs = 0, static_smem = 0;
    char buf[160];
    pw_regs_source src = pw_gpu_kernel_regs(arch, kernel, &regs, &static_smem, buf, sizeof buf);
    launch->threads_per_block = threads;
    launch->regs_per_thread = regs;
    launch->regs_estimated = src == PW_REGS_ESTIMATE;
    launch->smem_per_block = smem;   /* as the emulator saw it: static + dynamic */
    if (note && notelen) snprintf(note, notelen, "%s", buf);
    return src;
}
