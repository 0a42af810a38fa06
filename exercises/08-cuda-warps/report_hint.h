/* exercises/08-cuda-warps/report_hint.h: what the checkers of 8.1-8.3 say
 * about a report of the emulator's checks (racecheck, initcheck, memcheck)
 * that did not stop the kernel: the sums can be right and the kernel still
 * wrong, because the emulator happened to run the threads in a lucky order. */
#ifndef PW_EX_REPORT_HINT_H
#define PW_EX_REPORT_HINT_H

#include <stdio.h>
#include <string.h>

static inline void pw_ex_explain_report(const char *report)
{
    if (strstr(report, "racecheck") && strstr(report, "same warp"))
        printf("  two lanes of one warp touch the same shared memory with nothing in between: since Volta a\n"
               "  warp does not run in lock-step, so put __syncwarp() between the steps (or use shuffles)\n");
    else if (strstr(report, "racecheck"))
        printf("  one thread reads (or writes) shared memory another thread writes, with no __syncthreads()\n"
               "  between them: which value it sees depends on timing. Is a barrier missing?\n");
    else if (strstr(report, "initcheck"))
        printf("  a read of memory nothing wrote in this block (shared memory starts as garbage): store\n"
               "  before you load, and __syncthreads() between the store and another thread's load\n");
}

#endif
