/* common/fiber.h: fibers, cheap cooperative threads, for the SIMT emulator
 * (the threads of a block) and the virtual cluster (the ranks).
 *
 * A fiber has its own stack and runs until it switches to another fiber
 * explicitly; nothing preempts it. A switch saves the callee-saved registers
 * and swaps stack pointers: about 10 ns on x86-64, with no system call
 * (swapcontext makes one per switch to save the signal mask, which caps it
 * near a million switches per second).
 *
 *   pw_fiber *me = pw_fiber_self();                 // this OS thread, as a fiber
 *   pw_fiber *f = pw_fiber_create(work, arg, 0);    // 0: default stack size
 *   pw_fiber_switch(me, f);                         // runs work(arg) until it switches back
 *   ...
 *   if (pw_fiber_done(f)) pw_fiber_destroy(f);
 *
 * When work() returns, the fiber is done and control goes back to the fiber
 * that last switched to it. Rules: a fiber belongs to the OS thread that
 * created it and must never be resumed from another (its stack may hold
 * thread-local addresses, and sanitizers track stacks per thread).
 *
 * Stacks: 64 KiB unless the creator asks for another size (256 KiB under
 * AddressSanitizer, whose red zones make frames bigger), with a guard of
 * PW_FIBER_GUARD_BYTES below: an overflow faults instead of corrupting a
 * neighbour, and the fault is reported in one line naming the fiber
 * (pw_fiber_set_label) and its stack size, from an alternate signal stack,
 * before the process dies of it (status 139 as before). The guard is 1 MiB
 * of address space (no memory): a compiler sets up a function's frame in one
 * step, so a 160 KiB array on a 64 KiB stack moves the stack pointer 96 KiB
 * below it at once; a one-page guard would be jumped over, and the writes
 * would land on the next fiber's stack without a fault. A frame bigger than
 * stack and guard can still jump past: compilers that probe the stack
 * page by page (-fstack-clash-protection, which the workbook's build turns
 * on) hit the guard first, and pw_fiber_check_stack() catches the rest when
 * the fiber next calls a library that checks (the virtual cluster does).
 * Works under ASan and TSan (the switches are announced to them).
 *
 * Limits: each fiber takes two memory mappings (the stack and its guard),
 * and Linux caps a process at vm.max_map_count of them (65530 by default):
 * about 32 000 fibers at once. pw_fiber_room() says how many more fit now.
 *
 * Portability: hand-written switch on x86-64 (System V: Linux, macOS, BSD);
 * ucontext elsewhere (correct, slower).
 */
#ifndef PW_FIBER_H
#define PW_FIBER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct pw_fiber pw_fiber;
typedef void (*pw_fiber_fn)(void *arg);

/* The calling OS thread's own context as a fiber (one per thread, made on
 * first use): the fiber to switch back to. Never destroy it. */
pw_fiber *pw_fiber_self(void);

/* A new fiber that will run fn(arg) on a stack of stack_bytes, rounded up to
 * whole pages (0: pw_fiber_default_stack()). If the guard cannot be made
 * (too many mappings) it says so in one line and exits with status 2. */
pw_fiber *pw_fiber_create(pw_fiber_fn fn, void *arg, size_t stack_bytes);

/* 64 KiB, or 256 KiB under AddressSanitizer. */
size_t pw_fiber_default_stack(void);

/* The usable stack of f, in bytes: at least what was asked for, in whole
 * pages, and less than a page more (the top is moved per fiber, so that
 * the stacks do not all compete for the same cache sets: fiber.c). */
size_t pw_fiber_stack_size(const pw_fiber *f);
/* The lowest address of f's usable stack (its top is that plus the size). */
const void *pw_fiber_stack_bottom(const pw_fiber *f);

/* Inaccessible address space below every fiber's stack: 1 MiB holds the
 * frame of a learner's `double a[100000]` (800 KiB) on a 64 KiB stack, and
 * costs 33 GiB of the 128 TiB a 64-bit process may map at 32 000 fibers. */
#define PW_FIBER_GUARD_BYTES (1u << 20)

/* When the running fiber's stack pointer is below its stack (a frame that
 * jumped past the guard), write the overflow line and die of SIGSEGV as the
 * fault would; otherwise (or outside a fiber) return at once. */
void pw_fiber_check_stack(void);

/* Who f is and how to give it more stack, for the overflow line:
 * "<who>: stack overflow: it ran past the end of its 64 KiB stack (<hint>)".
 * who is copied (up to 63 characters); hint must outlive f (a literal). */
void pw_fiber_set_label(pw_fiber *f, const char *who, const char *hint);

/* Memory mappings: each fiber takes PW_FIBER_MAPS_EACH; PW_FIBER_MAP_HEADROOM
 * are left for the rest of the program. pw_fiber_room(): how many more
 * fibers fit under vm.max_map_count now, or -1 where it cannot be read (not
 * Linux). pw_fiber_map_limit(): vm.max_map_count, or -1. */
#define PW_FIBER_MAPS_EACH 2
#define PW_FIBER_MAP_HEADROOM 1024
long pw_fiber_room(void);
long pw_fiber_map_limit(void);
long pw_fiber_maps_in_use(void);

/* Save the current context into `from` (which must be the running fiber) and
 * resume `to`. Returns when some fiber switches back to `from`. */
void pw_fiber_switch(pw_fiber *from, pw_fiber *to);

/* A hint: f will be switched to soon. Starts loading the top of its stack
 * (what the switch restores first) into the cache; no effect otherwise. */
void pw_fiber_prefetch(const pw_fiber *f);

/* True once the fiber's function has returned. */
bool pw_fiber_done(const pw_fiber *f);

/* Free a fiber that is done or has never run. */
void pw_fiber_destroy(pw_fiber *f);

/* "asm" or "ucontext": which switch this build uses. */
const char *pw_fiber_backend(void);

#endif
