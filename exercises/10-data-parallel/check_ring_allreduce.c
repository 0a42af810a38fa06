/* exercises/10-data-parallel/check_ring_allreduce.c: the checker of exercise 10.1.
 *
 * Built with your exercises/10-data-parallel/ring_allreduce.c by
 * `make ex-10.1`, or with the solution by `make solution-10.1`. It runs your
 * ring_allreduce() on every rank of the virtual cluster (common/cluster/cluster.h):
 *   1. the sum, on 1, 2, 3, 5, 8 and 13 ranks (not only powers of two) and
 *      lengths 1, 2, 3, 7, 64, 1001, 4099 (shorter than the rank count, and
 *      not divisible by it). The data are whole numbers: rank r contributes
 *      2^r + 8192 (i mod 5) to element i. Every partial sum is a whole
 *      number below 2^24, exact in float, so any order of addition gives the
 *      exact answer and the check is `==`. The powers of two also tell which
 *      ranks a wrong element holds: the low 13 bits are the set of ranks
 *      added in, and the checker says which are missing. The 8 floats on
 *      either side of each buffer must not change;
 *   2. no drift: random reals in [-1/3, 1/3) (full 24-bit significands, so
 *      that sums round from the first addition) on 3, 5, 8 and 13 ranks. Here the
 *      order of additions matters in the last bits, so every rank must hold
 *      the very same bits (a replica that adds in its own order drifts from
 *      the others, step after step of training), and the sum must be within
 *      p^2 2^-24 of the double-precision sum: p-1 additions, each rounding by
 *      at most 2^-24 of a partial sum no larger than p;
 *   3. the modelled time. On one node with n divisible by p every step sends
 *      one chunk of n/p floats over each link at once, so the ring takes
 *      exactly 2(p-1)(alpha + (n/p) 4 beta): checked to relative error 1e-9
 *      (coll_model_ring), on 2, 3, 5, 8, 13 ranks and on 16 ranks on two
 *      nodes of 8 (the ring then waits for the inter-node link at every
 *      step). With n not divisible by p the time must lie between the
 *      formulas for the smaller and the larger chunk.
 * A deadlock is reported by the cluster (who waits for whom), not a hang.
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "collectives.h"
#include "ring_allreduce.h"
#include "util.h"

#define GUARD 8             /* floats watched on either side of each buffer */
#define GUARD_VALUE -12345.0f
#define MAXP 16

typedef struct {
    float **buf;            /* buf[rank]: n floats inside guards */
    size_t n;
} job;

static void run_rank(pw_rank *r, void *arg)
{
    job *j = arg;
    ring_allreduce(r, j->buf[pw_rank_id(r)], j->n);
}

/* The cluster aborts on a receive whose size differs from the message sent,
 * or a peer outside 0..p-1 (its own line on stderr says which): say it in
 * the verdict's words before dying. */
static void on_abort(int sig)
{
    static const char msg[] =
        "FAIL: the virtual cluster stopped the run (the line above says why): a receive must ask for exactly\n"
        "  the bytes its sender sent (both sides must agree on chunk k's length), and peers are 0..p-1\n";
    (void)sig;
    ssize_t w = write(STDOUT_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
}

static float whole(int r, size_t i) { return (float)((1 << r) + 8192 * (int)(i % 5)); }

/* The buffers of the run in progress. A skeleton exits from inside a rank
 * (a fiber with its own stack), where LeakSanitizer does not see main's
 * locals and would call them leaked: an exit handler frees them. */
static float **live;
static int live_p;
static void free_bufs(float **b, int p);
static void free_live(void) { if (live) free_bufs(live, live_p); }

static float **alloc_bufs(int p, size_t n)
{
    float **b = live = calloc((size_t)p, sizeof *b);
    live_p = p;
    for (int r = 0; r < p; r++) {
        float *base = malloc((n + 2 * GUARD) * sizeof *base);
        if (!b || !base) { fprintf(stderr, "out of memory\n"); exit(2); }
        for (size_t i = 0; i < n + 2 * GUARD; i++) base[i] = GUARD_VALUE;
        b[r] = base + GUARD;
    }
    return b;
}

static void free_bufs(float **b, int p)
{
    for (int r = 0; r < p; r++) free(b[r] - GUARD);
    free(b);
    live = NULL;
}

/* Run on p ranks, rpn per node; on a deadlock explain and exit. */
static double run(int p, int rpn, job *j, long long *msgs, double *bytes)
{
    pw_cluster_config cfg = pw_cluster_defaults(p);
    cfg.ranks_per_node = rpn;
    pw_cluster *c = pw_cluster_create(&cfg);
    if (pw_cluster_run(c, run_rank, j) != PW_CLUSTER_OK) {
        const char *rep = pw_cluster_report(c);
        printf("wrong\n%s", rep);
        char all[64];
        snprintf(all, sizeof all, "%d of %d ranks", p, p);
        if (strstr(rep, all) && strstr(rep, "itself waiting"))
            printf("FAIL: deadlock on %d ranks (n = %zu): every rank waits to receive, none has sent: send first\n"
                   "  sends here are eager (they return at once), so a ring where every rank sends its chunk\n"
                   "  and then receives cannot deadlock; one where every rank receives first always does\n", p, j->n);
        else if (strstr(rep, "finished without sending"))
            printf("FAIL: deadlock on %d ranks (n = %zu): a rank waits for a message its neighbour never sends\n"
                   "  do both sides run the same number of steps (p-1 in each phase), receiving from the left\n"
                   "  what the left one sends to its right?\n", p, j->n);
        else
            printf("FAIL: deadlock on %d ranks (n = %zu): the ranks wait for each other (report above)\n", p, j->n);
        exit(1);
    }
    double t = pw_cluster_time(c);
    if (msgs) pw_cluster_traffic(c, msgs, bytes);
    pw_cluster_destroy(c);
    return t;
}

static int failures;

static bool guards_intact(float **b, int p, size_t n)
{
    for (int r = 0; r < p; r++)
        for (int g = 0; g < GUARD; g++)
            if (b[r][-1 - g] != GUARD_VALUE || b[r][n + (size_t)g] != GUARD_VALUE) {
                printf("wrong\nFAIL: p = %d, n = %zu: rank %d wrote %s its buffer (element %lld): a chunk's end\n"
                       "  past n, or a scratch copied to the wrong place?\n", p, n, r,
                       b[r][-1 - g] != GUARD_VALUE ? "before" : "after",
                       b[r][-1 - g] != GUARD_VALUE ? -1LL - g : (long long)n + g);
                return false;
            }
    return true;
}

/* What a wrong element holds, in words. The low 13 bits of a sum of
 * distinct contributions 2^q + 8192 (i mod 5) are the set of ranks q. */
static void explain_element(int p, size_t n, int r, size_t i, float got, float want, bool tail_only)
{
    int k = 0;
    while (k + 1 < p && coll_chunk_begin(n, p, k + 1) <= i) k++;
    printf("FAIL: p = %d, n = %zu: rank %d has %.0f at element %zu (chunk %d of %d), want %.0f\n",
           p, n, r, (double)got, i, k, p, (double)want);
    if (got >= 0 && got < 16777216 && got == floorf(got)) {
        long v = (long)got, mask = v % 8192, hi = v / 8192;
        int count = __builtin_popcountl((unsigned long)mask);
        long full = (1L << p) - 1;
        if (mask == full && hi != p * (long)(i % 5)) {
            printf("  every rank is in it, but from other elements: are the chunk offsets the same on the\n"
                   "  sending and the receiving side (coll_chunk_begin(n, p, k))?\n");
        } else if (mask == (1L << r) && hi == (long)(i % 5)) {
            printf("  it is still rank %d's own value: nothing ever arrived for this element. Every chunk\n"
                   "  must be added in by the reduce-scatter and delivered by the all-gather (p-1 steps each)\n", r);
        } else if ((mask & ~full) == 0 && count < p && hi == count * (long)(i % 5)) {
            printf("  it is the sum of only %d of the %d ranks; missing:", count, p);
            for (int q = 0; q < p; q++)
                if (!(mask & (1L << q))) printf(" %d", q);
            printf("\n  a reduce-scatter with too few steps (it needs p-1), or an all-gather that passes on\n"
                   "  a partial sum instead of the chunk finished on its owner?\n");
        } else if (mask == full && hi == p * (long)(i % 5)) {
            /* unreachable: that is want */
        } else {
            printf("  some rank's contribution is counted twice, or a chunk was added where it should\n"
                   "  have been copied (the all-gather copies: the chunks it passes are finished)\n");
        }
    }
    if (tail_only)
        printf("  only the last n mod p = %zu elements are wrong: chunks of n/p elements each drop the remainder;\n"
               "  take chunk k as [coll_chunk_begin(n, p, k), coll_chunk_begin(n, p, k + 1))\n", n % (size_t)p);
}

/* 1. exact sums on whole numbers */
static bool check_sums(int p)
{
    static const size_t lengths[] = { 64, 7, 1001, 4099, 3, 2, 1 };
    printf("  %2d ranks, n = 64, 7, 1001, 4099, 3, 2, 1: ", p);
    fflush(stdout);
    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
        size_t n = lengths[li];
        float **b = alloc_bufs(p, n);
        for (int r = 0; r < p; r++)
            for (size_t i = 0; i < n; i++) b[r][i] = whole(r, i);
        job j = { b, n };
        run(p, p, &j, NULL, NULL);
        bool ok = guards_intact(b, p, n);
        /* the first wrong element, and whether all wrong ones are in the
         * remainder a chunk size of n/p would leave out */
        size_t tail = (n / (size_t)p) * (size_t)p;
        int bad_r = -1;
        size_t bad_i = 0;
        bool tail_only = ok && n >= (size_t)p && n % (size_t)p;
        for (int r = 0; r < p && ok; r++)
            for (size_t i = 0; i < n; i++) {
                float want = 0;
                for (int q = 0; q < p; q++) want += whole(q, i);
                if (b[r][i] == want) continue;
                if (bad_r < 0) { bad_r = r; bad_i = i; }
                if (i < tail) tail_only = false;
            }
        if (bad_r >= 0) {
            float want = 0;
            for (int q = 0; q < p; q++) want += whole(q, bad_i);
            printf("wrong\n");
            explain_element(p, n, bad_r, bad_i, b[bad_r][bad_i], want, tail_only);
            ok = false;
        }
        free_bufs(b, p);
        if (!ok) return false;
    }
    printf("exact sums on every rank\n");
    return true;
}

/* 2. random reals: every rank the same bits, within rounding of the sum */
static bool check_no_drift(int p)
{
    size_t n = 1001;
    printf("  %2d ranks, n = %zu random reals: ", p, n);
    fflush(stdout);
    float **b = alloc_bufs(p, n);
    double *ref = calloc(n, sizeof *ref);
    /* pw_fill_random's values are multiples of 2^-23: the sum of two of them
     * in [-1, 1) is exact, so on 3 ranks every order of addition would give
     * the same bits and the check could not fail. Divided by 3 they carry a
     * full 24-bit significand each, at exponents of their own, and the sums
     * round from the first addition on. */
    for (int r = 0; r < p; r++) {
        pw_fill_random(b[r], n, 1000 + (uint64_t)r, -1, 1);
        for (size_t i = 0; i < n; i++) b[r][i] /= 3;
    }
    for (int r = 0; r < p; r++)
        for (size_t i = 0; i < n; i++) ref[i] += b[r][i];
    job j = { b, n };
    run(p, p, &j, NULL, NULL);
    bool ok = guards_intact(b, p, n);
    for (int r = 1; r < p && ok; r++)
        for (size_t i = 0; i < n; i++)
            if (memcmp(&b[r][i], &b[0][i], sizeof(float))) {
                printf("wrong\nFAIL: p = %d: rank %d holds %.9g at element %zu, rank 0 holds %.9g: the replicas differ in\n"
                       "  the last bits. Each chunk must be summed once, on one rank, and then only copied: a rank\n"
                       "  that adds the chunks up in its own order drifts away from the others, step after step\n",
                       p, r, (double)b[r][i], i, (double)b[0][i]);
                ok = false;
                break;
            }
    double tol = (double)p * p * 0x1p-24;
    for (size_t i = 0; i < n && ok; i++)
        if (fabs(b[0][i] - ref[i]) > tol) {
            printf("wrong\nFAIL: p = %d: element %zu is %.9g, the sum is %.9g: further than rounding (%.2g) allows\n",
                   p, i, (double)b[0][i], ref[i], tol);
            ok = false;
        }
    free(ref);
    free_bufs(b, p);
    if (ok) printf("every rank holds the same bits, within %.1e of the exact sum\n", tol);
    return ok;
}

/* 3. the modelled time against the closed form */
static bool check_time(int p, int rpn, size_t n)
{
    pw_cluster_config cfg = pw_cluster_defaults(p);
    bool multi = rpn < p;
    double alpha = multi ? cfg.inter_alpha : cfg.intra_alpha;
    double beta = 1 / ((multi ? cfg.inter_gbs : cfg.intra_gbs) * 1e9);
    bool exact = n % (size_t)p == 0;
    printf("  %2d ranks%s, n = %-6zu ", p, multi ? " on 2 nodes" : "", n);
    fflush(stdout);
    float **b = alloc_bufs(p, n);
    for (int r = 0; r < p; r++)
        for (size_t i = 0; i < n; i++) b[r][i] = 1;
    job j = { b, n };
    long long msgs;
    double bytes;
    double t = run(p, rpn, &j, &msgs, &bytes);
    free_bufs(b, p);
    double hi = coll_model_ring(p, n, 4, alpha, beta);
    double lo = coll_model_ring(p, n - n % (size_t)p, 4, alpha, beta);
    if (p == 1) lo = hi = 0;
    bool ok = exact ? (p == 1 ? t == 0 : fabs(t - hi) / hi < 1e-9)
                    : t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9);
    if (failures) {                       /* explained once already: one line each from here */
        printf("modelled %10.4f us, the ring's %10.4f us %s\n", t * 1e6, hi * 1e6, ok ? "ok" : "wrong");
        return ok;
    }
    if (exact) printf("modelled %10.4f us, 2(p-1)(alpha + (n/p) beta) = %10.4f us ", t * 1e6, hi * 1e6);
    else printf("modelled %10.4f us, between %.4f and %.4f us ", t * 1e6, lo * 1e6, hi * 1e6);
    if (ok) { printf("ok\n"); return true; }
    printf("wrong\n");
    long long want_msgs = 2LL * p * (p - 1);
    double want_bytes = 2.0 * (p - 1) * (double)n * 4;   /* every rank sends 2(p-1) chunks of n/p floats */
    printf("FAIL: p = %d, n = %zu: the modelled time is %.6g us, the ring's is %.6g us (%+.1f%%)\n",
           p, n, t * 1e6, hi * 1e6, 100 * (t / hi - 1));
    printf("  you sent %lld messages and %.0f bytes in all; a ring sends 2p(p-1) = %lld and 2(p-1) n 4 = %.0f\n",
           msgs, bytes, want_msgs, want_bytes);
    if (bytes >= 0.99 * p * want_bytes && p > 1)
        printf("  that is p times the ring's bytes: does every step send the whole buffer instead of one chunk?\n");
    else if (msgs == want_msgs && fabs(bytes - want_bytes) <= 0.5 && t > hi)
        printf("  the right messages, but later: does a rank receive before it sends within a step? Then its\n"
               "  right neighbour waits a step for it. Send first (sends return at once), then receive\n");
    else if (msgs != want_msgs)
        printf("  p-1 steps of reduce-scatter and p-1 of all-gather, one message each per rank\n");
    return false;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    signal(SIGABRT, on_abort);
    atexit(free_live);
    static const int ps[] = { 1, 2, 3, 5, 8, 13 };
    printf("exercise 10.1: ring_allreduce() on the virtual cluster\n");
    printf("1. sums of whole numbers (exact in any order):\n");
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++)
        if (!check_sums(ps[k])) return 1;
    printf("2. random reals: the replicas must not drift apart:\n");
    for (size_t k = 2; k < sizeof ps / sizeof ps[0]; k++)
        if (!check_no_drift(ps[k])) return 1;
    printf("3. modelled time (one node unless said):\n");
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++)
        failures += !check_time(ps[k], ps[k], (size_t)ps[k] * 1000);
    failures += !check_time(16, 8, 16 * 1000);
    failures += !check_time(5, 5, 4099);
    failures += !check_time(13, 13, 1000);
    failures += !check_time(8, 8, 3);
    if (failures) {
        printf("FAIL: %d of 10 modelled times differ from the ring's\n", failures);
        return 1;
    }
    return pw_ex_pass("the ring all-reduce is right on 1 to 13 ranks, bitwise identical on every rank, and takes\n"
           "  2(p-1)(alpha + (n/p) beta) of modelled time");
}
