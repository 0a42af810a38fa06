/* exercises/09-tensor-cores/report_hint.h: what the checkers of 9.1-9.3 say
 * about a report of the emulator's checks (racecheck, initcheck, memcheck)
 * that did not stop the kernel, and about an error that did: the product
 * can be right and the kernel still wrong, because the emulator happened
 * to run the threads in a lucky order. */
#ifndef PW_EX09_REPORT_HINT_H
#define PW_EX09_REPORT_HINT_H

#include <stdio.h>
#include <string.h>

static inline void pw_ex_explain_report(const char *report)
{
    if (strstr(report, "racecheck") && strstr(report, "same warp"))
        printf("  two lanes of one warp touch the same shared memory with nothing in between: put __syncwarp()\n"
               "  between the lanes' stores and the fragment loads that read them (and before the next overwrite)\n");
    else if (strstr(report, "racecheck"))
        printf("  one thread reads (or writes) a shared tile another thread writes, with no __syncthreads()\n"
               "  between them: one barrier after filling the tiles, one before overwriting them\n");
    else if (strstr(report, "initcheck"))
        printf("  a read of memory nothing wrote (shared memory starts as garbage, NaN): every element of a\n"
               "  tile must be stored before it is read, the ones past the matrix's edge as 0\n");
}

/* An error that stopped the kernel (the emulator's message), explained;
 * oob: what this exercise says about an access past the end of a matrix. */
static inline void pw_ex_explain_error(const char *msg, const char *oob)
{
    if (strstr(msg, "synccheck"))
        printf("  every thread of the block must reach every __syncthreads(): a thread outside C still loads\n"
               "  its share of the tiles (0 past the edge) and skips only the final store\n");
    else if (strstr(msg, "ldm ") && strstr(msg, "is not a multiple"))
        printf("  load_matrix_sync and store_matrix_sync need ldm a multiple of 8 halves (4 floats): a matrix\n"
               "  with rows of odd length cannot be a fragment's source or target; go through shared memory\n");
    else if (strstr(msg, "is not 32-byte aligned"))
        printf("  a fragment's pointer must be 32-byte aligned: a tile that starts at an odd column of a global\n"
               "  row is not; stage it through a __shared__ __align__(32) array\n");
    else if (strstr(msg, "out of bounds"))
        printf("  %s\n", oob);
}

#endif
