/* chapters/08-cuda-warps/memory.cu: how a warp's 32 accesses become memory
 * traffic. Global memory moves 32-byte sectors: a warp reading 32
 * consecutive floats needs 4 of them, a warp reading every 32nd float needs
 * 32 (8x the traffic for the same useful bytes). Shared memory has 32 banks
 * of 4-byte words: 32 lanes on 32 different banks take one pass, 32 lanes on
 * one bank take 32.
 *
 *   ./build/ch08/memory                 on the emulator: sectors and conflict ways
 *   ./build/gpu/ch08/memory -n 4096     on a GPU: GB/s of the same kernels
 *
 * What to expect (emulator): copy with stride s reads min(4s, 32) sectors
 * per warp; one field of a 12-byte struct (AoS) 12, of a plain array (SoA) 4;
 * the naive transpose writes 32 sectors per warp, the shared-memory one 4
 * but with 32-way bank conflicts, the padded one 4 and no conflict.
 *
 * Then the time those counts would take on a GPU, modelled (common/gpu_model.h)
 * for --device at --model-n (default 4096, the GPU run's size): each kernel's
 * counts at N = n x n scale by (N / n)^2, exactly when both sides are
 * multiples of 128: whole 32x32 tiles, whole warps and blocks, and a copy's
 * block (256 threads at stride 32 span 8192 floats) never wraps around the
 * array onto sectors it already read, so every block makes the same requests
 * and reuses nothing. A side that is not is counted again at 128 and scaled
 * from there.
 *
 *   ./build/ch08/memory --device a100-sxm --model-n 8192
 *   ./build/gpu/ch08/memory -n 4096 --model-csv results/08-cuda-warps/memory.csv
 */
#include "simt_driver.h"

#include <time.h>
#include <unistd.h>

#include "warps.cuh"
#include "model.h"

static const int strides[] = { 1, 2, 4, 8, 16, 32 };
enum { NSTRIDES = 6 };

typedef struct {
    int kind;                   /* 0 copy_stride, 1 aos, 2 soa, 3-5 transposes */
    int n, stride, rows, cols;
    const float *in;
    const particle *p;
    float *out;
} mem_ctx;

static void launch(void *v)
{
    mem_ctx *c = (mem_ctx *)v;
    int g = (int)pw_ceil_div((size_t)c->n, 256);
    dim3 tb = dim3(TILE, TILE_ROWS);
    dim3 tg = dim3((unsigned)pw_ceil_div((size_t)c->cols, TILE), (unsigned)pw_ceil_div((size_t)c->rows, TILE));
    switch (c->kind) {
    case 0: copy_stride<<<g, 256, 0>>>(c->in, c->out, c->n, c->stride); break;
    case 1: scale_x_aos<<<g, 256, 0>>>(c->p, c->out, c->n); break;
    case 2: scale_x_soa<<<g, 256, 0>>>(c->in, c->out, c->n); break;
    case 3: transpose_naive<<<tg, tb, 0>>>(c->in, c->out, c->rows, c->cols); break;
    case 4: transpose_shared<<<tg, tb, 0>>>(c->in, c->out, c->rows, c->cols); break;
    default: transpose_padded<<<tg, tb, 0>>>(c->in, c->out, c->rows, c->cols); break;
    }
}

#if !PW_SIMT_EMULATED
/* The kernel's name as the launch writes it (ptxas's table; the emulator reports it itself). */
static const char *kernel_of(int kind)
{
    static const char *k[] = { "copy_stride", "scale_x_aos", "scale_x_soa", "transpose_naive", "transpose_shared",
                               "transpose_padded" };
    return k[kind];
}
#endif

static long long gcd_ll(long long a, long long b) { return b ? gcd_ll(b, a % b) : a; }

/* What the model is given besides the counts, for n floats: the flops (the
 * scale kernels' n multiplies), and the compulsory DRAM traffic: the output
 * written once, and each 32-byte sector of the input that holds a float the
 * kernel reads, once. A copy at stride s reads the multiples of gcd(s, n)
 * (mod n): every sector when they are under 8 floats apart, else one sector
 * per float read; the struct's x fields leave no sector of the 12-byte
 * structs out. The GB/s of every table are of the useful 8 bytes per
 * element (one float read, one written), as on a GPU. */
static double flops_of(int kind, long long n) { return kind == 1 || kind == 2 ? (double)n : 0; }
static double dram_of(int kind, int stride, long long n)
{
    double in = 4.0 * (double)n;
    if (kind == 0) {
        long long g = gcd_ll(stride, n);
        in = g >= 8 ? 32.0 * (double)(n / g) : 4.0 * (double)n;
    } else if (kind == 1) in = 12.0 * (double)n;
    return in + 4.0 * (double)n;
}

static const char *kind_name(int kind, int stride, char *buf, size_t len)
{
    static const char *names[] = { "copy", "aos_x", "soa_x", "transpose_naive", "transpose_shared",
                                   "transpose_padded" };
    if (kind == 0) snprintf(buf, len, "stride_%d", stride);
    else snprintf(buf, len, "%s", names[kind]);
    return buf;
}

/* Run kind on the device and compare with the host's answer (exact: every
 * kernel only moves or doubles floats). */
static int check_kind(mem_ctx *c, const float *h_in, const particle *h_p, float *h_out, int rows, int cols)
{
    launch(c);
    pw_cuda_sync_check();
    size_t n = c->kind >= 3 ? (size_t)rows * cols : (size_t)c->n;
    CUDA_CHECK(cudaMemcpy(h_out, c->out, n * sizeof(float), cudaMemcpyDeviceToHost));
    float *want = pw_alloc_floats(n);
    for (size_t i = 0; i < n; i++) {
        if (c->kind == 0) want[i] = h_in[(long long)i * c->stride % c->n];
        else if (c->kind == 1) want[i] = 2.0f * h_p[i].x;
        else if (c->kind == 2) want[i] = 2.0f * h_in[i];
        else want[i] = h_in[(i % rows) * cols + i / rows];   /* out[c][r] = in[r][c] */
    }
    char what[96], name[32];
    snprintf(what, sizeof what, "%s n=%zu", kind_name(c->kind, c->stride, name, sizeof name), n);
    int bad = pw_check_floats(what, h_out, want, n, 0, 0);
    pw_free(want);
    return bad;
}

#if PW_SIMT_EMULATED
/* ---- the lane map: which lane touched what, in one warp instruction ----------------------- */

/* One character per lane: a base-32 digit (0-9, A-V), '.' for an idle lane. */
static char digit(long v) { return v < 0 ? '?' : v < 10 ? (char)('0' + v) : v < 32 ? (char)('A' + v - 10) : '+'; }

/* The first load (or store) of warp 0 of block 0 in kernel `kind`: for device
 * memory each lane's 32-byte sector, numbered 0, 1, 2... in address order
 * among the sectors the warp touched; for shared memory each lane's bank. Printed as one row, and
 * written to the lane map's CSV as one row per lane. */
static void lane_row(mem_ctx *c, const char *label, int want_shared, int want_store, FILE *map)
{
    static int row_index;         /* the figure's row */
    char field[64];               /* the label as a CSV field: no commas */
    snprintf(field, sizeof field, "%s", label);
    for (char *q = field; *q; q++)
        if (*q == ',') *q = ';';
    static pw_simt_step steps[64];
    pw_simt_trace_warp(0, steps, 64);
    launch(c);
    pw_cuda_sync_check();
    int n = pw_simt_trace_count();
    const pw_simt_step *st = NULL;
    for (int i = 0; i < n && !st; i++)
        if (steps[i].shared == want_shared && steps[i].store == want_store) st = &steps[i];
    if (!st) { printf("  %-34s (no such access recorded)\n", label); return; }
    char row[33];
    long words[32][32];
    int nwords[32] = { 0 }, ways = 0, distinct = 0;
    long seen[32];
    for (int l = 0; l < 32; l++) {
        long v = -1;
        if (st->mask >> l & 1u) {
            if (want_shared) {
                long word = (long)(st->addr[l] / 4), bank = word % 32, k;
                v = bank;
                for (k = 0; k < nwords[bank] && words[bank][k] != word; k++) {}
                if (k == nwords[bank]) words[bank][nwords[bank]++] = word;
                if (nwords[bank] > ways) ways = nwords[bank];
            } else {              /* the rank of its sector among the warp's */
                uint64_t mine = st->addr[l] / 32;
                v = 0;
                for (int j = 0; j < 32; j++) {
                    if (!(st->mask >> j & 1u)) continue;
                    uint64_t other = st->addr[j] / 32;
                    bool first = true;   /* count each lower sector once: at its first lane */
                    for (int i = 0; i < j; i++)
                        if (st->mask >> i & 1u && st->addr[i] / 32 == other) first = false;
                    if (first && other < mine) v++;
                }
                int k;
                for (k = 0; k < distinct && seen[k] != v; k++) {}
                if (k == distinct) seen[distinct++] = v;
            }
        }
        row[l] = v < 0 ? '.' : digit(v);
        if (map && v >= 0) fprintf(map, "%s,%d,%ld,%d,%s\n", field, l, v, row_index, want_shared ? "bank" : "sector");
    }
    row[32] = 0;
    row_index++;
    if (want_shared) printf("  %-34s bank   %s  %d-way\n", label, row, ways);
    else printf("  %-34s sector %s  %d sector%s\n", label, row, distinct, distinct == 1 ? "" : "s");
}
#endif

int main(int argc, char **argv)
{
    long long side = 1024, model_side = 4096;
    const char *device = NULL, *model_csv = NULL;
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_INT, &side, "N",
          "matrix side for the transposes; the copies use N*N floats (default 1024)", 1, 1 << 15 },
        { NULL, "--device", PW_OPT_STRING, &device, "NAME|FILE",
          "the GPU the model is for: a file of common/gpus (default " PW_GPU_DEFAULT "; on a GPU, the one found) "
          "or a path to a .gpu file", 0, 0 },
        { NULL, "--model-n", PW_OPT_INT, &model_side, "N",
          "emulator: the side the model predicts for (default 4096, the GPU run's)", 1, 1 << 15 },
        { NULL, "--model-csv", PW_OPT_STRING, &model_csv, "FILE",
          "GPU: the emulator's CSV, whose counts give the model's time beside the measured one", 0, 0 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "coalescing and shared-memory bank conflicts, counted or timed", opts, 4, &common);
    if (common.tiny) side = 200;
    pw_gpu dev;
    char tag[64];
    mc_pick_device(common.prog, device, &dev, tag, sizeof tag);
    /* in, out, the AoS copy (3 floats) and the host copies: 8 arrays of N*N floats */
    pw_require_memory(common.prog, "-n", side * side, sizeof(float), 8);
    pw_cuda_start(common.prog);

    /* The check first, on odd shapes that leave partial tiles and warps. */
    static const int shapes[][2] = { { 1, 1 }, { 33, 65 }, { 100, 37 } };
    int bad = 0;
    int nmax = (int)(side * side) > 128 * 128 ? (int)(side * side) : 128 * 128;   /* the checks' and the model's 128x128 */
    float *h_in = pw_alloc_floats((size_t)nmax), *h_out = pw_alloc_floats((size_t)nmax);
    particle *h_p = (particle *)pw_alloc_bytes((size_t)nmax * sizeof(particle));
    pw_fill_random(h_in, (size_t)nmax, 7, -1.0f, 1.0f);
    for (int i = 0; i < nmax; i++) { h_p[i].x = h_in[i]; h_p[i].y = -h_in[i]; h_p[i].z = 0.5f; }
    float *d_in = (float *)pw_cuda_alloc((size_t)nmax * sizeof(float));
    float *d_out = (float *)pw_cuda_alloc((size_t)nmax * sizeof(float));
    particle *d_p = (particle *)pw_cuda_alloc((size_t)nmax * sizeof(particle));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, (size_t)nmax * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_p, h_p, (size_t)nmax * sizeof(particle), cudaMemcpyHostToDevice));
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int rows = shapes[s][0], cols = shapes[s][1], n = rows * cols;
        for (int kind = 0; kind < 6; kind++)
            for (int k = 0; k < (kind == 0 ? NSTRIDES : 1); k++) {
                mem_ctx c = { kind, n, strides[k], rows, cols, d_in, d_p, d_out };
                bad |= check_kind(&c, h_in, h_p, h_out, rows, cols);
            }
    }
    if (bad) {
        fprintf(stderr, "%s: a kernel gave a wrong result; nothing was measured\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the host (copies with strides 1-32, AoS/SoA, 3 transposes; shapes 1x1, 33x65, "
           "100x37)\n\n");

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_csv_meta(csv, "model_device", "%s (%s, %s)", tag, dev.name, dev.path);
    int rows = (int)side, cols = (int)side, n = rows * cols;
#if PW_SIMT_EMULATED
    printf("%d floats (%dx%d for the transposes), blocks of 256 (32x8), counted by the emulator\n", n, rows, cols);
    printf("%-18s %10s %10s %10s %10s\n", "kernel", "ld sect/req", "st sect/req", "conflicts", "max ways");
#else
    pw_bench_config cfg = pw_bench_from_opts(&common);
    double copy_gbs = 0;
    printf("%d floats (%dx%d for the transposes), blocks of 256 (32x8); GB/s of useful bytes (8 per element);\n"
           "model: the %s (%s)\n", n, rows, cols, dev.name, dev.path);
    if (!model_csv)
        printf("(no --model-csv: the model's column needs the emulator's counts: ./build/ch08/memory --model-n %d "
               "--csv F)\n", rows);
    printf("%-18s %11s %7s %9s %8s %11s %8s\n", "kernel", "median", "IQR", "GB/s", "%copy", "modelled us",
           "meas/mod");
#endif
    /* Each table row's numbers, in table order: strides 1..32 (rows 0-5), aos_x 6, soa_x 7, transposes 8-10. */
    enum { AOS = NSTRIDES, SOA, T_NAIVE, T_SHARED, T_PADDED, NROWS };
#if PW_SIMT_EMULATED
    double ld_of[NROWS] = { 0 }, st_of[NROWS] = { 0 }, ways_of[NROWS] = { 0 };   /* counted */
    static mc_counts counted[NROWS];
#else
    double gbs_of[NROWS] = { 0 };                                                /* timed */
#endif
    int row = 0;
    for (int kind = 0; kind < 6; kind++)
        for (int k = 0; k < (kind == 0 ? NSTRIDES : 1); k++, row++) {
            mem_ctx c = { kind, n, strides[k], rows, cols, d_in, d_p, d_out };
            char name[32];
            kind_name(kind, strides[k], name, sizeof name);
#if PW_SIMT_EMULATED
            launch(&c);
            pw_cuda_sync_check();
            const pw_simt_counters *ct = pw_simt_last_counters();
            double ld = ct->global_load_requests ? (double)ct->global_load_sectors / (double)ct->global_load_requests : 0;
            double st = ct->global_store_requests ? (double)ct->global_store_sectors / (double)ct->global_store_requests : 0;
            double ways = pw_simt_conflict_ways(ct);
            if (ct->shared_requests) printf("%-18s %10.2f %10.2f %9.2fx %10lld\n", name, ld, st, ways, ct->shared_max_ways);
            else printf("%-18s %10.2f %10.2f %10s %10s\n", name, ld, st, "-", "-");
            pw_csv_quantity(csv, name, n, 1, "load_sectors_per_request", ld);
            pw_csv_quantity(csv, name, n, 1, "store_sectors_per_request", st);
            pw_csv_quantity(csv, name, n, 1, "conflict_ways", ways);
            pw_csv_quantity(csv, name, n, 1, "max_conflict_ways", (double)ct->shared_max_ways);
            ld_of[row] = ld;
            st_of[row] = st;
            ways_of[row] = (double)ct->shared_max_ways;
            counted[row] = mc_read();
#else
            pw_bench_stats st;
            pw_cuda_time(&cfg, launch, &c, &st);
            double gbs = pw_gbs(8.0 * n, st.median);
            if (kind == 0 && k == 0) copy_gbs = gbs;
            /* the model, from the emulator's counts at this size (its model_* rows) */
            char mod[16], ratio[16];
            mc_counts mcn;
            double tm = 0;
            if (model_csv && mc_csv_read_counts(model_csv, name, n, &mcn)) {
                snprintf(mcn.kernel, sizeof mcn.kernel, "%s", kernel_of(kind));
                pw_gpu_work w = mc_work(&mcn, flops_of(kind, n), dram_of(kind, strides[k], n), &dev, NULL, NULL, 0);
                tm = pw_gpu_model(&dev, &w).t_s;
            }
            mc_beside_measured(tm, st.median, tag, csv, name, n, mod, ratio, sizeof mod);
            printf("%-18s %8.1f us %6.1f%% %9.1f %7.1f%% %11s %8s\n", name, st.median * 1e6,
                   100 * (st.q3 - st.q1) / st.median, gbs, 100 * gbs / copy_gbs, mod, ratio);
            pw_csv_summary(csv, name, n, 1, "", &st, flops_of(kind, n), 8.0 * n);
            gbs_of[row] = gbs;
#endif
        }
#if !PW_SIMT_EMULATED
    /* Bandwidths, not counts, on a GPU: caches can hide part of a stride's extra sectors. */
    printf("\nanswer: stride 2 reached %.1f%% of stride 1's bandwidth, stride 8 %.1f%%, stride 32 %.1f%%; aos_x\n"
           "  %.1f%% of soa_x's\n", 100 * gbs_of[1] / gbs_of[0], 100 * gbs_of[3] / gbs_of[0],
           100 * gbs_of[5] / gbs_of[0], 100 * gbs_of[AOS] / gbs_of[SOA]);
    printf("answer: transpose_shared reached %.1f%% of transpose_naive's bandwidth, transpose_padded %.1f%%\n",
           100 * gbs_of[T_SHARED] / gbs_of[T_NAIVE], 100 * gbs_of[T_PADDED] / gbs_of[T_NAIVE]);
    printf("(modelled us: common/gpu_model.h's time for the %s from the emulator's counts at n = %d, not measured;\n"
           "meas/mod: measured over modelled)\n", dev.name, n);
#else
    printf("\nsect/req: 32-byte sectors per warp load (ld) or store (st); 4 = a warp's 128 bytes, contiguous.\n"
           "conflicts: shared-memory passes per warp access, averaged (1 = none); max ways: the worst access.\n");
    /* The answers from the table: rows 1 and 3 are strides 2 and 8, row 5 stride 32. */
    printf("\nanswer: a warp load at stride 2 takes %.2f sectors (%.1fx stride 1's %.2f), at stride 8 %.2f (%.1fx),\n"
           "  at stride 32 %.2f (%.1fx); one field of the 12-byte struct takes %.2f, %.1fx the plain array's %.2f\n",
           ld_of[1], ld_of[1] / ld_of[0], ld_of[0], ld_of[3], ld_of[3] / ld_of[0], ld_of[5], ld_of[5] / ld_of[0],
           ld_of[AOS], ld_of[AOS] / ld_of[SOA], ld_of[SOA]);
    printf("answer: the transpose stores %.2f sectors per warp naive, %.2f through the tile; the tile read by\n"
           "  column is %.0f-way conflicted, %.0f-way with the padded tile[32][33]\n",
           st_of[T_NAIVE], st_of[T_SHARED], ways_of[T_SHARED], ways_of[T_PADDED]);

    /* The lane map: the same kernels, seen lane by lane (as GPU-Puzzles draws
     * them). Each character is one lane of warp 0, lanes 0 to 31 left to
     * right: the 32-byte sector it touched (counted from the warp's lowest,
     * 0-9 then A-V), or its shared-memory bank. The CSV beside the table's
     * (memory_lanes.csv) has the same map for the figure. */
    FILE *map = NULL;
    char map_path[4096] = "";
    if (common.csv && strlen(common.csv) > 4) {
        snprintf(map_path, sizeof map_path, "%.*s_lanes.csv", (int)strlen(common.csv) - 4, common.csv);
        map = fopen(map_path, "w");
        if (map) {   /* the same header block as every CSV (the gallery's machine line reads it) */
            time_t now = time(NULL);
            char date[32];
            strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
            fprintf(map, "# program: memory (lane map)\n# date: %s\n# cpu: %s\n# cores: %ld\n# compiler: %s\n# git: %s\n"
                         "# value: the 32-byte sector each lane touched, counted from the warp's lowest (0-9, then A-V), "
                         "or its shared-memory bank\n",
                    date, pw_cpu_model(), sysconf(_SC_NPROCESSORS_ONLN), pw_compiler(), pw_git_rev());
            fprintf(map, "pattern,lane,value,row,what\n");
        }
    }
    printf("\nlane map: warp 0's first access in each kernel, one character per lane (0 ... 31):\n");
    static const int map_strides[] = { 1, 2, 8, 32 };
    for (int k = 0; k < 4; k++) {
        mem_ctx c = { 0, n, map_strides[k], rows, cols, d_in, d_p, d_out };
        char label[64];
        snprintf(label, sizeof label, "copy stride %d, load", map_strides[k]);
        lane_row(&c, label, 0, 0, map);
    }
    mem_ctx aos = { 1, n, 1, rows, cols, d_in, d_p, d_out };
    lane_row(&aos, "aos_x (12-byte struct), load", 0, 0, map);
    mem_ctx naive = { 3, n, 1, rows, cols, d_in, d_p, d_out };
    lane_row(&naive, "transpose_naive, store", 0, 1, map);
    mem_ctx sh = { 4, n, 1, rows, cols, d_in, d_p, d_out };
    lane_row(&sh, "transpose_shared, tile by column", 1, 0, map);
    mem_ctx pad = { 5, n, 1, rows, cols, d_in, d_p, d_out };
    lane_row(&pad, "transpose_padded, tile by column", 1, 0, map);
    if (map) fclose(map);
    printf("(sector: the same digit = the same 32 bytes, one transaction; bank: the same digit on different\n"
           " words = lanes that wait for each other. The padded tile's extra column moves each row one bank on.)\n");

    /* ---- the model: the counts at model_side x model_side, on dev ---- */
    long long N = model_side * model_side;
    int base_side = side % 128 == 0 ? (int)side : 128;   /* not a multiple of 128: counted again at 128 */
    static mc_counts base[NROWS];
    row = 0;
    for (int kind = 0; kind < 6; kind++)
        for (int k = 0; k < (kind == 0 ? NSTRIDES : 1); k++, row++) {
            if (base_side == side) { base[row] = counted[row]; continue; }
            mem_ctx c = { kind, 128 * 128, strides[k], 128, 128, d_in, d_p, d_out };
            if (check_kind(&c, h_in, h_p, h_out, 128, 128)) {
                fprintf(stderr, "%s: a kernel gave a wrong result at 128x128; nothing was modelled\n", common.prog);
                return PW_EXIT_WRONG;
            }
            base[row] = mc_read();
        }
    double f = (double)N / ((double)base_side * base_side);
    printf("\n== modelled, not measured: the %s (%s, %d SMs, %.0f GB/s DRAM) at %lldx%lld = %lld floats\n",
           dev.name, dev.arch, dev.sms, dev.dram_gbs, model_side, model_side, N);
    printf("   each kernel's counts at %dx%d%s times %g;\n   %s\n", base_side, base_side,
           base_side == side ? "" : " (the counted side is not a multiple of 128: counted again)", f,
           model_side % 128 == 0 ? "exact: both sides are multiples of 128, so every block makes the same requests"
                                : "NOT exact: the modelled side is not a multiple of 128 (partial tiles, or copies whose blocks wrap)");
    printf("%-18s %10s %8s %-8s %-15s %6s %-9s %6s %10s\n", "kernel", "time us", "GB/s", "bound", "next (x less)",
           "blk/SM", "limit", "waves", "x stride_1");
    pw_gpu_time tm[NROWS];
    int estimated = 0;
    char note[160] = "", any_note[160] = "";
    row = 0;
    for (int kind = 0; kind < 6; kind++)
        for (int k = 0; k < (kind == 0 ? NSTRIDES : 1); k++, row++) {
            char name[32], nx[32];
            kind_name(kind, strides[k], name, sizeof name);
            mc_counts at = mc_scale(&base[row], f);
            pw_regs_source src = PW_REGS_ESTIMATE;
            pw_gpu_work w = mc_work(&at, flops_of(kind, N), dram_of(kind, strides[k], N), &dev, &src, note, sizeof note);
            tm[row] = pw_gpu_model(&dev, &w);
            if (w.launch.regs_estimated) estimated = 1;
            else if (!any_note[0]) snprintf(any_note, sizeof any_note, "%s", note);
            const pw_gpu_time *t = &tm[row];
            printf("%-18s %10.2f %8.1f %-8s %-15s %6d %-9s %6.0f %9.2fx\n", name, 1e6 * t->t_s, 8.0 * N / t->t_s * 1e-9,
                   t->bound, mc_next(t, nx, sizeof nx), t->occ.blocks_per_sm, t->occ.limit, t->waves,
                   t->t_s / tm[0].t_s);
            mc_csv_counts(csv, name, N, n, &at);
            mc_csv_modelled(csv, name, N, &dev, &w, t, 8.0 * N);
        }
    char foot[256];
    printf("time us, GB/s: modelled (GB/s of the useful 8 bytes per element); bound: the largest term (fp32,\n"
           "issue, l1, latency, l2, dram), next: the runner-up and how many times shorter; blk/SM, limit: CUDA's\n"
           "occupancy calculation; waves: the grid over (blk/SM x %d SMs); x stride_1: the time over stride_1's.\n"
           "DRAM: the output once and each input sector that holds a float read, once (l2: every sector counted).\n"
           "registers: %s\n", dev.sms, mc_regs_footer(estimated, any_note, foot, sizeof foot));
    /* The answers: the stride sweep's cost, and the transposes' ladder. */
    printf("\nanswer: modelled on the %s at %lldx%lld, stride 8 takes %.2fx stride 1's time (%s-bound against\n"
           "  %s-bound), stride 32 %.2fx; aos_x %.2fx soa_x's\n", dev.name, model_side, model_side,
           tm[3].t_s / tm[0].t_s, tm[3].bound, tm[0].bound, tm[5].t_s / tm[0].t_s, tm[AOS].t_s / tm[SOA].t_s);
    int step = T_SHARED;
    if (tm[T_SHARED].t_s / tm[T_PADDED].t_s > tm[T_NAIVE].t_s / tm[T_SHARED].t_s) step = T_PADDED;
    static const char *tnames[] = { "transpose_naive", "transpose_shared", "transpose_padded" };
    printf("answer: the transposes' biggest modelled step is %s -> %s, %.2fx; the last,\n"
           "  transpose_padded, is %s-bound (%.2f us; next: %s at %.2f us)\n", tnames[step - 1 - T_NAIVE], tnames[step - T_NAIVE],
           tm[step - 1].t_s / tm[step].t_s, tm[T_PADDED].bound, 1e6 * tm[T_PADDED].t_s, tm[T_PADDED].next,
           1e6 * tm[T_PADDED].next_s);
#endif
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_p));
    pw_free(h_in);
    pw_free(h_out);
    pw_free(h_p);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
