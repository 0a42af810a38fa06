/* tests/test_plan3d.c: the planner's full step model (kernels/plan3d.h).
 *
 * Checks, each against numbers derived by hand here (not by calling the
 * function under test a second way): stages that differ by one layer
 * (70 layers on 12 stages: 6 x 10 and 5 x 2; 24 on 5) and the memory of the
 * heaviest stage of a BLOOM-like run (stage 0: 6 layers and the embeddings);
 * the interleaved schedule's bubble, v times smaller, equal to (p - 1) stages
 * plus the first stage's embedding, and its fraction (p - 1) / (v m); the
 * output layer's time and Megatron-LM's, PaLM's and the hardware's flop
 * counts at SC21 Table 1's 1.7B row; one matmul's time from its tiles, waves
 * and bytes on an A100; pins refused with the constraint named, and a search
 * with every choice pinned giving the pinned plan; p3_plan_one as
 * p3_plan_with with no further choices. */
#include "plan3d.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double rel(double got, double want)
{
    if (got == want) return 0;
    return fabs(got - want) / fmax(fabs(want), 1e-300);
}

static int a100(int nodes, p3_cluster *cl)
{
    char err[256] = "";
    if (p3_device_cluster("a100-80gb", nodes, cl, NULL, err, sizeof err)) {
        printf("  p3_device_cluster(a100-80gb): %s\n", err);
        return -1;
    }
    return 0;
}

/* The A100's figures, from its data sheet and MAMF (plan3d.c's table). */
#define A100_SMS 108.0
#define A100_PEAK 312e12
#define A100_MAMF 267.9e12
#define A100_DRAM 2039e9
#define A100_NVLINK 300e9

static p3_model sc21_1_7b(void)
{
    /* SC21 (Narayanan et al. 2021) Table 1, first row: 1.7B */
    return (p3_model){ "1.7B", 24, 2304, 24, 2048, 51200, 512 };
}

/* ---- 1. stages that differ by a layer ------------------------------------------ */

static void test_uneven_stages(void)
{
    for (int s = 0; s < 12; s++) {
        int want = s < 10 ? 6 : 5;   /* 70 = 12 x 5 + 10: the first 10 take one more */
        EXPECT(p3_layers_on_stage(70, 12, s) == want, "70 layers, 12 stages, stage %d: %d, got %d", s, want,
               p3_layers_on_stage(70, 12, s));
    }
    int sum = 0;
    for (int s = 0; s < 12; s++) sum += p3_layers_on_stage(70, 12, s);
    EXPECT(sum == 70, "70 layers on 12 stages sum to 70, got %d", sum);
    const int want24[5] = { 5, 5, 5, 5, 4 };
    for (int s = 0; s < 5; s++)
        EXPECT(p3_layers_on_stage(24, 5, s) == want24[s], "24 layers, 5 stages, stage %d: %d, got %d", s, want24[s],
               p3_layers_on_stage(24, 5, s));
    EXPECT(p3_layers_on_stage(64, 8, 7) == 8 && p3_layers_on_stage(64, 8, 0) == 8, "64 on 8: 8 each");

    /* BLOOM-like: 70 layers, h 14336, 112 heads, s 2048, V 250880, B 2048;
     * d 8, t 4, p 12, b 2 (m = 2048 / 16 = 128), ZeRO-1, full recomputation,
     * sequence parallelism on (t > 1, no_sp false). */
    p3_model md = { "bloom-like", 70, 14336, 112, 2048, 250880, 2048 };
    p3_config cf = { 8, 4, 12, 2, 128, true, true, P3_ORDER_TDP };
    p3_choices ch = { 0, false, false, 0, false, false };
    p3_memory mem;
    p3_memory_full(&md, &cf, &ch, &mem);

    double h = 14336, V = 250880, s = 2048, t = 4, d = 8, b = 2, a = 112, layer = 12 * h * h + 13 * h;
    /* stage 0: 6 layers, token and position embeddings; the last: 5 layers, the output layer */
    double p0 = (6 * layer + (V + s) * h) / t, plast = (5 * layer + V * h) / t;
    double sbh = s * b * h;
    /* full recomputation: each layer keeps its input, 2 s b h / t with SP; 1F1B keeps
     * min(p, m) = 12 micro-batches on stage 0 and 1 on the last; plus one layer's whole set
     * while it is recomputed: s b h (34 + 5 a s / h) / t with SP (5 a s / h = 80). */
    double whole = sbh * (34 + 5 * a * s / h) / t;
    EXPECT(5 * a * s / h == 80, "5 a s / h = 80");
    double act0 = 6 * 12 * 2 * sbh / t + whole, actlast = 5 * 1 * 2 * sbh / t + whole;
    double w0 = 2 * p0, g0 = 2 * p0, o0 = 12 * p0 / d;
    double total0 = w0 + g0 + o0 + act0, totallast = 2 * plast + 2 * plast + 12 * plast / d + actlast;
    EXPECT(total0 > totallast, "stage 0 is the heaviest by hand: %.6g > %.6g", total0, totallast);
    EXPECT(rel(mem.weights, w0) < 1e-12, "weights 2 x (6 x 12h^2(1+13/(12h)) + (V+s)h) / t = %.17g, got %.17g", w0,
           mem.weights);
    EXPECT(rel(mem.grads, g0) < 1e-12, "grads %.17g, got %.17g", g0, mem.grads);
    EXPECT(rel(mem.optimizer, o0) < 1e-12, "ZeRO-1 optimizer 12 x params / d = %.17g, got %.17g", o0, mem.optimizer);
    EXPECT(rel(mem.activations, act0) < 1e-12, "activations %.17g, got %.17g", act0, mem.activations);
    EXPECT(rel(mem.total, total0) < 1e-12, "total %.17g, got %.17g", total0, mem.total);

    p3_cluster cl;
    if (a100(48, &cl)) { EXPECT(0, "no a100-80gb cluster"); return; }   /* 384 = 8 x 4 x 12 devices */
    p3_step st;
    p3_step_full(&md, &cl, &cf, &ch, &st);
    EXPECT(st.layers_min == 5 && st.layers_max == 6, "layers 5..6, got %d..%d", st.layers_min, st.layers_max);
    EXPECT(st.slowest_stage == 0 || st.slowest_stage == 11, "the slowest stage is the first or the last, got %d",
           st.slowest_stage);
    /* its TP all-reduces: 4 a layer, 2 more with full recomputation, each a ring over the
     * t = 4 ranks of a node (NVLink): 2 (t - 1) (alpha + n h / t x 2 bytes / bw), n = b s */
    int nl = st.slowest_stage == 0 ? 6 : 5;
    double ar = 2 * (t - 1) * (1e-6 + b * s * h / t * 2 / A100_NVLINK);
    double tp = 128.0 * nl * (4 + 2) * ar;
    EXPECT(rel(st.tp, tp) < 1e-12, "TP: m x %d layers x 6 all-reduces = %.17g, got %.17g", nl, tp, st.tp);
}

/* ---- 2. the interleaved schedule's bubble --------------------------------------- */

/* A matmul C = A B of m x n x k and its two gradients, dA (m x k x n) and dB (k x n x m),
 * each at its own shape (plan3d.c's rule, written out again). */
static double fwd_bwd(const p3_cluster *cl, double count, double m, double n, double k)
{
    return p3_gemm_time(cl, count, m, n, k) + p3_gemm_time(cl, count, m, k, n) + p3_gemm_time(cl, count, k, n, m);
}

/* One stage's time for one micro-batch of an A100 cluster, derived from plan3d.h's
 * description: each layer's matmuls (QKV, proj, fc1, fc2 split t ways, the attention
 * core per head), forward and both gradients at their own shapes, the memory-bound
 * bytes three times (forward, backward twice; SP: norms and dropout-adds on 1/t of the
 * tokens), four TP ring all-reduces over NVLink; no recomputation. p3_gemm_time itself
 * is held to hand numbers in test_gemm_time. */
static double stage_time_by_hand(const p3_cluster *cl, const p3_model *md, int t, int b, int nl)
{
    double n = (double)b * md->seq, h = md->hidden, s = md->seq, hd = h / md->heads, heads = (double)b * md->heads / t;
    double gemm = fwd_bwd(cl, 1, n, 3 * h / t, h) + fwd_bwd(cl, 1, n, h, h / t) + fwd_bwd(cl, 1, n, 4 * h / t, h) +
                  fwd_bwd(cl, 1, n, h, 4 * h / t) + fwd_bwd(cl, heads, s, s, hd) + fwd_bwd(cl, heads, s, hd, s);
    double e = n * h, rows = t > 1 ? e / t : e;
    double f_mem = (4 * 2 * rows + 7 * 2 * rows + 8 * 4 * e / t + (4 + 5) * heads * s * s) / A100_DRAM;
    /* ring all-reduce of n h bf16 over t: 2 (t - 1) (alpha + n h / t x 2 bytes / bw) */
    double ar = t > 1 ? 2.0 * (t - 1) * (1e-6 + ceil(e / t) * 2 / A100_NVLINK) : 0;
    return nl * (gemm + 3 * f_mem + 4 * ar);
}

static void test_interleaved_bubble(void)
{
    const int pmv[6][3] = { { 2, 8, 2 }, { 4, 8, 2 }, { 4, 16, 4 }, { 8, 32, 2 }, { 8, 8, 4 }, { 16, 64, 2 } };
    for (int i = 0; i < 6; i++) {
        int p = pmv[i][0], m = pmv[i][1], v = pmv[i][2], t = 2, b = 1;
        /* 64 layers (every p divides it: equal stages), a tiny vocabulary (the output
         * layer costs less than one layer), one replica */
        p3_model md = { "equal", 64, 8192, 64, 2048, 128, m };
        p3_cluster cl;
        if (a100((p * t + 7) / 8, &cl)) { EXPECT(0, "no a100-80gb cluster"); return; }
        p3_config cf = { 1, t, p, b, m, false, false, P3_ORDER_TDP };
        p3_choices one = { 1, false, false, 0, false, false }, inter = { v, false, false, 0, false, false };
        p3_step s1, sv;
        p3_step_full(&md, &cl, &cf, &one, &s1);
        p3_step_full(&md, &cl, &cf, &inter, &sv);

        EXPECT(rel(sv.bubble * v, s1.bubble) < 1e-12, "p %d m %d v %d: bubble(v) x v = bubble(1) = %.17g, got %.17g", p,
               m, v, s1.bubble, sv.bubble * v);
        /* Stages are equal but for the first's embedding (6 b s h bytes) and the last's
         * output layer, which is the larger here: the last stage is the slowest, and the
         * bubble is (p - 1) stage times plus the embedding. */
        double stage = stage_time_by_hand(&cl, &md, t, b, 64 / p);
        double embed = 3 * 2 * (double)b * md.seq * md.hidden / A100_DRAM;
        EXPECT(s1.slowest_stage == p - 1, "p %d: the last stage (the logits) is the slowest, got %d", p,
               s1.slowest_stage);
        EXPECT(s1.layers_min == 64 / p && s1.layers_max == 64 / p, "p %d: %d layers a stage, got %d..%d", p, 64 / p,
               s1.layers_min, s1.layers_max);
        double per_mb = (s1.gemm + s1.memops + s1.tp) / m;
        EXPECT(rel(per_mb, stage) < 1e-12, "p %d: (gemm + memops + tp) / m = one stage by hand %.17g, got %.17g", p,
               stage, per_mb);
        double want1 = (p - 1) * stage + embed;
        EXPECT(rel(s1.bubble, want1) < 1e-12, "p %d v 1: bubble (p-1) x stage + embed = %.17g, got %.17g", p, want1,
               s1.bubble);
        EXPECT(rel(sv.bubble, want1 / v) < 1e-12, "p %d v %d: bubble %.17g, got %.17g", p, v, want1 / v, sv.bubble);
        /* The fraction of the steady part: (p - 1) / (v m) exactly but for the embedding,
         * whose share embed / ((p - 1) stage) is at most 6 b s h / bw over 4 layers x 3 x
         * 24 b s h^2 / t at 267.9 TFLOP/s: 6 x 267.9e12 x 2 / (2039e9 x 4 x 72 x 8192)
         * = 6.7e-4 (p = 16), under 1e-3. */
        double frac = sv.bubble / (m * stage), ideal = (p - 1.0) / ((double)v * m);
        EXPECT(embed / ((p - 1) * stage) < 1e-3, "p %d: the embedding's share %.3g is below 1e-3", p,
               embed / ((p - 1) * stage));
        EXPECT(rel(frac, ideal) < 1e-3, "p %d m %d v %d: bubble fraction (p-1)/(v m) = %.6g, got %.6g", p, m, v, ideal,
               frac);
    }
}

/* ---- 3. the output layer and the flop counts at 1.7B ---------------------------- */

static void test_logits_and_flops_1_7b(void)
{
    p3_model md = sc21_1_7b();
    p3_cluster cl;
    if (a100(4, &cl)) { EXPECT(0, "no a100-80gb cluster"); return; }
    p3_config cf = { 32, 1, 1, 1, 16, false, true, P3_ORDER_TDP };   /* m = 512 / 32 = 16 */
    p3_choices ch = { 1, false, true, 0, false, false };
    p3_step st;
    p3_step_full(&md, &cl, &cf, &ch, &st);
    double B = 512, s = 2048, L = 24, h = 2304, V = 51200, b = 1, t = 1, m = 16;
    double logits = m * (fwd_bwd(&cl, 1, b * s, V / t, h) + 8 * b * s * V / t / A100_DRAM);
    EXPECT(rel(st.logits, logits) < 1e-12, "logits m (matmul and its gradients + 8 b s V / t / bw) = %.17g, got %.17g",
           logits, st.logits);
    EXPECT(st.bubble == 0 && st.pp == 0, "p = 1: no bubble (%g), no pipeline messages (%g)", st.bubble, st.pp);
    EXPECT(st.slowest_stage == 0 && st.layers_min == 24 && st.layers_max == 24, "one stage of 24 layers");
    /* the logits' matmul at this shape by hand: 8 x 400 tiles of 256 x 128 = 3200,
     * ceil(3200 / 108) = 30 waves; the other way 16 x 200 = 3200 too */
    double g = 30 * 2 * 256 * 128 * h / (A100_MAMF / A100_SMS);
    EXPECT(rel(p3_gemm_time(&cl, 1, b * s, V, h), g) < 1e-12, "the logits' matmul %.17g, got %.17g", g,
           p3_gemm_time(&cl, 1, b * s, V, h));

    /* Megatron-LM 2021, eq. 3, expanded: 96 B s L h^2 + 16 B s^2 L h + 6 B s h V */
    double sc21 = 96 * B * s * L * h * h + 16 * B * s * s * L * h + 6 * B * s * h * V;
    EXPECT(rel(p3_sc21_flops(&md), sc21) < 1e-12, "SC21 flops %.17g, got %.17g", sc21, p3_sc21_flops(&md));
    /* PaLM: N = 12 L h^2 + 13 L h (no embeddings); tokens (6 N + 12 L h s) */
    double N = 12 * L * h * h + 13 * L * h;
    double model = B * s * (6 * N + 12 * L * h * s);
    EXPECT(rel(p3_model_flops(&md), model) < 1e-12, "model flops %.17g, got %.17g", model, p3_model_flops(&md));
    double hw_full = B * s * (8 * N + 16 * L * h * s);
    EXPECT(rel(p3_hardware_flops(&md, &cf, &ch), hw_full) < 1e-12, "full recompute: hardware flops %.17g, got %.17g",
           hw_full, p3_hardware_flops(&md, &cf, &ch));
    p3_config none = cf;
    none.recompute = false;
    p3_choices sel = ch;
    sel.selective = true;
    double hw_sel = B * s * (6 * N + 16 * L * h * s);
    EXPECT(rel(p3_hardware_flops(&md, &none, &sel), hw_sel) < 1e-12, "selective: %.17g, got %.17g", hw_sel,
           p3_hardware_flops(&md, &none, &sel));
    EXPECT(rel(p3_hardware_flops(&md, &none, &ch), model) < 1e-12, "no recomputation: the model flops");
}

/* ---- 4. one matmul by hand --------------------------------------------------------- */

static void test_gemm_time(void)
{
    p3_cluster cl;
    if (a100(1, &cl)) { EXPECT(0, "no a100-80gb cluster"); return; }
    EXPECT(cl.sms == 108 && cl.peak_tflops == 312 && cl.dram_gbs == 2039 && cl.mem_gb == 80,
           "a100-80gb: 108 SMs, 312 TFLOP/s, 2039 GB/s, 80 GB; got %d, %g, %g, %g", cl.sms, cl.peak_tflops,
           cl.dram_gbs, cl.mem_gb);
    EXPECT(rel(cl.matmul_eff, 267.9 / 312) < 1e-15, "matmul_eff = 267.9 / 312, got %.17g", cl.matmul_eff);
    EXPECT(cl.per_node == 8 && cl.intra_gbs == 300 && cl.inter_gbs == 25, "DGX A100: 8 a node, 300 and 25 GB/s");

    double per_sm = A100_MAMF / A100_SMS;
    /* 8192^3: 32 x 64 = 2048 tiles either way, ceil(2048 / 108) = 19 waves */
    double want = 19 * 2.0 * 256 * 128 * 8192 / per_sm;
    double got = p3_gemm_time(&cl, 1, 8192, 8192, 8192);
    EXPECT(rel(got, want) < 1e-12, "8192^3: 19 waves = %.17g s, got %.17g", want, got);
    EXPECT(want > 2.0 * 3 * 8192.0 * 8192 / A100_DRAM, "8192^3 is compute-bound");
    /* 384 x 8192 x 8192: 256 x 128 tiles 2 x 64 = 128 (2 waves), 128 x 256 tiles
     * 3 x 32 = 96 (1 wave): the better orientation */
    want = 1 * 2.0 * 128 * 256 * 8192 / per_sm;
    got = p3_gemm_time(&cl, 1, 384, 8192, 8192);
    EXPECT(rel(got, want) < 1e-12, "384 x 8192 x 8192: 1 wave = %.17g s, got %.17g", want, got);
    /* count 3 of 8192^3: 6144 tiles, ceil(6144 / 108) = 57 waves */
    want = 57 * 2.0 * 256 * 128 * 8192 / per_sm;
    got = p3_gemm_time(&cl, 3, 8192, 8192, 8192);
    EXPECT(rel(got, want) < 1e-12, "3 x 8192^3: 57 waves = %.17g s, got %.17g", want, got);
    /* 128 x 128 x 65536: one 256 x 128 tile, half past the edge, still computes whole
     * (tile quantization): one wave of a full tile either way */
    want = 1 * 2.0 * 256 * 128 * 65536 / per_sm;
    got = p3_gemm_time(&cl, 1, 128, 128, 65536);
    EXPECT(rel(got, want) < 1e-12, "128 x 128 x 65536: one whole tile = %.17g s, got %.17g", want, got);
    /* k = 16: the bytes of A, B and C through device memory once */
    double m = 8192, n = 8192, k = 16;
    want = 2 * (m * k + k * n + m * n) / A100_DRAM;
    got = p3_gemm_time(&cl, 1, m, n, k);
    EXPECT(rel(got, want) < 1e-12, "8192 x 8192 x 16: memory-bound %.17g s, got %.17g", want, got);
    EXPECT(want > 19 * 2.0 * 256 * 128 * 16 / per_sm, "... and slower than its 19 waves");
    /* without SMs or bandwidth: flops at the MAMF rate */
    p3_cluster flat = cl;
    flat.sms = 0;
    want = 2 * 1000.0 * 3000 * 5000 / A100_MAMF;
    got = p3_gemm_time(&flat, 1, 1000, 3000, 5000);
    EXPECT(rel(got, want) < 1e-12, "no SMs: flops / rate = %.17g, got %.17g", want, got);
}

/* ---- 5. pins ---------------------------------------------------------------------- */

static p3_pins pins(int d, int t, int p, int b)
{
    p3_pins pn = p3_pins_free();
    pn.d = d;
    pn.t = t;
    pn.p = p;
    pn.b = b;
    return pn;
}

static void expect_refused(const p3_model *md, const p3_cluster *cl, p3_pins pn, const char *word, const char *what)
{
    char why[256] = "";
    int rc = p3_pins_check(md, cl, &pn, why, sizeof why);
    EXPECT(rc == 1, "%s: refused, got %d", what, rc);
    EXPECT(strstr(why, word) != NULL, "%s: the reason names \"%s\", got \"%s\"", what, word, why);
}

static void test_pins(void)
{
    p3_model md = sc21_1_7b();   /* 24 heads, 24 layers, B 512 */
    p3_cluster cl;
    if (a100(4, &cl)) { EXPECT(0, "no a100-80gb cluster"); return; }   /* 32 devices */
    expect_refused(&md, &cl, pins(P3_FREE, 16, P3_FREE, P3_FREE), "heads", "t 16 (divides 32, not the 24 heads)");
    expect_refused(&md, &cl, pins(P3_FREE, P3_FREE, 25, P3_FREE), "layers", "p 25 > 24 layers");
    expect_refused(&md, &cl, pins(4, 2, 2, P3_FREE), "devices", "4 x 2 x 2 = 16, not 32");
    expect_refused(&md, &cl, pins(4, 2, 4, 3), "multiple", "512 not a multiple of 4 x 3");
    expect_refused(&md, &cl, pins(32, 1, 1, 32), "multiple", "512 not a multiple of 32 x 32 (though of 32)");
    p3_pins chunky = pins(P3_FREE, 2, 1, P3_FREE);
    chunky.v = 2;
    char why[256] = "";
    EXPECT(p3_pins_check(&md, &cl, &chunky, why, sizeof why) == 1, "v 2 with p 1: refused");

    p3_pins pn = pins(8, 2, 2, 2);
    pn.v = 2;
    pn.recompute = 1;
    pn.sp = 1;
    pn.zero = 1;
    pn.overlap_dp = 1;
    why[0] = 0;
    EXPECT(p3_pins_check(&md, &cl, &pn, why, sizeof why) == 0, "8 x 2 x 2, b 2, v 2: accepted, got \"%s\"", why);
    p3_pins free_d = pn;
    free_d.d = P3_FREE;
    EXPECT(p3_pins_check(&md, &cl, &free_d, why, sizeof why) == 0, "d free: accepted, got \"%s\"", why);

    p3_config cf;
    p3_choices ch;
    EXPECT(p3_pins_config(&md, &cl, &pn, &cf, &ch) == 0, "every choice pinned: a config");
    EXPECT(cf.d == 8 && cf.t == 2 && cf.p == 2 && cf.b == 2 && cf.m == 32 && cf.zero1 && !cf.recompute,
           "config 8 x 2 x 2, b 2, m 512 / 16 = 32, ZeRO-1, no full recompute; got %d x %d x %d b %d m %lld", cf.d, cf.t,
           cf.p, cf.b, cf.m);
    EXPECT(ch.v == 2 && ch.selective && !ch.no_sp && ch.zero == 1 && ch.overlap_dp && !ch.no_scatter_gather,
           "choices v 2, selective, SP, ZeRO 1, overlapped");
    p3_config cf2;
    p3_choices ch2;
    EXPECT(p3_pins_config(&md, &cl, &free_d, &cf2, &ch2) == 0 && cf2.d == 8, "d free: d = 32 / (2 x 2) = 8, got %d",
           cf2.d);

    /* Two fully pinned sets: the one above, and SP off with full recomputation, no ZeRO,
     * one chunk (8 x 2 x 2 tensor-first: stage 1 starts at rank 16, on another node,
     * so scatter/gather of the pipeline message counts). */
    p3_pins other = pins(8, 2, 2, 2);
    other.v = 1;
    other.recompute = 2;
    other.sp = 0;
    other.zero = 0;
    other.overlap_dp = 0;
    const p3_pins sets[2] = { pn, other };
    for (int i = 0; i < 2; i++) {
        EXPECT(p3_pins_config(&md, &cl, &sets[i], &cf, &ch) == 0, "set %d: a config", i);
        p3_plan want, got[4];
        p3_plan_with(&md, &cl, &cf, &ch, &want);
        EXPECT(want.mem.total <= cl.mem_gb * 1e9, "set %d: the pinned plan fits 80 GB (%.3g bytes)", i,
               want.mem.total);
        int n = p3_plan_search(&md, &cl, &sets[i], got, 4);
        EXPECT(n == 1, "set %d: every choice pinned: one plan, got %d", i, n);
        if (n >= 1) {
            EXPECT(got[0].step.total == want.step.total, "set %d: the searched plan's step %.17g = p3_plan_with's %.17g",
                   i, got[0].step.total, want.step.total);
            EXPECT(got[0].cf.d == 8 && got[0].cf.t == 2 && got[0].cf.p == 2 && got[0].cf.b == 2 &&
                       got[0].ch.v == sets[i].v && got[0].cf.recompute == (sets[i].recompute == 2),
                   "set %d: the searched plan is the pinned one", i);
            EXPECT(got[0].mem.total == want.mem.total, "set %d: its memory %.17g, got %.17g", i, want.mem.total,
                   got[0].mem.total);
        }
    }
}

/* ---- 6. p3_plan_one ----------------------------------------------------------------- */

static void test_plan_one(void)
{
    p3_model md = sc21_1_7b();
    p3_cluster cl;
    if (a100(4, &cl)) { EXPECT(0, "no a100-80gb cluster"); return; }
    p3_config cf = { 8, 2, 2, 2, 32, true, false, P3_ORDER_TDP };
    p3_choices none = { 0, false, false, 0, false, false };
    p3_plan one, with;
    memset(&one, 0, sizeof one);
    memset(&with, 0, sizeof with);
    p3_plan_one(&md, &cl, &cf, &one);
    p3_plan_with(&md, &cl, &cf, &none, &with);
    EXPECT(one.step.total == with.step.total, "step %.17g, got %.17g", with.step.total, one.step.total);
    EXPECT(one.mem.total == with.mem.total, "memory %.17g, got %.17g", with.mem.total, one.mem.total);
    EXPECT(one.mfu == with.mfu && one.hfu == with.hfu && one.tflops_sc21 == with.tflops_sc21, "MFU, HFU, TFLOP/s");
    EXPECT(one.time.total == with.time.total && one.time.compute == with.time.compute && one.time.tp == with.time.tp &&
               one.time.pp == with.time.pp && one.time.bubble == with.time.bubble && one.time.dp == with.time.dp,
           "the folded terms");
    EXPECT(memcmp(&one.step, &with.step, sizeof one.step) == 0, "every step term");
    EXPECT(one.ch.v == 0 && !one.ch.selective && !one.ch.no_sp && one.ch.zero == 0 && !one.ch.overlap_dp &&
               !one.ch.no_scatter_gather,
           "its choices: none");
    /* and the comparison can tell: sequence parallelism off changes the step (t = 2) */
    p3_choices nosp = none;
    nosp.no_sp = true;
    p3_plan other;
    p3_plan_with(&md, &cl, &cf, &nosp, &other);
    EXPECT(other.step.total != one.step.total, "SP off gives another step (%.17g vs %.17g)", other.step.total,
           one.step.total);
    /* MFU by hand from the step: PaLM's flops / (devices x peak x step) */
    double mfu = p3_model_flops(&md) / (32 * A100_PEAK * one.step.total);
    EXPECT(rel(one.mfu, mfu) < 1e-12, "MFU %.17g, got %.17g", mfu, one.mfu);
}

int main(void)
{
    RUN(test_uneven_stages);
    RUN(test_interleaved_bubble);
    RUN(test_logits_and_flops_1_7b);
    RUN(test_gemm_time);
    RUN(test_pins);
    RUN(test_plan_one);
    return UNIT_RESULT();
}
