/* common/fiber.c: stacks with guard pages, the context switch, and the
 * sanitizer annotations that make switching stacks legal under ASan/TSan. */
#define _GNU_SOURCE
#include "fiber.h"
#include "errcheck.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
    char *map;                /* the mapping: guard page + stack */
    size_t map_bytes;
    const void *stack_bottom; /* for ASan: the usable stack */
    size_t stack_size;
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

void pw_fiber_switch(pw_fiber *from, pw_fiber *to)
{
    if (to->done) {
        fprintf(stderr, "pw_fiber_switch: switching to a fiber that is done\n");
        abort();
    }
    if (!to->is_thread) to->caller = from;
    before_switch(from, to);
    raw_switch(from, to);
    after_switch(from);
}

static void fiber_entry(pw_fiber *f)
{
    after_switch(f);
    f->fn(f->arg);
    f->done = true;
    pw_fiber *back = f->caller;
    before_switch(f, back);
    raw_switch(f, back);
    abort();                               /* a done fiber is never resumed */
}

/* ---- creating and destroying ------------------------------------------------ */

pw_fiber *pw_fiber_create(pw_fiber_fn fn, void *arg, size_t stack_bytes)
{
#ifdef PW_ASAN
    size_t dflt = 256u << 10;
#else
    size_t dflt = 64u << 10;
#endif
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t stack = pw_ceil_div(stack_bytes ? stack_bytes : dflt, page) * page;
    pw_fiber *f = calloc(1, sizeof *f);
    PW_CHECK_ALLOC(f, sizeof *f);
    f->fn = fn;
    f->arg = arg;
    f->map_bytes = stack + page;
    f->map = mmap(NULL, f->map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (f->map == MAP_FAILED) {
        free(f);
        f = NULL;
        PW_CHECK_ALLOC(f, stack);          /* reports and exits */
    }
    /* The lowest page is the guard: stacks grow down into it on overflow. */
    if (mprotect(f->map, page, PROT_NONE) != 0) perror("mprotect (fiber guard page)");
    f->stack_bottom = f->map + page;
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
