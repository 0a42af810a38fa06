#!/usr/bin/env bash
# chapters/06-memory-wall/run.sh: what `make chapter-6` runs, in the order the
# README reads: how fast memory is (STREAM), how fast each level of the
# hierarchy is (the staircase), then the roofline that puts both against the
# compute peak, and two ways to move fewer bytes (blocking, fusion). Each
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

step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "1. STREAM: copy, scale, add, triad on 1..cores threads" \
    "$BIN/stream" ${stream_n[@]+"${stream_n[@]}"} --csv "$RESULTS/stream.csv"
step "2. the staircase: bandwidth and latency against working-set size" \
    "$BIN/staircase" ${staircase_max[@]+"${staircase_max[@]}"} --csv "$RESULTS/staircase.csv"

# OpenBLAS's point is measured with the kernel OpenBLAS picks for this CPU,
# as chapter 07 does: some environments pin one (OPENBLAS_CORETYPE) or its
# blocking (OPENBLAS_L2_SIZE); the program prints which kernel ran.
step "3. the roofline: peak, bandwidth, and where each kernel sits" \
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$BIN/roofline" --csv "$RESULTS/roofline.csv"
step "4. blocking: transpose, naive against cache-blocked" "$BIN/transpose" --csv "$RESULTS/transpose.csv"
step "5. fusion: softmax in three passes against one" "$BIN/softmax" --csv "$RESULTS/softmax.csv"
