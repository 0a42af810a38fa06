/* common/simt/simt_state.h: what the emulator's files share: its limits,
 * the state of a launch, a worker and an emulated thread, the settings and
 * errors (defined in simt_state.c), and the functions one file calls in
 * another. The files call downwards only, in this order from the bottom:
 * simt_state.c, simt_queue.c (the device's queue and the waits for it),
 * simt_lines.c, simt_order.c (reports in block order), simt_report.c, simt_memory.c, simt_api_memory.c,
 * simt_api_device.c, simt_sync.c, simt_coalesce.c, simt_race_global.c, simt_check.c,
 * simt_wmma.c, simt_stream.c, simt_grid.c, simt_pool.c, simt_launch.c, simt_counters.c. Not for programs:
 * they include simt.h. */
#ifndef PW_SIMT_STATE_H
#define PW_SIMT_STATE_H

#include "simt_api.h"
#include "errcheck.h"
#include "fiber.h"
#include "options.h"
#include "timing.h"
#include "util.h"

#include <dlfcn.h>
#include <stddef.h>
#include <pthread.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__) || defined(__FreeBSD__)
#include <link.h>
#define PW_SIMT_HAVE_PHDR 1
#endif

#if defined(__SANITIZE_ADDRESS__)
#define PW_SIMT_ASAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PW_SIMT_ASAN 1
#endif
#endif
#ifdef PW_SIMT_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#endif

enum {
    MAX_THREADS = 1024,           /* per block, as on every CUDA GPU since 2010 */
    MAX_WARPS = MAX_THREADS / 32,
    MAX_DYN_SHARED = 227 * 1024,  /* the most an H100 gives one block (opt-in beyond 48 KiB) */
    MAX_STATIC_SHARED = 48 * 1024,/* static __shared__ variables: 48 KiB per block */
    ARENA = MAX_DYN_SHARED + 128 + MAX_STATIC_SHARED,
    MAX_STATIC_VARS = 256,
    REDZONE = 256,                /* bytes around each cudaMalloc: cudaMalloc aligns to 256 */
    SLICE = 4096,                 /* accesses a thread makes before it gives way */
    PASS_CAP = 1 << 14,           /* passes over one instruction kept before a warp's log is counted */
    MAX_REPORTS = 10,             /* per check and launch; the rest are counted */
};
#define DEFAULT_SPIN_LIMIT (1LL << 26)   /* ~67 M accesses with no progress: about a second */

enum { RUNNABLE, AT_BARRIER, AT_COLLECTIVE, DONE, MARK };
enum { SPACE_GLOBAL, SPACE_SHARED };
enum { K_READ, K_WRITE, K_ATOMIC };
/* what kind of access the running hook makes (pw_simt_thread.access_mode): a
 * volatile one counts as a relaxed atomic for racecheck; an atomic load only
 * reads, an atomic store only writes (initcheck: it reads nothing) */
enum { MODE_PLAIN, MODE_VOLATILE, MODE_ALOAD, MODE_ASTORE, MODE_AEXCH };   /* AEXCH: an exchange, which
                                                                                 reads for racecheck only */

/* ---- state --------------------------------------------------------------------- */

typedef struct {                  /* one warp instruction being assembled */
    uint32_t seq;                 /* when its first lane got there, in the warp's order */
    uint32_t mask;                /* lanes that executed it */
    uint32_t bytes;               /* access size of the first lane */
    int32_t addr[32];             /* per lane: address (global) or offset (shared) minus the site's base:
                                   * 140 bytes a group, not 268 (a loop's groups filled the caches) */
} group;

typedef struct {                  /* every pass of a warp's lanes over one instruction */
    const void *site;
    int kind, space;
    uintptr_t base;               /* the first address recorded since the warp last met (simt_record) */
    uint32_t occ[32];             /* passes by each lane */
    group *g;
    int n, cap;                   /* groups used (= most passes by any lane), allocated */
} site_log;

typedef struct {
    site_log *sites;
    int nsites, cap;
    int *hash;                    /* open addressing: site -> index + 1 */
    int hcap;
} warp_log;

typedef struct {                  /* racecheck: one 4-byte word of shared memory */
    uint32_t serial;              /* the block it describes (else empty) */
    int16_t wtid, rtid;           /* last writer, last reader (-1 none, -2 several) */
    int16_t rwarp;                /* the readers' warp (-1: several warps) */
    uint8_t watomic, ratomic;
    uint8_t wmask, rmask;         /* the word's bytes the last write, the reads touched (a __half is 2 of 4) */
    uint32_t wepoch, repoch;      /* barrier intervals */
    uint32_t wsync, rsync;        /* the warp's collective count then */
    const void *wsite, *rsite;
} race_cell;

typedef struct worker worker;
typedef struct pw_simt_thread pw_simt_thread;
typedef struct launch launch;

struct pw_simt_thread {
    worker *w;
    pw_fiber *fiber;
    uintptr_t stack_lo, stack_bytes;
    int linear, lane, warp;
    int state;
    bool started, quit;
    uint3 tid;
    const char *wait_file;        /* the barrier or collective it waits at */
    int wait_line;
    int slice;                    /* accesses since it last gave way */
    int site_hint[4];             /* its warp log's index of a site it used lately (simt_report.c, site_slot) */
    int site_last;                /* ... and of the last one: the next is likely the one after it */
    int access_mode;              /* MODE_*: set by the volatile and atomic load/store hooks */
    /* a collective in progress, or a barrier's predicate */
    int op, arg, width, pred;
    unsigned mask;
    uint64_t value, result;
    pw_simt_warp_fn call_fn;      /* PW_WARP_CALL: the operation, and its name */
    const char *call_name;
};

struct launch {
    pw_simt_config cfg;
    void (*thunk)(void *);
    void *args;
    size_t args_bytes;
    long long nblocks;
    long long next;               /* next block to hand out (atomic) */
    int failed;                   /* an error stopped a block (atomic) */
    long long fail_block;         /* the block whose error is the launch's (LLONG_MAX: none; atomic, simt_order.c) */
    struct simt_order *order;     /* reports held for their turn (simt_order.c) */
    pthread_mutex_t lock;         /* guards sum */
    pw_simt_counters sum;
    struct simt_grid *grid;       /* a cooperative launch's grid barrier (simt_grid.c), else NULL */
};

typedef struct { const void *tag; size_t off, bytes; } static_var;

struct worker {
    pw_fiber *sched;              /* this OS thread's own context */
    pw_simt_thread *thr[MAX_THREADS];
    bool pool_broken;             /* fibers stopped mid-kernel by an error */
    launch *L;
    uint3 block_idx;
    long long block_linear;       /* the block it runs, as a number (simt_order.c's key) */
    long report_seq;              /* the block's reports so far */
    dim3 block_dim, grid_dim;
    int nthreads, nwarps;
    int ndone, nbarrier;
    const char *barrier_file;
    int barrier_line;
    bool barrier_mismatch;
    int barrier_count;            /* threads whose predicate held, at the last barrier */
    /* shared memory */
    unsigned char *arena;         /* ARENA bytes */
    unsigned char *written;       /* per byte: stored to in this block (initcheck) */
    race_cell *race;              /* per 4-byte word */
    size_t dyn_bytes, static_base, static_used, touched;
    static_var vars[MAX_STATIC_VARS];
    int nvars;
    uint32_t serial;              /* blocks run by this worker */
    uint32_t epoch;               /* barriers passed in this block */
    uint32_t wsync[MAX_WARPS];    /* collectives completed per warp in this block */
    uint32_t seq[MAX_WARPS];      /* warp instructions begun per warp (the lane map's order) */
    /* the warp logs */
    warp_log warps[MAX_WARPS];
    unsigned dirty_warps[MAX_WARPS / 32 + 1];
    int order[MAX_THREADS];
    int pos;                      /* the scheduler's place in order[] in this pass (simt_sync.c hands over from it) */
    uint64_t rng;
    long long no_progress;        /* accesses since anything changed in this block */
    pw_simt_counters c;
    size_t last_alloc;
    /* the sectors this block has loaded: a load of one again is an L1 hit for the GPU model */
    uintptr_t *l1_set;
    size_t l1_cap, l1_used;
};


/* device memory's allocations (simt_memory.c) */
enum { ALLOC_DEVICE, ALLOC_MANAGED, ALLOC_HOST };
typedef struct {
    char *base;
    size_t bytes;
    int kind;
    unsigned char *init;          /* bit per byte: written (cudaMalloc memory only) */
    const void *site;             /* who allocated it */
} allocation;
typedef struct { size_t off, bytes; } hole;   /* a freed range of the device space */

/* the emulator's settings and bookkeeping (defined in simt_state.c) */
extern _Thread_local pw_simt_thread *simt_cur;   /* the running emulated thread, or NULL */
extern _Thread_local worker *simt_tls_worker;   /* the calling thread's, kept between launches */
extern pthread_mutex_t simt_state_lock;   /* errors, allocations, reports */
extern cudaError_t simt_last_error;
extern char simt_last_message[2048];
extern pw_simt_counters simt_last_counters, simt_total_counters;
extern char simt_last_kernel[256];   /* the last launch's kernel, as written before <<< */
extern bool simt_quiet;
extern bool simt_counting;   /* per-warp counts (warp logs): set by simt_counters.c's constructor */
extern uint64_t simt_shuffle_seed;
extern int simt_workers_setting;   /* 0: not set yet */
extern unsigned simt_checks;
extern long long simt_spin_limit;
extern bool simt_leak_checking;   /* PW_SIMT_LEAK_CHECK=1: on (off by default) */
extern bool simt_settings_read;
extern long simt_reports, simt_reports_loud;
extern char simt_last_report[2048];   /* kept in quiet mode too: checkers explain it */
extern int simt_launch_reports[4];   /* per check, this launch: printed ones */
extern long simt_launch_suppressed;

/* simt_state.c */
void simt_read_settings(void);
int simt_default_workers(void);   /* the cores this process may use */

/* simt_queue.c: the emulated device's queue (one order over all streams),
 * its thread, and the host's waits for it. An operation is a simt_op whose
 * run() the device thread calls; the file that queues a kind of operation
 * defines its run (a kernel: simt_launch.c; copies, callbacks: simt_stream.c). */
typedef struct simt_op {
    struct simt_op *next;
    long long seq;
    void (*run)(struct simt_op *o);   /* on the device thread */
    cudaStream_t stream;          /* the handle as issued (a callback gets it back) */
    /* a kernel */
    pw_simt_config cfg;
    void (*thunk)(void *);
    void *args;                   /* a copy of the launch's argument block, freed when run */
    size_t args_bytes;
    bool cooperative;
    /* a copy or a memset */
    void *dst;
    const void *src;
    size_t bytes;
    int value;
    cudaMemcpyKind copy_kind;
    /* an event record (the queue stamps the event: simt_queue_record) */
    cudaEvent_t event;
    /* a host function or callback */
    void (*fn)(void *);
    void (*cb)(cudaStream_t, cudaError_t, void *);
    void *data;
} simt_op;
enum { SIMT_STREAM_NON_BLOCKING = 1, SIMT_EVENT_DISABLE_TIMING = 2 };   /* cudaStreamNonBlocking, cudaEventDisableTiming */
struct pw_simt_stream {
    unsigned flags;               /* cudaStreamNonBlocking (1): not synchronised with the legacy stream */
    long long last;               /* seq of the last operation issued to it (0: none); under the queue's lock */
};
struct pw_simt_event {
    unsigned flags;               /* cudaEventDisableTiming (2): no time */
    long long seq;                /* of its last record (0: never recorded); under the queue's lock */
    double t;                     /* pw_now() when that record ran */
};
simt_op *simt_op_new(void (*run)(simt_op *o));
long long simt_queue_push(simt_op *o, cudaStream_t s);   /* takes o; returns its sequence number */
void simt_queue_record(cudaEvent_t e, cudaStream_t s);   /* an event record, queued */
extern void (*simt_device_thread_end)(void);   /* called when the device thread ends (simt_launch.c sets it) */
struct pw_simt_stream *simt_stream_of(cudaStream_t s);   /* 0, cudaStreamLegacy, cudaStreamPerThread: the legacy one */
bool simt_is_legacy(cudaStream_t s);
bool simt_stream_idle(cudaStream_t s);
void simt_stream_free(cudaStream_t s);
long long simt_event_seq(cudaEvent_t e);
bool simt_seq_done(long long seq);
/* 1 and both times when both records have run, 0 when one is pending, -1 when one never ran or has no time */
int simt_event_times(cudaEvent_t start, cudaEvent_t stop, double *t0, double *t1);
void simt_device_idle(void);      /* wait for everything issued so far */
void simt_wait_legacy(void);      /* ... issued to the legacy stream and the blocking streams */
void simt_wait_stream(cudaStream_t s);
void simt_wait_seq(long long seq);
void simt_device_stop(void);
bool simt_on_device_thread(void);

/* simt_pool.c: the helper OS threads that run a launch's blocks beside the device thread */
void simt_pool_start(int n, void (*fn)(launch *L), launch *L);
void simt_pool_wait(void);
void simt_pool_stop(void (*end)(void));   /* each helper calls end() as it ends */

/* simt_grid.c: cooperative launches */
void simt_grid_begin(launch *L);
void simt_grid_end(launch *L);
void simt_grid_block_done(worker *w);

static inline size_t simt_round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* simt_lines.c */
void simt_site_text(const void *ra, char *buf, size_t len);

/* simt_memory.c */
void simt_arena_alloc(worker *w);
void simt_device_pages_free(char *raw, size_t total);
long simt_find_alloc(const void *p, size_t bytes);
bool simt_in_device_space(const void *p);
void simt_ensure_atexit(void);
void simt_leak_check(bool report);
extern const char *simt_alloc_names[];
extern allocation *simt_allocs;
extern hole simt_holes[256];
extern size_t simt_nallocs;
extern int simt_nholes;
extern char *simt_device_space;

/* simt_order.c: reports and errors in block order, however many workers */
void simt_order_begin(launch *L);
void simt_order_block_start(worker *w, long long b);
void simt_order_block_end(worker *w);
void simt_order_end(launch *L);   /* after every worker: sets the launch's error */
void simt_emit(int check, const char *text);   /* check: PW_CHECK_* */
void simt_order_fail(worker *w, cudaError_t code, const char *text);
bool simt_block_stopped(const worker *w);

/* simt_report.c */
void simt_block_error(worker *w, const char *tool, cudaError_t code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void simt_flush_all(worker *w);
void simt_flush_warp(worker *w, int warp);
void simt_record(worker *w, pw_simt_thread *t, const void *site, int kind, int space, uintptr_t off, size_t bytes);
void simt_report_line(int check, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void simt_thread_error(const char *tool, cudaError_t code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
void simt_thread_list(worker *w, int state, int warp, unsigned mask, char *buf, size_t len);
extern int simt_trace_warp;

/* simt_check.c */
bool simt_logging(void);          /* the access log is on: launches run their blocks in order, on one OS thread */

/* simt_race_global.c: racecheck on global memory */
void simt_race_global(worker *w, pw_simt_thread *t, uintptr_t a, size_t bytes, int kind, const void *site,
                      const allocation *al);   /* al: NULL for a __device__ variable */
void simt_race_global_launch(const launch *L);   /* before a launch's blocks start */
void simt_race_global_launch_end(void);   /* after its blocks: the write-after-write hazards that wait */
void simt_race_global_fence(void);   /* __threadfence() */
void simt_race_global_grid_open(void);   /* the last block arrived at grid.sync() */
void simt_race_global_grid_passed(worker *w);   /* this block passed it */
/* shared memory's write-after-write hazards wait for the second value too (simt_check.c's race_check) */
extern _Thread_local int simt_shared_waiting;   /* hazards waiting on this OS thread */
void simt_race_shared_defer(worker *w, const unsigned char *word, unsigned mask, const char *text);
void simt_race_shared_settle(worker *w);

/* simt_sync.c */
const char *simt_coll_name(const pw_simt_thread *t);
void simt_preempt(pw_simt_thread *t, const void *site);
bool simt_same_collective(const pw_simt_thread *u, const pw_simt_thread *t);
void simt_yield(pw_simt_thread *t);
void simt_prefetch_next(worker *w, int k);   /* the thread after position k of the pass will likely run next */

#endif