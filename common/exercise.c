/* common/exercise.c: the start, the failure line and the verdict of the
 * exercise checkers (see exercise.h). */
#define _POSIX_C_SOURCE 200809L
#include "exercise.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* The checker's own deadline. tools/grade.sh stops a checker after
 * PW_GRADE_TIMEOUT seconds (20 unless set) and can then only say "timed
 * out"; the checker stops itself at four fifths of that (16 s), so that the
 * learner reads why: code that loops forever or waits for a wake-up that
 * never comes. The slowest solution, 6.2's, takes 5.8 s on an idle 2-core
 * machine and 8.5 s on a busy one, half the 16 s. */
static char deadline_msg[256];

static void deadline_hit(int sig)
{
    (void)sig;
    /* Only async-signal-safe calls here: write and _exit. */
    ssize_t w = write(STDOUT_FILENO, deadline_msg, strlen(deadline_msg));
    (void)w;
    _exit(PW_EXIT_WRONG);
}

static void deadline_start(void)
{
    const char *env = getenv("PW_GRADE_TIMEOUT");
    long grader = 20;
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v > 0) grader = v;
    }
    unsigned mine = (unsigned)(grader * 4 / 5 > 0 ? grader * 4 / 5 : 1);
    snprintf(deadline_msg, sizeof deadline_msg,
             "\nFAIL: still running after %u s (the checker's own limit; the grader stops it at %ld s): "
             "something loops forever, or waits for a wake-up that never comes\n", mine, grader);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = deadline_hit;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm(mine);
}

void pw_ex_begin(int argc, char **argv)
{
    const char *id = pw_ex_this.id ? pw_ex_this.id : "?";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: %s   (no arguments)\n"
                   "the checker of exercise %s: it grades %s and ends with PASS or FAIL;\n"
                   "exit 0 pass, 1 wrong, 2 usage. `make ex-%s` builds and runs it.\n",
                   argv[0], id, pw_ex_this.file ? pw_ex_this.file : "the learner's file", id);
            exit(PW_EXIT_PASS);
        }
        fprintf(stderr, "%s: unexpected argument '%s': a checker takes none (make ex-%s runs it; --help says more)\n",
                argv[0], argv[i], id);
        exit(PW_EXIT_USAGE);
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    deadline_start();
    /* LLVM's libomp loads an OpenMP tool named here when it starts, which
     * is at the first OpenMP call, after this. */
    if (pw_ex_this.omp_tool && !getenv("OMP_TOOL_LIBRARIES")) setenv("OMP_TOOL_LIBRARIES", pw_ex_this.omp_tool, 1);
    if (pw_ex_this.notes && *pw_ex_this.notes) printf("%s\n", pw_ex_this.notes);
    if (pw_ex_this.violation && pw_ex_this.violation_first) {
        printf("FAIL: %s\n", pw_ex_this.violation);
        if (pw_ex_this.hint) printf("%s\n", pw_ex_this.hint);
        exit(PW_EXIT_WRONG);
    }
}

void pw_ex_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("wrong\nFAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

int pw_ex_pass(const char *fmt, ...)
{
    if (pw_ex_this.violation) {
        printf("every result was right, but:\nFAIL: %s\n", pw_ex_this.violation);
        if (pw_ex_this.hint) printf("%s\n", pw_ex_this.hint);
        return PW_EXIT_WRONG;
    }
    va_list ap;
    va_start(ap, fmt);
    printf("PASS: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    return PW_EXIT_PASS;
}
