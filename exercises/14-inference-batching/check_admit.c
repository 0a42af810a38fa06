/* exercises/14-inference-batching/check_admit.c: the checker of exercise 14.2.
 *
 * Built with your exercises/14-inference-batching/admit.c by `make ex-14.2`,
 * or with the solution by `make solution-14.2`. The decode engine of
 * kernels/server.c runs bursts of requests (all waiting at the start, so the
 * number of iterations depends on the rule alone, not on timing) with slots
 * B = 1, 3, 8, 16 and output lengths 1..T for T = 1, 5, 40; then one run with
 * Poisson arrivals. Your admit_continuous must
 *   1. keep the engine's invariants: take from the head of the queue, in
 *      order, each request once, only into free slots;
 *   2. finish every request, with every state equal to its tokens decoded
 *      alone;
 *   3. in a burst, use exactly as many iterations as the library's
 *      continuous admit (measured here on the same lengths): every free slot
 *      filled while requests wait. Static batching, which waits for the
 *      whole batch to finish, needs more (the checker says how many).
 * Each failure is explained in words; the last line is PASS or FAIL.
 */
#include "exercise.h"
#include "server.h"

#include <stdio.h>

#include "admit.h"

static srv_decode_result run(const srv_model *m, srv_admit_fn f, double rate, int n, int T, int B)
{
    srv_decode_config c = { rate, n, T, B, f, (uint64_t)(n * 31 + T * 7 + B) };
    srv_decode_result r;
    if (srv_decode_run(m, &c, &r)) { fprintf(stderr, "checker: out of memory or threads\n"); exit(2); }
    srv_decode_free(&r);
    return r;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    srv_model m;
    if (srv_model_init(&m, 40, 2, 3)) { fprintf(stderr, "checker: out of memory\n"); return 2; }
    int Bs[] = { 1, 3, 8, 16 }, Ts[] = { 1, 5, 40 };
    for (int b = 0; b < 4; b++)
        for (int t = 0; t < 3; t++) {
            int n = 37 + 5 * b;
            printf("  burst of %2d, B = %2d, 1..%2d tokens  ", n, Bs[b], Ts[t]);
            srv_decode_result ref = run(&m, srv_admit_continuous, 0, n, Ts[t], Bs[b]);
            srv_decode_result you = run(&m, admit_continuous, 0, n, Ts[t], Bs[b]);
            srv_decode_result stat = run(&m, srv_admit_static, 0, n, Ts[t], Bs[b]);
            if (you.order_errors) {
                pw_ex_fail("%d admission errors: take waiting[0..taken) in order, each once, only into slots that hold -1, "
                           "and return how many you took", you.order_errors);
                return 1;
            }
            if (you.wrong) { pw_ex_fail("%d requests unfinished or wrong: did you admit anyone at all?", you.wrong); return 1; }
            if (you.iterations != ref.iterations) {
                pw_ex_fail("%d iterations where filling every free slot needs %d (static batching: %d): %s", you.iterations,
                           ref.iterations, stat.iterations,
                           you.iterations >= stat.iterations ? "are you waiting for the whole batch to finish?"
                                                             : "is a free slot left empty while requests wait?");
                return 1;
            }
            printf("ok (%d iterations; static needs %d)\n", you.iterations, stat.iterations);
        }
    printf("  Poisson arrivals, 60 requests        ");
    srv_decode_result you = run(&m, admit_continuous, 20000, 60, 12, 4);
    if (you.order_errors || you.wrong) { pw_ex_fail("%d admission errors, %d requests wrong or unfinished", you.order_errors, you.wrong); return 1; }
    printf("ok (%d tokens)\n", you.tokens);
    srv_model_free(&m);
    return pw_ex_pass("every free slot is filled at every iteration, in arrival order");
}
