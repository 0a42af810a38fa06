/* exercises/03-threads/histogram.h: what exercise 3.1 asks you to fix.
 *
 * Your exercises/03-threads/histogram.c implements the function; the checker
 * (check_histogram.c) and the solution include this same header. */
#ifndef PW_EX_HISTOGRAM_H
#define PW_EX_HISTOGRAM_H

#include <stddef.h>

#define HIST_BINS 256   /* one bin per byte value */

/* bins[b] = how many of data[0 .. n-1] equal b, for every b < HIST_BINS,
 * counted by `threads` threads (1 or more; more threads than elements is
 * allowed), each taking one block of the data. bins is overwritten, not
 * added to. n may be 0. */
void histogram_threads(const unsigned char *data, size_t n, int threads,
                       unsigned long long bins[HIST_BINS]);

#endif
