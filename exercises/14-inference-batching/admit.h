/* exercises/14-inference-batching/admit.h: what exercise 14.2 asks you to
 * write. Your exercises/14-inference-batching/admit.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_ADMIT_H
#define PW_EX_ADMIT_H

/* Continuous batching's admit step (kernels/server.h, srv_admit_fn), run by
 * the decode engine before every iteration. slot[0..max_batch) holds the
 * request decoded in each slot, or -1 where the slot is free (the engine
 * frees a slot the moment its request has its last token). waiting[0..
 * nwaiting) is the queue, oldest first. Put waiting requests into free
 * slots, oldest first; return how many you took (they must be
 * waiting[0..taken)). Never touch a busy slot. */
int admit_continuous(int *slot, int max_batch, const int *waiting, int nwaiting);

#endif
