/* tests/wrong/14.1-calls-library.c: exercise 14.1 answered by the server's
 * own budget rule.
 * expect: FAIL: 14.1-calls-library.c calls srv_decide_budget\(\) */
#include "batch_rule.h"

int batch_rule(const srv_batch_view *v, double *wake) { return srv_decide_budget(v, wake); }
