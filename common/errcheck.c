/* common/errcheck.c: the failure reports behind the check macros. */
#include "errcheck.h"
#include "base.h"       /* PW_EXIT_WRONG, pw_fmt_bytes: below us, as util.c (which uses our checks) is above */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pw_fail_alloc(const char *expr, size_t bytes, const char *file, int line)
{
    char b[32];
    fprintf(stderr, "%s:%d: allocation of %s for '%s' failed: %s; "
            "hint: try a smaller size (-n), or close what else uses memory\n",
            file, line, pw_fmt_bytes((double)bytes, b, sizeof b), expr, strerror(ENOMEM));
    exit(PW_EXIT_WRONG);
}

static const char *pthread_hint(int rc)
{
    switch (rc) {
    case EAGAIN:  return "the system is out of threads or memory for stacks: ask for fewer threads (-t)";
    case EINVAL:  return "an argument is invalid: an uninitialised mutex, attribute or thread id?";
    case EDEADLK: return "this thread would wait on itself: a lock taken twice, or joining yourself";
    case EPERM:   return "not permitted: unlocking a mutex another thread holds?";
    case EBUSY:   return "still in use: destroying a locked mutex or a barrier others wait on?";
    default:      return "see the man page of the call";
    }
}

void pw_fail_pthread(const char *call, int rc, const char *file, int line)
{
    fprintf(stderr, "%s:%d: %s failed: %s; hint: %s\n",
            file, line, call, strerror(rc), pthread_hint(rc));
    exit(PW_EXIT_WRONG);
}
