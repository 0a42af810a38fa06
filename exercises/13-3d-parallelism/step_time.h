/* exercises/13-3d-parallelism/step_time.h: what exercise 13.2 asks you to
 * write. Your exercises/13-3d-parallelism/step_time.c implements it; the
 * checker and the solution include this same header. */
#ifndef PW_EX_STEP_TIME_H
#define PW_EX_STEP_TIME_H

#include "parallel3d.h"

/* The modelled time of one training step (seconds) of configuration cf
 * (d, t, p, m, and the mapping cf->order) on cluster cl, for a stage that
 * does w per micro-batch (w->f_flops, w->b_flops at `rate` flop/s;
 * w->tp_f + w->tp_b ring all-reduces of w->tp_elems elements of
 * w->elem_bytes over its t tensor ranks; one message of w->pp_elems to its
 * pipeline neighbour; at the end one ring all-reduce of w->dp_elems over
 * the d replicas). GPipe's timeline, nothing overlapped:
 *   (m + p - 1)(t_F + t_B) + 2 sum_hops c + 2 (m - 1) c_slowest + T_dp
 * A group whose ranks sit on more than one node (rank / cl->per_node)
 * uses the network (inter_alpha, inter_gbs), else NVLink. You may call
 * coll_model_ring (a ring all-reduce's time), p3_rank_of and
 * p3_group_crosses. Not the library's p3_time_model, which is the answer. */
double step_time(const p3_work *w, const p3_cluster *cl, const p3_config *cf, double rate);

#endif
