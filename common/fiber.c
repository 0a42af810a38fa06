/* common/fiber.c: stacks with guard regions, the context switch, and the
 * sanitizer annotations that make switching stacks legal under ASan/TSan. */
#define _GNU_SOURCE
#include "fiber.h"
#include "errcheck.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__linux__)
#include <ucontext.h>     /* the faulting stack pointer, for the overflow report */
#endif

/* ---- which sanitizers are on ------------------------------------------------ */
#if defined(__SANITIZE_ADDRESS__)
#define PW_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define PW_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PW_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define PW_TSAN 1
#endif
#endif
#ifdef PW_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#endif
#ifdef PW_TSAN
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void *fiber);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
#endif

#if defined(__x86_64__) && !defined(PW_FIBER_UCONTEXT)
#define PW_ASM_SWITCH 1
#else
#include <ucontext.h>
#endif

struct pw_fiber {
#ifdef PW_ASM_SWITCH
    void *sp;                 /* saved stack pointer while not running */
#else
    ucontext_t ctx;
#endif
    pw_fiber_fn fn;
    void *arg;
    pw_fiber *caller;         /* who switched to us last: where we go when done */
    bool done;
    bool is_thread;           /* the OS thread's own context */
    char *map;                /* the mapping: guard (PW_FIBER_GUARD_BYTES) + stack */
    size_t map_bytes;
    const void *stack_bottom; /* for ASan: the usable stack */
    size_t stack_size;
    char who[64];             /* named in the stack-overflow line ("virtual cluster: rank 5") */
    const char *hint;         /* how to give it more stack (a string literal), or NULL */
#ifdef PW_ASAN
    void *fake_stack;         /* ASan's fake stack of this fiber while switched out */
#endif
#ifdef PW_TSAN
    void *tsan;               /* TSan's handle of this fiber */
#endif
};

static _Thread_local pw_fiber thread_fiber;
static _Thread_local bool thread_fiber_ready;
static _Thread_local pw_fiber *switching_from;   /* the fiber the last switch left */
static _Thread_local pw_fiber *running;          /* the fiber on this thread's CPU now; NULL: the thread's own */

pw_fiber *pw_fiber_self(void)
{
    if (!thread_fiber_ready) {
        memset(&thread_fiber, 0, sizeof thread_fiber);
        thread_fiber.is_thread = true;
#ifdef PW_TSAN
        thread_fiber.tsan = __tsan_get_current_fiber();
#endif
        thread_fiber_ready = true;
    }
    return &thread_fiber;
}

bool pw_fiber_done(const pw_fiber *f) { return f->done; }

/* ---- the switch ----------------------------------------------------------------
 * x86-64 System V: rbx, rbp, r12-r15 are the callee-saved registers, plus the
 * SSE control/status word (MXCSR) and the x87 control word, which code may
 * change (rounding modes) and expects to keep. Everything else is the
 * caller's to save, and the C compiler does it around the call. */
#ifdef PW_ASM_SWITCH
void pw_ctx_switch(void **save_sp, void *new_sp);
void pw_ctx_trampoline(void);
__asm__(
    ".text\n"
    ".p2align 4\n"
#if defined(__APPLE__)
    ".globl _pw_ctx_switch\n_pw_ctx_switch:\n"
#else
    ".globl pw_ctx_switch\n.type pw_ctx_switch,@function\npw_ctx_switch:\n"
#endif
    "    pushq %rbp\n    pushq %rbx\n    pushq %r12\n    pushq %r13\n    pushq %r14\n    pushq %r15\n"
    "    subq $8, %rsp\n"
    "    stmxcsr (%rsp)\n    fnstcw 4(%rsp)\n"
    "    movq %rsp, (%rdi)\n"          /* save our stack pointer */
    "    movq %rsi, %rsp\n"            /* and take theirs */
    "    ldmxcsr (%rsp)\n    fldcw 4(%rsp)\n"
    "    addq $8, %rsp\n"
    "    popq %r15\n    popq %r14\n    popq %r13\n    popq %r12\n    popq %rbx\n    popq %rbp\n"
    "    ret\n"
#if !defined(__APPLE__)
    ".size pw_ctx_switch, .-pw_ctx_switch\n"
#endif
    /* A new fiber "returns" here: r12 holds its pw_fiber, r13 the entry. */
#if defined(__APPLE__)
    ".globl _pw_ctx_trampoline\n_pw_ctx_trampoline:\n"
#else
    ".globl pw_ctx_trampoline\n.type pw_ctx_trampoline,@function\npw_ctx_trampoline:\n"
#endif
    "    movq %r12, %rdi\n"
    "    callq *%r13\n"
    "    ud2\n"                        /* the entry never returns */
);
#endif

static void fiber_entry(pw_fiber *f);

#ifndef PW_ASM_SWITCH
/* makecontext passes int arguments only: split the pointer in two. */
static void ucontext_entry(unsigned hi, unsigned lo)
{
    fiber_entry((pw_fiber *)(((uintptr_t)hi << 32) | (uintptr_t)lo));
}
#endif

/* Tell the sanitizers we are about to leave `from` for `to`... */
static void before_switch(pw_fiber *from, pw_fiber *to)
{
    switching_from = from;
#ifdef PW_ASAN
    /* A fiber that is done will never run again: pass NULL so ASan frees its fake stack. */
    __sanitizer_start_switch_fiber(from->done ? NULL : &from->fake_stack, to->stack_bottom, to->stack_size);
#endif
#ifdef PW_TSAN
    __tsan_switch_to_fiber(to->tsan, 0);
#endif
    (void)from; (void)to;
}

/* ...and that we have arrived back in `self`. */
static void after_switch(pw_fiber *self)
{
#ifdef PW_ASAN
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(self->fake_stack, &bottom, &size);
    /* ASan hands back the bounds of the stack we came FROM: that is how the
     * OS thread's own stack, which we did not allocate, gets known, the first
     * time the thread switches into a fiber. */
    pw_fiber *from = switching_from;
    if (from && from->is_thread && from->stack_size == 0) { from->stack_bottom = bottom; from->stack_size = size; }
#endif
    (void)self;
}

static void raw_switch(pw_fiber *from, pw_fiber *to)
{
#ifdef PW_ASM_SWITCH
    pw_ctx_switch(&from->sp, to->sp);
#else
    if (swapcontext(&from->ctx, &to->ctx) != 0) {
        perror("swapcontext");
        abort();
    }
#endif
}

/* The frame pw_ctx_switch pops and the caller's frame above it: the first
 * loads after a switch, which miss the cache when the stack has gone cold
 * (perf puts them on ldmxcsr, the first instruction to read the new stack). */
void pw_fiber_prefetch(const pw_fiber *f)
{
#ifdef PW_ASM_SWITCH
    const char *sp = (const char *)f->sp;
    if (!sp) return;
    __builtin_prefetch(sp);
    __builtin_prefetch(sp + 64);
    __builtin_prefetch(sp + 128);
#else
    (void)f;
#endif
}

void pw_fiber_switch(pw_fiber *from, pw_fiber *to)
{
    if (to->done) {
        fprintf(stderr, "pw_fiber_switch: switching to a fiber that is done\n");
        abort();
    }
    if (!to->is_thread) to->caller = from;
    before_switch(from, to);
    running = to->is_thread ? NULL : to;
    raw_switch(from, to);
    running = from->is_thread ? NULL : from;
    after_switch(from);
}

static void fiber_entry(pw_fiber *f)
{
    after_switch(f);
    f->fn(f->arg);
    f->done = true;
    pw_fiber *back = f->caller;
    before_switch(f, back);
    running = back->is_thread ? NULL : back;
    raw_switch(f, back);
    abort();                               /* a done fiber is never resumed */
}

/* ---- stack overflow: one line instead of a bare SIGSEGV -------------------------
 * A fiber that runs off its stack touches the guard below it (or, with a
 * frame bigger than the guard, its stack pointer is already below the stack).
 * The kernel then raises SIGSEGV, and a signal handler cannot run on the
 * stack that overflowed: every OS thread that runs fibers gets an alternate
 * signal stack (sigaltstack). The handler checks the fault against the fiber
 * running on this thread; if it is that fiber's overflow it writes one line
 * (who, the stack size, the hint) and lets the fault kill the process as
 * before (exit status 139); any other fault goes to the handler that was
 * there before (the default, or ASan's, which reports it). */

#define ALT_STACK_BYTES (64u << 10)

static struct sigaction old_segv, old_bus;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static pthread_key_t altstack_key;
static _Thread_local bool altstack_ready;

/* async-signal-safe: write(2) and hand-made digits, nothing else */
static size_t put_str(char *buf, size_t at, size_t cap, const char *s)
{
    while (s && *s && at + 1 < cap) buf[at++] = *s++;
    return at;
}

static size_t put_uint(char *buf, size_t at, size_t cap, size_t v)
{
    char d[24];
    int n = 0;
    do { d[n++] = (char)('0' + v % 10); v /= 10; } while (v && n < 24);
    while (n && at + 1 < cap) buf[at++] = d[--n];
    return at;
}

static uintptr_t fault_sp(void *uctx)
{
#if defined(__linux__) && defined(__x86_64__)
    return (uintptr_t)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RSP];
#elif defined(__linux__) && defined(__aarch64__)
    return (uintptr_t)((ucontext_t *)uctx)->uc_mcontext.sp;
#else
    (void)uctx;
    return UINTPTR_MAX;               /* unknown: only the guard itself counts */
#endif
}

/* The overflow line: "<who>: stack overflow: it ran past the end of its
 * 64 KiB stack (<hint>)", with write(2) only (it runs in a signal handler). */
static void write_overflow_line(const pw_fiber *f)
{
    char line[320];
    size_t n = put_str(line, 0, sizeof line, f->who[0] ? f->who : "a fiber");
    n = put_str(line, n, sizeof line, ": stack overflow: it ran past the end of its ");
    n = put_uint(line, n, sizeof line, f->stack_size >> 10);
    n = put_str(line, n, sizeof line, " KiB stack (");
    n = put_str(line, n, sizeof line, f->hint ? f->hint : "big local arrays belong on the heap");
    n = put_str(line, n, sizeof line, ")\n");
    ssize_t w = write(2, line, n);
    (void)w;
}

static void on_fault(int sig, siginfo_t *si, void *uctx)
{
    pw_fiber *f = running;
    if (f && f->map) {
        uintptr_t a = (uintptr_t)si->si_addr, sp = fault_sp(uctx);
        uintptr_t guard = (uintptr_t)f->map, bottom = (uintptr_t)f->stack_bottom;
        bool in_guard = a >= guard && a < bottom;
        bool sp_below = sp < bottom && bottom - sp < ((uintptr_t)1 << 30);
        if (in_guard || sp_below) {
            write_overflow_line(f);
            signal(sig, SIG_DFL);         /* returning re-runs the access: the process dies of it as before */
            return;
        }
    }
    const struct sigaction *old = sig == SIGBUS ? &old_bus : &old_segv;
    if (old->sa_flags & SA_SIGINFO) old->sa_sigaction(sig, si, uctx);
    else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) old->sa_handler(sig);
    else signal(sig, SIG_DFL);
}

/* A frame bigger than stack and guard together lands past both, on memory
 * that is mapped (another fiber's stack, the heap): nothing faults. Its
 * stack pointer is below its stack, though, so a library that the fiber
 * calls (the cluster's pw_send, pw_recv, pw_compute) can look, and stop the
 * process the way the fault would, naming this fiber and not whichever runs
 * later into unmapped memory. */
void pw_fiber_check_stack(void)
{
    const pw_fiber *f = running;
    if (!f || !f->map) return;
    /* The frame address, not a local's: under ASan a local may live on its
     * fake stack, on the heap. */
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (here >= (uintptr_t)f->stack_bottom) return;
    write_overflow_line(f);
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);                       /* status 139, as the fault gives */
    abort();
}

static void free_altstack(void *mem)
{
    stack_t off = { .ss_flags = SS_DISABLE };
    sigaltstack(&off, NULL);
    munmap(mem, ALT_STACK_BYTES);
}

static void install_handler(void)
{
    pthread_key_create(&altstack_key, free_altstack);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
}

/* The handler (once per process) and an alternate signal stack (once per
 * thread, unless one is there already: ASan sets its own). */
static void prepare_overflow_report(void)
{
    if (altstack_ready) return;
    altstack_ready = true;
    pthread_once(&handler_once, install_handler);
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE)) return;
    void *mem = mmap(NULL, ALT_STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return;    /* no report, the fault still stops the process */
    stack_t ss = { .ss_sp = mem, .ss_size = ALT_STACK_BYTES, .ss_flags = 0 };
    if (sigaltstack(&ss, NULL) != 0) { munmap(mem, ALT_STACK_BYTES); return; }
    pthread_setspecific(altstack_key, mem);   /* unmapped when the thread exits */
}

void pw_fiber_set_label(pw_fiber *f, const char *who, const char *hint)
{
    snprintf(f->who, sizeof f->who, "%s", who ? who : "");
    f->hint = hint;
}

size_t pw_fiber_stack_size(const pw_fiber *f) { return f->stack_size; }
const void *pw_fiber_stack_bottom(const pw_fiber *f) { return f->stack_bottom; }

size_t pw_fiber_default_stack(void)
{
#ifdef PW_ASAN
    return 256u << 10;
#else
    return 64u << 10;
#endif
}

/* ---- how many fibers fit: vm.max_map_count ------------------------------------
 * Linux caps the memory mappings of a process (vm.max_map_count, 65530 by
 * default). A fiber's stack with its guard is two: the two protections
 * split one mmap in two, whatever the guard's size. */

static long read_long_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long v = -1;
    if (fscanf(f, "%ld", &v) != 1) v = -1;
    fclose(f);
    return v;
}

long pw_fiber_map_limit(void) { return read_long_file("/proc/sys/vm/max_map_count"); }

long pw_fiber_maps_in_use(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    long n = 0;
    int ch;
    while ((ch = getc(f)) != EOF) n += ch == '\n';
    fclose(f);
    return n;
}

long pw_fiber_room(void)
{
    long limit = pw_fiber_map_limit(), used = pw_fiber_maps_in_use();
    if (limit < 0 || used < 0) return -1;
    /* PW_FIBER_MAP_HEADROOM: mappings left for everything else (malloc
     * puts each large block in a mapping of its own). */
    long room = (limit - used - PW_FIBER_MAP_HEADROOM) / PW_FIBER_MAPS_EACH;
    return room > 0 ? room : 0;
}

/* ---- creating and destroying ------------------------------------------------ */

pw_fiber *pw_fiber_create(pw_fiber_fn fn, void *arg, size_t stack_bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t stack = pw_ceil_div(stack_bytes ? stack_bytes : pw_fiber_default_stack(), page) * page;
    prepare_overflow_report();
    pw_fiber *f = calloc(1, sizeof *f);
    PW_CHECK_ALLOC(f, sizeof *f);
    f->fn = fn;
    f->arg = arg;
    size_t guard = pw_ceil_div(PW_FIBER_GUARD_BYTES, page) * page;
    f->map_bytes = stack + guard;
    /* All of it inaccessible, then the stack above the guard made usable: the
     * guard is address space only (Linux charges no memory for a private
     * mapping that cannot be written), so it can be far bigger than a page. */
    f->map = mmap(NULL, f->map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (f->map == MAP_FAILED) {
        free(f);
        f = NULL;
        PW_CHECK_ALLOC(f, stack);          /* reports and exits */
    }
    /* The lowest PW_FIBER_GUARD_BYTES are the guard: stacks grow down into it on overflow. */
    if (mprotect(f->map + guard, stack, PROT_READ | PROT_WRITE) != 0) {
        int e = errno;
        fprintf(stderr, "pw_fiber_create: cannot split a fiber's stack from its guard (%s): this process has %ld memory "
                "mappings and vm.max_map_count is %ld, each fiber takes %d; fewer fibers, or raise the limit "
                "(sysctl vm.max_map_count)\n", strerror(e), pw_fiber_maps_in_use(), pw_fiber_map_limit(), PW_FIBER_MAPS_EACH);
        exit(2);
    }
    f->stack_bottom = f->map + guard;
    f->stack_size = stack;
#ifdef PW_ASAN
    /* A new mapping may sit where an old fiber's stack was, whose frames ASan
     * marked as red zones: start clean. */
    __asan_unpoison_memory_region(f->stack_bottom, stack);
#endif
#ifdef PW_TSAN
    f->tsan = __tsan_create_fiber(0);
#endif
#ifdef PW_ASM_SWITCH
    /* The frame pw_ctx_switch pops: control words, r15, r14, r13 (entry),
     * r12 (fiber), rbx, rbp, then the return address (the trampoline). After
     * the ret, rsp = top, 16-byte aligned, as the trampoline's call needs. */
    uintptr_t top = ((uintptr_t)f->map + f->map_bytes) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)top - 8;
    uint32_t mxcsr;
    uint16_t fpucw;
    __asm__ volatile("stmxcsr %0; fnstcw %1" : "=m"(mxcsr), "=m"(fpucw));
    sp[0] = (uint64_t)mxcsr | ((uint64_t)fpucw << 32);
    sp[1] = 0;                              /* r15 */
    sp[2] = 0;                              /* r14 */
    sp[3] = (uint64_t)(uintptr_t)fiber_entry;   /* r13 */
    sp[4] = (uint64_t)(uintptr_t)f;        /* r12 */
    sp[5] = 0;                              /* rbx */
    sp[6] = 0;                              /* rbp */
    sp[7] = (uint64_t)(uintptr_t)pw_ctx_trampoline;
    f->sp = sp;
#else
    if (getcontext(&f->ctx) != 0) { perror("getcontext"); abort(); }
    f->ctx.uc_stack.ss_sp = (void *)f->stack_bottom;
    f->ctx.uc_stack.ss_size = stack;
    f->ctx.uc_link = NULL;
    uintptr_t p = (uintptr_t)f;
    makecontext(&f->ctx, (void (*)(void))ucontext_entry, 2, (unsigned)(p >> 32), (unsigned)(p & 0xffffffffu));
#endif
    return f;
}

void pw_fiber_destroy(pw_fiber *f)
{
    if (!f || f->is_thread) return;
#ifdef PW_TSAN
    __tsan_destroy_fiber(f->tsan);
#endif
#ifdef PW_ASAN
    __asan_unpoison_memory_region(f->stack_bottom, f->stack_size);
#endif
    munmap(f->map, f->map_bytes);
    free(f);
}

const char *pw_fiber_backend(void)
{
#ifdef PW_ASM_SWITCH
    return "asm";
#else
    return "ucontext";
#endif
}
