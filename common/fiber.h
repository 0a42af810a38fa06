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
 * thread-local addresses, and sanitizers track stacks per thread). Stacks
 * have a guard page below them: an overflow faults instead of corrupting a
 * neighbour. Works under ASan and TSan (the switches are announced to them).
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

/* A new fiber that will run fn(arg) on a stack of stack_bytes (0: 64 KiB,
 * 256 KiB under AddressSanitizer, whose red zones make frames bigger). */
pw_fiber *pw_fiber_create(pw_fiber_fn fn, void *arg, size_t stack_bytes);

/* Save the current context into `from` (which must be the running fiber) and
 * resume `to`. Returns when some fiber switches back to `from`. */
void pw_fiber_switch(pw_fiber *from, pw_fiber *to);

/* True once the fiber's function has returned. */
bool pw_fiber_done(const pw_fiber *f);

/* Free a fiber that is done or has never run. */
void pw_fiber_destroy(pw_fiber *f);

/* "asm" or "ucontext": which switch this build uses. */
const char *pw_fiber_backend(void);

#endif
