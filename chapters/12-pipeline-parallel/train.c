/* chapters/12-pipeline-parallel/train.c: every schedule computes the
 * gradients of the unsplit model, and a wrong order deadlocks.
 *
 *   ./build/ch12/train                 p = 1..8, m = 1..12 (m < p too), uneven layers
 *   ./build/ch12/train --tiny          p = 1..4, m = 1..5
 *
 * 1. For each schedule, p and m: a stack of L = 2 S + 1 layers (S stages:
 *    p, or p v interleaved; so stages hold different numbers of layers) of
 *    odd, changing widths, split evenly by count, run on the virtual
 *    cluster with its default links (NVLink-like: 1 us, 450 GB/s; the links
 *    change the times, never the data). Gradients of every weight and the
 *    loss are compared with the unsplit model (kernels/pipeline.c,
 *    pipe_reference): equal bit for bit, because each weight adds its
 *    per-sample terms in sample order in both (pipe_case_check explains the
 *    tolerance it allows other orders).
 * 2. A wrong order: 1F1B with the warm-ups of the first and last rank
 *    swapped (rank 0 starts F, B, ...; rank p-1 wants p-1 forwards first).
 *    Rank 0 waits for a gradient that needs a forward rank 0 will only do
 *    after it: the cluster finds that no rank can go on and says who waits
 *    for what, naming the tags (1 activations, 2 gradients). The program
 *    checks the report names both and exits 1 if the run did not deadlock.
 *
 * CSV: kind=quantity rows "runs" and "bitwise" per schedule (param), n =
 * runs, value = how many; then "deadlock" (value 1 when found).
 */
#include "cluster.h"
#include "options.h"
#include "pipeline.h"
#include "results.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* widths 5, 7, 9, ..., wrapping: odd sizes, no two neighbours equal */
static void odd_widths(int L, int *dims)
{
    for (int l = 0; l <= L; l++) dims[l] = 5 + 2 * (l % 4);
}

/* 1F1B with the warm-ups of ranks 0 and p-1 swapped: deadlocks for p >= 2. */
static int swapped_1f1b(int rank, int p, int m, pipe_step *out)
{
    int r = rank == 0 ? p - 1 : rank == p - 1 ? 0 : rank;
    int warm = p - r - 1 < m ? p - r - 1 : m, n = 0, f = 0, b = 0;
    while (f < warm) out[n++] = (pipe_step){ PIPE_F, f++, 0 };
    while (f < m) { out[n++] = (pipe_step){ PIPE_F, f++, 0 }; out[n++] = (pipe_step){ PIPE_B, b++, 0 }; }
    while (b < m) out[n++] = (pipe_step){ PIPE_B, b++, 0 };
    return n;
}

int main(int argc, char **argv)
{
    long long max_p = -1, max_m = -1, v = 2, batch = 3, dp = 4, dm = 8;
    pw_opt opts[] = {
        { NULL, "--max-p", PW_OPT_INT, &max_p, "P", "check every p up to this (default 8; --tiny 4)", 1, 8 },
        { NULL, "--max-m", PW_OPT_INT, &max_m, "M", "check every m up to this (default 12; --tiny 5)", 1, 32 },
        { "-v", "--virtual", PW_OPT_INT, &v, "V", "chunks per rank of the interleaved schedule (default 2)", 1, 4 },
        { "-b", "--batch", PW_OPT_INT, &batch, "B", "samples per micro-batch (default 3)", 1, 64 },
        { NULL, "--deadlock-p", PW_OPT_INT, &dp, "P", "ranks of the deadlock demonstration (default 4)", 2, 8 },
        { NULL, "--deadlock-m", PW_OPT_INT, &dm, "M", "micro-batches of the deadlock demonstration (default 8; 2 or more: one has no warm-up to swap)", 2, 32 },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "pipeline schedules against the unsplit model, and a wrong order that deadlocks",
                     opts, (int)(sizeof opts / sizeof opts[0]), &common);
    if (max_p < 0) max_p = common.tiny ? 4 : 8;
    if (max_m < 0) max_m = common.tiny ? 5 : 12;
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);

    /* 1. gradients */
    int runs[8] = { 0 }, exact[8] = { 0 };
    for (int si = 0; si < pipe_nschedules; si++) {
        const pipe_schedule *s = &pipe_schedules[si];
        int vv = s->interleaved ? (int)v : 1;
        for (int p = 1; p <= max_p; p++)
            for (int m = 1; m <= max_m; m++) {
                if (pipe_refuses(s, p, m, vv)) continue;
                int S = p * vv, L = 2 * S + 1, dims[PIPE_MAX_LAYERS + 1], first[PIPE_MAX_RANKS * 4 + 1];
                odd_widths(L, dims);
                pipe_case pc;
                pipe_case_init(&pc, L, dims, 0, (int)batch, m);
                pipe_split_even(L, S, first);
                pipe_job job = pipe_case_job(&pc, p, vv, first, s->split);
                pw_cluster_config cfg = pw_cluster_defaults(p);
                pipe_result res;
                char why[4096];
                bool bitwise = false;
                if (pipe_simulate(s, NULL, &job, &cfg, false, &res, why, sizeof why)
                    || pipe_case_check(&pc, &bitwise, why, sizeof why)) {
                    fprintf(stderr, "%s: %s, p = %d, m = %d, %d layers: %s\n", common.prog, s->name, p, m, L, why);
                    return PW_EXIT_WRONG;
                }
                runs[si]++;
                exact[si] += bitwise;
                pipe_case_free(&pc);
            }
    }
    int total = 0;
    for (int si = 0; si < pipe_nschedules; si++) total += runs[si];
    printf("all variants match: %d runs, every schedule's gradients and loss equal the unsplit model's\n\n", total);
    printf("p = 1..%lld ranks, m = 1..%lld micro-batches of %lld samples (m < p included), 2S + 1 layers on S stages\n"
           "(stages of 2 and 3 layers), widths 5, 7, 9, 11, default links:\n\n", max_p, max_m, batch);
    printf("%-12s %6s %18s\n", "schedule", "runs", "equal bit for bit");
    for (int si = 0; si < pipe_nschedules; si++) {
        printf("%-12s %6d %18d%s\n", pipe_schedules[si].name, runs[si], exact[si],
               pipe_schedules[si].interleaved ? "   (m a multiple of p only: Megatron's order)" : "");
        pw_csv_quantity(csv, "runs", runs[si], 0, pipe_schedules[si].name, runs[si]);
        pw_csv_quantity(csv, "bitwise", runs[si], 0, pipe_schedules[si].name, exact[si]);
    }

    /* 2. a wrong order */
    int p = (int)dp, m = (int)dm, L = p, first[PIPE_MAX_RANKS + 1], n = pipe_nsteps(m, 1, false);
    pipe_case pc;
    pipe_case_init(&pc, L, NULL, 8, (int)batch, m);
    pipe_split_even(L, p, first);
    pipe_step *orders = malloc((size_t)p * (size_t)n * sizeof *orders);
    for (int r = 0; r < p; r++) swapped_1f1b(r, p, m, orders + (size_t)r * n);
    pipe_job job = pipe_case_job(&pc, p, 1, first, false);
    pw_cluster_config cfg = pw_cluster_defaults(p);
    pipe_result res;
    char report[8192];
    printf("\nA wrong order: 1F1B with the warm-ups of rank 0 (%d forwards) and rank %d (0) swapped, p = %d, m = %d:\n",
           p - 1, p - 1, p, m);
    int rc = pipe_simulate(pipe_schedule_named("1f1b"), orders, &job, &cfg, false, &res, report, sizeof report);
    free(orders);
    pipe_case_free(&pc);
    if (rc != PW_CLUSTER_DEADLOCK) {
        fprintf(stderr, "%s: the swapped order did not deadlock (run returned %d): the demonstration is broken\n", common.prog, rc);
        return PW_EXIT_WRONG;
    }
    printf("%s", report);
    bool acts = strstr(report, "tag 1 (activations)") != NULL, grads = strstr(report, "tag 2 (gradients)") != NULL;
    if (!acts || !grads) {
        fprintf(stderr, "%s: the deadlock report does not name both tags (activations %d, gradients %d)\n", common.prog, acts, grads);
        return PW_EXIT_WRONG;
    }
    printf("deadlock found: rank 0 waits for a gradient (tag 2), the ranks after it for activations (tag 1)\n"
           "that rank 0 would only send after that gradient: a cycle, so no rank can go on\n");
    /* The answer to the README's question, from the counts above and the
     * cluster's own report ("deadlock: K of P ranks wait ..."). */
    int bitwise_total = 0, stuck = 0, ranks = 0;
    for (int si = 0; si < pipe_nschedules; si++) bitwise_total += exact[si];
    const char *head = strstr(report, "deadlock: ");
    if (!head || sscanf(head, "deadlock: %d of %d ranks", &stuck, &ranks) != 2) stuck = ranks = 0;
    printf("\nanswer: %d of %d runs gave gradients equal to the unsplit model's %s;\n"
           "  the swapped warm-up (p = %d, m = %d) deadlocked: %d of %d ranks waited for each other\n",
           bitwise_total, total,
           bitwise_total == total ? "bit for bit (exact, not only within rounding)"
                                  : "bit for bit; the others only within rounding",
           p, m, stuck, ranks);
    pw_csv_quantity(csv, "deadlock", m, p, "1f1b_swapped_warmup", 1);
    return pw_csv_close(csv);
}
