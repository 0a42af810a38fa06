/* tests/wrong/2.2-past-end.c: exercise 2.2 with the blocks of 16 run while
 * i < n: the last block reads up to 15 floats past the end of x, which are
 * not the caller's (here they happen to lie inside the checker's buffer).
 * expect: FAIL: sumsq\(n=1\) is NaN: it read past the end of x, x\[1\] or beyond
 * hint: i \+ 16 <= n */
#include "sumsq.h"

float sumsq(const float *x, size_t n)
{
    float acc[16] = { 0 };
    for (size_t i = 0; i < n; i += 16)                 /* the bug: i < n, not i + 16 <= n */
        for (int k = 0; k < 16; k++) acc[k] += x[i + k] * x[i + k];
    float s = 0.0f;
    for (int k = 0; k < 16; k++) s += acc[k];
    return s;
}
