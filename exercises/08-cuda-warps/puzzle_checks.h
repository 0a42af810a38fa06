/* exercises/08-cuda-warps/puzzle_checks.h: what the checkers of the
 * shared-memory puzzles (8.12 pool to 8.17 matmul) share beyond puzzle.h.
 *
 *   pz_run_failed         the launch stopped with an error, or the emulator's
 *                         checks (racecheck, initcheck, memcheck) reported
 *                         something: the FAIL line and what it usually means
 *   pz_launch_failed      the given launch was changed (blocks, threads)
 *   pz_most_shared_reads  the shared-memory reads of the thread that makes
 *                         most: a tree over B threads makes about 2 log2(B),
 *                         one thread adding B elements one at a time makes B
 *   pz_log_complete       the access log kept every access (else the counts
 *                         of puzzle.h are short and a budget cannot be judged)
 *
 * Header-only, included after puzzle.h by each checker.
 */
#ifndef PW_EX_PUZZLE_CHECKS_H
#define PW_EX_PUZZLE_CHECKS_H

#include "puzzle.h"
#include "report_hint.h"

/* After pz_end: 1 with the FAIL line if the kernel stopped with an error or
 * a check reported a problem since `reports_before`; the picture too when
 * `draw` (a tiny launch). A race can leave every value right: the emulator
 * ran the threads in a lucky order, a GPU may not. */
static inline int pz_run_failed(const pz_picture *p, cudaError_t err, long reports_before, int draw)
{
    if (err != cudaSuccess) {
        const char *m = pw_simt_last_error_message();
        printf("wrong\nFAIL: the kernel stopped with an error: %s\n", m);
        if (strstr(m, "shared memory"))
            printf("  an index outside the shared memory the launch gives (its third argument): check the\n"
                   "  smallest and the largest index each thread uses, at the edges of the array too\n");
        else if (strstr(m, "memcheck"))
            printf("  an index outside every array: an element before 0 (s[-1] is not shared memory the block\n"
                   "  owns, nor is a[-1] device memory), or at or past the end (a partial last block, a halo\n"
                   "  that runs off the array): guard it, and use 0 for what is missing\n");
        else if (strstr(m, "__syncwarp"))
            printf("  these puzzles share data across the whole block: __syncthreads() is the barrier that every\n"
                   "  thread of the block meets; __syncwarp() orders the lanes of one warp only (and its mask\n"
                   "  may name only lanes that exist)\n");
        else if (strstr(m, "synccheck") || strstr(m, "barrier"))
            printf("  every thread of the block must reach every __syncthreads(): no barrier inside an if that\n"
                   "  some threads skip, and no return before the last barrier (a thread past n still takes part)\n");
        if (draw) pz_print(p);
        return 1;
    }
    if (pw_simt_report_count() > reports_before) {
        printf("wrong\nFAIL: the emulator's checks found a problem (the values may look right by luck): %s\n",
               pw_simt_last_report());
        if (strstr(pw_simt_last_report(), "racecheck"))
            printf("  one thread reads shared memory that another writes, and nothing orders the two: put a\n"
                   "  __syncthreads() between the stores and the loads of other threads' elements (and between\n"
                   "  the loads and the next stores). __syncwarp() orders one warp only; a block of more than\n"
                   "  32 threads has several\n");
        else pw_ex_explain_report(pw_simt_last_report());
        return 1;
    }
    return 0;
}

/* The launch the puzzle gives (its skeleton writes it): 1 with the FAIL
 * line if the last launch ran another count of blocks or of threads per
 * block. `given` says what it is in words ("1 block of n = 8 threads"). */
static inline int pz_launch_failed(long long blocks, long long threads_per_block, const char *given)
{
    const pw_simt_counters *c = pw_simt_last_counters();
    if (c->launches == 1 && c->blocks == blocks && c->threads_per_block == threads_per_block) return 0;
    if (c->launches != 1)
        printf("wrong\nFAIL: %lld kernel launches; the puzzle is one launch of %s: put the given launch back\n",
               c->launches, given);
    else
        printf("wrong\nFAIL: the launch ran %lld block%s of %lld threads; the puzzle's launch is %s: put the given "
               "launch back\n", c->blocks, c->blocks == 1 ? "" : "s", c->threads_per_block, given);
    return 1;
}

/* Did the log keep every access of the launch? The budgets of puzzle.h are
 * counted from it; past PZ_LOG_CAP accesses they would be short. */
static inline int pz_log_complete(const pz_picture *p) { return p->logged <= PZ_LOG_CAP; }

/* The shared-memory reads (atomics count as reads) of the thread that makes
 * most of them in the logged launch, over every thread (not only the
 * PZ_MAX_THREADS the picture draws); *thread is its row (block x threads
 * per block + thread). Call after pz_end, before the next launch. */
static inline long pz_most_shared_reads(const pz_picture *p, long *thread)
{
    const pw_simt_counters *c = pw_simt_last_counters();
    long tpb = c->threads_per_block > 0 ? (long)c->threads_per_block : 1;
    long rows = c->threads > 0 ? (long)c->threads : 1;
    long *count = (long *)calloc((size_t)rows, sizeof *count);
    long kept = p->logged < PZ_LOG_CAP ? p->logged : PZ_LOG_CAP, best = 0;
    *thread = 0;
    if (!count) return 0;
    for (long i = 0; i < kept; i++) {
        const pw_simt_access *a = &pz_log[i];
        long row = (long)a->block * tpb + a->thread;
        if (!a->shared || a->store || row >= rows) continue;
        if (++count[row] > best) best = count[row], *thread = row;
    }
    free(count);
    return best;
}

#endif
