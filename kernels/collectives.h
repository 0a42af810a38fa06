/* kernels/collectives.h: broadcast, reduce, all-reduce (naive, tree, ring),
 * reduce-scatter and all-gather, written once on point-to-point send/recv.
 *
 * The algorithms see only a pw_comm: who am I, how many are we, send, recv.
 * The virtual cluster (pw_comm_cluster) and MPI (the adapter in
 * chapters/10-data-parallel/mpi_allreduce.c) each provide one, so the same
 * code is checked on 1024 modelled ranks and run across real processes.
 *
 * All operate on floats, summing. Every rank ends with bitwise-identical
 * results: each sum is formed once, on one rank, and then copied, so
 * replicas never drift apart by rounding (a chunk added in a different order
 * on two ranks would differ in the last bits, and the difference would grow
 * step after step of training).
 *
 * Costs on p ranks, c(m) = alpha + m*beta for an m-byte message (cluster.h
 * explains the model; n is the buffer's size in bytes):
 *   broadcast (binomial tree)     log2(p) c(n)          p a power of two
 *   reduce (binomial tree)        log2(p) c(n)
 *   allreduce_naive               2(p-1) c(n)           reduce at root 0 one
 *                                                      message after another, then
 *                                                      send the sum to each rank
 *   allreduce_tree                2 log2(p) c(n)        reduce + broadcast
 *   reduce_scatter_ring           (p-1) c(n/p)          p-1 steps, each passing
 *                                                      one chunk to the right
 *   allgather_ring                (p-1) c(n/p)
 *   allreduce_ring                2(p-1) c(n/p)         reduce-scatter + all-gather:
 *                                                      every rank sends 2(p-1)/p n
 *                                                      bytes, whatever p: the
 *                                                      bandwidth-optimal all-reduce
 * Bytes each rank sends: naive root 2(p-1)n (the bottleneck), tree up to
 * 2 log2(p) n, ring 2(p-1)/p n. Additions: (p-1) n/4 flops in all, spread
 * evenly over the ranks by the ring, piled on the root by the others.
 *
 * Chunks of the ring: element i of n belongs to chunk k when
 * chunk_begin(k) <= i < chunk_begin(k+1), chunk_begin(k) = k*n/p rounded
 * down, so chunk sizes differ by at most one when p does not divide n.
 * After reduce_scatter_ring, rank r holds the full sum of chunk (r+1) mod p.
 *
 * A NULL buffer is a phantom (cluster.h): the same messages, no data, no
 * additions; for modelling time at sizes that would not fit in memory.
 */
#ifndef PW_COLLECTIVES_H
#define PW_COLLECTIVES_H

#include <stddef.h>

typedef struct pw_comm pw_comm;
struct pw_comm {
    int rank, size;
    void *ctx;                                                    /* the transport's */
    void (*send)(pw_comm *c, int dst, const void *buf, size_t bytes);
    void (*recv)(pw_comm *c, int src, void *buf, size_t bytes);
};

/* First element of chunk k of n elements split p ways (k = 0..p). */
size_t coll_chunk_begin(size_t n, int p, int k);

/* The rank whose chunk reduce_scatter_ring leaves complete on rank r. */
int coll_rs_owned_chunk(int r, int p);

void coll_broadcast(pw_comm *c, float *buf, size_t n, int root);
/* The sum over ranks lands in root's buf; other ranks' buf become scratch. */
void coll_reduce(pw_comm *c, float *buf, size_t n, int root);

void coll_allreduce_naive(pw_comm *c, float *buf, size_t n);
void coll_allreduce_tree(pw_comm *c, float *buf, size_t n);
void coll_allreduce_ring(pw_comm *c, float *buf, size_t n);

/* In place on the whole buffer: afterwards chunk coll_rs_owned_chunk(rank)
 * holds the sum; the other chunks are partial sums (scratch). */
void coll_reduce_scatter_ring(pw_comm *c, float *buf, size_t n);
/* Rank r contributes chunk coll_rs_owned_chunk(r); afterwards every rank holds
 * every chunk. */
void coll_allgather_ring(pw_comm *c, float *buf, size_t n);

/* The algorithms by name, for tables and sweeps. */
typedef void (*coll_allreduce_fn)(pw_comm *c, float *buf, size_t n);
typedef struct { const char *name; coll_allreduce_fn fn; } coll_allreduce_algo;
extern const coll_allreduce_algo coll_allreduce_algos[];
extern const int coll_allreduce_nalgos;

/* Closed-form all-reduce times (seconds) for n bytes on p ranks over one
 * kind of link (alpha s, beta s/byte): the formulas above. For the ring the
 * chunk is the largest, ceil(n_elems/p) elements of elem_bytes. */
double coll_model_ring(int p, size_t n_elems, size_t elem_bytes, double alpha, double beta);
double coll_model_tree(int p, size_t n_elems, size_t elem_bytes, double alpha, double beta);
double coll_model_naive(int p, size_t n_elems, size_t elem_bytes, double alpha, double beta);

/* ceil(log2(p)): rounds of a binomial tree. */
int coll_log2_ceil(int p);

/* The virtual cluster as a pw_comm: inside a rank's function,
 *   pw_comm comm = coll_comm_cluster(r);  coll_allreduce_ring(&comm, buf, n); */
struct pw_rank;
pw_comm coll_comm_cluster(struct pw_rank *r);

#endif
