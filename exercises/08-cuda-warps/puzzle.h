/* exercises/08-cuda-warps/puzzle.h: what the checkers of the GPU puzzles
 * (exercise 8.5 onward) share: the access picture.
 *
 * A puzzle's checker runs the answer on a tiny launch with the emulator's
 * access log on (pw_simt_log_accesses), then draws which thread touched
 * which element of which array: one row per thread (block b, thread t of a
 * block of B threads is row b B + t), one column per element, "r" where
 * the thread read it, "w" where it wrote it, "b" both, "." neither. Beside
 * it, the picture the puzzle expects (which the checker states element by
 * element with pz_expect). A wrong answer sees the picture of what it did.
 * The verdict is the values and the counts, not the picture: a different
 * but valid assignment of work to threads passes, and the picture shows it.
 *
 * The counts: every puzzle states the most global reads and writes a thread
 * may make (GPU-Puzzles' rule: the fast answer touches each element as few
 * times as the problem allows), and pz_limits checks them from the log.
 *
 * The picture is also written as CSV when PW_PICTURE=FILE, or into
 * PW_PICTURE_DIR/puzzle_<name>.csv (make chapter-8 does that for every
 * puzzle's solution): rows of panel (yours, expected), thread, column,
 * array, index, access; the gallery draws it with plots/puzzle.gp.
 *
 * Header-only: each puzzle's checker is one C file that includes it.
 */
#ifndef PW_EX_PUZZLE_H
#define PW_EX_PUZZLE_H

#include "simt.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PZ_MAX_BUFS 6
#define PZ_MAX_THREADS 256       /* rows of the picture (a puzzle's tiny launch has fewer) */
#define PZ_MAX_COLS 512          /* elements of all arrays together */
#ifndef PZ_LOG_CAP              /* a checker whose larger launches it also counts may raise it before the #include */
#define PZ_LOG_CAP (1L << 16)    /* accesses kept: a tiny launch makes a few hundred */
#endif

enum { PZ_READ = 1, PZ_WRITE = 2 };

typedef struct {
    const char *name;            /* as the kernel names it: "a", "out" */
    const void *base;            /* its device pointer; NULL for the block's shared memory */
    size_t elem;                 /* bytes per element */
    long count;                  /* elements drawn */
} pz_buf;

typedef struct {
    const char *puzzle;          /* "8.5 map" */
    pz_buf buf[PZ_MAX_BUFS];
    int nbufs;
    int col0[PZ_MAX_BUFS];       /* the first column of each array */
    int ncols;
    long threads;                /* rows: the launch's threads (block x threads per block) */
    unsigned char got[PZ_MAX_THREADS][PZ_MAX_COLS], want[PZ_MAX_THREADS][PZ_MAX_COLS];
    /* counted from the log, device memory only (shared memory is the point of some puzzles) */
    long reads[PZ_MAX_THREADS], writes[PZ_MAX_THREADS];
    long total_reads, total_writes;
    long stray;                  /* accesses outside every array drawn */
    long logged;
    long block_x;                /* 0: rows labelled "thread t"; else (pz_threads_2d) "(x,y)" of a 2D block this wide */
    int fold_idle;               /* pz_fold_idle: runs of idle rows printed as one line */
} pz_picture;

static pw_simt_access pz_log[PZ_LOG_CAP];

/* Name the arrays the picture shows (device pointers, or NULL with elem and
 * count for shared memory) and start the log; the launch comes next. */
static inline void pz_begin(pz_picture *p, const char *puzzle, const pz_buf *bufs, int nbufs)
{
    memset(p, 0, sizeof *p);
    p->puzzle = puzzle;
    p->nbufs = nbufs < PZ_MAX_BUFS ? nbufs : PZ_MAX_BUFS;
    for (int i = 0; i < p->nbufs; i++) {
        p->buf[i] = bufs[i];
        p->col0[i] = p->ncols;
        long room = PZ_MAX_COLS - p->ncols;
        if (p->buf[i].count > room) p->buf[i].count = room;
        p->ncols += (int)p->buf[i].count;
    }
    pw_simt_log_accesses(pz_log, PZ_LOG_CAP);
}

/* After the launch: stop the log and draw what the threads did. */
static inline void pz_end(pz_picture *p)
{
    p->logged = pw_simt_access_count();
    pw_simt_log_accesses(NULL, 0);
    const pw_simt_counters *c = pw_simt_last_counters();
    long tpb = c->threads_per_block > 0 ? (long)c->threads_per_block : 1;
    p->threads = c->threads < PZ_MAX_THREADS ? (long)c->threads : PZ_MAX_THREADS;
    long kept = p->logged < PZ_LOG_CAP ? p->logged : PZ_LOG_CAP;
    for (long i = 0; i < kept; i++) {
        const pw_simt_access *a = &pz_log[i];
        long row = (long)a->block * tpb + a->thread;
        int kind = a->store ? PZ_WRITE : a->atomic ? PZ_READ | PZ_WRITE : PZ_READ;
        if (!a->shared && row < PZ_MAX_THREADS) {
            if (kind & PZ_READ) p->reads[row]++, p->total_reads++;
            if (kind & PZ_WRITE) p->writes[row]++, p->total_writes++;
        }
        int found = 0;
        for (int b = 0; b < p->nbufs && !found; b++) {
            const pz_buf *B = &p->buf[b];
            if ((B->base == NULL) != (a->shared != 0)) continue;
            uint64_t base = B->base ? (uint64_t)(uintptr_t)B->base : 0;
            if (a->addr < base || a->addr >= base + (uint64_t)B->count * B->elem) continue;
            found = 1;
            if (row < PZ_MAX_THREADS) p->got[row][p->col0[b] + (long)((a->addr - base) / B->elem)] |= (unsigned char)kind;
        }
        if (!found && !a->shared) p->stray++;
    }
}

/* The puzzle's expected picture: thread `thread` reads or writes (PZ_READ,
 * PZ_WRITE) element `index` of array `buf` (its place in pz_begin's list). */
static inline void pz_expect(pz_picture *p, long thread, int buf, long index, int kind)
{
    if (thread < 0 || thread >= PZ_MAX_THREADS || buf < 0 || buf >= p->nbufs) return;
    if (index < 0 || index >= p->buf[buf].count) return;
    p->want[thread][p->col0[buf] + index] |= (unsigned char)kind;
}

/* Label the rows of a 2D block's launch by (threadIdx.x, threadIdx.y), row
 * t being x = t % block_x, y = t / block_x (and with several blocks, block
 * t / (block_x * blockDim.y) first). Call it after pz_begin. */
static inline void pz_threads_2d(pz_picture *p, long block_x) { p->block_x = block_x > 0 ? block_x : 0; }

/* The row label pz_print shows: "thread 5", or "(1,1)" after pz_threads_2d. */
static inline void pz_thread_label(const pz_picture *p, long t, char *out, size_t len)
{
    if (!p->block_x) {
        snprintf(out, len, "thread %-3ld", t);
        return;
    }
    const pw_simt_counters *c = pw_simt_last_counters();
    long tpb = c->threads_per_block > 0 ? (long)c->threads_per_block : 1, in = t % tpb;
    if (t >= tpb) snprintf(out, len, "b%ld (%ld,%ld)", t / tpb, in % p->block_x, in / p->block_x);
    else snprintf(out, len, "(%ld,%ld)", in % p->block_x, in / p->block_x);
}

/* Print a run of 3 or more rows where neither picture has anything (the
 * spare threads of a rounded-up launch) as one line. Call it after pz_begin. */
static inline void pz_fold_idle(pz_picture *p) { p->fold_idle = 1; }

static inline int pz_row_idle(const pz_picture *p, long t)
{
    for (int c = 0; c < p->ncols; c++)
        if (p->got[t][c] | p->want[t][c]) return 0;
    return 1;
}

static inline char pz_cell(unsigned char k) { return k == 3 ? 'b' : k == PZ_WRITE ? 'w' : k == PZ_READ ? 'r' : '.'; }

static inline void pz_row_text(const pz_picture *p, const unsigned char *row, char *out)
{
    int o = 0;
    for (int b = 0; b < p->nbufs; b++) {
        for (long i = 0; i < p->buf[b].count; i++) out[o++] = pz_cell(row[p->col0[b] + i]);
        out[o++] = ' ';
    }
    out[o ? o - 1 : 0] = 0;
}

/* Both pictures, side by side, and the first difference in words. Rows
 * where both are empty are left out past the first 32 threads. */
static inline void pz_print(const pz_picture *p)
{
    char head[PZ_MAX_COLS + PZ_MAX_BUFS + 1], a[PZ_MAX_COLS + PZ_MAX_BUFS + 1], e[PZ_MAX_COLS + PZ_MAX_BUFS + 1];
    int o = 0;
    for (int b = 0; b < p->nbufs; b++) {
        int w = (int)p->buf[b].count;
        int n = snprintf(head + o, sizeof head - (size_t)o, "%-*.*s ", w, w, p->buf[b].name);
        o += n > w + 1 ? w + 1 : n;
    }
    head[o ? o - 1 : 0] = 0;
    int width = p->ncols + p->nbufs - 1;
    printf("  access picture of %s: a row per thread, a column per element (r read, w write, b both)\n", p->puzzle);
    if (p->block_x) printf("  (a row per thread (threadIdx.x,threadIdx.y), x fastest; a matrix's elements row by row)\n");
    printf("  %-10s %-*s    %s\n", "", width, "yours", "expected");
    printf("  %-10s %-*s    %s\n", "", width, head, head);
    for (long t = 0; t < p->threads; t++) {
        int any = 0;
        for (int c = 0; c < p->ncols; c++) any |= p->got[t][c] | p->want[t][c];
        if (!any && t >= 32) continue;
        if (!any && p->fold_idle) {         /* a run of 3 or more idle rows: one line */
            long u = t;
            while (u + 1 < p->threads && u + 1 < 32 && pz_row_idle(p, u + 1)) u++;
            if (u - t >= 2) {
                char from[80], to[80];
                pz_thread_label(p, t, from, sizeof from);
                pz_thread_label(p, u, to, sizeof to);
                for (char *q = from + strlen(from); q > from && q[-1] == ' ';) *--q = 0;
                for (char *q = to + strlen(to); q > to && q[-1] == ' ';) *--q = 0;
                const char *to_shown = strncmp(to, "thread ", 7) ? to : to + 7;
                printf("  %s to %s: nothing in either picture (%ld threads)\n", from, to_shown, u - t + 1);
                t = u;
                continue;
            }
        }
        pz_row_text(p, p->got[t], a);
        pz_row_text(p, p->want[t], e);
        int same = memcmp(p->got[t], p->want[t], (size_t)p->ncols) == 0;
        char label[80];
        pz_thread_label(p, t, label, sizeof label);
        printf("  %-10s %-*s %s %s\n", label, width, a, same ? "  " : " <", e);
    }
    if (p->logged > PZ_LOG_CAP) printf("  (the picture shows the first %ld of %ld accesses)\n", PZ_LOG_CAP, p->logged);
    if (p->stray) printf("  %ld device-memory accesses fell outside the arrays drawn\n", p->stray);
    for (long t = 0; t < p->threads; t++)
        for (int b = 0; b < p->nbufs; b++)
            for (long i = 0; i < p->buf[b].count; i++) {
                unsigned char g = p->got[t][p->col0[b] + i], w = p->want[t][p->col0[b] + i];
                if (g == w) continue;
                const char *what = g & ~w & PZ_WRITE ? "writes" : g & ~w & PZ_READ ? "reads" : NULL;
                char who[88] = "";
                if (p->block_x) pz_thread_label(p, t, who + 1, sizeof who - 1), who[0] = ' ';
                if (what) printf("  first difference: thread %ld%s %s %s[%ld], which the expected picture does not\n",
                                 t, who, what, p->buf[b].name, i);
                else printf("  first difference: thread %ld%s does not %s %s[%ld], which the expected picture does\n",
                            t, who, w & ~g & PZ_WRITE ? "write" : "read", p->buf[b].name, i);
                return;
            }
}

/* Does the picture match the expected one exactly? */
static inline int pz_same(const pz_picture *p)
{
    for (long t = 0; t < p->threads; t++)
        if (memcmp(p->got[t], p->want[t], (size_t)p->ncols)) return 0;
    return 1;
}

/* The puzzle's budget of global accesses: at most max_reads reads and
 * max_writes writes by any one thread (-1: no limit), and in all at most
 * total_reads and total_writes (-1: no limit). Prints the FAIL line. */
static inline int pz_limits(const pz_picture *p, long max_reads, long max_writes, long total_reads, long total_writes)
{
    long worst_r = 0, worst_w = 0, tr = 0, tw = 0;
    for (long t = 0; t < p->threads; t++) {
        if (p->reads[t] > p->reads[worst_r]) worst_r = t;
        if (p->writes[t] > p->writes[worst_w]) worst_w = t;
    }
    /* The totals from the emulator's counters: every thread of the launch,
     * not only the PZ_MAX_THREADS rows the picture draws (the same figures
     * for a launch that fits: an atomic is a read and a write in both). */
    const pw_simt_counters *c = pw_simt_last_counters();
    tr = (long)(c->global_loads + c->atomics);
    tw = (long)(c->global_stores + c->atomics);
    if (max_reads >= 0 && p->reads[worst_r] > max_reads) {
        printf("wrong\nFAIL: thread %ld makes %ld global reads; the puzzle allows %ld per thread\n", worst_r,
               p->reads[worst_r], max_reads);
        return 1;
    }
    if (max_writes >= 0 && p->writes[worst_w] > max_writes) {
        printf("wrong\nFAIL: thread %ld makes %ld global writes; the puzzle allows %ld per thread\n", worst_w,
               p->writes[worst_w], max_writes);
        return 1;
    }
    if (total_reads >= 0 && tr > total_reads) {
        printf("wrong\nFAIL: %ld global reads in all; the puzzle allows %ld\n", tr, total_reads);
        return 1;
    }
    if (total_writes >= 0 && tw > total_writes) {
        printf("wrong\nFAIL: %ld global writes in all; the puzzle allows %ld\n", tw, total_writes);
        return 1;
    }
    return 0;
}

/* The budget's totals again, from the emulator's counters of the last
 * launch (every thread, where pz_limits counts the first PZ_MAX_THREADS
 * threads and PZ_LOG_CAP accesses): at most total_reads global reads and
 * total_writes writes in all (-1: no limit; an atomic counts as both).
 * Prints the FAIL line as pz_limits does. */
static inline int pz_totals(long total_reads, long total_writes)
{
    const pw_simt_counters *c = pw_simt_last_counters();
    long long reads = c->global_loads + c->atomics, writes = c->global_stores + c->atomics;
    if (total_reads >= 0 && reads > total_reads) {
        printf("wrong\nFAIL: %lld global reads in all; the puzzle allows %ld\n", reads, total_reads);
        return 1;
    }
    if (total_writes >= 0 && writes > total_writes) {
        printf("wrong\nFAIL: %lld global writes in all; the puzzle allows %ld\n", writes, total_writes);
        return 1;
    }
    return 0;
}

/* Past the end: which threads touched array `buf` at an index from `limit`
 * on (and below limit + span), counted from the whole log of the last
 * pz_begin .. pz_end, every thread, drawn or not. A checker runs the answer
 * once more on arrays padded past the puzzle's n elements (the emulator then
 * has nothing to stop) to see who would have run off the end, and how far. */
typedef struct {
    long accesses, threads;          /* accesses past the end, and the threads that made them */
    long first_thread, last_thread;  /* the lowest and highest such row (block x threads per block + thread) */
    long first_index, last_index;    /* the lowest and highest index touched past the end */
    long reads, writes;              /* of the accesses: reads (atomics count as both) and writes */
} pz_past;

static inline pz_past pz_past_end(const pz_picture *p, int buf, long limit, long span)
{
    pz_past r = { 0, 0, -1, -1, -1, -1, 0, 0 };
    if (buf < 0 || buf >= p->nbufs || span <= 0) return r;
    const pz_buf *B = &p->buf[buf];
    const pw_simt_counters *c = pw_simt_last_counters();
    long tpb = c->threads_per_block > 0 ? (long)c->threads_per_block : 1;
    long rows = c->threads > 0 ? (long)c->threads : 1;
    unsigned char *seen = calloc((size_t)rows, 1);
    long kept = p->logged < PZ_LOG_CAP ? p->logged : PZ_LOG_CAP;
    uint64_t base = B->base ? (uint64_t)(uintptr_t)B->base : 0;
    for (long i = 0; i < kept; i++) {
        const pw_simt_access *a = &pz_log[i];
        if ((B->base == NULL) != (a->shared != 0) || a->addr < base) continue;
        long index = (long)((a->addr - base) / B->elem);
        if (index < limit || index >= limit + span) continue;
        long row = (long)a->block * tpb + a->thread;
        r.accesses++;
        if (a->store || a->atomic) r.writes++;
        if (!a->store) r.reads++;
        if (r.first_index < 0 || index < r.first_index) r.first_index = index;
        if (index > r.last_index) r.last_index = index;
        if (r.first_thread < 0 || row < r.first_thread) r.first_thread = row;
        if (row > r.last_thread) r.last_thread = row;
        if (seen && row >= 0 && row < rows && !seen[row]) seen[row] = 1, r.threads++;
    }
    free(seen);
    return r;
}

/* The header block every CSV of the workbook starts with (what ran, where):
 * the gallery and make test read it. */
static inline void pz_csv_header(FILE *f, const char *puzzle)
{
    fprintf(f, "# program: the checker of puzzle %s (its solution, or the answer graded)\n", puzzle);
    fprintf(f, "# cpu: %s (the picture is the same on every machine: counted, not timed)\n", pw_cpu_model());
    fprintf(f, "# compiler: %s\n", pw_compiler());
}

/* The picture as CSV for the gallery (plots/puzzle.gp): one row per
 * touched cell, panel 0 yours and 1 expected; x is the column, with one
 * empty column between arrays. */
static inline int pz_csv(const pz_picture *p, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    pz_csv_header(f, p->puzzle);
    fprintf(f, "# access picture of exercise %s: which thread touched which element\n", p->puzzle);
    fprintf(f, "# source: counted (the SIMT emulator's access log of one tiny launch)\n");
    fprintf(f, "# arrays:");
    for (int b = 0; b < p->nbufs; b++)
        fprintf(f, " %s[%ld] at x %d", p->buf[b].name, p->buf[b].count, p->col0[b] + b);
    fprintf(f, "\n# threads: %ld\n", p->threads);
    fprintf(f, "panel,thread,x,array,index,access\n");
    for (int panel = 0; panel < 2; panel++)      /* access 0: where each array's name goes */
        for (int b = 0; b < p->nbufs; b++)
            fprintf(f, "%d,-1,%.1f,%s,-1,0\n", panel, p->col0[b] + b + (p->buf[b].count - 1) / 2.0, p->buf[b].name);
    for (int panel = 0; panel < 2; panel++)
        for (long t = 0; t < p->threads; t++)
            for (int b = 0; b < p->nbufs; b++)
                for (long i = 0; i < p->buf[b].count; i++) {
                    unsigned char k = (panel ? p->want : p->got)[t][p->col0[b] + i];
                    if (k) fprintf(f, "%d,%ld,%ld,%s,%ld,%d\n", panel, t, p->col0[b] + b + i, p->buf[b].name, i, k);
                }
    return fclose(f) ? 1 : 0;
}

/* The CSV, where PW_PICTURE or PW_PICTURE_DIR asks for it (else nothing). */
static inline int pz_write_picture(const pz_picture *p)
{
    const char *file = getenv("PW_PICTURE"), *dir = getenv("PW_PICTURE_DIR");
    if (file && *file) return pz_csv(p, file);
    if (!dir || !*dir) return 0;
    const char *name = strchr(p->puzzle, ' ');     /* "8.5 map" -> map */
    char path[4096];
    snprintf(path, sizeof path, "%s/puzzle_%s.csv", dir, name ? name + 1 : p->puzzle);
    return pz_csv(p, path);
}

/* ---- one warp request, lane by lane (puzzles 8.18 coalesce, 8.19 bank_conflicts) -------------
 * Where the element picture above shows what each thread touched over the
 * whole launch, these show ONE warp request: which lane touched which 32-byte
 * sector of device memory, or which bank of shared memory, in the same
 * instruction. pw_simt_trace_warp(0, steps, cap) before a launch records warp
 * 0 of block 0's requests; pz_first_step picks one of them. */

/* A base-32 digit for a lane (or a row of words): 0-9, A-V; '+' past 31, '.' for none. */
static inline char pz_digit(long v) { return v < 0 ? '.' : v < 10 ? (char)('0' + v) : v < 32 ? (char)('A' + v - 10) : '+'; }

/* The first recorded request that is to shared memory (else device memory)
 * and a store (else a load); NULL if the warp made none. */
static inline const pw_simt_step *pz_first_step(const pw_simt_step *steps, int n, int shared, int store)
{
    for (int i = 0; i < n; i++)
        if (!!steps[i].shared == !!shared && !!steps[i].store == !!store) return &steps[i];
    return NULL;
}

/* Distinct 32-byte sectors a device-memory request touches (what the
 * emulator adds to global_load_sectors or global_store_sectors for it). */
static inline int pz_step_sectors(const pw_simt_step *s)
{
    uint64_t seen[64];
    int n = 0;
    for (int l = 0; l < 32; l++) {
        if (!(s->mask >> l & 1u)) continue;
        unsigned bytes = s->bytes ? s->bytes : 1;
        for (uint64_t x = s->addr[l] >> 5; x <= (s->addr[l] + bytes - 1) >> 5; x++) {
            int j = 0;
            while (j < n && seen[j] != x) j++;
            if (j == n && n < 64) seen[n++] = x;
        }
    }
    return n;
}

/* Bank-conflict ways of a shared-memory request, as the emulator counts
 * them (shared_wavefronts): 32 banks of 4-byte words, word w in bank w % 32;
 * lanes reading the same word share it (a broadcast), different words in
 * one bank are served one after another. */
static inline int pz_step_ways(const pw_simt_step *s)
{
    uint64_t words[128];
    int n = 0, per_bank[32] = { 0 }, ways = 1;
    for (int l = 0; l < 32; l++) {
        if (!(s->mask >> l & 1u)) continue;
        unsigned bytes = s->bytes ? s->bytes : 1;
        for (uint64_t w = s->addr[l] >> 2; w <= (s->addr[l] + bytes - 1) >> 2 && n < 128; w++) {
            int j = 0;
            while (j < n && words[j] != w) j++;
            if (j < n) continue;
            words[n++] = w;
            if (++per_bank[w & 31] > ways) ways = per_bank[w & 31];
        }
    }
    return ways;
}

/* The bank picture of shared-memory requests side by side, one panel each:
 * a row per lane, a column per bank; the cell says which word of that bank
 * the lane touched, as the word's "bank row" w / 32 (a base-32 digit). So a
 * column with different digits is a bank serving different words, one
 * wavefront each (a conflict); the same digit twice is the same word (a
 * broadcast, free). A lane of a wider access shows its first word. */
static inline void pz_print_banks(const char *const titles[], const pw_simt_step *const steps[], int panels)
{
    printf("  bank picture: a row per lane, a column per bank (0-31); the digit is the word's row in its bank\n"
           "  (word w is in bank w %% 32, row w / 32): different digits in one column are a bank conflict\n");
    printf("  %-8s", "");
    for (int p = 0; p < panels; p++) printf(" %-34.34s", titles[p]);
    printf("\n  %-8s", "bank");
    for (int p = 0; p < panels; p++) printf(" %-34s", "0         1         2         3 ");
    printf("\n  %-8s", "");
    for (int p = 0; p < panels; p++) printf(" %-34s", "01234567890123456789012345678901");
    printf("\n");
    for (int l = 0; l < 32; l++) {
        printf("  lane %-3d", l);
        for (int p = 0; p < panels; p++) {
            char row[33];
            memset(row, '.', 32);
            row[32] = 0;
            const pw_simt_step *s = steps[p];
            if (s && s->mask >> l & 1u) row[(s->addr[l] >> 2) & 31] = pz_digit((long)(s->addr[l] >> 7));
            printf(" %-34s", row);
        }
        printf("\n");
    }
    printf("  %-8s", "");
    for (int p = 0; p < panels; p++) {
        char note[48];
        int ways = steps[p] ? pz_step_ways(steps[p]) : 0;
        if (!steps[p]) snprintf(note, sizeof note, "(no such request)");
        else if (ways == 1) snprintf(note, sizeof note, "no conflict: 1 wavefront");
        else snprintf(note, sizeof note, "%d-way conflict: %d wavefronts", ways, ways);
        printf(" %-34s", note);
    }
    printf("\n");
}

/* Where PW_PICTURE or PW_PICTURE_DIR asks for puzzle `puzzle`'s CSV
 * ("8.18 coalesce" -> DIR/puzzle_coalesce.csv): 1 and the path, else 0. For
 * checkers that write a picture of their own shape (not pz_csv's). */
static inline int pz_picture_path(const char *puzzle, char *path, size_t size)
{
    const char *file = getenv("PW_PICTURE"), *dir = getenv("PW_PICTURE_DIR");
    if (file && *file) {
        snprintf(path, size, "%s", file);
        return 1;
    }
    if (!dir || !*dir) return 0;
    const char *name = strchr(puzzle, ' ');
    snprintf(path, size, "%s/puzzle_%s.csv", dir, name ? name + 1 : puzzle);
    return 1;
}

#endif
