/* tests/wrong/13.1-calls-library.c: exercise 13.1 answered by the
 * planner's own memory function. Everything it computes is right.
 * expect: FAIL: 13.1-calls-library.c calls p3_memory_of\(\) */
#include "memory.h"

double memory_per_device(const p3_model *md, const p3_config *cf)
{
    p3_memory m;
    p3_memory_of(md, cf, &m);
    return m.total;
}

int smallest_pipeline(const p3_model *md, const p3_cluster *cl, int t, int b, bool zero1, bool recompute)
{
    return p3_smallest_p(md, cl, t, b, zero1, recompute);
}
