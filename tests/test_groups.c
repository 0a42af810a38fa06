/* tests/test_groups.c: groups (coll_comm_split) and tagged messages on the
 * virtual cluster (kernels/collectives.h, common/cluster/cluster.h).
 *
 * Checks:
 * - grids of 2 x 4 and 3 x 5 ranks, split into rows and into columns: ring,
 *   tree and naive all-reduces in every row at once, then in every column at
 *   once, give exact sums (whole numbers), the same bits on every member,
 *   and modelled times equal to the closed forms of each group's link, to
 *   1e-9: a group inside a node pays the intra-node link, one spanning nodes
 *   the inter-node link (layouts with rows inside nodes, rows across nodes,
 *   and everything on one node);
 * - groups with the same members in another order, and groups of groups,
 *   never take each other's messages (a fast rank's next collective arrives
 *   while its neighbour is still in the last one);
 * - keys order the ranks (ties by parent rank), COLL_UNDEFINED leaves a rank
 *   out, and making groups costs no modelled time and leaves no trace;
 * - tagged messages match by tag, in order within a tag, while the link still
 *   serves them in the order they were sent; a deadlock and an unreceived
 *   message are reported with the tag's number and name, and in a group
 *   with its context. */
#include "cluster.h"
#include "collectives.h"
#include "util.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double rel_err(double got, double want) { return want == 0 ? fabs(got) : fabs(got - want) / fabs(want); }

/* ---- grids: rows and columns ------------------------------------------------------ */

typedef struct {
    int rows, cols;
    size_t n;
    coll_allreduce_fn fn;
    float **row_buf, **col_buf;   /* per world rank */
    double *t_row, *t_col;        /* per world rank: clock after the row and after the column all-reduce */
    int *row_rank, *col_rank;     /* per world rank: its rank in each group */
    int *row_size, *col_size;
} grid_job;

static float value(int world, size_t i) { return (float)((int)((i * 5 + (size_t)world * 11) % 13) - 6); }

static void grid_rank(pw_rank *r, void *arg)
{
    grid_job *j = arg;
    pw_comm world = coll_comm_cluster(r), row, col;
    int me = world.rank, my_row = me / j->cols, my_col = me % j->cols;
    coll_comm_split(&world, my_row, my_col, &row);
    coll_comm_split(&world, my_col, my_row, &col);
    j->row_rank[me] = row.rank;
    j->row_size[me] = row.size;
    j->col_rank[me] = col.rank;
    j->col_size[me] = col.size;
    j->fn(&row, j->row_buf[me], j->n);
    j->t_row[me] = coll_now(&world);
    j->fn(&col, j->col_buf[me], j->n);
    j->t_col[me] = coll_now(&world);
    coll_comm_free(&row);
    coll_comm_free(&col);
}

typedef double (*model_fn)(int p, size_t n_elems, size_t elem_bytes, double alpha, double beta);

/* One grid on one layout, one algorithm: sums, bits and times. */
static void check_grid(int rows, int cols, int per_node, const char *algo, coll_allreduce_fn fn, model_fn model)
{
    int p = rows * cols;
    size_t n = 1200;                                /* divisible by 2, 3, 4, 5: the ring's chunks are equal */
    grid_job j = { rows, cols, n, fn, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    j.row_buf = calloc((size_t)p, sizeof *j.row_buf);
    j.col_buf = calloc((size_t)p, sizeof *j.col_buf);
    j.t_row = calloc((size_t)p, sizeof(double));
    j.t_col = calloc((size_t)p, sizeof(double));
    j.row_rank = calloc((size_t)p, sizeof(int));
    j.col_rank = calloc((size_t)p, sizeof(int));
    j.row_size = calloc((size_t)p, sizeof(int));
    j.col_size = calloc((size_t)p, sizeof(int));
    for (int w = 0; w < p; w++) {
        j.row_buf[w] = pw_alloc_floats(n);
        j.col_buf[w] = pw_alloc_floats(n);
        for (size_t i = 0; i < n; i++) j.row_buf[w][i] = j.col_buf[w][i] = value(w, i);
    }
    pw_cluster_config cfg = pw_cluster_defaults(p);
    cfg.ranks_per_node = per_node;
    pw_cluster *c = pw_cluster_create(&cfg);
    int rc = pw_cluster_run(c, grid_rank, &j);
    EXPECT(rc == 0, "%dx%d %s: the run completes: %s", rows, cols, algo, pw_cluster_report(c));

    int bad_sum = 0, bad_bits = 0, bad_place = 0;
    for (int w = 0; w < p && rc == 0; w++) {
        int row = w / cols, col = w % cols;
        if (j.row_rank[w] != col || j.row_size[w] != cols || j.col_rank[w] != row || j.col_size[w] != rows) bad_place++;
        for (size_t i = 0; i < n; i++) {
            float want_row = 0, want_col = 0;
            for (int k = 0; k < cols; k++) want_row += value(row * cols + k, i);
            for (int k = 0; k < rows; k++) want_col += value(k * cols + col, i);
            if (j.row_buf[w][i] != want_row || j.col_buf[w][i] != want_col) bad_sum++;
        }
        if (memcmp(j.row_buf[w], j.row_buf[row * cols], n * sizeof(float)) != 0 ||
            memcmp(j.col_buf[w], j.col_buf[col], n * sizeof(float)) != 0) bad_bits++;
    }
    EXPECT(!bad_place, "%dx%d: rows are ordered by column and columns by row (%d ranks misplaced)", rows, cols, bad_place);
    EXPECT(!bad_sum, "%dx%d %s: every row and column sum is exact (%d wrong elements)", rows, cols, algo, bad_sum);
    EXPECT(!bad_bits, "%dx%d %s: the members of a group hold the same bits (%d ranks differ)", rows, cols, algo, bad_bits);

    /* A group's link: intra-node when all its members share a node, else the
     * inter-node link, whose alpha and beta every ring step then waits for. */
    bool row_inside = cols <= per_node && per_node % cols == 0;
    bool col_inside = p <= per_node;
    double ar = row_inside ? cfg.intra_alpha : cfg.inter_alpha, br = 1e-9 / (row_inside ? cfg.intra_gbs : cfg.inter_gbs);
    double ac = col_inside ? cfg.intra_alpha : cfg.inter_alpha, bc = 1e-9 / (col_inside ? cfg.intra_gbs : cfg.inter_gbs);
    double want_row = model(cols, n, sizeof(float), ar, br);
    double want_col = want_row + model(rows, n, sizeof(float), ac, bc);
    double worst_row = 0, worst_col = 0, end = 0;
    for (int w = 0; w < p; w++) end = fmax(end, j.t_col[w]);
    /* The tree and naive algorithms leave ranks at different clocks (the root
     * finishes last); the ring ends every rank at once. Compare the last. */
    double last_row = 0;
    for (int w = 0; w < p; w++) last_row = fmax(last_row, j.t_row[w]);
    worst_row = rel_err(last_row, want_row);
    if (fn == coll_allreduce_ring) {
        for (int w = 0; w < p; w++) worst_row = fmax(worst_row, rel_err(j.t_row[w], want_row));
        for (int w = 0; w < p; w++) worst_col = fmax(worst_col, rel_err(j.t_col[w], want_col));
    }
    EXPECT(worst_row < 1e-9, "%dx%d (%d per node) %s: rows end at the %s-node closed form %.6g us (got %.6g us)",
           rows, cols, per_node, algo, row_inside ? "intra" : "inter", want_row * 1e6, last_row * 1e6);
    if (fn == coll_allreduce_ring)
        EXPECT(worst_col < 1e-9 && rel_err(end, want_col) < 1e-9,
               "%dx%d (%d per node) %s: columns end at the %s-node closed form, %.6g us after the start (got %.6g us)",
               rows, cols, per_node, algo, col_inside ? "intra" : "inter", want_col * 1e6, end * 1e6);
    pw_cluster_destroy(c);
    for (int w = 0; w < p; w++) {
        pw_free(j.row_buf[w]);
        pw_free(j.col_buf[w]);
    }
    free(j.row_buf); free(j.col_buf); free(j.t_row); free(j.t_col);
    free(j.row_rank); free(j.col_rank); free(j.row_size); free(j.col_size);
}

static void test_grid_rows_and_columns(void)
{
    /* rows, cols, ranks per node: rows inside nodes and columns across them;
     * rows split over two nodes; all on one node. */
    static const int layouts[][3] = { { 2, 4, 4 }, { 2, 4, 2 }, { 2, 4, 8 }, { 3, 5, 5 }, { 3, 5, 15 } };
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        check_grid(layouts[l][0], layouts[l][1], layouts[l][2], "ring", coll_allreduce_ring, coll_model_ring);
        /* The tree and naive closed forms hold for the rows' all-reduce when
         * every rank starts at once on one kind of link (the columns start
         * skewed; a root fed over both links has no one-link form). */
        if (layouts[l][2] % layouts[l][1] != 0) continue;
        check_grid(layouts[l][0], layouts[l][1], layouts[l][2], "naive", coll_allreduce_naive, coll_model_naive);
        if ((layouts[l][1] & (layouts[l][1] - 1)) == 0)
            check_grid(layouts[l][0], layouts[l][1], layouts[l][2], "tree", coll_allreduce_tree, coll_model_tree);
    }
}

/* ---- groups never take each other's messages ---------------------------------------- */

typedef struct { float **a, **b, **c; size_t n; } overlap_job;

/* Three all-reduces back to back on the same ranks: the world, the world in
 * reverse order, and the world's halves. A rank that finishes one early
 * sends the next one's messages to a neighbour still inside the last:
 * without contexts those would be taken for the wrong collective. */
static void three_groups(pw_rank *r, void *arg)
{
    overlap_job *j = arg;
    pw_comm world = coll_comm_cluster(r), rev, half;
    int me = world.rank, p = world.size;
    coll_comm_split(&world, 0, p - me, &rev);
    coll_comm_split(&world, me < p / 2, me, &half);
    if (me % 3 == 0) pw_compute(r, 1e6 * (me + 1), NULL);    /* skew the ranks */
    coll_allreduce_ring(&world, j->a[me], j->n);
    coll_allreduce_tree(&rev, j->b[me], j->n);
    coll_allreduce_ring(&half, j->c[me], j->n);
    coll_comm_free(&rev);
    coll_comm_free(&half);
}

/* Two groups with the same members, the world and the world reversed, and
 * one tag: each rank sends to the same neighbour (world rank + 1) first in
 * the world, then in the reversed group (where it is rank - 1). The receiver
 * takes the reversed group's message first: it must get that group's, not
 * the world's that was sent before it on the same link. */
typedef struct { float world_got[8], rev_got[8]; } apart_job;

static void same_tag_two_groups(pw_rank *r, void *arg)
{
    apart_job *j = arg;
    pw_comm world = coll_comm_cluster(r), rev;
    int me = world.rank, p = world.size;
    coll_comm_split(&world, 0, p - me, &rev);
    float w = (float)(100 + me), v = (float)(200 + me);
    coll_send(&world, (me + 1) % p, 5, &w, sizeof w);
    coll_send(&rev, (rev.rank + p - 1) % p, 5, &v, sizeof v);
    coll_recv(&rev, (rev.rank + 1) % p, 5, &j->rev_got[me], sizeof(float));
    coll_recv(&world, (me + p - 1) % p, 5, &j->world_got[me], sizeof(float));
    coll_comm_free(&rev);
}

static void test_groups_apart(void)
{
    {
        pw_cluster_config cfg = pw_cluster_defaults(4);
        pw_cluster *c = pw_cluster_create(&cfg);
        apart_job j;
        memset(&j, 0, sizeof j);
        int rc = pw_cluster_run(c, same_tag_two_groups, &j);
        EXPECT(rc == 0, "two groups of the same ranks: the run completes: %s", pw_cluster_report(c));
        for (int w = 0; w < 4; w++)
            EXPECT(j.world_got[w] == (float)(100 + (w + 3) % 4) && j.rev_got[w] == (float)(200 + (w + 3) % 4),
                   "world rank %d: from rank %d, the world's message (%g, want %d) and the reversed group's (%g, want %d)",
                   w, (w + 3) % 4, j.world_got[w], 100 + (w + 3) % 4, j.rev_got[w], 200 + (w + 3) % 4);
        pw_cluster_destroy(c);
    }
    for (int p = 2; p <= 9; p += 7) {
        size_t n = 37;
        overlap_job j = { calloc((size_t)p, sizeof(float *)), calloc((size_t)p, sizeof(float *)),
                          calloc((size_t)p, sizeof(float *)), n };
        for (int w = 0; w < p; w++) {
            j.a[w] = pw_alloc_floats(n);
            j.b[w] = pw_alloc_floats(n);
            j.c[w] = pw_alloc_floats(n);
            for (size_t i = 0; i < n; i++) {
                j.a[w][i] = value(w, i);
                j.b[w][i] = 100 * value(w, i);
                j.c[w][i] = 10000 * value(w, i);
            }
        }
        pw_cluster_config cfg = pw_cluster_defaults(p);
        cfg.ranks_per_node = p == 9 ? 3 : p;
        pw_cluster *c = pw_cluster_create(&cfg);
        int rc = pw_cluster_run(c, three_groups, &j);
        EXPECT(rc == 0, "p=%d: three groups in a row complete: %s", p, pw_cluster_report(c));
        int bad = 0;
        for (int w = 0; w < p && rc == 0; w++)
            for (size_t i = 0; i < n; i++) {
                float sa = 0, sh = 0;
                for (int k = 0; k < p; k++) sa += value(k, i);
                for (int k = 0; k < p; k++) if ((k < p / 2) == (w < p / 2)) sh += value(k, i);
                if (j.a[w][i] != sa || j.b[w][i] != 100 * sa || j.c[w][i] != 10000 * sh) bad++;
            }
        EXPECT(!bad, "p=%d: each group summed its own buffers (%d wrong elements)", p, bad);
        pw_cluster_destroy(c);
        for (int w = 0; w < p; w++) { pw_free(j.a[w]); pw_free(j.b[w]); pw_free(j.c[w]); }
        free(j.a); free(j.b); free(j.c);
    }
}

/* ---- keys, undefined colours, nested groups, no cost ----------------------------------- */

typedef struct { int rank[12], size[12], sub_rank[12], sub_size[12], ctx[12], sub_ctx[12]; float sum[12]; } order_job;

static void ordered(pw_rank *r, void *arg)
{
    order_job *j = arg;
    pw_comm world = coll_comm_cluster(r), g, sub;
    int me = world.rank;
    /* colour: rank 11 is in no group; the others by parity. key: 5 - me/2
     * reverses each group, and ranks 0 and 1... have distinct keys; ranks
     * 8 and 10 share key 1 (ties: parent order). */
    int colour = me == 11 ? COLL_UNDEFINED : me % 2;
    int key = me == 10 ? 1 : 5 - me / 2;
    coll_comm_split(&world, colour, key, &g);
    j->rank[me] = g.rank;
    j->size[me] = g.size;
    j->ctx[me] = g.context;
    j->sub_rank[me] = j->sub_size[me] = j->sub_ctx[me] = -2;
    if (g.size > 0) {
        coll_comm_split(&g, g.rank / 2, 0, &sub);       /* pairs inside each group */
        j->sub_rank[me] = sub.rank;
        j->sub_size[me] = sub.size;
        j->sub_ctx[me] = sub.context;
        float x = (float)me;
        coll_allreduce_ring(&sub, &x, 1);
        j->sum[me] = x;
        coll_comm_free(&sub);
    }
    coll_comm_free(&g);
}

static void test_keys_and_nesting(void)
{
    pw_cluster_config cfg = pw_cluster_defaults(12);
    cfg.ranks_per_node = 4;
    cfg.trace = true;
    pw_cluster *c = pw_cluster_create(&cfg);
    order_job j;
    memset(&j, 0, sizeof j);
    int rc = pw_cluster_run(c, ordered, &j);
    EXPECT(rc == 0, "the run completes: %s", pw_cluster_report(c));
    /* even ranks 0,2,4,6,8,10 have keys 5,4,3,2,1,1: order 8,10,6,4,2,0.
     * odd ranks 1,3,5,7,9 have keys 5,4,3,2,1: order 9,7,5,3,1. */
    static const int even_order[] = { 8, 10, 6, 4, 2, 0 }, odd_order[] = { 9, 7, 5, 3, 1 };
    for (int i = 0; i < 6; i++)
        EXPECT(j.rank[even_order[i]] == i && j.size[even_order[i]] == 6, "world rank %d is rank %d of 6 (got %d of %d)",
               even_order[i], i, j.rank[even_order[i]], j.size[even_order[i]]);
    for (int i = 0; i < 5; i++)
        EXPECT(j.rank[odd_order[i]] == i && j.size[odd_order[i]] == 5, "world rank %d is rank %d of 5 (got %d of %d)",
               odd_order[i], i, j.rank[odd_order[i]], j.size[odd_order[i]]);
    EXPECT(j.rank[11] == -1 && j.size[11] == 0 && j.sub_size[11] == -2, "COLL_UNDEFINED: in no group (rank %d, size %d)",
           j.rank[11], j.size[11]);
    EXPECT(j.ctx[0] != j.ctx[1] && j.ctx[0] > 0 && j.ctx[1] > 0, "two groups, two contexts (%d, %d)", j.ctx[0], j.ctx[1]);
    /* pairs: (8,10) (6,4) (2,0) and (9,7) (5,3) (1): sums of world ranks */
    static const float pair_sum[11] = { 2, 1, 2, 8, 10, 8, 10, 16, 18, 16, 18 };
    for (int w = 0; w < 11; w++) {
        float want = pair_sum[w];
        EXPECT(j.sum[w] == want, "world rank %d: the pair's sum is %g (got %g)", w, want, j.sum[w]);
        EXPECT(j.sub_ctx[w] > j.ctx[w], "world rank %d: a group's groups get new contexts (%d after %d)", w, j.sub_ctx[w], j.ctx[w]);
    }
    /* making groups is set-up: no time, no trace */
    size_t nev;
    const pw_trace_event *ev = pw_cluster_trace(c, &nev);
    long long msgs;
    double bytes;
    pw_cluster_traffic(c, &msgs, &bytes);
    double send_bytes = 0;
    for (size_t i = 0; i < nev; i++) if (!strcmp(ev[i].kind, "send")) send_bytes += ev[i].bytes;
    /* what is left: the pairs' ring all-reduces of one float: a
     * reduce-scatter step and an all-gather step, one message each per rank
     * (rank 1 is alone in its pair and sends nothing). */
    EXPECT(send_bytes == bytes, "the trace holds exactly the traffic counted (%g vs %g bytes)", send_bytes, bytes);
    EXPECT(msgs == 10 * 2, "only the 5 pairs' all-reduces are counted, 2 messages per rank: 20 (got %lld)", msgs);
    pw_cluster_destroy(c);
}

/* ---- tagged messages ---------------------------------------------------------------- */

enum { TAG_ACT = 1, TAG_GRAD = 2 };

typedef struct { float act[1000], grad[1000], buf[1000]; float got_act, got_grad; double t_act, t_grad; } tag_job;

static void out_of_order(pw_rank *r, void *arg)
{
    tag_job *j = arg;
    if (pw_rank_id(r) == 0) {
        pw_send_tag(r, 1, TAG_GRAD, j->grad, sizeof j->grad);     /* 4000 bytes: a cost worth seeing */
        pw_send_tag(r, 1, TAG_ACT, j->act, sizeof j->act);
    } else {
        float *buf = j->buf;
        pw_recv_tag(r, 0, TAG_ACT, buf, 4000);
        j->got_act = buf[0];
        j->t_act = pw_rank_now(r);
        pw_recv_tag(r, 0, TAG_GRAD, buf, 4000);
        j->got_grad = buf[0];
        j->t_grad = pw_rank_now(r);
    }
}

static void test_tags_match(void)
{
    pw_cluster_config cfg = pw_cluster_defaults(2);
    pw_cluster *c = pw_cluster_create(&cfg);
    static tag_job j;
    j.act[0] = 1.5f;
    j.grad[0] = -2.5f;
    int rc = pw_cluster_run(c, out_of_order, &j);
    EXPECT(rc == 0, "the run completes: %s", pw_cluster_report(c));
    double cost = pw_cluster_alpha(c, 0, 1) + 4000 * pw_cluster_beta(c, 0, 1);
    EXPECT(j.got_act == 1.5f && j.got_grad == -2.5f, "each receive got its tag's message (%g, %g)", j.got_act, j.got_grad);
    /* the link served the gradient first (it was sent first): the
     * activations arrive at 2c even though they were asked for first */
    EXPECT(rel_err(j.t_act, 2 * cost) < 1e-12 && rel_err(j.t_grad, 2 * cost) < 1e-12,
           "times follow the link's order: both at 2c = %.6g us (got %.6g, %.6g)", 2 * cost * 1e6, j.t_act * 1e6, j.t_grad * 1e6);
    pw_cluster_destroy(c);
}

static void wrong_tag(pw_rank *r, void *arg)
{
    (void)arg;
    float x = 1;
    if (pw_rank_id(r) == 0) pw_send_tag(r, 1, TAG_GRAD, &x, sizeof x);
    else pw_recv_tag(r, 0, TAG_ACT, &x, sizeof x);
}

/* A rank blocked forever never frees its group: the test keeps each
 * rank's group (arg) and frees them after the run. */
static void wrong_tag_in_group(pw_rank *r, void *arg)
{
    pw_comm *groups = arg, world = coll_comm_cluster(r);
    pw_comm *g = &groups[world.rank];
    coll_comm_split(&world, world.rank / 2, world.rank, g);
    float x = 1;
    if (g->rank == 0) coll_send(g, 1, TAG_ACT, &x, sizeof x);
    else coll_recv(g, 0, TAG_GRAD, &x, sizeof x);
}

static void test_tag_reports(void)
{
    pw_cluster_config cfg = pw_cluster_defaults(2);
    pw_cluster *c = pw_cluster_create(&cfg);
    pw_cluster_name_tag(c, TAG_ACT, "activations");
    pw_cluster_name_tag(c, TAG_GRAD, "gradients");
    int rc = pw_cluster_run(c, wrong_tag, NULL);
    const char *rep = pw_cluster_report(c);
    EXPECT(rc == PW_CLUSTER_DEADLOCK && strstr(rep, "rank 1 (clock 0 s): recv from rank 0 (4 bytes, tag 1 (activations))")
           && strstr(rep, "rank 0's message queued here has another tag, tag 2 (gradients)"),
           "a receive of the wrong tag waits forever, and the report names both tags:\n%s", rep);
    pw_cluster_destroy(c);

    cfg = pw_cluster_defaults(4);
    c = pw_cluster_create(&cfg);
    pw_cluster_name_tag(c, TAG_ACT, "activations");
    pw_cluster_name_tag(c, TAG_GRAD, "gradients");
    pw_comm groups[4];
    rc = pw_cluster_run(c, wrong_tag_in_group, groups);
    rep = pw_cluster_report(c);
    EXPECT(rc == PW_CLUSTER_DEADLOCK && strstr(rep, "rank 3 (clock 0 s): recv from rank 2 (4 bytes, tag 2 (gradients) in group context 2)")
           && strstr(rep, "recv from rank 0 (4 bytes, tag 2 (gradients) in group context 1)"),
           "in a group, the report gives world ranks, the tag and the group's context:\n%s", rep);
    pw_cluster_destroy(c);
    for (int i = 0; i < 4; i++) coll_comm_free(&groups[i]);
}

static void sends_unreceived(pw_rank *r, void *arg)
{
    (void)arg;
    float x = 1;
    if (pw_rank_id(r) == 0) pw_send_tag(r, 1, TAG_GRAD, &x, sizeof x);
}

static void test_tag_unreceived(void)
{
    pw_cluster_config cfg = pw_cluster_defaults(2);
    pw_cluster *c = pw_cluster_create(&cfg);
    pw_cluster_name_tag(c, TAG_GRAD, "gradients");
    int rc = pw_cluster_run(c, sends_unreceived, NULL);
    const char *rep = pw_cluster_report(c);
    EXPECT(rc == PW_CLUSTER_UNRECEIVED && strstr(rep, "rank 0 -> rank 1: 4 bytes, tag 2 (gradients), sent at clock 0 s"),
           "a message never received is listed with its tag:\n%s", rep);
    pw_cluster_destroy(c);
}

int main(void)
{
    RUN(test_grid_rows_and_columns);
    RUN(test_groups_apart);
    RUN(test_keys_and_nesting);
    RUN(test_tags_match);
    RUN(test_tag_reports);
    RUN(test_tag_unreceived);
    return unit_failed_tests != 0;
}
