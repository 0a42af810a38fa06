/* common/cluster/cluster_config.c: the virtual cluster's configuration: the
 * defaults (cluster.h gives their sources), the PW_CLUSTER_* environment, the
 * command-line flags every cluster program takes, and the validation that
 * refuses a configuration before any rank runs (with a limit that is itself
 * accepted). It knows only pw_cluster_config; the machinery that runs ranks
 * is cluster.c. */
#include "cluster.h"
#include "errcheck.h"
#include "fiber.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- configuration ----------------------------------------------------------- */

/* PW_CLUSTER_STACK: a rank's stack in bytes, with an optional K, M or G
 * (binary); unset or empty: 0, the fiber default. Text that is not such a
 * size gives SIZE_MAX, which validation refuses with the text in the line. */
static size_t stack_from_env(void)
{
    const char *e = getenv("PW_CLUSTER_STACK");
    if (!e || !*e) return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(e, &end, 10);
    if (end == e || errno || *e == '-') return SIZE_MAX;
    int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : *end == 'G' || *end == 'g' ? 30 : 0;
    if (shift) end++;
    if (*end || v > (SIZE_MAX >> 31)) return SIZE_MAX;
    return (size_t)v << shift;
}

pw_cluster_config pw_cluster_defaults(int ranks)
{
    pw_cluster_config cfg = {
        .ranks = ranks,
        .ranks_per_node = ranks > 0 && ranks <= PW_CLUSTER_RANKS_PER_NODE ? ranks : PW_CLUSTER_RANKS_PER_NODE,
        .intra_alpha = PW_CLUSTER_INTRA_ALPHA,
        .intra_gbs = PW_CLUSTER_INTRA_GBS,
        .inter_alpha = PW_CLUSTER_INTER_ALPHA,
        .inter_gbs = PW_CLUSTER_INTER_GBS,
        .device_gflops = PW_CLUSTER_DEVICE_GFLOPS,
        .slow = NULL,
        .trace = false,
        .stack_bytes = stack_from_env(),
    };
    return cfg;
}

/* isfinite and > 0: NaN fails both comparisons, so it is refused too. */
static bool positive(double x) { return x > 0 && isfinite(x); }

int pw_cluster_validate(const pw_cluster_config *cfg, char *why, size_t len)
{
#define BAD(...) do { snprintf(why, len, __VA_ARGS__); return 1; } while (0)
    if (cfg->ranks < 1) BAD("a cluster needs at least 1 rank, not %d", cfg->ranks);
    if (cfg->ranks > PW_CLUSTER_MAX_RANKS) BAD("%d ranks is more than the %d the virtual cluster allows", cfg->ranks, PW_CLUSTER_MAX_RANKS);
    if (cfg->ranks_per_node < 1) BAD("ranks per node must be at least 1, not %d", cfg->ranks_per_node);
    if (cfg->ranks % cfg->ranks_per_node != 0)
        BAD("%d ranks do not fill nodes of %d ranks each (%d nodes and %d left over): choose a multiple",
            cfg->ranks, cfg->ranks_per_node, cfg->ranks / cfg->ranks_per_node, cfg->ranks % cfg->ranks_per_node);
    if (!positive(cfg->intra_gbs)) BAD("intra-node bandwidth must be positive, not %g GB/s", cfg->intra_gbs);
    if (!positive(cfg->inter_gbs)) BAD("inter-node bandwidth must be positive, not %g GB/s", cfg->inter_gbs);
    if (!(cfg->intra_alpha >= 0) || !isfinite(cfg->intra_alpha)) BAD("intra-node latency must be 0 or more, not %g s", cfg->intra_alpha);
    if (!(cfg->inter_alpha >= 0) || !isfinite(cfg->inter_alpha)) BAD("inter-node latency must be 0 or more, not %g s", cfg->inter_alpha);
    if (!positive(cfg->device_gflops)) BAD("device rate must be positive, not %g GFLOP/s", cfg->device_gflops);
    if (cfg->slow)
        for (int r = 0; r < cfg->ranks; r++)
            if (!positive(cfg->slow[r])) BAD("slow factor of rank %d must be positive, not %g", r, cfg->slow[r]);
    if (cfg->stack_bytes == SIZE_MAX && getenv("PW_CLUSTER_STACK"))
        BAD("PW_CLUSTER_STACK=%s is not a size in bytes (write e.g. 256K or 1M)", getenv("PW_CLUSTER_STACK"));
    if (cfg->stack_bytes && (cfg->stack_bytes < PW_CLUSTER_MIN_STACK || cfg->stack_bytes > PW_CLUSTER_MAX_STACK))
        BAD("a rank's stack must be %d KiB to %d MiB (cfg.stack_bytes, PW_CLUSTER_STACK), not %zu bytes",
            PW_CLUSTER_MIN_STACK >> 10, PW_CLUSTER_MAX_STACK >> 20, cfg->stack_bytes);
    /* Each rank is a fiber, and each fiber takes two memory mappings (its
     * stack and the guard below it): past vm.max_map_count the kernel
     * refuses them. Say so now, not one failed mapping per rank later. */
    long room = pw_fiber_room();
    if (room >= 0 && cfg->ranks > room) {
        /* The most that fit and that this check itself accepts: whole nodes
         * of ranks_per_node (32238 fit, nodes of 8: 32232), or, when not one
         * node fits, fewer ranks all on one node (what pw_cluster_defaults
         * and pw_cluster_config_for make of a count up to a node's size). */
        long rpn = cfg->ranks_per_node, most = room >= rpn ? room / rpn * rpn : room;
        char nodes[48] = "";
        if (room >= rpn && rpn > 1) snprintf(nodes, sizeof nodes, " (%ld nodes of %ld)", most / rpn, rpn);
        BAD("%d ranks need %d memory mappings (%d per rank: its stack and its guard), but this machine allows "
            "%ld more (vm.max_map_count = %ld): at most %ld ranks here%s, or raise it (sysctl -w vm.max_map_count=%ld)",
            cfg->ranks, PW_FIBER_MAPS_EACH * cfg->ranks, PW_FIBER_MAPS_EACH, room * PW_FIBER_MAPS_EACH,
            pw_fiber_map_limit(), most, nodes, pw_fiber_map_limit() + (long)PW_FIBER_MAPS_EACH * (cfg->ranks - room));
    }
    return 0;
#undef BAD
}

void pw_cluster_check_or_exit(const char *prog, const pw_cluster_config *cfg)
{
    char why[256];
    if (pw_cluster_validate(cfg, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", prog, why);
        exit(2);
    }
}

pw_cluster_flags pw_cluster_flag_defaults(void)
{
    return (pw_cluster_flags){ PW_CLUSTER_INTRA_ALPHA * 1e6, PW_CLUSTER_INTRA_GBS, PW_CLUSTER_INTER_ALPHA * 1e6,
                               PW_CLUSTER_INTER_GBS, PW_CLUSTER_DEVICE_GFLOPS / 1e3, PW_CLUSTER_RANKS_PER_NODE };
}

int pw_cluster_flag_opts(pw_cluster_flags *f, pw_opt *out, bool per_node)
{
    pw_opt o[PW_CLUSTER_NFLAGS] = {
        { NULL, "--intra-alpha", PW_OPT_DOUBLE, &f->intra_alpha_us, "US", "intra-node latency in microseconds (default 1)", 0, 1000000 },
        { NULL, "--intra-gbs", PW_OPT_DOUBLE, &f->intra_gbs, "GB/S", "intra-node bandwidth per direction (default 450)", 0, 1000000 },
        { NULL, "--inter-alpha", PW_OPT_DOUBLE, &f->inter_alpha_us, "US", "inter-node latency in microseconds (default 5)", 0, 1000000 },
        { NULL, "--inter-gbs", PW_OPT_DOUBLE, &f->inter_gbs, "GB/S", "inter-node bandwidth per direction (default 50)", 0, 1000000 },
        { NULL, "--device-tflops", PW_OPT_DOUBLE, &f->device_tflops, "T", "one device's compute rate in TFLOP/s (default 100)", 0, 1000000 },
        { NULL, "--per-node", PW_OPT_INT, &f->per_node, "N", "ranks per node (default 8)", 1, PW_CLUSTER_MAX_RANKS },
    };
    int n = per_node ? PW_CLUSTER_NFLAGS : PW_CLUSTER_NFLAGS - 1;
    memcpy(out, o, (size_t)n * sizeof *o);
    return n;
}

pw_cluster_config pw_cluster_config_for(int ranks, const pw_cluster_flags *f)
{
    pw_cluster_config cfg = pw_cluster_defaults(ranks);
    cfg.intra_alpha = f->intra_alpha_us * 1e-6;
    cfg.intra_gbs = f->intra_gbs;
    cfg.inter_alpha = f->inter_alpha_us * 1e-6;
    cfg.inter_gbs = f->inter_gbs;
    cfg.device_gflops = f->device_tflops * 1e3;
    cfg.ranks_per_node = ranks > 0 && ranks <= f->per_node ? ranks : (int)f->per_node;
    return cfg;
}
