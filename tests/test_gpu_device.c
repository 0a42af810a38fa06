/* tests/test_gpu_device.c: the GPU device files (common/gpus/NAME.gpu) and their
 * loader (common/gpu_device.c): every shipped device loads with the figures
 * its sources give (the table below repeats them, so a changed file must
 * change the test too), the FP32 identity holds for each, every kind of bad
 * file is refused with one line naming the file and the line, and devices are
 * found by name, by name.gpu, by path and in $PW_GPU_DIR. */
#define _POSIX_C_SOURCE 200809L
#include "gpu_model.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the shipped devices, as their sources give them --------------------------------------- */

typedef struct {
    const char *key, *name, *arch;
    int sms;
    double clock_ghz, fp32_tflops;
    int lanes, schedulers;
    double tc_dense, tc_sparse, dram_gbs, l2_gbs, l2_mb, l1_bytes;
    int max_threads, max_warps, max_blocks, regs_sm, regs_block, regs_thread, reg_unit;
    int smem_sm, smem_block, smem_reserved, smem_unit;   /* bytes */
    double lat_dram, lat_l2, lat_smem, lat_ffma;
} device_figures;

static const device_figures shipped[] = {
    /* GA102 whitepaper (RTX A6000): 84 SMs of 128 lanes, 1800 MHz, 38.7 TFLOPS, 154.8/309.7 tensor, 768 GB/s,
     * 6 MB L2; L2 bandwidth derived from the L40's (gpu-benches); latencies: the L40's in ns at 1.8 GHz;
     * compute capability 8.6: 48 warps, 16 blocks, 100 KiB / 99 KiB shared. */
    { "rtx-a6000", "RTX A6000", "sm_86", 84, 1.8, 38.7, 128, 4, 154.8, 309.7, 768, 2230, 6, 128, 1024, 48, 16,
      65536, 65536, 255, 256, 100 * 1024, 99 * 1024, 1024, 128, 457, 200, 23, 4 },
    /* A100 whitepaper and 80GB datasheet: 108 SMs of 64 lanes, 1410 MHz, 19.5 / 312 / 624 TFLOPS, 2039 GB/s,
     * 40 MB L2; gpu-benches: L2 5400 GB/s, L2 211 and DRAM 571 cycles; compute capability 8.0: 64 warps,
     * 32 blocks, 164 KiB / 163 KiB shared. */
    { "a100-sxm", "A100 SXM4 80GB", "sm_80", 108, 1.41, 19.5, 64, 4, 312, 624, 2039, 5400, 40, 128, 1024, 64, 32,
      65536, 65536, 255, 256, 164 * 1024, 163 * 1024, 1024, 128, 571, 211, 23, 4 },
    /* Hopper whitepaper and H100 datasheet: 132 SMs of 128 lanes, 1.98 GHz, 67 TFLOPS, 1979 "with sparsity"
     * (989.5 dense), 3350 GB/s, 50 MB L2; L2 9900 GB/s (gpu-benches, H200); L2 291 and DRAM 700 cycles
     * (markdewing); compute capability 9.0: 64 warps, 32 blocks, 228 KiB / 227 KiB shared. */
    { "h100-sxm", "H100 SXM", "sm_90", 132, 1.98, 67, 128, 4, 989.5, 1979, 3350, 9900, 50, 128, 1024, 64, 32,
      65536, 65536, 255, 256, 228 * 1024, 227 * 1024, 1024, 128, 700, 291, 23, 4 },
    /* H200 datasheet: the H100 SXM's compute, 4800 GB/s HBM3e. */
    { "h200-sxm", "H200 SXM", "sm_90", 132, 1.98, 67, 128, 4, 989.5, 1979, 4800, 9900, 50, 128, 1024, 64, 32,
      65536, 65536, 255, 256, 228 * 1024, 227 * 1024, 1024, 128, 700, 291, 23, 4 },
};
enum { NSHIPPED = (int)(sizeof shipped / sizeof shipped[0]) };

/* How many fields of g differ from f; each one printed (indented) when loud. */
static int mismatches(const pw_gpu *g, const device_figures *f, int loud)
{
    int bad = 0;
#define SAME_S(field, want)                                                                              \
    if (strcmp(g->field, want)) {                                                                        \
        bad++;                                                                                           \
        if (loud) printf("    %s: %s is '%s', its sources say '%s'\n", f->key, #field, g->field, want);  \
    }
#define SAME_N(field, want)                                                                              \
    if ((double)g->field != (double)(want)) {                                                            \
        bad++;                                                                                           \
        if (loud) printf("    %s: %s is %g, its sources say %g\n", f->key, #field, (double)g->field,     \
                         (double)(want));                                                                \
    }
    SAME_S(key, f->key) SAME_S(name, f->name) SAME_S(arch, f->arch)
    SAME_N(sms, f->sms) SAME_N(clock_ghz, f->clock_ghz) SAME_N(fp32_tflops, f->fp32_tflops)
    SAME_N(fp32_lanes_per_sm, f->lanes) SAME_N(schedulers_per_sm, f->schedulers)
    SAME_N(tc16_dense_tflops, f->tc_dense) SAME_N(tc16_sparse_tflops, f->tc_sparse)
    SAME_N(dram_gbs, f->dram_gbs) SAME_N(l2_gbs, f->l2_gbs) SAME_N(l2_mb, f->l2_mb)
    SAME_N(l1_bytes_per_clk, f->l1_bytes) SAME_N(max_threads_per_block, f->max_threads)
    SAME_N(max_warps_per_sm, f->max_warps) SAME_N(max_blocks_per_sm, f->max_blocks)
    SAME_N(regs_per_sm, f->regs_sm) SAME_N(regs_per_block, f->regs_block)
    SAME_N(max_regs_per_thread, f->regs_thread) SAME_N(reg_alloc_unit, f->reg_unit)
    SAME_N(smem_per_sm, f->smem_sm) SAME_N(smem_per_block, f->smem_block)
    SAME_N(smem_reserved_per_block, f->smem_reserved) SAME_N(smem_alloc_unit, f->smem_unit)
    SAME_N(lat_dram_cycles, f->lat_dram) SAME_N(lat_l2_cycles, f->lat_l2) SAME_N(lat_smem_cycles, f->lat_smem)
    SAME_N(lat_ffma_cycles, f->lat_ffma)
#undef SAME_S
#undef SAME_N
    return bad;
}

static void test_shipped_devices(void)
{
    for (int d = 0; d < NSHIPPED; d++) {
        pw_gpu g;
        char err[1024];
        if (pw_gpu_find(shipped[d].key, &g, err, sizeof err)) {
            EXPECT(0, "%s does not load: %s", shipped[d].key, err);
            continue;
        }
        EXPECT(mismatches(&g, &shipped[d], 1) == 0, "%s: every figure as its sources give it", shipped[d].key);
        /* The FP32 identity: lanes x 2 flops (an FMA) x clock is the datasheet's peak, within 1%. */
        double peak = g.sms * (double)g.fp32_lanes_per_sm * 2 * g.clock_ghz / 1000;
        EXPECT(fabs(peak - g.fp32_tflops) <= 0.01 * g.fp32_tflops, "%s: %d x %d x 2 x %g GHz = %.2f TFLOP/s, the "
               "datasheet says %g", g.key, g.sms, g.fp32_lanes_per_sm, g.clock_ghz, peak, g.fp32_tflops);
        /* the dense Tensor Core figure is half the sparse one (to the datasheets' rounding: 309.7 / 154.8) */
        EXPECT(fabs(g.tc16_sparse_tflops - 2 * g.tc16_dense_tflops) <= 0.001 * g.tc16_sparse_tflops,
               "%s: sparse %g = 2 x dense %g", g.key,
               g.tc16_sparse_tflops, g.tc16_dense_tflops);
        EXPECT(strstr(g.path, shipped[d].key) && strstr(g.path, ".gpu"), "%s: path %s", g.key, g.path);
        EXPECT(g.max_warps_per_sm * 32 >= g.max_threads_per_block && g.smem_per_block <= g.smem_per_sm,
               "%s: occupancy limits consistent", g.key);
    }
    /* the folder lists them all, sorted */
    char names[32][64];
    int n = pw_gpu_list(names, 32);
    EXPECT(n >= NSHIPPED && n <= 32, "%d devices in %s", n, pw_gpu_dir());
    for (int d = 0; d < NSHIPPED; d++) {
        int found = 0;
        for (int i = 0; i < n && i < 32; i++) found |= !strcmp(names[i], shipped[d].key);
        EXPECT(found, "%s listed in %s", shipped[d].key, pw_gpu_dir());
    }
    for (int i = 1; i < n && i < 32; i++) EXPECT(strcmp(names[i - 1], names[i]) < 0, "sorted: %s, %s", names[i - 1],
                                                 names[i]);
    /* a smaller buffer: the first ones, and the count of all */
    char two[2][64];
    EXPECT(pw_gpu_list(two, 2) == n && !strcmp(two[0], names[0]) && !strcmp(two[1], names[1]),
           "pw_gpu_list with cap 2: the first two and the total");
}

/* ---- bad files ----------------------------------------------------------------------------- */

static char tmpdir[256];

/* A valid file with round numbers (the test GPU of test_gpu_model.c). */
static const char *good_text =
    "# a test device\n"
    "name = Test GPU\n"
    "arch = sm_90\n"
    "sms = 10                 [t]\n"
    "clock_ghz = 1.0          [t]   # a comment\n"
    "fp32_tflops = 2.56       [t, u]\n"
    "fp32_lanes_per_sm = 128  [t]\n"
    "schedulers_per_sm = 4    [t]\n"
    "dram_gbs = 100           [t]\n"
    "l2_gbs = 1000            [t]\n"
    "l2_mb = 1                [t]\n"
    "l1_bytes_per_clk = 128   [t]\n"
    "max_threads_per_block = 1024 [t]\n"
    "max_warps_per_sm = 64    [t]\n"
    "max_blocks_per_sm = 32   [t]\n"
    "regs_per_sm = 65536      [t]\n"
    "regs_per_block = 65536   [t]\n"
    "max_regs_per_thread = 255 [t]\n"
    "reg_alloc_unit = 256     [t]\n"
    "smem_per_sm_kb = 228     [t]\n"
    "smem_per_block_kb = 227  [t]\n"
    "smem_reserved_per_block = 1024 [t]\n"
    "smem_alloc_unit = 128    [t]\n"
    "lat_dram_cycles = 500    [t]\n"
    "lat_l2_cycles = 200      [t]\n"
    "lat_smem_cycles = 30     [t]\n"
    "lat_ffma_cycles = 4      [t]\n"
    "\n"
    "ref t = a test, https://example.org/a#anchor   # not part of the URL\n"
    "ref u = another, https://example.org/b\n";

/* good_text with the line of `key` replaced by `repl` (NULL: deleted), and
 * `extra` appended. The line number of the change in *line (of the appended
 * text's first line when there is no key). */
static char *variant(const char *key, const char *repl, const char *extra, int *line)
{
    size_t cap = strlen(good_text) + (repl ? strlen(repl) : 0) + (extra ? strlen(extra) : 0) + 8;
    char *out = malloc(cap);
    out[0] = '\0';
    int n = 0, changed = 0;
    for (const char *p = good_text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
        size_t klen = key ? strlen(key) : 0;
        n++;
        if (key && !strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '=')) {
            changed = n;
            if (repl) {
                strcat(out, repl);
                strcat(out, "\n");
            }
        } else {
            size_t o = strlen(out);
            memcpy(out + o, p, len);
            out[o + len] = '\0';
        }
        p += len;
    }
    if (extra) {
        if (!key) changed = n + 1;
        strcat(out, extra);
    }
    if (line) *line = changed;
    return out;
}

/* Writes text to tmpdir/name; the path in path. */
static void write_file(const char *name, const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        printf("  cannot write %s\n", path);
        return;
    }
    fputs(text, f);
    fclose(f);
}

/* 1 if the file is refused with a one-line message that names the file
 * (and "file:line:" when line > 0) and contains want, and leaves *g alone. */
static int refused(const char *name, const char *text, int line, const char *want, int loud)
{
    char path[512], err[1024], prefix[600];
    write_file(name, text, path, sizeof path);
    pw_gpu g;
    memset(&g, 0x5a, sizeof g);
    unsigned char before[sizeof g];
    memcpy(before, &g, sizeof g);
    int rc = pw_gpu_load(path, &g, err, sizeof err);
    if (line > 0) snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    else snprintf(prefix, sizeof prefix, "%s: ", path);
    int ok = rc == -1 && !strncmp(err, prefix, strlen(prefix)) && strstr(err, want) && !strchr(err, '\n') &&
             !memcmp(before, &g, sizeof g);
    if (!ok && loud)
        printf("    %s: rc %d, message '%s', wanted '%s...%s'\n", name, rc, rc ? err : "(loaded)", prefix, want);
    return ok;
}

static void test_good_file(void)
{
    char path[512], err[1024];
    write_file("good.gpu", good_text, path, sizeof path);
    pw_gpu g;
    int rc = pw_gpu_load(path, &g, err, sizeof err);
    EXPECT(rc == 0, "the test file loads: %s", rc ? err : "");
    if (rc) return;
    EXPECT(!strcmp(g.key, "good") && !strcmp(g.path, path) && !strcmp(g.name, "Test GPU") && !strcmp(g.arch, "sm_90"),
           "key %s, path %s, name '%s', arch %s", g.key, g.path, g.name, g.arch);
    EXPECT(g.sms == 10 && g.clock_ghz == 1.0 && g.fp32_tflops == 2.56 && g.smem_per_sm == 228 * 1024 &&
               g.smem_per_block == 227 * 1024 && g.lat_ffma_cycles == 4,
           "figures as written (KiB to bytes)");
    EXPECT(g.tc16_dense_tflops == 0 && g.tc16_sparse_tflops == 0, "the tc16 keys are optional: 0");

    /* variants that are fine: tc16 0, CRLF line ends, no final newline, refs defined after use */
    char *v = variant("sms", "sms = 10 [t]\ntc16_dense_tflops = 0 [t]", NULL, NULL);
    write_file("tc-zero.gpu", v, path, sizeof path);
    EXPECT(pw_gpu_load(path, &g, err, sizeof err) == 0 && g.tc16_dense_tflops == 0, "tc16 may be 0");
    free(v);
    char crlf[4096];
    size_t m = 0;
    for (const char *p = good_text; *p && m < sizeof crlf - 3; p++) {
        if (*p == '\n') crlf[m++] = '\r';
        crlf[m++] = *p;
    }
    crlf[m - 2] = '\0';   /* no final line end */
    write_file("crlf.gpu", crlf, path, sizeof path);
    rc = pw_gpu_load(path, &g, err, sizeof err);
    EXPECT(rc == 0 && g.sms == 10, "CRLF and no final newline: %s", rc ? err : "ok");
}

static void test_bad_files(void)
{
    int line;
    char *v;
#define REFUSED(name, key, repl, extra, want, with_line)                                                 \
    do {                                                                                                 \
        v = variant(key, repl, extra, &line);                                                            \
        EXPECT(refused(name, v, (with_line) ? line : 0, want, 1), "%s refused", name);                   \
        free(v);                                                                                         \
    } while (0)

    REFUSED("missing.gpu", "sms", NULL, NULL, "missing 'sms'", 0);
    REFUSED("missing-lat.gpu", "lat_l2_cycles", NULL, NULL, "missing 'lat_l2_cycles'", 0);
    REFUSED("negative.gpu", "sms", "sms = -10 [t]", NULL, "'sms' must be > 0: '-10'", 1);
    REFUSED("zero.gpu", "l2_gbs", "l2_gbs = 0 [t]", NULL, "'l2_gbs' must be > 0: '0'", 1);
    REFUSED("zero-double.gpu", "clock_ghz", "clock_ghz = 0.0 [t]", NULL, "'clock_ghz' must be > 0", 1);
    REFUSED("tc-negative.gpu", NULL, NULL, "tc16_sparse_tflops = -1 [t]\n", "'tc16_sparse_tflops' must be >= 0", 1);
    REFUSED("word.gpu", "clock_ghz", "clock_ghz = fast [t]", NULL, "'clock_ghz' is not a number: 'fast'", 1);
    REFUSED("nan.gpu", "dram_gbs", "dram_gbs = nan [t]", NULL, "'dram_gbs' is not a number", 1);
    REFUSED("inf.gpu", "dram_gbs", "dram_gbs = inf [t]", NULL, "'dram_gbs' is not a number", 1);
    REFUSED("junk.gpu", "clock_ghz", "clock_ghz = 1.0GHz [t]", NULL, "junk after the number: '1.0GHz'", 1);
    REFUSED("hex.gpu", "sms", "sms = 0x10 [t]", NULL, "junk after the number", 1);
    REFUSED("two-numbers.gpu", "sms", "sms = 10 12 [t]", NULL, "junk after the number", 1);
    REFUSED("fraction.gpu", "sms", "sms = 10.5 [t]", NULL, "'sms' must be a whole number: '10.5'", 1);
    REFUSED("fraction-kib.gpu", "smem_per_sm_kb", "smem_per_sm_kb = 227.5 [t]", NULL, "must be a whole number", 1);
    REFUSED("huge.gpu", "smem_per_sm_kb", "smem_per_sm_kb = 3000000 [t]", NULL, "'smem_per_sm_kb' is too large", 1);
    REFUSED("no-value.gpu", "sms", "sms = [t]", NULL, "'sms' has no value", 1);
    REFUSED("unknown-near.gpu", "sms", "smz = 10 [t]", NULL, "unknown key 'smz' (did you mean 'sms'?)", 1);
    REFUSED("unknown-far.gpu", NULL, NULL, "colour = 3 [t]\n", "unknown key 'colour' (known: name, arch, sms,", 1);
    REFUSED("duplicate.gpu", NULL, NULL, "sms = 10 [t]\n", "duplicate key 'sms' (first set on line 4)", 1);
    REFUSED("duplicate-ref.gpu", NULL, NULL, "ref t = again\n", "duplicate ref 't' (first on line 29)", 1);
    REFUSED("no-ref.gpu", "sms", "sms = 10", NULL, "'sms = 10' has no source", 1);
    REFUSED("no-ref-comment.gpu", "sms", "sms = 10   # [t] in a comment is no source", NULL, "has no source", 1);
    REFUSED("undefined-ref.gpu", "sms", "sms = 10 [ds]", NULL, "'sms' cites [ds], but no 'ref ds = ...' line", 1);
    REFUSED("undefined-second.gpu", "sms", "sms = 10 [t, ds]", NULL, "'sms' cites [ds]", 1);
    REFUSED("bad-ref-id.gpu", "sms", "sms = 10 [t u]", NULL, "bad source id '[t u]'", 1);
    REFUSED("empty-ref.gpu", NULL, NULL, "ref v =\n", "ref 'v' has no text", 1);
    REFUSED("ref-no-id.gpu", NULL, NULL, "ref = text\n", "a ref needs an id", 1);
    REFUSED("bad-arch.gpu", "arch", "arch = sm86", NULL, "arch must be sm_NN (NN digits", 1);
    REFUSED("bad-arch2.gpu", "arch", "arch = sm_9x", NULL, "arch must be sm_NN", 1);
    REFUSED("long-name.gpu", "name",
            "name = a name of more than sixty-three characters, which the struct cannot hold at all", NULL,
            "'name' is too long", 1);
    REFUSED("malformed.gpu", NULL, NULL, "just some words\n", "malformed line", 1);
    REFUSED("bad-key.gpu", NULL, NULL, "two words = 3 [t]\n", "malformed line", 1);
    REFUSED("fp32.gpu", "fp32_tflops", "fp32_tflops = 3.0 [t]", NULL,
            "fp32_tflops 3 disagrees with sms x fp32_lanes_per_sm x 2 x clock_ghz / 1000 = 10 x 128 x 2 x 1 / 1000 "
            "= 2.56",
            0);
    REFUSED("clock.gpu", "clock_ghz", "clock_ghz = 1.8 [t]", NULL, "fp32_tflops 2.56 disagrees", 0);
    REFUSED("warps.gpu", "max_warps_per_sm", "max_warps_per_sm = 16 [t]", NULL,
            "max_warps_per_sm x 32 = 512 is less than max_threads_per_block = 1024", 0);
    REFUSED("smem.gpu", "smem_per_block_kb", "smem_per_block_kb = 229 [t]", NULL,
            "smem_per_block_kb 229 is more than smem_per_sm_kb 228", 0);
    REFUSED("regs.gpu", "regs_per_block", "regs_per_block = 65537 [t]", NULL, "regs_per_block 65537 is more", 0);
#undef REFUSED

    /* a line too long for the reader */
    char *longline = malloc(6000);
    memset(longline, 'x', 5000);
    strcpy(longline + 5000, " = 1 [t]\n");
    v = variant(NULL, NULL, longline, &line);
    EXPECT(refused("long-line.gpu", v, line, "line too long", 1), "an overlong line refused");
    free(v);
    free(longline);

    /* files that cannot be read */
    char path[512], err[1024];
    pw_gpu g;
    snprintf(path, sizeof path, "%s/no-such.gpu", tmpdir);
    EXPECT(pw_gpu_load(path, &g, err, sizeof err) == -1 && strstr(err, path) == err &&
               strstr(err, "cannot open: No such file or directory"),
           "a missing file: '%s'", err);
    snprintf(path, sizeof path, "%s/a-folder.gpu", tmpdir);
    mkdir(path, 0700);
    EXPECT(pw_gpu_load(path, &g, err, sizeof err) == -1 && strstr(err, path) == err && strstr(err, "cannot read"),
           "a folder: '%s'", err);
    rmdir(path);
    EXPECT(pw_gpu_load(NULL, &g, err, sizeof err) == -1, "no path");
    /* a NULL or tiny err buffer is fine */
    EXPECT(pw_gpu_load("/no/such/file.gpu", &g, NULL, 0) == -1, "NULL err");
    char tiny[8];
    EXPECT(pw_gpu_load("/no/such/file.gpu", &g, tiny, sizeof tiny) == -1 && strlen(tiny) == sizeof tiny - 1,
           "err truncated to its size: '%s'", tiny);
}

/* ---- finding a device ---------------------------------------------------------------------- */

static void test_find(void)
{
    pw_gpu g;
    char err[1024], path[1024];
    EXPECT(pw_gpu_find("h100-sxm", &g, err, sizeof err) == 0 && !strcmp(g.key, "h100-sxm"), "by name: %s", err);
    EXPECT(pw_gpu_find("h100-sxm.gpu", &g, err, sizeof err) == 0 && !strcmp(g.key, "h100-sxm"), "name.gpu");
    EXPECT(pw_gpu_find("H100-SXM", &g, err, sizeof err) == 0 && !strcmp(g.key, "h100-sxm"), "any case");
    snprintf(path, sizeof path, "%s/a100-sxm.gpu", pw_gpu_dir());
    EXPECT(pw_gpu_find(path, &g, err, sizeof err) == 0 && !strcmp(g.key, "a100-sxm") && !strcmp(g.path, path),
           "by path %s: %s", path, err);
    EXPECT(pw_gpu_find(PW_GPU_DEFAULT, &g, err, sizeof err) == 0, "the default device %s loads", PW_GPU_DEFAULT);

    EXPECT(pw_gpu_find("h300-sxm", &g, err, sizeof err) == -1 && strstr(err, "unknown device 'h300-sxm' (known: ") &&
               strstr(err, "a100-sxm") && strstr(err, "h100-sxm") && strstr(err, "rtx-a6000") &&
               strstr(err, "; or give a path to a .gpu file)"),
           "an unknown name lists the known: '%s'", err);
    EXPECT(pw_gpu_find("", &g, err, sizeof err) == -1 && strstr(err, "no device given"), "an empty name: %s", err);
    EXPECT(pw_gpu_find(NULL, &g, err, sizeof err) == -1, "no name");
    /* a path is a path: not looked up in the folder */
    EXPECT(pw_gpu_find("./h100-sxm.gpu", &g, err, sizeof err) == -1 && strstr(err, "./h100-sxm.gpu: cannot open"),
           "a relative path that is not there: '%s'", err);
    /* a bad file found by name is refused like one loaded by path */
    char good[512];
    write_file("findme.gpu", good_text, good, sizeof good);
    EXPECT(pw_gpu_find(good, &g, err, sizeof err) == 0 && !strcmp(g.key, "findme"), "a good file by path: %s", err);
}

static void test_gpu_dir_override(void)
{
    const char *old = getenv("PW_GPU_DIR");
    char saved[1024] = "";
    if (old) snprintf(saved, sizeof saved, "%s", old);
    char dir[512], path[1024], err[1024];
    snprintf(dir, sizeof dir, "%s/devices", tmpdir);
    mkdir(dir, 0700);
    static const char *const made[][2] = { { "my-gpu.gpu", NULL }, { "zz-gpu.gpu", NULL },
                                           { "notes.txt", "hello\n" },       /* not a device */
                                           { ".hidden.gpu", NULL } };         /* not listed */
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[i][0]);
        FILE *f = fopen(path, "w");
        if (!f) continue;
        fputs(made[i][1] ? made[i][1] : good_text, f);
        fclose(f);
    }

    setenv("PW_GPU_DIR", dir, 1);
    EXPECT(!strcmp(pw_gpu_dir(), dir), "pw_gpu_dir follows $PW_GPU_DIR: %s", pw_gpu_dir());
    char names[8][64];
    int n = pw_gpu_list(names, 8);
    EXPECT(n == 2 && !strcmp(names[0], "my-gpu") && !strcmp(names[1], "zz-gpu"), "%d devices: %s %s", n,
           n > 0 ? names[0] : "", n > 1 ? names[1] : "");
    pw_gpu g;
    EXPECT(pw_gpu_find("my-gpu", &g, err, sizeof err) == 0 && !strcmp(g.key, "my-gpu") && !strcmp(g.name, "Test GPU"),
           "found in $PW_GPU_DIR: %s", err);
    EXPECT(pw_gpu_find("h100-sxm", &g, err, sizeof err) == -1 && strstr(err, "(known: my-gpu, zz-gpu; or give"),
           "the shipped ones are not there: '%s'", err);

    snprintf(path, sizeof path, "%s/nowhere", tmpdir);
    setenv("PW_GPU_DIR", path, 1);
    EXPECT(pw_gpu_list(names, 8) == 0, "a missing folder lists nothing");
    EXPECT(pw_gpu_find("h100-sxm", &g, err, sizeof err) == -1 && strstr(err, "cannot read the devices folder") &&
               strstr(err, path),
           "a missing folder: '%s'", err);

    setenv("PW_GPU_DIR", "", 1);   /* empty: the default */
    EXPECT(pw_gpu_find("h100-sxm", &g, err, sizeof err) == 0, "an empty $PW_GPU_DIR is the default: %s", err);
    if (old) setenv("PW_GPU_DIR", saved, 1);
    else unsetenv("PW_GPU_DIR");
    EXPECT(pw_gpu_find("h100-sxm", &g, err, sizeof err) == 0, "restored: %s", err);

    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[i][0]);
        unlink(path);
    }
    rmdir(dir);
}

/* --device with an unknown name: one line on stderr, exit 2 (a usage error). */
static void test_find_or_exit(void)
{
    char out[512];
    snprintf(out, sizeof out, "%s/stderr.txt", tmpdir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) SKIP("fork failed");
    if (pid == 0) {
        if (!freopen(out, "w", stderr)) _exit(99);
        pw_gpu g;
        pw_gpu_find_or_exit("gemm", "nope", &g);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 2, "exit status %d, wanted 2",
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    char text[1024] = "";
    FILE *f = fopen(out, "r");
    if (f) {
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
    }
    EXPECT(!strncmp(text, "gemm: unknown device 'nope' (known: ", 36) && strchr(text, '\n') == text + strlen(text) - 1,
           "one line on stderr: '%s'", text);
    unlink(out);
    pw_gpu g;
    pw_gpu_find_or_exit("gemm", "h200-sxm", &g);   /* a known one returns */
    EXPECT(!strcmp(g.key, "h200-sxm"), "found: %s", g.key);
}

/* The checks above can fail: a wrong expectation is caught. */
static void test_checks_can_fail(void)
{
    pw_gpu g;
    char err[1024];
    if (pw_gpu_find("rtx-a6000", &g, err, sizeof err)) {
        EXPECT(0, "rtx-a6000 does not load: %s", err);
        return;
    }
    device_figures wrong = shipped[0];
    wrong.sms = 82;   /* the RTX 3090's count: one figure off */
    EXPECT(mismatches(&g, &wrong, 0) == 1, "a table with the RTX 3090's SM count disagrees in one figure");
    wrong = shipped[0];
    wrong.dram_gbs = 936;   /* and its GDDR6X bandwidth */
    wrong.name = "RTX 3090";
    EXPECT(mismatches(&g, &wrong, 0) == 2, "two figures off, two mismatches");
    EXPECT(mismatches(&g, &shipped[1], 0) >= 15, "the A100's table is not the A6000's");
    /* a good file is not "refused", and a refusal with another message is not the one wanted */
    EXPECT(!refused("good2.gpu", good_text, 0, "missing", 0), "a good file is not refused");
    char *v = variant("sms", NULL, NULL, NULL);
    EXPECT(!refused("missing2.gpu", v, 0, "unknown key", 0), "the wrong message is caught");
    EXPECT(!refused("missing3.gpu", v, 4, "missing 'sms'", 0), "a line number where there is none is caught");
    EXPECT(refused("missing4.gpu", v, 0, "missing 'sms'", 0), "and the right one passes");
    free(v);
}

/* ---- main ---------------------------------------------------------------------------------- */

static void remove_tmpdir(void)
{
    static const char *names[] = {
        "good.gpu", "tc-zero.gpu", "crlf.gpu", "findme.gpu", "good2.gpu", "missing2.gpu", "missing3.gpu",
        "missing4.gpu", "missing.gpu", "missing-lat.gpu", "negative.gpu", "zero.gpu", "zero-double.gpu",
        "tc-negative.gpu", "word.gpu", "nan.gpu", "inf.gpu", "junk.gpu", "hex.gpu", "two-numbers.gpu",
        "fraction.gpu", "fraction-kib.gpu", "huge.gpu", "no-value.gpu", "unknown-near.gpu", "unknown-far.gpu",
        "duplicate.gpu", "duplicate-ref.gpu", "no-ref.gpu", "no-ref-comment.gpu", "undefined-ref.gpu",
        "undefined-second.gpu", "bad-ref-id.gpu", "empty-ref.gpu", "ref-no-id.gpu", "bad-arch.gpu",
        "bad-arch2.gpu", "long-name.gpu", "malformed.gpu", "bad-key.gpu", "fp32.gpu", "clock.gpu", "warps.gpu",
        "smem.gpu", "regs.gpu", "long-line.gpu",
    };
    char path[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    if (rmdir(tmpdir)) printf("  note: %s not empty, left behind\n", tmpdir);
}

int main(void)
{
    /* the shipped folder is what is tested: a $PW_GPU_DIR of the caller's own is set aside */
    const char *env = getenv("PW_GPU_DIR");
    if (env && *env) {
        printf("note: PW_GPU_DIR=%s set aside: ", env);
        unsetenv("PW_GPU_DIR");
        printf("testing the shipped devices of %s\n", pw_gpu_dir());
    }
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/pw_gpu_device.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        printf("FAIL mkdtemp %s\n", tmpdir);
        return 1;
    }
    RUN(test_shipped_devices);
    RUN(test_good_file);
    RUN(test_bad_files);
    RUN(test_find);
    RUN(test_gpu_dir_override);
    RUN(test_find_or_exit);
    RUN(test_checks_can_fail);
    remove_tmpdir();
    return UNIT_RESULT();
}
