/* kernels/collectives_mpi.h: MPI as a pw_comm transport, so the rank
 * functions written for the virtual cluster (the collectives, chapter 10's
 * data-parallel training, chapter 11's tensor-parallel block) run across
 * real processes unchanged. Built only with mpicc (mk/mpi.mk).
 *
 *   MPI_Init(&argc, &argv);
 *   pw_comm world = coll_comm_mpi(bytes_in_flight);   // after MPI_Init
 *   ... the same code as on the cluster: coll_comm_split, coll_allreduce_ring ...
 *   coll_comm_mpi_end(&world);                        // before MPI_Finalize
 *
 * send is MPI_Bsend (buffered): it never waits for the receiver, as the
 * cluster's eager sends never do. With a plain MPI_Send a ring where every
 * rank sends first could deadlock once messages outgrow MPI's eager
 * protocol. The buffer must hold every message a process has sent and its
 * receiver has not yet taken: bytes_in_flight says how much that can be (a
 * ring all-reduce of n bytes: n/p plus a chunk; the naive root: (p-1) n).
 * MPI_Buffer_attach takes at most INT_MAX bytes; more is refused in one line
 * (exit 2 on every process).
 *
 * Tags: the group's context x 1024 + tag, as on the cluster; Open MPI's
 * MPI_TAG_UB is 2^31 - 1, MPI's minimum 32767 (31 group contexts), and the
 * adapter refuses a context beyond what this MPI allows, naming it.
 * compute does nothing (the work took real time), now is MPI_Wtime. */
#ifndef PW_COLLECTIVES_MPI_H
#define PW_COLLECTIVES_MPI_H

#include "collectives.h"

pw_comm coll_comm_mpi(size_t bytes_in_flight);
void coll_comm_mpi_end(pw_comm *world);

/* A message or buffer over what an MPI count (int) can say: "prog: what"
 * and MPI_Abort(2). */
void coll_mpi_count_fits(size_t bytes, const char *what);

/* The value of the MPI library's control variable `name` (MPI_T, MPI-3's
 * tool interface; Open MPI names its MCA parameters so:
 * "btl_vader_eager_limit", "btl_vader_single_copy_mechanism") as text in
 * out[len]: 0, or -1 when this MPI has no such variable (another MPI, a
 * component not loaded, a string variable: see the .c). An enumerated value
 * is given by its name. */
int coll_mpi_cvar(const char *name, char *out, size_t len);

#endif
