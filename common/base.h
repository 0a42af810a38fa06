/* common/base.h: the floor of common/, below everything else there (the
 * check macros of errcheck.h report with both): the exit codes every
 * program returns, and sizes written for people.
 *
 * Exit codes (the automake convention, so scripts and tests can tell what
 * happened from the status alone):
 *   0  PW_EXIT_PASS   every check passed
 *   1  PW_EXIT_WRONG  a result was wrong (a variant failed its check)
 *   2  PW_EXIT_USAGE  bad input: unknown flag, bad size, too big for memory
 *   77 PW_EXIT_SKIP   cannot run here (no GPU, no OpenMP, no MPI)
 * Programs get both through util.h.
 */
#ifndef PW_BASE_H
#define PW_BASE_H

#include <stddef.h>

enum { PW_EXIT_PASS = 0, PW_EXIT_WRONG = 1, PW_EXIT_USAGE = 2, PW_EXIT_SKIP = 77 };

/* Human-readable sizes: "32 KiB", "1.5 MiB". Writes into buf, returns buf. */
const char *pw_fmt_bytes(double bytes, char *buf, size_t len);

#endif
