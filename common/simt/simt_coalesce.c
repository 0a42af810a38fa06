/* common/simt/simt_coalesce.c: which lanes of a warp are "coalesced" at a
 * call of cooperative_groups::coalesced_threads().
 *
 * On a GPU it is __activemask(): the lanes executing this instruction
 * together, which after a branch are those that took the same side (Volta
 * and later promise no more: any subset of them is allowed). The emulator
 * runs a warp's lanes one at a time, so it finds them by a meeting: a lane
 * that calls coalesced_threads() at a source line says it is there and
 * gives way for one round of the scheduler, in which every other runnable
 * lane runs until it blocks; those on the same path reach the same call
 * and say so too. The first to run again takes everyone that arrived as
 * the group and hands each member the same mask. A lane on the other side
 * of the branch is not there, so it is not in the group, and the group's
 * shuffles and votes then involve exactly its members, as on a GPU.
 * A lane that arrives a round later (it was preempted on the way) forms a
 * group of its own, which CUDA allows.
 *
 * The state is the worker's (one OS thread runs one block at a time, its
 * fibers one at a time, and nothing here is interrupted by them), so no
 * kernel-visible memory is used and nothing is counted or checked. */
#define _GNU_SOURCE
#include "simt_state.h"

enum { SITES = 8 };   /* distinct call sites waiting at once in one warp: a few (if/else branches) */

typedef struct {
    const char *file;
    int line;
    unsigned arrived;             /* lanes that said they are here, not yet grouped */
} site_wait;

typedef struct {
    const worker *w;
    uint32_t serial;              /* the block (of worker w) this state is about */
    site_wait sites[SITES];
    unsigned mailbox[32];         /* per lane: the group a closing lane handed it (0: none yet) */
} warp_wait;

static _Thread_local warp_wait simt_coalesce_state[MAX_WARPS];

unsigned pw_simt_coalesced_lanes(const char *file, int line);

unsigned pw_simt_coalesced_lanes(const char *file, int line)
{
    pw_simt_thread *t = simt_cur;
    if (!t) {
        fprintf(stderr, "simt: coalesced_threads() at %s:%d outside a kernel\n", file, line);
        abort();
    }
    worker *w = t->w;
    unsigned me = 1u << t->lane;
    if (pw_simt_activemask() == me) return me;   /* alone in the warp */
    warp_wait *ww = &simt_coalesce_state[t->warp];
    if (ww->w != w || ww->serial != w->serial) {   /* a new block: nobody waits */
        memset(ww, 0, sizeof *ww);
        ww->w = w;
        ww->serial = w->serial;
    }
    site_wait *s = NULL;
    for (int i = 0; i < SITES && !s; i++)
        if (ww->sites[i].arrived && ww->sites[i].line == line && !strcmp(ww->sites[i].file, file)) s = &ww->sites[i];
    for (int i = 0; i < SITES && !s; i++)
        if (!ww->sites[i].arrived) s = &ww->sites[i];
    if (!s) return me;   /* more sites waiting than kept: a group of one, which CUDA allows */
    s->file = file;
    s->line = line;
    s->arrived |= me;
    ww->mailbox[t->lane] = 0;
    pw_simt_yield();     /* one round: the lanes on this path arrive */
    if (ww->mailbox[t->lane]) {
        unsigned m = ww->mailbox[t->lane];
        ww->mailbox[t->lane] = 0;
        return m;
    }
    unsigned m = s->arrived;   /* I am the first back: the group is who came */
    s->arrived = 0;
    for (int l = 0; l < 32; l++)
        if ((m >> l & 1u) && l != t->lane) ww->mailbox[l] = m;
    return m ? m : me;
}
