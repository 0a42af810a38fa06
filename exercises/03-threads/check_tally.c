/* exercises/03-threads/check_tally.c: the checker of exercise 3.2.
 *
 * Built with your exercises/03-threads/tally.c by `make ex-3.2`, or with
 * solutions/03-threads/tally.c by `make solution-3.2`. What it tries:
 *   1. the layout: slots_new(T) for T = 1, 2, 3, 7, 16. Every counter must
 *      start at 0, hold what is written to it without disturbing the
 *      others, and lie in a 64-byte cache line no other thread's counter
 *      touches. This is the false sharing itself, seen in the addresses, so
 *      the verdict does not depend on how busy the machine is. And, where
 *      they can be seen:
 *      - the memory: struct slot declared with alignas (or
 *        __attribute__((aligned))) of more than 16 bytes, read from the
 *        file as the compiler reads it (cc -E, rule `preprocess`), needs
 *        slots at a multiple of that alignment; calloc and malloc promise
 *        16 (undefined behaviour that the counters' distances cannot show:
 *        they are 64 bytes apart either way);
 *      - the block: under a sanitizer, whose allocator knows the size of
 *        every block (__sanitizer_get_allocated_size), every counter must
 *        lie inside the block slots_new allocated;
 *      - the zeroing: slots_new(T) is called a second time after
 *        slots_free, when the block it gets back most likely holds the
 *        checker's 1000 + t of the first time (ThreadSanitizer's allocator
 *        hands back the last freed block of a size; AddressSanitizer fills
 *        new blocks with 0xbe): memory that is not zeroed shows, instead of
 *        passing by the luck of a fresh, zero page.
 *   2. the count: count_above_threads() on n = 0, 1, 7, 1001, 65537 (odd:
 *      uneven blocks) on 1, 2, 3 and 7 threads, against a sequential count.
 *   3. for information only: the time of 4M elements on 1 and 2 threads.
 * Last line "PASS: ..." and exit 0, or exit 1.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "tally.h"
#include "timing.h"
#include "util.h"

#define LINE 64

#if defined(UNDER_SANITIZER)
/* The sanitizers' allocator interface (sanitizer/allocator_interface.h):
 * whether p is the start of a live block, and the size asked for it. */
int __sanitizer_get_ownership(const volatile void *p);
size_t __sanitizer_get_allocated_size(const volatile void *p);
#endif

/* What the learner's file shows, read as the compiler reads it (cc -E):
 *   slot_align  the alignment struct slot asks for: the largest N of an
 *               _Alignas(N) (alignas expands to it) or aligned(N) in the
 *               learner's own lines; 64 when N is not a number
 *               (alignas(some_type)); 0 when there is none or the file
 *               cannot be read;
 *   plain_alloc the allocator slots_new calls by name, when it is only
 *               calloc, malloc or realloc (16-byte alignment): no
 *               aligned_alloc, posix_memalign, pw_alloc_*, and no pointer
 *               rounded up by hand (uintptr_t); else NULL.
 * ThreadSanitizer's allocator returns 64-byte aligned blocks for these
 * sizes from calloc and malloc too, so under it (the usual build) the
 * address of a calloc'ed slot looks right: the name of the call is what
 * shows the mistake, the same in every build. */
static bool marks_file(const char *p, const char *file)
{
    const char *q = strchr(p, '"'), *end = q ? strchr(q + 1, '"') : NULL;
    if (!q || !end) return false;
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    size_t len = strlen(base);
    return (size_t)(end - (q + 1)) >= len && !strncmp(end - len, base, len) &&
           (end - len == q + 1 || end[-(ptrdiff_t)len - 1] == '/');
}

static long slot_align;          /* see above */
static const char *plain_alloc;

static int has_ident(const char *from, const char *to, const char *id)
{
    size_t n = strlen(id);
    for (const char *a = from; (a = strstr(a, id)) && a < to; a++)
        if ((a == from || !(isalnum((unsigned char)a[-1]) || a[-1] == '_')) &&
            !(isalnum((unsigned char)a[n]) || a[n] == '_'))
            return 1;
    return 0;
}

/* The body of slots_new's definition in text: [*from, *to), or 0. */
static int slots_new_body(const char *text, const char **from, const char **to)
{
    for (const char *a = strstr(text, "slots_new"); a; a = strstr(a + 1, "slots_new")) {
        const char *p = a + strlen("slots_new");
        while (isspace((unsigned char)*p)) p++;
        if (*p != '(') continue;
        int depth = 0;
        for (; *p; p++) {
            if (*p == '(') depth++;
            else if (*p == ')' && --depth == 0) break;
        }
        if (!*p) return 0;
        p++;
        while (isspace((unsigned char)*p)) p++;
        if (*p != '{') continue;   /* a declaration or a call */
        const char *b = p;
        depth = 0;
        for (; *p; p++) {
            if (*p == '{') depth++;
            else if (*p == '}' && --depth == 0) { *from = b; *to = p; return 1; }
        }
        return 0;
    }
    return 0;
}

static void read_source(void)
{
    const char *path = pw_ex_this.preprocessed, *file = pw_ex_this.file ? pw_ex_this.file : "tally.c";
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f) return;
    /* The learner's own lines, joined: a macro from a system header
     * (alignas from <stdalign.h>) comes out as `_Alignas` on one line and
     * its `(64)` on the next, between line markers. */
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap), line[4096];
    if (!text) { fclose(f); return; }
    bool mine = false;
    while (fgets(line, sizeof line, f)) {
        const char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (p[0] == '#' && (p[1] == ' ' || !strncmp(p + 1, "line", 4))) { mine = marks_file(p, file); continue; }
        if (!mine) continue;
        size_t n = strlen(line);
        if (len + n + 2 > cap) {
            char *more = realloc(text, cap *= 2);
            if (!more) break;
            text = more;
        }
        memcpy(text + len, line, n);
        len += n;
        text[len] = 0;
    }
    fclose(f);
    text[len] = 0;
    long most = 0;
    static const char *const words[] = { "_Alignas", "aligned" };
    for (int w = 0; w < 2; w++)
        for (const char *a = strstr(text, words[w]); a; a = strstr(a + 1, words[w])) {
            const char *b = a + strlen(words[w]);
            while (*b == '_' || isspace((unsigned char)*b)) b++;   /* __aligned__, a line break */
            if (*b != '(') continue;
            b++;
            while (isspace((unsigned char)*b)) b++;
            long n = isdigit((unsigned char)*b) ? strtol(b, NULL, 0) : 64;
            if (n > most) most = n;
        }
    slot_align = most;
    const char *from, *to;
    if (slots_new_body(text, &from, &to)) {
        static const char *const plain[] = { "calloc", "malloc", "realloc" };
        static const char *const aligned[] = { "aligned_alloc", "posix_memalign", "memalign", "valloc", "pvalloc",
                                               "_mm_malloc", "pw_alloc_bytes", "pw_alloc_floats", "pw_alloc_doubles",
                                               "uintptr_t", "intptr_t" };
        const char *which = NULL;
        for (size_t k = 0; k < 3 && !which; k++)
            if (has_ident(from, to, plain[k])) which = plain[k];
        for (size_t k = 0; which && k < sizeof aligned / sizeof aligned[0]; k++)
            if (has_ident(from, to, aligned[k])) which = NULL;
        plain_alloc = which;
    }
    free(text);
}

/* The cache lines an 8-byte counter at p touches: first and last. */
static uintptr_t line_of(volatile long long *p) { return (uintptr_t)p / LINE; }
static uintptr_t last_line_of(volatile long long *p) { return ((uintptr_t)p + sizeof *p - 1) / LINE; }

/* The memory of the slots: aligned as struct slot asks, and (under a
 * sanitizer) every counter inside the block. 0 if right. */
static int check_memory(int T, slot *s)
{
    if (slot_align > 16 && plain_alloc) {
        pw_ex_fail("slots_new(%d): struct slot asks for %ld-byte alignment, but slots_new allocates it with %s, "
                   "which promises 16", T, slot_align, plain_alloc);
        printf("  a %ld-byte aligned type in memory that is not is undefined behaviour (glibc's %s often returns\n"
               "  blocks 16, 32 or 48 bytes past a 64-byte boundary; ThreadSanitizer's happens to align them; UBSan\n"
               "  stops it: make SAN=asan BUILD=build/asan ex-3.2). Allocate with pw_alloc_bytes\n"
               "  (aligned_alloc(64, ...)) and free with pw_free\n", slot_align, plain_alloc);
        return 1;
    }
    uintptr_t off = slot_align > 16 ? (uintptr_t)s % (uintptr_t)slot_align : 0;
    if (off) {
        pw_ex_fail("slots_new(%d): slot 0 is at an address %lu bytes past a %ld-byte boundary, but struct slot asks "
                   "for %ld-byte alignment", T, (unsigned long)off, slot_align, slot_align);
        printf("  calloc and malloc promise only 16 bytes: a %ld-byte aligned type in that memory is undefined\n"
               "  behaviour (UBSan stops it: make SAN=asan BUILD=build/asan ex-3.2). Allocate with pw_alloc_bytes\n"
               "  (aligned_alloc(64, ...)) and free with pw_free\n", slot_align);
        return 1;
    }
#if defined(UNDER_SANITIZER)
    /* Only when s is the start of a block: a pointer rounded up inside a
     * bigger block (aligned by hand) is owned for ThreadSanitizer, with
     * size 0, and not owned for AddressSanitizer. */
    size_t size = __sanitizer_get_ownership(s) ? __sanitizer_get_allocated_size(s) : 0;
    if (size) {
        for (int t = 0; t < T; t++) {
            uintptr_t end = (uintptr_t)slot_counter(s, t) + sizeof(long long) - (uintptr_t)s;
            if (end > size) {
                pw_ex_fail("slots_new(%d): thread %d's counter lies past the end of the memory slots_new allocated: "
                           "its last byte is byte %lu of the block, which has %zu", T, t, (unsigned long)end - 1,
                           size);
                printf("  %d slots need %d * sizeof *s bytes: pw_alloc_bytes counts bytes, not slots\n"
                       "  (pw_alloc_bytes((size_t)threads * sizeof *s))\n", T, T);
                return 1;
            }
        }
    }
#endif
    return 0;
}

/* Every counter 0. again: the second slots_new(T), after a slots_free. */
static int check_zero(int T, slot *s, int again)
{
    for (int t = 0; t < T; t++)
        if (*slot_counter(s, t) != 0) {
            long long v = *slot_counter(s, t);
            pw_ex_fail("slots_new(%d): thread %d's counter starts at %lld, not 0%s", T, t, v,
                       again && v == 1000 + t ? " (it is what the checker wrote into the slots it freed just before)"
                       : "");
            printf("  slots_new must set every count to 0: calloc zeroes its memory, but malloc and aligned_alloc\n"
                   "  (pw_alloc_bytes) do not zero it (a fresh block from the system is 0, so it can pass by luck)\n");
            return 1;
        }
    return 0;
}

static int check_layout(int T)
{
    printf("  slots_new(%-2d) ", T);
    slot *s = slots_new(T);
    int bad = check_memory(T, s) || check_zero(T, s, 0);
    for (int t = 0; t < T && !bad; t++) *slot_counter(s, t) = 1000 + t;
    for (int t = 0; t < T && !bad; t++)
        if (*slot_counter(s, t) != 1000 + t) {
            pw_ex_fail("slots_new(%d): writing thread %d's counter changed another: thread %d's reads %lld", T, T - 1, t,
                 *slot_counter(s, t));
            printf("  do two slots overlap? slot_counter(s, t) must point into slot t\n");
            bad = 1;
        }
    for (int t = 0; t < T && !bad; t++)
        for (int u = t + 1; u < T && !bad; u++) {
            volatile long long *a = slot_counter(s, t), *b = slot_counter(s, u);
            if (line_of(a) <= last_line_of(b) && line_of(b) <= last_line_of(a)) {
                long long apart = (long long)((intptr_t)b - (intptr_t)a);
                pw_ex_fail("slots_new(%d): the counters of threads %d and %d are %lld bytes apart, in the same %d-byte "
                     "cache line: false sharing", T, t, u, apart, LINE);
                printf("  a core must own the whole line to write one byte of it, so two threads writing these\n"
                       "  counters pass the line back and forth. Make struct slot %d bytes long and aligned\n"
                       "  (alignas(%d) on its member), and allocate it aligned (pw_alloc_bytes)\n", LINE, LINE);
                bad = 1;
            }
        }
    slots_free(s);
    if (!bad) {
        /* Again: the allocator most likely hands back the block just freed,
         * with 1000 + t in it (see the top). */
        s = slots_new(T);
        bad = check_memory(T, s) || check_zero(T, s, 1);
        slots_free(s);
    }
    if (!bad) printf("ok\n");
    return bad;
}

static int check_count(const float *x, size_t n, int T)
{
    long long want = 0;
    for (size_t i = 0; i < n; i++) want += x[i] > 0.5f;
    printf("  count_above_threads(n = %-6zu threads = %d) ", n, T);
    long long got = count_above_threads(x, n, 0.5f, T);
    if (got != want) {
        pw_ex_fail("count_above_threads(n = %zu, %d threads) = %lld, want %lld", n, T, got, want);
        printf("  count_above_threads is given: did the change to the slots break a counter?\n");
        return 1;
    }
    printf("ok\n");
    return 0;
}

typedef struct { const float *x; size_t n; int T; long long got; } time_ctx;
static void run_count(void *p) { time_ctx *c = p; c->got = count_above_threads(c->x, c->n, 0.5f, c->T); }

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    enum { BIGN = 4 << 20 };
    float *x = pw_alloc_floats(BIGN);
    pw_fill_random(x, BIGN, 77, 0.0f, 1.0f);

    printf("exercise 3.2: one cache line per thread's counter, then the count\n");
    read_source();
    if (slot_align > 16) printf("  struct slot asks for %ld-byte alignment (alignas): the slots must start at a multiple of it\n", slot_align);
    static const int threads[] = { 1, 2, 3, 7, 16 };
    int bad = 0;
    for (int k = 0; k < 5 && !bad; k++) bad = check_layout(threads[k]);
    static const size_t sizes[] = { 0, 1, 7, 1001, 65537 };
    for (int k = 0; k < 4 && !bad; k++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !bad; i++) bad = check_count(x, sizes[i], threads[k]);
    if (bad) {
        pw_free(x);
        printf("exercise 3.2 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }

    /* Information, not a verdict: times depend on the machine and its load. */
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_reps = 5;
    cfg.min_time_s = 0;
    pw_bench_stats st1, st2;
    time_ctx c1 = { x, BIGN, 1, 0 }, c2 = { x, BIGN, 2, 0 };
    pw_bench(&cfg, run_count, &c1, &st1);
    pw_bench(&cfg, run_count, &c2, &st2);
    printf("  for information: %d elements in %.2f ms on 1 thread, %.2f ms on 2 (%.2fx)\n", BIGN, st1.median * 1e3,
           st2.median * 1e3, st1.median / st2.median);
    pw_free(x);
    return pw_ex_pass("every thread's counter has a cache line of its own (1 to 16 threads), and the count is exact");
}
