/* tools/tsan_gomp.c: lets ThreadSanitizer see GCC's OpenMP runtime.
 *
 * libgomp is not built with ThreadSanitizer, so TSan does not see its
 * barriers and locks, and reports races that are not there (a correct
 * reduction(+:s) combines under GOMP_atomic_start, which TSan cannot see).
 * tools/ex_build.sh links this file into the checkers of the OpenMP
 * exercises when they are built with gcc under TSan: it defines the few
 * libgomp entry points a parallel loop calls, tells TSan what each one
 * orders (the start of a region after the code before it, the code after
 * it after every thread's part, a barrier), and calls the real one. LLVM's
 * libomp has the same help built in (libarcher, an OpenMP tool), used
 * under clang instead.
 *
 * The executable's own definitions win over libgomp's for the calls the
 * learner's object file makes; dlsym(RTLD_NEXT) finds the real ones.
 *
 * Tasks (exercises 4.4 and 4.5): each task is wrapped, so that it starts
 * ordered after the code that created it and its end is ordered before a
 * taskwait, a taskgroup's end, a barrier and the end of the region. A
 * checker that counts the tasks it is given (exercises/04-openmp/
 * task_count.h) defines GOMP_task too, weak: this strong one wins, and
 * calls the checker's counter, pw_omp_task_created(), where there is one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ThreadSanitizer's annotation interface (sanitizer/tsan_interface.h). */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

static char fork_token, join_token, barrier_token;
static char task_done_token;   /* released at the end of every task */
static pthread_mutex_t atomic_lock = PTHREAD_MUTEX_INITIALIZER;   /* TSan sees pthread mutexes */
static pthread_mutex_t critical_lock = PTHREAD_MUTEX_INITIALIZER;

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "tools/tsan_gomp.c: the OpenMP runtime has no %s\n", name);
        abort();
    }
    return f;
}

typedef void (*region_fn)(void *);
typedef struct { region_fn fn; void *data; } region;

/* Every thread of the team: ordered after the code before the region, and
 * the code after it ordered after this thread's part. */
static void run_region(void *p)
{
    region *r = p;
    __tsan_acquire(&fork_token);
    r->fn(r->data);
    __tsan_release(&join_token);
}

void GOMP_parallel(region_fn fn, void *data, unsigned num_threads, unsigned flags);
void GOMP_parallel(region_fn fn, void *data, unsigned num_threads, unsigned flags)
{
    static void (*next)(region_fn, void *, unsigned, unsigned);
    if (!next) *(void **)&next = real("GOMP_parallel");
    region r = { fn, data };
    __tsan_release(&fork_token);
    next(run_region, &r, num_threads, flags);
    __tsan_acquire(&join_token);
    __tsan_acquire(&task_done_token);   /* tasks the team ran at the region's closing barrier */
}

void GOMP_barrier(void);
void GOMP_barrier(void)
{
    static void (*next)(void);
    if (!next) *(void **)&next = real("GOMP_barrier");
    __tsan_release(&barrier_token);
    next();
    __tsan_acquire(&barrier_token);
    __tsan_acquire(&task_done_token);   /* a barrier also waits for the team's tasks */
}

/* reduction and `omp atomic` on types without a lock-free instruction, and
 * `omp critical`: one lock, as libgomp has (a plain mutex TSan understands). */
void GOMP_atomic_start(void);
void GOMP_atomic_end(void);
void GOMP_critical_start(void);
void GOMP_critical_end(void);
void GOMP_atomic_start(void) { pthread_mutex_lock(&atomic_lock); }
void GOMP_atomic_end(void) { pthread_mutex_unlock(&atomic_lock); }
void GOMP_critical_start(void) { pthread_mutex_lock(&critical_lock); }
void GOMP_critical_end(void) { pthread_mutex_unlock(&critical_lock); }

/* `omp critical(name)`: all names share one recursive lock here (nested
 * criticals of different names still work; they only wait more). */
static pthread_mutex_t named_lock;
static pthread_once_t named_once = PTHREAD_ONCE_INIT;
static void named_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&named_lock, &a);
    pthread_mutexattr_destroy(&a);
}
void GOMP_critical_name_start(void **name);
void GOMP_critical_name_end(void **name);
void GOMP_critical_name_start(void **name) { (void)name; pthread_once(&named_once, named_init); pthread_mutex_lock(&named_lock); }
void GOMP_critical_name_end(void **name) { (void)name; pthread_mutex_unlock(&named_lock); }

/* ---- tasks ------------------------------------------------------------------
 * GOMP_task(fn, data, ...) copies arg_size bytes of data (the task's
 * firstprivate values and pointers to its shared ones) and runs fn on the
 * copy, now or later, on any thread of the team. Here the copy starts with
 * a header: the real fn, and a token of this task alone, released by the
 * creating thread just before and acquired by the task as it starts. One
 * token per task (malloc'd, freed by the task): a token shared by all the
 * tasks a thread creates would order a late task after everything its
 * creator did before the last creation, and hide the race of a pointer the
 * task should have copied (list_tasks without firstprivate(p)). libgomp's
 * own copy of the block is not seen by TSan (ignore_noninstrumented_modules),
 * so reusing its memory for the next task reports nothing. */
typedef struct {
    void (*fn)(void *);
    char *token;
    long offset;   /* where the compiler's block starts, after this header */
} task_head;

void pw_omp_task_created(bool undeferred) __attribute__((weak));

static void run_task(void *block)
{
    task_head *h = block;
    __tsan_acquire(h->token);
    h->fn((char *)block + h->offset);
    free(h->token);
    __tsan_release(&task_done_token);
}

/* The signature of GCC 11 and later (detach is new in 11; an older caller
 * leaves it unset, and its libgomp does not read it). */
typedef void (*gomp_task_fn)(void (*)(void *), void *, void (*)(void *, void *), long, long, bool, unsigned,
                             void **, int, void *);
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size, long arg_align,
               bool if_clause, unsigned flags, void **depend, int priority, void *detach);
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size, long arg_align,
               bool if_clause, unsigned flags, void **depend, int priority, void *detach)
{
    static gomp_task_fn next;
    if (!next) *(void **)&next = real("GOMP_task");
    if (pw_omp_task_created) pw_omp_task_created(!if_clause);
    if (cpyfn) {   /* the compiler's own copy function (a VLA or C++ object firstprivate): left unwrapped */
        next(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
        return;
    }
    long align = arg_align > (long)_Alignof(task_head) ? arg_align : (long)_Alignof(task_head);
    long offset = ((long)sizeof(task_head) + align - 1) / align * align;
    char raw[offset + arg_size + align];
    char *block = (char *)(((uintptr_t)raw + (uintptr_t)align - 1) / (uintptr_t)align * (uintptr_t)align);
    task_head *h = (task_head *)block;
    h->fn = fn;
    h->offset = offset;
    h->token = malloc(1);
    if (!h->token) abort();
    memcpy(block + offset, data, (size_t)arg_size);
    __tsan_release(h->token);
    next(run_task, block, NULL, offset + arg_size, align, if_clause, flags, depend, priority, detach);
}

void GOMP_taskwait(void);
void GOMP_taskwait(void)
{
    static void (*next)(void);
    if (!next) *(void **)&next = real("GOMP_taskwait");
    next();
    __tsan_acquire(&task_done_token);
}

void GOMP_taskgroup_end(void);
void GOMP_taskgroup_end(void)
{
    static void (*next)(void);
    if (!next) *(void **)&next = real("GOMP_taskgroup_end");
    next();
    __tsan_acquire(&task_done_token);
}
