#!/usr/bin/env bash
# chapters/06-memory-wall/run.sh: what `make chapter-6` runs, in the order the
# README reads: how fast memory is (STREAM), how fast each level of the
# hierarchy is (the staircase), then the roofline that puts both against the
# compute peak, and two ways to move fewer bytes (blocking, fusion). Before
# each step a question to answer first; after it, the program prints the
# answer from its own numbers. Each
# program checks its kernels before it times anything and exits 1 if a check
# fails, which stops the chapter there.
#   BIN, RESULTS   where the programs are and where the CSV goes
#   FULL=1         STREAM's full rule (arrays 4x the last-level cache), the
#                  staircase to 4x the last-level cache, more repeats
#   THREADS=1,2    the thread counts of STREAM (default 1, 2, 4 ... cores)
#   STREAM_SRC=/path/to/stream.c   McCalpin's STREAM, built and run beside
#                  ours at the same size (not in this repository: get it from
#                  https://www.cs.virginia.edu/stream/FTP/Code/stream.c)
set -euo pipefail
BIN=${BIN:-build/ch06}
RESULTS=${RESULTS:-results/06-memory-wall}
mkdir -p "$RESULTS"

stream_n=()            # the program's default: 80M doubles (640 MiB per array)
staircase_max=()       # the program's default: 4x the LLC, at most 256 MiB
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_TIME=0.5 PW_MIN_REPS=15
    # 4x the last-level cache the system reports, in doubles (STREAM's rule)
    llc=$(getconf LEVEL3_CACHE_SIZE 2>/dev/null || echo 0)
    [ "${llc:-0}" -gt 0 ] 2>/dev/null || llc=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null || echo 0)
    if [ "${llc:-0}" -gt 0 ] 2>/dev/null; then
        stream_n=(-n $((4 * llc / 8)))
        staircase_max=(--max $((4 * llc)))
    fi
fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "which reaches the higher GB/s, copy or triad? And on all cores, how many times the
  one-core bandwidth will triad reach: 1x, 1.5x, 2x?"
step "1. STREAM: copy, scale, add, triad on 1..cores threads" \
    "$BIN/stream" ${stream_n[@]+"${stream_n[@]}"} --csv "$RESULTS/stream.csv"

predict "how many times longer does a load from DRAM take than one from L1: 3x, 30x, 300x?
  Does bandwidth fall by more or by less than latency rises?"
step "2. the staircase: bandwidth and latency against working-set size" \
    "$BIN/staircase" ${staircase_max[@]+"${staircase_max[@]}"} --csv "$RESULTS/staircase.csv"

# OpenBLAS's point is measured with the kernel OpenBLAS picks for this CPU,
# as chapter 07 does: some environments pin one (OPENBLAS_CORETYPE) or its
# blocking (OPENBLAS_L2_SIZE); the program prints which kernel ran.
predict "which kernels (square, saxpy, dot, GEMM) can never reach the compute peak, however well
  written? From DRAM, how much faster is the widest SIMD saxpy than the scalar one: its lane
  count, a quarter of it, or less?"
step "3. the roofline: peak, bandwidth, and where each kernel sits" \
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$BIN/roofline" --csv "$RESULTS/roofline.csv"

predict "which transpose block is fastest: 4, 16, 64 or 256 floats? How much faster than the
  naive loop: 1.2x, 3x, 10x?"
step "4. blocking: transpose, naive against cache-blocked" "$BIN/transpose" --csv "$RESULTS/transpose.csv"

predict "the online softmax moves 12 bytes per element, three passes 16: will it be 1.33x faster
  on rows past the caches? Is storing the exps (20 bytes, half the exps) faster or slower?"
step "5. fusion: softmax in three passes against one" "$BIN/softmax" --csv "$RESULTS/softmax.csv"
