/* common/exercise.c: the failure line of the exercise checkers. */
#include "exercise.h"

#include <stdarg.h>

void pw_ex_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("wrong\nFAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}
