/* tests/test_fiber.c: fibers run, switch back and forth, keep their own
 * stacks and registers, finish cleanly, and switch fast. */
#include "fiber.h"
#include "timing.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static pw_fiber *main_fiber;
static int trace[16], ntrace;

typedef struct { pw_fiber *self; int id; int rounds; } pingpong;

static void pinger(void *arg)
{
    pingpong *p = arg;
    for (int r = 0; r < p->rounds; r++) {
        trace[ntrace++] = p->id * 10 + r;
        pw_fiber_switch(p->self, main_fiber);
    }
}

static void test_interleaving(void)
{
    main_fiber = pw_fiber_self();
    pingpong a = { .id = 1, .rounds = 3 }, b = { .id = 2, .rounds = 3 };
    a.self = pw_fiber_create(pinger, &a, 0);
    b.self = pw_fiber_create(pinger, &b, 0);
    ntrace = 0;
    while (!pw_fiber_done(a.self) || !pw_fiber_done(b.self)) {
        if (!pw_fiber_done(a.self)) pw_fiber_switch(main_fiber, a.self);
        if (!pw_fiber_done(b.self)) pw_fiber_switch(main_fiber, b.self);
    }
    int want[] = { 10, 20, 11, 21, 12, 22 };
    EXPECT(ntrace == 6 && !memcmp(trace, want, sizeof want), "round robin order 10 20 11 21 12 22 (%d entries)", ntrace);
    pw_fiber_destroy(a.self);
    pw_fiber_destroy(b.self);
}

/* Locals and floating-point state survive a switch in both directions. */
static void arithmetic(void *arg)
{
    double *out = arg;
    double x = 1.0;
    volatile char big[4096];                /* some stack use of our own */
    for (int i = 0; i < 4096; i++) big[i] = (char)i;
    for (int i = 1; i <= 100; i++) {
        x = x * 1.01 + sqrt((double)i);
        if (i % 10 == 0) pw_fiber_switch(*(pw_fiber **)(out + 1), main_fiber);
    }
    out[0] = x + big[4095];
}

static void test_state_preserved(void)
{
    main_fiber = pw_fiber_self();
    double want = 1.0;
    for (int i = 1; i <= 100; i++) want = want * 1.01 + sqrt((double)i);
    want += (char)4095;
    double buf[2];
    pw_fiber *f = pw_fiber_create(arithmetic, buf, 0);
    memcpy(&buf[1], &f, sizeof f);
    double mine = 3.0;
    int switches = 0;
    while (!pw_fiber_done(f)) {
        pw_fiber_switch(main_fiber, f);
        mine = mine * 2 - 1;                /* our own state, between switches */
        switches++;
    }
    EXPECT(buf[0] == want, "the fiber's result is exact: %.17g vs %.17g", buf[0], want);
    EXPECT(switches == 11, "10 yields plus the final return: %d", switches);
    EXPECT(mine == 4097.0, "the caller's state survived: (3 - 1) * 2^11 + 1 = 4097, got %g", mine);
    pw_fiber_destroy(f);
}

static pw_fiber *ring[64];
static long hops;
static void ring_member(void *arg)
{
    int me = (int)(size_t)arg;
    for (int r = 0; r < 1000; r++) {
        hops++;
        pw_fiber_switch(ring[me], me == 63 ? main_fiber : ring[me + 1]);
    }
}

static void test_switch_speed(void)
{
    main_fiber = pw_fiber_self();
    for (int i = 0; i < 64; i++) ring[i] = pw_fiber_create(ring_member, (void *)(size_t)i, 0);
    hops = 0;
    double t0 = pw_now();
    for (int r = 0; r < 1000; r++) pw_fiber_switch(main_fiber, ring[0]);
    double t = pw_now() - t0;
    EXPECT(hops == 64000, "64 fibers x 1000 rounds, got %ld hops", hops);
    /* Resumed once more, each leaves its loop and returns: done. */
    for (int i = 0; i < 64; i++) {
        pw_fiber_switch(main_fiber, ring[i]);
        EXPECT(pw_fiber_done(ring[i]), "fiber %d is done", i);
        pw_fiber_destroy(ring[i]);
    }
    double per_switch = t / 65000;
    printf("  %s switch: %.1f ns\n", pw_fiber_backend(), per_switch * 1e9);
    /* Generous: even the ucontext fallback and sanitizers stay far below 10 us. */
    EXPECT(per_switch < 10e-6, "a switch takes %.0f ns", per_switch * 1e9);
}

int main(void)
{
    RUN(test_interleaving);
    RUN(test_state_preserved);
    RUN(test_switch_speed);
    return UNIT_RESULT();
}
