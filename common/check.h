/* common/check.h: is this result right? One checker for every program.
 *
 * An element passes when |got - ref| <= atol + rtol * |ref|. The caller
 * chooses atol and rtol and says why next to the call (summation order,
 * fp16 inputs, ...). NaN never passes, unless ref is NaN too.
 *
 * On failure the checker prints to stderr: how many elements differ, the
 * first bad index, and the first few (got, want) pairs, stopping after ten
 * lines so a wrong kernel does not flood the terminal. It returns 0 when
 * everything matches and 1 otherwise, which is the exit code to use.
 *
 *   if (pw_check_floats("square_loop", y, ref, n, 0, 1e-6)) return PW_EXIT_WRONG;
 */
#ifndef PW_CHECK_H
#define PW_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#define PW_CHECK_MAX_REPORT 10   /* lines of mismatches printed, at most */

/* True when got is within atol + rtol*|ref| of ref. */
bool pw_close(double got, double ref, double atol, double rtol);

int pw_check_floats(const char *what, const float *got, const float *ref, size_t n,
                    double atol, double rtol);
int pw_check_doubles(const char *what, const double *got, const double *ref, size_t n,
                     double atol, double rtol);
int pw_check_scalar(const char *what, double got, double ref, double atol, double rtol);

/* Where check reports go; stderr unless a test redirects it. */
void pw_check_set_stream(void *file);

#endif
