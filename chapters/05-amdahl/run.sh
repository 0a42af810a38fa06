#!/usr/bin/env bash
# chapters/05-amdahl/run.sh: what `make chapter-5` runs, in the order the
# README reads: the laws by the numbers, then a program measured against them.
#   BIN, RESULTS   where the programs are and where the CSV goes
#   FULL=1         more repeats and a bigger job (less noise in the fit)
#   THREADS=1,2,4  the thread counts to sweep (default 1..cores, then 2x cores)
set -euo pipefail
BIN=${BIN:-build/ch05}
RESULTS=${RESULTS:-results/05-amdahl}
mkdir -p "$RESULTS"
size=4M
if [ "${FULL:-}" = 1 ]; then export PW_MIN_TIME=0.5 PW_MIN_REPS=15; size=16M; fi

step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "1. the laws, computed" "$BIN/amdahl" --csv "$RESULTS/amdahl.csv"
step "2. a serial fraction of 5%, measured" "$BIN/scaling" -s 0.05 -n "$size" --csv "$RESULTS/scaling.csv"
