/* common/exercise.h: what exercise skeletons and checkers share.
 *
 * A skeleton's unfinished function calls PW_NOT_YET_IMPLEMENTED(), which
 * says so in one line and exits 1: the checker reports "not yet
 * implemented" instead of crashing on an empty result. */
#ifndef PW_EXERCISE_H
#define PW_EXERCISE_H

#include <stdio.h>
#include <stdlib.h>

#define PW_NOT_YET_IMPLEMENTED() \
    do { fprintf(stderr, "not yet implemented: %s() in %s\n", __func__, __FILE__); exit(1); } while (0)

/* For checkers that print a progress line per case ("  n = 17     ") and
 * then "ok" or, through this, "wrong" and one line "FAIL: <why>", the line
 * tools/grade.sh quotes in its verdict. */
void pw_ex_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
