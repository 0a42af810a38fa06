/* tests/wrong/12.1-calls-library.c: exercise 12.1 answered by the library's
 * own 1F1B order. Everything it runs is right.
 * expect: FAIL: 12.1-calls-library.c calls pipe_order_1f1b\(\) */
#include "one_f_one_b.h"

int one_f_one_b(int rank, int p, int m, pipe_step *out)
{
    return pipe_order_1f1b(rank, p, m, 1, out);
}
