/* tests/wrong/11.2-full-buffer.c: exercise 11.2 with every ring step
 * sending the whole buffer instead of a chunk of 1/t of it.
 * expect: FAIL: t = 2: tp_sent_bytes says
 * hint: t = 2 times the trace.s bytes */
#include "tp_comm.h"

double tp_sent_bytes(const tp_link *k)
{
    return 8.0 * (k->t - 1) * 4.0 * k->n * k->h;
}

double tp_comm_seconds(const tp_link *k)
{
    return 8.0 * (k->t - 1) * (k->alpha + 4.0 * k->n * k->h / (k->gbs * 1e9));
}
