/* common/exercise.c: the start, the failure line and the verdict of the
 * exercise checkers (see exercise.h). */
#define _POSIX_C_SOURCE 200809L
#include "exercise.h"

#include <stdarg.h>
#include <string.h>

#include "util.h"

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
