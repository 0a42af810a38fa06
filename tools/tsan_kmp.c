/* tools/tsan_kmp.c: what LLVM's libarcher leaves out for OpenMP tasks under
 * ThreadSanitizer (clang, libomp).
 *
 * libarcher tells TSan how libomp orders tasks, but not that libomp reuses
 * a finished task's memory for the next one (its own allocator, no free()
 * TSan could see). So the creator's write of a new task's firstprivate
 * values, into memory another thread's task read a moment ago, was reported
 * as a race: a correct list walk with firstprivate(p), 3 of 6 runs here
 * (clang 14, 1000 tasks on 3 threads). tools/ex_build.sh links this file
 * into the OpenMP exercises' checkers when clang builds them under TSan:
 * every task's routine is wrapped so that its end releases a token, and the
 * thread that allocates a task acquires it, so the new task's memory is
 * written after every finished task's last use of it. The cost: TSan also
 * takes the creating thread's later accesses to be ordered after every task
 * that had finished, so a race between a finished task and what its creator
 * does after the next task construct goes unseen under clang (gcc's
 * tools/tsan_gomp.c has no such token; the 4.4 and 4.5 checkers also judge
 * the results and the task counts, which need no TSan).
 *
 * A checker that counts the tasks it is given (exercises/04-openmp/
 * task_count.h) defines __kmpc_omp_task_alloc too, weak: this strong one
 * wins, and calls the checker's counter, pw_omp_task_created(), where there
 * is one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* ThreadSanitizer's annotation interface (sanitizer/tsan_interface.h). */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

void pw_omp_task_created(bool undeferred) __attribute__((weak));

static char task_done_token;

/* A task's routine, as libomp calls it: (global thread id, the task). */
typedef int (*kmp_routine)(int gtid, void *task);

/* The wrapper must find the real routine with no room of its own in the
 * task: one wrapper per routine (one per task construct of the program),
 * from a small table. A program with more task constructs than this keeps
 * the rest unwrapped (and may see the false report above for them). */
enum { ROUTINES = 8 };
static _Atomic(kmp_routine) routine_of[ROUTINES];

#define WRAPPER(i)                                                   \
    static int wrapped##i(int gtid, void *task)                      \
    {                                                                \
        int r = atomic_load(&routine_of[i])(gtid, task);             \
        __tsan_release(&task_done_token);                            \
        return r;                                                    \
    }
WRAPPER(0) WRAPPER(1) WRAPPER(2) WRAPPER(3) WRAPPER(4) WRAPPER(5) WRAPPER(6) WRAPPER(7)
static const kmp_routine wrappers[ROUTINES] = { wrapped0, wrapped1, wrapped2, wrapped3,
                                                wrapped4, wrapped5, wrapped6, wrapped7 };

static kmp_routine wrapper_for(kmp_routine routine)
{
    for (int i = 0; i < ROUTINES; i++) {
        kmp_routine seen = atomic_load(&routine_of[i]);
        if (!seen && (atomic_compare_exchange_strong(&routine_of[i], &seen, routine) || seen == routine))
            return wrappers[i];
        if (seen == routine) return wrappers[i];
    }
    return routine;
}

typedef struct ident ident_t;   /* libomp's source location: passed on, never read */
void *__kmpc_omp_task_alloc(ident_t *loc, int gtid, int flags, size_t task_size, size_t shareds_size,
                            kmp_routine routine);
void *__kmpc_omp_task_alloc(ident_t *loc, int gtid, int flags, size_t task_size, size_t shareds_size,
                            kmp_routine routine)
{
    static void *(*next)(ident_t *, int, int, size_t, size_t, kmp_routine);
    if (!next) {
        *(void **)&next = dlsym(RTLD_NEXT, "__kmpc_omp_task_alloc");
        if (!next) {
            fprintf(stderr, "tools/tsan_kmp.c: the OpenMP runtime has no __kmpc_omp_task_alloc\n");
            abort();
        }
    }
    if (pw_omp_task_created) pw_omp_task_created(false);
    void *task = next(loc, gtid, flags, task_size, shareds_size, wrapper_for(routine));
    __tsan_acquire(&task_done_token);
    return task;
}
