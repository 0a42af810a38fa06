/* common/simt/simt_grid.c: cooperative launches and grid.sync().
 *
 * A grid-wide barrier needs every block of the grid alive at once: a block
 * that waits at grid.sync() holds its place until the last block arrives.
 * A GPU promises that only for cudaLaunchCooperativeKernel, and only for a
 * grid that fits the device at once (blocks per multiprocessor, from the
 * occupancy of the kernel, times the multiprocessors), which the launch
 * checks first (cudaErrorCooperativeLaunchTooLarge). The emulator runs each
 * block of a cooperative launch on its own worker, an OS thread
 * (run_launch in simt_launch.c), so all are alive at once however few cores there are.
 *
 * grid.sync() is two meetings. First the block's threads meet, as at a
 * __syncthreads() at the same line (so a block whose threads split between
 * grid.sync() and another barrier, or exit, is the synccheck error such a
 * barrier gives). Then the first of the block's threads to go on waits,
 * holding its worker (so no thread of the block runs on), until every block
 * has arrived: the last one opens the grid barrier for all. A block that
 * ends while others wait at the grid barrier would hang a GPU: that is a
 * synccheck error naming the line and the block, and the waiting blocks
 * stop; so do they when any block of the launch fails. The mutex between
 * the workers orders every block's accesses before the barrier before
 * every block's after it, as the barrier's memory fence does on a GPU. */
#define _GNU_SOURCE
#include "simt_state.h"

#include <errno.h>
#include <time.h>
#ifndef PW_SIMT_HAVE_PHDR
#define first_object first_object_unused
#endif

struct simt_grid {
    pthread_mutex_t lock;
    pthread_cond_t open;          /* the barrier opened, a block ended, or the launch failed */
    long long nblocks;
    long long arrived;            /* blocks waiting at the barrier now */
    long long ended;              /* blocks that have ended (or stopped) */
    unsigned long long generation;/* barriers opened */
    uint3 first_ended;            /* the first block to end */
};

/* Per worker: the block and barrier interval whose grid wait is done (the
 * first of the block's threads waits, the others go on). One block per OS
 * thread at a time, so thread-local state is the block's. */
static _Thread_local uint32_t passed_serial, passed_epoch;
static _Thread_local bool passed_any;

void simt_grid_begin(launch *L)
{
    struct simt_grid *g = calloc(1, sizeof *g);
    PW_CHECK_ALLOC(g, sizeof *g);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->open, NULL);
    g->nblocks = L->nblocks;
    L->grid = g;
}

void simt_grid_end(launch *L)
{
    struct simt_grid *g = L->grid;
    pthread_cond_destroy(&g->open);
    pthread_mutex_destroy(&g->lock);
    free(g);
    L->grid = NULL;
}

/* A block of a cooperative launch ended (its threads are done, or it stopped). */
void simt_grid_block_done(worker *w)
{
    struct simt_grid *g = w->L->grid;
    pthread_mutex_lock(&g->lock);
    if (!g->ended++) g->first_ended = w->block_idx;
    pthread_cond_broadcast(&g->open);
    pthread_mutex_unlock(&g->lock);
}

int pw_simt_grid_is_valid(void) { return simt_cur && simt_cur->w->L->grid != NULL; }

/* The block's threads have met: wait for every other block. */
static void grid_wait(worker *w, const char *file, int line)
{
    struct simt_grid *g = w->L->grid;
    pthread_mutex_lock(&g->lock);
    unsigned long long gen = g->generation;
    if (++g->arrived == g->nblocks) {
        g->arrived = 0;
        g->generation++;
        simt_race_global_grid_open();   /* global racecheck: before it, ordered before after it */
        pthread_cond_broadcast(&g->open);
        pthread_mutex_unlock(&g->lock);
        return;
    }
    while (g->generation == gen) {
        if (__atomic_load_n(&w->L->failed, __ATOMIC_ACQUIRE)) {
            pthread_mutex_unlock(&g->lock);   /* another block's error stopped the launch: stop here too */
            simt_thread_error("synccheck", cudaErrorLaunchFailure, "stopped at grid.sync() at %s:%d by another "
                              "block's error", file, line);
        }
        if (g->ended) {
            uint3 b = g->first_ended;
            pthread_mutex_unlock(&g->lock);
            simt_thread_error("synccheck", cudaErrorLaunchFailure,
                              "grid.sync() at %s:%d: this block waits there for all %lld blocks, but block (%u,%u,%u) "
                              "ended without reaching it (on a GPU: a hang). Every thread of every block must reach "
                              "every grid.sync()", file, line, g->nblocks, b.x, b.y, b.z);
        }
        /* woken by the last arrival, an ending block or, at worst, a failure
         * that did not end a block yet: look again every 50 ms */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
        int rc = pthread_cond_timedwait(&g->open, &g->lock, &ts);
        if (rc && rc != ETIMEDOUT) PW_CHECK_PTHREAD(rc);
    }
    pthread_mutex_unlock(&g->lock);
}

void pw_simt_grid_sync(const char *file, int line)
{
    pw_simt_thread *t = simt_cur;
    if (!t) {
        fprintf(stderr, "simt: grid.sync() at %s:%d outside a kernel\n", file, line);
        abort();
    }
    worker *w = t->w;
    if (!w->L->grid)
        simt_thread_error("synccheck", cudaErrorLaunchFailure,
                          "grid.sync() at %s:%d in a launch that is not cooperative: a grid-wide barrier needs "
                          "every block alive at once, which only cudaLaunchCooperativeKernel promises (a <<<>>> "
                          "launch may run the blocks one after another; on a GPU grid.sync() traps there, and "
                          "this_grid().is_valid() is false)", file, line);
    pw_simt_syncthreads(file, line);
    if (passed_any && passed_serial == w->serial && passed_epoch == w->epoch) return;   /* a thread of mine waited */
    passed_any = true;
    passed_serial = w->serial;
    passed_epoch = w->epoch;
    grid_wait(w, file, line);
    if (simt_checks & PW_CHECK_RACECHECK) simt_race_global_grid_passed(w);
}

/* The grid fits when every block can be resident at once. */
cudaError_t pw_simt_cooperative_fits(const char *kernel, long long blocks, int per_sm_blocks)
{
    cudaDeviceProp p;
    int sms = pw_simt_get_device_properties(&p, 0) == cudaSuccess && p.multiProcessorCount > 0 ? p.multiProcessorCount : 1;
    long long most = (long long)per_sm_blocks * sms;
    if (blocks <= most) return cudaSuccess;
    pthread_mutex_lock(&simt_state_lock);
    snprintf(simt_last_message, sizeof simt_last_message,
             "simt: kernel %s: cooperative launch of %lld blocks: at most %lld can be resident at once (%d per "
             "multiprocessor for this block size and shared memory, x %d multiprocessors; "
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor says how many)", kernel, blocks, most, per_sm_blocks, sms);
    simt_last_error = cudaErrorCooperativeLaunchTooLarge;
    if (!simt_quiet) fprintf(stderr, "%s\n", simt_last_message);
    pthread_mutex_unlock(&simt_state_lock);
    return cudaErrorCooperativeLaunchTooLarge;
}

/* ---- the kernel's name, for a launch through a function pointer ---------------------------- */

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = info->dlpi_addr;
    return 1;
}

/* The name of the function at fn ("gridSum"), from the program's symbols
 * (addr2line -f, as simt_site_text reads lines), else fallback. Kept: the
 * launches' messages name it. */
const char *pw_simt_kernel_name(const void *fn, const char *fallback)
{
    static struct { const void *fn; char name[128]; } cache[64];
    static int ncache;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < ncache; i++)
        if (cache[i].fn == fn) { pthread_mutex_unlock(&lock); return cache[i].name; }
    char name[128] = "";
    Dl_info info;
    if (ncache < 64 && dladdr(fn, &info) && info.dli_fname) {
        uintptr_t base = 0;
        const char *object = info.dli_fname;
        char exe[4096];
        if (strstr(object, ".so")) {
            base = (uintptr_t)info.dli_fbase;
        } else {
#ifdef PW_SIMT_HAVE_PHDR
            dl_iterate_phdr(first_object, &base);
#endif
            ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
            if (n > 0) { exe[n] = 0; object = exe; }
        }
        char cmd[4400];
        snprintf(cmd, sizeof cmd, "addr2line -f -C -e '%s' 0x%lx 2>/dev/null", object,
                 (unsigned long)((uintptr_t)fn - base));
        FILE *p = popen(cmd, "r");
        if (p) {
            if (fgets(name, sizeof name, p)) {
                name[strcspn(name, "\n")] = 0;
                char *paren = strchr(name, '(');   /* "gridSum(int const*, int)": the name */
                if (paren && !memchr(name, '<', (size_t)(paren - name))) *paren = 0;
                if (!strcmp(name, "??")) name[0] = 0;
            }
            pclose(p);
        }
    }
    const char *r = fallback;
    if (name[0] && ncache < 64) {
        cache[ncache].fn = fn;
        snprintf(cache[ncache].name, sizeof cache[ncache].name, "%s", name);
        r = cache[ncache++].name;
    }
    pthread_mutex_unlock(&lock);
    return r;
}
