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
 * learner's object file makes; dlsym(RTLD_NEXT) finds the real ones. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* ThreadSanitizer's annotation interface (sanitizer/tsan_interface.h). */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

static char fork_token, join_token, barrier_token;
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
}

void GOMP_barrier(void);
void GOMP_barrier(void)
{
    static void (*next)(void);
    if (!next) *(void **)&next = real("GOMP_barrier");
    __tsan_release(&barrier_token);
    next();
    __tsan_acquire(&barrier_token);
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
