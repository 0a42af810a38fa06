/* common/simt/simt_counters.c: what programs call to read the emulator's
 * counters. In a file of its own for a reason: the per-warp counts behind
 * them (warp steps and active lanes, sectors and lines per request, bank
 * conflict ways, load rounds: simt_report.c's warp logs) cost about a third
 * of the emulator's time on a kernel of shared-memory accesses and
 * barriers (the cuda-samples' scan), and a program that never reads them
 * should not pay for them. A program that calls any function here links
 * this object from libpw.a, and its constructor turns the counting on
 * before main; one that calls none (NVIDIA's samples, most programs) runs
 * without. The plain counts (loads, stores, atomics, barriers, blocks) are
 * kept either way; pw_simt_trace_warp turns the counting on itself.
 *
 * Calls simt_queue.c (the waits) and reads simt_state.c's counters. */
#define _GNU_SOURCE
#include "simt_state.h"

__attribute__((constructor)) static void count_warps(void) { simt_counting = true; }

/* Each waits for the work issued before it (an implicit cudaDeviceSynchronize),
 * so a program that reads the counters right after a launch, with no
 * synchronise between (the workbook's checkers do), gets that launch's. */
const pw_simt_counters *pw_simt_last_counters(void) { simt_device_idle(); return &simt_last_counters; }
const pw_simt_counters *pw_simt_total_counters(void) { simt_device_idle(); return &simt_total_counters; }
void pw_simt_counters_reset(void)
{
    simt_device_idle();
    memset(&simt_total_counters, 0, sizeof simt_total_counters);
}

double pw_simt_efficiency(const pw_simt_counters *c)
{
    return c->warp_steps ? (double)c->active_lanes / (32.0 * (double)c->warp_steps) : 0;
}

double pw_simt_sectors_per_request(const pw_simt_counters *c)
{
    long long r = c->global_load_requests + c->global_store_requests;
    return r ? (double)(c->global_load_sectors + c->global_store_sectors) / (double)r : 0;
}

double pw_simt_conflict_ways(const pw_simt_counters *c)
{
    return c->shared_requests ? (double)c->shared_wavefronts / (double)c->shared_requests : 0;
}

