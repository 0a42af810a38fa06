/* chapters/10-data-parallel/mpi_check.c: is this MPI set-up fit to run the
 * workbook? `make mpi-check` runs it (tools/mpi_check.sh, with the launch
 * variables of chapters/mpi.sh: MPIRUN, HOSTFILE, NP, MPIRUN_FLAGS).
 *
 * Prints: the MPI library, every rank with its host and process id, how many
 * ranks share each host against its cores, Open MPI's shared-memory settings
 * where it has them (read through MPI_T), a ping-pong from rank 0 to every
 * other rank (8 bytes and 1 MiB: latency and bandwidth of each link, one
 * host or across), and a sum over all ranks checked against its closed form.
 * Exit 0 when every rank answered and the sum is right, 1 otherwise.
 */
#include "collectives.h"
#include "collectives_mpi.h"
#include "options.h"
#include "probe.h"
#include "timing.h"
#include "util.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (1 << 20)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pw_common_opts common;
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) return 1;
    int prc = pw_parse(argc, argv, "is this MPI set-up fit to run the workbook: ranks, hosts, transport, a ping-pong", NULL, 0, &common);
    if (prc != PW_PARSE_OK) { MPI_Finalize(); return prc == PW_PARSE_HELP ? 0 : 2; }

    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n,")] = '\0';
    char host[MPI_MAX_PROCESSOR_NAME] = "";
    MPI_Get_processor_name(host, &len);
    pw_hw hw;
    pw_probe_static(&hw);
    struct { char host[64]; int pid, cores; } me = { "", (int)getpid(), hw.logical_cores }, *all = NULL;
    snprintf(me.host, sizeof me.host, "%s", host);
    if (rank == 0) all = calloc((size_t)size, sizeof *all);
    MPI_Gather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, 0, MPI_COMM_WORLD);
    printf("MPI library: %s\n", lib);
    printf("%d ranks:\n", size);
    int hosts = 0;
    for (int r = 0; rank == 0 && r < size; r++) {
        printf("  rank %3d on %s (pid %d)\n", r, all[r].host, all[r].pid);
        int seen = 0;
        for (int q = 0; q < r; q++) seen |= !strcmp(all[q].host, all[r].host);
        if (!seen) hosts++;
    }
    for (int r = 0; rank == 0 && r < size; r++) {
        int seen = 0, on = 0;
        for (int q = 0; q < size; q++) {
            if (q < r && !strcmp(all[q].host, all[r].host)) seen = 1;
            if (!strcmp(all[q].host, all[r].host)) on++;
        }
        if (!seen)
            printf("host %s: %d rank%s on %d logical cores%s\n", all[r].host, on, on == 1 ? "" : "s", all[r].cores,
                   on > all[r].cores ? " (oversubscribed: timings there measure the scheduler too)" : "");
    }
    char v[64];
    if (coll_mpi_cvar("btl_vader_single_copy_mechanism", v, sizeof v) == 0) {
        char e[64] = "?";
        coll_mpi_cvar("btl_vader_eager_limit", e, sizeof e);
        printf("Open MPI shared memory (btl vader): eager limit %s bytes, single copy by %s\n", e, v);
    }

    /* Ping-pong from rank 0 to each rank: 8 bytes (latency) and 1 MiB. */
    char *b = pw_alloc_bytes(BIG);
    memset(b, 7, BIG);
    printf("ping-pong from rank 0 (one-way, median of 11):\n");
    for (int peer = 1; peer < size; peer++) {
        double t[2];
        for (int s = 0; s < 2; s++) {
            int n = s ? BIG : 8, inner = s ? 2 : 50;
            double smp[11];
            for (int k = -1; k < 11; k++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                for (int i = 0; i < inner; i++) {
                    if (rank == 0) {
                        MPI_Send(b, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
                        MPI_Recv(b, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    } else if (rank == peer) {
                        MPI_Recv(b, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        MPI_Send(b, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
                    }
                }
                if (k >= 0) smp[k] = (MPI_Wtime() - t0) / inner / 2;
            }
            t[s] = pw_median(smp, 11);
        }
        if (rank == 0)
            printf("  0 <-> %-3d (%s): 8 B %.2f us, 1 MiB %.3f ms = %.2f GB/s\n", peer,
                   strcmp(all[peer].host, all[0].host) ? "across hosts" : "same host", t[0] * 1e6, t[1] * 1e3, BIG / t[1] * 1e-9);
    }
    pw_free(b);

    /* A sum over all ranks, by the workbook's ring: 1 + 2 + ... + size. */
    pw_comm comm = coll_comm_mpi(64 << 10);
    float x[7];
    for (int i = 0; i < 7; i++) x[i] = (float)(rank + 1) * (float)(i + 1);
    coll_allreduce_ring(&comm, x, 7);
    int bad = 0;
    for (int i = 0; i < 7; i++) bad |= x[i] != (float)size * (size + 1) / 2 * (float)(i + 1);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    coll_comm_mpi_end(&comm);
    printf("%s: the workbook's ring all-reduce over all %d ranks on %d host%s %s\n", bad ? "FAIL" : "ok", size, hosts,
           hosts == 1 ? "" : "s", bad ? "gave a wrong sum" : "summed 1 + 2 + ... + ranks right");
    free(all);
    MPI_Finalize();
    return bad ? PW_EXIT_WRONG : 0;
}
