/* exercises/03-threads/tally.h: what exercise 3.2 asks you to change.
 *
 * Your exercises/03-threads/tally.c defines `struct slot` and the slot
 * functions; count_above_threads() there is given. The checker
 * (check_tally.c) and the solution include this same header. */
#ifndef PW_EX_TALLY_H
#define PW_EX_TALLY_H

#include <stddef.h>

typedef struct slot slot;   /* one thread's counter; defined in tally.c */

/* An array of `threads` slots (1 or more), every counter 0. */
slot *slots_new(int threads);
void slots_free(slot *s);

/* Thread t's counter in the array s. */
volatile long long *slot_counter(slot *s, int t);

/* How many x[i] > threshold, counted by `threads` threads, thread t
 * counting its block into its own slot (given: you need not change it). */
long long count_above_threads(const float *x, size_t n, float threshold, int threads);

#endif
