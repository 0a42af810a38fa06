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

/* ---- communicators and groups ----------------------------------------------------
 * A pw_comm is a group of ranks that can talk: rank and size are this
 * process's place in the group. The world (coll_comm_cluster, coll_comm_mpi)
 * holds every rank; coll_comm_split carves groups out of it, as
 * MPI_Comm_split does: every rank of the parent calls it with a colour and a
 * key, ranks of one colour form one group, ordered by key (ties by parent
 * rank). On a 2 x 4 grid (world rank = 4 row + col), colour = row gives the
 * two rows and colour = col the four columns; a rank belongs to both and
 * the collectives run in each, at the same time on different ranks.
 *
 * Messages of one group never match another group's: each group has its own
 * context, and coll_send/coll_recv put it into the transport's tag (context
 * x 1024 + tag). Contexts are agreed in the split: one more than the highest
 * any member has seen, so two groups sharing a rank never share a context.
 *
 * The transport (the virtual cluster, or MPI) fills the function pointers,
 * which speak world ranks and wire tags; programs and collectives call the
 * coll_* functions below, which speak group ranks and tags 0..1022.
 * compute and now let one rank function run on either transport: on the
 * cluster they model the time (pw_compute, the rank's clock); over MPI the
 * work takes real time, so compute does nothing and now is MPI_Wtime. */
#define COLL_TAG_SPACE 1024              /* = PW_CLUSTER_TAG_SPACE */
#define COLL_TAG_COLLECTIVE 1023         /* the collectives' own messages */
#define COLL_TAG_MAX 1022                /* programs' tags: 0..1022 */
#define COLL_UNDEFINED (-1)              /* split colour: in no group */

typedef struct pw_comm pw_comm;
struct pw_comm {
    int rank, size;                      /* in this group */
    void *ctx;                           /* the transport's (a pw_rank *, or NULL for MPI) */
    void (*send)(pw_comm *c, int dst, int tag, const void *buf, size_t bytes);   /* world rank, wire tag */
    void (*recv)(pw_comm *c, int src, int tag, void *buf, size_t bytes);
    void (*compute)(pw_comm *c, double flops, const char *kind);
    double (*now)(pw_comm *c);
    void (*quiet)(pw_comm *c, int on);   /* set-up traffic: untimed (cluster); may be NULL */
    int *contexts_seen;                  /* the transport's: highest context taken part in */
    int *world;                          /* group rank -> world rank; NULL for the world */
    int context;                         /* 0 for the world */
    int world_rank, world_size;
};

/* Send and receive in a group: group ranks, tags 0..COLL_TAG_MAX (a bad
 * rank or tag is a bug in the caller: reported, then abort). Sends never
 * wait for the receiver; a receive takes the oldest message from src with
 * that tag in this group. */
void coll_send(pw_comm *c, int dst, int tag, const void *buf, size_t bytes);
void coll_recv(pw_comm *c, int src, int tag, void *buf, size_t bytes);

/* Work on this rank: modelled (cluster) or nothing (MPI, where it took real
 * time). kind labels the trace ("F", "B", NULL for "compute"). */
void coll_compute(pw_comm *c, double flops, const char *kind);
/* This rank's clock: modelled seconds on the cluster, MPI_Wtime over MPI. */
double coll_now(pw_comm *c);

/* Split parent into groups (collective over parent: every rank calls it).
 * colour >= 0, or COLL_UNDEFINED for a rank in no group (out gets size 0).
 * Free out with coll_comm_free; it keeps world ranks, not a pointer to
 * parent, so groups can be split again. Returns 0. Costs no modelled time:
 * set-up traffic is quiet (pw_rank_set_quiet). */
int coll_comm_split(pw_comm *parent, int colour, int key, pw_comm *out);
void coll_comm_free(pw_comm *c);
/* The world rank of group rank r. */
int coll_world_rank(const pw_comm *c, int r);

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
 *   pw_comm comm = coll_comm_cluster(r);  coll_allreduce_ring(&comm, buf, n);
 * (Over MPI: kernels/collectives_mpi.h, coll_comm_mpi.) */
struct pw_rank;
pw_comm coll_comm_cluster(struct pw_rank *r);

#endif
