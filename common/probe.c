/* common/probe.c: cores, ISA and caches from the system; FMA peak and
 * bandwidth by measurement. */
#define _GNU_SOURCE
#include "probe.h"
#include "results.h"
#include "barrier.h"
#include "errcheck.h"
#include "timing.h"
#include "util.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#define PW_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif
#if defined(__aarch64__)
#include <arm_neon.h>
#endif

const char *pw_isa_name(pw_isa isa)
{
    static const char *names[] = { "scalar", "SSE", "AVX2", "AVX-512", "NEON" };
    return names[isa];
}

int pw_isa_lanes(pw_isa isa)
{
    static const int lanes[] = { 1, 4, 8, 16, 4 };
    return lanes[isa];
}

/* ---- what the system says -------------------------------------------- */

static long cache_size_sysfs(int level, const char *type)
{
    for (int idx = 0; idx < 8; idx++) {
        char path[128], buf[32];
        int lvl = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", idx);
        FILE *f = fopen(path, "r");
        if (!f) break;
        if (fscanf(f, "%d", &lvl) != 1) lvl = 0;
        fclose(f);
        if (lvl != level) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", idx);
        f = fopen(path, "r");
        if (!f) continue;
        if (!fgets(buf, sizeof buf, f)) buf[0] = '\0';
        fclose(f);
        if (strncmp(buf, type, strlen(type))) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", idx);
        f = fopen(path, "r");
        if (!f) continue;
        long kib = 0;
        char unit = 'K';
        if (fscanf(f, "%ld%c", &kib, &unit) < 1) kib = 0;
        fclose(f);
        return unit == 'M' ? kib << 20 : kib << 10;
    }
    return 0;
}

static long cache_size(int level)
{
    long s = cache_size_sysfs(level, level == 1 ? "Data" : "Unified");
#if defined(_SC_LEVEL1_DCACHE_SIZE)
    if (s <= 0) s = sysconf(level == 1 ? _SC_LEVEL1_DCACHE_SIZE
                            : level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL3_CACHE_SIZE);
#endif
    return s > 0 ? s : 0;
}

/* The widest ISA the build's flags let the compiler use (-march=...): the
 * auto-vectorised loops and every plain C loop are compiled for it. A
 * -march=x86-64-v3 build reports AVX2 even on an AVX-512 CPU, so that build
 * behaves (and is tested) as it would on an AVX2 machine. */
static pw_isa build_isa(void)
{
#if defined(__AVX512F__)
    return PW_ISA_AVX512;
#elif defined(__AVX2__) && defined(__FMA__)
    return PW_ISA_AVX2;
#elif defined(__SSE2__)
    return PW_ISA_SSE;
#elif defined(__ARM_NEON)
    return PW_ISA_NEON;
#else
    return PW_ISA_SCALAR;
#endif
}

void pw_probe_static(pw_hw *hw)
{
    memset(hw, 0, sizeof *hw);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    hw->logical_cores = n > 0 ? (int)n : 1;
    hw->cpu_isa = PW_ISA_SCALAR;
    bool cpu_fma = false, cpu_bf16 = false;
#if PW_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse2")) hw->cpu_isa = PW_ISA_SSE;
    cpu_fma = __builtin_cpu_supports("fma");
    if (__builtin_cpu_supports("avx2") && cpu_fma) hw->cpu_isa = PW_ISA_AVX2;
    if (__builtin_cpu_supports("avx512f")) hw->cpu_isa = PW_ISA_AVX512;
    unsigned a, b, c, d;
    /* CPUID leaf 7, sub-leaf 1, EAX bit 5: AVX512_BF16. */
    if (hw->cpu_isa == PW_ISA_AVX512 && __get_cpuid_count(7, 1, &a, &b, &c, &d)) cpu_bf16 = (a >> 5) & 1;
#elif defined(__aarch64__)
    hw->cpu_isa = PW_ISA_NEON;
    cpu_fma = true;
#if defined(__ARM_FEATURE_BF16)
    cpu_bf16 = true;
#endif
#endif
    /* x86's ISAs nest, so the usable one is the narrower of the two. */
    hw->build_isa = build_isa();
    hw->isa = hw->build_isa < hw->cpu_isa ? hw->build_isa : hw->cpu_isa;
#if PW_X86
    hw->fma = cpu_fma && hw->isa >= PW_ISA_AVX2;
#if defined(__AVX512BF16__)
    hw->bf16 = cpu_bf16 && hw->isa == PW_ISA_AVX512;
#else
    (void)cpu_bf16;   /* the build's flags leave out BF16 */
#endif
#else
    hw->fma = cpu_fma;
    hw->bf16 = cpu_bf16;
#endif
    hw->lanes = pw_isa_lanes(hw->isa);
#if defined(__aarch64__)
    hw->vector_registers = 32;
#elif defined(__x86_64__)
    hw->vector_registers = hw->isa == PW_ISA_AVX512 ? 32 : 16;
#elif PW_X86
    hw->vector_registers = 8;
#else
    hw->vector_registers = 0;   /* unknown */
#endif
    hw->l1d = cache_size(1);
    hw->l2 = cache_size(2);
    hw->l3 = cache_size(3);
    /* A test hook: PW_REPORTED_L3=BYTES stands in for the L3 the system
     * reports, as a virtual machine may report one it does not have
     * (tests/ch06.sh: the staircase must then say the knees contradict it). */
    const char *fake_l3 = getenv("PW_REPORTED_L3");
    if (fake_l3 && *fake_l3) {
        char *end;
        long v = strtol(fake_l3, &end, 10);
        if (*end == '\0' && v > 0) hw->l3 = v;
    }
}

/* ---- the FMA loop, compiled ---------------------------------------------
 * acc = acc * a + b on K independent registers, `iters` times. With
 * a = 0.999999 and b = 1e-6 the values stay near 1: no overflow, no
 * denormals (which would be slow and spoil the measurement). K is a
 * compile-time constant so every accumulator lives in a register. a and b
 * are read from volatiles: constants would let the compiler see that 1.0 is
 * a fixed point of the recurrence and fold the whole loop away. */

static volatile float fma_a = 0.999999f, fma_b = 1e-6f;

/* The sanitizers would keep acc[] in memory to watch it, turning a
 * register-bound loop into a store-forwarding-bound one (3x slower):
 * these loops touch no memory, so there is nothing to check. */
#if defined(__clang__)
#define PW_FMA_ATTR __attribute__((no_sanitize("address", "undefined"), noinline))
#else
#define PW_FMA_ATTR __attribute__((no_sanitize_address, no_sanitize_undefined, noinline))
#endif

#define FMA_BODY(VEC, SET1, FMA, K)                                        \
    VEC a = SET1(fma_a), b = SET1(fma_b), acc[K];                      \
    for (int k = 0; k < K; k++) acc[k] = SET1(0.5f + (float)k * 1e-3f);    \
    for (long i = 0; i < iters; i++)                                       \
        for (int k = 0; k < K; k++) acc[k] = FMA(acc[k], a, b);            \
    for (int k = 1; k < K; k++) acc[0] = acc[0] + acc[k];

typedef float (*fma_loop_fn)(long iters);

#if PW_X86
#define AVX512_LOOP(K)                                                     \
    __attribute__((target("avx512f"))) PW_FMA_ATTR                         \
    static float fma512_##K(long iters)                                    \
    { FMA_BODY(__m512, _mm512_set1_ps, _mm512_fmadd_ps, K)                 \
      return _mm512_reduce_add_ps(acc[0]); }
#define AVX2_LOOP(K)                                                       \
    __attribute__((target("avx2,fma"))) PW_FMA_ATTR                        \
    static float fma256_##K(long iters)                                    \
    { FMA_BODY(__m256, _mm256_set1_ps, _mm256_fmadd_ps, K)                 \
      float out[8]; _mm256_storeu_ps(out, acc[0]);                         \
      return out[0] + out[7]; }
/* SSE has no FMA: a multiply and an add, 2 flops per lane all the same. */
#define SSE_MULADD(x, a, b) _mm_add_ps(_mm_mul_ps(x, a), b)
#define SSE_LOOP(K)                                                        \
    PW_FMA_ATTR                                                            \
    static float fma128_##K(long iters)                                    \
    { FMA_BODY(__m128, _mm_set1_ps, SSE_MULADD, K)                         \
      float out[4]; _mm_storeu_ps(out, acc[0]); return out[0] + out[3]; }
#define X86_LOOPS(K) AVX512_LOOP(K) AVX2_LOOP(K) SSE_LOOP(K)
X86_LOOPS(1) X86_LOOPS(2) X86_LOOPS(4) X86_LOOPS(8) X86_LOOPS(10) X86_LOOPS(12) X86_LOOPS(16)
#endif

#if defined(__aarch64__)
#define NEON_FMA(x, a, b) vfmaq_f32(b, x, a)
#define NEON_LOOP(K)                                                       \
    PW_FMA_ATTR static float fmaneon_##K(long iters)         \
    { FMA_BODY(float32x4_t, vdupq_n_f32, NEON_FMA, K)                      \
      return vaddvq_f32(acc[0]); }
NEON_LOOP(1) NEON_LOOP(2) NEON_LOOP(4) NEON_LOOP(8) NEON_LOOP(10) NEON_LOOP(12) NEON_LOOP(16)
#endif

/* Scalar: one lane. (The compiler may pack independent scalar chains into a
 * vector on its own; that is the auto-vectoriser at work, see chapter 02.) */
#define SCALAR_FMA(x, a, b) ((x) * (a) + (b))
#define SCALAR_SET1(v) (v)
#define SCALAR_LOOP(K)                                                     \
    PW_FMA_ATTR static float fma1_##K(long iters)            \
    { FMA_BODY(float, SCALAR_SET1, SCALAR_FMA, K) return acc[0]; }
SCALAR_LOOP(1) SCALAR_LOOP(2) SCALAR_LOOP(4) SCALAR_LOOP(8) SCALAR_LOOP(10) SCALAR_LOOP(12) SCALAR_LOOP(16)

const int pw_fma_accumulator_counts[] = { 1, 2, 4, 8, 10, 12, 16 };
const int pw_fma_accumulator_count_n = 7;

/* What this CPU has, found once: the FMA loops ask on every call. */
static const pw_hw *static_hw(void)
{
    static pw_hw hw;
    static bool done;
    if (!done) { pw_probe_static(&hw); done = true; }
    return &hw;
}

static fma_loop_fn fma_loop(pw_isa isa, int k)
{
#define PICK(prefix) \
    switch (k) { case 1: return prefix##_1; case 2: return prefix##_2; case 4: return prefix##_4; \
                 case 8: return prefix##_8; case 10: return prefix##_10; case 12: return prefix##_12; \
                 case 16: return prefix##_16; default: return NULL; }
    const pw_hw *hw = static_hw();
    if (isa > hw->isa) return NULL;  /* this CPU cannot run it */
    switch (isa) {
    case PW_ISA_SCALAR: PICK(fma1)
#if PW_X86
    case PW_ISA_SSE: PICK(fma128)
    case PW_ISA_AVX2: if (!hw->fma) return NULL; PICK(fma256)
    case PW_ISA_AVX512: PICK(fma512)
#endif
#if defined(__aarch64__)
    case PW_ISA_NEON: PICK(fmaneon)
#endif
    default: return NULL;
    }
#undef PICK
}

/* Run fn so it lasts about `seconds`; best of three tries, in GFLOP/s. */
static double best_rate(float (*fn)(long), double flops_per_iter, double seconds)
{
    long iters = 1 << 14;
    double t;
    for (;;) {                                   /* calibrate: reach ~seconds/3 */
        double t0 = pw_now();
        pw_sink += fn(iters);
        t = pw_now() - t0;
        if (t > seconds / 10 || iters > (1L << 40)) break;
        iters *= 4;
    }
    iters = (long)((double)iters * (seconds / 3) / (t > 0 ? t : 1e-9)) + 1;
    double best = 0;
    for (int r = 0; r < 3; r++) {
        double t0 = pw_now();
        pw_sink += fn(iters);
        double rate = flops_per_iter * (double)iters / (pw_now() - t0) * 1e-9;
        if (rate > best) best = rate;
    }
    return best;
}

double pw_fma_loop_gflops(pw_isa isa, int accumulators, double seconds)
{
    fma_loop_fn fn = fma_loop(isa, accumulators);
    if (!fn) return 0;
    /* per iteration: K registers x lanes x 2 flops (multiply and add) */
    return best_rate(fn, 2.0 * accumulators * pw_isa_lanes(isa), seconds);
}

/* ---- the FMA loop, in assembly: the yardstick ---------------------------- */

#if PW_X86 && defined(__x86_64__)
/* 12 accumulators (zmm0-11), a in zmm12, b in zmm13:
 * vfmadd213ps b, a, acc  computes  acc = a*acc + b. */
#define FMA12(R) \
    "vfmadd213ps %%" R "13, %%" R "12, %%" R "0\n\t"  "vfmadd213ps %%" R "13, %%" R "12, %%" R "1\n\t" \
    "vfmadd213ps %%" R "13, %%" R "12, %%" R "2\n\t"  "vfmadd213ps %%" R "13, %%" R "12, %%" R "3\n\t" \
    "vfmadd213ps %%" R "13, %%" R "12, %%" R "4\n\t"  "vfmadd213ps %%" R "13, %%" R "12, %%" R "5\n\t" \
    "vfmadd213ps %%" R "13, %%" R "12, %%" R "6\n\t"  "vfmadd213ps %%" R "13, %%" R "12, %%" R "7\n\t" \
    "vfmadd213ps %%" R "13, %%" R "12, %%" R "8\n\t"  "vfmadd213ps %%" R "13, %%" R "12, %%" R "9\n\t" \
    "vfmadd213ps %%" R "13, %%" R "12, %%" R "10\n\t" "vfmadd213ps %%" R "13, %%" R "12, %%" R "11\n\t"
#define ASM_LOOP(NAME, TARGET, R)                                                       \
    __attribute__((target(TARGET), noinline)) static float NAME(long iters)             \
    {                                                                                   \
        const float a = fma_a, b = fma_b, one = 0.5f;                               \
        float out;                                                                      \
        __asm__ volatile(                                                               \
            "vbroadcastss %[a], %%" R "12\n\t" "vbroadcastss %[b], %%" R "13\n\t"       \
            "vbroadcastss %[one], %%" R "0\n\t"                                         \
            "vmovaps %%" R "0, %%" R "1\n\t" "vmovaps %%" R "0, %%" R "2\n\t"           \
            "vmovaps %%" R "0, %%" R "3\n\t" "vmovaps %%" R "0, %%" R "4\n\t"           \
            "vmovaps %%" R "0, %%" R "5\n\t" "vmovaps %%" R "0, %%" R "6\n\t"           \
            "vmovaps %%" R "0, %%" R "7\n\t" "vmovaps %%" R "0, %%" R "8\n\t"           \
            "vmovaps %%" R "0, %%" R "9\n\t" "vmovaps %%" R "0, %%" R "10\n\t"          \
            "vmovaps %%" R "0, %%" R "11\n\t"                                           \
            "1:\n\t" FMA12(R) "dec %[n]\n\t" "jnz 1b\n\t"                               \
            "vaddps %%" R "1, %%" R "0, %%" R "0\n\t"                                   \
            "vmovss %%xmm0, %[out]\n\t"                                                 \
            : [n] "+r"(iters), [out] "=m"(out)                                          \
            : [a] "m"(a), [b] "m"(b), [one] "m"(one)                                    \
            : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",   \
              "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "cc");                        \
        return out;                                                                     \
    }
ASM_LOOP(asm_fma512, "avx512f", "zmm")
ASM_LOOP(asm_fma256, "avx2,fma", "ymm")
#endif

double pw_fma_asm_gflops(pw_isa isa, double seconds)
{
#if PW_X86 && defined(__x86_64__)
    const pw_hw *hw = static_hw();
    if (isa > hw->isa) return 0;
    if (isa == PW_ISA_AVX512) return best_rate(asm_fma512, 2.0 * 12 * 16, seconds);
    if (isa == PW_ISA_AVX2 && hw->fma) return best_rate(asm_fma256, 2.0 * 12 * 8, seconds);
#else
    (void)isa; (void)seconds;
#endif
    return 0;
}

/* ---- all cores ----------------------------------------------------------- */

typedef struct {
    fma_loop_fn fn;
    long iters;
    pw_barrier *start, *stop;
    double *elapsed;       /* written by thread 0 */
    int id;
} peak_job;

static void *peak_worker(void *arg)
{
    peak_job *j = arg;
    pw_barrier_wait(j->start);
    double t0 = pw_now();
    float r = j->fn(j->iters);
    pw_barrier_wait(j->stop);                /* everyone done: the slowest counts */
    if (j->id == 0) *j->elapsed = pw_now() - t0;
    return (void *)(size_t)(r != r);         /* keep r alive without a shared write */
}

static double all_core_peak(pw_isa isa, int k, int threads, double seconds)
{
    fma_loop_fn fn = fma_loop(isa, k);
    if (!fn) return 0;
    double per_iter = 2.0 * k * pw_isa_lanes(isa);
    /* iterations for ~seconds on one core at this loop's single-core rate */
    double one = pw_fma_loop_gflops(isa, k, seconds / 4);
    long iters = (long)(one * 1e9 * seconds / 2 / per_iter) + 1;
    pw_barrier start, stop;
    pw_barrier_init(&start, threads);
    pw_barrier_init(&stop, threads);
    pthread_t *tid = malloc((size_t)threads * sizeof *tid);
    peak_job *jobs = malloc((size_t)threads * sizeof *jobs);
    PW_CHECK_ALLOC(tid, threads * sizeof *tid);
    PW_CHECK_ALLOC(jobs, threads * sizeof *jobs);
    double best = 0;
    for (int r = 0; r < 2; r++) {
        double elapsed = 0;
        for (int t = 0; t < threads; t++) {
            jobs[t] = (peak_job){ fn, iters, &start, &stop, &elapsed, t };
            PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, peak_worker, &jobs[t]));
        }
        for (int t = 0; t < threads; t++) PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));
        double rate = per_iter * (double)iters * threads / elapsed * 1e-9;
        if (rate > best) best = rate;
    }
    free(tid);
    free(jobs);
    pw_barrier_destroy(&start);
    pw_barrier_destroy(&stop);
    return best;
}

/* ---- bandwidth -----------------------------------------------------------
 *
 * Why this is not a plain "barrier, start the clock, triad, barrier": that
 * was the first version, and on all cores it reached only 0.70x McCalpin's
 * STREAM on a 2-core Zen 3 VM (issue 11). Chapter 06 looked for why; what
 * differed from STREAM, and what it measured on this 2-core Zen 5 VM:
 *   - the start: a thread waiting at a condition-variable barrier sleeps in
 *     the kernel and must be woken; the others' clock runs meanwhile. Here
 *     the second thread left the barrier 33-39 us after the first when the
 *     machine was idle (0.5% of a quick trial of 7 ms), and up to 8 ms
 *     later when another program held its core. STREAM's OpenMP threads
 *     spin between its loops and start within microseconds. A VM that
 *     halts an idle virtual CPU can take far longer to wake it;
 *   - the statistic: best of 4 trials in quick mode against STREAM's best
 *     of 9: one disturbed trial in four weighs much more;
 *   - not the arithmetic: floats or doubles move the same bytes, counted
 *     the same way (12 per float element, 24 per double), and both loops
 *     store with full-width vmovups (objdump: zmm here, ymm on AVX2).
 * So now:
 *   - the threads meet at a spinning barrier (sched_yield in the loop, so
 *     more threads than cores still make progress): start skew 0-1 us;
 *   - each thread stamps its own start and end, and a trial lasts from the
 *     first start to the last end: a late thread still counts against the
 *     trial, but no time counts in which no thread had begun;
 *   - best of 10 trials in every mode.
 * Measured here with both versions in turns (quick size, 3 x 96 MiB, two
 * threads, idle machine): old 64.5-69.3 GB/s, new 67.0-69.0, McCalpin's
 * STREAM (80M doubles) 67.8-68.7: on this VM the old one was not short;
 * the changes remove the ways it could be where waking a thread is slow. */

typedef struct {
    atomic_int arrived;    /* threads at the barrier in this round */
    atomic_int round;      /* bumped by the last to arrive */
    int count;
} spin_barrier;

static void spin_wait(spin_barrier *b)
{
    int round = atomic_load(&b->round);
    if (atomic_fetch_add(&b->arrived, 1) == b->count - 1) {
        atomic_store(&b->arrived, 0);
        atomic_fetch_add(&b->round, 1);
    } else {
        while (atomic_load(&b->round) == round) sched_yield();
    }
}

typedef struct {
    float *a, *b, *c;
    long lo, hi;           /* this thread's slice */
    int reps, threads, id;
    spin_barrier *bar;
    double *start, *end;   /* [rep * threads + id]: this thread's stamps */
} triad_job;

static void *triad_worker(void *arg)
{
    triad_job *j = arg;
    /* First touch by the thread that will use the slice: on a NUMA machine
     * its pages then live next to its core. */
    /* Local restrict pointers: through j->a the compiler would have to assume
     * a[] may overlap *j itself, reload it every iteration, and not vectorise. */
    float *restrict a = j->a + j->lo, *restrict b = j->b + j->lo, *restrict c = j->c + j->lo;
    long n = j->hi - j->lo;
    for (long i = 0; i < n; i++) { a[i] = 0; b[i] = 1; c[i] = 2; }
    for (int r = 0; r < j->reps; r++) {
        spin_wait(j->bar);
        j->start[r * j->threads + j->id] = pw_now();
        for (long i = 0; i < n; i++) a[i] = b[i] + 3.0f * c[i];
        j->end[r * j->threads + j->id] = pw_now();
    }
    return NULL;
}

static double triad_range(long n, int threads, int reps, double *worst_gbs);

double pw_triad_gbs(long n, int threads, int reps)
{
    return triad_range(n, threads, reps, NULL);
}

/* Best of reps trials, GB/s; *worst_gbs (may be NULL) gets the slowest. */
static double triad_range(long n, int threads, int reps, double *worst_gbs)
{
    float *a = pw_alloc_floats((size_t)n), *b = pw_alloc_floats((size_t)n), *c = pw_alloc_floats((size_t)n);
    size_t stamps = (size_t)reps * (size_t)threads;
    double *start = calloc(stamps, sizeof *start), *end = calloc(stamps, sizeof *end);
    pthread_t *tid = malloc((size_t)threads * sizeof *tid);
    triad_job *jobs = malloc((size_t)threads * sizeof *jobs);
    PW_CHECK_ALLOC(start, stamps * sizeof *start);
    PW_CHECK_ALLOC(end, stamps * sizeof *end);
    PW_CHECK_ALLOC(tid, threads * sizeof *tid);
    PW_CHECK_ALLOC(jobs, threads * sizeof *jobs);
    spin_barrier bar = { 0, 0, threads };
    for (int t = 0; t < threads; t++) {
        jobs[t] = (triad_job){ a, b, c, n * t / threads, n * (t + 1) / threads, reps, threads, t, &bar, start, end };
        PW_CHECK_PTHREAD(pthread_create(&tid[t], NULL, triad_worker, &jobs[t]));
    }
    for (int t = 0; t < threads; t++) PW_CHECK_PTHREAD(pthread_join(tid[t], NULL));
    pw_consume(a);
    double best = 1e30, worst = 0;
    for (int r = 0; r < reps; r++) {
        double first = 1e30, last = -1e30;
        for (int t = 0; t < threads; t++) {
            if (start[r * threads + t] < first) first = start[r * threads + t];
            if (end[r * threads + t] > last) last = end[r * threads + t];
        }
        if (last - first < best) best = last - first;
        if (last - first > worst) worst = last - first;
    }
    free(start); free(end); free(tid); free(jobs);
    pw_free(a); pw_free(b); pw_free(c);
    if (worst_gbs) *worst_gbs = 12.0 * (double)n / worst * 1e-9;
    return 12.0 * (double)n / best * 1e-9;   /* read b, read c, write a: 12 bytes */
}

/* ---- the whole probe ------------------------------------------------------- */

/* The run's probe, shared: with PW_PROBE_CACHE=FILE (make chapters and
 * chapters/lib.sh set it, fresh for each run), the first program of a run
 * measures and writes FILE, and every later one reads it, so the whole run
 * compares against one peak and one bandwidth. The record is kept only for
 * the same CPU, build flags, ISA and CPUs allowed: another build or a
 * taskset measures its own. */
static void probe_key(const pw_hw *hw, char *key, size_t len)
{
    long allowed = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) allowed = CPU_COUNT(&set);
#endif
    snprintf(key, len, "%s|%s|%s|%d|%ld", pw_cpu_model(), pw_isa_name(hw->isa), pw_cflags(), hw->logical_cores, allowed);
    for (char *c = key; *c; c++) if (*c == '\n' || *c == '\t') *c = ' ';
}

static bool probe_load(const char *path, pw_hw *hw)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[1024], key[768], want[768];
    probe_key(hw, want, sizeof want);
    bool ok = fgets(line, sizeof line, f) && sscanf(line, "key %767[^\n]", key) == 1 && !strcmp(key, want);
    pw_hw m = *hw;
    ok = ok && fscanf(f, "peak %lf %lf %d %lf\n", &m.peak_gflops_1core, &m.peak_gflops_all, &m.peak_accumulators,
                      &m.peak_spread) == 4;
    ok = ok && fscanf(f, "bw %lf %lf %ld %lf\n", &m.bw_gbs_1core, &m.bw_gbs_all, &m.bw_array_bytes, &m.bw_spread) == 4;
    ok = ok && fscanf(f, "at %lf %lf\n", &m.probed_at, &m.probe_seconds) == 2;
    fclose(f);
    if (!ok || !(m.peak_gflops_1core > 0) || !(m.bw_gbs_1core > 0)) return false;
    *hw = m;
    hw->from_cache = true;
    return true;
}

static void probe_store(const char *path, const pw_hw *hw)
{
    char key[768], tmp[1100];
    probe_key(hw, key, sizeof key);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) return;   /* an unwritable cache only costs the next program its own probe */
    fprintf(f, "key %s\npeak %.17g %.17g %d %.17g\nbw %.17g %.17g %ld %.17g\nat %.17g %.17g\n", key,
            hw->peak_gflops_1core, hw->peak_gflops_all, hw->peak_accumulators, hw->peak_spread, hw->bw_gbs_1core,
            hw->bw_gbs_all, hw->bw_array_bytes, hw->bw_spread, hw->probed_at, hw->probe_seconds);
    if (fclose(f) == 0) rename(tmp, path);
    else remove(tmp);
}

void pw_probe_measure(pw_hw *hw, bool quick)
{
    double t0 = pw_now();
    pw_probe_static(hw);
    hw->from_cache = false;
    const char *cache = getenv("PW_PROBE_CACHE");
    if (cache && *cache && probe_load(cache, hw)) return;
    double each = quick ? 0.03 : 0.2;        /* seconds per FMA configuration */
    hw->peak_gflops_1core = 0;
    for (int i = 0; i < pw_fma_accumulator_count_n; i++) {
        int k = pw_fma_accumulator_counts[i];
        if (k < 4) continue;                 /* latency-bound, never the peak */
        double g = pw_fma_loop_gflops(hw->isa, k, each);
        if (g > hw->peak_gflops_1core) { hw->peak_gflops_1core = g; hw->peak_accumulators = k; }
    }
    /* The spread: the best count three more times; the peak is the best of the
     * four, the spread their range over it. */
    double lo = hw->peak_gflops_1core;
    for (int i = 0; i < 3; i++) {
        double g = pw_fma_loop_gflops(hw->isa, hw->peak_accumulators, each);
        if (g > hw->peak_gflops_1core) hw->peak_gflops_1core = g;
        if (g < lo) lo = g;
    }
    hw->peak_spread = hw->peak_gflops_1core > 0 ? (hw->peak_gflops_1core - lo) / hw->peak_gflops_1core : 0;
    hw->peak_gflops_all = all_core_peak(hw->isa, hw->peak_accumulators, hw->logical_cores, each * 4);

    /* Arrays four times the last-level cache, so the triad streams from DRAM. */
    long llc = hw->l3 ? hw->l3 : (hw->l2 ? hw->l2 : 8L << 20);
    long n = 4 * llc / (long)sizeof(float);
    if (quick && n > (24L << 20)) n = 24L << 20;   /* 96 MiB per array is past any cache here */
    hw->bw_array_bytes = n * (long)sizeof(float);
    int reps = 10;   /* best of 10 in both modes: 4 let one disturbed trial in 4 decide */
    double worst;
    hw->bw_gbs_1core = triad_range(n, 1, reps, &worst);
    hw->bw_spread = hw->bw_gbs_1core > 0 ? (hw->bw_gbs_1core - worst) / hw->bw_gbs_1core : 0;
    hw->bw_gbs_all = pw_triad_gbs(n, hw->logical_cores, reps);
    hw->probe_seconds = pw_now() - t0;
    hw->probed_at = (double)time(NULL);
    if (cache && *cache) probe_store(cache, hw);
}

bool pw_probe_all_core_usable(const pw_hw *hw)
{
    return hw->logical_cores > 1 && hw->peak_gflops_all >= hw->peak_gflops_1core;
}

void pw_probe_note(FILE *out, const pw_hw *hw)
{
    if (hw->from_cache) {
        char when[16] = "?";
        time_t t = (time_t)hw->probed_at;
        struct tm tmv;
        if (localtime_r(&t, &tmv)) strftime(when, sizeof when, "%H:%M:%S", &tmv);
        fprintf(out, "probe: this run's one probe (measured at %s by an earlier program of the run, PW_PROBE_CACHE)\n",
                when);
    }
    fprintf(out, "probe: FP32 peak %.1f GFLOP/s on one core (spread %.1f%% over 4 tries)", hw->peak_gflops_1core,
            100 * hw->peak_spread);
    if (hw->logical_cores > 1) {
        if (pw_probe_all_core_usable(hw))
            fprintf(out, ", %.1f on %d cores", hw->peak_gflops_all, hw->logical_cores);
        else
            fprintf(out, "; on %d cores only %.1f, below one core's: not a peak this run can show (a busy machine), "
                         "so it is not used", hw->logical_cores, hw->peak_gflops_all);
    }
    fprintf(out, "; triad %.1f GB/s on one core (spread %.1f%% over 10), %.1f on %d\n", hw->bw_gbs_1core,
            100 * hw->bw_spread, hw->bw_gbs_all, hw->logical_cores);
}
