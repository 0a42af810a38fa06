/* chapters/10-data-parallel/mpi_train.c: chapter 10's data-parallel training
 * across real processes. Every process is one replica and runs the very loop
 * the virtual cluster runs (kernels/dp_train.c: dp_replica on a pw_comm), the
 * messages going over Open MPI instead of between fibers.
 *
 *   mpirun -np 4 ./build/ch10/mpi_train                (make chapter-10 MPI=1)
 *   mpirun --oversubscribe -np 3 ./build/ch10/mpi_train -s 100 -b 1000
 *
 * Checks, for the ring, the tree and the ring with accumulation:
 * - every process ends with the same bits (an MPI_Allreduce of a checksum
 *   with MPI_BAND and MPI_BOR);
 * - those bits are the virtual cluster's: process 0 also trains the same job
 *   on a cluster of as many ranks, in-process. The same code, data and chunk
 *   boundaries add the same numbers in the same order on both transports,
 *   so the weights must agree bit for bit, not merely closely;
 * - and they match one-device training within the tolerance dataparallel.c
 *   explains (another order of additions).
 * Then the time of a step: measured here (the slowest process's, median over
 * the steps after the first, with the quartiles) beside the cluster's
 * modelled time of the same step on the modelled H100s. They are not meant
 * to agree: the model is of GPUs on NVLink, the processes are this machine's
 * cores, oversubscribed where there are fewer cores than processes. What
 * carries over is the code and its result, and the program prints both
 * times so the gap is seen, not assumed.
 *
 * CSV (process 0): kind=quantity rows, variant ring / tree / ring_accumulate,
 * n = step, threads = processes, param "loss"; param "measured_step_s" and
 * "modelled_step_s" per variant (n = 0).
 */
#include "check.h"
#include "cluster.h"
#include "collectives.h"
#include "collectives_mpi.h"
#include "dp_train.h"
#include "options.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a over the bytes: equal on every process iff the weights are (to a
 * 2^-64 chance), so one small collective compares all of them. */
static uint64_t checksum(const float *x, size_t n)
{
    const unsigned char *p = (const unsigned char *)x;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n * sizeof *x; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

typedef struct { const dp_job *job; float **w; double *step_s; } cluster_job;

static void cluster_replica(pw_rank *r, void *arg)
{
    cluster_job *cj = arg;
    pw_comm comm = coll_comm_cluster(r);
    dp_replica(&comm, cj->job, cj->w[comm.rank], NULL, comm.rank == 0 ? cj->step_s : NULL);
}

/* The same job on a virtual cluster of R ranks: replica 0's weights into
 * w_out, its modelled step time (every step costs the same) returned. */
static double train_on_cluster(const dp_job *job, int R, const float *w0, float *w_out)
{
    size_t np = mlp_nparams(job->s);
    float **w = calloc((size_t)R, sizeof *w);
    double *step_s = calloc((size_t)job->steps, sizeof *step_s);
    for (int r = 0; r < R; r++) {
        w[r] = pw_alloc_floats(np);
        memcpy(w[r], w0, np * sizeof(float));
    }
    pw_cluster_config cfg = pw_cluster_defaults(R);
    if (R % cfg.ranks_per_node) cfg.ranks_per_node = R;    /* 12 processes: one node of 12, not 1.5 nodes of 8 */
    pw_cluster *c = pw_cluster_create(&cfg);
    cluster_job cj = { job, w, step_s };
    if (pw_cluster_run(c, cluster_replica, &cj) != 0) {
        fprintf(stderr, "%s", pw_cluster_report(c));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memcpy(w_out, w[0], np * sizeof(float));
    double t = step_s[job->steps - 1];
    pw_cluster_destroy(c);
    for (int r = 0; r < R; r++) pw_free(w[r]);
    free(w);
    free(step_s);
    return t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long batch = 250, steps = -1, accum = 4;
    double lr = 0.05;
    pw_opt opts[] = {
        { "-b", "--batch", PW_OPT_INT, &batch, "B", "global batch in samples (default 250)", 1, 1 << 20 },
        { "-s", "--steps", PW_OPT_INT, &steps, "S", "SGD steps (default 40; --tiny: 8)", 2, 100000 },
        { "-k", "--accumulate", PW_OPT_INT, &accum, "K", "micro-batches per all-reduce in the accumulation run (default 4)", 1, 1024 },
        { NULL, "--lr", PW_OPT_DOUBLE, &lr, "LR", "learning rate (default 0.05)", 0, 10 },
    };
    pw_common_opts common;
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) return 1;   /* one copy of the tables */
    int prc = pw_parse(argc, argv, "chapter 10's data-parallel training over Open MPI, against the virtual cluster",
                       opts, 4, &common);
    if (prc != PW_PARSE_OK) { MPI_Finalize(); return prc == PW_PARSE_HELP ? 0 : 2; }
    if (steps < 0) steps = common.tiny ? 8 : 40;
    if (size > 1024) {
        if (rank == 0) fprintf(stderr, "%s: %d processes: the in-process cluster it is checked against takes at most 1024\n", common.prog, size);
        MPI_Finalize();
        return PW_EXIT_USAGE;
    }
    mlp_shape s = { 16, 64, 4 };
    size_t np = mlp_nparams(s), total = (size_t)batch * (size_t)steps;
    pw_require_memory(common.prog, "-b", (long long)total, (size_t)(s.d + s.o) * sizeof(float), 1);
    /* In flight at once: the tree's whole buffers, a few per process. */
    pw_comm world = coll_comm_mpi(4 * (np + 1) * sizeof(float) * (size_t)coll_log2_ceil(2 * size));

    /* The same data and initial weights on every process (fixed seeds). */
    float *x = pw_alloc_floats(total * (size_t)s.d), *y = pw_alloc_floats(total * (size_t)s.o);
    mlp_make_data(s, total, 2024, x, y);
    float *w0 = pw_alloc_floats(np), *w_ref = pw_alloc_floats(np), *w = pw_alloc_floats(np), *w_vc = pw_alloc_floats(np);
    mlp_init(s, w0, 7);
    memcpy(w_ref, w0, np * sizeof(float));
    dp_job job = { s, x, y, (size_t)batch, (int)steps, (float)lr, 1, coll_allreduce_ring };
    dp_one_device(&job, w_ref, NULL);

    const char *names[] = { "ring", "tree", "ring_accumulate" };
    double *loss = calloc((size_t)steps * 3, sizeof *loss), *step_s = calloc((size_t)steps, sizeof *step_s);
    double measured[3], q1[3], q3[3], modelled[3], diff[3];
    int bad = 0;
    for (int a = 0; a < 3; a++) {
        job.allreduce = a == 1 ? coll_allreduce_tree : coll_allreduce_ring;
        job.micro = a == 2 ? (int)accum : 1;
        memcpy(w, w0, np * sizeof(float));
        MPI_Barrier(MPI_COMM_WORLD);
        dp_replica(&world, &job, w, loss + (size_t)a * steps, step_s);
        /* a step lasts as long as its slowest process */
        MPI_Allreduce(MPI_IN_PLACE, step_s, (int)steps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        pw_bench_stats st;
        pw_summarize(step_s + 1, (int)steps - 1, &st);       /* the first step warms caches and connections */
        measured[a] = st.median;
        q1[a] = st.q1;
        q3[a] = st.q3;

        uint64_t h = checksum(w, np), hand = h, hor = h;
        MPI_Allreduce(MPI_IN_PLACE, &hand, 1, MPI_UINT64_T, MPI_BAND, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, &hor, 1, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
        int mine = 0;
        if (rank == 0) {
            if (hand != hor) {
                fprintf(stderr, "%s: the %d processes do not hold the same weights\n", names[a], size);
                mine = 1;
            }
            modelled[a] = train_on_cluster(&job, size, w0, w_vc);
            if (memcmp(w, w_vc, np * sizeof(float)) != 0) {
                size_t i = 0;
                while (w[i] == w_vc[i]) i++;
                fprintf(stderr, "%s: over MPI the weights differ from the virtual cluster's, first at %zu (%.9g vs %.9g): "
                        "the same code and order should give the same bits\n", names[a], i, w[i], w_vc[i]);
                mine = 1;
            }
            diff[a] = 0;
            for (size_t i = 0; i < np; i++) diff[a] = fmax(diff[a], fabs((double)w[i] - w_ref[i]));
            char what[96];
            snprintf(what, sizeof what, "%s on %d processes, weights vs one device", names[a], size);
            /* the tolerance of dataparallel.c, which explains it */
            mine |= pw_check_floats(what, w, w_ref, np, 1e-6, 1e-4);
        }
        bad |= mine;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad) {
        if (rank == 0) fprintf(stderr, "%s: training over MPI did not match; nothing written\n", common.prog);
        coll_comm_mpi_end(&world);
        MPI_Finalize();
        return PW_EXIT_WRONG;
    }
    printf("all variants match: %d processes over Open MPI end %lld steps with the same bits as each other and as the\n"
           "  virtual cluster's %d ranks (the same code, the same order of additions), within 1e-4 of one device\n\n",
           size, steps, size);
    printf("MLP %d-%d-%d (%zu parameters), batch %lld, %lld steps, accumulation k = %lld\n", s.d, s.k, s.o, np, batch, steps, accum);
    printf("%-16s %16s %20s %22s %18s\n", "variant", "max |w - w1|", "measured step here", "(quartiles)", "modelled (H100s)");
    pw_csv *csv = rank == 0 ? pw_csv_open(common.csv, argc, argv) : NULL;
    pw_csv_meta(csv, "mlp", "%d-%d-%d", s.d, s.k, s.o);
    pw_csv_meta(csv, "processes", "%d", size);
    for (int a = 0; a < 3; a++) {
        printf("%-16s %16.3g %17.3f ms   (%7.3f - %7.3f ms) %15.3f us\n", names[a], diff[a], measured[a] * 1e3,
               q1[a] * 1e3, q3[a] * 1e3, modelled[a] * 1e6);
        pw_csv_quantity(csv, names[a], 0, size, "measured_step_s", measured[a]);
        pw_csv_quantity(csv, names[a], 0, size, "modelled_step_s", modelled[a]);
        for (int st = 0; st < steps; st++) pw_csv_quantity(csv, names[a], st + 1, size, "loss", loss[(size_t)a * steps + st]);
    }
    printf("\nanswer: over MPI the weights equal the virtual cluster's bit for bit (checked above); the measured step\n"
           "  took ring %.0fx, tree %.0fx the modelled one: a step of %d processes on this machine against the model's\n"
           "  %d devices (cluster.h's defaults: %.0f TFLOP/s each, %.0f GB/s within a node); the weights are the same\n"
           "  either way\n", measured[0] / modelled[0], measured[1] / modelled[1], size, size,
           PW_CLUSTER_DEVICE_GFLOPS / 1e3, PW_CLUSTER_INTRA_GBS);
    int rc = pw_csv_close(csv);
    free(loss);
    free(step_s);
    pw_free(x); pw_free(y); pw_free(w0); pw_free(w_ref); pw_free(w); pw_free(w_vc);
    coll_comm_mpi_end(&world);
    MPI_Finalize();
    return rc;
}
