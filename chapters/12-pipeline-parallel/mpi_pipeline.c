/* chapters/12-pipeline-parallel/mpi_pipeline.c: the four schedules across
 * real processes. Each MPI process is one stage (p = the process count) and
 * runs pipe_run_rank (kernels/pipeline.c), the very executor the virtual
 * cluster runs, over kernels/collectives_mpi.c's pw_comm: activations and
 * gradients travel as MPI messages with tags 1 and 2.
 *
 *   mpirun --oversubscribe -np 4 ./build/ch12/mpi_pipeline      (make chapter-12 MPI=1)
 *   mpirun -np 2 ./build/ch12/mpi_pipeline -m 16 -d 64
 *
 * Checks, on process 0: the gradients (summed over the processes, each of
 * which holds only its own layers', the others zero: adding zeros is exact)
 * and the loss against the unsplit model, as on the cluster: bit for bit,
 * since every process adds its micro-batches' terms in the order the
 * unsplit model adds its samples. Then the wall time of one step (the
 * slowest process, median of 5) beside the cluster's modelled time with its
 * default links. They model different machines: the cluster an H100 node,
 * this run processes on one computer. The interleaved schedule runs when m
 * is a multiple of p (otherwise it is skipped with one line, as Megatron's
 * schedule needs).
 */
#include "cluster.h"
#include "collectives.h"
#include "collectives_mpi.h"
#include "options.h"
#include "pipeline.h"
#include "util.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPEATS 5

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long long m = 8, v = 2, width = 32, batch = 4, layers = -1;
    pw_opt opts[] = {
        { "-m", "--micro-batches", PW_OPT_INT, &m, "M", "micro-batches (default 8)", 1, 64 },
        { "-v", "--virtual", PW_OPT_INT, &v, "V", "chunks per process of the interleaved schedule (default 2)", 1, 4 },
        { "-d", "--width", PW_OPT_INT, &width, "D", "layer width (default 32)", 1, 1024 },
        { "-b", "--batch", PW_OPT_INT, &batch, "B", "samples per micro-batch (default 4)", 1, 256 },
        { "-L", "--layers", PW_OPT_INT, &layers, "L", "layers (default 2 per stage: p v; at least p v)", 1, PIPE_MAX_LAYERS },
    };
    pw_common_opts common;
    int me, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    /* every process parses the same argv: a bad flag stops them all with
     * exit 2, and only process 0 says so */
    if (me != 0) { FILE *devnull = freopen("/dev/null", "w", stderr); (void)devnull; }
    int rc = pw_parse(argc, argv, "the pipeline schedules across MPI processes, one stage each", opts,
                      (int)(sizeof opts / sizeof opts[0]), &common);
    if (rc != PW_PARSE_OK) { MPI_Finalize(); return rc == PW_PARSE_HELP ? 0 : PW_EXIT_USAGE; }
    if (layers < 0) layers = (long long)p * v;
    if (layers < (long long)p * v || p > PIPE_MAX_RANKS) {
        if (me == 0) fprintf(stderr, "%s: %lld layers on %d processes x %lld chunks: every chunk needs a layer\n",
                             common.prog, layers, p, v);
        MPI_Finalize();
        return PW_EXIT_USAGE;
    }
    /* in flight at most: every activation a process sends before its
     * neighbour takes it (GPipe: all m, each chunk) and as many gradients */
    size_t in_flight = 2 * (size_t)m * (size_t)v * (size_t)batch * (size_t)width * sizeof(float) + (1 << 16);
    pw_comm world = coll_comm_mpi(in_flight);

    int bad = 0;
    char rows[8][200];   /* printed after the verdict: check, then time */
    int nrows = 0, nbitwise = 0;   /* rows, and those equal bit for bit: the answer line */
    for (int si = 0; si < pipe_nschedules; si++) {
        const pipe_schedule *s = &pipe_schedules[si];
        int vv = s->interleaved ? (int)v : 1, S = p * vv, first[PIPE_MAX_RANKS * 4 + 1];
        if (pipe_refuses(s, p, (int)m, vv)) {
            if (me == 0) snprintf(rows[nrows++], sizeof rows[0], "%-12s skipped: %s", s->name, pipe_refuses(s, p, (int)m, vv));
            continue;
        }
        pipe_case pc;
        pipe_case_init(&pc, (int)layers, NULL, (int)width, (int)batch, (int)m);
        pipe_split_even((int)layers, S, first);
        int n = pipe_nsteps((int)m, vv, s->split);
        pipe_step *order = malloc((size_t)n * sizeof *order);
        s->order(me, p, (int)m, vv, order);
        pipe_job job = pipe_case_job(&pc, p, vv, first, s->split);
        float *ws = pw_alloc_floats(pipe_workspace_floats(&job, me));
        pipe_rank_stats st;
        double wall[REPEATS];
        for (int k = 0; k < REPEATS; k++) {
            job = pipe_case_job(&pc, p, vv, first, s->split);   /* zeroes the gradients */
            pc.loss = 0;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            pipe_run_rank(&world, &job, order, n, ws, &st);
            double t = MPI_Wtime() - t0;
            MPI_Allreduce(&t, &wall[k], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);   /* the slowest process */
        }
        qsort(wall, REPEATS, sizeof wall[0], cmp_double);
        /* each process holds its own layers' gradients, zeros elsewhere */
        size_t np = pipe_nparams(&pc.md);
        float *sum = pw_alloc_floats(np);
        double loss = 0;
        MPI_Reduce(pc.grad, sum, (int)np, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&pc.loss, &loss, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (me == 0) {
            memcpy(pc.grad, sum, np * sizeof *sum);
            pc.loss = loss;
            char why[512];
            bool bitwise = false;
            if (pipe_case_check(&pc, &bitwise, why, sizeof why)) {
                fprintf(stderr, "%s: %s: %s\n", common.prog, s->name, why);
                bad = 1;
            } else {
                /* the same job on the virtual cluster, for its modelled time */
                pipe_job cj = pipe_case_job(&pc, p, vv, first, s->split);
                pw_cluster_config cfg = pw_cluster_defaults(p);
                if (p > 8) cfg.ranks_per_node = p;     /* one node whatever p: refused otherwise for p not a multiple of 8 */
                pipe_result res;
                double modelled = -1;
                if (pipe_simulate(s, NULL, &cj, &cfg, false, &res, why, sizeof why) == 0) modelled = res.time;
                nbitwise += bitwise;
                snprintf(rows[nrows++], sizeof rows[0], "%-12s %18s %13.3f ms  (%7.3f - %7.3f ms) %15.3f us", s->name,
                         bitwise ? "yes" : "no (within rounding)", wall[REPEATS / 2] * 1e3, wall[0] * 1e3,
                         wall[REPEATS - 1] * 1e3, modelled * 1e6);
            }
        }
        pw_free(sum);
        pw_free(ws);
        free(order);
        pipe_case_free(&pc);
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0 && !bad) {
        printf("all variants match: every schedule's gradients across %d processes equal the unsplit model's\n\n", p);
        printf("%d processes, one stage each; %lld layers of %lld x %lld, m = %lld micro-batches of %lld samples\n\n",
               p, layers, width, width, m, batch);
        printf("%-12s %18s %16s  %21s %18s\n", "schedule", "equal bit for bit", "wall (MPI)", "(min - max of 5)", "modelled (cluster)");
        for (int k = 0; k < nrows; k++) printf("%s\n", rows[k]);
        printf("\nanswer: %d of %d schedules run across %d processes gave the unsplit model's gradients %s\n",
               nbitwise, nrows, p, nbitwise == nrows ? "bit for bit" : "bit for bit, the rest within rounding only");
    }
    coll_comm_mpi_end(&world);
    MPI_Finalize();
    return bad ? PW_EXIT_WRONG : 0;
}
