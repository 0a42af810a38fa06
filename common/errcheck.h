/* common/errcheck.h: check macros for calls that can fail.
 *
 * Each prints the failing call's own text, the file and line, what the
 * system said, and a hint at the likely cause, then exits. A program should
 * never carry on after an allocation or a thread call failed.
 *
 *   float *x = malloc(n * sizeof *x);  PW_CHECK_ALLOC(x, n * sizeof *x);
 *   PW_CHECK_PTHREAD(pthread_create(&t, NULL, work, arg));
 */
#ifndef PW_ERRCHECK_H
#define PW_ERRCHECK_H

#include <stddef.h>

void pw_fail_alloc(const char *expr, size_t bytes, const char *file, int line);
void pw_fail_pthread(const char *call, int rc, const char *file, int line);

#define PW_CHECK_ALLOC(ptr, bytes) \
    do { if (!(ptr)) pw_fail_alloc(#ptr, (size_t)(bytes), __FILE__, __LINE__); } while (0)

/* pthread calls return the error number instead of setting errno. */
#define PW_CHECK_PTHREAD(call) \
    do { int pw_rc_ = (call); \
         if (pw_rc_ != 0) pw_fail_pthread(#call, pw_rc_, __FILE__, __LINE__); } while (0)

#endif
