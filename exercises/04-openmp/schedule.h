/* exercises/04-openmp/schedule.h: what exercise 4.2 asks you to write.
 *
 * A loop over SCHED_ITEMS items whose costs differ in two ways at once:
 *   - even items cost 9 units, odd ones 1 (a pattern with period 2);
 *   - the first tenth of the items cost 30 units more (a heavy block at
 *     the start).
 * One unit is SCHED_UNIT_ROUNDS rounds of integer mixing, about 20 ns. */
#ifndef PW_EX_SCHEDULE_H
#define PW_EX_SCHEDULE_H

#include <stdint.h>

#define SCHED_ITEMS 20011          /* odd on purpose: no thread count divides it */
#define SCHED_UNIT_ROUNDS 16

/* The cost of item i of n, in units. */
static inline int sched_item_cost(int i, int n)
{
    return 1 + (i % 2 == 0 ? 8 : 0) + (i < n / 10 ? 30 : 0);
}

/* The work of item i: cost(i) units of mixing; its result is the item's output. */
static inline uint64_t sched_item_work(int i, int n)
{
    uint64_t v = (uint64_t)i * 0x9e3779b97f4a7c15ull + 1;
    int rounds = sched_item_cost(i, n) * SCHED_UNIT_ROUNDS;
    for (int r = 0; r < rounds; r++) {
        v *= 0xbf58476d1ce4e5b9ull;
        v ^= v >> 31;
    }
    return v;
}

/* out[i] = sched_item_work(i, n) for i = 0 .. n-1, in one `#pragma omp
 * parallel for` with the schedule you chose. */
void process_items(int n, uint64_t *out);

/* The path of your source file (__FILE__): the checker reads the schedule
 * clause from your pragma there. Already written in the skeleton. */
const char *schedule_source(void);

#endif
