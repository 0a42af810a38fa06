/* kernels/collectives_mpi.c: MPI point-to-point as a pw_comm (collectives_mpi.h). */
#include "collectives_mpi.h"
#include "util.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reports the failing MPI call and aborts the job (MPI calls return codes). */
#define MPI_CHECK(call) do { int rc_ = (call); if (rc_ != MPI_SUCCESS) { \
    char s_[MPI_MAX_ERROR_STRING]; int l_; MPI_Error_string(rc_, s_, &l_); \
    fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, s_); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

static int contexts_seen;          /* one process is one rank: one counter */
static void *bsend_buf;
static int bsend_bytes;
static double t0;

void coll_mpi_count_fits(size_t bytes, const char *what)
{
    if (bytes > INT_MAX) {
        fprintf(stderr, "%s: %zu bytes is more than an MPI count (INT_MAX) can say\n", what, bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void check_tag(int tag)
{
    static int tag_ub = -1;
    if (tag_ub < 0) {
        int *ub, flag = 0;
        MPI_CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
        tag_ub = flag ? *ub : 32767;
    }
    if (tag > tag_ub) {
        fprintf(stderr, "pw_comm over MPI: tag %d (group context %d) is above this MPI's MPI_TAG_UB (%d): too many groups\n",
                tag, tag / COLL_TAG_SPACE, tag_ub);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void mpi_send(pw_comm *c, int dst, int tag, const void *buf, size_t bytes)
{
    (void)c;
    coll_mpi_count_fits(bytes, "pw_comm over MPI: a message of");
    check_tag(tag);
    MPI_CHECK(MPI_Bsend(buf, (int)bytes, MPI_BYTE, dst, tag, MPI_COMM_WORLD));
}

static void mpi_recv(pw_comm *c, int src, int tag, void *buf, size_t bytes)
{
    (void)c;
    coll_mpi_count_fits(bytes, "pw_comm over MPI: a message of");
    check_tag(tag);
    MPI_CHECK(MPI_Recv(buf, (int)bytes, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static double mpi_now(pw_comm *c)
{
    (void)c;
    return MPI_Wtime() - t0;
}

pw_comm coll_comm_mpi(size_t bytes_in_flight)
{
    int rank, size;
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    /* Each buffered message also carries MPI_BSEND_OVERHEAD bytes of
     * bookkeeping; 64 of them are allowed for. */
    size_t need = bytes_in_flight + 64 * (size_t)MPI_BSEND_OVERHEAD + 4096;
    if (need > (size_t)INT_MAX) {
        if (rank == 0)
            fprintf(stderr, "pw_comm over MPI: %.1f GiB of messages in flight is more than the INT_MAX bytes MPI_Buffer_attach takes\n",
                    (double)need / (1 << 30));
        MPI_Finalize();
        exit(2);
    }
    bsend_bytes = (int)need;
    bsend_buf = pw_alloc_bytes(need);
    MPI_CHECK(MPI_Buffer_attach(bsend_buf, bsend_bytes));
    t0 = MPI_Wtime();
    contexts_seen = 0;
    return (pw_comm){ .rank = rank, .size = size, .ctx = NULL, .send = mpi_send, .recv = mpi_recv,
                      .compute = NULL, .now = mpi_now, .quiet = NULL, .contexts_seen = &contexts_seen,
                      .world = NULL, .context = 0, .world_rank = rank, .world_size = size };
}

void coll_comm_mpi_end(pw_comm *world)
{
    (void)world;
    void *b;
    int n;
    MPI_Buffer_detach(&b, &n);       /* waits for every buffered send to leave */
    pw_free(bsend_buf);
    bsend_buf = NULL;
}

/* MPI_T: the tool interface every MPI-3 library has. Open MPI exposes each
 * MCA parameter as a control variable ("btl_vader_eager_limit"). */
int coll_mpi_cvar(const char *name, char *out, size_t len)
{
    int provided, num, found = -1;
    if (len == 0 || MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return -1;
    out[0] = '\0';
    if (MPI_T_cvar_get_num(&num) == MPI_SUCCESS)
        for (int i = 0; i < num && found < 0; i++) {
            char nm[256], desc[8];
            int nlen = (int)sizeof nm, dlen = (int)sizeof desc, verb, bind, scope;
            MPI_Datatype dt;
            MPI_T_enum en;
            if (MPI_T_cvar_get_info(i, nm, &nlen, &verb, &dt, &en, desc, &dlen, &bind, &scope) != MPI_SUCCESS) continue;
            if (strcmp(nm, name) != 0 || bind != MPI_T_BIND_NO_OBJECT) continue;
            MPI_T_cvar_handle h;
            int count;
            if (MPI_T_cvar_handle_alloc(i, NULL, &h, &count) != MPI_SUCCESS) continue;
            union { int i; unsigned u; unsigned long ul; unsigned long long ull; long l; long long ll; double d; } v;
            /* Numbers only: Open MPI 4.1.4 crashes (a NULL dereference in
             * MPI_T_cvar_read) on a string variable that was never set,
             * pml_ob1_allocator for one. */
            if (dt == MPI_CHAR) count = 0;
            if (count > 0 && MPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
                found = 0;
                if (dt == MPI_INT) snprintf(out, len, "%d", v.i);
                else if (dt == MPI_UNSIGNED) snprintf(out, len, "%u", v.u);
                else if (dt == MPI_UNSIGNED_LONG) snprintf(out, len, "%lu", v.ul);
                else if (dt == MPI_UNSIGNED_LONG_LONG) snprintf(out, len, "%llu", v.ull);
                else if (dt == MPI_LONG) snprintf(out, len, "%ld", v.l);
                else if (dt == MPI_LONG_LONG) snprintf(out, len, "%lld", v.ll);
                else if (dt == MPI_DOUBLE) snprintf(out, len, "%g", v.d);
                else found = -1;
                /* an enumerated value (Open MPI's single-copy mechanism): its name */
                if (found == 0 && en != MPI_T_ENUM_NULL && dt == MPI_INT) {
                    int ne, nl;
                    char ename[64];
                    nl = (int)sizeof ename;
                    if (MPI_T_enum_get_info(en, &ne, ename, &nl) == MPI_SUCCESS)
                        for (int k = 0; k < ne; k++) {
                            int val;
                            char item[128];
                            nl = (int)sizeof item;
                            if (MPI_T_enum_get_item(en, k, &val, item, &nl) == MPI_SUCCESS && val == v.i) {
                                snprintf(out, len, "%s", item);
                                break;
                            }
                        }
                }
            }
            MPI_T_cvar_handle_free(&h);
        }
    MPI_T_finalize();
    return found;
}
