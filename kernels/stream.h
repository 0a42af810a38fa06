/* kernels/stream.h: McCalpin's four STREAM kernels, counted as STREAM counts.
 *
 *   copy   c[i] = a[i]             2 words: read a, write c        0 flops
 *   scale  b[i] = q*c[i]           2 words: read c, write b        1 flop
 *   add    c[i] = a[i] + b[i]      3 words: read a, b, write c     1 flop
 *   triad  a[i] = b[i] + q*c[i]    3 words: read b, c, write a     2 flops
 *
 * In double, as STREAM is by default, so that a rate here and STREAM's are
 * the same bytes over the same time: 16 bytes per element for copy and
 * scale, 24 for add and triad. Like STREAM we do not count the
 * write-allocate read: storing c[i] first reads its cache line from DRAM
 * (unless the CPU streams the store past the cache), so the bus really
 * carries 24 bytes per copied element, not 16. STREAM's numbers, and ours,
 * are what a program gets to use, not what the memory moved.
 *
 * The loops are split over the OpenMP team with schedule(static), as
 * STREAM's are: thread k takes the k-th contiguous slice, in the init (first
 * touch: on a NUMA machine the pages then live next to the core that uses
 * them) and in every kernel. Without OpenMP they run on one thread.
 *
 * copy is memcpy of each thread's slice, because that is what gcc makes of
 * STREAM's copy loop (objdump of STREAM built with -O3 -march=native
 * -fopenmp: its copy is a tail call to memcpy; scale, add and triad are
 * vector loops). copy_loop is the plain loop, vectorised, beside it: c = a
 * again, so it can run right after copy without changing any value. On this
 * Zen 5 VM glibc's memcpy of a 640 MiB slice ran at 31-32 GB/s, the loop at
 * 36-37: a copy's rate depends on who wrote the copy.
 *
 * The four run in this order, round after round, as in STREAM, and the
 * arrays follow a recurrence every element shares; stream_expected() runs
 * it on three scalars, so a check needs no second copy of the arrays.
 */
#ifndef PW_STREAM_H
#define PW_STREAM_H

enum { STREAM_COPY, STREAM_SCALE, STREAM_ADD, STREAM_TRIAD, STREAM_KERNELS,
       STREAM_COPY_LOOP = STREAM_KERNELS, STREAM_ALL };   /* copy_loop: not STREAM's, see below */

#define STREAM_SCALAR 3.0   /* STREAM's q */

extern const char *const stream_names[STREAM_ALL];   /* "copy", "scale", "add", "triad", "copy_loop" */
extern const int stream_words[STREAM_ALL];           /* doubles read and written per element */
extern const int stream_flops[STREAM_ALL];           /* flops per element */

/* Bytes per call over n elements, as STREAM counts them. */
double stream_bytes(int kernel, long n);

/* a = 1, b = 2, c = 0, then a = 2a (STREAM's start), on the OpenMP team. */
void stream_init(double *a, double *b, double *c, long n);

/* One kernel over n elements on the OpenMP team (the current team size). */
void stream_kernel(int kernel, double *a, double *b, double *c, double q, long n);

/* The values every element of a, b, c holds after stream_init and `rounds`
 * rounds of copy, scale, add, triad (in that order) with scalar q. */
void stream_expected(int rounds, double q, double *a, double *b, double *c);

/* STREAM's tolerance for double: 1e-13 relative. The values are the same
 * operations on the same numbers in every element, so a right kernel is
 * exact; the tolerance only forgives a compiler that contracts q*c+b into
 * one FMA (one rounding fewer). */
#define STREAM_RTOL 1e-13

/* The first index i with |x[i] - want| > STREAM_RTOL * |want|, or -1. STREAM
 * checks the mean error of each array; we check every element, which also
 * catches one wrong element among millions. */
long stream_first_bad(const double *x, long n, double want);

#endif
