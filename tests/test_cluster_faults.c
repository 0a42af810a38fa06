/* tests/test_cluster_faults.c: the virtual cluster's own faults, each
 * reported the way a program can act on (common/cluster.h).
 *
 * Checks: a rank whose frame is bigger than its stack is the one named, not
 * the rank that later runs into unmapped memory (a 160 KiB array on 64 KiB
 * stacks of 8 ranks named rank 6 before the guard grew to 1 MiB and calls
 * checked the stack pointer); a frame bigger than the guard too; a deadlock
 * of thousands of ranks is reported in a screenful, the rest counted by what
 * they wait for; the rank-limit hint names a count validation accepts; a
 * receive of the wrong size, a peer or tag out of range stop the run with
 * PW_CLUSTER_BAD_CALL and one line naming both ranks, and a program that
 * prints the report exits 1 (it used to die of SIGABRT). */
#define _DEFAULT_SOURCE           /* MAP_ANONYMOUS under -std=c11 */
#include "cluster.h"
#include "fiber.h"
#include "unit.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

/* Run body(arg) in a child process; return its wait status, its stderr in
 * err (NUL-terminated). The child exits 0 if body returns. */
static int in_child(void (*body)(void *), void *arg, char *err, size_t len)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        body(arg);
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t k;
    while (got + 1 < len && (k = read(fd[0], err + got, len - 1 - got)) > 0) got += (size_t)k;
    err[got] = 0;
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    return status;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* ---- a frame bigger than the stack ------------------------------------------------ */

#define BIG_FRAME (160 << 10)            /* 160 KiB of locals on a 64 KiB stack */

/* Touched every 40 KiB from the lowest address up: four writes that, on
 * 64 KiB stacks with one-page guards side by side, all miss the guards (the
 * lowest lands two stacks down): no fault until a rank near the end of the
 * mappings writes below all of them, rank p-2 of p. */
#define SPARSE_TOUCH(big)                                                        \
    for (size_t i = 0; i < sizeof big; i += 40 << 10) big[i] = 1;

/* As the build compiles it: with -fstack-clash-protection (mk/detect.mk)
 * the frame is set up a page at a time, each page touched. */
static void big_frame_probed(pw_rank *r, void *arg)
{
    (void)arg;
    volatile char big[BIG_FRAME];
    SPARSE_TOUCH(big);
    pw_compute(r, big[pw_rank_id(r)] + 1.0, NULL);
}

/* The same without the probes (what a learner's own build may give): the
 * stack pointer moves 96 KiB below the stack in one step, and the fiber's
 * 1 MiB guard and the cluster's stack check have to catch it. gcc can
 * switch the probes off for one function; clang cannot, so there only the
 * probed case runs. */
#if defined(__GNUC__) && !defined(__clang__)
#define HAVE_UNPROBED 1
__attribute__((optimize("no-stack-clash-protection")))
static void big_frame_unprobed(pw_rank *r, void *arg)
{
    (void)arg;
    volatile char big[BIG_FRAME];
    SPARSE_TOUCH(big);
    pw_compute(r, big[pw_rank_id(r)] + 1.0, NULL);
}

/* Bigger than stack and guard together, with the stack pointer landing on
 * memory that is mapped, where nothing faults: only the stack check at
 * pw_rank_id can name rank 0. The landing place is made sure of: a fresh
 * 64 KiB mapping at the first free place below rank 0's guard (an address
 * asked for, and taken only if the kernel gives exactly that one), and the
 * frame sized to reach 48 KiB into it. Only the top of the frame (rank 0's
 * own stack) and the landing place are written. Without the check rank 0
 * would return and the child exit 0. */
static char *landing_below(char *frame)
{
    uintptr_t start = ((uintptr_t)frame & ~(uintptr_t)0xffff) - PW_FIBER_GUARD_BYTES - (128 << 10);
    for (int k = 0; k < 4096; k++) {
        char *want = (char *)(start - ((uintptr_t)k << 16));
        char *got = mmap(want, 64 << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (got == want) return got;
        if (got != MAP_FAILED) munmap(got, 64 << 10);
    }
    return NULL;
}

__attribute__((optimize("no-stack-clash-protection")))
static void past_the_guard(pw_rank *r, void *arg)
{
    (void)arg;
    if (pw_rank_id(r) != 0) return;
    char *frame = __builtin_frame_address(0);
    char *land = landing_below(frame);
    if (!land) {
        fprintf(stderr, "SKIP: no free 64 KiB within 256 MiB below rank 0's stack\n");
        _exit(77);
    }
    size_t n = (size_t)(frame - (land + (48 << 10)));
    volatile char big[n];
    big[n - 1] = 1;
    pw_compute(r, big[n - 1 - (size_t)pw_rank_id(r)] + 1.0, NULL);
}
#endif

typedef struct { pw_rank_fn fn; int ranks; size_t stack; } overflow_job;

static void run_overflow(void *arg)
{
    overflow_job *j = arg;
    pw_cluster_config cfg = pw_cluster_defaults(j->ranks);
    cfg.stack_bytes = j->stack;
    pw_cluster *c = pw_cluster_create(&cfg);
    pw_cluster_run(c, j->fn, NULL);
    pw_cluster_destroy(c);
}

static void expect_rank0_named(const char *what, pw_rank_fn fn, int ranks)
{
    char err[4096];
    overflow_job j = { fn, ranks, 64 << 10 };
    int status = in_child(run_overflow, &j, err, sizeof err);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        printf("  %s: %s", what, err);
        return;
    }
    EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "%s: the process dies of the fault (status %#x)", what, status);
    EXPECT(strstr(err, "virtual cluster: rank 0: stack overflow") && strstr(err, "its 64 KiB stack")
           && count_lines(err) == 1,
           "%s: one line naming rank 0 (of %d), the first to overflow, got:\n%s", what, ranks, err);
}

static void test_big_frame_names_first_rank(void)
{
#ifdef UNDER_TSAN
    SKIP("under ThreadSanitizer, which defers signals (the plain build runs this test)");
#endif
    expect_rank0_named("160 KiB frame, probed", big_frame_probed, 8);
#ifdef HAVE_UNPROBED
    expect_rank0_named("160 KiB frame, unprobed", big_frame_unprobed, 8);
    expect_rank0_named("a frame past the 1 MiB guard, onto mapped memory", past_the_guard, 2);
#else
    printf("  this compiler cannot switch -fstack-clash-protection off per function: the unprobed cases run under gcc\n");
#endif
    /* With a stack that holds the frame, every rank runs. */
    pw_cluster_config cfg = pw_cluster_defaults(8);
    cfg.stack_bytes = 512 << 10;
    pw_cluster *c = pw_cluster_create(&cfg);
    EXPECT(pw_cluster_run(c, big_frame_probed, NULL) == PW_CLUSTER_OK, "with 512 KiB stacks the 160 KiB frame fits");
    pw_cluster_destroy(c);
}

/* ---- a deadlock of many ranks ------------------------------------------------------- */

/* Every rank receives from the next (even ranks 4 bytes, odd ranks 8), and
 * only then would send: a cycle of waits. The last rank returns at once, so
 * the one before it waits for a rank that finished. */
static void cycle_but_last(pw_rank *r, void *arg)
{
    (void)arg;
    int p = pw_rank_size(r), me = pw_rank_id(r);
    if (me == p - 1) return;
    double x[1] = { 0 };
    pw_recv(r, me + 1, x, me % 2 ? 8 : 4);
}

static void test_deadlock_report_is_short(void)
{
    int p = 4096;
    pw_cluster_config cfg = pw_cluster_defaults(p);
    char why[512];
    if (pw_cluster_validate(&cfg, why, sizeof why)) SKIP("4096 ranks do not fit here");
    pw_cluster *c = pw_cluster_create(&cfg);
    int rc = pw_cluster_run(c, cycle_but_last, NULL);
    const char *rep = pw_cluster_report(c);
    int lines = count_lines(rep);
    EXPECT(rc == PW_CLUSTER_DEADLOCK, "a cycle of receives is a deadlock (rc %d)", rc);
    /* header + 20 ranks + "... and" + at most PW_CLUSTER_REPORT_GROUPS (8) + 1 */
    EXPECT(lines <= 31, "4095 waiting ranks in a screenful: %d lines", lines);
    EXPECT(strstr(rep, "4095 of 4096 ranks") && strstr(rep, "rank 0 (clock 0 s): recv from rank 1 (4 bytes)")
           && strstr(rep, "rank 19 (clock 0 s): recv from rank 20 (8 bytes)") && !strstr(rep, "rank 20 (clock"),
           "the first 20 ranks one line each:\n%.2000s", rep);
    /* ranks 20..4094 wait: 20..4092 even (2037) and 21..4093 odd (2037) on a
     * waiting rank; 4094 (even) on rank 4095, which returned. */
    EXPECT(strstr(rep, "... and 4075 more ranks waiting")
           && strstr(rep, "2037 (ranks 20 to 4092): recv (4 bytes); that rank is itself waiting")
           && strstr(rep, "2037 (ranks 21 to 4093): recv (8 bytes); that rank is itself waiting")
           && strstr(rep, "1 (rank 4094): recv (4 bytes); that rank finished without sending it"),
           "the rest counted by what they wait for, the odd one named:\n%.3000s", rep);
    pw_cluster_destroy(c);
}

/* ---- the rank-limit hint names a count that is accepted ---------------------------- */

/* The "at most N ranks" of a refusal, or -1. */
static long hinted_most(const char *why)
{
    const char *at = strstr(why, "at most ");
    return at ? strtol(at + 8, NULL, 10) : -1;
}

static void test_rank_limit_hint(void)
{
    long room = pw_fiber_room();
    if (room < 0) SKIP("vm.max_map_count cannot be read here (not Linux)");
    if (room + 8 > PW_CLUSTER_MAX_RANKS) SKIP("vm.max_map_count is above the cluster's own limit: nothing to hint");
    const int per_node[] = { 8, 7, 1 };
    for (int k = 0; k < 3; k++) {
        int rpn = per_node[k];
        char why[256];                       /* the size pw_cluster_check_or_exit prints from */
        pw_cluster_config cfg = pw_cluster_defaults(8);
        cfg.ranks = (int)(room / rpn + 1) * rpn;
        cfg.ranks_per_node = rpn;
        int rc = pw_cluster_validate(&cfg, why, sizeof why);
        long most = hinted_most(why);
        EXPECT(rc == 1 && most > 0 && strstr(why, "sysctl -w vm.max_map_count="),
               "%d ranks, %d a node: refused in one whole line with a hint: '%s'", cfg.ranks, rpn, why);
        if (most <= 0) continue;
        EXPECT(most % rpn == 0 && most <= room && most > room - rpn,
               "the hint %ld is the largest multiple of %d up to the %ld that fit", most, rpn, room);
        cfg.ranks = (int)most;
        rc = pw_cluster_validate(&cfg, why, sizeof why);
        EXPECT(rc == 0, "the hinted %ld ranks, %d a node, are accepted: '%s'", most, rpn, rc ? why : "");
    }
    /* All on one node (pw_cluster_defaults of up to 8, or --per-node as big
     * as the count): fewer ranks on one node are accepted, so the hint is
     * the room itself. */
    char why[256];
    pw_cluster_config cfg = pw_cluster_defaults(8);
    cfg.ranks = cfg.ranks_per_node = (int)room + 3;
    EXPECT(pw_cluster_validate(&cfg, why, sizeof why) == 1 && hinted_most(why) == room,
           "one node of %d: at most %ld: '%s'", cfg.ranks, room, why);
}

/* ---- bad calls: the run stops with a report, the program exits 1 ------------------ */

enum { WRONG_SIZE_QUEUED, WRONG_SIZE_WAITING, BAD_RECV_PEER, BAD_SEND_PEER, BAD_TAG, NBAD };

static void bad_call_job(pw_rank *r, void *arg)
{
    int kind = *(int *)arg, me = pw_rank_id(r);
    char buf[16] = { 0 };
    switch (kind) {
    case WRONG_SIZE_QUEUED:          /* rank 1's 12 bytes wait at rank 0, which then asks for 8 */
        if (me == 0) { pw_recv(r, 2, buf, 4); pw_recv(r, 1, buf, 8); }
        if (me == 1) pw_send(r, 0, buf, 12);
        if (me == 2) pw_send(r, 0, buf, 4);
        break;
    case WRONG_SIZE_WAITING:         /* rank 0 waits for 8 when rank 1 sends 12: the sender finds it */
        if (me == 0) pw_recv(r, 1, buf, 8);
        if (me == 1) pw_send(r, 0, buf, 12);
        break;
    case BAD_RECV_PEER:
        if (me == 2) pw_recv(r, 9, buf, 4);
        break;
    case BAD_SEND_PEER:
        if (me == 3) pw_send(r, -1, buf, 4);
        break;
    case BAD_TAG:
        if (me == 1) pw_send_tag(r, 2, -5, buf, 4);
        break;
    }
}

static const char *const bad_says[NBAD] = {
    "wrong size: rank 0 receives 8 bytes from rank 1, but rank 1 sent 12 bytes",
    "wrong size: rank 0 receives 8 bytes from rank 1, but rank 1 sent 12 bytes",
    "bad peer: rank 2 receives from rank 9, but the ranks are 0..3",
    "bad peer: rank 3 sends to rank -1, but the ranks are 0..3",
    "bad tag: rank 1 sends to rank 2 with tag -5, but tags are 0 or more",
};

static void ring_job(pw_rank *r, void *arg)
{
    (void)arg;
    int p = pw_rank_size(r), me = pw_rank_id(r);
    float x = (float)me;
    pw_send(r, (me + 1) % p, &x, sizeof x);
    pw_recv(r, (me + p - 1) % p, &x, sizeof x);
    if (x != (float)((me + p - 1) % p)) abort();
}

static void test_bad_calls_stop_the_run(void)
{
    pw_cluster_config cfg = pw_cluster_defaults(4);
    pw_cluster *c = pw_cluster_create(&cfg);
    for (int kind = 0; kind < NBAD; kind++) {
        int rc = pw_cluster_run(c, bad_call_job, &kind);
        const char *rep = pw_cluster_report(c);
        EXPECT(rc == PW_CLUSTER_BAD_CALL && strstr(rep, bad_says[kind]) && strstr(rep, "the run stopped there")
               && count_lines(rep) == 1,
               "case %d: rc %d (want %d), one line '%s...', got:\n%s", kind, rc, PW_CLUSTER_BAD_CALL, bad_says[kind], rep);
        /* the same cluster runs a correct job afterwards */
        rc = pw_cluster_run(c, ring_job, NULL);
        EXPECT(rc == PW_CLUSTER_OK && pw_cluster_report(c)[0] == 0, "case %d: then a correct run works (rc %d)", kind, rc);
    }
    pw_cluster_destroy(c);
}

/* A program as the chapters write one: on a failed run, print the report
 * and exit 1. */
static void program_with_wrong_size(void *arg)
{
    int kind = *(int *)arg;
    pw_cluster_config cfg = pw_cluster_defaults(4);
    pw_cluster_check_or_exit("wrong_size", &cfg);
    pw_cluster *c = pw_cluster_create(&cfg);
    if (pw_cluster_run(c, bad_call_job, &kind) != PW_CLUSTER_OK) {
        fprintf(stderr, "%s", pw_cluster_report(c));
        pw_cluster_destroy(c);
        exit(1);
    }
    pw_cluster_destroy(c);
}

static void test_bad_call_program_exits_1(void)
{
    const int kinds[] = { WRONG_SIZE_QUEUED, WRONG_SIZE_WAITING, BAD_RECV_PEER };
    for (int k = 0; k < 3; k++) {
        char err[2048];
        int kind = kinds[k];
        int status = in_child(program_with_wrong_size, &kind, err, sizeof err);
        EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 1,
               "case %d: the program exits 1, not of a signal (status %#x: %s %d)", kind, status,
               WIFSIGNALED(status) ? "signal" : "exit", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        EXPECT(strstr(err, bad_says[kind]) && count_lines(err) == 1, "case %d: its one line on stderr, got:\n%s", kind, err);
    }
}

int main(void)
{
    RUN(test_big_frame_names_first_rank);
    RUN(test_deadlock_report_is_short);
    RUN(test_rank_limit_hint);
    RUN(test_bad_calls_stop_the_run);
    RUN(test_bad_call_program_exits_1);
    return UNIT_RESULT();
}
