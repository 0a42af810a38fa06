/* chapters/08-cuda-warps/model.h: what reduce.cu and memory.cu share to turn
 * the emulator's counts of one launch into a modelled time on a real GPU
 * (common/gpu_model.h), and to carry those counts to the GPU build.
 *
 *   mc_counts    the counts the model needs, as doubles (so they scale)
 *   mc_read      ... of the last launch (emulator)
 *   mc_work      the model's input: the counts, the flops and the compulsory
 *                DRAM bytes the driver states, registers from ptxas's table
 *   mc_csv_*     the counts scaled to a modelled size, as `model_*` rows of
 *                the emulator's CSV; the GPU build reads them back
 *                (--model-csv) to print the model beside its measurement
 *
 * Every time the model gives is modelled, not measured: the tables say so,
 * and the CSV's rows for it are named `modelled_<device>_...` (quantity rows:
 * no median, no IQR, threads 1).
 */
#ifndef PW_CH08_MODEL_H
#define PW_CH08_MODEL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "gpu_model.h"
#include "gpu_published.h"
#include "gpu_regs.h"
#include "results.h"
}

/* The counts of one launch the model reads (common/simt/simt.h's names). */
enum {
    MC_LD_REQ, MC_ST_REQ,          /* global load / store warp requests */
    MC_LD_SECT, MC_ST_SECT,        /* their 32-byte sectors */
    MC_LD_LINES, MC_ST_LINES,      /* their 128-byte lines (L1 wavefronts) */
    MC_LD_L2,                      /* load sectors the block had not loaded before: what L2 serves */
    MC_SH_REQ, MC_SH_WAVEF,        /* shared-memory requests, wavefronts (conflicts included) */
    MC_COLL,                       /* warp collectives: shuffles, votes, __syncwarp */
    MC_ROUNDS,                     /* dependent rounds of global loads, summed over warps */
    MC_WARPS, MC_BLOCKS,
    MC_BARRIERS,                   /* __syncthreads passed, summed over blocks */
    MC_N
};
static const char *const mc_names[MC_N] = { "ld_requests", "st_requests", "ld_sectors", "st_sectors",
                                            "ld_lines", "st_lines", "ld_l2_sectors", "sh_requests",
                                            "sh_wavefronts", "collectives", "load_rounds", "warps", "blocks",
                                            "barriers" };

typedef struct {
    double v[MC_N];
    int threads;                   /* threads per block */
    int smem;                      /* bytes of shared memory per block: static + dynamic */
    char kernel[64];               /* the kernel's name (ptxas's table is looked up by it) */
} mc_counts;

/* Every count times f (blocks and warps too: the launch of f times the blocks). */
static inline mc_counts mc_scale(const mc_counts *c, double f)
{
    mc_counts s = *c;
    for (int q = 0; q < MC_N; q++) s.v[q] = c->v[q] * f;
    return s;
}

#if PW_SIMT_EMULATED
static inline mc_counts mc_read(void)
{
    const pw_simt_counters *c = pw_simt_last_counters();
    mc_counts k;
    memset(&k, 0, sizeof k);
    k.v[MC_LD_REQ] = (double)c->global_load_requests;
    k.v[MC_ST_REQ] = (double)c->global_store_requests;
    k.v[MC_LD_SECT] = (double)c->global_load_sectors;
    k.v[MC_ST_SECT] = (double)c->global_store_sectors;
    k.v[MC_LD_LINES] = (double)c->global_load_lines;
    k.v[MC_ST_LINES] = (double)c->global_store_lines;
    k.v[MC_LD_L2] = (double)c->global_load_l2_sectors;
    k.v[MC_BARRIERS] = (double)c->barriers;
    k.v[MC_SH_REQ] = (double)c->shared_requests;
    k.v[MC_SH_WAVEF] = (double)c->shared_wavefronts;
    k.v[MC_COLL] = (double)c->collectives;
    k.v[MC_ROUNDS] = (double)c->load_rounds;
    k.v[MC_WARPS] = (double)c->warps;
    k.v[MC_BLOCKS] = (double)c->blocks;
    k.threads = (int)c->threads_per_block;
    k.smem = (int)(c->shared_static_bytes + c->shared_dynamic_bytes);
    snprintf(k.kernel, sizeof k.kernel, "%s", pw_simt_last_kernel());
    return k;
}
#endif

/* The model's input, as chapter 09's gemm fills it: warp instructions are
 * the memory requests and collectives the emulator counted (the model adds
 * flops / 64 FFMAs); L2 serves the stores and the loads of sectors a block
 * had not loaded before (global_load_bytes: those loads' sectors x 32);
 * rounds the mean over warps. flops and dram_bytes (compulsory) are the
 * driver's.
 * *src and note (each may be NULL): where the registers came from. */
static inline pw_gpu_work mc_work(const mc_counts *c, double flops, double dram_bytes, const pw_gpu *g,
                                  pw_regs_source *src, char *note, size_t notelen)
{
    pw_gpu_work w;
    memset(&w, 0, sizeof w);
    w.flops = flops;
    w.tensor = 0;
    w.warp_instructions = c->v[MC_LD_REQ] + c->v[MC_ST_REQ] + c->v[MC_SH_REQ] + c->v[MC_COLL];
    w.global_sectors = c->v[MC_LD_SECT] + c->v[MC_ST_SECT];
    w.l2_sectors = c->v[MC_LD_L2] + c->v[MC_ST_SECT];
    w.global_lines = c->v[MC_LD_LINES] + c->v[MC_ST_LINES];
    w.global_load_bytes = 32 * c->v[MC_LD_L2];
    w.shared_wavefronts = c->v[MC_SH_WAVEF];
    w.dram_bytes = dram_bytes;
    w.blocks = c->v[MC_BLOCKS];
    w.rounds = c->v[MC_WARPS] > 0 ? c->v[MC_ROUNDS] / c->v[MC_WARPS] : 0;
    w.barriers = c->v[MC_BARRIERS];
    if (c->threads > 0) {
        pw_regs_source s = pw_gpu_launch_of(g->arch, c->kernel, c->threads, c->smem, &w.launch, note, notelen);
        if (src) *src = s;
    }
    return w;
}

/* The CSV's tag of a device: its file's stem with '_' for '-' ("h100_sxm"). */
static inline void mc_device_tag(const pw_gpu *g, char *tag, size_t len)
{
    snprintf(tag, len, "%s", g->key);
    for (char *p = tag; *p; p++)
        if (*p == '-' || *p == '.') *p = '_';
}

/* "3.2x" with the runner-up term: how much shorter it is than the binding one. */
static inline const char *mc_next(const pw_gpu_time *t, char *buf, size_t len)
{
    if (t->next_s > 0) snprintf(buf, len, "%s %.2fx", t->next, t->t_s / t->next_s);
    else snprintf(buf, len, "%s -", t->next);
    return buf;
}

/* The modelled rows of one variant at n on g: the time, each term, GB/s
 * of `useful_bytes`, the occupancy and the waves. */
static inline void mc_csv_modelled(pw_csv *csv, const char *variant, long long n, const pw_gpu *g,
                                   const pw_gpu_work *w, const pw_gpu_time *t, double useful_bytes)
{
    char tag[64], p[128];
    mc_device_tag(g, tag, sizeof tag);
    const char *names[] = { "t_s", "t_fp", "t_issue", "t_l1", "t_latency", "t_l2", "t_dram", "gbs", "waves",
                            "blocks_per_sm", "occupancy", "regs" };
    double vals[] = { t->t_s, t->t_fp, t->t_issue, t->t_l1, t->t_latency, t->t_l2, t->t_dram,
                      useful_bytes / t->t_s * 1e-9, t->waves, (double)t->occ.blocks_per_sm, t->occ.occupancy,
                      (double)w->launch.regs_per_thread };
    for (size_t q = 0; q < sizeof vals / sizeof vals[0]; q++) {
        snprintf(p, sizeof p, "modelled_%s_%s", tag, names[q]);
        pw_csv_quantity(csv, variant, n, 1, p, vals[q]);
    }
}

/* The counts scaled to n, as `model_*` rows (threads: the n they were
 * counted at), with the launch's block and shared memory. */
static inline void mc_csv_counts(pw_csv *csv, const char *variant, long long n, long long counted_n,
                                 const mc_counts *c)
{
    char p[64];
    for (int q = 0; q < MC_N; q++) {
        snprintf(p, sizeof p, "model_%s", mc_names[q]);
        pw_csv_quantity(csv, variant, n, (int)counted_n, p, c->v[q]);
    }
    pw_csv_quantity(csv, variant, n, (int)counted_n, "model_launch_threads", c->threads);
    pw_csv_quantity(csv, variant, n, (int)counted_n, "model_launch_smem", c->smem);
}

/* The model_* rows of variant v at n from an emulator's CSV (the last ones
 * when it has several): 1 when every count was found, else 0. The kernel's
 * name is the caller's to set. */
typedef struct {
    mc_counts *c;
    unsigned found;   /* a bit per count, and the launch's two */
} mc_rows;

static inline void mc_take_row(const char *param, double x, void *ctx)
{
    mc_rows *m = (mc_rows *)ctx;
    const char *q = param + 6;   /* after "model_" */
    if (!strcmp(q, "launch_threads")) { m->c->threads = (int)x; m->found |= 1u << MC_N; }
    else if (!strcmp(q, "launch_smem")) { m->c->smem = (int)x; m->found |= 1u << (MC_N + 1); }
    else
        for (int k = 0; k < MC_N; k++)
            if (!strcmp(q, mc_names[k])) { m->c->v[k] = x; m->found |= 1u << k; }
}

static inline int mc_csv_read_counts(const char *path, const char *v, long long n, mc_counts *c)
{
    memset(c, 0, sizeof *c);
    mc_rows m = { c, 0 };
    pw_csv_read_quantities(path, v, n, "model_", mc_take_row, &m);
    return m.found == (1u << (MC_N + 2)) - 1;
}

/* The registers' source, for a table's footer. */
static inline const char *mc_regs_footer(int estimated, const char *note, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", note[0] ? note : "estimates only",
             estimated ? "; ~: an estimate (the kernel is in no ptxas table)" : "");
    return buf;
}

/* On a GPU: the model's time tm (seconds; 0 when the emulator's CSV had no
 * counts) beside the measured median, as the table's "modelled us" and
 * "meas/mod" texts (8 bytes at least; "-" without a model) and a
 * modelled_<tag>_t_s row. */
static inline void mc_beside_measured(double tm, double measured, const char *tag, pw_csv *csv, const char *variant,
                                      long long n, char *mod, char *ratio, size_t len)
{
    snprintf(mod, len, "-");
    snprintf(ratio, len, "-");
    if (!(tm > 0)) return;
    snprintf(mod, len, "%.2f", 1e6 * tm);
    snprintf(ratio, len, "%.2f", measured / tm);
    char p[96];
    snprintf(p, sizeof p, "modelled_%s_t_s", tag);
    pw_csv_quantity(csv, variant, n, 1, p, tm);
}

/* The program's device: --device (a name or a file), else on a GPU the file
 * that describes it, else the default; loaded (a bad one: one line, exit
 * 2), with its CSV tag. */
static inline void mc_pick_device(const char *prog, const char *device, pw_gpu *dev, char *tag, size_t len)
{
#if !PW_SIMT_EMULATED
    cudaDeviceProp prop;
    if (!device && cudaGetDeviceProperties(&prop, 0) == cudaSuccess) device = pw_gpu_stem_for(prop.name);
#endif
    pw_gpu_find_or_exit(prog, device ? device : PW_GPU_DEFAULT, dev);
    mc_device_tag(dev, tag, len);
}

#endif
