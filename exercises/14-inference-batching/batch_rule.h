/* exercises/14-inference-batching/batch_rule.h: what exercise 14.1 asks you
 * to write. Your exercises/14-inference-batching/batch_rule.c implements it;
 * the checker and the solution include this same header. */
#ifndef PW_EX_BATCH_RULE_H
#define PW_EX_BATCH_RULE_H

#include "server.h"

/* The batcher's decision (kernels/server.h, srv_decide_fn). The server calls
 * it whenever a worker is free and at least one request waits, and again on
 * every arrival and at the time you ask for:
 *   v->now       the time now, s
 *   v->queued    requests waiting (>= 1), oldest first
 *   v->oldest    the oldest one's arrival time, s
 *   v->max_batch the largest batch a worker takes
 *   v->budget    each request should be answered within this many s of arriving
 *   v->service   s, the measured time of a forward pass of a full batch
 * Return how many to send now (1..min(queued, max_batch)), or 0 to wait and
 * set *wake to the absolute time (s) you want to be asked again. */
int batch_rule(const srv_batch_view *v, double *wake);

#endif
