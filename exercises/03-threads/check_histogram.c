/* exercises/03-threads/check_histogram.c: the checker of exercise 3.1.
 *
 * Built with your exercises/03-threads/histogram.c by `make ex-3.1`, or with
 * solutions/03-threads/histogram.c by `make solution-3.1`. What it tries:
 *   1. uniform random bytes, n = 0, 1, 7, 1001, 65537 (odd: not a multiple
 *      of any thread count but 1), on 1, 2, 3 and 7 threads, and 7 bytes on
 *      16 threads (more threads than data);
 *   2. 2000003 bytes all of one value (a blank image), on 2, 3 and 7
 *      threads, three times each: every thread hits the same bin, so a race
 *      loses counts on any machine with two cores;
 *   3. 2000003 uniform bytes on 2 and on 7 threads, watching who reads the
 *      data: its pages (489 of 4 KiB) are made unreadable, and the first
 *      read of each page (a SIGSEGV the checker catches) records the
 *      reading thread and opens the page. With one block per thread
 *      (histogram.h), each of the T threads is the first reader of its own
 *      block's pages, at least 2000003 / 7 / 4096 - 2 = 67 of them (2 with
 *      64 KiB pages), however the threads are scheduled: fewer than T
 *      readers means the work did not run on the threads asked for
 *      (threads = 1, or all of it on the calling thread).
 * Before each case, bins[] holds 12345 in every bin (it must be
 * overwritten), and 4 short-lived threads fill 256 KiB of their stacks
 * with 0xa5 bytes: glibc reuses the stacks of finished threads, so a
 * private histogram that is never zeroed starts from garbage (gcc's
 * builds: 0xa5a5a5a5a5a5a5a5; clang's TSan start-up overwrites part of it
 * with its own) instead of, by luck, from the 0 of a fresh stack.
 * Each histogram must equal a sequential count exactly. A failure says which
 * mistake it looks like: elements nobody counted, elements counted twice, or
 * counts lost to a race. Last line "PASS: ..." and exit 0, or exit 1.
 */
#define _GNU_SOURCE   /* syscall(SYS_gettid), MAP_ANONYMOUS */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exercise.h"
#include "histogram.h"
#include "util.h"

#define BIG 2000003
#define STALE 12345ULL                 /* what bins[] holds before each call */
#define POISON 0xa5a5a5a5a5a5a5a5ULL   /* what a dirtied stack holds */
#define POISON_THREADS 4
#define POISON_BYTES (256 * 1024)

static const char *plural(long long k) { return k == 1 ? "" : "s"; }

/* ---- stacks that are not zero ------------------------------------------------
 * A fresh thread's stack is fresh memory from the kernel, all 0, so an
 * unzeroed private histogram there passes by luck. glibc keeps the stacks
 * of joined threads (up to 40 MiB) and hands them to the next threads, so
 * dirtying the stacks of a few threads first makes the next ones start on
 * 0xa5 bytes. */
static void *dirty_stack(void *arg)
{
    (void)arg;
    volatile unsigned char buf[POISON_BYTES];
    memset((void *)buf, 0xa5, sizeof buf);
    buf[0] = buf[sizeof buf - 1];   /* volatile: the stores stay */
    return NULL;
}

static void dirty_stacks(void)
{
    pthread_t t[POISON_THREADS];
    int made = 0;
    for (int k = 0; k < POISON_THREADS; k++) made += pthread_create(&t[made], NULL, dirty_stack, NULL) == 0;
    for (int k = 0; k < made; k++) pthread_join(t[k], NULL);
}

/* ---- who reads the data --------------------------------------------------------
 * The data's pages are PROT_NONE during the call; the first read of a page
 * faults, the handler records the reading thread (first reader wins: a
 * compare-and-swap, as two threads may fault on a page their blocks share)
 * and makes the page readable, and the read is done again. A fault outside
 * the watched pages is not ours: the default action is restored and the
 * read faults again, a crash as without the checker. */
#define WATCH_PAGES ((BIG + 4095) / 4096)   /* room for 4 KiB pages, the smallest */
static size_t page;                    /* the system's page size (4 KiB, or 16 or 64 KiB on some AArch64) */
static size_t npages;                  /* pages of the data: BIG / page, rounded up */
static unsigned char *watch_base;      /* NULL: nothing watched */
static _Atomic long page_reader[WATCH_PAGES];
/* Faults per page: a read faults once per thread at most (the threads that
 * reach a page before it is opened); a write into the data (it is const)
 * faults on an opened page again and again: after 64, the fault is left
 * to crash as it would without the checker. */
static _Atomic int page_faults[WATCH_PAGES];
#define MAX_FAULTS 64

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    uintptr_t a = (uintptr_t)si->si_addr, b = (uintptr_t)watch_base;
    if (watch_base && a >= b && a < b + (uintptr_t)(npages * page)) {
        size_t p = (a - b) / page;
        if (atomic_fetch_add(&page_faults[p], 1) >= MAX_FAULTS) {   /* not a first read: a write? */
            watch_base = NULL;
            goto not_ours;
        }
        long none = 0;
        atomic_compare_exchange_strong(&page_reader[p], &none, (long)syscall(SYS_gettid));
        mprotect(watch_base + p * page, page, PROT_READ);
        return;
    }
not_ours:;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(sig, &sa, NULL);
}

static void watch(unsigned char *data, int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    if (on) {
        for (size_t p = 0; p < npages; p++) atomic_store(&page_reader[p], 0), atomic_store(&page_faults[p], 0);
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO;
    } else {
        sa.sa_handler = SIG_DFL;
    }
    sigemptyset(&sa.sa_mask);
    if (on) {
        sigaction(SIGSEGV, &sa, NULL);
        sigaction(SIGBUS, &sa, NULL);
        watch_base = data;
        mprotect(data, npages * page, PROT_NONE);
    } else {
        mprotect(data, npages * page, PROT_READ | PROT_WRITE);
        watch_base = NULL;
        sigaction(SIGSEGV, &sa, NULL);
        sigaction(SIGBUS, &sa, NULL);
    }
}

/* How many threads were the first to read some page; *read: pages read. */
static int readers(size_t *read)
{
    long seen[64];
    int k = 0;
    *read = 0;
    for (size_t p = 0; p < npages; p++) {
        long r = atomic_load(&page_reader[p]);
        if (!r) continue;
        ++*read;
        int j = 0;
        while (j < k && seen[j] != r) j++;
        if (j == k && k < 64) seen[k++] = r;
    }
    return k;
}

/* The sequential count of data[0 .. n-1]. */
static void count_ref(const unsigned char *data, size_t n, unsigned long long *ref)
{
    memset(ref, 0, HIST_BINS * sizeof *ref);
    for (size_t i = 0; i < n; i++) ref[data[i]]++;
}

static unsigned long long total(const unsigned long long *bins)
{
    unsigned long long s = 0;
    for (int b = 0; b < HIST_BINS; b++) s += bins[b];
    return s;
}

/* Says what the wrong histogram looks like; always returns 1. */
static int explain(const unsigned char *data, size_t n, int T, const unsigned long long *got,
                   const unsigned long long *ref)
{
    unsigned long long sum = total(got), alt[HIST_BINS];
    size_t rem = n % (size_t)T;
    count_ref(data, n - rem, alt);
    int stale = 1;   /* every bin STALE more than the count: bins[] added to */
    for (int b = 0; b < HIST_BINS; b++) stale &= got[b] == ref[b] + STALE;
    if (stale) {
        pw_ex_fail("n = %zu on %d thread%s: bins[] was added to, not overwritten: every bin is %llu more than the "
                   "count, the value it held before the call", n, T, plural(T), STALE);
        printf("  histogram.h: bins is overwritten, not added to; set bins[] to 0 before adding the counts into it\n");
        return 1;
    }
    /* A bin above what T threads counting everything could give, plus the
     * stale value: a count that started from garbage. */
    for (int b = 0; b < HIST_BINS; b++)
        if (got[b] > ((unsigned long long)T + 1) * n + STALE) {
            pw_ex_fail("n = %zu on %d thread%s: bins[%d] = %llu, want %llu: more than any counting gives, so memory "
                       "that was never set: a private histogram never zeroed, or added up before its thread was joined",
                       n, T, plural(T), b, got[b], ref[b]);
            printf("  a local array is not zeroed for you: unsigned long long mine[HIST_BINS] = { 0 };\n"
                   "  (a fresh thread's stack is often 0, so this can pass by luck: the checker dirties the stacks);\n"
                   "  and add a thread's histogram into bins[] only after pthread_join has returned for it\n");
            return 1;
        }
    if (rem && !memcmp(got, alt, sizeof alt)) {
        pw_ex_fail("n = %zu on %d threads: the last %zu element%s (n %% threads) %s not counted", n, T, rem,
             plural((long long)rem), rem == 1 ? "was" : "were");
        printf("  n / threads rounds down, so %d blocks of %zu stop at %zu; the blocks must cover data[0 .. n-1]:\n"
               "  give the first n %% threads blocks one more element (or let the last block run to n)\n",
               T, n / (size_t)T, n - rem);
        return 1;
    }
    if (sum == (unsigned long long)n * (unsigned long long)T && T > 1) {
        pw_ex_fail("n = %zu on %d threads: %llu counts, %d times n: every thread counted all the data", n, T, sum, T);
        printf("  thread t must count only its own block data[lo .. hi-1]\n");
        return 1;
    }
    if (sum > n) {
        pw_ex_fail("n = %zu on %d thread%s: %llu counts for %zu elements: some elements were counted twice", n, T,
                   plural(T), sum, n);
        printf("  do the blocks overlap? Each element belongs to exactly one thread's block\n");
        return 1;
    }
    if (sum < n && T > 1) {
        pw_ex_fail("n = %zu on %d threads: %llu of %zu counts were lost (%.1f%%), and 1 thread was exact: a race", n, T,
             (unsigned long long)n - sum, n, 100.0 * (double)(n - sum) / (double)n);
        printf("  two threads read the same bin, both add 1, both write it back: one count is gone.\n"
               "  Count into a private histogram per thread and add them up after pthread_join.\n");
        return 1;
    }
    int b = 0;
    while (got[b] == ref[b]) b++;
    pw_ex_fail("n = %zu on %d thread%s: bins[%d] = %llu, want %llu (the total is %s)", n, T, plural(T), b, got[b], ref[b],
         sum == n ? "right: counts went into the wrong bins" : "wrong");
    printf("  bins[b] counts the elements equal to b: bins[data[i]] += 1\n");
    return 1;
}

/* One case; 0 if exact. watched: record who reads the data (BIG only). */
static int try_case(unsigned char *data, size_t n, int T, const char *kind, int watched)
{
    unsigned long long got[HIST_BINS + 1], ref[HIST_BINS];
    got[HIST_BINS] = 0xfeedULL;   /* a fence just past bins[] */
    for (int b = 0; b < HIST_BINS; b++) got[b] = STALE;   /* stale counts: bins must be overwritten */
    count_ref(data, n, ref);
    dirty_stacks();
    printf("  %-8s n = %-8zu threads = %-3d ", kind, n, T);
    if (watched) watch(data, 1);
    histogram_threads(data, n, T, got);
    if (watched) watch(data, 0);
    if (got[HIST_BINS] != 0xfeedULL) {
        pw_ex_fail("n = %zu on %d threads: histogram_threads wrote past bins[%d]", n, T, HIST_BINS - 1);
        return 1;
    }
    if (memcmp(got, ref, sizeof ref)) return explain(data, n, T, got, ref);
    if (watched) {
        size_t read;
        int k = readers(&read);
        if (k < T) {
            pw_ex_fail("n = %zu on %d threads: the data was read by %d thread%s: the first read of each of its %zu "
                       "pages came from %s", n, T, k, plural(k), read, k == 1 ? "the same thread" : "these threads");
            printf("  histogram.h: each of the threads asked for counts one block of the data; one thread\n"
                   "  counting everything has nothing to race with, and nothing to gain\n");
            return 1;
        }
        printf("ok (the data read by %d threads)\n", k);
        return 0;
    }
    printf("ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    /* uniform in pages of its own (mmap), so that they can be watched. */
    long ps = sysconf(_SC_PAGESIZE);
    page = ps >= 4096 ? (size_t)ps : 4096;
    npages = (BIG + page - 1) / page;
    unsigned char *uniform = mmap(NULL, npages * page, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *blank = malloc(BIG);
    if (uniform == MAP_FAILED || !blank) { printf("FAIL: out of memory\n"); return 1; }
    float *r = pw_alloc_floats(BIG);
    pw_fill_random(r, BIG, 31, 0.0f, 256.0f);
    for (size_t i = 0; i < BIG; i++) { uniform[i] = (unsigned char)r[i]; blank[i] = 200; }
    pw_free(r);

    printf("exercise 3.1: histogram_threads() against a sequential count, exactly\n");
    static const size_t sizes[] = { 0, 1, 7, 1001, 65537 };
    static const int threads[] = { 1, 2, 3, 7 };
    int bad = 0;
    for (size_t t = 0; t < 4 && !bad; t++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && !bad; k++)
            bad = try_case(uniform, sizes[k], threads[t], "uniform", 0);
    if (!bad) bad = try_case(uniform, 7, 16, "uniform", 0);
    for (int rep = 0; rep < 3 && !bad; rep++)
        for (size_t t = 1; t < 4 && !bad; t++) bad = try_case(blank, BIG, threads[t], "one-bin", 0);
    if (!bad) bad = try_case(uniform, BIG, 2, "uniform", 1);
    if (!bad) bad = try_case(uniform, BIG, 7, "uniform", 1);
    munmap(uniform, npages * page);
    free(blank);
    if (bad) {
        printf("exercise 3.1 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    return pw_ex_pass("histogram_threads() is exact on 1, 2, 3, 7 and 16 threads, odd sizes, and 2M bytes of one value, "
                      "and the data is read by the threads asked for");
}
