#!/usr/bin/env bash
# chapters/01-measure/run.sh: what `make chapter-1` runs, in the order the
# README reads. Each program checks its results before it times anything and
# exits 1 if a check fails, which stops the chapter here.
#   BIN      where the programs are (default build/ch01)
#   RESULTS  where the CSV goes (default results/01-measure)
#   FULL=1   longer runs: more repeats, bigger sizes
set -euo pipefail
BIN=${BIN:-build/ch01}
RESULTS=${RESULTS:-results/01-measure}
mkdir -p "$RESULTS"

loop_sizes=1K,4K,16K,64K,256K,1M,4M,16M
if [ "${FULL:-}" = 1 ]; then
    export PW_MIN_TIME=0.5 PW_MIN_REPS=15
    loop_sizes=1K,2K,4K,8K,16K,32K,64K,128K,256K,512K,1M,2M,4M,8M,16M,32M,64M
fi

step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "1. what this machine can do" "$BIN/probe" --csv "$RESULTS/probe.csv"
step "2. dependent and independent iterations" "$BIN/dependence" --csv "$RESULTS/dependence.csv"
step "3. timing honestly" "$BIN/timing" --csv "$RESULTS/timing.csv"
step "4. four loops from L1 to DRAM" "$BIN/loops" -n "$loop_sizes" --csv "$RESULTS/loops.csv"
