/* solutions/12-pipeline-parallel/one_f_one_b.c: a solution of exercise 12.1.
 *
 * Added to the skeleton: the warm-up of p - rank - 1 forwards (at most m),
 * then forward and backward in turn, then the backwards left. Rank r's
 * first backward needs micro-batch 0 to cross the p - r - 1 ranks after it
 * and come back; the warm-up keeps it busy until then, and from then on
 * each backward frees the place the next forward takes: at most p - r
 * micro-batches stored. Graded by: make solution-12.1
 */
#include "one_f_one_b.h"

int one_f_one_b(int rank, int p, int m, pipe_step *out)
{
    int warm = p - rank - 1 < m ? p - rank - 1 : m;                                       /* added */
    int n = 0, f = 0, b = 0;                                                              /* added */
    while (f < warm) out[n++] = (pipe_step){ PIPE_F, f++, 0 };                            /* added */
    while (f < m) {                                                                       /* added */
        out[n++] = (pipe_step){ PIPE_F, f++, 0 };                                         /* added */
        out[n++] = (pipe_step){ PIPE_B, b++, 0 };                                         /* added */
    }                                                                                     /* added */
    while (b < m) out[n++] = (pipe_step){ PIPE_B, b++, 0 };                               /* added */
    return n;                                                                             /* added */
}
