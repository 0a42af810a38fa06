/* exercises/04-openmp/task_count.h: how the checkers of exercises 4.4 and
 * 4.5 count the tasks your code creates. You need not read it.
 *
 * Every `#pragma omp task` the compiler meets becomes a call into the
 * OpenMP runtime: GOMP_task() in gcc's libgomp (which also runs the task at
 * once when it is undeferred), __kmpc_omp_task_alloc() in LLVM's libomp
 * (clang; an undeferred task then also calls __kmpc_omp_task_begin_if0()).
 * A checker that includes this header defines those functions itself: the
 * executable's own definition wins over the library's for the calls your
 * object file makes, so each task construct reached lands here first, is
 * counted, and is passed on to the real one (dlsym(RTLD_NEXT, ...) finds
 * it). Nothing in your build changes, and the count does not depend on
 * timing: it is the number of task constructs your code reached.
 *
 * What counts: every task construct reached, deferred or not. An undeferred
 * task (an if() clause that is false) runs at once on the thread that
 * created it, but it is still a task, with its own data and bookkeeping:
 * it is counted, and counted again as undeferred. A task the runtime
 * chooses to run at once (libgomp does when more than 64 per thread are
 * waiting; tasks inside a final task) is counted as an ordinary task.
 *
 * Under ThreadSanitizer, tools/tsan_gomp.c (gcc) and tools/tsan_kmp.c
 * (clang) define GOMP_task and __kmpc_omp_task_alloc too, strong, to tell
 * TSan how tasks are ordered; theirs win over the weak ones here, and they
 * call pw_omp_task_created(), so the count is the same either way.
 *
 * Include it in one file of a program (the checker), after defining
 * _GNU_SOURCE (for RTLD_NEXT). */
#ifndef PW_EX_TASK_COUNT_H
#define PW_EX_TASK_COUNT_H

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_info.h"

#ifndef RTLD_NEXT
#error "define _GNU_SOURCE before the first #include, for RTLD_NEXT (dlfcn.h)"
#endif

#ifdef _OPENMP
#include <omp.h>
#endif

/* What the tasks created since pw_tasks_reset() were. */
typedef struct {
    long long created;         /* task constructs reached */
    long long undeferred;      /* of them with a false if() clause: run at once by their creator */
    int max_team;              /* the largest team a task was created in (1: outside any parallel region) */
    unsigned long long creators;   /* bit k: thread k of its team created at least one (k < 64) */
} pw_task_tally;

static atomic_llong pw_tasks_created_, pw_tasks_undeferred_;
static atomic_int pw_tasks_max_team_;
static atomic_ullong pw_tasks_creators_;

static inline void pw_tasks_reset(void)
{
    atomic_store(&pw_tasks_created_, 0);
    atomic_store(&pw_tasks_undeferred_, 0);
    atomic_store(&pw_tasks_max_team_, 0);
    atomic_store(&pw_tasks_creators_, 0);
}

static inline pw_task_tally pw_tasks_read(void)
{
    return (pw_task_tally){ atomic_load(&pw_tasks_created_), atomic_load(&pw_tasks_undeferred_),
                            atomic_load(&pw_tasks_max_team_), atomic_load(&pw_tasks_creators_) };
}

/* Called for every task construct reached, on the creating thread (also by
 * tools/tsan_gomp.c and tools/tsan_kmp.c, which declare it weak). */
void pw_omp_task_created(bool undeferred);
void pw_omp_task_created(bool undeferred)
{
    atomic_fetch_add(&pw_tasks_created_, 1);
    if (undeferred) atomic_fetch_add(&pw_tasks_undeferred_, 1);
    int team = 1;
#ifdef _OPENMP
    team = omp_get_num_threads();
#endif
    for (int seen = atomic_load(&pw_tasks_max_team_); team > seen;)
        if (atomic_compare_exchange_weak(&pw_tasks_max_team_, &seen, team)) break;
    int k = pw_omp_thread_num();
    if (k >= 0 && k < 64) atomic_fetch_or(&pw_tasks_creators_, 1ull << k);
}

static void *pw_tasks_real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "task_count.h: the OpenMP runtime has no %s\n", name);
        abort();
    }
    return f;
}

/* ---- gcc, libgomp -------------------------------------------------------------
 * The signature of GCC 11 and later (detach is new in 11: an older caller
 * leaves it unset, and its libgomp does not read it). */
typedef void (*pw_gomp_task_fn)(void (*)(void *), void *, void (*)(void *, void *), long, long, bool, unsigned,
                                void **, int, void *);
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size, long arg_align,
               bool if_clause, unsigned flags, void **depend, int priority, void *detach) __attribute__((weak));
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size, long arg_align,
               bool if_clause, unsigned flags, void **depend, int priority, void *detach)
{
    static pw_gomp_task_fn next;
    if (!next) *(void **)&next = pw_tasks_real("GOMP_task");
    pw_omp_task_created(!if_clause);
    next(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
}

/* ---- clang, libomp ------------------------------------------------------------ */
typedef struct ident ident_t;   /* libomp's source location: passed on, never read */
typedef int (*pw_kmp_routine)(int gtid, void *task);
void *__kmpc_omp_task_alloc(ident_t *loc, int gtid, int flags, size_t task_size, size_t shareds_size,
                            pw_kmp_routine routine) __attribute__((weak));
void *__kmpc_omp_task_alloc(ident_t *loc, int gtid, int flags, size_t task_size, size_t shareds_size,
                            pw_kmp_routine routine)
{
    static void *(*next)(ident_t *, int, int, size_t, size_t, pw_kmp_routine);
    if (!next) *(void **)&next = pw_tasks_real("__kmpc_omp_task_alloc");
    pw_omp_task_created(false);
    return next(loc, gtid, flags, task_size, shareds_size, routine);
}

/* An undeferred task: allocated (counted above), then run at once. */
void __kmpc_omp_task_begin_if0(ident_t *loc, int gtid, void *task);
void __kmpc_omp_task_begin_if0(ident_t *loc, int gtid, void *task)
{
    static void (*next)(ident_t *, int, void *);
    if (!next) *(void **)&next = pw_tasks_real("__kmpc_omp_task_begin_if0");
    atomic_fetch_add(&pw_tasks_undeferred_, 1);
    next(loc, gtid, task);
}

#endif
