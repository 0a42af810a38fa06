#!/usr/bin/env bash
# chapters/05-amdahl/run.sh: what `make chapter-5` runs, in the order the
# README reads: the laws by the numbers, then a program measured against them.
# Before each step a question to answer first; after it, the program prints
# the answer from its own numbers.
#   BIN, RESULTS   where the programs are and where the CSV goes
#   FULL=1         more repeats and a bigger job (less noise in the fit)
#   THREADS=1,2,4  the thread counts to sweep (default 1..cores, then 2x cores)
set -euo pipefail
BIN=${BIN:-build/ch05}
RESULTS=${RESULTS:-results/05-amdahl}
mkdir -p "$RESULTS"
size=4M
if [ "${FULL:-}" = 1 ]; then export PW_MIN_TIME=0.5 PW_MIN_REPS=15; size=16M; fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "95% of a job is parallel (p = 0.95): how much faster on 256 processors: about 240x,
  about 100x, or under 20x? From how many processors on is half their time wasted?"
step "1. the laws, computed" "$BIN/amdahl" --csv "$RESULTS/amdahl.csv"

predict "the job is 5% serial by construction: will your speedup on all cores reach the
  1 / (0.05 + 0.95 / cores) Amdahl allows, and will the fitted p be above or below 0.95?
  Grown with the threads (weak scaling), will its scaled speedup beat the fixed job's?"
step "2. a serial fraction of 5%, measured" "$BIN/scaling" -s 0.05 -n "$size" --csv "$RESULTS/scaling.csv"
