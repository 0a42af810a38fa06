/* tests/test_util.c: aligned buffers, seeded data, sizes in words, and the
 * check macros' reports. */
#define _POSIX_C_SOURCE 200809L
#include "errcheck.h"
#include "unit.h"
#include "util.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_alloc_aligned(void)
{
    for (size_t n = 0; n < 100; n += 7) {
        float *p = pw_alloc_floats(n);
        EXPECT(((uintptr_t)p % PW_ALIGN) == 0, "n=%zu: 64-byte aligned", n);
        pw_free(p);
    }
    EXPECT(pw_ceil_div(10, 4) == 3 && pw_ceil_div(8, 4) == 2 && pw_ceil_div(0, 4) == 0, "ceil_div");
}

static void test_fill_random(void)
{
    float a[1000], b[1000];
    pw_fill_random(a, 1000, 99, -1, 1);
    pw_fill_random(b, 1000, 99, -1, 1);
    EXPECT(!memcmp(a, b, sizeof a), "same seed, same data");
    pw_fill_random(b, 1000, 100, -1, 1);
    EXPECT(memcmp(a, b, sizeof a) != 0, "another seed, other data");
    int in_range = 1;
    double mean = 0;
    for (int i = 0; i < 1000; i++) { in_range &= a[i] >= -1 && a[i] < 1; mean += a[i] / 1000; }
    EXPECT(in_range, "values in [lo, hi)");
    EXPECT(mean > -0.1 && mean < 0.1, "roughly centred, mean %g", mean);
}

static void test_fmt_bytes(void)
{
    char b[32];
    EXPECT(!strcmp(pw_fmt_bytes(512, b, sizeof b), "512 B"), "512 B, got %s", b);
    EXPECT(!strcmp(pw_fmt_bytes(32768, b, sizeof b), "32 KiB"), "32 KiB, got %s", b);
    EXPECT(!strcmp(pw_fmt_bytes(1.5 * 1048576, b, sizeof b), "1.5 MiB"), "1.5 MiB, got %s", b);
}

/* A winner is named as a tie when the runner-up is within the share: 4%
 * off is a tie at 5%, 6% off is not; the winner itself is never its own tie;
 * the share is relative to the larger, so higher-is-better rates work too. */
static void test_ties(void)
{
    int out[8];
    const double times[] = { 1.00, 1.04, 1.06, 2.0 };
    int n = pw_ties(times, 4, 0, PW_TIE_SHARE, out);
    EXPECT(n == 1 && out[0] == 1, "1.04 ties with 1.00 at 5%%, 1.06 and 2.0 do not (got %d)", n);
    const double rates[] = { 95, 100, 94 };
    n = pw_ties(rates, 3, 1, PW_TIE_SHARE, out);
    EXPECT(n == 1 && out[0] == 0, "95 ties with 100, 94 does not (got %d)", n);
    EXPECT(pw_ties(times, 1, 0, PW_TIE_SHARE, out) == 0, "one entry: no tie");
    const double same[] = { 3, 3, 3 };
    EXPECT(pw_ties(same, 3, 2, 0, out) == 2 && out[0] == 0 && out[1] == 1, "equal values tie even at share 0");
}

/* Run fn in a child with stderr captured; returns its exit status. */
static int child_report(void (*fn)(void), char *out, size_t len)
{
    int fd[2];
    if (pipe(fd)) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        fn();
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got < len - 1 && (r = read(fd[0], out + got, len - 1 - got)) > 0) got += (size_t)r;
    out[got] = '\0';
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void failing_alloc(void)
{
    void *buffer = NULL;
    PW_CHECK_ALLOC(buffer, 1 << 20);
}

static void failing_unlock(void)
{
    pthread_mutex_t m;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &a);
    PW_CHECK_PTHREAD(pthread_mutex_unlock(&m));   /* not locked: EPERM */
}

static void test_check_macros(void)
{
    char out[1024];
    int rc = child_report(failing_alloc, out, sizeof out);
    EXPECT(rc == 1, "a failed allocation exits 1, got %d", rc);
    EXPECT(strstr(out, "test_util.c:") && strstr(out, "1 MiB") && strstr(out, "'buffer'") && strstr(out, "hint"),
           "the report has file, size, expression and a hint: %s", out);
    rc = child_report(failing_unlock, out, sizeof out);
    EXPECT(rc == 1, "a failed pthread call exits 1, got %d", rc);
    EXPECT(strstr(out, "pthread_mutex_unlock(&m)") && strstr(out, "test_util.c:") && strstr(out, "hint:"),
           "the report has the call's text, file and a hint: %s", out);
}

int main(void)
{
    RUN(test_alloc_aligned);
    RUN(test_fill_random);
    RUN(test_fmt_bytes);
    RUN(test_ties);
    RUN(test_check_macros);
    return UNIT_RESULT();
}
