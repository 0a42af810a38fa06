/* common/cluster/cluster.h: the virtual cluster. Many ranks (modelled GPUs) on one
 * laptop: real data moves between them, so every result can be checked,
 * while time is modelled, so a 1024-GPU job can be studied on two cores.
 *
 * Ranks are fibers (fiber.h), all on the calling OS thread. A rank runs until
 * it waits for a message, then the next runnable rank runs. With one OS
 * thread and modelled time a run is deterministic: the same program gives the
 * same data, the same clocks and the same trace every time.
 *
 *   pw_cluster_config cfg = pw_cluster_defaults(64);       // 64 ranks, 8 per node
 *   pw_cluster_check_or_exit("prog", &cfg);                 // bad config: one line, exit 2
 *   pw_cluster *c = pw_cluster_create(&cfg);
 *   if (pw_cluster_run(c, my_rank_fn, &args) != 0)         // each rank: my_rank_fn(rank, &args)
 *       fprintf(stderr, "%s", pw_cluster_report(c));        // deadlock, or messages never received
 *   printf("%g s modelled\n", pw_cluster_time(c));
 *   pw_cluster_destroy(c);
 *
 * ---- The time model -------------------------------------------------------
 * Every rank has a clock (seconds of modelled time, 0 at the start of a run).
 *   compute   pw_compute(r, flops) advances the clock by flops / device rate,
 *             times the rank's slow factor (a straggler has 1.5). Measured
 *             mode: pw_compute_seconds(r, s) advances it by a time the caller
 *             measured (times the slow factor too).
 *   send      a message of n bytes over a link with latency alpha (s) and
 *             inverse bandwidth beta (s/byte) costs c = alpha + n*beta. Sends
 *             are eager: the sender's clock advances by c (its link is busy
 *             that long, one message at a time) and it goes on; the data wait
 *             at the receiver.
 *   receive   completes at max(own clock, arrival). A rank's incoming link
 *             takes one message at a time, each for its whole cost c, in
 *             the order the messages reach it (the order they were sent,
 *             ties in the order the sends ran), whatever the order the
 *             receives are posted in: arrival = max(sent + c, the link's
 *             previous arrival + c). A message that waited at the receiver
 *             is not charged again because the receiver asked for a later
 *             one first: rank 1 sending at 0 and rank 2 at 100 us, c = 3.33
 *             us, rank 0 has both at 103.33 us in either order.
 *             A link is full duplex: a rank may send and receive at once.
 * Links: ranks r and s are on the same node when r / ranks_per_node equals
 * s / ranks_per_node; then the intra-node link carries the message, else the
 * inter-node link. A rank sending to itself costs nothing.
 *
 * These rules give the textbook closed forms exactly (the tests assert
 * relative error below 1e-9), with c(m) = alpha + m*beta for an m-byte message:
 *   ring all-reduce of n bytes on p ranks   2(p-1) c(n/p)       (n divisible by p)
 *   binomial-tree all-reduce                2 log2(p) c(n)      (p a power of two)
 *     (a binomial-tree reduce to rank 0, then a binomial-tree broadcast)
 *   naive all-reduce (reduce to root, then  2(p-1) c(n)         (the root's link
 *     broadcast from it)                                          serialises both)
 * The formulas are those of R. Thakur, R. Rabenseifner and W. Gropp,
 * "Optimization of collective communication operations in MPICH", IJHPCA
 * 19(1), 2005 (the alpha-beta model, binomial trees, the ring), and of
 * P. Patarasuk and X. Yuan, "Bandwidth optimal all-reduce algorithms for
 * clusters of workstations", JPDC 69(2), 2009 (the ring's 2(p-1)/p n beta is
 * the least any all-reduce can send).
 * On several nodes a ring step waits for its slowest link, so the ring takes
 * the inter-node alpha and beta. The reduction's additions are not charged: a
 * GPU adds 2 floats per 12 bytes of its 3 TB/s memory, far faster than any
 * link brings them, and leaving them out keeps the formulas exact.
 *
 * ---- Default link and device parameters, and where they come from ---------
 *   intra-node  450 GB/s, alpha 1 us  NVLink 4 on an NVIDIA H100 SXM: 900 GB/s
 *               "total bandwidth" in the H100 datasheet counts both
 *               directions, so 450 GB/s each way. The 1 us latency is an
 *               assumption of the order of a GPU-to-GPU NVLink transfer's
 *               start-up cost (kernel launch and synchronisation included).
 *   inter-node  50 GB/s, alpha 5 us   one 400 Gb/s NDR InfiniBand port per GPU
 *               (NVIDIA ConnectX-7: 400 Gb/s = 50 GB/s per direction), as in
 *               a DGX H100 (8 GPUs, 8 such ports). 5 us: an assumed end-to-end
 *               latency across a switch for a GPU buffer, software included
 *               (the wire and switch alone are about 1 us).
 *   8 ranks per node                  a DGX/HGX H100 node has 8 GPUs.
 *   device      100 TFLOP/s           an assumed sustained rate for training
 *               (an H100 SXM's dense BF16 peak is about 990 TFLOP/s; real
 *               training steps reach a fraction of it).
 * Change them with the fields below; chapter 10's programs take them as
 * flags (pw_cluster_flag_opts: --intra-alpha, --intra-gbs, --inter-alpha,
 * --inter-gbs, --per-node, --device-tflops).
 *
 * ---- Trace ----------------------------------------------------------------
 * With cfg.trace every operation is recorded: rank, kind ("compute", "send",
 * "recv", or a caller's kind), start and end on the modelled clock, bytes,
 * and the peer rank (-1 for none). A recv's interval runs from the moment
 * the rank asked for the data to the moment it had it: waiting included, so
 * a straggler shows as long recv bars on everyone else.
 *
 * ---- Deadlock, messages never received, bad calls ---------------------------
 * When no rank can run and some are still waiting for messages, the run stops
 * and returns PW_CLUSTER_DEADLOCK; pw_cluster_report() says what every waiting
 * rank waits for ("rank 3 (clock 0 s): recv from rank 2 (1024 bytes); that
 * rank is itself waiting"): one line each for the first 20, then the rest
 * counted by what they wait for (32 000 ranks in a cycle: "... and 31980
 * more ranks waiting, by what they wait for:" / "31980 (ranks 20 to 31999):
 * recv (4 bytes); that rank is itself waiting"). The blocked ranks never resume: memory they
 * allocated is not freed. When every rank returned but messages are still
 * queued (a send without its receive), the run returns
 * PW_CLUSTER_UNRECEIVED and the report lists them ("rank 1 -> rank 0: 12
 * bytes, sent at clock 0 s; rank 0 never called pw_recv for it"). A send or
 * receive naming a rank that does not exist or a negative tag, or a receive
 * whose size differs from the message's, stops the run at once with
 * PW_CLUSTER_BAD_CALL and one line naming both ranks ("wrong size: rank 0
 * receives 8 bytes from rank 1, but rank 1 sent 12 bytes ...; the run
 * stopped there"). Either way the run failed: programs print the report and
 * exit 1.
 *
 * ---- Limits -------------------------------------------------------------------
 * Ranks: at most PW_CLUSTER_MAX_RANKS, and at most what the machine's memory
 * mappings allow: each rank is a fiber whose stack and guard take two
 * of Linux's vm.max_map_count (65530 by default, so about 32 000 ranks);
 * validation checks the real limit and refuses more in one line, naming the
 * most that fit in whole nodes (a count it accepts).
 * Stack: each rank runs on a stack of 64 KiB (256 KiB under ASan): enough
 * for the collectives and small locals, not for big local arrays. Set
 * cfg.stack_bytes or the environment variable PW_CLUSTER_STACK (256K, 4M;
 * 16 KiB to 1 GiB) for more; a rank that overflows its stack stops the
 * program with one line, "virtual cluster: rank 5: stack overflow: it ran
 * past the end of its 64 KiB stack (...)" (fiber.h), naming the rank that
 * overflowed even when its frame jumped over the 1 MiB guard: every call
 * into the cluster checks the caller's stack pointer.
 *
 * ---- Phantom messages -------------------------------------------------------
 * A send with a NULL buffer carries no data but costs the same modelled time:
 * a scaling sweep of a 100M-parameter model over 1024 ranks needs the clocks,
 * not 400 GB of gradients. Receives into NULL discard; a NULL send received
 * into a buffer leaves it unchanged.
 */
#ifndef PW_CLUSTER_H
#define PW_CLUSTER_H

#include "options.h"

#include <stdbool.h>
#include <stddef.h>

/* More ranks than this is a typo, not an experiment. The machine's own
 * limit (vm.max_map_count, see Limits above) is usually lower: validation
 * checks both. */
#define PW_CLUSTER_MAX_RANKS 65536

/* Defaults documented above. */
#define PW_CLUSTER_INTRA_GBS     450.0
#define PW_CLUSTER_INTRA_ALPHA   1e-6
#define PW_CLUSTER_INTER_GBS     50.0
#define PW_CLUSTER_INTER_ALPHA   5e-6
#define PW_CLUSTER_RANKS_PER_NODE 8
#define PW_CLUSTER_DEVICE_GFLOPS 100e3

/* Stack of one rank (a fiber, fiber.h): cfg.stack_bytes, or the environment
 * variable PW_CLUSTER_STACK (256K, 1M: read by pw_cluster_defaults), or the
 * fiber default of 64 KiB (256 KiB under AddressSanitizer). */
#define PW_CLUSTER_MIN_STACK (16 << 10)
#define PW_CLUSTER_MAX_STACK (1 << 30)

enum { PW_CLUSTER_OK = 0, PW_CLUSTER_DEADLOCK = 1, PW_CLUSTER_UNRECEIVED = 2, PW_CLUSTER_BAD_CALL = 3 };

typedef struct {
    int ranks;              /* how many ranks (modelled devices) */
    int ranks_per_node;     /* ranks sharing the fast link; must divide ranks */
    double intra_alpha;     /* intra-node latency, s */
    double intra_gbs;       /* intra-node bandwidth per direction, GB/s (1e9 bytes/s) */
    double inter_alpha;     /* inter-node latency, s */
    double inter_gbs;       /* inter-node bandwidth per direction, GB/s */
    double device_gflops;   /* compute rate of one device, GFLOP/s */
    const double *slow;     /* per-rank slow factor (1 = normal, 1.5 = a straggler), or NULL */
    bool trace;             /* record every operation (pw_cluster_trace) */
    size_t stack_bytes;     /* each rank's stack; 0: the default (PW_CLUSTER_STACK, else 64 KiB) */
} pw_cluster_config;

typedef struct pw_cluster pw_cluster;
typedef struct pw_rank pw_rank;
typedef void (*pw_rank_fn)(pw_rank *r, void *arg);

typedef struct {
    int rank;               /* who */
    const char *kind;       /* "compute", "send", "recv", or the caller's (a string literal) */
    double start, end;      /* modelled seconds */
    double bytes;           /* payload, 0 for compute */
    int peer;               /* the other rank of a send/recv, -1 for none */
} pw_trace_event;

/* The defaults above for `ranks` ranks: 8 per node, or all on one node when
 * there are 8 or fewer. 12 ranks would be 1.5 nodes: validation refuses it
 * (set ranks_per_node to a divisor). */
pw_cluster_config pw_cluster_defaults(int ranks);

/* 0 when cfg is usable; otherwise 1 and one line saying why in why[len]:
 * no ranks, too many (PW_CLUSTER_MAX_RANKS, or more than vm.max_map_count
 * allows), ranks not a multiple of ranks_per_node, a bandwidth or rate that
 * is not positive, a negative latency, a slow factor that is not positive, a
 * stack size out of range (or PW_CLUSTER_STACK that is not a size). */
int pw_cluster_validate(const pw_cluster_config *cfg, char *why, size_t len);

/* The same, for programs: prints "prog: why" and exits 2 on a bad config. */
void pw_cluster_check_or_exit(const char *prog, const pw_cluster_config *cfg);

/* ---- the link and device parameters as command-line flags ----------------------
 * A program adds them to its option table and builds every config from them:
 *   pw_cluster_flags lf = pw_cluster_flag_defaults();
 *   pw_opt opts[8 + PW_CLUSTER_NFLAGS] = { ...its own... };
 *   int n = 8 + pw_cluster_flag_opts(&lf, opts + 8, true);
 *   ... pw_cluster_config cfg = pw_cluster_config_for(R, &lf);
 * Flags: --intra-alpha US, --intra-gbs GB/S, --inter-alpha US, --inter-gbs
 * GB/S, --device-tflops T, and (when per_node) --per-node N. A value out of
 * range is refused by the parser; a zero bandwidth or rate by validation,
 * one line and exit 2 either way. */
typedef struct {
    double intra_alpha_us;  /* intra-node latency, microseconds */
    double intra_gbs;       /* intra-node bandwidth per direction, GB/s */
    double inter_alpha_us;  /* inter-node latency, microseconds */
    double inter_gbs;       /* inter-node bandwidth per direction, GB/s */
    double device_tflops;   /* one device's compute rate, TFLOP/s */
    long long per_node;     /* ranks per node */
} pw_cluster_flags;
#define PW_CLUSTER_NFLAGS 6

pw_cluster_flags pw_cluster_flag_defaults(void);
/* Fill out[] with the flags' entries (6, or 5 without --per-node); returns how many. */
int pw_cluster_flag_opts(pw_cluster_flags *f, pw_opt *out, bool per_node);
/* The config for `ranks` ranks with the flags' values: all on one node when
 * ranks <= per_node, else per_node a node (validation refuses a remainder). */
pw_cluster_config pw_cluster_config_for(int ranks, const pw_cluster_flags *f);

/* A cluster for cfg (which must validate; the slow array is copied). */
pw_cluster *pw_cluster_create(const pw_cluster_config *cfg);
void pw_cluster_destroy(pw_cluster *c);

/* Run fn(rank, arg) on every rank until all return (PW_CLUSTER_OK, or
 * PW_CLUSTER_UNRECEIVED if messages were left unreceived), none can go on
 * (PW_CLUSTER_DEADLOCK), or a rank made a bad call (PW_CLUSTER_BAD_CALL: a
 * peer or tag out of range, a receive of the wrong size; the run stops at
 * it). Clocks and trace start from zero. */
int pw_cluster_run(pw_cluster *c, pw_rank_fn fn, void *arg);

/* After a run: the latest clock (the job's modelled time), one rank's clock. */
double pw_cluster_time(const pw_cluster *c);
double pw_cluster_clock(const pw_cluster *c, int rank);

/* After a failed run: what each waiting rank waited for (the first 20, then
 * the rest counted by what they wait for), which messages were never
 * received, or the bad call ("" after a good run). */
const char *pw_cluster_report(const pw_cluster *c);

/* The trace of the last run (empty unless cfg.trace). */
const pw_trace_event *pw_cluster_trace(const pw_cluster *c, size_t *count);

/* Messages and bytes sent in the last run. */
void pw_cluster_traffic(const pw_cluster *c, long long *messages, double *bytes);

/* Link parameters between two ranks (for closed forms). */
double pw_cluster_alpha(const pw_cluster *c, int a, int b);
double pw_cluster_beta(const pw_cluster *c, int a, int b);   /* s per byte */

/* ---- inside a rank ---------------------------------------------------------- */
int pw_rank_id(const pw_rank *r);
int pw_rank_size(const pw_rank *r);

/* Send bytes of buf to dst (buf NULL: a phantom of that size). Returns at
 * once; the data are copied. Messages between two ranks arrive in order. */
void pw_send(pw_rank *r, int dst, const void *buf, size_t bytes);

/* Receive the next message from src into buf; it must be `bytes` long (a
 * size mismatch is a bug in the caller: the run stops, PW_CLUSTER_BAD_CALL).
 * Waits for it. */
void pw_recv(pw_rank *r, int src, void *buf, size_t bytes);

/* Tagged messages, for a rank that must tell kinds of messages apart (a
 * pipeline stage receives activations from the stage before it and
 * gradients from the one after). A receive takes the oldest message from src
 * with that tag: messages of one tag between two ranks arrive in order,
 * messages of different tags are matched independently (as MPI's are).
 * pw_send and pw_recv use tag 0. Tags are 0 or more; a negative tag stops
 * the run (PW_CLUSTER_BAD_CALL).
 * The link is the same: tags change matching, never time.
 * Groups (kernels/collectives.h) number their tags context * 1024 + tag, so
 * a group's traffic never matches another group's; the deadlock report
 * decodes that ("recv from rank 2 (4096 bytes, tag 1 (activations) in group
 * context 3)"), with the names given to pw_cluster_name_tag. */
#define PW_CLUSTER_TAG_SPACE 1024
#define PW_CLUSTER_TAG_NAMES 32
void pw_send_tag(pw_rank *r, int dst, int tag, const void *buf, size_t bytes);
void pw_recv_tag(pw_rank *r, int src, int tag, void *buf, size_t bytes);
/* Name a tag (0..1023, in every group) for reports; name must outlive the
 * cluster (a string literal). At most PW_CLUSTER_TAG_NAMES names. */
void pw_cluster_name_tag(pw_cluster *c, int tag, const char *name);
const char *pw_cluster_tag_name(const pw_cluster *c, int tag);   /* NULL if none */

/* Set-up traffic: while quiet, a rank's sends cost no time, use no link,
 * and are neither traced nor counted, and its receives of them leave its
 * clock alone. Groups are made this way (coll_comm_split): building a
 * communicator is done once before training, not part of a step's time. */
void pw_rank_set_quiet(pw_rank *r, bool quiet);
/* The highest group context this rank has taken part in (coll_comm_split
 * keeps it here; 0 at the start of a run). */
int *pw_rank_comm_contexts(pw_rank *r);

/* Advance the clock by flops / device rate x slow factor; traced as `kind`
 * (NULL: "compute"). */
void pw_compute(pw_rank *r, double flops, const char *kind);

/* Measured mode: advance the clock by seconds x slow factor. */
void pw_compute_seconds(pw_rank *r, double seconds, const char *kind);

/* The rank's clock. Setting it lets a program model a second stream (the
 * gradients' all-reduce running beside the backward pass): remember the
 * compute clock, set the clock to when the communication stream is free, run
 * the collective, note when it ended, set the compute clock back. */
double pw_rank_now(const pw_rank *r);
void pw_rank_set_now(pw_rank *r, double t);

/* Add a caller-defined event to the trace (no effect on the clock). */
void pw_rank_trace(pw_rank *r, const char *kind, double start, double end, double bytes, int peer);

#endif
