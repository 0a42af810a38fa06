/* common/simt/simt_order.c: reports and errors in block order, whatever
 * the number of OS threads that run the blocks.
 *
 * With one worker the blocks run one after another, so the reports come
 * out in block order and the first error is the lowest block's. With
 * several, blocks 3 and 7 may run at once and report in either order, and
 * a program's output (and a test's "the first report names block 3") would
 * change from run to run. So a report is printed at once only when it comes
 * from the lowest block still running: every block below it has ended and
 * said all it will say. A report of a block further on waits here, keyed by
 * (block, its place in the block), and is printed when every block below it
 * has ended. An error stops its block and every block after it, as one
 * worker would never have started them; the blocks before it run to their
 * end (a lower block's error then replaces it); what the stopped blocks
 * held is dropped. The output is then the same as one worker's, given that
 * each block runs alike (a block runs on one OS thread, in the scheduler's
 * order). Not the same: which of two racing blocks a global racecheck
 * report names first, when the two ran at once.
 *
 * A cooperative launch runs every block at once and any error stops them
 * all (they would wait at grid.sync() for the stopped one): its first
 * error in time is the launch's, and its reports still come in block order.
 *
 * Memory: a held report keeps its text only if it may be printed (among
 * the first MAX_REPORTS of its check this launch, or the last one, which
 * pw_simt_last_report returns); the rest keep their key, to be counted.
 *
 * Calls simt_state.c only; simt_report.c, simt_launch.c, simt_sync.c and
 * simt_grid.c call it. */
#define _GNU_SOURCE
#include "simt_state.h"

#include <limits.h>

enum { CHECKS = 5, ERROR_INDEX = 4 };   /* memcheck, racecheck, initcheck, synccheck; the launch's error */
#define NO_FAILURE LLONG_MAX

typedef struct { long long block; long seq; char *text; } held;
typedef struct { held *v; size_t head, n, cap; } held_list;   /* v[head..n): sorted by (block, seq) */

struct simt_order {
    held_list list[CHECKS];
    long long low;                /* the lowest block not ended: its reports print at once */
    long long *ended;             /* blocks above low that have ended: a min-heap */
    size_t nended, cap_ended;
    cudaError_t fail_code;
    char fail_text[2048];
};

static _Thread_local worker *running;   /* this OS thread's worker, while it runs a block */

static int check_index(int check)
{
    return check == PW_CHECK_MEMCHECK ? 0 : check == PW_CHECK_RACECHECK ? 1 : check == PW_CHECK_INITCHECK ? 2 : 3;
}

/* A report's turn has come (under simt_state_lock). text NULL: one that
 * cannot be printed (past the launch's MAX_REPORTS of its check). */
static void print_report(int c, const char *text)
{
    if (c == ERROR_INDEX) {
        if (!simt_quiet) fprintf(stderr, "%s\n", text);
        return;
    }
    simt_reports++;
    if (text) snprintf(simt_last_report, sizeof simt_last_report, "%s", text);
    if (!simt_quiet) {
        simt_reports_loud++;
        if (simt_launch_reports[c]++ < MAX_REPORTS && text) fprintf(stderr, "%s\n", text);
        else simt_launch_suppressed++;
    }
}

/* How many of check c's held reports may still be printed (quiet: none;
 * the last one's text is kept apart from this). */
static size_t room(int c)
{
    if (c == ERROR_INDEX) return SIZE_MAX;
    if (simt_quiet) return 0;
    int used = simt_launch_reports[c];
    return used < MAX_REPORTS ? (size_t)(MAX_REPORTS - used) : 0;
}

static void hold(struct simt_order *o, int c, long long block, long seq, const char *text)
{
    held_list *l = &o->list[c];
    if (l->head && l->n == l->cap) {     /* reuse the front that commits freed */
        memmove(l->v, l->v + l->head, (l->n - l->head) * sizeof *l->v);
        l->n -= l->head;
        l->head = 0;
    }
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        PW_CHECK_ALLOC(l->v, l->cap * sizeof *l->v);
    }
    size_t i = l->n;              /* reports come mostly in order: look from the end */
    while (i > l->head && (l->v[i - 1].block > block || (l->v[i - 1].block == block && l->v[i - 1].seq > seq))) i--;
    memmove(l->v + i + 1, l->v + i, (l->n - i) * sizeof *l->v);
    l->n++;
    /* a held report keeps its text if it is among the first r (it may be
     * printed) or the last (pw_simt_last_report): rel. index j, of count */
    size_t r = room(c), at = i - l->head, count = l->n - l->head;
    l->v[i] = (held){ block, seq, NULL };
    if (at < r || at == count - 1) {
        l->v[i].text = strdup(text);
        PW_CHECK_ALLOC(l->v[i].text, strlen(text) + 1);
    }
    if (at < r && r < count - 1) {            /* the one pushed from r - 1 to r */
        free(l->v[l->head + r].text);
        l->v[l->head + r].text = NULL;
    }
    if (at == count - 1 && count >= 2 && count - 2 >= r) {   /* the one that was last */
        free(l->v[l->head + count - 2].text);
        l->v[l->head + count - 2].text = NULL;
    }
}

/* Print what is held from blocks up to `upto`, in (block, seq) order. */
static void commit(struct simt_order *o, long long upto)
{
    for (;;) {
        int best = -1;
        for (int c = 0; c < CHECKS; c++) {
            held_list *l = &o->list[c];
            if (l->head == l->n || l->v[l->head].block > upto) continue;
            if (best < 0) { best = c; continue; }
            const held *a = &l->v[l->head], *b = &o->list[best].v[o->list[best].head];
            if (a->block < b->block || (a->block == b->block && a->seq < b->seq)) best = c;
        }
        if (best < 0) return;
        held *h = &o->list[best].v[o->list[best].head++];
        print_report(best, h->text);
        free(h->text);
    }
}

static void heap_push(struct simt_order *o, long long b)
{
    if (o->nended == o->cap_ended) {
        o->cap_ended = o->cap_ended ? 2 * o->cap_ended : 64;
        o->ended = realloc(o->ended, o->cap_ended * sizeof *o->ended);
        PW_CHECK_ALLOC(o->ended, o->cap_ended * sizeof *o->ended);
    }
    size_t i = o->nended++;
    while (i && o->ended[(i - 1) / 2] > b) { o->ended[i] = o->ended[(i - 1) / 2]; i = (i - 1) / 2; }
    o->ended[i] = b;
}

static void heap_pop(struct simt_order *o)
{
    long long last = o->ended[--o->nended];
    size_t i = 0;
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= o->nended) break;
        if (k + 1 < o->nended && o->ended[k + 1] < o->ended[k]) k++;
        if (o->ended[k] >= last) break;
        o->ended[i] = o->ended[k];
        i = k;
    }
    if (o->nended) o->ended[i] = last;
}

/* ---- what the rest of the emulator calls ------------------------------------------------------- */

void simt_order_begin(launch *L)
{
    L->order = calloc(1, sizeof *L->order);
    PW_CHECK_ALLOC(L->order, sizeof *L->order);
    L->fail_block = NO_FAILURE;
}

void simt_order_block_start(worker *w, long long b)
{
    w->block_linear = b;
    w->report_seq = 0;
    running = w;
}

void simt_order_block_end(worker *w)
{
    struct simt_order *o = w->L->order;
    running = NULL;
    pthread_mutex_lock(&simt_state_lock);
    heap_push(o, w->block_linear);
    while (o->nended && o->ended[0] == o->low) {
        heap_pop(o);
        o->low++;
    }
    commit(o, o->low);
    pthread_mutex_unlock(&simt_state_lock);
}

/* A report (check: PW_CHECK_*): printed now, or held for its turn. */
void simt_emit(int check, const char *text)
{
    worker *w = running;
    pthread_mutex_lock(&simt_state_lock);
    if (!w || w->block_linear <= w->L->order->low) print_report(check_index(check), text);
    else hold(w->L->order, check_index(check), w->block_linear, w->report_seq++, text);
    pthread_mutex_unlock(&simt_state_lock);
}

/* An error of the running block: the launch's error if no lower block has
 * failed (a cooperative launch: if none has), printed in its turn. */
void simt_order_fail(worker *w, cudaError_t code, const char *text)
{
    launch *L = w->L;
    struct simt_order *o = L->order;
    long long b = w->block_linear;
    pthread_mutex_lock(&simt_state_lock);
    long long fb = L->fail_block;
    if (L->grid ? fb == NO_FAILURE : b < fb) {
        __atomic_store_n(&L->fail_block, b, __ATOMIC_RELEASE);
        __atomic_store_n(&L->failed, 1, __ATOMIC_RELEASE);
        o->fail_code = code;
        snprintf(o->fail_text, sizeof o->fail_text, "%s", text);
        if (b <= o->low) print_report(ERROR_INDEX, text);
        else hold(o, ERROR_INDEX, b, w->report_seq++, text);
    }
    pthread_mutex_unlock(&simt_state_lock);
}

/* Whether the running block must stop: it failed, or a block before it did
 * (a cooperative launch: any block did). */
bool simt_block_stopped(const worker *w)
{
    long long fb = __atomic_load_n(&w->L->fail_block, __ATOMIC_ACQUIRE);
    return w->L->grid ? fb != NO_FAILURE : w->block_linear >= fb;
}

/* The launch is over (every worker joined): what the blocks up to the
 * failed one held is printed, the rest dropped; the error is the launch's. */
void simt_order_end(launch *L)
{
    struct simt_order *o = L->order;
    pthread_mutex_lock(&simt_state_lock);
    commit(o, L->grid ? LLONG_MAX : L->fail_block);
    for (int c = 0; c < CHECKS; c++) {
        for (size_t i = o->list[c].head; i < o->list[c].n; i++) free(o->list[c].v[i].text);
        free(o->list[c].v);
    }
    if (L->fail_block != NO_FAILURE) {
        simt_last_error = o->fail_code;
        snprintf(simt_last_message, sizeof simt_last_message, "%s", o->fail_text);
    }
    pthread_mutex_unlock(&simt_state_lock);
    free(o->ended);
    free(o);
    L->order = NULL;
}
