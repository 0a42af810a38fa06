/* common/gpu_model.c: the GPU time model of gpu_model.h (version 2):
 * throughput terms, CUDA's occupancy calculation, waves and Little's law.
 * The devices come from data files (common/gpus/, read by gpu_device.c). */
#include "gpu_model.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

double pw_gpu_peak_tflops(const pw_gpu *g, int tensor)
{
    return tensor ? g->tc16_dense_tflops : g->fp32_tflops;
}

static int div_up(int a, int b) { return (a + b - 1) / b; }
static int round_up(int a, int b) { return div_up(a, b) * b; }

double pw_gpu_waves(double blocks, double resident)
{
    if (!(blocks > 0) || !(resident > 0)) return 0;
    return ceil(blocks / resident);
}

/* Why a launch cannot run, into err (when there is one). */
#define WHY(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); } while (0)

/* CUDA's occupancy calculation, as /usr/local/cuda/include/cuda_occupancy.h
 * does it (cudaOccMaxBlocksPerSMWarpsLimit, ...RegsLimit, ...SmemLimit) for
 * the default configuration: registers go to a warp in units of
 * reg_alloc_unit and to each of the schedulers' sub-partitions apart (a
 * block's warps are rounded up to a multiple of the sub-partitions for the
 * per-block check); shared memory goes to a block in units of
 * smem_alloc_unit, with the driver's reserve added, out of the largest
 * carve-out the SM has. */
pw_gpu_occ pw_gpu_occupancy(const pw_gpu *g, const pw_gpu_launch *l, char *err, size_t errlen)
{
    pw_gpu_occ o = { 0, 0, 0, 0, 0, 0, 0, "too big" };
    if (err && errlen) err[0] = 0;
    if (!g || !l) return o;
    if (l->threads_per_block <= 0 || l->threads_per_block > g->max_threads_per_block) {
        WHY("a block of %d threads: the most is %d", l->threads_per_block, g->max_threads_per_block);
        return o;
    }
    if (l->smem_per_block < 0 || l->smem_per_block > g->smem_per_block) {
        WHY("%d bytes of shared memory per block: the most is %d", l->smem_per_block,
            g->smem_per_block);
        return o;
    }
    if (l->regs_per_thread > g->max_regs_per_thread) {
        WHY("%d registers per thread: the most is %d", l->regs_per_thread, g->max_regs_per_thread);
        return o;
    }
    int warps = div_up(l->threads_per_block, 32);
    int subs = g->schedulers_per_sm > 0 ? g->schedulers_per_sm : 1;
    o.by_warps = g->max_warps_per_sm / warps;
    o.by_blocks = g->max_blocks_per_sm;
    o.by_regs = INT_MAX;
    if (l->regs_per_thread > 0) {
        int per_warp = round_up(l->regs_per_thread * 32, g->reg_alloc_unit > 0 ? g->reg_alloc_unit : 1);
        int per_block = per_warp * warps, assumed = per_warp * round_up(warps, subs);
        if (per_block > g->regs_per_block || assumed > g->regs_per_block) {
            WHY("%d registers per block: the most is %d", assumed > per_block ? assumed : per_block,
                g->regs_per_block);
            return o;
        }
        o.by_regs = (g->regs_per_sm / subs / per_warp) * subs / warps;
    }
    int smem = round_up(l->smem_per_block + g->smem_reserved_per_block, g->smem_alloc_unit > 0 ? g->smem_alloc_unit : 1);
    o.by_smem = smem > 0 ? g->smem_per_sm / smem : INT_MAX;

    const int by[] = { o.by_warps, o.by_blocks, o.by_regs, o.by_smem };
    const char *names[] = { "warps", "blocks", "registers", "shared memory" };
    int at = 0;
    for (int i = 1; i < 4; i++)
        if (by[i] < by[at]) at = i;
    o.blocks_per_sm = by[at];
    if (o.blocks_per_sm <= 0) {
        o.blocks_per_sm = 0;
        WHY("not one block fits an SM (%d warps, %d registers a thread)", warps, l->regs_per_thread);
        return o;
    }
    o.limit = names[at];
    o.warps_per_sm = o.blocks_per_sm * warps;
    o.occupancy = (double)o.warps_per_sm / g->max_warps_per_sm;
    return o;
}

/* A count the model can use: finite and not negative. */
static int usable(double x) { return isfinite(x) && x >= 0; }
/* A rate the model can divide by. */
static int positive(double x) { return isfinite(x) && x > 0; }

int pw_gpu_terms(const pw_gpu_time *t, int tensor, const char *names[], double values[])
{
    const char *n[] = { tensor ? "tensor" : "fp32", "issue", "l1", "latency", "l2", "dram" };
    const double v[] = { t->t_fp, t->t_issue, t->t_l1, t->t_latency, t->t_l2, t->t_dram };
    for (int i = 0; i < PW_GPU_NTERMS - 1; i++) {
        names[i] = n[i];
        values[i] = v[i];
    }
    return PW_GPU_NTERMS - 1;
}

/* Name the largest and the second largest term. */
static void name_bound(pw_gpu_time *t, int tensor)
{
    const char *names[PW_GPU_NTERMS];
    double v[PW_GPU_NTERMS];
    int n = pw_gpu_terms(t, tensor, names, v), top = 0, second = -1;
    for (int i = 1; i < n; i++)
        if (v[i] > v[top]) top = i;   /* a tie goes to the first listed: compute first */
    for (int i = 0; i < n; i++)
        if (i != top && (second < 0 || v[i] > v[second])) second = i;
    t->bound = t->t_s > 0 ? names[top] : "none";
    t->next = second >= 0 ? names[second] : "none";
    t->next_s = second >= 0 ? v[second] : 0;
}

pw_gpu_time pw_gpu_model(const pw_gpu *g, const pw_gpu_work *w)
{
    pw_gpu_time t;
    memset(&t, 0, sizeof t);
    t.t_s = t.t_fp = t.t_issue = t.t_l1 = t.t_latency = t.t_l2 = t.t_dram = t.t_throughput = NAN;
    t.bound = "invalid";
    t.next = "none";
    t.occ.limit = "none";
    if (!g || !w) return t;
    const double counts[] = { w->flops, w->warp_instructions, w->global_sectors, w->l2_sectors, w->global_lines,
                              w->global_load_bytes, w->shared_wavefronts, w->dram_bytes, w->blocks, w->rounds,
                              w->barriers };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (!usable(counts[i])) return t;
    double peak = pw_gpu_peak_tflops(g, w->tensor), clock_hz = g->clock_ghz * 1e9;
    if (g->sms <= 0 || g->schedulers_per_sm <= 0 || !positive(clock_hz) || !positive(peak) ||
        !positive(g->fp32_tflops) || !positive(g->dram_gbs) || !positive(g->l2_gbs) || !positive(g->l1_bytes_per_clk))
        return t;

    /* 1. Throughput over the whole GPU (version 1 of the model, with the
     * global requests' L1 wavefronts added). A SIMT rung's FFMAs are
     * flops / 64 warp instructions (32 lanes x 2 flops); where each
     * scheduler has 32 FP32 lanes (GA102, Hopper) they take every issue
     * slot the fp32 peak implies, so any other instruction costs FMAs; with
     * 16 (A100) the FMA pipe is the limit and the others issue beside it. */
    double ffma = w->tensor ? 0 : w->flops / 64;
    double sm_clocks = g->sms * clock_hz;
    double f_fp = w->flops / (peak * 1e12);
    double f_issue = (w->warp_instructions + ffma) / (sm_clocks * g->schedulers_per_sm);
    double f_l1 = (w->shared_wavefronts + w->global_lines) * (128.0 / g->l1_bytes_per_clk) / sm_clocks;
    t.t_l2 = (w->l2_sectors > 0 ? w->l2_sectors : w->global_sectors) * 32 / (g->l2_gbs * 1e9);
    t.t_dram = w->dram_bytes / (g->dram_gbs * 1e9);
    /* Version 1 of the model, for comparison: its five terms exactly (shared
     * wavefronts only in L1's, every global sector at L2). */
    double v1_shared = w->shared_wavefronts * (128.0 / g->l1_bytes_per_clk) / sm_clocks;
    double v1_l2 = w->global_sectors * 32 / (g->l2_gbs * 1e9);
    t.t_throughput = fmax(fmax(fmax(f_fp, f_issue), fmax(v1_shared, v1_l2)), t.t_dram);
    t.latency_cycles = 0;

    if (!(w->blocks > 0) || w->launch.threads_per_block <= 0) {   /* no launch: the throughput terms alone */
        t.t_fp = f_fp;
        t.t_issue = f_issue;
        t.t_l1 = f_l1;
        t.t_latency = 0;
        t.t_s = fmax(fmax(fmax(f_fp, f_issue), fmax(f_l1, t.t_l2)), t.t_dram);
        name_bound(&t, w->tensor);
        return t;
    }

    /* 2. Occupancy and waves. */
    t.occ = pw_gpu_occupancy(g, &w->launch, NULL, 0);
    if (t.occ.blocks_per_sm <= 0) {
        t.bound = "cannot run";
        return t;
    }
    double resident = (double)t.occ.blocks_per_sm * g->sms;
    t.waves = pw_gpu_waves(w->blocks, resident);
    double last = w->blocks - (t.waves - 1) * resident;    /* blocks in the last wave, 1..resident */
    t.tail = last / resident;
    double b_full = t.occ.blocks_per_sm, b_last = ceil(last / g->sms);   /* the busiest SM's share */

    /* One block's busy time on its SM: its share of each SM-local term. */
    double per_block = g->sms / w->blocks;
    double T_fp = f_fp * per_block, T_issue = f_issue * per_block, T_l1 = f_l1 * per_block;
    double T = fmax(T_fp, fmax(T_issue, T_l1));

    /* 3. Latency: R rounds of global loads a warp, each waiting L: L2's
     * latency, and DRAM's for the share of the loaded bytes DRAM serves. */
    double R = w->rounds, L = 0;
    if (R > 0 && w->global_load_bytes > 0) {
        double f_dram = fmin(1.0, w->dram_bytes / w->global_load_bytes);
        L = g->lat_l2_cycles + f_dram * (g->lat_dram_cycles - g->lat_l2_cycles);
    }
    t.latency_cycles = L;
    /* What cannot overlap the waits: the block's busy time where its rounds
     * end at barriers (synced: at least one barrier a round), else one
     * warp's share of it (its scheduler's quarter, split among the block's
     * warps on that scheduler). */
    double warps = ceil(w->launch.threads_per_block / 32.0);
    double synced = R > 0 ? fmin(1.0, w->barriers / w->blocks / R) : 0;
    double T_c = T * (synced + (1 - synced) * fmin(1.0, g->schedulers_per_sm / warps));
    /* A barrier waits for the block's shared-memory traffic before it to
     * land: at least one shared-memory latency each (a reduction tree's
     * levels, a tiled GEMM's two barriers a tile). */
    double barrier_wait = w->barriers / w->blocks * g->lat_smem_cycles / clock_hz;
    double chain = R * L / clock_hz + barrier_wait + T_c;    /* one block alone */
    double blocks_on_sm = (t.waves - 1) * b_full + b_last;
    t.t_fp = blocks_on_sm * T_fp;
    t.t_issue = blocks_on_sm * T_issue;
    t.t_l1 = blocks_on_sm * T_l1;
    t.t_latency = t.waves * chain;
    double t_sm = (t.waves - 1) * fmax(b_full * T, chain) + fmax(b_last * T, chain);
    t.t_s = fmax(t_sm, fmax(t.t_l2, t.t_dram));

    /* Little's law, for the table: the bytes an SM keeps in flight (its
     * resident blocks' loads of one round) against what DRAM's bandwidth
     * times its latency needs per SM. */
    if (R > 0) t.inflight_bytes_per_sm = b_full * w->global_load_bytes / w->blocks / R;
    t.needed_bytes_per_sm = g->dram_gbs * 1e9 * (g->lat_dram_cycles / clock_hz) / g->sms;
    name_bound(&t, w->tensor);
    return t;
}
