/* common/gpu_published.h: published, measured ladders of GPU kernels
 * (the CSV files of common/gpus/published/, each citing its sources) and the
 * three targets the GPU model is held to against one: every rung within 25%
 * of the measurement, the rungs in the same order, and each step's speedup
 * within 25% of the measured step. Chapters 08 (reduction) and 09 (GEMM)
 * print their model beside them. */
#ifndef PW_GPU_PUBLISHED_H
#define PW_GPU_PUBLISHED_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char device[64];              /* a device file's stem: "rtx-a6000" */
    char ladder[32];              /* whose ladder: "sgemm_cuda" */
    char rung[32];                /* the workbook's rung that runs their kernel: "7_warptile" */
    char theirs[64];              /* their kernel's name */
    long long n;                  /* the size they measured at */
    double value;                 /* their figure (GFLOP/s, GB/s: the file's header says) */
    int block, grid;              /* their launch, where the file gives it (else 0) */
} pw_published_row;

/* Reads `file` of the devices folder's published/ ("gemm-ladders.csv"):
 * lines `device,ladder,rung,their_kernel,n,value[,block,grid]`, '#' lines
 * and the header skipped, malformed lines too. The rows read (at most cap),
 * or -1 when the file cannot be read; path gets its path either way. */
int pw_published_read(const char *file, pw_published_row *rows, int cap, char *path, size_t path_len);

/* Row k starts a (device, ladder) group: no row before it has both. */
int pw_published_group_start(const pw_published_row *rows, int k);
/* Row k is in the group row `first` starts. */
int pw_published_same_group(const pw_published_row *rows, int first, int k);

/* Whether modelled is within 25% of published (the target's band). */
int pw_published_within(double modelled, double published);

/* The targets for m rungs in ladder order (labels[i], the measured and the
 * modelled figures): a table of each step's measured and modelled speedup
 * and their ratio, then three lines starting "benchmark:" (rungs within
 * 25% of the published `unit`, with `extra` after the count; the rank
 * order; the steps within 25%). */
void pw_published_targets(const char *const *labels, const double *published, const double *modelled, int m,
                          const char *unit, const char *extra);

#ifdef __cplusplus
}
#endif

#endif
