/* exercises/04-openmp/check_list_tasks.c: the checker of exercise 4.4.
 *
 * Built with your exercises/04-openmp/list_tasks.c by `make ex-4.4`, or with
 * solutions/04-openmp/list_tasks.c by `make solution-4.4`. It is also
 * list_node_work(), the work your tasks call: it counts the calls per node
 * and notes the team each ran in. And it counts the tasks your code
 * creates, at the OpenMP runtime's entry point (task_count.h says how).
 * Everything it judges is a count, not a time, so the verdict does not
 * depend on how busy the machine is:
 *   - every node processed exactly once (a node done twice or never: the
 *     task read the walker's pointer after the walk had moved on, or each
 *     thread walked the whole list);
 *   - the sum of the new values, which must be read after the tasks ended;
 *   - one task per node, none of them undeferred (an if(0) task runs at
 *     once on the walker's thread: a serial walk), all created by one
 *     thread, in a team of the threads asked for.
 * The cases: lists of 0, 1, 2, 7, 1000 and 10007 nodes (linked in a
 * shuffled order) on 1, 2, 3 and 7 threads. In the 7-node cases on 2 or
 * more threads, the first node's work takes 30 ms longer: a sum read
 * without waiting for the tasks then misses its new value, unless the
 * walking thread stalled for 30 ms at that very moment.
 * Built without OpenMP it checks the results on one thread and says SKIP:
 * no task is ever created there. Last line "PASS: ..." and exit 0, or exit 1.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "exercise.h"
#include "list_tasks.h"
#include "omp_info.h"
#include "task_count.h"
#include "util.h"

#define WORK_ROUNDS 1000   /* multiply-xorshift rounds per node: about 1.4 us (64 such rounds took 88 ns a node in
                            * chapter 04's Step 4 on the reference machine: 1000 / 64 x 88 ns; a multiply and
                            * a shift-xor in a dependent chain, about 5 cycles a round) */
#define HOLD_MS 30         /* the held node's extra time: a sum read early misses it */

static list_node *nodes;        /* the current list's nodes, in memory order */
static int *position;           /* position[i]: node i's place in the list, from the head (0) */
static int count;
static atomic_int *visits;      /* list_node_work() calls per node, this call */
static atomic_int work_team;    /* the largest team list_node_work() ran in */
static const list_node *held;   /* whose work takes HOLD_MS longer, or NULL */
static atomic_int failed;

static void stop(const char *what, const char *why)
{
    if (atomic_exchange(&failed, 1)) for (;;) pause();   /* another thread is reporting */
    printf("wrong\nFAIL: %s\n%s\nexercise 4.4 is not right yet: start with the FAIL above\n", what, why);
    fflush(stdout);
    _exit(PW_EXIT_WRONG);
}

static int team_size(void)
{
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

static uint64_t mix(uint64_t v)
{
    for (int r = 0; r < WORK_ROUNDS; r++) {
        v *= 0xbf58476d1ce4e5b9ull;
        v ^= v >> 31;
    }
    return v;
}

void list_node_work(list_node *p)
{
    if (!p)
        stop("list_node_work() was given NULL, the pointer past the last node",
             "  a task read the walker's pointer when it ran, not when it was created, and by then the walk had\n"
             "  reached the end of the list. Each task must copy the pointer as it is created: firstprivate(p)");
    if (p < nodes || p >= nodes + count)
        stop("list_node_work() was given a pointer that is not a node of the list", "  pass it each node, p");
    atomic_fetch_add(&visits[p - nodes], 1);
    int team = team_size();
    for (int seen = atomic_load(&work_team); team > seen;)
        if (atomic_compare_exchange_weak(&work_team, &seen, team)) break;
    uint64_t v = mix(p->value);
    if (p == held) nanosleep(&(struct timespec){ 0, HOLD_MS * 1000000L }, NULL);
    p->value = v;
}

/* ---- the cases -------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* How many threads a parallel region asked for T gets here (OMP_THREAD_LIMIT
 * or OMP_DYNAMIC may give fewer). */
static int team_for(int T)
{
    int got = 1;
#ifdef _OPENMP
#pragma omp parallel num_threads(T)
    {
#pragma omp single
        got = omp_get_num_threads();
    }
#else
    (void)T;
#endif
    return got;
}

/* The list of n nodes, linked in a shuffled order (a walk that indexes
 * memory instead of following next finds other nodes); returns the head
 * and writes what the sum must be. */
static list_node *make_list(int n, uint64_t seed, uint64_t *want_sum)
{
    int *order = malloc((size_t)(n ? n : 1) * sizeof *order);
    if (!order) { printf("FAIL: out of memory\n"); exit(PW_EXIT_WRONG); }
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(splitmix(&seed) % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    *want_sum = 0;
    for (int k = 0; k < n; k++) {
        list_node *p = &nodes[order[k]];
        p->next = k + 1 < n ? &nodes[order[k + 1]] : NULL;
        p->value = splitmix(&seed);
        *want_sum += mix(p->value);
        position[order[k]] = k;
        atomic_store(&visits[order[k]], 0);
    }
    list_node *head = n ? &nodes[order[0]] : NULL;
    free(order);
    count = n;
    return head;
}

/* The calls per node: 0 if each was processed once, else a FAIL and 1. */
static int check_visits(int n, int T)
{
    int never = 0, again = 0, all_T = T > 1, first = -1, first_pos = n;
    for (int i = 0; i < n; i++) {
        int v = atomic_load(&visits[i]);
        if (v != T) all_T = 0;
        if (v == 1) continue;
        if (v == 0) never++; else again++;
        if (position[i] < first_pos) { first_pos = position[i]; first = i; }
    }
    if (first < 0) return 0;
    if (all_T) {
        pw_ex_fail("n = %d on %d threads: every node was processed %d times, once per thread", n, T, T);
        printf("  each thread of the team walked the whole list and made its own task per node: the walk\n"
               "  belongs to one thread (#pragma omp single inside the parallel region), the tasks to all\n");
        return 1;
    }
    pw_ex_fail("n = %d on %d threads: node %d (from the head) was processed %d times (%d nodes never, %d more than once)",
               n, T, first_pos, atomic_load(&visits[first]), never, again);
    if (again)
        printf("  a task that reads the walker's pointer when it runs, not when it was created, finds it moved\n"
               "  on: it works on a later node, and the node it was made for is skipped. Each task must copy\n"
               "  the pointer as it is created: firstprivate(p)\n");
    else
        printf("  does the walk reach every node, the first (head) and the last (whose next is NULL)?\n");
    return 1;
}

/* The tasks of the call: 0, or a FAIL and 1. */
static int check_tasks(int n, int T, const pw_task_tally *tl, int want_team)
{
    if (n == 0) return 0;   /* an empty list: nothing to count (a task around an empty walk is harmless) */
    if (tl->created == 0) {
        pw_ex_fail("n = %d on %d threads: no task was created: the nodes were processed without tasks", n, T);
        printf("  right results, but the exercise is a task per node: #pragma omp task above the call\n");
        return 1;
    }
    if (tl->created == 1 && n > 1) {
        pw_ex_fail("n = %d on %d threads: one task for %d nodes", n, T, n);
        printf("  the whole walk inside one task runs on one thread: make the task inside the loop, one per node\n");
        return 1;
    }
    if (tl->created != n) {
        pw_ex_fail("n = %d on %d threads: %lld tasks for %d nodes, want one task per node", n, T, tl->created, n);
        return 1;
    }
    if (tl->undeferred) {
        pw_ex_fail("n = %d on %d threads: %lld of the %lld tasks were undeferred (a false if() clause)", n, T,
                   tl->undeferred, tl->created);
        printf("  an undeferred task runs at once, on the thread that made it, before the walk goes on: a serial\n"
               "  walk that also pays for a task per node. Leave the task deferred (no if() clause)\n");
        return 1;
    }
    int creators = __builtin_popcountll(tl->creators);
    if (creators > 1) {
        pw_ex_fail("n = %d on %d threads: the tasks were created by %d threads, want one", n, T, creators);
        printf("  one thread walks the list and creates the tasks (single); the others run them\n");
        return 1;
    }
    int team = atomic_load(&work_team);
    if (tl->max_team > team) team = tl->max_team;
    if (T > 1 && team < want_team) {
        if (team <= 1) {
            pw_ex_fail("n = %d, asked for %d threads: the tasks were made and run outside any parallel region", n, T);
            printf("  a task outside a parallel region (an orphaned task) runs at once on the calling thread: a\n"
                   "  serial walk. Put the walk in #pragma omp parallel, then #pragma omp single\n");
        } else {
            pw_ex_fail("n = %d, asked for %d threads: the tasks ran in a team of %d", n, T, team);
            printf("  a num_threads() clause overrides omp_set_num_threads(), which the checker calls: leave the\n"
                   "  count to the caller\n");
        }
        return 1;
    }
    return 0;
}

static int try_case(int n, int T, bool omp)
{
    uint64_t want_sum;
    list_node *head = make_list(n, 1000003u * (uint64_t)n + (uint64_t)T, &want_sum);
    bool hold = n == 7 && T > 1 && omp;
    held = hold ? head : NULL;
    atomic_store(&work_team, 0);
    pw_tasks_reset();
    pw_omp_set_threads(T);
    printf("  n = %-6d threads = %d  ", n, T);
    uint64_t got = list_tasks(head);
    held = NULL;
    pw_task_tally tl = pw_tasks_read();
    if (check_visits(n, T)) return 1;
    if (got != want_sum) {
        pw_ex_fail("n = %d on %d threads: the sum of the new values is %llu, want %llu", n, T,
                   (unsigned long long)got, (unsigned long long)want_sum);
        printf("  every node was processed once, but the sum is not theirs: was it read before every task had\n"
               "  finished? (%s) #pragma omp taskwait before the sum, or add up after the parallel region,\n"
               "  whose end waits for every task\n",
               hold ? "here the first node's work took 30 ms longer, and the sum did not wait for it."
                    : "the barrier at the end of single waits for the tasks, but only after the sum.");
        return 1;
    }
    if (omp && check_tasks(n, T, &tl, team_for(T))) return 1;
    printf("ok%s\n", omp && n ? "  (one task per node)" : "");
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    enum { MAXN = 10007 };
    nodes = malloc(MAXN * sizeof *nodes);
    position = malloc(MAXN * sizeof *position);
    visits = malloc(MAXN * sizeof *visits);
    if (!nodes || !position || !visits) { printf("FAIL: out of memory\n"); return PW_EXIT_WRONG; }
    bool omp = pw_omp_enabled();
    printf("exercise 4.4: list_tasks() on shuffled lists, every node's work and every task counted\n");
    if (!omp) printf("(built without OpenMP: graded on one thread, where no task is ever created; get it: %s)\n",
                     PW_OMP_INSTALL_HINT);
#if defined(_OPENMP) && defined(__GNUC__) && !defined(__clang__)
    printf("(built by gcc, which copies a local pointer whose address is never taken into a task when the task is\n"
           " created, with or without firstprivate: a task that should copy p cannot go wrong here. clang shares\n"
           " it, as the OpenMP standard says: make CC=clang ex-4.4 grades that too)\n");
#endif
    static const int sizes[] = { 0, 1, 2, 7, 1000, MAXN };
    static const int threads[] = { 1, 2, 3, 7 };
    int bad = 0;
    for (int k = 0; k < (omp ? 4 : 1) && !bad; k++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !bad; i++) bad = try_case(sizes[i], threads[k], omp);
    free(nodes);
    free(position);
    free(visits);
    if (bad) {
        printf("exercise 4.4 is not right yet: start with the FAIL above\n");
        return PW_EXIT_WRONG;
    }
    if (!omp) {
        printf("SKIP: right on one thread, but built without OpenMP no task is ever created, so the tasks cannot\n"
               "  be counted: build with OpenMP (on macOS, brew install libomp) to grade 4.4\n");
        return 77;
    }
    return pw_ex_pass("every node of lists of 0 to %d processed once, by a task of its own, on 1 to 7 threads", MAXN);
}
