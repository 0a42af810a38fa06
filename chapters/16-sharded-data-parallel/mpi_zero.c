/* chapters/16-sharded-data-parallel/mpi_zero.c: ZeRO stages 0-3 across real
 * processes. Every process is one rank and runs the very loop zero.c runs
 * on the virtual cluster (kernels/zero.c: zero_replica on a pw_comm), the
 * messages going over Open MPI instead of between fibers.
 *
 *   mpirun -np 4 ./build/ch16/mpi_zero
 *   mpirun --oversubscribe -np 3 ./build/ch16/mpi_zero -s 20 -b 101
 *
 * Checks, for each stage:
 * - every process ends with the same bits (checksums combined with
 *   MPI_BAND and MPI_BOR);
 * - those bits are the virtual cluster's: process 0 also trains the same job
 *   on a cluster of as many ranks in-process (same code, same chunks, same
 *   order of additions: equal bit for bit);
 * - they are within zero.c's tolerance of one-device Adam (lr x steps x
 *   1e-2; zero.c explains it);
 * - the bytes each process sent, summed over processes, equal the formula
 *   (2 or 3) x psi x (p - 1) per step exactly.
 * CSV (process 0): kind=quantity rows, variant stage0..stage3, n =
 * parameters, threads = processes, param max_weight_diff and
 * sent_bytes_per_step (mean over processes).
 */
#include "check.h"
#include "cluster.h"
#include "collectives.h"
#include "collectives_mpi.h"
#include "mlp.h"
#include "options.h"
#include "results.h"
#include "util.h"
#include "zero.h"

#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t checksum(const float *x, size_t n)
{
    const unsigned char *p = (const unsigned char *)x;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n * sizeof *x; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

typedef struct { const zero_job *job; int stage; const float *w0; float *w_rank0; } cluster_arg;

static void cluster_rank(pw_rank *r, void *p)
{
    cluster_arg *a = p;
    pw_comm c = coll_comm_cluster(r);
    size_t np = mlp_nparams(a->job->s);
    float *w = pw_alloc_floats(np);
    zero_replica(&c, a->job, a->stage, a->w0, w, NULL, ZERO_FAULT_NONE);
    if (c.rank == 0) memcpy(a->w_rank0, w, np * sizeof *w);
    pw_free(w);
}

static void train_on_cluster(const zero_job *job, int stage, int R, const float *w0, float *w_out)
{
    pw_cluster_config cfg = pw_cluster_defaults(R);
    if (R % cfg.ranks_per_node) cfg.ranks_per_node = R;
    pw_cluster *c = pw_cluster_create(&cfg);
    cluster_arg a = { job, stage, w0, w_out };
    if (pw_cluster_run(c, cluster_rank, &a) != 0) {
        fprintf(stderr, "%s", pw_cluster_report(c));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    pw_cluster_destroy(c);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long batch = 250, steps = -1;
    double lr = 1e-3;
    pw_opt opts[] = {
        { "-b", "--batch", PW_OPT_INT, &batch, "B", "global batch in samples (default 250)", 1, 1 << 20 },
        { "-s", "--steps", PW_OPT_INT, &steps, "S", "Adam steps (default 10; --tiny: 4)", 1, 100000 },
        { NULL, "--lr", PW_OPT_DOUBLE, &lr, "LR", "Adam's learning rate (default 1e-3)", 0, 1 },
    };
    pw_common_opts common;
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) return 1;
    int prc = pw_parse(argc, argv, "ZeRO stages 0-3 over Open MPI, against the virtual cluster and one device", opts, 3, &common);
    if (prc != PW_PARSE_OK) { MPI_Finalize(); return prc == PW_PARSE_HELP ? 0 : 2; }
    if (steps < 0) steps = common.tiny ? 4 : 10;
    if (size > 256 || size > batch) {
        if (rank == 0) fprintf(stderr, "%s: %d processes: at most 256 and at most the batch (%lld)\n", common.prog, size, batch);
        MPI_Finalize();
        return PW_EXIT_USAGE;
    }
    mlp_shape s = { 16, 63, 4 };
    size_t np = mlp_nparams(s), total = (size_t)batch * (size_t)steps;
    pw_require_memory(common.prog, "-b", (long long)total, (size_t)(s.d + s.o) * sizeof(float), 1);
    /* in flight at once: a ring's chunk or two per process; the whole buffer is ample */
    pw_comm world = coll_comm_mpi(4 * (np + 1) * sizeof(float));

    float *x = pw_alloc_floats(total * (size_t)s.d), *y = pw_alloc_floats(total * (size_t)s.o);
    mlp_make_data(s, total, 2024, x, y);
    float *w0 = pw_alloc_floats(np), *w_ref = pw_alloc_floats(np), *w = pw_alloc_floats(np), *w_vc = pw_alloc_floats(np);
    mlp_init(s, w0, 7);
    memcpy(w_ref, w0, np * sizeof(float));
    zero_job job = { s, x, y, (size_t)batch, (int)steps, zero_adam_defaults((float)lr) };
    zero_one_device(&job, w_ref);
    double tol = (double)job.adam.lr * job.steps * 1e-2;   /* zero.c explains it */

    double diff[4], sent[4];
    int bad = 0;
    for (int st = 0; st < 4; st++) {
        zero_rank_report rep;
        MPI_Barrier(MPI_COMM_WORLD);
        zero_replica(&world, &job, st, w0, w, &rep, ZERO_FAULT_NONE);
        double all = rep.sent;
        MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        sent[st] = all / size / steps;
        uint64_t h = checksum(w, np), hand = h, hor = h;
        MPI_Allreduce(MPI_IN_PLACE, &hand, 1, MPI_UINT64_T, MPI_BAND, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, &hor, 1, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
        int mine = 0;
        if (rank == 0) {
            if (hand != hor) {
                fprintf(stderr, "stage %d: the %d processes do not hold the same weights\n", st, size);
                mine = 1;
            }
            train_on_cluster(&job, st, size, w0, w_vc);
            if (memcmp(w, w_vc, np * sizeof(float)) != 0) {
                fprintf(stderr, "stage %d: over MPI the weights differ from the virtual cluster's\n", st);
                mine = 1;
            }
            double want = (st == 3 ? 3.0 : 2.0) * (double)np * (size - 1) * sizeof(float) * steps;
            if (all != want) {
                fprintf(stderr, "stage %d: %.0f bytes sent in all, the formula says %.0f\n", st, all, want);
                mine = 1;
            }
            diff[st] = 0;
            for (size_t i = 0; i < np; i++) diff[st] = fmax(diff[st], fabs((double)w[i] - w_ref[i]));
            char what[80];
            snprintf(what, sizeof what, "ZeRO %d on %d processes, weights vs one device", st, size);
            mine |= pw_check_floats(what, w, w_ref, np, tol, 0);
        }
        bad |= mine;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad) {
        if (rank == 0) fprintf(stderr, "%s: sharded training over MPI did not match; nothing written\n", common.prog);
        coll_comm_mpi_end(&world);
        MPI_Finalize();
        return PW_EXIT_WRONG;
    }
    printf("all variants match: ZeRO stages 0-3 on %d processes over Open MPI end %lld Adam steps with the same bits\n"
           "  as each other and as the virtual cluster's %d ranks, within %.3g of one device; bytes sent = formula\n\n",
           size, steps, size, tol);
    printf("MLP %d-%d-%d (%zu parameters), batch %lld\n", s.d, s.k, s.o, np, batch);
    printf("%-8s %14s %22s %18s\n", "stage", "max |w - w1|", "bytes/step/process", "formula");
    pw_csv *csv = rank == 0 ? pw_csv_open(common.csv, argc, argv) : NULL;
    pw_csv_meta(csv, "processes", "%d", size);
    const char *names[4] = { "stage0", "stage1", "stage2", "stage3" };
    for (int st = 0; st < 4; st++) {
        printf("%-8s %14.3g %22.1f %18.1f\n", names[st], diff[st], sent[st], zero_comm_elems((double)np, st, size) * sizeof(float));
        pw_csv_quantity(csv, names[st], (long long)np, size, "max_weight_diff", diff[st]);
        pw_csv_quantity(csv, names[st], (long long)np, size, "sent_bytes_per_step", sent[st]);
    }
    printf("\nanswer: over MPI every stage gives the virtual cluster's weights bit for bit and sends what the formula says;\n"
           "  stage 3 sends %.3fx stage 2\n", size > 1 ? sent[3] / sent[2] : 0.0);
    int rc = pw_csv_close(csv);
    pw_free(x); pw_free(y); pw_free(w0); pw_free(w_ref); pw_free(w); pw_free(w_vc);
    coll_comm_mpi_end(&world);
    MPI_Finalize();
    return rc;
}
